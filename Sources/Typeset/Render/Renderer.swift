// The rendering stage: laid-out pages → PDF (one file, tagged; PDFWriter), SVG (one file per
// page; SVGWriter) or PNG (one file per page, drawn by Cairo; PageDrawer).
// SPEC §2 (output paging), §5 (atomic writes, deterministic output).
import CCairo
import Dispatch
import Glibc

/// The file formats `render(pages:to:options:)` writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    case pdf, svg, png

    /// The files a render of `pageCount` pages to `path` writes, in page order. PDF: `path`
    /// alone. SVG and PNG: `path` for the first page, then `-2`, `-3`, ... before the extension
    /// (`mock.svg`, `mock-2.svg`, ...; a path without extension gets the number at its end).
    public func outputPaths(for path: String, pageCount: Int) -> [String] {
        guard self != .pdf, pageCount > 1 else { return [path] }
        return (1...pageCount).map { Self.pagePath(for: path, page: $0) }
    }

    /// Where page `page` of an SVG or PNG render to `path` goes (`mock-2.svg`).
    public static func pagePath(for path: String, page: Int) -> String {
        guard page > 1 else { return path }
        let ext = Path.fileExtension(path)
        guard !ext.isEmpty, let stem = Path.dropping("." + ext, from: path) else { return "\(path)-\(page)" }
        return "\(stem)-\(page).\(ext)"
    }

    /// The page files of an earlier render of more pages that a render of `pageCount` pages to
    /// `path` leaves (`mock-3.png` after a render of two), up to one that does not exist or is
    /// `kept` (another input's output), those of them that typeset wrote (`isOurs`) and that
    /// are no other screen's output (`numberedScreen`, with the inputs' `folders`). They are
    /// not removed: beside an input, such a name may be the user's own file (a picture
    /// `onboarding-2.png` was named a leftover, to remove, and so was onboarding-2.xml's output).
    public func leftoverPages(
        of path: String, pageCount: Int, kept: (String) -> Bool = { _ in false }, folders: [String]
    ) -> [String] {
        guard self != .pdf else { return [] }
        var leftovers: [String] = []
        var page = pageCount + 1
        while page - pageCount <= 10_000 {
            let next = Self.pagePath(for: path, page: page)
            guard FileVersion(path: next) != nil, !kept(next) else { break }
            if isOurs(next) && numberedScreen(of: next, beside: folders) == nil { leftovers.append(next) }
            page += 1
        }
        return leftovers
    }

    /// The comment every SVG of ours has after its XML declaration (`isOurs`).
    static let svgMark = "\n<!-- Generator: typeset -->"

    /// Whether the file at `path` is one typeset wrote in this format: a PNG with its tEXt
    /// chunk (`PNGEncoder.software`), an SVG with its comment (`svgMark`), a PDF whose
    /// document information (its last object, found through the trailer and the
    /// cross-reference table as `PDFWriter` writes them) has typeset as its producer. An
    /// earlier run's output is told from a picture or a file of the user's of that name.
    public func isOurs(_ path: String) -> Bool {
        switch self {
        case .png:
            let mark = Array("tEXt".utf8) + PNGEncoder.software
            guard let head = readFile(path, limit: 128), head.starts(with: PNGFile.signature) else { return false }
            return head.indices.contains { head[$0...].starts(with: mark) }
        case .svg:
            guard let head = readFile(path, limit: 128) else { return false }
            return String(decoding: head, as: UTF8.self).contains(Self.svgMark)
        case .pdf:
            return Self.pdfProducer(path) == "typeset"
        }
    }

    /// The producer a PDF of `PDFWriter`'s names, read through its trailer's /Info and its
    /// cross-reference table; nil for another PDF.
    private static func pdfProducer(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(status.st_size)
        func bytes(at offset: Int, _ count: Int) -> [UInt8]? {
            guard offset >= 0, offset < size else { return nil }
            var bytes = [UInt8](repeating: 0, count: min(count, size - offset))
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            return read == bytes.count ? bytes : nil
        }
        /// The end of the last `label` in `text`.
        func end(of label: String, in text: [UInt8]) -> Int? {
            let label = Array(label.utf8)
            guard text.count >= label.count else { return nil }
            return (0...(text.count - label.count)).last { text[$0...].starts(with: label) }.map { $0 + label.count }
        }
        /// The number at `start` in `text`, past white space.
        func number(_ text: [UInt8], from start: Int) -> Int? {
            let digits = text[start...].drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }.prefix { (0x30...0x39).contains($0) }
            return digits.isEmpty || digits.count > 12 ? nil : Int(String(decoding: digits, as: UTF8.self))
        }
        guard let tail = bytes(at: max(0, size - 256), 256),
            let xref = end(of: "startxref", in: tail).flatMap({ number(tail, from: $0) }),
            let info = end(of: "/Info ", in: tail).flatMap({ number(tail, from: $0) }),
            let table = bytes(at: xref, 48), table.starts(with: Array("xref\n0 ".utf8)),
            let second = table.indices.dropFirst(5).first(where: { table[$0] == 0x0A }),
            let entry = bytes(at: xref + second + 1 + 20 * info, 10), let offset = number(entry, from: 0),
            let object = bytes(at: offset, 64), let producer = end(of: "<< /Producer (", in: object)
        else { return nil }
        return String(decoding: object[producer...].prefix { $0 != 0x29 }, as: UTF8.self)
    }
}

/// The other screen whose output the page file `page` (`onboarding-2.png`) may be: a regular
/// file `onboarding-2.xml` in one of `folders` (the inputs', `folders(of:)`) or beside the page,
/// named as the folder is. Screens numbered so are common: rendering `onboarding.xml` alone
/// said the others' outputs were its own leftover pages, to remove, and wrote its page 2 over
/// one. `stem` and `extensions` for `diff`'s images (`login-2.diff.png` is another
/// comparison's beside `login-2.xml` or a `login-2.png`); never `page` itself.
public func numberedScreen(of page: String, stem: String? = nil, beside folders: [String], extensions: [String] = [".xml"]) -> String? {
    let stem = stem ?? Path.stem(page)
    let pageFolder = Path.folder(page)
    // (`onboarding-2.XML` or `.Xml` too, as `snapshot` reads them: a screen so named lost its
    // output.)
    let names = extensions.flatMap(caseVariants).map { stem + $0 }
    for folder in folders.contains(pageFolder) ? folders : folders + [pageFolder] {
        for name in names {
            let path = folder.isEmpty ? name : Path.join(folder, name)
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Path.realPath(path) != Path.realPath(page) else {
                continue
            }
            return path
        }
    }
    return nil
}

/// `text` in every mix of cases of its ASCII letters (`.xml`, `.xmL`, ..., `.XML`), the first
/// as it is.
private func caseVariants(_ text: String) -> [String] {
    text.unicodeScalars.reduce(into: [""]) { variants, scalar in
        let character = String(scalar)
        let other = !scalar.isASCII ? character : character == character.uppercased() ? character.lowercased() : character.uppercased()
        variants = variants.map { $0 + character } + (other == character ? [] : variants.map { $0 + other })
    }
}

/// The folders of `inputs`, each once, in order (a batch's are usually one).
public func folders(of inputs: [String]) -> [String] {
    var seen = Set<String>()
    return inputs.map(Path.folder).filter { seen.insert($0).inserted }
}

/// How `render(pages:to:options:)` writes its output.
public struct RenderOptions: Sendable {
    public var format: OutputFormat
    /// PNG only: device pixels per point (2 → 144 dpi).
    public var scale: Double
    /// PDF only: the document title (`/Title` in the document information).
    public var title: String?
    /// PDF only: the document language as a BCP 47 tag (`/Lang` in the catalog).
    public var language: String?
    /// SVG: the title and language of each page's own document, when the pages are of several
    /// (each file is a document of its own); else `title` and `language` are every page's.
    public var pageDocuments: [(title: String?, language: String?)] = []
    /// SVG and PNG: pages drawn at once, on as many threads. The files are the same bytes.
    public var jobs: Int
    /// SVG and PNG: told, from the thread that drew it, each time a page is drawn: how many are
    /// drawn and how many there are (for a progress line: a lone input of many pages at a
    /// large scale takes seconds).
    public var pageDrawn: (@Sendable (_ drawn: Int, _ of: Int) -> Void)?

    public init(
        format: OutputFormat, scale: Double = 2, title: String? = nil, language: String? = nil, jobs: Int = 1
    ) {
        self.format = format
        self.scale = scale
        self.title = title
        self.language = language
        self.jobs = jobs
    }
}

/// Renders `pages` and writes them to `path` (PDF: one file with every page; SVG and PNG: one
/// file per page, named as `OutputFormat.outputPaths(for:pageCount:)` says). Returns the paths
/// written, in page order.
///
/// Every file is written atomically, and all of them only once every page has rendered: when
/// this throws, no output file has been created or changed and no temporary file is left. The
/// same pages and options give byte-identical files, in this process or any other. Safe to call
/// from several threads at once.
@discardableResult
public func render(pages: [Page], to path: String, options: RenderOptions) throws -> [String] {
    try checkSizes(of: pages)
    let paths = options.format.outputPaths(for: path, pageCount: pages.count)
    if options.format != .pdf { try refuseOverwritingImages(of: pages, with: paths) }  // PDFWriter checks its own
    switch options.format {
    case .pdf:
        let writer = try PDFWriter(path: path, options: options)
        try writer.add(pages)
        return try writer.finish()
    case .svg, .png:
        // Each page goes to its temporary file as it is drawn; all are renamed into place once
        // every page is drawn.
        do {
            let files = try StagedFiles(paths)
            if options.format == .svg {
                try drawPages(pages, jobs: options.jobs, pageDrawn: options.pageDrawn, to: files, writer: {
                    SVGWriter(title: options.title, language: options.language, pageDocuments: options.pageDocuments)
                }) {
                    try $2.write($0, pageNumber: $1)
                }
            } else {
                try drawPages(pages, jobs: options.jobs, pageDrawn: options.pageDrawn, to: files, writer: { PageDrawer() }) {
                    try renderPNG($0, pageNumber: $1, scale: options.scale, drawer: $2)
                }
            }
            try files.commit()
        } catch let error as FileWriteFailure {
            throw RenderError.write(path: error.path, reason: error.reason)
        }
        return paths
    }
}

/// Throws unless there are pages and every one has a positive size.
func checkSizes(of pages: [Page]) throws {
    guard !pages.isEmpty else { throw RenderError.noPages }
    for (index, page) in pages.enumerated() {
        guard page.width.isFinite, page.height.isFinite, page.width > 0, page.height > 0 else {
            throw RenderError.invalidInput(
                "page \(index + 1) is \(page.width) × \(page.height) pt: sizes must be positive")
        }
    }
}

/// Draws `pages` as PNG at `scale`, one after another on this thread, and hands `body` each
/// page's index, its PNG bytes (those `render(pages:to:options:)` writes) and the image they
/// encode, which lives only until `body` returns. Snapshot checks compare pages this way,
/// without writing them to files and reading them back.
func forEachPNGPage(_ pages: [Page], scale: Double, _ body: (Int, [UInt8], CairoSurface) throws -> Void) throws {
    try checkSizes(of: pages)
    let drawer = PageDrawer()
    for (index, page) in pages.enumerated() {
        try drawPNG(page, pageNumber: index + 1, scale: scale, drawer: drawer) { try body(index, $0, $1) }
    }
    try drawer.checkTagsClosed(pageCount: pages.count)
}

/// Draws each page with `draw` (page, its number from 1, a writer made by `writer`) on up to
/// `jobs` threads and stages its bytes in `files` as soon as it is drawn. A writer carries the
/// structure tags still open from one page to the next, so the pages are handed out in runs that
/// begin with none open (with this package's layout, every page), in page order, each thread
/// drawing with one writer of its own. The error thrown is the one of the first page that fails,
/// as when the pages are drawn one after another.
private func drawPages<Writer: PageWriting>(
    _ pages: [Page], jobs: Int, pageDrawn: (@Sendable (Int, Int) -> Void)?, to files: StagedFiles,
    writer: @Sendable () -> Writer, _ draw: @Sendable (Page, Int, Writer) throws -> [UInt8]
) throws {
    let runs = runsOfPages(pages)
    let threads = Threads.usable(max(1, min(jobs, runs.count)))
    guard threads > 1 else {
        let drawer = writer()
        for (index, page) in pages.enumerated() {
            try files.stage(index, try draw(page, index + 1, drawer))
            pageDrawn?(index + 1, pages.count)
        }
        try drawer.checkTagsClosed(pageCount: pages.count)
        return
    }
    let progress = Locked(DrawingProgress())
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        let drawer = writer()
        // Runs are taken in page order, and none after a failure: every page before the
        // failing one is drawn, so the first failure in page order is found.
        while let run = progress.withLock({ state -> Int? in
            guard state.failure == nil, state.nextRun < runs.count else { return nil }
            defer { state.nextRun += 1 }
            return state.nextRun
        }) {
            for index in runs[run] {
                do {
                    try files.stage(index, try draw(pages[index], index + 1, drawer))
                    let drawn = progress.withLock { state in
                        state.drawn += 1
                        return state.drawn
                    }
                    pageDrawn?(drawn, pages.count)
                    if index == pages.count - 1 { try drawer.checkTagsClosed(pageCount: pages.count) }
                } catch {
                    progress.withLock { state in
                        if state.failure.map({ index < $0.page }) ?? true { state.failure = (index, error) }
                    }
                    return
                }
            }
        }
    }
    try progress.withLock { state in
        if let failure = state.failure { throw failure.error }
    }
}

/// How far `drawPages`' threads are: the next run of pages to draw, the pages drawn, and the
/// first failure.
private struct DrawingProgress {
    var nextRun = 0
    var drawn = 0
    var failure: (page: Int, error: any Error)?
}

/// The pages cut where no structure element is open (`beginTag` and `endTag` at the top level
/// of a page balance), into runs of consecutive pages.
private func runsOfPages(_ pages: [Page]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    var depth = 0
    for (index, page) in pages.enumerated() {
        for item in page.items {
            if case .beginTag = item { depth += 1 } else if case .endTag = item { depth -= 1 }
        }
        if depth == 0 || index == pages.count - 1 {
            runs.append(start..<index + 1)
            start = index + 1
        }
    }
    return runs
}

/// Throws when one of `outputs` is a PNG that `pages` show: `render banner.xml --format png`
/// beside the banner.png it shows would replace the picture with the mockup of itself. Paths are
/// compared with symbolic links resolved; an output that does not exist yet is nobody's image.
func refuseOverwritingImages(of pages: [Page], with outputs: [String]) throws {
    if let found = overwrittenPicture(outputs, shownBy: [picturesShown(on: pages)]) {
        throw PictureOverwritten(output: found.output, location: pictureLocation(found.output, on: pages))
    }
}

/// The pictures `pages` show (those of their subpages too), their paths with symbolic links
/// resolved.
public func picturesShown(on pages: [Page]) -> Set<String> {
    Set(images(on: pages).map(\.path).compactMap(Path.realPath))
}

/// The first <image> of `pages` that shows `output` (symbolic links resolved).
public func pictureLocation(_ output: String, on pages: [Page]) -> SourceLocation? {
    guard let real = Path.realPath(output) else { return nil }
    return images(on: pages).first { Path.realPath($0.path) == real }?.location
}

/// The images of `pages`, those of their subpages too, in order.
private func images(on pages: [Page]) -> [ImageItem] {
    var images: [ImageItem] = []
    func collect(_ page: Page) {
        for item in page.items {
            switch item {
            case .image(let image): images.append(image)
            case .subpage(let subpage): collect(subpage.page)
            default: continue
            }
        }
    }
    pages.forEach(collect)
    return images
}

/// The first of `outputs` that is a picture one of several documents shows (`shown`: each
/// one's pictures, as `picturesShown(on:)` gives them), and the first document that shows it.
public func overwrittenPicture(_ outputs: [String], shownBy shown: [Set<String>]) -> (output: String, shownBy: Int)? {
    let pictures = shown.reduce(into: Set<String>()) { $0.formUnion($1) }
    guard !pictures.isEmpty else { return nil }
    for output in outputs {
        guard let real = Path.realPath(output), pictures.contains(real) else { continue }
        return (output, shown.firstIndex { $0.contains(real) } ?? 0)
    }
    return nil
}

/// Writing `output` would replace a picture the document shows; `location`, its <image>, where
/// the error is said.
public struct PictureOverwritten: Error, CustomStringConvertible {
    public var output: String
    public var location: SourceLocation?
    public init(output: String, location: SourceLocation?) {
        self.output = output
        self.location = location
    }
    public var description: String {
        "cannot write \(output): it is an image the document shows, and writing it would replace it; name another output"
    }
}

/// The largest side of a Cairo image surface, in pixels.
let maximumPixelSide = 32767
/// The most pixels of a PNG page, and of an image `diff` and `snapshot` read: 256 MiB as 32-bit
/// pixels (8192 × 8192, 12 times the 2048 × 2732 screen of a 12.9-inch iPad Pro). Without it a
/// page 14,400 pt square took 3.3 GB at the default scale, and a 32 KB PNG made `diff` decode a
/// gigabyte.
let maximumPixelCount = 1 << 26

/// The pixels of `page` as a PNG image at `scale`: its size in points times the scale, a
/// fraction of a pixel taken whole.
private func pixelSize(of page: Page, scale: Double) -> (width: Double, height: Double) {
    // Less a millionth: a page laid out 473.5 pt tall give or take the last bit of a double
    // (473.50000000000006) took a row of 948 pixels at 2×, one of background only.
    func pixels(_ points: Double) -> Double { max(1, (points * scale - 1e-6).rounded(.up)) }
    return (pixels(page.width), pixels(page.height))
}

/// Why `page` cannot be a PNG image at `scale` (a positive number), or nil: too many pixels, or
/// text too large for FreeType to draw.
public func pngSizeProblem(_ page: Page, pageNumber: Int, scale: Double) -> String? {
    let (pixelWidth, pixelHeight) = pixelSize(of: page, scale: scale)
    if pixelWidth > Double(maximumPixelSide) || pixelHeight > Double(maximumPixelSide)
        || pixelWidth * pixelHeight > Double(maximumPixelCount)
    {
        return "page \(pageNumber) would be \(Int(pixelWidth)) × \(Int(pixelHeight)) pixels; "
            + "PNG pages can be at most \(maximumPixelSide) pixels on a side and \(maximumPixelCount) "
            + "(8192 × 8192) in all: use a smaller scale"
    }
    // (A label of size 1000 balanced by 1000 at AX5, 6235 pt, failed at --scale 11 with "error
    // occurred in libfreetype", unlocated.)
    let largest = largestTextSize(on: page)
    guard largest * scale > maximumPixelsPerEm else { return nil }
    return "page \(pageNumber) has text \(format((largest * 100).rounded() / 100)) pt large, "
        + "\(Int((largest * scale).rounded())) pixels to the em at this scale; FreeType draws at most "
        + "\(Int(maximumPixelsPerEm)): use a smaller scale"
}

/// The most pixels to the em FreeType sets a font at.
let maximumPixelsPerEm = 65535.0

/// The largest size text is drawn at on `page`, in its own points (a sheet's cells scaled).
private func largestTextSize(on page: Page) -> Double {
    page.items.reduce(0) { largest, item in
        switch item {
        case .glyphs(let run): max(largest, run.size)
        case .subpage(let subpage): max(largest, largestTextSize(on: subpage.page) * subpage.scale)
        default: largest
        }
    }
}

/// Throws when `page` cannot be a PNG image at `scale`.
func checkPNGSize(_ page: Page, pageNumber: Int, scale: Double) throws {
    guard scale.isFinite, scale > 0 else {
        throw RenderError.invalidInput("scale \(scale) is not a positive number")
    }
    if let problem = pngSizeProblem(page, pageNumber: pageNumber, scale: scale) {
        throw RenderError.invalidInput(problem)
    }
}

/// One page as a PNG image, `scale` pixels per point.
func renderPNG(_ page: Page, pageNumber: Int, scale: Double, drawer: PageDrawer) throws -> [UInt8] {
    try drawPNG(page, pageNumber: pageNumber, scale: scale, drawer: drawer) { bytes, _ in bytes }
}

/// One page drawn on an image, `scale` pixels per point, and encoded as PNG; `body` takes the
/// bytes and the image.
func drawPNG<Result>(
    _ page: Page, pageNumber: Int, scale: Double, drawer: PageDrawer, _ body: ([UInt8], CairoSurface) throws -> Result
) throws -> Result {
    try drawImage(page, pageNumber: pageNumber, scale: scale, drawer: drawer) { surface in
        try body(pngBytes(of: surface, pixelsPerPoint: scale, context: "encoding page \(pageNumber) as PNG"), surface)
    }
}

/// One page drawn on an image, `scale` pixels per point, passed to `body` (`diff` compares its
/// pixels: encoding it as a PNG only to read its resolution took a third of its time).
func drawImage<Result>(
    _ page: Page, pageNumber: Int, scale: Double, drawer: PageDrawer, _ body: (CairoSurface) throws -> Result
) throws -> Result {
    try checkPNGSize(page, pageNumber: pageNumber, scale: scale)
    let (pixelWidth, pixelHeight) = pixelSize(of: page, scale: scale)
    return try PixelMemory.shared.withImageSurface(width: Int(pixelWidth), height: Int(pixelHeight)) {
        surface in
        try surface.check("creating the image of page \(pageNumber)")
        let context = CairoContext(surface: surface)
        cairo_scale(context.pointer, scale, scale)
        try drawer.draw(page, pageNumber: pageNumber, on: context)
        cairo_surface_flush(surface.pointer)
        try surface.check("drawing page \(pageNumber)")
        return try body(surface)
    }
}
