// Pixel comparison of two PNG files and the diff image (SPEC §5.5 `typeset diff`, §5.6
// `typeset snapshot`).
import CCairo
import Glibc  // memcmp

/// What comparing two PNG images found.
public struct ImageDiffResult: Sendable, Equatable, CustomStringConvertible {
    /// A rectangle of pixels, top-left origin.
    public struct Box: Sendable, Hashable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The size of the diff image: the larger width and the larger height of the two images.
    public var width: Int { max(sizeA.width, sizeB.width) }
    public var height: Int { max(sizeA.height, sizeB.height) }
    /// The pixels compared: those either image has (`width × height` when the sizes are the
    /// same, or one image holds the other; a 10 × 2 image and a 2 × 10 one have 36).
    public var pixelCount: Int {
        sizeA.width * sizeA.height + sizeB.width * sizeB.height
            - min(sizeA.width, sizeB.width) * min(sizeA.height, sizeB.height)
    }
    /// Pixels where some channel (red, green, blue, alpha; not premultiplied) differs by more
    /// than `tolerance`. Where only one image has pixels (sizes differ), every pixel differs,
    /// whatever the tolerance.
    public var differingPixels: Int
    /// `differingPixels` as a fraction (0...1) of `pixelCount`.
    public var share: Double
    /// The largest difference of one channel over all pixels, 0...255 (255 where only one image
    /// has pixels), whether or not it is within tolerance.
    public var maxChannelDifference: Int
    /// The smallest box holding every differing pixel; nil when none differ.
    public var box: Box?
    /// The sizes of the two images in pixels.
    public var sizeA: Size, sizeB: Size
    /// The tolerance the comparison used.
    public var tolerance: Int

    public struct Size: Sendable, Hashable {
        public var width: Int, height: Int
    }

    /// Set when the images differ in size ("A is 780×1688 pixels, B is 780×1700"); such images
    /// never match.
    public var sizeMismatch: String? { sizeMismatch(a: "A", b: "B") }

    /// `sizeMismatch` with the images called `a` and `b` ("the reference", "the page").
    /// Sizes of one shape, one a whole multiple of the other, name the likely cause ("A is
    /// 320×568 pixels, B is 640×1136 (B at 2 times the scale of A: another --scale?)").
    public func sizeMismatch(a: String, b: String) -> String? {
        guard sizeA != sizeB else { return nil }
        let sizes = "\(a) is \(sizeA.width)×\(sizeA.height) pixels, \(b) is \(sizeB.width)×\(sizeB.height)"
        let (small, large) = sizeA.width <= sizeB.width ? (sizeA, sizeB) : (sizeB, sizeA)
        guard small.width > 0, small.height > 0, large.width % small.width == 0, large.height % small.height == 0,
            large.width / small.width == large.height / small.height
        else { return sizes }
        let (larger, smaller) = large == sizeA ? (a, b) : (b, a)
        return sizes + " (\(larger) at \(large.width / small.width) times the scale of \(smaller): another --scale?)"
    }

    /// True when no pixel differs beyond the tolerance and the sizes are the same.
    public var matches: Bool { differingPixels == 0 && sizeA == sizeB }

    /// Whether a diff image of the compared area would have more pixels than a PNG page may
    /// (`maximumPixelCount`): none is written then.
    public var diffImageIsTooLarge: Bool { width * height > maximumPixelCount }

    /// One line for people: "12 of 1316640 pixels differ (<0.01%), largest channel
    /// difference 87, box x 10 y 20 width 5 height 3".
    public var description: String { description(a: "A", b: "B") }

    /// `description` with the images called `a` and `b` when their sizes differ, and the limits
    /// the verdict used when they are not 0: "12 of 1316640 pixels differ by more than 8
    /// (<0.01%; 0.1% allowed)" (a CI log showed "0 of 1200 pixels differ", then "largest
    /// channel difference 3", and not why that passed).
    public func description(a: String, b: String, maxDiff: Double = 0) -> String {
        var parts: [String] = []
        if let sizeMismatch = sizeMismatch(a: a, b: b) { parts.append(sizeMismatch) }
        // Rounded to 0% or 100% only when it is: 1 pixel of a million is "<0.01%", all but
        // one of 30,000 ">99.99%".
        let percent = share * 100
        // Beside a limit, with the decimals that tell it from the limit ("2744 of 166140 pixels
        // differ (1.65%; 1.651% allowed)" read as within it, and the verdict was "different").
        var places = 2
        if maxDiff > 0 {
            let limit = maxDiff * 100
            func sideOfLimit(_ value: Double) -> Int { value > limit ? 1 : value == limit ? 0 : -1 }
            while places < 8, let rounded = Double(formatDecimal(percent, places: places)),
                sideOfLimit(rounded) != sideOfLimit(percent)
            {
                places += 1
            }
        }
        let shown =
            switch percent {
            case _ where places > 2, 0, 100: formatDecimal(percent, places: places)
            case ..<0.01: "<0.01"
            case 99.995...: ">99.99"
            default: formatDecimal(percent, places: 2)
            }
        let beyond = tolerance > 0 ? " by more than \(tolerance)" : ""
        let allowed = maxDiff > 0 ? "; \(Self.percentage(maxDiff))% allowed" : ""
        parts.append("\(differingPixels) of \(pixelCount) pixels differ\(beyond) (\(shown)%\(allowed))")
        parts.append("largest channel difference \(maxChannelDifference)")
        if let box {
            parts.append("box x \(box.x) y \(box.y) width \(box.width) height \(box.height)")
        }
        return parts.joined(separator: ", ")
    }

    /// A share (0...1) as a percentage with up to four decimals: 0.001 is "0.1", 0.17 is "17".
    static func percentage(_ share: Double) -> String {
        var text = formatDecimal(share * 100, places: 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "0" ? "<0.0001" : text
    }
}

/// Why two images could not be compared or the diff image not written.
public enum ImageDiffError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// A page of the markup file at `path` cannot be drawn (`ComparedPages`).
    case undrawable(path: String, reason: String)
    case write(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path) as PNG: \(reason)"
        case .undrawable(let path, let reason): return "cannot render \(path): \(reason)"
        case .write(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }

    /// The input at fault and what to say at it, for the errors of an input.
    public var inputProblem: (path: String, message: String)? {
        switch self {
        case .unreadable(let path, let reason): (path, "cannot read it as PNG: \(reason)")
        case .undrawable(let path, let reason): (path, "cannot render it: \(reason)")
        case .write: nil
        }
    }
}

/// Compares PNG files pixel by pixel.
public enum ImageDiff {
    /// Compares the PNG files at paths `a` and `b`. A pixel counts as equal when none of its
    /// channels differs by more than `tolerance` (0...255, values outside are clamped; 0 means
    /// exactly equal). Throws `ImageDiffError.unreadable` when a file is missing or not a PNG.
    public static func compare(_ a: String, _ b: String, tolerance: Int) throws -> ImageDiffResult {
        try compare(page: 0, of: ComparedPages(file: a), ComparedPages(file: b), tolerance: tolerance).result
    }

    /// Compares like `compare` and writes the diff image to `output` (PNG, atomically): a faded
    /// grey copy of `a` with every differing pixel in magenta, over the compared area; where
    /// only one image has pixels, pink, with what it shows on its background in magenta.
    /// Returns the comparison.
    @discardableResult
    public static func writeDiffImage(_ a: String, _ b: String, tolerance: Int, to output: String) throws
        -> ImageDiffResult
    {
        let comparison = try compare(page: 0, of: ComparedPages(file: a), ComparedPages(file: b), tolerance: tolerance)
        try write([comparison.diffImage(for: output)])
        return comparison.result
    }

    /// Like `writeDiffImage`, for a page only one side has: `page` compared with a blank page of
    /// its size and background (the colour of its top-left pixel, in the margin), standing for
    /// the side without it (`pageIsA`: the page is A's, B lacks it). The diff image shows in
    /// magenta what is on the page.
    @discardableResult
    public static func writeDiffImage(lonePage page: String, pageIsA: Bool, tolerance: Int, to output: String)
        throws -> ImageDiffResult
    {
        let comparison = try compare(lonePage: 0, of: ComparedPages(file: page), pageIsA: pageIsA, tolerance: tolerance)
        try write([comparison.diffImage(for: output)])
        return comparison.result
    }

    /// Writes `images`, all or none (atomically: a page's diff image is never left stale beside
    /// another's new one).
    public static func write(_ images: [DiffImage]) throws {
        do {
            try AtomicFileWriter.write(images.map { (path: $0.path, bytes: $0.bytes) })
        } catch {
            throw ImageDiffError.write(path: error.path, reason: error.reason)
        }
    }

    /// The diff image, with the resolution (pHYs data) of the image it was made from, if any:
    /// beside a reference at 144 dpi, a diff image without one showed at twice its size.
    static func diffImage(_ comparison: Comparison, for output: String, resolution: [UInt8]?) throws -> DiffImage {
        // Two images of other shapes (30000 × 1 and 1 × 30000) make a diff image of both sides:
        // 3.5 GB, decided in a few bytes of input.
        let result = comparison.result
        guard !result.diffImageIsTooLarge else {
            throw ImageDiffError.write(
                path: output,
                reason: "the diff image would be \(result.width) × \(result.height) pixels, more than \(maximumPixelCount)")
        }
        var bytes = try comparison.diffImagePNG(for: output)
        if let resolution { bytes = PNGEncoder.settingResolution(bytes, resolution) }
        return DiffImage(path: output, bytes: bytes)
    }
}

extension ImageDiff {
    /// Why a diff image cannot be written at `path`, nil when it can (`diff` beside A and
    /// `--out`'s later pages, `snapshot`): not through a symbolic link (`x.diff.png` a link to
    /// `y.png` replaced y's reference; one out of the repository made or replaced that file),
    /// nor over a file typeset did not write (a note of that name). A folder there is the
    /// writer's to refuse.
    public static func unwritableProblem(_ path: String) -> String? {
        let target = AtomicFileWriter.target(of: path)
        if target != path { return "\(path) is a link to '\(target)', which it would replace" }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR, !OutputFormat.png.isOurs(path) else { return nil }
        return "\(path) is not a diff image typeset wrote, and is left as it is"
    }
}

/// A diff image made and not yet written (`ImageDiff.write`).
public struct DiffImage: Sendable {
    public let path: String
    let bytes: [UInt8]
}

/// The colour of differing pixels in the diff image.
private let markRed: UInt32 = 255, markGreen: UInt32 = 0, markBlue: UInt32 = 255
/// How much of A's lightness the diff image keeps: enough to recognize the page, little enough
/// that the marks stand out.
private let fadeFactor = 0.25
/// The background of the area only one image has, in the diff image: the marks stand out on it.
private let onlyOneHas: UInt32 = 0xFFFF_D8FF

/// Two loaded images and where they differ.
struct Comparison {
    let imageA: PixelImage
    let imageB: PixelImage
    let result: ImageDiffResult

    /// `page` against `blank`, standing for the side without it: a blank page of its size and
    /// background, or without one (a PNG file's page) one of the colour of its top-left pixel,
    /// in the margin.
    init(lonePage page: PixelImage, blank: PixelImage?, pageIsA: Bool, tolerance: Int) {
        let blank = blank ?? PixelImage(width: page.width, height: page.height, filledWith: page.word(x: 0, y: 0))
        self = pageIsA ? Comparison(page, blank, tolerance: tolerance) : Comparison(blank, page, tolerance: tolerance)
    }

    /// Pixels are compared as words: equal words are equal pixels, and a screenshot test's pages
    /// are nearly all equal, row after row, so only the rows and pixels that differ are
    /// measured. (Measuring every pixel took about 90 instructions a pixel, 115 million for a
    /// 780 × 1688 page: ten times the cost of rendering it.)
    init(_ a: PixelImage, _ b: PixelImage, tolerance: Int) {
        let (a, b) = PixelImage.atOnePrecision(a, b)
        let tolerance = Comparison.clamped(tolerance)
        let commonWidth = min(a.width, b.width)
        let commonHeight = min(a.height, b.height)
        var differingPixels = 0
        var maxChannelDifference = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        a.words.withUnsafeBufferPointer { wordsA in
            b.words.withUnsafeBufferPointer { wordsB in
                guard let baseA = wordsA.baseAddress, let baseB = wordsB.baseAddress else { return }
                for y in 0..<commonHeight {
                    let rowA = baseA + y * a.width
                    let rowB = baseB + y * b.width
                    if memcmp(rowA, rowB, commonWidth * 4) == 0 { continue }
                    for x in 0..<commonWidth where rowA[x] != rowB[x] {
                        let difference = PixelImage.channelDifference(rowA[x], rowB[x])
                        maxChannelDifference = max(maxChannelDifference, difference)
                        guard difference > tolerance else { continue }
                        differingPixels += 1
                        minX = min(minX, x)
                        minY = min(minY, y)
                        maxX = max(maxX, x)
                        maxY = max(maxY, y)
                    }
                }
            }
        }
        // Pixels only one image has: a difference whatever the tolerance. Those neither has
        // (a wide image against a tall one) are no pixels of either, and are not counted.
        let common = commonWidth * commonHeight
        let pixelCount = a.width * a.height + b.width * b.height - common
        let lone = pixelCount - common
        if lone > 0 {
            differingPixels += lone
            maxChannelDifference = 255
            for image in [a, b] where image.width > commonWidth || image.height > commonHeight {
                if image.width > commonWidth {  // its columns right of the common area, every row
                    minX = min(minX, commonWidth)
                    minY = 0
                }
                if image.height > commonHeight {  // its rows below it, every column
                    minX = 0
                    minY = min(minY, commonHeight)
                }
                maxX = max(maxX, image.width - 1)
                maxY = max(maxY, image.height - 1)
            }
        }
        let box =
            differingPixels == 0
            ? nil : ImageDiffResult.Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        self.imageA = a
        self.imageB = b
        self.result = ImageDiffResult(
            differingPixels: differingPixels,
            share: pixelCount == 0 ? 0 : Double(differingPixels) / Double(pixelCount),
            maxChannelDifference: maxChannelDifference, box: box,
            sizeA: .init(width: a.width, height: a.height), sizeB: .init(width: b.width, height: b.height),
            tolerance: tolerance)
    }

    /// `tolerance` within 0...255.
    static func clamped(_ tolerance: Int) -> Int { min(max(tolerance, 0), 255) }

    /// The result for two images of `width` × `height` known to have the same pixels (the same
    /// PNG bytes), without looking at them.
    static func identical(width: Int, height: Int, tolerance: Int) -> ImageDiffResult {
        ImageDiffResult(
            differingPixels: 0, share: 0,
            maxChannelDifference: 0, box: nil,
            sizeA: .init(width: width, height: height), sizeB: .init(width: width, height: height),
            tolerance: clamped(tolerance))
    }

    /// The diff image as PNG bytes; `output` names the file in errors.
    ///
    /// The image is opaque ARGB32, which `PNGEncoder` writes (Cairo's writer, which took RGB24,
    /// cost 550 million instructions for a 780 × 1688 page), and a run of one colour of A is
    /// faded once.
    func diffImagePNG(for output: String) throws -> [UInt8] {
        let width = result.width
        let height = result.height
        let surface = CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
        do {
            try surface.check("creating the diff image")
            cairo_surface_flush(surface.pointer)
            guard let data = cairo_image_surface_get_data(surface.pointer) else {
                throw RenderError.cairo(status: "no pixel data", context: "creating the diff image")
            }
            let stride = Int(cairo_image_surface_get_stride(surface.pointer))
            // Outside the area both images have, every pixel one of them has differs, whatever
            // the tolerance (and is counted so): there, every pixel of that image other than its
            // background (its top-left pixel, in the margin) is magenta, the rest pink, so that
            // a line a longer page adds can be read (the whole band was magenta). Pixels
            // neither has are a grey checkerboard, as no page is (white showed as a white
            // page's faded pixels do).
            let commonWidth = min(imageA.width, imageB.width)
            let commonHeight = min(imageA.height, imageB.height)
            let mark = 0xFF00_0000 | markRed << 16 | markGreen << 8 | markBlue
            var faded: (word: UInt32, pixel: UInt32) = (0, fadedPixel(0))
            imageA.words.withUnsafeBufferPointer { wordsA in
                imageB.words.withUnsafeBufferPointer { wordsB in
                    func outside(_ x: Int, _ y: Int) -> UInt32 {
                        let (words, width) =
                            x < imageA.width && y < imageA.height ? (wordsA, imageA.width)
                            : x < imageB.width && y < imageB.height ? (wordsB, imageB.width) : (nil, 0)
                        guard let words else { return (x / 8 + y / 8) % 2 == 0 ? 0xFFD0_D0D0 : 0xFFE8_E8E8 }
                        let word = words[y * width + x]
                        let background = words[0]
                        return word != background ? mark : onlyOneHas
                    }
                    for y in 0..<height {
                        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                        for x in 0..<width {
                            guard y < commonHeight, x < commonWidth else {
                                row[x] = outside(x, y)
                                continue
                            }
                            let a = wordsA[y * imageA.width + x]
                            let b = wordsB[y * imageB.width + x]
                            if a != b && PixelImage.channelDifference(a, b) > result.tolerance {
                                row[x] = mark
                            } else {
                                if a != faded.word { faded = (a, fadedPixel(a)) }
                                row[x] = faded.pixel
                            }
                        }
                    }
                }
            }
            cairo_surface_mark_dirty(surface.pointer)
            return try pngBytes(of: surface, context: "encoding the diff image")
        } catch let error as RenderError {
            throw ImageDiffError.write(path: output, reason: error.description)
        }
    }

    /// A's pixel (a word of `PixelImage`) composited over white, turned grey and faded towards
    /// white, as an opaque word.
    private func fadedPixel(_ word: UInt32) -> UInt32 {
        let pixel = PixelImage.straight(word)
        let alpha = Double(pixel.alpha) / 255
        func overWhite(_ channel: UInt8) -> Double { Double(channel) * alpha + 255 * (1 - alpha) }
        let luma = 0.299 * overWhite(pixel.red) + 0.587 * overWhite(pixel.green) + 0.114 * overWhite(pixel.blue)
        let grey = UInt32((255 - (255 - luma) * fadeFactor).rounded())
        return 0xFF00_0000 | grey << 16 | grey << 8 | grey
    }
}

/// An image's pixels: 32-bit words of alpha, red, green and blue, the colour as a PNG keeps it
/// (straight, not multiplied by alpha as Cairo keeps it), 0 for every pixel of alpha 0, so that
/// equal pixels are equal words. Opaque pixels are Cairo's words as they are. (Compared as Cairo's
/// premultiplied words, pixels of low alpha lost their colour: red 100 and 120 at alpha 3 were
/// one word, and a difference of 1 at alpha 128 measured 2.)
struct PixelImage {
    struct Pixel: Hashable {
        var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    }

    let width: Int
    let height: Int
    /// Row-major, no padding.
    let words: [UInt32]
    /// Whether the image came through Cairo's premultiplied pixels (a PNG typeset does not
    /// decode itself, a page drawn), which round the colours of translucent ones:
    /// `atOnePrecision`.
    private(set) var roundedByCairo = false

    init(width: Int, height: Int, words: [UInt32]) {
        self.width = width
        self.height = height
        self.words = words
    }

    /// An image of one pixel's colour, as `word(x:y:)` gives it (white for none).
    init(width: Int, height: Int, filledWith word: UInt32?) {
        self.width = width
        self.height = height
        words = Array(repeating: word ?? 0xFFFF_FFFF, count: width * height)
    }

    /// The most of a file read as an image: far beyond any screen.
    static let largestFile = 1 << 30

    /// The bytes of the image file at `path` (nil: unreadable), read whole only when it begins
    /// as a PNG whose header names a size a page can have; else its first 33 bytes, which say
    /// why it is none (a 3 GB file that is no PNG, as a snapshot's reference, was read up to a
    /// gigabyte first).
    static func bytes(of path: String) -> [UInt8]? {
        guard let head = readFile(path, limit: 33) else { return nil }
        guard let size = PNGFile.headerSize(head),
            (try? PNGFile.checkSize(
                width: size.width, height: size.height, sideLimit: maximumPixelSide,
                pixelLimit: maximumPixelCount)) != nil
        else { return head }
        return readFile(path, limit: largestFile)
    }

    /// An 8-bit RGB or RGBA PNG is decoded by `PNGFile.trueColorPixels`, every other one by
    /// Cairo (a palette, grey, 16-bit or interlaced PNG: its translucent pixels come through
    /// Cairo's premultiplied form, which rounds low alpha's colours).
    init(contentsOf path: String) throws {
        guard let bytes = Self.bytes(of: path) else {
            // Cairo's word for a folder is "error while reading from input stream", and Cairo
            // would wait for a FIFO's writer.
            if regularFileProblem(path) == .notRegular {
                let what = isFolder(path) ? "it is a folder" : "it is not a regular file (a pipe or a device)"
                throw ImageDiffError.unreadable(path: path, reason: what)
            }
            // Nor has Cairo a word for a file this user may not read (a CI cache restored by
            // another owner): it read as a broken PNG, to record again.
            if let why = unreadableReason(path) {
                throw ImageDiffError.unreadable(path: path, reason: why.prefix(1).lowercased() + why.dropFirst())
            }
            try self.init(decodingWithCairo: path)  // which says why it cannot be read
            return
        }
        try self.init(png: bytes, of: path)
    }

    /// The PNG `bytes`, read from the file at `path` (which Cairo reads itself when they are
    /// not 8-bit RGB or RGBA).
    init(png bytes: [UInt8], of path: String) throws {
        try Self.checkSize(PNGFile.headerSize(bytes), of: path)
        guard let decoded = PNGFile.trueColorPixels(bytes) else {
            // libpng inflates all the data: a small file can hold gigabytes of it.
            if let problem = PNGFile.excessData(of: bytes) { throw ImageDiffError.unreadable(path: path, reason: problem) }
            try self.init(decodingWithCairo: path, bytes: bytes)
            return
        }
        self.init(width: decoded.width, height: decoded.height, words: decoded.words)
    }

    /// Refuses an image larger than a PNG page can be, before it is decoded (the decoding checks
    /// the rest of the header).
    private static func checkSize(_ size: PNGFile.Size?, of path: String) throws {
        guard let size else { return }
        do {
            try PNGFile.checkSize(
                width: size.width, height: size.height, sideLimit: maximumPixelSide, pixelLimit: maximumPixelCount)
        } catch {
            throw ImageDiffError.unreadable(path: path, reason: error.message)
        }
    }

    /// The PNG at `path` as Cairo decodes it; `bytes`, the file's when they were read already
    /// (read again to say why Cairo refused it, a file of a gigabyte took two).
    init(decodingWithCairo path: String, bytes: [UInt8]? = nil) throws {
        try Self.checkSize(readFile(path, limit: 33).flatMap(PNGFile.headerSize), of: path)
        let surface = CairoSurface(taking: cairo_image_surface_create_from_png(path))
        let status = cairo_surface_status(surface.pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageDiffError.unreadable(path: path, reason: Self.problem(path, bytes) ?? cairoMessage(status))
        }
        guard let image = PixelImage(surface) else {
            let format = cairo_image_surface_get_format(surface.pointer)
            throw ImageDiffError.unreadable(path: path, reason: "unsupported pixel format \(format.rawValue)")
        }
        self = image
        roundedByCairo = true
    }

    /// `a` and `b`, the translucent colours of one decoded exactly rounded as Cairo's
    /// premultiplied pixels round those of the other, when the other came through them: the same
    /// pixels in two encodings (8-bit RGBA, and grey with alpha or a palette, which Cairo
    /// decodes) are equal words.
    static func atOnePrecision(_ a: PixelImage, _ b: PixelImage) -> (PixelImage, PixelImage) {
        switch (a.roundedByCairo, b.roundedByCairo) {
        case (true, false): (a, b.roundedAsByCairo())
        case (false, true): (a.roundedAsByCairo(), b)
        default: (a, b)
        }
    }

    /// The image with each translucent colour multiplied by its alpha as Cairo multiplies it
    /// (premultiply_data: (alpha × colour + 128) / 255, rounded as it rounds), then divided again.
    private func roundedAsByCairo() -> PixelImage {
        guard words.contains(where: { $0 < 0xFF00_0000 && $0 != 0 }) else { return self }  // none translucent
        var image = PixelImage(
            width: width, height: height,
            words: words.map { word in
                let alpha = word >> 24
                guard alpha != 0 && alpha != 255 else { return word }
                func times(_ shift: UInt32) -> UInt32 {
                    let t = alpha * (word >> shift & 0xFF) + 0x80
                    return (t + (t >> 8)) >> 8
                }
                return Self.straightWord(premultiplied: alpha << 24 | times(16) << 16 | times(8) << 8 | times(0))
            })
        image.roundedByCairo = true
        return image
    }

    /// The pixels of an image surface of 32-bit pixels (ARGB32 or RGB24); nil for another format.
    /// Translucent pixels are divided by their alpha as the PNG writers divide them
    /// (`PNGEncoder.unpremultiplied`), so a page drawn has the words its PNG is read back with.
    init?(_ surface: CairoSurface) {
        let format = cairo_image_surface_get_format(surface.pointer)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return nil }
        // RGB24 leaves the top byte of each word undefined: it is set, as an opaque pixel's alpha.
        let alphaMask: UInt32 = format == CAIRO_FORMAT_RGB24 ? 0xFF00_0000 : 0
        let width = Int(cairo_image_surface_get_width(surface.pointer))
        let height = Int(cairo_image_surface_get_height(surface.pointer))
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        self.width = width
        self.height = height
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer), width > 0, height > 0 else {
            words = []
            return
        }
        words = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                let out = base + y * width
                if alphaMask == 0 {
                    for x in 0..<width {
                        let word = row[x]
                        out[x] = word >= 0xFF00_0000 ? word : Self.straightWord(premultiplied: word)
                    }
                } else {
                    for x in 0..<width { out[x] = row[x] | alphaMask }
                }
            }
            count = width * height
        }
    }

    /// A page just drawn on `surface`, as reading its PNG back gives it: opaque pixels as they
    /// are, translucent ones divided by their alpha as `PNGEncoder.encodeTranslucent` writes them.
    init(drawn surface: CairoSurface) throws {
        guard let image = PixelImage(surface) else {
            throw ImageDiffError.unreadable(path: "the page drawn", reason: "its pixels are not 32-bit words")
        }
        self = image
        roundedByCairo = true
    }

    /// What is wrong with the file at `path`, in the words of the check of `image` sources
    /// ("not a valid PNG file (it is truncated: ...)") rather than Cairo's ("error while reading
    /// from input stream"); nil when it cannot be read or the check finds nothing.
    private static func problem(_ path: String, _ bytes: [UInt8]?) -> String? {
        guard let bytes = bytes ?? readFile(path, limit: largestFile) else { return nil }
        do {
            _ = try PNGFile.check(bytes, sideLimit: Int(Int32.max), pixelLimit: Int.max)
            return nil
        } catch {
            return error.message
        }
    }

    /// The word at (x, y), nil outside the image.
    func word(x: Int, y: Int) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return words[y * width + x]
    }

    /// The pixel at (x, y), nil outside the image.
    func pixel(x: Int, y: Int) -> Pixel? {
        word(x: x, y: y).map(Self.straight)
    }

    /// Every pixel, row-major: made anew at each call (one pixel is `pixel(x:y:)`).
    func allPixels() -> [Pixel] { words.map(Self.straight) }

    /// A word's pixel.
    static func straight(_ word: UInt32) -> Pixel {
        Pixel(
            red: UInt8(truncatingIfNeeded: word >> 16), green: UInt8(truncatingIfNeeded: word >> 8),
            blue: UInt8(truncatingIfNeeded: word), alpha: UInt8(truncatingIfNeeded: word >> 24))
    }

    /// A word of Cairo's (premultiplied) as this image's word: `PNGEncoder.unpremultiplied`'s
    /// colours, 0 where alpha is 0.
    static func straightWord(premultiplied word: UInt32) -> UInt32 {
        let rgba = PNGEncoder.unpremultiplied(word)
        return rgba == 0 ? 0 : (rgba & 0xFF) << 24 | rgba >> 8
    }

    /// The largest difference of one channel (red, green, blue, alpha) between two words' pixels.
    static func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
        func channel(_ shift: UInt32) -> Int { abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) }
        return max(channel(24), channel(16), channel(8), channel(0))
    }
}
