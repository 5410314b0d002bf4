// PNG images as PDF image XObjects (ISO 32000-1 §8.9.5), written once per document from
// streams made once per process (`PDFImageStreams`). A gray, RGB or palette PNG the parser
// checked goes in as it is: its compressed data with PNG predictors (§7.4.4.4), nothing decoded
// or compressed again (a 1290 × 2796 screenshot took 220 ms to deflate at level 6). The others
// (alpha, tRNS, 16 bits, interlaced) are decoded by Cairo (libpng), as the PNG pages draw them,
// and written as 8-bit RGB with a soft mask (§11.6.5.3) when any pixel is not opaque.
import CCairo

extension PDFResources {
    /// The resource name of the image at `path`, written into the PDF on first use.
    func image(at path: String) throws -> String {
        if let index = imageIndex[path] { return images[index].name }
        let object: Int
        switch try PDFImageStreams.of(path) {
        case .predicted(let png):
            var colorSpace = png.colors == 3 ? "/DeviceRGB" : "/DeviceGray"
            if let palette = png.palette {
                let hex = palette.map { hexByte($0).dropFirst(2) }.joined()
                colorSpace = "[/Indexed /DeviceRGB \(palette.count / 3 - 1) <\(hex)>]"
            }
            object = objects.reserve()
            objects.object(
                object,
                dictionary: "/Type /XObject /Subtype /Image /Width \(png.width) /Height \(png.height)"
                    + " /ColorSpace \(colorSpace) /BitsPerComponent \(png.bitsPerComponent) /Interpolate true"
                    + " /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors \(png.colors)"
                    + " /BitsPerComponent \(png.bitsPerComponent) /Columns \(png.width) >>",
                stream: png.data)
        case .decoded(let width, let height, let color, let alpha):
            object = objects.image(width: width, height: height, color: color, alpha: alpha)
        }
        let name = "Im\(images.count + 1)"
        addImage(name: name, object: object, path: path)
        return name
    }

    /// The image of a bitmap font's glyph (a color emoji) and its bitmap, nil for a glyph
    /// without one. It is drawn on the page, after the glyph's invisible text
    /// (`PDFPageContent.draw`), not by its Type 3 glyph: poppler's Cairo backend (pdftocairo,
    /// Evince in Debian 12) painted a Type 3 glyph's image black.
    /// Each glyph is looked up once a document.
    func image(of glyph: UInt32, in font: PDFFont) throws -> (name: String, bitmap: BitmapGlyph)? {
        let key = PDFImageStreams.GlyphKey(face: font.face, glyph: glyph)
        if let known = glyphImages[key] { return known }
        var found: (name: String, bitmap: BitmapGlyph)?
        if let bitmap = font.program.bitmap(glyph),
            case .decoded(let width, let height, let color, let alpha) = try PDFImageStreams.of(glyph, font.face, bitmap.png)
        {
            let name = "Im\(images.count + 1)"
            addImage(name: name, object: objects.image(width: width, height: height, color: color, alpha: alpha), path: nil)
            found = (name, bitmap)
        }
        glyphImages[key] = .some(found)
        return found
    }

}

extension PDFObjectWriter {
    /// Writes a decoded image (and its soft mask); returns its object number.
    func image(width: Int, height: Int, color: [UInt8], alpha: [UInt8]?) -> Int {
        let size = "/Type /XObject /Subtype /Image /Width \(width) /Height \(height)"
        let mask = alpha.map { alpha in
            let number = reserve()
            object(number, dictionary: size + " /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", stream: alpha)
            return number
        }
        let number = reserve()
        object(
            number,
            dictionary: size + " /ColorSpace /DeviceRGB /BitsPerComponent 8 /Interpolate true"
                + (mask.map { " /SMask \($0) 0 R" } ?? "") + " /Filter /FlateDecode",
            stream: color)
        return number
    }
}

/// An image's streams as a PDF holds them, made once per version of its file for every
/// document of the process: a batch of 40 locales' documents showing one RGBA screenshot
/// decoded and compressed it 40 times (170 ms a document).
enum PDFImageStreams: Sendable {
    /// A gray, RGB or palette PNG's own compressed data.
    case predicted(PNGFile.Predicted)
    /// Decoded by Cairo: the RGB and, when a pixel is not opaque, the alpha, each compressed as
    /// `PDFObjectWriter`'s thorough deflater does (the same bytes).
    case decoded(width: Int, height: Int, color: [UInt8], mask: [UInt8]?)

    /// By version of the file, at most `mostBytes` of streams.
    static let cache = Locked<(streams: [FileVersion: PDFImageStreams], bytes: Int)>(([:], 0))
    static let mostBytes = 64 * 1024 * 1024

    var byteCount: Int {
        switch self {
        case .predicted(let png): png.data.count + (png.palette?.count ?? 0)
        case .decoded(_, _, let color, let mask): color.count + (mask?.count ?? 0)
        }
    }

    /// Bitmap glyphs' streams, by face and glyph, for every document of the process: a batch of
    /// documents with emoji decoded and compressed each of them again for every document.
    static let glyphCache = Locked<(streams: [GlyphKey: PDFImageStreams], bytes: Int)>(([:], 0))

    struct GlyphKey: Hashable {
        var face: FontFace
        var glyph: UInt32
    }

    /// The streams of `glyph` of `face`, whose PNG is `png`, from `glyphCache` when done before.
    static func of(_ glyph: UInt32, _ face: FontFace, _ png: [UInt8]) throws -> PDFImageStreams {
        let key = GlyphKey(face: face, glyph: glyph)
        if let known = glyphCache.withLock({ $0.streams[key] }) { return known }
        let streams = try decoded(png: png, source: "glyph \(glyph) of \(face.path)")
        let bytes = streams.byteCount
        glyphCache.withLock { cache in
            if cache.bytes + bytes > mostBytes { cache = ([:], 0) }
            cache.streams[key] = streams
            cache.bytes += bytes
        }
        return streams
    }

    /// The streams of the image at `path`, from `cache` when this version of the file was
    /// done before (kept only if the file did not change while it was read).
    static func of(_ path: String) throws -> PDFImageStreams {
        let version = FileVersion(path: path)
        if let version, let known = cache.withLock({ $0.streams[version] }) { return known }
        let streams =
            if let bytes = PNGFile.checkedBytes(at: path), let png = PNGFile.Predicted(bytes) {
                PDFImageStreams.predicted(png)
            } else {
                try decoded(path)
            }
        if let version, FileVersion(path: path) == version {
            let bytes = streams.byteCount
            cache.withLock { cache in
                if cache.bytes + bytes > mostBytes { cache = ([:], 0) }
                if bytes <= mostBytes {
                    cache.streams[version] = streams
                    cache.bytes += bytes
                }
            }
        }
        return streams
    }

    private static func decoded(_ path: String) throws -> PDFImageStreams {
        try decoded(CairoSurface(taking: cairo_image_surface_create_from_png(path)), source: path)
    }

    /// A PNG in memory (a bitmap glyph's), decoded as a file is.
    static func decoded(png: [UInt8], source: String) throws -> PDFImageStreams {
        guard let surface = CairoSurface(png: png) else {
            throw RenderError.image(path: source, reason: "Cairo could not read it")
        }
        return try decoded(surface, source: source)
    }

    private static func decoded(_ surface: CairoSurface, source path: String) throws -> PDFImageStreams {
        let status = cairo_surface_status(surface.pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.image(path: path, reason: cairoMessage(status))
        }
        let pixels = try pixels(of: surface, path: path)
        let deflater = PDFDeflater(level: 6)  // `PDFObjectWriter`'s thorough one
        func compressed(_ bytes: [UInt8]) throws -> [UInt8] {
            guard let stream = bytes.withUnsafeBytes({ deflater.compress($0) }) else {
                throw RenderError.invalidInput("zlib could not compress a stream of \(bytes.count) bytes")
            }
            return stream
        }
        return .decoded(
            width: pixels.width, height: pixels.height, color: try compressed(pixels.rgb),
            mask: try pixels.alpha.map(compressed))
    }

    /// Straight (not premultiplied) RGB bytes of an image surface, and its alpha when any pixel
    /// is not opaque.
    private static func pixels(of image: CairoSurface, path: String) throws
        -> (width: Int, height: Int, rgb: [UInt8], alpha: [UInt8]?)
    {
        var source = image
        let format = cairo_image_surface_get_format(image.pointer)
        if format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24 {
            // Other formats: painted onto ARGB32 first.
            let converted = CairoSurface(taking: cairo_image_surface_create(
                CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(image.pointer),
                cairo_image_surface_get_height(image.pointer)))
            let context = CairoContext(surface: converted)
            cairo_set_source_surface(context.pointer, image.pointer, 0, 0)
            cairo_paint(context.pointer)
            try context.check("converting \(path)")
            source = converted
        }
        cairo_surface_flush(source.pointer)
        let width = Int(cairo_image_surface_get_width(source.pointer))
        let height = Int(cairo_image_surface_get_height(source.pointer))
        let stride = Int(cairo_image_surface_get_stride(source.pointer))
        let hasAlpha = cairo_image_surface_get_format(source.pointer) == CAIRO_FORMAT_ARGB32
        guard let data = cairo_image_surface_get_data(source.pointer) else {
            throw RenderError.image(path: path, reason: "Cairo gave no pixels")
        }
        var rgb = [UInt8](repeating: 0, count: 3 * width * height)
        var alpha = [UInt8](repeating: 255, count: width * height)
        var opaque = true
        for y in 0..<height {
            // Cairo's pixels are native-endian 32-bit words: B, G, R, A in memory here.
            let row = data + y * stride
            for x in 0..<width {
                let pixel = row + 4 * x
                let a = hasAlpha ? Int(pixel[3]) : 255
                func straight(_ value: UInt8) -> UInt8 {
                    a == 255 || a == 0 ? (a == 0 ? 0 : value) : UInt8(min(255, (Int(value) * 255 + a / 2) / a))
                }
                let index = y * width + x
                rgb[3 * index] = straight(pixel[2])
                rgb[3 * index + 1] = straight(pixel[1])
                rgb[3 * index + 2] = straight(pixel[0])
                alpha[index] = UInt8(a)
                if a != 255 { opaque = false }
            }
        }
        if !opaque { bleed(&rgb, alpha: alpha, width: width, height: height) }
        return (width, height, rgb, opaque ? nil : alpha)
    }

    /// Gives fully transparent pixels the colour of their visible neighbours, two pixels deep.
    /// Their colour was black (Cairo premultiplies it away), and a viewer that smooths the image
    /// (`/Interpolate`) blends color and mask separately: a white shape on a transparent ground
    /// got a dark ring.
    private static func bleed(_ rgb: inout [UInt8], alpha: [UInt8], width: Int, height: Int) {
        var known = alpha.map { $0 != 0 }
        for _ in 0..<2 {
            var filled: [Int] = []
            for y in 0..<height {
                for x in 0..<width where !known[y * width + x] {
                    var sum = (0, 0, 0)
                    var count = 0
                    for ny in max(0, y - 1)...min(height - 1, y + 1) {
                        for nx in max(0, x - 1)...min(width - 1, x + 1) where known[ny * width + nx] {
                            let index = 3 * (ny * width + nx)
                            sum = (sum.0 + Int(rgb[index]), sum.1 + Int(rgb[index + 1]), sum.2 + Int(rgb[index + 2]))
                            count += 1
                        }
                    }
                    guard count > 0 else { continue }
                    let index = 3 * (y * width + x)
                    rgb[index] = UInt8((sum.0 + count / 2) / count)
                    rgb[index + 1] = UInt8((sum.1 + count / 2) / count)
                    rgb[index + 2] = UInt8((sum.2 + count / 2) / count)
                    filled.append(y * width + x)
                }
            }
            // Filled after the pass, so that each pass reaches one pixel further.
            for index in filled { known[index] = true }
        }
    }
}
