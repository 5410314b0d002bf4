// SVG pages, written directly from laid-out pages (Layout/Page.swift), as PDFWriter writes PDFs.
// Each glyph a page draws is defined once in its `<defs>`: the font's outline in font units
// (HarfBuzz draws it; FontProgram.outline), scaled to the run's size and flipped to y down, and
// `<use>`d where each glyph stands. Bitmap glyphs (emoji) and images are embedded PNGs;
// rectangles, rules and pages inside the page (comparison sheets, clipped) are SVG shapes. The
// page's text goes on top, invisible (SVGText.swift), and every id gets the page's own prefix
// (SVGIdentifiers.swift).
//
// Cairo's SVG surface wrote these pages before: it printed each page's glyph outlines, at every
// size, number by number through printf, which took 60% of an SVG page's instructions. Here an
// outline is made once per process and copied.
import CCairo

/// Writes the SVG pages of one render, in order, on one thread. Keeps what spans pages: open
/// structure tags, and the fonts and images already read.
final class SVGWriter: PageWriting {
    private(set) var tags = StructureTagBalance()
    private var programs: [FontFace: FontProgram] = [:]
    /// Image files embedded, by path.
    private var images: [String: EmbeddedPNG] = [:]
    /// The document's title and language, for every page (the PDF's /Title and /Lang): an SVG
    /// shown in a web page had no accessible name, and its text no language but its runs'. Or
    /// each page's own document's, by page (`RenderOptions.pageDocuments`).
    private let title: String?
    private let language: String?
    private let pageDocuments: [(title: String?, language: String?)]

    init(title: String? = nil, language: String? = nil, pageDocuments: [(title: String?, language: String?)] = []) {
        self.title = title
        self.language = language
        self.pageDocuments = pageDocuments
    }

    /// One page as an SVG document. `pageNumber` counts from 1 and is used in error messages.
    func write(_ page: Page, pageNumber: Int) throws -> [UInt8] {
        let (title, language) = pageNumber <= pageDocuments.count ? pageDocuments[pageNumber - 1] : (title, language)
        var svg = SVGPage()
        svg.background(of: page)
        for (index, item) in page.items.enumerated() {
            try write(item, to: &svg, page: pageNumber, item: index + 1, depth: 0)
        }
        var document = ByteBuffer(capacity: svg.defs.count + svg.body.count + 1024)
        var identifiers: [Int] = []
        document.append(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        document.append(string: OutputFormat.svgMark)
        document.append(
            "\n<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"")
        document.decimal(page.width)
        document.append("pt\" height=\"")
        document.decimal(page.height)
        document.append("pt\" viewBox=\"0 0 ")
        document.decimal(page.width)
        document.append(" ")
        document.decimal(page.height)
        document.append("\" version=\"1.1\"")
        SVGText.appendLanguage(language, to: &document)
        document.append(">\n")
        if let title {
            SVGText.appendTitle(title, to: &document)
            document.append("\n")
        }
        document.append("<defs>\n")
        identifiers += svg.defsIdentifiers.map { $0 + document.count }
        document.append(svg.defs)
        document.append("</defs>\n")
        identifiers += svg.bodyIdentifiers.map { $0 + document.count }
        document.append(svg.body)
        let prefix = document.withBytes { SVGIdentifiers.prefix(of: $0) }
        for offset in identifiers { document.replace(at: offset, with: prefix) }
        SVGText.write(page, to: &document)
        document.append("</svg>\n")
        return document.bytes
    }

    /// Throws unless every tag begun has been ended; call after the last page.
    func checkTagsClosed(pageCount: Int) throws {
        try tags.checkClosed(pageCount: pageCount)
    }

    /// One item; `depth` counts the subpages it is inside, whose tags are not drawn.
    private func write(_ item: PageItem, to svg: inout SVGPage, page: Int, item itemNumber: Int, depth: Int) throws {
        switch item {
        case .glyphs(let run):
            try write(run, to: &svg, page: page, item: itemNumber)
        case .rectangle(let rectangle):
            svg.write(rectangle)
        case .rule(let rule):
            svg.write(rule)
        case .image(let image):
            try write(image, to: &svg, page: page, item: itemNumber)
        case .beginTag(let tag, _, _):
            if depth == 0 { tags.begin(tag) }
        case .endTag(let tag, _):
            if depth == 0 { try tags.end(tag, page: page) }
        case .subpage(let subpage):
            try subpage.check(page: page, item: itemNumber, depth: depth + 1)
            let inner = subpage.page
            let clip = svg.nextClip()
            svg.defs.append("<clipPath id=\"")
            svg.defsIdentifier()
            svg.defs.append("clip")
            svg.defs.digits(clip)
            svg.defs.append("\"><rect width=\"")
            svg.defs.decimal(inner.width)
            svg.defs.append("\" height=\"")
            svg.defs.decimal(inner.height)
            svg.defs.append("\"/></clipPath>\n")
            svg.body.append("<g transform=\"matrix(")
            svg.matrix(scaleX: subpage.scale, scaleY: subpage.scale, x: subpage.x, y: subpage.y)
            svg.body.append(")\"><g clip-path=\"url(#")
            svg.bodyIdentifier()
            svg.body.append("clip")
            svg.body.digits(clip)
            svg.body.append(")\">\n")
            svg.background(of: inner)
            for innerItem in inner.items {
                try write(innerItem, to: &svg, page: page, item: itemNumber, depth: depth + 1)
            }
            svg.body.append("</g></g>\n")
        }
    }

    private func program(_ face: FontFace) throws -> FontProgram {
        if let known = programs[face] { return known }
        let program = FontProgram.of(face)
        guard program.glyphCount > 0 else {
            throw RenderError.font(path: face.path, reason: "no glyphs could be read from it")
        }
        programs[face] = program
        return program
    }

    private func write(_ run: GlyphRun, to svg: inout SVGPage, page: Int, item: Int) throws {
        guard !run.glyphs.isEmpty else { return }
        try run.checkMade(page: page, item: item)
        let program = try program(run.font)
        try run.checkGlyphs(fontGlyphCount: program.glyphCount, page: page, item: item)
        if program.isBitmap {
            writeBitmaps(run, program, to: &svg)
            return
        }
        let font = svg.font(run.font, size: run.size, program)
        // A translucent run is one group at its opacity: glyphs that overlap (marks, joining
        // letters) do not darken where they do, as in PNG pages.
        svg.body.append("<g")
        svg.paint(color: run.color, " fill=\"", opacity: " opacity=\"")
        svg.body.append(">\n")
        for glyph in run.glyphs where svg.define(glyph.id, of: font, program) {
            svg.body.append("<use xlink:href=\"#")
            svg.bodyIdentifier()
            svg.body.append("glyph")
            svg.body.digits(font.index)
            svg.body.append("-")
            svg.body.digits(Int(glyph.id))
            svg.body.append("\" x=\"")
            svg.body.decimal(glyph.x)
            svg.body.append("\" y=\"")
            svg.body.decimal(glyph.y)
            svg.body.append("\"/>\n")
        }
        svg.body.append("</g>\n")
    }

    /// Each glyph of a bitmap font's run as its PNG, where the glyph's bitmap stands (as the PDF
    /// and PNG pages draw it), at the run's opacity; a glyph without one is left out.
    private func writeBitmaps(_ run: GlyphRun, _ program: FontProgram, to svg: inout SVGPage) {
        for glyph in run.glyphs {
            let key = EmbeddedImages.GlyphKey(file: run.font.fileKey, glyph: glyph.id)
            let known = Self.embeddedImages.withLock { $0.glyphs[key] }
            let entry = known ?? program.bitmap(glyph.id).flatMap { bitmap -> EmbeddedImages.Glyph? in
                // One Cairo cannot decode is left out, as PNG pages leave it out.
                guard CairoSurface(png: bitmap.png) != nil,
                    let image = EmbeddedPNG(png: bitmap.png, key: "\(run.font.path)#\(run.font.index)#\(glyph.id)")
                else { return nil }
                var placed = bitmap
                placed.png = []  // embedded
                return (image, placed)
            }
            if known == nil {
                Self.embeddedImages.withLock { cache in
                    cache.makeRoom(for: entry?.image.base64.count ?? 0)
                    cache.glyphs[key] = .some(entry)
                }
            }
            guard let (image, bitmap) = entry else { continue }
            let frame = bitmap.frame(originX: glyph.x, originY: glyph.y, size: run.size)
            svg.use(
                image, scaleX: frame.width / Double(image.width), scaleY: frame.height / Double(image.height),
                x: frame.x, y: frame.y, opacity: run.color.alpha)
        }
    }

    private func write(_ item: ImageItem, to svg: inout SVGPage, page: Int, item itemNumber: Int) throws {
        guard item.x.isFinite, item.y.isFinite, item.width.isFinite, item.height.isFinite else {
            throw RenderError.invalidInput(
                "item \(itemNumber) of page \(page) is an image of \(item.width) × \(item.height) pt at \(item.x), \(item.y)")
        }
        let image = try embedded(item.path)
        guard image.width > 0, image.height > 0, item.width > 0, item.height > 0 else { return }
        // Mirroring: drawn from the box's right edge with a negative horizontal scale.
        let scaleX = item.width / Double(image.width)
        svg.use(
            image, scaleX: item.flipped ? -scaleX : scaleX, scaleY: item.height / Double(image.height),
            x: item.flipped ? item.x + item.width : item.x, y: item.y, opacity: 1, label: item.alt)
    }

    /// The image file at `path` as the SVG embeds it: the chunks of the file that make its pixels
    /// (a 9 MB text chunk is not copied into every page). A file the markup stage checked (Cairo
    /// decoded it then, once per version of the file) is taken as it is, and made once per
    /// version for every render of the process (`EmbeddedImages`): a batch shows the same
    /// screenshot in every locale's document. Any other is decoded by Cairo first, so that a
    /// file PNG pages cannot draw is refused here too, with the same message.
    private func embedded(_ path: String) throws -> EmbeddedPNG {
        if let known = images[path] { return known }
        let image: EmbeddedPNG?
        let version = FileVersion(path: path)
        if let version, let known = Self.embeddedImages.withLock({ $0.files[version] }) {
            image = known
        } else if let bytes = PNGFile.checkedBytes(at: path) {
            image = EmbeddedPNG(png: PNGFile.essentialChunks(of: bytes), key: path)
            // Kept only if the file did not change while it was read.
            if let image, let version, FileVersion(path: path) == version {
                Self.embeddedImages.withLock { cache in
                    cache.makeRoom(for: image.base64.count)
                    cache.files[version] = image
                }
            }
        } else {
            _ = try CairoSurface(decodingPNGAt: path)
            image = readFile(path, limit: MarkupParser.maximumImageBytes).flatMap {
                EmbeddedPNG(png: PNGFile.essentialChunks(of: $0), key: path)
            }
        }
        guard let image else { throw RenderError.image(path: path, reason: "it could not be read again") }
        images[path] = image
        return image
    }

    private static let embeddedImages = Locked(EmbeddedImages())
}

/// The PNGs SVG pages embed, made once per process for every page that shows them: image files
/// by version of the file, and bitmap glyphs (emoji) by font file and glyph, nil for a glyph
/// without one to draw. Decoded by Cairo for each document, the eight emoji of a small page took
/// 6 million instructions of libpng and zlib on every page that showed them.
private struct EmbeddedImages {
    typealias Glyph = (image: EmbeddedPNG, glyph: BitmapGlyph)

    struct GlyphKey: Hashable {
        let file: FontFileKey
        let glyph: UInt32
    }

    var files: [FileVersion: EmbeddedPNG] = [:]
    var glyphs: [GlyphKey: Glyph?] = [:]
    /// Of base64 in both, at most `mostBytes`.
    private var bytes = 0
    private static let mostBytes = 64 * 1024 * 1024

    /// Counts `count` more bytes, after emptying the cache if they would be too many.
    mutating func makeRoom(for count: Int) {
        if bytes + count > Self.mostBytes { self = EmbeddedImages() }
        bytes += count
    }
}

/// A PNG as an SVG embeds it: its size in pixels and its bytes in base64. `key` names it among
/// a render's images.
struct EmbeddedPNG: Sendable {
    let key: String
    let width: Int, height: Int
    let base64: [UInt8]

    /// Nil unless `png` starts as a PNG does (a signature and an IHDR).
    init?(png: [UInt8], key: String) {
        guard let size = PNGFile.headerSize(png) else { return nil }
        self.key = key
        width = size.width
        height = size.height
        base64 = Base64.encode(png)
    }
}

/// The two parts of a page being written: the definitions its drawing uses, and the drawing.
private struct SVGPage: ~Copyable {
    var defs = ByteBuffer(capacity: 16 * 1024)
    var body = ByteBuffer(capacity: 32 * 1024)
    /// Font faces at sizes, numbered in order of first use (`glyphF-G` is glyph G of font F).
    private var fonts: [SizedFace: PageFont] = [:]
    /// Per font number, each glyph's state: 0 not seen yet, 1 defined, 2 without an outline.
    private var glyphs: [[UInt8]] = []
    /// Images defined so far, by key, and their numbers (`imageN`).
    private var images: [String: Int] = [:]
    private var clips = 0
    /// Where ids and references to them start in `defs` and `body` (SVGIdentifiers.swift).
    private(set) var defsIdentifiers: [Int] = []
    private(set) var bodyIdentifiers: [Int] = []

    private struct SizedFace: Hashable {
        let face: FontFace
        let size: Double
    }

    /// A face at a size on this page: its number, its face, and the scale from its font units.
    struct PageFont {
        let index: Int
        let face: FontFace
        let scale: String
    }

    mutating func font(_ face: FontFace, size: Double, _ program: FontProgram) -> PageFont {
        let key = SizedFace(face: face, size: size)
        if let known = fonts[key] { return known }
        let font = PageFont(index: fonts.count, face: face, scale: ByteBuffer.exact(size / Double(program.unitsPerEm)))
        fonts[key] = font
        glyphs.append([UInt8](repeating: 0, count: program.glyphCount))
        return font
    }

    /// Defines glyph `id` of `font` unless it is already; false when it has no outline (nothing
    /// to draw: a space).
    mutating func define(_ id: UInt32, of font: PageFont, _ program: FontProgram) -> Bool {
        let glyph = Int(id)
        switch glyphs[font.index][glyph] {
        case 1: return true
        case 2: return false
        default: break
        }
        let path = SVGGlyphOutlines.shared.path(of: id, in: font.face, program)
        glyphs[font.index][glyph] = path.isEmpty ? 2 : 1
        guard !path.isEmpty else { return false }
        defs.append("<path id=\"")
        defsIdentifier()
        defs.append("glyph")
        defs.digits(font.index)
        defs.append("-")
        defs.digits(Int(id))
        defs.append("\" transform=\"scale(")
        defs.append(string: font.scale)
        defs.append(",-")
        defs.append(string: font.scale)
        defs.append(")\" d=\"")
        defs.append(path)
        defs.append("\"/>\n")
        return true
    }

    /// Draws `image`, defined once per page, with its pixels `scaleX` by `scaleY` points and its
    /// top-left corner at (`x`, `y`). `label`: the image's alt text. Given, the drawing is hidden
    /// from screen readers: its accessible name and title are in the text layer, in reading
    /// order (`SVGText`), as the PDF gives its Figure /Alt; `alt=""` says nothing.
    mutating func use(
        _ image: EmbeddedPNG, scaleX: Double, scaleY: Double, x: Double, y: Double, opacity: Double,
        label: String? = nil
    ) {
        let number: Int
        if let known = images[image.key] {
            number = known
        } else {
            number = images.count + 1
            images[image.key] = number
            defs.append("<image id=\"")
            defsIdentifier()
            defs.append("image")
            defs.digits(number)
            defs.append("\" width=\"")
            defs.digits(image.width)
            defs.append("\" height=\"")
            defs.digits(image.height)
            defs.append("\" xlink:href=\"data:image/png;base64,")
            defs.append(image.base64)
            defs.append("\"/>\n")
        }
        body.append("<use xlink:href=\"#")
        bodyIdentifier()
        body.append("image")
        body.digits(number)
        body.append("\" transform=\"matrix(")
        matrix(scaleX: scaleX, scaleY: scaleY, x: x, y: y)
        body.append(")\"")
        self.opacity(opacity, " opacity=\"")
        body.append(label == nil ? "/>\n" : " aria-hidden=\"true\"/>\n")
    }

    /// The start of an id or a reference to one, in `defs` or `body`.
    mutating func defsIdentifier() {
        defsIdentifiers.append(defs.count)
        defs.append(SVGIdentifiers.placeholder)
    }

    mutating func bodyIdentifier() {
        bodyIdentifiers.append(body.count)
        body.append(SVGIdentifiers.placeholder)
    }

    mutating func nextClip() -> Int {
        clips += 1
        return clips
    }

    /// `a,0,0,d,e,f` of a scale and a translation.
    mutating func matrix(scaleX: Double, scaleY: Double, x: Double, y: Double) {
        body.exact(scaleX)
        body.append(",0,0,")
        body.exact(scaleY)
        body.append(",")
        body.decimal(x)
        body.append(",")
        body.decimal(y)
    }

    /// The page's background, over the whole page.
    mutating func background(of page: Page) {
        body.append("<rect width=\"")
        body.decimal(page.width)
        body.append("\" height=\"")
        body.decimal(page.height)
        body.append("\"")
        fill(page.background)
        body.append("/>\n")
    }

    mutating func write(_ rectangle: RectangleItem) {
        guard rectangle.fill != nil || rectangle.stroke != nil else { return }
        let radius = rectangle.drawnCornerRadius
        if radius > 0 {
            body.append("<rect")
            SVGText.appendBox(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height, to: &body)
            body.append(" rx=\"")
            body.decimal(radius)
            body.append("\"")
        } else {
            // A path, not a `<rect>`: SVG draws no rect without width or height, where Cairo
            // still strokes the line it makes.
            body.append("<path d=\"M ")
            body.number(rectangle.x)
            body.number(rectangle.y)
            body.append("H ")
            body.number(rectangle.x + rectangle.width)
            body.append("V ")
            body.number(rectangle.y + rectangle.height)
            body.append("H ")
            body.number(rectangle.x)
            body.append("Z\"")
        }
        if let fill = rectangle.fill { self.fill(fill) } else { body.append(" fill=\"none\"") }
        if let stroke = rectangle.stroke {
            self.stroke(stroke)
            body.append(" stroke-width=\"1\"")
        }
        body.append("/>\n")
    }

    mutating func write(_ rule: RuleItem) {
        guard rule.thickness > 0 else { return }
        body.append("<path d=\"M ")
        body.number(rule.x1)
        body.number(rule.y1)
        body.append("L ")
        body.number(rule.x2)
        body.decimal(rule.y2)
        body.append("\" fill=\"none\"")
        stroke(rule.color)
        body.append(" stroke-width=\"")
        body.decimal(rule.thickness)
        body.append("\"/>\n")
    }

    /// ` fill="#RRGGBB"`, and its opacity when it has one.
    mutating func fill(_ color: Color) {
        paint(color: color, " fill=\"", opacity: " fill-opacity=\"")
    }

    mutating func stroke(_ color: Color) {
        paint(color: color, " stroke=\"", opacity: " stroke-opacity=\"")
    }

    /// `attribute` (` fill="`) with `color` as `#RRGGBB`, then `opacity` (` fill-opacity="`) with
    /// its alpha when it is below 1. A component that is not a number counts as 0.
    mutating func paint(color: Color, _ attribute: StaticString, opacity: StaticString) {
        body.append(attribute)
        body.append("#")
        for component in [color.red, color.green, color.blue] {
            body.hex2(UInt8(ByteBuffer.roundedToInt(component.isNaN ? 0 : min(max(component, 0), 1) * 255)))
        }
        body.append("\"")
        self.opacity(color.alpha, opacity)
    }

    /// `attribute` (` opacity="`) with `value` when it is below 1 (not a number: 0).
    private mutating func opacity(_ value: Double, _ attribute: StaticString) {
        guard !(value >= 1) else { return }
        body.append(attribute)
        body.decimal(value.isNaN ? 0 : max(0, value))
        body.append("\"")
    }
}

/// Glyph outlines as SVG path data (`M x y L x y Q ... Z`), in font units, y up, made once per
/// process for every face and glyph drawn.
final class SVGGlyphOutlines: Sendable {
    static let shared = SVGGlyphOutlines()

    /// A font file's glyph (faces of one file under several names share its outlines).
    private struct Key: Hashable {
        let file: FontFileKey
        let glyph: UInt32
    }

    private let paths = Locked<[Key: [UInt8]]>([:])

    func path(of glyph: UInt32, in face: FontFace, _ program: FontProgram) -> [UInt8] {
        let key = Key(file: face.fileKey, glyph: glyph)
        if let known = paths.withLock({ $0[key] }) { return known }
        var data = ByteBuffer()
        for segment in program.outline(glyph) {
            switch segment {
            case .move(let x, let y):
                data.append("M ")
                points(&data, x, y)
            case .line(let x, let y):
                data.append("L ")
                points(&data, x, y)
            case .quadratic(let cx, let cy, let x, let y):
                data.append("Q ")
                points(&data, cx, cy, x, y)
            case .cubic(let c1x, let c1y, let c2x, let c2y, let x, let y):
                data.append("C ")
                points(&data, c1x, c1y, c2x, c2y, x, y)
            case .close:
                data.append("Z ")
            }
        }
        let path = data.bytes
        paths.withLock { $0[key] = path }
        return path
    }

    private func points(_ data: inout ByteBuffer, _ coordinates: Float...) {
        for coordinate in coordinates { data.number(Double(coordinate)) }
    }
}

/// Base64 (RFC 4648), for PNGs in `data:` URLs.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] as [UInt32] { output.append(alphabet[Int(group >> shift & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return output
    }
}
