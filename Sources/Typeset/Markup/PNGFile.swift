// The PNG check of `image` sources (SPEC §2: "it must be a PNG"): the signature, the image's
// size from IHDR, the chunk structure with every CRC, and a decode by Cairo (when it fails, the
// compressed pixel data inflated and counted, each row's filter type checked, to say where it
// is broken), so that a truncated or corrupted file is refused
// with its location at parse time instead of failing while the page is drawn, where it would
// take every other input of a one-file PDF or sheet down with it. Also a decoder of 8-bit RGB
// and RGBA images into Cairo's pixels, for comparing screens (`trueColorPixels`).
import CCairo  // zlib

/// Why a file is not a usable PNG; the message completes "image 'x' is ...".
struct PNGProblem: Error, Equatable {
    var message: String
}

public enum PNGFile {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// What `check` said of each version of each file read: a batch shows the same screenshot in
    /// every locale's document, and inflating it again for each took 20 ms a document (200
    /// documents sharing a 2 MB PNG: 4.2 s to one PDF, nearly all of it this check).
    /// The PDF writer asks it too, before it takes a file's data as it is: whatever the
    /// process has seen, an image gets the same bytes.
    static let checked = Locked<[FileVersion: Result<Size, PNGProblem>]>([:])
    private static let mostChecked = 1024

    struct Size: Equatable {
        var width: Int
        var height: Int
    }

    /// The width and height of the PNG in `bytes`, after checking its structure: IHDR first
    /// and well-formed, every chunk complete with a matching CRC, the chunks libpng refuses
    /// (a second IHDR, an unknown critical chunk, a palette image without a valid PLTE before
    /// its data, image data split by other chunks), IEND; and last, that Cairo decodes it, as it
    /// will when the page is drawn (when it does not: whether the IDAT data inflates to every
    /// row of the image, to say where it is broken).
    /// `sideLimit` bounds each side and `pixelLimit` their product (both checked before the
    /// rest, so huge images are refused by their header alone: a 1 MB file of 16384 × 16384
    /// pixels decodes to 1 GiB).
    static func check(_ bytes: [UInt8], sideLimit: Int, pixelLimit: Int) throws(PNGProblem) -> (width: Int, height: Int) {
        guard bytes.starts(with: signature) else {
            throw PNGProblem(message: "not a PNG file (it lacks the PNG signature)")
        }
        guard bytes.count >= 16, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            throw PNGProblem(message: "not a valid PNG file (no IHDR chunk)")
        }
        guard bytes.count >= 33, bigEndian(bytes, 8) == 13 else {
            throw PNGProblem(message: "not a valid PNG file (its IHDR chunk is not 13 bytes long)")
        }
        let width = bigEndian(bytes, 16)
        let height = bigEndian(bytes, 20)
        try checkSize(width: width, height: height, sideLimit: sideLimit, pixelLimit: pixelLimit)
        let bitDepth = bytes[24]
        let colorType = bytes[25]
        let allowedDepths: [UInt8]
        switch colorType {
        case 0: allowedDepths = [1, 2, 4, 8, 16]
        case 3: allowedDepths = [1, 2, 4, 8]
        case 2, 4, 6: allowedDepths = [8, 16]
        default: allowedDepths = []
        }
        guard allowedDepths.contains(bitDepth), bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw PNGProblem(
                message: "not a valid PNG file (IHDR has color type \(colorType), bit depth \(bitDepth), "
                    + "compression \(bytes[26]), filter \(bytes[27]), interlace \(bytes[28]))")
        }
        var offset = 8
        var data: [Range<Int>] = []  // the IDAT chunks' contents
        var hasPalette = false
        var dataEnded = false  // a chunk other than IDAT came after IDAT
        while true {
            guard offset + 12 <= bytes.count else {
                throw PNGProblem(message: "not a valid PNG file (it is truncated: it ends before its IEND chunk)")
            }
            let length = bigEndian(bytes, offset)
            let type = bytes[(offset + 4)..<(offset + 8)]
            let name = String(decoding: type, as: UTF8.self)
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw PNGProblem(message: "not a valid PNG file (a chunk at byte \(offset) has no valid type)")
            }
            guard length <= bytes.count - offset - 12 else {
                throw PNGProblem(message: "not a valid PNG file (it is truncated inside its \(name) chunk)")
            }
            let end = offset + 8 + length
            let stored = bigEndian(bytes, end)
            guard crc32(bytes[(offset + 4)..<end]) == UInt32(stored) else {
                throw PNGProblem(
                    message: "not a valid PNG file (the CRC of its \(name) chunk at byte \(offset) is wrong)")
            }
            try checkOrder(
                name, at: offset, length: length, colorType: colorType, hasPalette: &hasPalette,
                hasData: !data.isEmpty, dataEnded: &dataEnded)
            if name == "IDAT" { data.append(offset + 8..<end) }
            if name == "IEND" {
                guard !data.isEmpty else { throw PNGProblem(message: "not a valid PNG file (it has no image data)") }
                let rows = Rows(
                    width: width, height: height, bitsPerPixel: Int(bitDepth) * channels[Int(colorType)],
                    interlaced: bytes[28] == 1)
                // Not given to libpng when it inflates far past its rows: libpng inflates it all.
                // (This inflates every picture once more before Cairo does, once per version
                // of its file: a 4000 × 4000 picture takes 0.14 s longer to read.)
                if let problem = excessData(bytes, data, expected: rows.byteCount) { throw PNGProblem(message: problem) }
                // Cairo's decoder has the last word; the pixel data is inflated a third time,
                // for a message that says where it is broken, only when Cairo refuses the file.
                if let refusal = decode(bytes) {
                    try checkData(bytes, data, rows)
                    throw refusal
                }
                return (width, height)
            }
            offset = end + 4
        }
    }

    /// The chunk order libpng enforces with an error (and Cairo with it), where it only warns
    /// about the rest: after IHDR (always the first), each chunk `name` at byte `offset`.
    private static func checkOrder(
        _ name: String, at offset: Int, length: Int, colorType: UInt8, hasPalette: inout Bool, hasData: Bool,
        dataEnded: inout Bool
    ) throws(PNGProblem) {
        if offset == 8 { return }  // IHDR, checked by the caller
        switch name {
        case "IHDR":
            throw PNGProblem(message: "not a valid PNG file (a second IHDR chunk at byte \(offset))")
        case "PLTE":
            guard colorType == 3 else { return }  // a suggested palette, ignored
            // (After the image data it is a second one: IDAT without a PLTE before is refused.)
            guard !hasPalette else {
                throw PNGProblem(message: "not a valid PNG file (a PLTE chunk at byte \(offset) after the first)")
            }
            guard length > 0, length % 3 == 0, length <= 3 * 256 else {
                throw PNGProblem(
                    message: "not a valid PNG file (its PLTE chunk is \(length) bytes: 1 to 256 colors of 3 bytes)")
            }
            hasPalette = true
        case "IDAT":
            guard colorType != 3 || hasPalette else {
                throw PNGProblem(message: "not a valid PNG file (a palette image without a PLTE chunk before its data)")
            }
            guard !dataEnded else {
                throw PNGProblem(
                    message: "not a valid PNG file (its image data is split: an IDAT chunk at byte \(offset) after other chunks)")
            }
        case "IEND":
            return
        default:
            if hasData { dataEnded = true }
            // Bit 5 of a type's first letter (lowercase) marks it ancillary: a decoder may skip it.
            guard name.utf8.first! & 0x20 != 0 else {
                throw PNGProblem(
                    message: "not a valid PNG file (an unknown critical chunk '\(name)' at byte \(offset))")
            }
        }
    }

    /// The chunks of the PNG in `bytes`, in order: each one's type and where its data is. Stops
    /// at a truncated chunk (the bytes are checked ones: there is none).
    private static func chunks(of bytes: [UInt8]) -> [(type: ArraySlice<UInt8>, data: Range<Int>)] {
        var chunks: [(type: ArraySlice<UInt8>, data: Range<Int>)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let end = offset + 8 + bigEndian(bytes, offset)
            guard end + 4 <= bytes.count else { break }
            chunks.append((bytes[(offset + 4)..<(offset + 8)], offset + 8..<end))
            offset = end + 4
        }
        return chunks
    }

    /// The PNG in `bytes` (checked) with only the chunks Cairo's decoder draws from: IHDR,
    /// PLTE, tRNS, IDAT and IEND. Text, dates, colour profiles and gamma are left out, so an
    /// SVG shows the pixels the PDF and PNG show, without the file's metadata.
    static func essentialChunks(of bytes: [UInt8]) -> [UInt8] {
        var output = signature
        for chunk in chunks(of: bytes)
        where ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"].contains(where: { chunk.type.elementsEqual($0.utf8) }) {
            output += bytes[(chunk.data.lowerBound - 8)..<(chunk.data.upperBound + 4)]
        }
        return output
    }

    /// The bytes of the PNG file at `path` when `check` finds them good (with the parser's
    /// limits, once per version of the file), else nil.
    static func checkedBytes(at path: String) -> [UInt8]? {
        guard let version = FileVersion(path: path),
            let bytes = readFile(path, limit: MarkupParser.maximumImageBytes), FileVersion(path: path) == version
        else { return nil }
        guard case .success = checked.withLock({ $0[version] }) ?? remember(version, size(of: bytes)) else {
            return nil
        }
        return bytes
    }

    /// The size of the PNG in `bytes` as `check` finds it with the markup's limits, or why the
    /// file is not a usable PNG.
    static func size(of bytes: [UInt8]) -> Result<Size, PNGProblem> {
        Result { () throws(PNGProblem) in
            let (width, height) = try check(
                bytes, sideLimit: MarkupParser.maximumImageSide, pixelLimit: MarkupParser.maximumImagePixels)
            return Size(width: width, height: height)
        }
    }

    /// Keeps what `check` said of a `version` of a file, and returns it.
    static func remember(_ version: FileVersion, _ result: Result<Size, PNGProblem>) -> Result<Size, PNGProblem> {
        checked.withLock { known in
            if known.count >= mostChecked { known.removeAll() }
            known[version] = result
        }
        return result
    }

    /// A PNG's pixel data as a PDF can draw it without decoding it: its IDAT chunks are a Flate
    /// stream with PNG predictors (ISO 32000-1 §7.4.4.4), of gray, RGB or palette samples.
    struct Predicted: Sendable {
        var width: Int
        var height: Int
        var bitsPerComponent: Int
        /// 1 (gray or a palette index) or 3 (RGB).
        var colors: Int
        /// R, G, B of each of the 2^bitsPerComponent indices of a palette image; the colors the
        /// file lacks are black, as libpng (and so Cairo) draws an index past its palette.
        var palette: [UInt8]?
        /// The IDAT chunks' contents, one after another.
        var data: [UInt8]

        /// The pixel data of the checked PNG in `bytes`; nil when a PDF needs it decoded: an
        /// image with alpha or a tRNS chunk (a soft mask), of 16 bits (Cairo keeps 8), or
        /// interlaced.
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 33 else { return nil }
            let (bitDepth, colorType, interlaced) = (Int(bytes[24]), bytes[25], bytes[28] != 0)
            guard !interlaced, bitDepth <= 8, colorType == 0 || colorType == 2 || colorType == 3 else { return nil }
            guard colorType != 2 || bitDepth == 8 else { return nil }
            width = bigEndian(bytes, 16)
            height = bigEndian(bytes, 20)
            bitsPerComponent = bitDepth
            colors = colorType == 2 ? 3 : 1
            data = []
            for chunk in chunks(of: bytes) {
                switch String(decoding: chunk.type, as: UTF8.self) {
                case "tRNS": return nil
                case "IDAT": data += bytes[chunk.data]
                case "PLTE" where colorType == 3:
                    var palette = [UInt8](repeating: 0, count: 3 << bitDepth)
                    let count = min(chunk.data.count, palette.count)
                    palette.replaceSubrange(0..<count, with: bytes[chunk.data.prefix(count)])
                    self.palette = palette
                default: break
                }
            }
            guard !data.isEmpty, colorType != 3 || palette != nil else { return nil }
        }
    }

    /// Decodes `bytes` with Cairo (libpng), as the page will be drawn; why it cannot, or nil.
    private static func decode(_ bytes: [UInt8]) -> PNGProblem? {
        guard let surface = cairoSurface(decoding: bytes) else {
            return PNGProblem(message: "not a PNG file Cairo can decode (Cairo made no image)")
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        return status == CAIRO_STATUS_SUCCESS
            ? nil : PNGProblem(message: "not a PNG file Cairo can decode (\(cairoMessage(status)))")
    }

    /// A new Cairo image surface of the PNG `bytes`, in an error state if Cairo cannot decode
    /// them (nil only if Cairo could not make one at all). The caller destroys it.
    static func cairoSurface(decoding bytes: [UInt8]) -> OpaquePointer? {
        var reader = (bytes: bytes, offset: 0)
        return withUnsafeMutablePointer(to: &reader) { closure in
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    let reader = closure!.assumingMemoryBound(to: (bytes: [UInt8], offset: Int).self)
                    let count = Int(length)
                    guard let data, reader.pointee.bytes.count - reader.pointee.offset >= count else {
                        return CAIRO_STATUS_READ_ERROR
                    }
                    reader.pointee.bytes.withUnsafeBufferPointer { bytes in
                        data.update(from: bytes.baseAddress! + reader.pointee.offset, count: count)
                    }
                    reader.pointee.offset += count
                    return CAIRO_STATUS_SUCCESS
                }, closure)
        }
    }

    /// Samples per pixel of each color type (gray, -, RGB, palette, gray + alpha, -, RGBA).
    private static let channels = [1, 0, 3, 1, 2, 0, 4]

    /// The rows the decompressed data holds: each is a filter-type byte and then its pixels.
    /// An interlaced (Adam7) image holds the rows of its seven reduced images one after another.
    struct Rows {
        /// (rows, bytes per row including the filter byte) of each image, in order.
        var images: [(count: Int, length: Int)]

        init(width: Int, height: Int, bitsPerPixel: Int, interlaced: Bool) {
            // Adam7's passes: the first column and row, and the steps between them.
            let passes =
                interlaced
                ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
                : [(0, 0, 1, 1)]
            images = passes.compactMap { x, y, xStep, yStep in
                let columns = (width - x + xStep - 1) / xStep
                let count = (height - y + yStep - 1) / yStep
                guard columns > 0, count > 0 else { return nil }  // an empty pass has no rows
                return (count, 1 + (columns * bitsPerPixel + 7) / 8)
            }
        }

        var byteCount: Int { images.reduce(0) { $0 + $1.count * $1.length } }
    }

    /// Inflates the IDAT chunks' contents (`ranges` of `bytes`) a piece at a time, and checks
    /// that they hold all of `rows`, each starting with a filter type libpng knows (0 to 4).
    /// Data after the last row is allowed, as libpng allows it.
    private static func checkData(_ bytes: [UInt8], _ ranges: [Range<Int>], _ rows: Rows) throws(PNGProblem) {
        let expected = rows.byteCount
        var image = 0  // the reduced image (Adam7 pass) whose rows come next
        var rowsLeft = rows.images.first?.count ?? 0
        var nextRow = 0  // where the next row starts in the decompressed data
        var rowNumber = 0
        var badFilter: (row: Int, type: UInt8)?
        // A bomb stops at the image's size.
        let inflated = inflatePieces(bytes, ranges, stoppingAt: expected) { piece, produced in
            // The filter types of the rows that start in this piece.
            while badFilter == nil, image < rows.images.count, nextRow < produced + piece.count {
                let type = piece[nextRow - produced]
                if type > 4 { badFilter = (rowNumber, type) }
                rowNumber += 1
                nextRow += rows.images[image].length
                rowsLeft -= 1
                if rowsLeft == 0 {
                    image += 1
                    rowsLeft = image < rows.images.count ? rows.images[image].count : 0
                }
            }
        }
        guard let inflated else { throw PNGProblem(message: "not readable (zlib could not start)") }
        if let badFilter {
            throw PNGProblem(
                message:
                    "not a valid PNG file (row \(badFilter.row + 1) of its image data has filter type \(badFilter.type); PNG has 0 to 4)"
            )
        }
        if let failure = inflated.failure {
            throw PNGProblem(message: "not a valid PNG file (its image data is corrupt: \(failure))")
        }
        guard inflated.produced >= expected else {
            throw PNGProblem(
                message: "not a valid PNG file (its image data ends early: \(inflated.produced) of \(expected) bytes)")
        }
    }

    /// Why the image data (`ranges` of `bytes`) must not reach libpng: it inflates to more
    /// than twice its rows' `expected` bytes (a megabyte more at least), which libpng inflates
    /// to the end before it reads the file's last chunk. A 3 MB picture of one pixel whose data
    /// went on as 3 GB of zeros held a render for 6 s, a 17 MB one for minutes. Nil otherwise,
    /// broken data included (Cairo says why).
    static func excessData(_ bytes: [UInt8], _ ranges: [Range<Int>], expected: Int) -> String? {
        let limit = expected + max(expected, 1 << 20)
        guard let produced = inflatePieces(bytes, ranges, stoppingAt: limit + 1, { _, _ in })?.produced, produced > limit
        else { return nil }
        return "not a valid PNG file (its image data inflates to more than \(limit) bytes, its rows being \(expected))"
    }

    /// `excessData` of a whole PNG file's `bytes` (IDAT chunks and header as they are), nil
    /// when they are not a PNG of known color type.
    static func excessData(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 33, bytes.starts(with: signature), Int(bytes[25]) < channels.count,
            channels[Int(bytes[25])] > 0
        else { return nil }
        let rows = Rows(
            width: bigEndian(bytes, 16), height: bigEndian(bytes, 20),
            bitsPerPixel: Int(bytes[24]) * channels[Int(bytes[25])], interlaced: bytes[28] == 1)
        let data = chunks(of: bytes).filter { $0.type.elementsEqual("IDAT".utf8) }.map(\.data)
        return excessData(bytes, data, expected: rows.byteCount)
    }

    /// Inflates the IDAT chunks' contents (`ranges` of `bytes`) 64 KiB at a time, each piece
    /// handed to `body` with the count of bytes before it, until the data ends, breaks, or
    /// `stop` bytes or more have come out. Nil when zlib cannot start; else the count that
    /// came out, and zlib's word when the data is broken.
    private static func inflatePieces(
        _ bytes: [UInt8], _ ranges: [Range<Int>], stoppingAt stop: Int,
        _ body: (UnsafeMutableBufferPointer<UInt8>.SubSequence, Int) -> Void
    ) -> (produced: Int, failure: String?)? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var produced = 0
        var status = Z_OK
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for range in ranges where status == Z_OK && produced < stop {
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + range.lowerBound)
                    stream.avail_in = uInt(range.count)
                    repeat {
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        let count = out.count - Int(stream.avail_out)
                        body(out[..<count], produced)
                        produced += count
                    } while status == Z_OK && produced < stop && (stream.avail_in > 0 || stream.avail_out == 0)
                    if status == Z_BUF_ERROR { status = Z_OK }  // this chunk used up: the next goes on
                }
            }
        }
        guard status != Z_OK && status != Z_STREAM_END else { return (produced, nil) }
        return (produced, stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The pixels of an 8-bit RGB or RGBA PNG, not interlaced, without tRNS (what typeset, Cairo
    /// and most screenshot tools write), as Cairo decodes them into an image surface: 32-bit
    /// words of alpha, red, green and blue, the colour multiplied by alpha as Cairo multiplies it,
    /// RGB with alpha 255. Nil for every other PNG (one with a palette chunk or a zlib window
    /// other than 32 KiB among them) and at any flaw (a chunk type that is not four letters, a
    /// critical chunk's CRC, data that does not inflate to exactly its rows, an unknown filter
    /// type): those are Cairo's to decode or refuse. A 780 × 1688 screen takes 46 million
    /// instructions here, 69 million through Cairo, whose libpng rows and per-pixel conversion
    /// cost as much as inflating.
    static func trueColorPixels(_ bytes: [UInt8]) -> (width: Int, height: Int, words: [UInt32])? {
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
                let stored = bigEndian(bytes, chunk.data.upperBound)
                let crc = crc32(bytes[(chunk.data.lowerBound - 4)..<chunk.data.upperBound])
                guard Int(crc) == stored else { return nil }
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

    /// Undoes each row's filter (PNG §9) in `rows` and turns its pixels into Cairo's words;
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
                        // Cairo's premultiply_data: (alpha × colour + 128) / 255, rounded as it rounds.
                        func times(_ color: UInt8) -> UInt32 {
                            let t = alpha * UInt32(color) + 0x80
                            return (t + (t >> 8)) >> 8
                        }
                        out[x] =
                            alpha == 0
                            ? 0
                            : alpha == 255
                                ? 0xFF00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                                : alpha << 24 | times(p[0]) << 16 | times(p[1]) << 8 | times(p[2])
                    }
                }
            }
            return true
        }
    }

    /// Refuses an image of a side of 0 or over `sideLimit` (at most 2^31), or of more pixels
    /// than `pixelLimit`: by its header, before anything is decoded.
    static func checkSize(width: Int, height: Int, sideLimit: Int, pixelLimit: Int) throws(PNGProblem) {
        guard width > 0, height > 0, width <= sideLimit, height <= sideLimit else {
            throw PNGProblem(
                message: "\(width)×\(height) pixels; images must be 1 to \(sideLimit) pixels on each side")
        }
        guard width * height <= pixelLimit else {
            throw PNGProblem(
                message: "\(width)×\(height) pixels, \(width * height) in all; images may have at most "
                    + "\(pixelLimit) pixels (\(pixelLimit * 4 / (1024 * 1024)) MiB decoded)")
        }
    }

    /// The width and height in the IHDR of `bytes`, unchecked: for a PNG this process wrote, or
    /// one already decoded (an image the SVG embeds, a bitmap glyph).
    static func headerSize(_ bytes: [UInt8]) -> Size? {
        guard bytes.count >= 33, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8) else {
            return nil
        }
        return Size(width: bigEndian(bytes, 16), height: bigEndian(bytes, 20))
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

    /// CRC-32 as PNG defines it: zlib's, as the PNG encoder uses.
    static func crc32<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        func crc(_ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
            UInt32(CCairo.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        return bytes.withContiguousStorageIfAvailable(crc) ?? Array(bytes).withUnsafeBufferPointer(crc)
    }
}
