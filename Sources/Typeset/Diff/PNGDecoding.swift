// Decoding PNGs for comparing screens (`typeset diff`, `snapshot`): 8-bit RGB and RGBA images
// into `PixelImage`'s words (`trueColorPixels`), and the resolution a PNG says (its pHYs chunk), which
// a diff image takes on.
import CCairo  // zlib
import Glibc  // memcmp

extension PNGFile {
    /// The pixels of an 8-bit RGB or RGBA PNG, not interlaced, without tRNS (what typeset, Cairo
    /// and most screenshot tools write), as `PixelImage` words: 32-bit words of alpha, red,
    /// green and blue as the file has them (not multiplied by alpha), RGB with alpha 255, 0 for
    /// every pixel of alpha 0. Nil for every other PNG (one with a palette chunk or a zlib window
    /// other than 32 KiB among them) and at any flaw (a chunk type that is not four letters, a
    /// critical chunk's CRC, data that does not inflate to exactly its rows, an unknown filter
    /// type): those are Cairo's to decode or refuse. A 780 × 1688 screen takes 46 million
    /// instructions here, 69 million through Cairo, whose libpng rows and per-pixel conversion
    /// cost as much as inflating.
    static func trueColorPixels(_ bytes: [UInt8]) -> (width: Int, height: Int, words: [UInt32])? {
        guard let (width, height, channels, data) = trueColorData(bytes) else { return nil }
        let rowLength = 1 + width * channels
        let expected = height * rowLength
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var status = Z_OK
        // One byte more than the rows: data past them is Cairo's to judge, and the last RGB pixel
        // is read as four bytes. (Neither array is cleared first: what is read of them is
        // written before.)
        var rows = [UInt8](unsafeUninitializedCapacity: expected + 1) { output, count in
            count = expected + 1
            output[expected] = 0
            bytes.withUnsafeBufferPointer { input in
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(expected + 1)
                guard let start = input.baseAddress else { return }
                for range in data where status == Z_OK {
                    stream.next_in = UnsafeMutablePointer(mutating: start + range.lowerBound)
                    stream.avail_in = uInt(range.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    if status == Z_BUF_ERROR, stream.avail_out > 0 { status = Z_OK }  // this chunk used up
                }
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expected else { return nil }
        var unfiltered = false
        let words = [UInt32](unsafeUninitializedCapacity: width * height) { words, count in
            count = width * height
            guard let out = words.baseAddress else { return }
            unfiltered = rows.withUnsafeMutableBufferPointer { rows in
                rows.baseAddress.map { unfilter($0, into: out, width: width, height: height, channels: channels) }
                    ?? false
            }
        }
        return unfiltered ? (width, height, words) : nil
    }

    /// The size, channels (3 or 4) and image data (the IDAT chunks' contents, in order) of a PNG
    /// `trueColorPixels` decodes; nil for one it leaves to Cairo by its chunks alone (whether the
    /// data inflates to its rows is not tried).
    private static func trueColorData(_ bytes: [UInt8])
        -> (width: Int, height: Int, channels: Int, data: [Range<Int>])?
    {
        guard bytes.count >= 33, bytes.starts(with: signature), bigEndian(bytes, 8) == 13,
            bytes[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        let width = bigEndian(bytes, 16)
        let height = bigEndian(bytes, 20)
        let channels = bytes[25] == 6 ? 4 : 3
        // Depth 8, RGB or RGBA, deflate, the one filter method, no interlacing; Cairo's sides,
        // and no more pixels than a PNG page may have (a phone's screen at 3× has 3 Mi).
        guard bytes[24] == 8, bytes[25] == 2 || bytes[25] == 6, bytes[26] == 0, bytes[27] == 0, bytes[28] == 0,
            (1...maximumPixelSide).contains(width), (1...maximumPixelSide).contains(height),
            width * height <= maximumPixelCount
        else { return nil }
        var data: [Range<Int>] = []
        var ended = false
        for (index, chunk) in chunks(of: bytes).enumerated() {
            let type = chunk.type
            // libpng refuses a chunk whose type is not four ASCII letters, whatever the chunk.
            guard type.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
            let critical = type.first.map { $0 & 0x20 == 0 } ?? false
            if critical {
                guard PNGFile.hasValidCRC(bytes, chunkData: chunk.data) else { return nil }
            }
            switch String(decoding: type, as: UTF8.self) {
            case "IHDR": guard index == 0 else { return nil }
            case "IDAT":
                // One run of IDAT chunks, as libpng requires.
                guard data.last.map({ $0.upperBound + 12 == chunk.data.lowerBound }) ?? true else { return nil }
                data.append(chunk.data)
            case "IEND": ended = true
            // A suggested palette is not drawn, but libpng checks it (its length, that there is
            // one): such rare files are Cairo's.
            case "PLTE", "tRNS": return nil
            default: if critical { return nil }
            }
            if ended { break }
        }
        // The zlib header: deflate with a 32 KiB window. libpng inflates with the window the
        // header declares and refuses data reaching further back; zlib here would not.
        guard ended, let first = data.first, first.count >= 2, bytes[first.lowerBound] == 0x78 else { return nil }
        return (width, height, channels, data)
    }

    /// Whether the PNGs `a` and `b` are one image by their bytes alone: both of the kind
    /// `trueColorPixels` reads, with the same header and the same image data however it is cut
    /// into IDAT chunks, so that decoding gives both the same pixels (or refuses both). Their
    /// other chunks (a resolution, text, a date) may differ: a reference an earlier version wrote,
    /// without the pHYs chunk, is known to be the page without inflating it (5 ms of a core a screen).
    static func samePixelData(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard let first = trueColorData(a), let second = trueColorData(b), a[16..<29] == b[16..<29] else {
            return false
        }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                sameBytes(a, first.data, b, second.data)
            }
        }
    }

    /// Whether the `ranges` of `a` joined are the `others` of `b` joined.
    private static func sameBytes(
        _ a: UnsafeBufferPointer<UInt8>, _ ranges: [Range<Int>], _ b: UnsafeBufferPointer<UInt8>, _ others: [Range<Int>]
    ) -> Bool {
        guard ranges.reduce(0, { $0 + $1.count }) == others.reduce(0, { $0 + $1.count }),
            let a = a.baseAddress, let b = b.baseAddress
        else { return false }
        var (i, j) = (0, 0)  // the ranges at hand
        var (x, y) = (ranges.first?.lowerBound ?? 0, others.first?.lowerBound ?? 0)  // where in them
        while i < ranges.count && j < others.count {
            let length = min(ranges[i].upperBound - x, others[j].upperBound - y)
            guard memcmp(a + x, b + y, length) == 0 else { return false }
            x += length
            y += length
            if x == ranges[i].upperBound {
                i += 1
                if i < ranges.count { x = ranges[i].lowerBound }
            }
            if y == others[j].upperBound {
                j += 1
                if j < others.count { y = others[j].lowerBound }
            }
        }
        return true
    }

    /// Undoes each row's filter (PNG §9) in `rows` and turns its pixels into words;
    /// false at an unknown filter type. `rows` has a byte after the last row.
    private static func unfilter(
        _ rows: UnsafeMutablePointer<UInt8>, into words: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
        channels: Int
    ) -> Bool {
        let length = width * channels
        let zeros = [UInt8](repeating: 0, count: length)
        return zeros.withUnsafeBufferPointer { zeros in
            guard let zeroRow = zeros.baseAddress else { return false }
            for y in 0..<height {
                let line = rows + y * (length + 1) + 1
                let above = y == 0 ? UnsafeMutablePointer(mutating: zeroRow) : line - (length + 1)
                switch line[-1] {
                case 0: break
                case 1:
                    for i in channels..<length { line[i] &+= line[i - channels] }
                case 2:
                    for i in 0..<length { line[i] &+= above[i] }
                case 3:
                    for i in 0..<channels { line[i] &+= above[i] >> 1 }
                    for i in channels..<length {
                        line[i] &+= UInt8((UInt16(line[i - channels]) + UInt16(above[i])) >> 1)
                    }
                case 4:
                    for i in 0..<channels { line[i] &+= above[i] }  // left and upper left are 0
                    for i in channels..<length {
                        let a = Int(line[i - channels]), b = Int(above[i]), c = Int(above[i - channels])
                        let p = a + b - c
                        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        line[i] &+= UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
                    }
                default: return false
                }
                let out = words + y * width
                if channels == 3 {
                    // Each pixel read as four bytes, red first: the fourth is the next pixel's, the
                    // next row's filter type or, after the last row, the byte `rows` has to spare.
                    var pixel = UnsafeRawPointer(line)
                    for x in 0..<width {
                        out[x] = 0xFF00_0000 | UInt32(bigEndian: pixel.loadUnaligned(as: UInt32.self)) >> 8
                        pixel += 3
                    }
                } else {
                    for x in 0..<width {
                        let p = line + 4 * x
                        let alpha = UInt32(p[3])
                        out[x] = alpha == 0 ? 0 : alpha << 24 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                    }
                }
            }
            return true
        }
    }

    /// The data of the pHYs chunk of the PNG at `path` (before its image data), if it has one.
    static func resolution(ofFileAt path: String) -> [UInt8]? {
        readFile(path, limit: 1 << 16).flatMap(resolution(of:))
    }

    /// The same of a PNG's `bytes`.
    static func resolution(of bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: signature) else { return nil }
        let header = chunks(of: bytes).prefix { !$0.type.elementsEqual("IDAT".utf8) }
        guard let chunk = header.first(where: { $0.type.elementsEqual("pHYs".utf8) }), chunk.data.count == 9 else {
            return nil
        }
        return Array(bytes[chunk.data])
    }
}
