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
// those above or to the pixel before are found comparing vectors of pixels (`Runs`; SSE2 on
// x86-64), a run of n pixels is a match of 3n bytes, and only the other pixels are taken apart
// into literal bytes. On the benchmark's pages 2/3 of the rows equal the one above (one memcmp
// each), and a row that does not differs from it in about 75 of 780 pixels, 47 of them
// literals (94% grey: one table entry for their three codes). The Adler-32 is computed from
// those pixels too (`RowSums`), not from the 2,341 bytes of each row. Matches are whole pixels:
// a byte repeating inside a literal pixel is not found, which on those pages makes no
// measurable difference.
//
// Output is a different byte stream than Cairo's but decodes to exactly the same pixels
// (RenderTests compares them). Pages with transparency (a translucent page background) are
// 8-bit RGBA, each pixel's colour divided by its alpha as Cairo's writer divides it
// (`encodeTranslucent`): their rows go unfiltered to zlib at level 3, not through libpng's five
// filters and level 6 (26 pages of text on a translucent background: 0.30 s, now 0.10 s; files
// a fifth larger; zlib's level 1 made them two thirds larger for 10% less time).
import CCairo
import Glibc

/// The worst-case stream buffers of `PNGEncoder.encodeOpaque`, reused from page to page and
/// between the jobs of a batch, as `PixelMemory`'s pixels are (a 780 × 1688 page's is 4.4 MB, of
/// which some 150 KB are written). Each page's, taken anew from the heap (freed memory is kept:
/// `FreedMemory.swift`), was written where other allocations had split the one before, and a
/// PNG batch's peak memory differed by up to 5 MB from run to run.
private enum StreamMemory {
    private static let idle = Locked<[(UnsafeMutablePointer<UInt8>, Int)]>([])
    /// At most this many are kept (one per job of a batch on most machines).
    private static let mostKept = 4

    static func take(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        let reused = idle.withLock { buffers -> UnsafeMutablePointer<UInt8>? in
            guard let index = buffers.firstIndex(where: { $0.1 == capacity }) else { return nil }
            return buffers.remove(at: index).0
        }
        return reused ?? UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    static func give(_ buffer: UnsafeMutablePointer<UInt8>, _ capacity: Int) {
        let dropped = idle.withLock { buffers -> UnsafeMutablePointer<UInt8>? in
            buffers.append((buffer, capacity))
            return buffers.count > mostKept ? buffers.removeFirst().0 : nil
        }
        dropped?.deallocate()
    }
}

enum PNGEncoder {
    /// PNG bytes of an opaque ARGB32 image (8-bit RGB, as Cairo writes opaque images), or nil
    /// when a pixel is not fully opaque.
    /// `pixelsPerPoint`: the resolution a pHYs chunk gives (`resolution(pixelsPerPoint:)`), if any.
    static func encodeOpaque(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, pixelsPerPoint: Double? = nil
    ) -> [UInt8]? {
        guard width > 0, height > 0, stride >= 4 * width else { return nil }
        let rowBytes = 1 + 3 * width  // filter byte + RGB
        guard rowBytes <= maximumOpaqueRowBytes else { return nil }

        // The zlib stream, in a buffer sized for the worst case (every byte a 9-bit literal;
        // left uninitialized, only what is written counts), then copied into a file of its
        // size: a render keeps every page's file until it writes them all.
        let streamCapacity = 2 + (rowBytes * height * 9) / 8 + 64
        let stream = StreamMemory.take(streamCapacity)
        defer { StreamMemory.give(stream, streamCapacity) }
        guard let length = compress(pixels: pixels, width: width, height: height, stride: stride, into: stream)
        else { return nil }

        return file(width: width, height: height, colorType: 2, pixelsPerPoint: pixelsPerPoint, stream: stream, length: length)
    }

    /// A PNG file of one IDAT chunk: `length` bytes of zlib `stream` holding the rows of an 8-bit
    /// image of `colorType` (2 RGB, 6 RGBA), with a pHYs chunk for `pixelsPerPoint` if given.
    private static func file(
        width: Int, height: Int, colorType: UInt8, pixelsPerPoint: Double?, stream: UnsafePointer<UInt8>, length: Int
    ) -> [UInt8] {
        let resolution = pixelsPerPoint.map(Self.resolution(pixelsPerPoint:))
        // The signature, IHDR, pHYs, tEXt, bKGD, and IDAT's length and type.
        let streamStart = 8 + 25 + 12 + software.count + (resolution == nil ? 0 : 21) + 18 + 8
        let size = streamStart + length + 4 + 12  // IDAT's CRC, IEND
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, written in
            guard let out = buffer.baseAddress else { return }
            for (i, byte) in PNGFile.signature.enumerated() { out[i] = byte }
            var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            header += [8, colorType, 0, 0, 0]  // 8 bits per channel, deflate, adaptive filtering, no interlace
            var end = writeChunk("IHDR", header, at: out + 8)
            if let resolution { end = writeChunk("pHYs", resolution, at: end) }
            end = writeChunk("tEXt", software, at: end)
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
        let (codes, repeatedRow, oneColorRow) = FixedCodes.codes(width: width)
        return codes.withUnsafeBufferPointer { codes -> Int? in
            zeroRow.withUnsafeBufferPointer { zeros -> Int? in
                guard let codes = codes.baseAddress, let zeros = zeros.baseAddress else { return nil }
                var encoder = Encoder(
                    out: out, codes: codes, repeatedRow: repeatedRow, oneColorRow: oneColorRow, width: width)
                var above = zeros
                // Whether the row above is all one color, once asked for a block of equal rows.
                var aboveIsOneColor: Bool? = nil
                for y in 0..<height {
                    let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    // Most rows equal the one above (compared whole first, by memcmp, as fast as
                    // it gets): the same bytes again, and the same checksum sums.
                    if y > 0 && memcmp(row, above, 4 * width) == 0 {
                        let oneColor = aboveIsOneColor ?? (Runs.ofColor(row[0], in: row, from: 1, to: width) == width)
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

    /// The widest opaque rows `encodeOpaque` takes: the row above must be within deflate's
    /// 32 KiB window (pages up to 10,922 pixels wide).
    static let maximumOpaqueRowBytes = 32768

    /// Whether `encodeTranslucent` can take an image `encodeOpaque` did not: one too wide for
    /// `encodeOpaque` that is opaque is Cairo's writer's (an opaque image, whatever its width,
    /// made all of `encodeTranslucent`'s work before it gave up).
    static func mayBeTranslucent(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        guard 1 + 3 * width > maximumOpaqueRowBytes else { return true }  // encodeOpaque found a pixel
        for y in 0..<height {
            let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0xFF { return true }
        }
        return false
    }

    /// PNG bytes of an ARGB32 image with a pixel that is not opaque, as Cairo's writer gives its
    /// pixels: 8-bit RGBA, colours divided by alpha (`unpremultiplied`); nil for an opaque image
    /// (Cairo writes it as RGB: `encodeOpaque`) or when zlib fails. Rows go to zlib a band at a
    /// time (a page as bytes would be as large again as the page).
    static func encodeTranslucent(
        pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, pixelsPerPoint: Double? = nil
    ) -> [UInt8]? {
        guard width > 0, height > 0, stride >= 4 * width else { return nil }
        let rowBytes = 1 + 4 * width  // filter byte + RGBA
        let (total, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow else { return nil }
        var stream = z_stream()
        guard deflateInit2_(&stream, 3, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(total)))
        guard bound < Int(UInt32.max) else { return nil }
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: bound)
        defer { compressed.deallocate() }
        stream.next_out = compressed
        stream.avail_out = uInt(bound)
        let bandRows = max(1, 65536 / rowBytes)
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: bandRows * rowBytes)
        defer { band.deallocate() }
        var opaque = true
        // Runs of one colour are the rule: each colour is divided once (and its alpha looked at).
        var lastPixel: UInt32 = 0xFF00_0000  // opaque black
        var last = unpremultiplied(lastPixel)
        var y = 0
        while y < height {
            let rows = min(bandRows, height - y)
            for r in 0..<rows {
                let row = UnsafeRawPointer(pixels + (y + r) * stride).assumingMemoryBound(to: UInt32.self)
                let out = band + r * rowBytes
                out[0] = 0  // no filter
                let rgba = UnsafeMutableRawPointer(out + 1)
                for x in 0..<width {
                    let pixel = row[x]
                    if pixel != lastPixel {
                        lastPixel = pixel
                        last = unpremultiplied(pixel)
                        if pixel >> 24 != 0xFF { opaque = false }
                    }
                    rgba.storeBytes(of: last.bigEndian, toByteOffset: 4 * x, as: UInt32.self)
                }
            }
            y += rows
            stream.next_in = band
            stream.avail_in = uInt(rows * rowBytes)
            guard deflate(&stream, y == height ? Z_FINISH : Z_NO_FLUSH) == (y == height ? Z_STREAM_END : Z_OK) else { return nil }
        }
        guard !opaque else { return nil }
        return file(
            width: width, height: height, colorType: 6, pixelsPerPoint: pixelsPerPoint, stream: compressed,
            length: Int(stream.total_out))
    }

    /// A premultiplied ARGB pixel as PNG's RGBA (red in the high byte), as Cairo's writer
    /// divides it (`unpremultiply_data`: each colour × 255 + alpha / 2, over alpha; nothing where
    /// alpha is 0).
    @inline(__always)
    static func unpremultiplied(_ pixel: UInt32) -> UInt32 {
        let alpha = pixel >> 24
        guard alpha != 0 else { return 0 }
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            ((pixel >> shift & 0xFF) * 255 + alpha / 2) / alpha & 0xFF
        }
        return channel(16) << 24 | channel(8) << 16 | channel(0) << 8 | alpha
    }

    /// The data of the tEXt chunk every PNG of ours has after its header: "Software", typeset
    /// (`OutputFormat.isOurs`: an earlier run's output is told from a picture of that name).
    static let software = Array("Software\0typeset".utf8)

    /// `png` (Cairo's) with a pHYs chunk of `resolution` (`resolution(pixelsPerPoint:)`), when
    /// given, and the tEXt chunk `software` after its header (IHDR), as `file` writes them.
    static func marked(_ png: [UInt8], resolution: [UInt8]? = nil) -> [UInt8] {
        let resolution = resolution.flatMap { $0.count == 9 ? [(type: "pHYs", data: $0)] : nil } ?? []
        return inserting(resolution + [("tEXt", software)], into: png, at: 8 + 25)  // after the signature and IHDR
    }

    /// `png` with `chunks` at byte `offset`, where a chunk of its ends, in one copy.
    private static func inserting(_ chunks: [(type: String, data: [UInt8])], into png: [UInt8], at offset: Int) -> [UInt8] {
        guard png.count > offset, png.starts(with: PNGFile.signature) else { return png }
        var inserted = [UInt8](repeating: 0, count: chunks.reduce(0) { $0 + 12 + $1.data.count })
        inserted.withUnsafeMutableBufferPointer { buffer in
            guard var out = buffer.baseAddress else { return }
            for chunk in chunks { out = writeChunk(chunk.type, chunk.data, at: out) }
        }
        return Array(png[..<offset]) + inserted + png[offset...]
    }

    /// The data of a pHYs chunk for `pixelsPerPoint` × 72 pixels per inch: a page rendered at
    /// `--scale 2` is placed at its size in points (144 dpi), not at twice it, as a PNG without
    /// one is (taken as 72 dpi).
    static func resolution(pixelsPerPoint: Double) -> [UInt8] {
        let perMeter = bigEndian(UInt32((pixelsPerPoint * 72 / 0.0254).rounded()))
        return perMeter + perMeter + [1]  // x, y; 1: the unit is the meter
    }

    /// `png` with a pHYs chunk of `data` (9 bytes, `resolution(pixelsPerPoint:)`) after its
    /// header (IHDR).
    static func settingResolution(_ png: [UInt8], _ data: [UInt8]) -> [UInt8] {
        data.count == 9 ? inserting([("pHYs", data)], into: png, at: 8 + 25) : png  // after the signature and IHDR
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
    let start: UnsafeMutablePointer<UInt8>
    var sums = RowSums()
    /// Adler-32 so far (RFC 1950): 1 + the sum of the bytes, and the sum of those sums.
    var s1 = 1
    var s2 = 0
    /// How many pixels from the start of the row above are known to be its first pixel's color
    /// (at least 1).
    var aboveLead = 1
    /// The image's `FixedCodes.codes(width:)`, and where in them the codes of a row equal to the
    /// one above are: any row, and a row of one color.
    let codes: UnsafePointer<UInt64>
    let repeatedRow: Range<Int>
    let oneColorRow: Range<Int>
    let width: Int
    let rowBytes: Int

    init(
        out: UnsafeMutablePointer<UInt8>, codes: UnsafePointer<UInt64>, repeatedRow: Range<Int>,
        oneColorRow: Range<Int>, width: Int
    ) {
        bits = BitWriter(out: out)
        start = out
        self.codes = codes
        self.repeatedRow = repeatedRow
        self.oneColorRow = oneColorRow
        self.width = width
        rowBytes = 1 + 3 * width
        bits.write(0x78, count: 8)  // zlib: deflate, 32 KiB window
        bits.write(0x01, count: 8)  // no dictionary, fastest; (0x7801) % 31 == 0
        bits.write(1, count: 1)  // BFINAL: the only block
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
    }

    /// A row equal to the one above: matches at the row's distance. A row of one color (most
    /// of them: margins, space between lines) takes the filter byte and its first pixel from
    /// the row above and the rest from the pixel before, whose distance code is 10 bits
    /// shorter per 258 bytes. Both are the same codes every time, listed in `codes`.
    @inline(__always)
    mutating func repeatRow(oneColor: Bool) {
        for i in oneColor ? oneColorRow : repeatedRow { bits.write(codes[i]) }
    }

    /// Encodes a row that differs from the one above (row 0: from a row of zeros) and updates
    /// `sums` from the row above's to this row's; false if a pixel is not opaque.
    @inline(__always)
    mutating func encodeRow(_ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>) -> Bool {
        (bits, sums, aboveLead) = Self.encode(row, above: above, aboveLead: aboveLead, width: width, bits, sums, codes)
        return aboveLead > 0
    }

    /// Greedy: at each pixel, the longer of the run equal to the pixels above and the run equal
    /// to the pixel before (on a tie the latter, whose distance code is shorter); a pixel in
    /// neither is three literals. Returns the writer and the sums, and how many pixels from
    /// the row's start are known to be its first pixel's color (`aboveLead` for the next row),
    /// or 0 if a pixel is not opaque.
    ///
    /// Not a method, and little state: the writer and the sums come in and go out as values,
    /// so they stay in registers (as parts of `self` they were stored back at every pixel), and
    /// the distances are in `codes`, read for long runs only. Each kind of run is measured in
    /// one place (the row's first pixel apart, `encodeStart`), small enough for `Runs` to be
    /// inlined. Indices are below the width (at most 10,922), so their arithmetic is
    /// unchecked (`&+`).
    @inline(never)
    private static func encode(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, aboveLead: Int, width: Int,
        _ bits: BitWriter, _ sums: RowSums, _ codes: UnsafePointer<UInt64>
    ) -> (BitWriter, RowSums, Int) {
        var bits = bits
        var sums = sums
        // Pixels are indexed from the rows' ends (-width..<0): no register for the width, and
        // the index is the weight `RowSums` wants.
        let row = row + width
        let above = above + width
        guard let (rest, lead) = encodeStart(row, above: above, aboveLead: aboveLead, width: width, &bits, &sums, codes)
        else { return (bits, sums, 0) }
        var x = rest
        while x < 0 {
            let pixel = row[x]
            let old = above[x]
            // Literals first: most tokens are (anti-aliased text), most of them grey.
            if pixel != old && pixel != row[x &- 1] {
                let grey = pixel & 0xFF
                if pixel == 0xFF00_0000 | grey &* 0x01_0101 {
                    bits.write(codes[FixedCodes.grey &+ Int(grey)])
                    sums.replace(old, withGrey: grey, at: x)
                } else {
                    guard pixel >= 0xFF00_0000 else { return (bits, sums, 0) }
                    bits.writePixel(pixel, codes)
                    sums.replace(old, with: pixel, at: x)
                }
                x = x &+ 1
                continue
            }
            let runStart = x
            // Where the up-run is known to go on to.
            var equalToAbove = x &+ 1
            if pixel == row[x &- 1] {
                // A run of the pixel before's color. Where the row above is that color too,
                // both runs go on; where they stop, the up-run is the longer one if the two rows
                // are still equal there (that pixel is not the color), else the color run is at
                // least as long: as if both had been measured, each pixel read once.
                var end = x &+ 1
                if pixel == old {
                    end = Runs.ofColor(pixel, in: row, and: above, from: end, to: 0)
                    equalToAbove = end &+ 1
                } else {
                    sums.replace(old, with: pixel, at: x)
                }
                if pixel != old || end == 0 || row[end] != above[end] {
                    x = sums.colorRun(pixel, in: row, above: above, from: end, to: 0)
                    bits.writeRun(pixels: x &- runStart, FixedCodes.leftRuns, codes)
                    continue
                }
            } else {
                guard pixel >= 0xFF00_0000 else { return (bits, sums, 0) }  // as in `encodeStart`
            }
            x = Runs.equal(row, above, from: equalToAbove, to: 0)
            bits.writeRun(pixels: x &- runStart, FixedCodes.upRuns, codes)
        }
        return (bits, sums, lead)
    }

    /// `encode`'s first pixel and the run it starts, on rows indexed from their ends: where the
    /// rest of the row starts, and `encode`'s lead; nil if a pixel is not opaque.
    @inline(never)
    private static func encodeStart(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, aboveLead: Int, width: Int,
        _ bits: inout BitWriter, _ sums: inout RowSums, _ codes: UnsafePointer<UInt64>
    ) -> (end: Int, lead: Int)? {
        let start = -width
        let first = row[start]
        guard first == above[start] else {
            guard first >= 0xFF00_0000 else { return nil }
            bits.write(codes[0])  // filter type 0
            bits.writePixel(first, codes)
            sums.replace(above[start], with: first, at: start)
            return (start &+ 1, 1)
        }
        // Only a zero (transparent) pixel of row 0 equals the row of zeros above it.
        guard first >= 0xFF00_0000 else { return nil }
        // The filter byte (0 in every row) joins the up-run. A long run of one color is cheaper
        // as its first pixel from above and the rest from the pixel before. Both runs go on
        // while both rows are `first` (the row above is, up to `aboveLead`: this row alone is
        // compared there, most often a margin, by memcmp first); where they stop, the up-run
        // goes on only if the two rows are still equal.
        let known = start &+ min(aboveLead, width)
        var both = known
        if memcmp(row + start, above + start, 4 &* (known &- start)) != 0 {
            both = Runs.ofColor(first, in: row, from: start &+ 1, to: known)
        }
        if both == known { both = Runs.ofColor(first, in: row, and: above, from: both, to: 0) }
        if both < 0 && row[both] == above[both] {
            let end = Runs.equal(row, above, from: both &+ 1, to: 0)
            bits.writeMatches(bytes: 1 &+ 3 &* (end &- start), distance: codes[FixedCodes.upRuns], codes)
            return (end, both &- start)
        } else if both &- start >= FixedCodes.longRun {
            let end = sums.colorRun(first, in: row, above: above, from: both, to: 0)
            bits.writeMatches(bytes: 4, distance: codes[FixedCodes.upRuns], codes)
            bits.writeRun(pixels: end &- start &- 1, FixedCodes.leftRuns, codes)
            return (end, end &- start)
        } else {
            bits.writeMatches(bytes: 1 &+ 3 &* (both &- start), distance: codes[FixedCodes.upRuns], codes)
            return (both, both &- start)
        }
    }

    /// Adds the row just encoded (whose sums are `sums`) to the Adler-32.
    @inline(__always)
    mutating func addRowToChecksum() {
        s2 = (s2 + rowBytes * s1 + sums.weighted) % 65521
        s1 = (s1 + sums.s) % 65521
    }

    /// Ends the block and the zlib stream; the stream's length.
    mutating func finish() -> Int {
        bits.write(0, count: 7)  // end of block: symbol 256, seven zero bits
        bits.alignToByte()
        for byte in [s2 >> 8, s2, s1 >> 8, s1] { bits.write(UInt64(byte & 0xFF), count: 8) }
        bits.alignToByte()
        return bits.out - start
    }
}

/// The Adler-32 of a row without reading its bytes. An n-byte row (the filter byte 0, then R, G, B
/// of pixels 0, 1, ...) adds the sum of its bytes to s1 and the sum of byte j (1-based) times
/// n - j + 1 to s2. In a row of w pixels (n = 1 + 3w), pixel i's R, G, B are bytes 2 + 3i,
/// 3 + 3i, 4 + 3i, weighing 3(w - i), 3(w - i) - 1, 3(w - i) - 2. With pixels indexed from the
/// row's end, x = i - w (as `Encoder.encode` does), that pixel adds (-3x - 1)·(R + G + B) + R - B
/// to s2's part, which is then -S - 3·T - D, with S the sum of R + G + B over the row's pixels,
/// T that of x·(R + G + B) and D that of B - R (0 for grey pixels). Those are sums over pixels:
/// a row's are the row above's, corrected for the pixels that differ (about 75 a row on the
/// benchmark's pages).
private struct RowSums {
    var s = 0
    var t = 0
    var d = 0

    /// s2's part. Far from overflowing: |t| < 765 · 10,922² / 2.
    @inline(__always)
    var weighted: Int { -s - 3 * t - d }

    /// Pixel x (from the row's end) was `old` in the row above and is `new` in this one.
    @inline(__always)
    mutating func replace(_ old: UInt32, with new: UInt32, at x: Int) {
        if isGrey(old) && isGrey(new) {  // most of them: anti-aliased text on white
            let sumChange = 3 &* (Int(new & 0xFF) &- Int(old & 0xFF))
            s = s &+ sumChange
            t = t &+ x &* sumChange
        } else {
            let sumChange = Self.channelSum(new) &- Self.channelSum(old)
            s = s &+ sumChange
            t = t &+ x &* sumChange
            d = d &+ Self.blueMinusRed(new) &- Self.blueMinusRed(old)
        }
    }

    /// The same for an opaque grey pixel `new` of value `grey`: the common case (anti-aliased
    /// text on white), where B - R is 0 and R + G + B is 3·grey.
    @inline(__always)
    mutating func replace(_ old: UInt32, withGrey grey: UInt32, at x: Int) {
        if isGrey(old) {
            let sumChange = 3 &* (Int(grey) &- Int(old & 0xFF))
            s = s &+ sumChange
            t = t &+ x &* sumChange
        } else {
            replace(old, with: 0xFF00_0000 | grey &* 0x01_0101, at: x)
        }
    }

    /// Where the pixels of `row` from `start` stop being `color` (as `Runs.ofColor`), the sums
    /// corrected for the pixels above that are not. Four pixels at a time, both rows at once:
    /// these runs are short, and the row above most often `color` too.
    @inline(__always)
    mutating func colorRun(
        _ color: UInt32, in row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>, from start: Int, to end: Int
    ) -> Int {
        var i = start
        while i &+ 4 <= end {
            let differs: SIMDMask<SIMD4<Int32>> = Runs.load(row, i) .!= .init(repeating: color)
            let aboveDiffers: SIMDMask<SIMD4<Int32>> = Runs.load(above, i) .!= .init(repeating: color)
            if any(differs .| aboveDiffers) {
                let stop = i &+ (any(differs) ? Runs.firstTrue(differs) : 4)
                for j in i..<stop where above[j] != color { replace(above[j], with: color, at: j) }
                if stop &- i < 4 { return stop }
            }
            i = i &+ 4
        }
        while i < end && row[i] == color {
            if above[i] != color { replace(above[i], with: color, at: i) }
            i = i &+ 1
        }
        return i
    }

    /// R + G + B.
    @inline(__always)
    static func channelSum(_ pixel: UInt32) -> Int {
        Int((pixel >> 16) & 0xFF) &+ Int((pixel >> 8) & 0xFF) &+ Int(pixel & 0xFF)
    }

    @inline(__always)
    static func blueMinusRed(_ pixel: UInt32) -> Int {
        Int(pixel & 0xFF) &- Int((pixel >> 16) & 0xFF)
    }
}

/// Whether R = G = B.
@inline(__always)
private func isGrey(_ pixel: UInt32) -> Bool { (pixel ^ (pixel >> 8)) & 0xFFFF == 0 }

/// Run lengths over 32-bit pixels, compared as a vector of 4 first (most runs are short), then
/// vectors of 16, then one at a time (on x86-64's baseline SSE2: four-lane compares and one
/// movmskps a test). Each returns where the run stops: the first index from `start` where a
/// pixel differs, or `end`. Inlined: called about 20,000 times a page, and a call would make
/// `Encoder.encode` keep its state (the writer, the sums) in memory.
private enum Runs {
    /// Where the pixels of `row` stop being equal to those of `other`.
    @inline(__always)
    static func equal(_ row: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, from start: Int, to end: Int) -> Int
    {
        var i = start
        // Most runs are short: four pixels first.
        if i &+ 4 <= end {
            let differs: SIMDMask<SIMD4<Int32>> = load(row, i) .!= load(other, i)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 4
        }
        while i &+ 16 <= end {
            let differs: SIMDMask<SIMD16<Int32>> = load(row, i) .!= load(other, i)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 16
        }
        while i < end && row[i] == other[i] { i = i &+ 1 }
        return i
    }

    /// Where the pixels of `row` stop being `color`.
    @inline(__always)
    static func ofColor(_ color: UInt32, in row: UnsafePointer<UInt32>, from start: Int, to end: Int) -> Int {
        var i = start
        if i &+ 4 <= end {
            let differs: SIMDMask<SIMD4<Int32>> = load(row, i) .!= .init(repeating: color)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 4
        }
        while i &+ 16 <= end {
            let differs: SIMDMask<SIMD16<Int32>> = load(row, i) .!= .init(repeating: color)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 16
        }
        while i < end && row[i] == color { i = i &+ 1 }
        return i
    }

    /// Where the pixels of `row` or those of `other` stop being `color`.
    @inline(__always)
    static func ofColor(
        _ color: UInt32, in row: UnsafePointer<UInt32>, and other: UnsafePointer<UInt32>, from start: Int, to end: Int
    ) -> Int {
        var i = start
        if i &+ 4 <= end {
            let differs: SIMDMask<SIMD4<Int32>> =
                load(row, i) .!= .init(repeating: color) .| load(other, i) .!= .init(repeating: color)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 4
        }
        while i &+ 16 <= end {
            let differs: SIMDMask<SIMD16<Int32>> =
                load(row, i) .!= .init(repeating: color) .| load(other, i) .!= .init(repeating: color)
            if any(differs) { return i &+ firstTrue(differs) }
            i = i &+ 16
        }
        while i < end && row[i] == color && other[i] == color { i = i &+ 1 }
        return i
    }

    @inline(__always)
    static func load<Pixels: SIMD>(_ row: UnsafePointer<UInt32>, _ i: Int) -> Pixels where Pixels.Scalar == UInt32 {
        UnsafeRawPointer(row + i).loadUnaligned(as: Pixels.self)
    }

    /// The first true lane of a mask with one. Swift has no movemask: the lanes (0 or -1) are
    /// narrowed to bytes (packs) and read as one integer.
    @inline(__always)
    static func firstTrue(_ mask: SIMDMask<SIMD16<Int32>>) -> Int {
        let bytes = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(mask, to: SIMD16<Int32>.self))
        return unsafeBitCast(bytes, to: UInt128.self).littleEndian.trailingZeroBitCount >> 3
    }

    @inline(__always)
    static func firstTrue(_ mask: SIMDMask<SIMD4<Int32>>) -> Int {
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(mask, to: SIMD4<Int32>.self))
        return unsafeBitCast(bytes, to: UInt32.self).littleEndian.trailingZeroBitCount >> 3
    }
}

/// Deflate's fixed Huffman codes (RFC 1951 §3.2.6) in one table of (bits to write, LSB first) |
/// (bit count) << 32, codes bit-reversed since Huffman codes are sent most significant bit first.
private enum FixedCodes {
    /// Where the length codes and the grey pixels' codes start in `table`, and the runs' in
    /// `codes(width:)`.
    static let lengthsStart = 256
    static let grey = lengthsStart + 259
    static let upRuns = grey + 256
    static let leftRuns = upRuns + longRun + 1
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

    /// The codes of an image `width` pixels wide, in one table (one pointer to keep in a
    /// register): `table`'s; runs of 1...`longRun` pixels from the row above at `upRuns` and
    /// from the pixel before at `leftRuns`, each one match (at most 258 bytes) in one entry (at
    /// most 13 + 18 bits), after the distance's own code (for longer runs); then the matches of
    /// a row equal to the one above, any row and a row of one color (see `Encoder.repeatRow`),
    /// and where they are.
    static func codes(width: Int) -> (codes: [UInt64], repeatedRow: Range<Int>, oneColorRow: Range<Int>) {
        let rowBytes = 1 + 3 * width
        let up = distance(rowBytes)
        func runs(_ distance: UInt64) -> [UInt64] {
            (0...longRun).map { $0 == 0 ? distance : match(bytes: 3 * $0, distance: distance) }
        }
        var codes = table + runs(up) + runs(pixelBefore)
        let repeatedRowStart = codes.count
        codes += packed(matches(bytes: rowBytes, distance: up))
        let oneColorRowStart = codes.count
        if width >= longRun {
            codes += packed(matches(bytes: 4, distance: up) + matches(bytes: 3 * (width - 1), distance: pixelBefore))
        } else {
            codes += packed(matches(bytes: rowBytes, distance: up))
        }
        return (codes, repeatedRowStart..<oneColorRowStart, oneColorRowStart..<codes.count)
    }

    /// The same bits as `entries`, in as few entries as they fit (32 bits each but the last):
    /// a third of the writes for a row equal to the one above.
    static func packed(_ entries: [UInt64]) -> [UInt64] {
        var result: [UInt64] = []
        var pending: UInt64 = 0
        var count: UInt64 = 0
        for entry in entries {
            pending |= (entry & 0xFFFF_FFFF) << count
            count += entry >> 32
            if count >= 32 {
                result.append(pending & 0xFFFF_FFFF | 32 << 32)
                pending >>= 32
                count -= 32
            }
        }
        if count > 0 { result.append(pending | count << 32) }
        return result
    }

    /// `bytes` (at least 3) copied from `distance` back, as matches of at most 258 bytes, none
    /// shorter than 3. `distance` is a table entry from `distance(_:)`.
    static func matches(bytes: Int, distance: UInt64) -> [UInt64] {
        var result: [UInt64] = []
        var remaining = bytes
        while remaining > 0 {
            let length = matchLength(remaining)
            result.append(match(bytes: length, distance: distance))
            remaining -= length
        }
        return result
    }

    /// One match of 3...258 bytes: its length code, extra bits and distance code in one entry.
    static func match(bytes: Int, distance: UInt64) -> UInt64 {
        let code = table[lengthsStart + bytes]
        let count = code >> 32
        return code & 0xFFFF_FFFF | (distance & 0xFFFF_FFFF) << count | (count + distance >> 32) << 32
    }

    /// The length of the next match of `remaining` bytes (at least 3): at most 258, and leaving
    /// none or at least 3.
    @inline(__always)
    static func matchLength(_ remaining: Int) -> Int {
        let length = min(remaining, 258)
        return remaining &- length > 0 && remaining &- length < 3 ? remaining &- 3 : length
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
    private(set) var out: UnsafeMutablePointer<UInt8>
    private var buffer: UInt64 = 0
    private var bitCount: UInt64 = 0

    init(out: UnsafeMutablePointer<UInt8>) {
        self.out = out
    }

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

    /// A table entry (see `FixedCodes`).
    @inline(__always)
    mutating func write(_ code: UInt64) {
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

    /// `bytes` (at least 3) copied from `distance` back, as `FixedCodes.matches`.
    @inline(__always)
    mutating func writeMatches(bytes: Int, distance: UInt64, _ table: UnsafePointer<UInt64>) {
        let distanceBits = distance & 0xFFFF_FFFF
        let distanceCount = distance >> 32
        var remaining = bytes
        while remaining > 0 {
            let length = FixedCodes.matchLength(remaining)
            let code = table[FixedCodes.lengthsStart &+ length]
            let lengthCount = code >> 32
            // At most 13 + 18 bits.
            write(code & 0xFFFF_FFFF | distanceBits &<< lengthCount, count: lengthCount &+ distanceCount)
            remaining = remaining &- length
        }
    }

    /// A run of `pixels` (at least 1): one entry of `codes` from `runs` (the table's `upRuns`
    /// or `leftRuns`) or, if longer, several matches at the distance listed before them.
    @inline(__always)
    mutating func writeRun(pixels: Int, _ runs: Int, _ codes: UnsafePointer<UInt64>) {
        if pixels <= FixedCodes.longRun {
            write(codes[runs &+ pixels])
        } else {
            writeMatches(bytes: 3 &* pixels, distance: codes[runs], codes)
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
