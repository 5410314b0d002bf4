// PNG encoding of opaque rendered pages (PNG, ISO/IEC 15948; deflate, RFC 1951; zlib, RFC 1950),
// about ten times faster than Cairo's writer for the same pixels.
//
// Cairo hands its image to libpng with libpng's defaults: every row tried with all five filters
// and compressed by zlib at level 6. On a 780 × 1688 page that is over 80% of the time of a
// render to PNG (measured: 44% zlib, 42% libpng's filters). Rendered pages are mostly rows equal
// to the row above (margins, the space between lines) and, within a row, runs of one color, so
// an encoder that looks only for those two repeats compresses them about as well as zlib's
// search does, in one pass with no hash table:
//
// - every row is stored unfiltered (filter type 0), so a row equal to the one above is equal in
//   the compressed stream too: one chain of matches at the row's distance;
// - elsewhere, a match is taken from the same place one row up or from the pixel just before,
//   whichever is longer (greedy); anything else is a literal;
// - one deflate block with the fixed Huffman codes (no tables to build or send).
//
// Output is a different byte stream than Cairo's but decodes to exactly the same pixels
// (RenderTests compares them). Pages with transparency go to Cairo's writer, which
// un-premultiplies them; this encoder takes opaque pages only.
import CCairo
import Glibc

enum PNGEncoder {
    /// PNG bytes of an opaque ARGB32 image (8-bit RGB, as Cairo writes opaque images), or nil
    /// when a pixel is not fully opaque.
    static func encodeOpaque(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int
    ) -> [UInt8]? {
        guard width > 0, height > 0 else { return nil }
        let rowBytes = 1 + 3 * width  // filter byte + RGB
        // The row above must be within deflate's 32 KiB window (pages up to 10,922 pixels wide).
        guard rowBytes <= 32768 else { return nil }
        guard let compressed = compress(pixels: pixels, width: width, height: height, stride: stride, rowBytes: rowBytes)
        else { return nil }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(compressed.count + 128)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 2, 0, 0, 0]  // 8 bits per channel, RGB, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        // The background Cairo's writer declares: white, in 16-bit samples.
        appendChunk("bKGD", [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF], to: &png)
        appendChunk("IDAT", compressed, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The zlib stream of the image's unfiltered RGB rows; nil when a pixel is not opaque.
    private static func compress(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, rowBytes: Int
    ) -> [UInt8]? {
        // Worst case: every byte a 9-bit literal. Left uninitialized: only what is written counts.
        let capacity = 2 + (rowBytes * height * 9) / 8 + 64
        var rows = [UInt8](repeating: 0, count: 2 * rowBytes)
        var opaque = true
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
            written = 0
            rows.withUnsafeMutableBufferPointer { rowBuffer in
                guard let outBase = out.baseAddress, let rowBase = rowBuffer.baseAddress else { return }
                var bits = BitWriter(out: outBase)
                bits.writeByte(0x78)  // zlib: deflate, 32 KiB window
                bits.writeByte(0x01)  // no dictionary, fastest compression; (0x7801) % 31 == 0
                bits.write(1, count: 1)  // BFINAL: the only block
                bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes

                var adler: UInt = 1  // Adler-32 of nothing
                var rowAdler: UInt = 0
                var previous = rowBase
                var current = rowBase + rowBytes
                for y in 0..<height {
                    let source = pixels + y * stride
                    // A row of pixels equal to the one above (compared before converting: most
                    // rows of a page are) is the same row again: matches at the row's distance.
                    if y > 0 && memcmp(source, source - stride, 4 * width) == 0 {
                        var remaining = rowBytes
                        while remaining > 0 {
                            var length = min(remaining, 258)
                            if remaining - length > 0 && remaining - length < 3 { length = remaining - 3 }
                            bits.writeMatch(length: length, distance: rowBytes)
                            remaining -= length
                        }
                        adler = adler32_combine(adler, rowAdler, rowBytes)
                        continue
                    }
                    if !convert(source, width: width, into: current) {
                        opaque = false
                        return
                    }
                    encode(row: current, previous: y > 0 ? previous : nil, rowBytes: rowBytes, &bits)
                    rowAdler = adler32(1, current, UInt32(rowBytes))  // 1: the checksum of nothing
                    adler = adler32_combine(adler, rowAdler, rowBytes)
                    swap(&previous, &current)
                }
                bits.write(0, count: 7)  // end of block: symbol 256, seven zero bits
                bits.alignToByte()
                for shift in [24, 16, 8, 0] { bits.writeByte(UInt8(truncatingIfNeeded: adler >> UInt(shift))) }
                written = bits.count
            }
        }
        return opaque ? output : nil
    }

    /// One row of ARGB32 pixels (native-endian words) as the filter byte 0 and R, G, B bytes;
    /// false when a pixel's alpha is not 255.
    @inline(__always)
    private static func convert(_ source: UnsafePointer<UInt8>, width: Int, into row: UnsafeMutablePointer<UInt8>) -> Bool {
        row[0] = 0
        var alpha: UInt32 = 0xFF00_0000
        source.withMemoryRebound(to: UInt32.self, capacity: width) { words in
            var out = row + 1
            for x in 0..<width {
                let pixel = words[x]
                alpha &= pixel
                out[0] = UInt8(truncatingIfNeeded: pixel >> 16)
                out[1] = UInt8(truncatingIfNeeded: pixel >> 8)
                out[2] = UInt8(truncatingIfNeeded: pixel)
                out += 3
            }
        }
        return alpha == 0xFF00_0000
    }

    /// Deflate symbols for one row: greedy matches against the row above (same offset) and
    /// the previous pixel, literals elsewhere.
    @inline(__always)
    private static func encode(
        row: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>?, rowBytes: Int, _ bits: inout BitWriter
    ) {
        var i = 0
        while i < rowBytes {
            var bestLength = 0
            var bestDistance = 0
            if let previous {
                let length = matchLength(row + i, previous + i, limit: min(258, rowBytes - i))
                if length >= 4 {
                    bestLength = length
                    bestDistance = rowBytes
                }
            }
            if i >= 4 && bestLength < 258 {
                let length = matchLength(row + i, row + i - 3, limit: min(258, rowBytes - i))
                if length >= 3 && length > bestLength {
                    bestLength = length
                    bestDistance = 3
                }
            }
            if bestLength > 0 {
                bits.writeMatch(length: bestLength, distance: bestDistance)
                i += bestLength
            } else {
                bits.writeLiteral(row[i])
                i += 1
            }
        }
    }

    /// How many bytes from `a` equal those from `b`, at most `limit`. `b` may overlap `a` from
    /// below (a run): bytes are compared as they stand, which is what deflate copies.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var n = 0
        let raw = UnsafeRawPointer(a)
        let other = UnsafeRawPointer(b)
        while n + 8 <= limit {
            let difference = raw.loadUnaligned(fromByteOffset: n, as: UInt64.self)
                ^ other.loadUnaligned(fromByteOffset: n, as: UInt64.self)
            if difference != 0 { return n + difference.trailingZeroBitCount / 8 }
            n += 8
        }
        while n < limit && a[n] == b[n] { n += 1 }
        return n
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        var crc = crc32(0, typeBytes, UInt32(typeBytes.count))
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &png)
    }
}

/// Deflate's fixed Huffman codes (RFC 1951 §3.2.6) as (bits to write, LSB first; bit count),
/// codes bit-reversed since Huffman codes are sent most significant bit first.
private enum FixedCodes {
    static let literals: [(bits: UInt32, count: UInt32)] = (0..<288).map { symbol in
        let (code, count): (UInt32, UInt32)
        switch symbol {
        case 0...143: (code, count) = (0x30 + UInt32(symbol), 8)
        case 144...255: (code, count) = (0x190 + UInt32(symbol - 144), 9)
        case 256...279: (code, count) = (UInt32(symbol - 256), 7)
        default: (code, count) = (0xC0 + UInt32(symbol - 280), 8)
        }
        return (reverse(code, count), count)
    }

    /// Length 3...258 → its length code's Huffman bits followed by the extra bits.
    static let lengths: [(bits: UInt32, count: UInt32)] = (0...258).map { length in
        guard length >= 3 else { return (0, 0) }
        var symbol = 257
        var extra: UInt32 = 0
        var base = 3
        if length == 258 {
            symbol = 285
            base = 258
        } else {
            // Codes 257...284: four codes per extra-bit count, after eight with none.
            var code = 0
            var start = 3
            while true {
                let extraBits = code < 8 ? 0 : (code - 4) / 4
                let span = 1 << extraBits
                if length < start + span {
                    symbol = 257 + code
                    extra = UInt32(extraBits)
                    base = start
                    break
                }
                start += span
                code += 1
            }
        }
        let code = literals[symbol]
        return (code.bits | (UInt32(length - base) << code.count), code.count + extra)
    }

    static func reverse(_ code: UInt32, _ count: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for i in 0..<count where code & (1 << i) != 0 { result |= 1 << (count - 1 - i) }
        return result
    }

    /// A distance's 5-bit code followed by its extra bits.
    static func distance(_ distance: Int) -> (bits: UInt64, count: UInt32) {
        var code = 0
        var start = 1
        while true {
            let extraBits = code < 4 ? 0 : (code - 2) / 2
            let span = 1 << extraBits
            if distance < start + span {
                return (UInt64(reverse(UInt32(code), 5)) | (UInt64(distance - start) << 5), 5 + UInt32(extraBits))
            }
            start += span
            code += 1
        }
    }
}

/// Writes bits least significant first into a buffer the caller sized for the worst case.
private struct BitWriter {
    let out: UnsafeMutablePointer<UInt8>
    var count = 0
    private var buffer: UInt64 = 0
    private var bitCount: UInt32 = 0
    /// Distance codes of the two distances a page uses, computed once each.
    private var cachedDistance = (distance: -1, bits: UInt64(0), count: UInt32(0))
    private var cachedDistance2 = (distance: -1, bits: UInt64(0), count: UInt32(0))
    private let literals = FixedCodes.literals
    private let lengths = FixedCodes.lengths

    init(out: UnsafeMutablePointer<UInt8>) {
        self.out = out
    }

    @inline(__always)
    mutating func write(_ bits: UInt64, count: UInt32) {
        buffer |= bits << UInt64(bitCount)
        bitCount += count
        if bitCount >= 32 {
            UnsafeMutableRawPointer(out + self.count).storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            self.count += 4
            buffer >>= 32
            bitCount -= 32
        }
    }

    @inline(__always)
    mutating func writeLiteral(_ byte: UInt8) {
        let code = literals[Int(byte)]
        write(UInt64(code.bits), count: code.count)
    }

    @inline(__always)
    mutating func writeMatch(length: Int, distance: Int) {
        let code = lengths[length]
        write(UInt64(code.bits), count: code.count)
        if cachedDistance.distance != distance {
            if cachedDistance2.distance == distance {
                swap(&cachedDistance, &cachedDistance2)
            } else {
                cachedDistance2 = cachedDistance
                let computed = FixedCodes.distance(distance)
                cachedDistance = (distance, computed.bits, computed.count)
            }
        }
        write(cachedDistance.bits, count: cachedDistance.count)
    }

    mutating func writeByte(_ byte: UInt8) {
        write(UInt64(byte), count: 8)
    }

    /// Pads with zero bits to a byte boundary and flushes everything.
    mutating func alignToByte() {
        while bitCount > 0 {
            out[count] = UInt8(truncatingIfNeeded: buffer)
            count += 1
            buffer >>= 8
            bitCount = bitCount >= 8 ? bitCount - 8 : 0
        }
    }
}
