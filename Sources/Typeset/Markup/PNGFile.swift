// The PNG check of `image` sources (SPEC §2: "it must be a PNG"): the signature, the image's
// size from IHDR, the chunk structure with every CRC, and a decode by Cairo (when it fails, the
// compressed pixel data inflated and counted, each row's filter type checked, to say where it
// is broken), so that a truncated or corrupted file is refused
// with its location at parse time instead of failing while the page is drawn, where it would
// take every other input of a one-file PDF or sheet down with it. (Diff/PNGDecoding.swift
// decodes PNGs for comparing screens.)
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
    /// and well-formed, every chunk complete, every critical one with a matching CRC, the chunks libpng refuses
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
            // An ancillary chunk's (lowercase first letter) libpng only warns of, and drops
            // the chunk, as Cairo, librsvg and `diff` read it; the SVG leaves it out
            // (`essentialChunks`).
            guard hasValidCRC(bytes, chunkData: offset + 8..<end) || type.first! & 0x20 != 0 else {
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

    /// The chunks of the PNG in `bytes`, in order, as they are read: each one's type and where
    /// its data is. Stops at a truncated chunk, and at one whose type is not four ASCII letters
    /// (libpng's error): a signature and IHDR followed by a gigabyte of zeros made an array of
    /// 90 million empty chunks, 7 GB, for a file refused at its byte 33. Ends with IEND, as
    /// libpng reads (a second PLTE after it coloured the PDF's picture, not the PNG's).
    static func chunks(of bytes: [UInt8]) -> some Sequence<(type: ArraySlice<UInt8>, data: Range<Int>)> {
        var offset = 8
        return AnyIterator { () -> (type: ArraySlice<UInt8>, data: Range<Int>)? in
            guard offset + 12 <= bytes.count, offset >= 8 else { return nil }
            let end = offset + 8 + bigEndian(bytes, offset)
            let type = bytes[(offset + 4)..<(offset + 8)]
            guard end + 4 <= bytes.count, type.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
            defer { offset = type.elementsEqual("IEND".utf8) ? -1 : end + 4 }
            return (type, offset + 8..<end)
        }
    }

    /// The PNG in `bytes` (checked) with only the chunks Cairo's decoder draws from: IHDR,
    /// PLTE, tRNS, IDAT and IEND. Text, dates, colour profiles and gamma are left out, so an
    /// SVG shows the pixels the PDF and PNG show, without the file's metadata.
    static func essentialChunks(of bytes: [UInt8]) -> [UInt8] {
        var output = signature
        // (Not a tRNS whose CRC is wrong: libpng drops it, and the PNG and PDF show no transparency.)
        for chunk in chunks(of: bytes)
        where ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"].contains(where: { chunk.type.elementsEqual($0.utf8) })
            && (chunk.type.first! & 0x20 == 0 || hasValidCRC(bytes, chunkData: chunk.data))
        {
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
    static let channels = [1, 0, 3, 1, 2, 0, 4]

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

    /// Whether the CRC stored after the chunk whose data is at `data` matches its type and data.
    static func hasValidCRC(_ bytes: [UInt8], chunkData data: Range<Int>) -> Bool {
        Int(crc32(bytes[(data.lowerBound - 4)..<data.upperBound])) == bigEndian(bytes, data.upperBound)
    }

    static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
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

    /// CRC-32 as PNG defines it: zlib's, as the PNG encoder uses.
    static func crc32<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        func crc(_ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
            UInt32(CCairo.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        return bytes.withContiguousStorageIfAvailable(crc) ?? Array(bytes).withUnsafeBufferPointer(crc)
    }
}
