// What the pages of one PDF draw with: fonts, images and transparency states, collected as
// pages use them and written at the end as the one /Resources dictionary every page shares.

final class PDFResources {
    let objects: PDFObjectWriter
    /// The /Resources dictionary, written by `write()`.
    let object: Int
    /// In order of first use. The last one used is tried first, then the others from the newest:
    /// a document uses a few fonts, its runs alternate between two or three, and equal faces
    /// share their names (`FontFace.==` is then a few comparisons). A dictionary, hashed and with the run-time
    /// exclusivity checks of this class's properties, cost 4 thousand instructions more per
    /// corpus document.
    private var fonts: [PDFFont] = []
    private var lastFont = 0
    private(set) var images: [(name: String, object: Int)] = []
    var imageIndex: [String: Int] = [:]
    /// The images of bitmap fonts' glyphs drawn so far, with their bitmaps; nil for a glyph
    /// without one (`image(of:in:)`).
    var glyphImages: [PDFImageStreams.GlyphKey: (name: String, bitmap: BitmapGlyph)?] = [:]
    private var alphaStates: [Int: String] = [:]

    init(objects: PDFObjectWriter) {
        self.objects = objects
        object = objects.reserve()
    }

    /// The document's font for `face`, made on first use.
    func font(for face: FontFace) throws -> PDFFont {
        if lastFont < fonts.count, fonts[lastFont].face == face { return fonts[lastFont] }
        if let known = fonts.lastIndex(where: { $0.face == face }) {
            lastFont = known
            return fonts[known]
        }
        let font = try PDFFont(name: "F\(fonts.count + 1)", object: objects.reserve(), face: face)
        lastFont = fonts.count
        fonts.append(font)
        return font
    }

    /// The name of an ExtGState setting fill and stroke opacity to `alpha`.
    func alphaState(_ alpha: Double) -> String {
        let key = Int((min(1, max(0, alpha)) * 1000).rounded())
        if let name = alphaStates[key] { return name }
        let name = "A\(key)"
        alphaStates[key] = name
        return name
    }

    /// `path`: the picture's file, by which it is found again (nil: a glyph's image).
    func addImage(name: String, object: Int, path: String?) {
        if let path { imageIndex[path] = images.count }
        images.append((name, object))
    }

    /// Writes the fonts and the /Resources dictionary.
    func write() throws {
        for font in fonts { try font.write(to: objects) }
        var body = ByteBuffer()
        body.append("<< /Font << ")
        for font in fonts {
            for (name, object) in font.resourceEntries {
                body.append(string: "/\(name) ")
                body.reference(object)
            }
        }
        body.append(">> /XObject << ")
        for image in images {
            body.append(string: "/\(image.name) ")
            body.reference(image.object)
        }
        body.append(">> /ExtGState << ")
        for (alpha, name) in alphaStates.sorted(by: { $0.key < $1.key }) {
            body.append(string: "/\(name) << /ca ")
            body.number(Double(alpha) / 1000)
            body.append("/CA ")
            body.number(Double(alpha) / 1000)
            body.append(">> ")
        }
        body.append(">> >>")
        objects.object(object, body)
    }
}
