// PNG encoding of opaque rendered pages (PNG, ISO/IEC 15948; deflate, RFC 1951; zlib, RFC 1950),
// many times faster than Cairo's writer for the same pixels.
//
// Cairo hands its image to libpng with libpng's defaults: every row tried with all five filters
// and compressed by zlib at level 6. On a 780 × 1688 page that is over 80% of the time of a
// render to PNG (measured: 44% zlib, 42% libpng's filters). Rendered pages are mostly rows equal
// to the row above (margins, the space between lines) and, within a row, runs of one color, so
// an encoder that looks only for those two repeats compresses them about as well as zlib's
// search does, in one pass with no hash table:
//
// - every row is stored unfiltered (filter type 0), so a row equal to the one above is equal in
//   the compressed stream too: matches at the row's distance;
// - elsewhere, a match is taken from the same place one row up or from the pixel just before,
//   whichever is longer (greedy); anything else is a literal;
// - one deflate block with the fixed Huffman codes (no tables to build or send).
//
// It works on Cairo's 32-bit pixels as they are, never on RGB bytes: runs of pixels equal to
// those above or to the pixel before are found comparing two pixels at a time (`Runs`), a run
// of n pixels is a match of 3n bytes, and only the other pixels are taken apart into literal
// bytes. On the benchmark's pages 2/3 of the rows equal the one above (one memcmp each), and a
// row that does not differs from it in about 75 of 780 pixels, 47 of them literals (94% grey:
// one table entry for their three codes). The Adler-32 is computed from those pixels too
// (`RowSums`), not from the 2,341 bytes of each row. Matches are whole pixels: a byte repeating
// inside a literal pixel is not found, which on those pages makes no measurable difference.
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
        guard width > 0, height > 0, stride >= 4 * width else { return nil }
        let rowBytes = 1 + 3 * width  // filter byte + RGB
        // The row above must be within deflate's 32 KiB window (pages up to 10,922 pixels wide).
        guard rowBytes <= 32768 else { return nil }

        // The zlib stream, in a buffer sized for the worst case (every byte a 9-bit literal;
        // left uninitialized, only what is written counts), then copied into a file of its
        // size: a render keeps every page's file until it writes them all.
        let streamCapacity = 2 + (rowBytes * height * 9) / 8 + 64
        let stream = UnsafeMutablePointer<UInt8>.allocate(capacity: streamCapacity)
        defer { stream.deallocate() }
        guard let length = compress(pixels: pixels, width: width, height: height, stride: stride, into: stream)
        else { return nil }

        let streamStart = 8 + 25 + 18 + 8  // signature, IHDR, bKGD, IDAT's length and type
        let size = streamStart + length + 4 + 12  // IDAT's CRC, IEND
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, written in
            guard let out = buffer.baseAddress else { return }
            for (i, byte) in [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A].enumerated() { out[i] = UInt8(byte) }
            var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            header += [8, 2, 0, 0, 0]  // 8 bits per channel, RGB, deflate, adaptive filtering, no interlace
            var end = writeChunk("IHDR", header, at: out + 8)
            // The background Cairo's writer declares: white, in 16-bit samples.
            end = writeChunk("bKGD", [0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF], at: end)
            (out + streamStart).update(from: stream, count: length)
            end = finishChunk("IDAT", length: length, at: end)
            end = writeChunk("IEND", [], at: end)
            written = end - out
        }
    }

    /// Writes the zlib stream of the image's unfiltered RGB rows at `out`; its length, or nil
    /// when a pixel is not opaque.
    private static func compress(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        // Row 0 is compared with a row of zero pixels: no opaque pixel equals one (alpha 0), and
        // the checksum's sums start from zero (see `RowSums`).
        let zeroRow = [UInt32](repeating: 0, count: width)
        return FixedCodes.table.withUnsafeBufferPointer { table -> Int? in
            zeroRow.withUnsafeBufferPointer { zeros -> Int? in
                guard let table = table.baseAddress, let zeros = zeros.baseAddress else { return nil }
                var encoder = Encoder(out: out, table: table, width: width)
                var above = zeros
                // Whether the row above is all one color, once asked for a block of equal rows.
                var aboveIsOneColor: Bool? = nil
                for y in 0..<height {
                    let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    // Most rows equal the one above (compared whole first, by memcmp, as fast as
                    // it gets): the same bytes again, and the same checksum sums.
                    if y > 0 && memcmp(row, above, 4 * width) == 0 {
                        let oneColor = aboveIsOneColor ?? (Runs.ofColor(row[0], in: row, count: width) == width)
                        aboveIsOneColor = oneColor
                        encoder.repeatRow(oneColor: oneColor)
                    } else {
                        // Each pixel is checked when it is a literal; the others equal one that was.
                        guard encoder.encodeRow(row, above: above) else { return nil }
                        aboveIsOneColor = nil
                    }
                    encoder.addRowToChecksum()
                    above = row
                }
                return encoder.finish()
            }
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }

    /// Writes a whole chunk at `out`; where it ends.
    private static func writeChunk(_ type: String, _ data: [UInt8], at out: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        for (i, byte) in data.enumerated() { out[8 + i] = byte }
        return finishChunk(type, length: data.count, at: out)
    }

    /// Writes the length and type of a chunk whose `length` data bytes are already at `out + 8`,
    /// and after them its CRC (of type and data); where the chunk ends.
    private static func finishChunk(_ type: String, length: Int, at out: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        for (i, byte) in bigEndian(UInt32(length)).enumerated() { out[i] = byte }
        for (i, byte) in type.utf8.enumerated() { out[4 + i] = byte }
        let crc = crc32(0, out + 4, UInt32(4 + length))
        for (i, byte) in bigEndian(UInt32(truncatingIfNeeded: crc)).enumerated() { out[8 + length + i] = byte }
        return out + 12 + length
    }
}

/// The deflate stream of one image, row by row, and its Adler-32.
private struct Encoder {
    var bits: BitWriter
    var sums = RowSums()
    /// Adler-32 so far (RFC 1950): 1 + the sum of the bytes, and the sum of those sums.
    var s1 = 1
    var s2 = 0
    let table: UnsafePointer<UInt64>
    let width: Int
    let rowBytes: Int
    /// The code of the row above's distance, as in `FixedCodes.table`.
    let up: UInt64

    init(out: UnsafeMutablePointer<UInt8>, table: UnsafePointer<UInt64>, width: Int) {
        bits = BitWriter(out: out)
        self.table = table
        self.width = width
        rowBytes = 1 + 3 * width
        up = FixedCodes.distance(rowBytes)
        bits.write(0x78, count: 8)  // zlib: deflate, 32 KiB window
        bits.write(0x01, count: 8)  // no dictionary, fastest; (0x7801) % 31 == 0
        bits.write(1, count: 1)  // BFINAL: the only block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
    }

    /// A row equal to the one above: matches at the row's distance. A row of one color (most
    /// of them: margins, space between lines) takes the filter byte and its first pixel from
    /// the row above and the rest from the pixel before, whose distance code is 10 bits
    /// shorter per 258 bytes.
    @inline(__always)
    mutating func repeatRow(oneColor: Bool) {
        if oneColor && width >= FixedCodes.longRun {
            bits.writeMatches(bytes: 4, distance: up, table)
            bits.writeMatches(bytes: 3 * (width - 1), distance: FixedCodes.pixelBefore, table)
        } else {
            bits.writeMatches(bytes: rowBytes, distance: up, table)
        }
    }

    /// Encodes a row that differs from the one above (row 0: from a row of zeros) and updates
    /// `sums` from the row above's to this row's; false if a pixel is not opaque.
    @inline(__always)
    mutating func encodeRow(_ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>) -> Bool {
        let opaque: Bool
        (bits, sums, opaque) = Self.encode(row, above: above, width: width, bits, sums, table: table, up: up)
        return opaque
    }

    /// Greedy: at each pixel, the longer of the run equal to the pixels above and the run equal
    /// to the pixel before (on a tie the latter, whose distance code is shorter); a pixel in
    /// neither is three literals.
    ///
    /// Not inlined, and not a method: the writer and the sums come in and go out as values, so
    /// they stay in registers (as parts of `self` they were stored back at every pixel, since
    /// the calls to `Runs` might have read them). Indices are below the width (at most
    /// 10,922), so their arithmetic is unchecked (`&+`).
    @inline(never)
    private static func encode(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, width: Int,
        _ bits: BitWriter, _ sums: RowSums, table: UnsafePointer<UInt64>, up: UInt64
    ) -> (BitWriter, RowSums, Bool) {
        var bits = bits
        var sums = sums
        let left = FixedCodes.pixelBefore
        var x: Int
        let first = row[0]
        if first == above[0] {
            // Only a zero (transparent) pixel of row 0 equals the row of zeros above it.
            guard first >= 0xFF00_0000 else { return (bits, sums, false) }
            let upRun = Runs.equal(row, above, count: width)
            // The filter byte (0 in every row) joins the up-run. A long run of one color is
            // cheaper as its first pixel from above and the rest from the pixel before.
            let colorRun = upRun >= FixedCodes.longRun ? Runs.ofColor(first, in: row + 1, count: width &- 1) : 0
            if colorRun > 0 && colorRun >= upRun &- 1 {
                bits.writeMatches(bytes: 4, distance: up, table)
                bits.writeMatches(bytes: 3 &* colorRun, distance: left, table)
                sums.replaceAbove(above, from: upRun, to: 1 &+ colorRun, with: first)
                x = 1 &+ colorRun
            } else {
                bits.writeMatches(bytes: 1 &+ 3 &* upRun, distance: up, table)
                x = upRun
            }
        } else {
            guard first >= 0xFF00_0000 else { return (bits, sums, false) }
            bits.writeLiteral(0, table)  // filter type 0
            bits.writePixel(first, table)
            sums.replace(above[0], with: first, at: 0)
            x = 1
        }
        while x < width {
            let pixel = row[x]
            if pixel == row[x &- 1] {
                let colorRun = Runs.ofColor(pixel, in: row + x, count: width &- x)
                let end = x &+ colorRun
                // The run above can only be longer if it goes past the pixel that ends this one.
                if pixel == above[x] && end < width && row[end] == above[end] {
                    let upRun = Runs.equal(row + x, above + x, count: width &- x)
                    if upRun > colorRun {
                        bits.writeMatches(bytes: 3 &* upRun, distance: up, table)
                        x = x &+ upRun
                        continue
                    }
                }
                bits.writeMatches(bytes: 3 &* colorRun, distance: left, table)
                sums.replaceAbove(above, from: x, to: end, with: pixel)
                x = end
            } else if pixel == above[x] {
                guard pixel >= 0xFF00_0000 else { return (bits, sums, false) }  // as above
                let upRun = Runs.equal(row + x, above + x, count: width &- x)
                bits.writeMatches(bytes: 3 &* upRun, distance: up, table)
                x = x &+ upRun
            } else {
                guard pixel >= 0xFF00_0000 else { return (bits, sums, false) }
                bits.writePixel(pixel, table)
                sums.replace(above[x], with: pixel, at: x)
                x = x &+ 1
            }
        }
        return (bits, sums, true)
    }

    /// Adds the row just encoded (whose sums are `sums`) to the Adler-32.
    @inline(__always)
    mutating func addRowToChecksum() {
        s2 = (s2 + rowBytes * s1 + sums.weighted(rowBytes: rowBytes)) % 65521
        s1 = (s1 + sums.s) % 65521
    }

    /// Ends the block and the zlib stream; the stream's length.
    mutating func finish() -> Int {
        bits.write(0, count: 7)  // end of block: symbol 256, seven zero bits
        bits.alignToByte()
        for byte in [s2 >> 8, s2, s1 >> 8, s1] { bits.write(UInt64(byte & 0xFF), count: 8) }
        bits.alignToByte()
        return bits.count
    }
}

/// The Adler-32 of a row without reading its bytes. An n-byte row (the filter byte 0, then R, G, B
/// of pixels 0, 1, ...) adds the sum of its bytes to s1 and the sum of byte j (1-based) times
/// n - j + 1 to s2. Pixel x's R, G, B are bytes 2 + 3x, 3 + 3x, 4 + 3x, so the latter is
/// (n - 2)·S - 3·T - D, with S the sum of R + G + B over the row's pixels, T that of
/// x·(R + G + B) and D that of B - R (0 for grey pixels). Those are sums over pixels: a row's are
/// the row above's, corrected for the pixels that differ (about 75 a row on the benchmark's
/// pages).
private struct RowSums {
    var s = 0
    var t = 0
    var d = 0

    /// Pixel x was `old` in the row above and is `new` in this one.
    @inline(__always)
    mutating func replace(_ old: UInt32, with new: UInt32, at x: Int) {
        // Far from overflowing: t < 765 · 10,922² / 2.
        if isGrey(old) && isGrey(new) {  // most of them: anti-aliased text on white
            let sumChange = 3 &* (Int(new & 0xFF) &- Int(old & 0xFF))
            s = s &+ sumChange
            t = t &+ x &* sumChange
        } else {
            let sumChange = Self.channelSum(new) &- Self.channelSum(old)
            s = s &+ sumChange
            t = t &+ x &* sumChange
            d = d &+ (Int(new & 0xFF) &- Int((new >> 16) & 0xFF)) &- (Int(old & 0xFF) &- Int((old >> 16) & 0xFF))
        }
    }

    /// The pixels from `x` to `end` are `color`; those above that are not change the sums.
    @inline(__always)
    mutating func replaceAbove(_ above: UnsafePointer<UInt32>, from x: Int, to end: Int, with color: UInt32) {
        var i = x
        while i < end {
            let old = above[i]
            if old == color {
                i = i &+ 1 &+ Runs.ofColor(color, in: above + (i &+ 1), count: end &- i &- 1)
            } else {  // often several in a row, where the row above has a glyph: no call
                replace(old, with: color, at: i)
                i = i &+ 1
            }
        }
    }

    @inline(__always)
    func weighted(rowBytes n: Int) -> Int { (n - 2) * s - 3 * t - d }

    /// R + G + B.
    @inline(__always)
    static func channelSum(_ pixel: UInt32) -> Int {
        Int((pixel >> 16) & 0xFF) &+ Int((pixel >> 8) & 0xFF) &+ Int(pixel & 0xFF)
    }
}

/// Whether R = G = B.
@inline(__always)
private func isGrey(_ pixel: UInt32) -> Bool { (pixel ^ (pixel >> 8)) & 0xFFFF == 0 }

/// Run lengths over 32-bit pixels, eight at a time, then two. Not inlined: called about 35,000
/// times a page, each a small loop that wants its registers.
private enum Runs {
    /// How many of the `count` pixels from `row` equal those from `other`.
    @inline(never)
    static func equal(_ row: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, count: Int) -> Int {
        let a = UnsafeRawPointer(row)
        let b = UnsafeRawPointer(other)
        var i = 0
        while i &+ 8 <= count {
            let offset = 4 &* i
            let difference =
                (a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self)
                    ^ b.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self))
            if difference != 0 { break }
            i = i &+ 8
        }
        while i &+ 2 <= count {
            let difference =
                a.loadUnaligned(fromByteOffset: 4 &* i, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: 4 &* i, as: UInt64.self)
            if difference != 0 { return i &+ firstDifferentPixel(difference) }
            i = i &+ 2
        }
        if i < count && row[i] == other[i] { i = i &+ 1 }
        return i
    }

    /// How many of the `count` pixels from `row` are `color`.
    @inline(never)
    static func ofColor(_ color: UInt32, in row: UnsafePointer<UInt32>, count: Int) -> Int {
        let a = UnsafeRawPointer(row)
        let pair = UInt64(color) | UInt64(color) << 32
        var i = 0
        while i &+ 8 <= count {
            let offset = 4 &* i
            let difference =
                (a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ pair)
                | (a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self) ^ pair)
                | (a.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self) ^ pair)
                | (a.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self) ^ pair)
            if difference != 0 { break }
            i = i &+ 8
        }
        while i &+ 2 <= count {
            let difference = a.loadUnaligned(fromByteOffset: 4 &* i, as: UInt64.self) ^ pair
            if difference != 0 { return i &+ firstDifferentPixel(difference) }
            i = i &+ 2
        }
        if i < count && row[i] == color { i = i &+ 1 }
        return i
    }

    /// 0 or 1: which of two pixels loaded as one word (non-zero difference) differs first.
    @inline(__always)
    static func firstDifferentPixel(_ difference: UInt64) -> Int {
        difference.littleEndian.trailingZeroBitCount >> 5
    }
}

/// Deflate's fixed Huffman codes (RFC 1951 §3.2.6) in one table of (bits to write, LSB first) |
/// (bit count) << 32, codes bit-reversed since Huffman codes are sent most significant bit first.
private enum FixedCodes {
    /// Where the length codes and the grey pixels' codes start in `table`.
    static let lengthsStart = 256
    static let grey = lengthsStart + 259
    /// Runs of at least this many pixels take more than one match (258 bytes = 86 pixels).
    static let longRun = 86
    /// Distance 3: the pixel before.
    static let pixelBefore = distance(3)

    /// Bytes 0...255 as literals; lengths 0...258 as their length code followed by the extra
    /// bits (0...2: unused); grey pixels 0...255 as three literals.
    static let table: [UInt64] = {
        let literals = (0..<256).map { literal($0) }
        let lengths = (0...258).map { length -> UInt64 in
            guard length >= 3 else { return 0 }
            let (symbol, base, extra) = lengthSymbol(length)
            let code = literal(symbol)
            let count = code >> 32
            return code & 0xFFFF_FFFF | UInt64(length - base) << count | (count + UInt64(extra)) << 32
        }
        let greys = literals.map { code -> UInt64 in
            let bits = code & 0xFFFF_FFFF
            let count = code >> 32
            return bits | bits << count | bits << (2 * count) | (3 * count) << 32
        }
        return literals + lengths + greys
    }()

    /// The code of a literal/length symbol 0...287 as a table entry.
    static func literal(_ symbol: Int) -> UInt64 {
        let (code, count): (UInt32, UInt32)
        switch symbol {
        case 0...143: (code, count) = (0x30 + UInt32(symbol), 8)
        case 144...255: (code, count) = (0x190 + UInt32(symbol - 144), 9)
        case 256...279: (code, count) = (UInt32(symbol - 256), 7)
        default: (code, count) = (0xC0 + UInt32(symbol - 280), 8)
        }
        return UInt64(reverse(code, count)) | UInt64(count) << 32
    }

    /// Length 3...258 → its symbol, the length the symbol starts at, its count of extra bits.
    static func lengthSymbol(_ length: Int) -> (symbol: Int, base: Int, extra: Int) {
        if length == 258 { return (285, 258, 0) }
        // Codes 257...284: four codes per extra-bit count, after eight with none.
        var code = 0
        var start = 3
        while true {
            let extraBits = code < 8 ? 0 : (code - 4) / 4
            let span = 1 << extraBits
            if length < start + span { return (257 + code, start, extraBits) }
            start += span
            code += 1
        }
    }

    static func reverse(_ code: UInt32, _ count: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for i in 0..<count where code & (1 << i) != 0 { result |= 1 << (count - 1 - i) }
        return result
    }

    /// A distance's 5-bit code followed by its extra bits, as a table entry.
    static func distance(_ distance: Int) -> UInt64 {
        var code = 0
        var start = 1
        while true {
            let extraBits = code < 4 ? 0 : (code - 2) / 2
            let span = 1 << extraBits
            if distance < start + span {
                return UInt64(reverse(UInt32(code), 5)) | UInt64(distance - start) << 5 | UInt64(5 + extraBits) << 32
            }
            start += span
            code += 1
        }
    }
}

/// Writes bits least significant first into a buffer the caller sized for the worst case.
private struct BitWriter {
    let start: UnsafeMutablePointer<UInt8>
    private var out: UnsafeMutablePointer<UInt8>
    private var buffer: UInt64 = 0
    private var bitCount: UInt64 = 0

    init(out: UnsafeMutablePointer<UInt8>) {
        start = out
        self.out = out
    }

    /// Bytes written so far (after `alignToByte`, all of them).
    var count: Int { out - start }

    /// At most 32 bits at a time: with fewer than 32 pending, they fit the 64-bit buffer.
    @inline(__always)
    mutating func write(_ bits: UInt64, count: UInt64) {
        buffer |= bits &<< bitCount
        bitCount = bitCount &+ count
        if bitCount >= 32 {
            UnsafeMutableRawPointer(out).storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            out += 4
            buffer &>>= 32
            bitCount = bitCount &- 32
        }
    }

    @inline(__always)
    mutating func writeLiteral(_ byte: UInt8, _ table: UnsafePointer<UInt64>) {
        let code = table[Int(byte)]
        write(code & 0xFFFF_FFFF, count: code >> 32)
    }

    /// A pixel as three literals: R, G, B (27 bits at most).
    @inline(__always)
    mutating func writePixel(_ pixel: UInt32, _ table: UnsafePointer<UInt64>) {
        // Grey (R = G = B), as most anti-aliased text is: its three codes in one entry.
        if isGrey(pixel) {
            let code = table[FixedCodes.grey &+ Int(pixel & 0xFF)]
            write(code & 0xFFFF_FFFF, count: code >> 32)
        } else {
            let r = table[Int((pixel >> 16) & 0xFF)]
            let g = table[Int((pixel >> 8) & 0xFF)]
            let b = table[Int(pixel & 0xFF)]
            let rCount = r >> 32
            let rgCount = rCount &+ (g >> 32)
            write(
                (r & 0xFFFF_FFFF) | (g & 0xFFFF_FFFF) &<< rCount | (b & 0xFFFF_FFFF) &<< rgCount,
                count: rgCount &+ (b >> 32))
        }
    }

    /// `bytes` (at least 3) copied from `distance` back, as matches of at most 258 bytes, none
    /// shorter than 3. `distance` is a table entry from `FixedCodes.distance`.
    @inline(__always)
    mutating func writeMatches(bytes: Int, distance: UInt64, _ table: UnsafePointer<UInt64>) {
        let distanceBits = distance & 0xFFFF_FFFF
        let distanceCount = distance >> 32
        var remaining = bytes
        while remaining > 0 {
            var length = min(remaining, 258)
            if remaining &- length > 0 && remaining &- length < 3 { length = remaining &- 3 }
            let code = table[FixedCodes.lengthsStart &+ length]
            let lengthCount = code >> 32
            // At most 13 + 18 bits.
            write(code & 0xFFFF_FFFF | distanceBits &<< lengthCount, count: lengthCount &+ distanceCount)
            remaining = remaining &- length
        }
    }

    /// Pads with zero bits to a byte boundary and flushes everything.
    mutating func alignToByte() {
        while bitCount > 0 {
            out.pointee = UInt8(truncatingIfNeeded: buffer)
            out += 1
            buffer &>>= 8
            bitCount = bitCount >= 8 ? bitCount - 8 : 0
        }
    }
}
