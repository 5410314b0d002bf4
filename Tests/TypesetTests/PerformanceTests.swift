// Tests of what the performance work changed: the PNG encoder keeps Cairo's pixels exactly, and so
// does glyph compositing without Cairo's lock; the streamed PDF writer writes the same bytes as a
// render in one go; the grapheme splitter the font fallback now shares with line breaking.
import CCairo
import Foundation
import Testing

@testable import Typeset

private func makeTemporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "typeset-performance-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
}

/// A mockup like the benchmark's: Arabic interface, buttons, a mixed paragraph, a list.
private let mockup = """
    <document lang="ar" width="390" height="844">
      <title>الإعدادات</title>
      <label>بلوتوث</label>
      <row><button>إلغاء</button><button>حفظ</button><button>SAVE</button></row>
      <p lang="he">העדכון מביא סנכרון מהיר יותר Photon X2 ודוח סוללה חדש לכל מכשיר <ltr>+1 (555) 014-2368</ltr> שבבעלותך בזמן שההגדרות נשארות</p>
      <p lang="en">The update brings faster sync and a new battery report for 128 devices you own.</p>
      <list><item>الصور</item><item lang="he">תמונות</item><item lang="en">Photos</item></list>
    </document>
    """

private func mockupPages(in folder: String) throws -> [Page] {
    let path = folder + "/mockup.xml"
    try mockup.write(toFile: path, atomically: true, encoding: .utf8)
    let outcome = Typesetter().layoutFile(path, settings: JobSettings())
    let layout = try #require(outcome.layout)
    #expect(!outcome.failed)
    return layout.pages
}

/// The RGBA bytes of an 8-bit RGBA PNG's rows, unfiltered (PNG §9), for comparing two encoders'
/// output byte for byte (decoding into Cairo's premultiplied pixels would hide a difference).
private func rgbaRows(_ png: [UInt8]) throws -> [UInt8] {
    func int(_ i: Int) -> Int { png[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
    let width = int(16), height = int(20)
    try #require(png[24] == 8 && png[25] == 6, "8-bit RGBA")
    var data: [UInt8] = []
    var i = 8
    while i + 8 <= png.count {
        let length = int(i)
        if png[i + 4..<i + 8].elementsEqual("IDAT".utf8) { data += png[i + 8..<i + 8 + length] }
        i += 12 + length
    }
    let rowLength = 1 + 4 * width
    var rows = [UInt8](repeating: 0, count: rowLength * height)
    var size = uLongf(rows.count)
    try #require(uncompress(&rows, &size, data, uLong(data.count)) == Z_OK && Int(size) == rows.count)
    var out = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
        for x in 0..<4 * width {
            let raw = Int(rows[y * rowLength + 1 + x])
            let a = x >= 4 ? Int(out[y * 4 * width + x - 4]) : 0
            let b = y > 0 ? Int(out[(y - 1) * 4 * width + x]) : 0
            let c = x >= 4 && y > 0 ? Int(out[(y - 1) * 4 * width + x - 4]) : 0
            let predictor: Int
            switch rows[y * rowLength] {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            out[y * 4 * width + x] = UInt8((raw + predictor) & 0xFF)
        }
    }
    return out
}

@Suite("Performance")
struct PerformanceTests {
    /// A page with translucent pixels is encoded as Cairo's writer encodes it, RGBA with every
    /// colour divided by its alpha as Cairo divides it, byte for byte, by our encoder (libpng's
    /// filters and zlib's level 6 took 16 ms a page): every valid premultiplied pixel (each
    /// alpha with each colour up to it), and the mockup on a translucent page at two scales.
    @Test func pngEncoderKeepsCairosTranslucentPixels() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func compare(_ surface: CairoSurface, _ what: String) throws {
            let ours = try pngBytes(of: surface, context: "test")
            let cairos = try cairoPNGBytes(of: surface, context: "test")
            #expect(ours != cairos && ours[25] == 6, "\(what): our encoder's RGBA")
            #expect(try rgbaRows(ours) == rgbaRows(cairos), "\(what)")
        }
        let every = CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 256, 256))
        let data = try #require(cairo_image_surface_get_data(every.pointer))
        let stride = Int(cairo_image_surface_get_stride(every.pointer))
        for alpha in 0..<256 {
            let row = UnsafeMutableRawPointer(data + alpha * stride).assumingMemoryBound(to: UInt32.self)
            for value in 0..<256 {
                let color = UInt32(min(value, alpha))
                row[value] = UInt32(alpha) << 24 | color << 16 | UInt32(min(value + 7, alpha)) << 8 | UInt32(alpha - Int(color))
            }
        }
        cairo_surface_mark_dirty(every.pointer)
        try compare(every, "every pixel")
        var page = try #require(try mockupPages(in: folder).first)
        page.background = Color(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        for scale in [1.0, 2.0] {
            let surface = CairoSurface(
                taking: cairo_image_surface_create(
                    CAIRO_FORMAT_ARGB32, Int32((page.width * scale).rounded(.up)), Int32((page.height * scale).rounded(.up))))
            let context = CairoContext(surface: surface)
            cairo_scale(context.pointer, scale, scale)
            try PageDrawer().draw(page, pageNumber: 1, on: context)
            try compare(surface, "the mockup at scale \(scale)")
        }
    }

    /// An opaque image too wide for `encodeOpaque` (over 10,922 pixels) goes to Cairo's writer
    /// without `encodeTranslucent` converting and compressing it first; a translucent one that
    /// wide is still ours.
    @Test func aWideOpaqueImageIsCairosAtOnce() throws {
        let width = 11_000
        let surface = CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), 3))
        let data = try #require(cairo_image_surface_get_data(surface.pointer))
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        for y in 0..<3 {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = 0xFF00_0000 | UInt32(x % 251) << 8 | UInt32(y * 40) }
        }
        cairo_surface_mark_dirty(surface.pointer)
        #expect(PNGEncoder.encodeOpaque(pixels: data, width: width, height: 3, stride: stride) == nil)
        #expect(!PNGEncoder.mayBeTranslucent(pixels: data, width: width, height: 3, stride: stride))
        #expect(try pngBytes(of: surface, context: "test") == PNGEncoder.marked(cairoPNGBytes(of: surface, context: "test")))
        // One translucent pixel, in the last row's last place.
        UnsafeMutableRawPointer(data + 2 * stride).assumingMemoryBound(to: UInt32.self)[width - 1] = 0x8000_0000
        cairo_surface_mark_dirty(surface.pointer)
        #expect(PNGEncoder.mayBeTranslucent(pixels: data, width: width, height: 3, stride: stride))
        let ours = try pngBytes(of: surface, context: "test")
        let cairos = try cairoPNGBytes(of: surface, context: "test")
        #expect(ours[25] == 6 && ours != cairos, "our encoder's RGBA")
        #expect(try rgbaRows(ours) == rgbaRows(cairos))
    }

    @Test func pngEncoderKeepsCairosPixels() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = try #require(try mockupPages(in: folder).first)
        for scale in [1.0, 2.0, 3.0] {
            let surface = CairoSurface(
                taking: cairo_image_surface_create(
                    CAIRO_FORMAT_ARGB32, Int32((page.width * scale).rounded(.up)),
                    Int32((page.height * scale).rounded(.up))))
            let context = CairoContext(surface: surface)
            cairo_scale(context.pointer, scale, scale)
            try PageDrawer().draw(page, pageNumber: 1, on: context)
            let ours = try pngBytes(of: surface, context: "test")
            let cairos = try cairoPNGBytes(of: surface, context: "test")
            // Our encoder's stream (zlib header 78 01), not Cairo's, and the same pixels.
            #expect(ours != cairos)
            // Signature (8 bytes), IHDR (25), tEXt (28: typeset's mark), bKGD (18), then IDAT's
            // length and type.
            #expect(ours.count > 89 && Array(ours[83..<87]) == Array("IDAT".utf8) && ours[87] == 0x78 && ours[88] == 0x01)
            let a = folder + "/ours.png"
            let b = folder + "/cairo.png"
            #expect(FileManager.default.createFile(atPath: a, contents: Data(ours)))
            #expect(FileManager.default.createFile(atPath: b, contents: Data(cairos)))
            let result = try ImageDiff.compare(a, b, tolerance: 0)
            #expect(result.matches && result.differingPixels == 0, "scale \(scale)")
            #expect(result.width == Int((page.width * scale).rounded(.up)))
        }
    }

    /// Glyphs composited by `RasterGlyphs` are Cairo's pixels: the mockup's runs (Arabic,
    /// Hebrew, Latin), and each again in a translucent color over itself shifted by a fraction
    /// of a pixel, so that glyph boxes overlap (Cairo's mask path) as well as not.
    @Test func directGlyphsAreCairosPixels() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var page = try #require(try mockupPages(in: folder).first)
        var runs = 0
        for case .glyphs(let run) in page.items where !run.glyphs.isEmpty {
            var shifted = run
            // Green × alpha × 65535 is 25,599.75: Cairo's rounding (+ 0.5) makes it 0x64 in 8 bits.
            shifted.color = Color(red: 0.8, green: 25_599.75 / 65_535 / 0.6, blue: 0.3, alpha: 0.6)
            shifted.glyphs = run.glyphs + run.glyphs.map { PositionedGlyph(id: $0.id, x: $0.x + 0.37, y: $0.y + 9.21) }
            shifted.clusters = []
            page.items.append(.glyphs(shifted))
            runs += 2
        }
        #expect(runs > 20)
        for scale in [1.0, 2.0, 3.0] {
            func pixels(direct: Bool) throws -> (bytes: [UInt8], drawnDirectly: Int) {
                let surface = CairoSurface(
                    taking: cairo_image_surface_create(
                        CAIRO_FORMAT_ARGB32, Int32(page.width * scale), Int32(page.height * scale)))
                let context = CairoContext(surface: surface)
                cairo_scale(context.pointer, scale, scale)
                let drawer = PageDrawer(directGlyphs: direct)
                try drawer.draw(page, pageNumber: 1, on: context)
                cairo_surface_flush(surface.pointer)
                let count = Int(cairo_image_surface_get_stride(surface.pointer) * cairo_image_surface_get_height(surface.pointer))
                let data = try #require(cairo_image_surface_get_data(surface.pointer))
                return (Array(UnsafeBufferPointer(start: data, count: count)), drawer.runsDrawnDirectly)
            }
            let direct = try pixels(direct: true)
            let cairo = try pixels(direct: false)
            #expect(direct.drawnDirectly == runs, "scale \(scale)")
            #expect(cairo.drawnDirectly == 0)
            let differing = zip(direct.bytes, cairo.bytes).filter { $0 != $1 }.count
            #expect(direct.bytes.count == cairo.bytes.count && differing == 0, "scale \(scale): \(differing) bytes differ")
        }
    }

    /// Text above `PageDrawer.largestGlyphImage` is filled as outlines (Cairo keeps no images of
    /// its glyphs): the same shapes as Cairo's glyph images, set at whole pixels, up to the
    /// anti-aliasing of their edges. Latin, Hebrew and Arabic at 150 pt, drawn at 2×.
    @Test func hugeTextIsFilledAsItsGlyphImagesWouldBe() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/huge.xml"
        try """
            <document width="900" height="700"><label size="150">Hamb</label><label size="150" lang="he">שלום</label>\
            <label size="150" lang="ar">سلام</label></document>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = Typesetter().layoutFile(path, settings: JobSettings())
        var page = try #require(outcome.layout?.pages.first)
        // Each glyph on a whole pixel at 2×, where Cairo's glyph images are put unrounded.
        page.items = page.items.map { item in
            guard case .glyphs(var run) = item else { return item }
            run.glyphs = run.glyphs.map { PositionedGlyph(id: $0.id, x: ($0.x * 2).rounded() / 2, y: ($0.y * 2).rounded() / 2) }
            return .glyphs(run)
        }
        let runs = page.items.compactMap { item -> GlyphRun? in
            if case .glyphs(let run) = item, !run.glyphs.isEmpty { return run } else { return nil }
        }
        #expect(runs.count == 3)
        func surface() -> (CairoSurface, CairoContext) {
            let surface = CairoSurface(
                taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(page.width * 2), Int32(page.height * 2)))
            let context = CairoContext(surface: surface)
            cairo_scale(context.pointer, 2, 2)
            return (surface, context)
        }
        func bytes(_ surface: CairoSurface) throws -> [UInt8] {
            cairo_surface_flush(surface.pointer)
            let count = Int(cairo_image_surface_get_stride(surface.pointer) * cairo_image_surface_get_height(surface.pointer))
            return Array(UnsafeBufferPointer(start: try #require(cairo_image_surface_get_data(surface.pointer)), count: count))
        }
        let (filled, filledContext) = surface()
        let drawer = PageDrawer()
        try drawer.draw(page, pageNumber: 1, on: filledContext)
        #expect(drawer.runsDrawnDirectly == 0)
        var matrix = cairo_matrix_t()
        cairo_get_matrix(filledContext.pointer, &matrix)
        #expect(PageDrawer.deviceSize(150, matrix) > PageDrawer.largestGlyphImage)
        // The glyph images, as every run was drawn before.
        let (images, cr) = surface()
        cairo_set_source_rgb(cr.pointer, 1, 1, 1)
        cairo_paint(cr.pointer)
        cairo_set_source_rgb(cr.pointer, 0, 0, 0)
        PageDrawer.setFontOptions(cr.pointer)
        for run in runs {
            cairo_set_font_face(cr.pointer, try CairoFontCache.shared.face(for: run.font).pointer)
            cairo_set_font_size(cr.pointer, run.size)
            let glyphs = run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: $0.x, y: $0.y) }
            cairo_show_glyphs(cr.pointer, glyphs, Int32(glyphs.count))
        }
        let a = try bytes(filled), b = try bytes(images)
        let inked = b.filter { $0 < 128 }.count
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        let differing = differences.filter { $0 > 0 }.count
        // Measured: 5.8% of the inked bytes differ, by at most 115 (along the flat bottom of
        // the Arabic seen, where the two rasterizers sample a nearly horizontal edge apart). A
        // glyph a pixel off differs by 255 along its stems.
        #expect(inked > 100_000, "\(inked) bytes of ink")
        #expect(differing < inked / 10 && differences.max() ?? 0 <= 128,
            "\(differing) bytes of \(inked) inked differ, by at most \(differences.max() ?? 0)")
    }

    @Test func pngEncoderRoundTripsNoiseRunsAndRepeatedRows() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let width = 301
        let height = 97
        let stride = width * 4 + 12
        var pixels = [UInt8](repeating: 0, count: stride * height)
        var seed: UInt32 = 12345
        func next() -> UInt32 {
            seed = seed &* 1_103_515_245 &+ 12345
            return seed >> 8
        }
        for y in 0..<height {
            for x in 0..<width {
                let word: UInt32
                switch y % 7 {
                case 0, 1: word = 0xFFFF_FFFF  // white rows, then one equal to it
                case 2: word = 0xFF00_0000 | next() & 0xFF_FFFF  // noise: literals
                case 3: word = x < 150 ? 0xFF12_3456 : 0xFF12_3457  // runs
                default: word = 0xFF00_0000 | UInt32((x / 3) % 256) << 8 | UInt32(y)  // short repeats
                }
                withUnsafeBytes(of: word.littleEndian) { bytes in
                    for k in 0..<4 { pixels[y * stride + x * 4 + k] = bytes[k] }
                }
            }
        }
        let png = try #require(
            pixels.withUnsafeBufferPointer {
                PNGEncoder.encodeOpaque(pixels: $0.baseAddress!, width: width, height: height, stride: stride)
            })
        let path = folder + "/noise.png"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(png)))
        let image = try PixelImage(contentsOf: path)
        #expect(image.width == width && image.height == height)
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let base = y * stride + x * 4
                let expected = PixelImage.Pixel(
                    red: pixels[base + 2], green: pixels[base + 1], blue: pixels[base], alpha: 255)
                if image.pixel(x: x, y: y) != expected { differing += 1 }
            }
        }
        #expect(differing == 0)

        // One pixel not opaque: not this encoder's job (Cairo's writer un-premultiplies).
        pixels[5 * stride + 7 * 4 + 3] = 0x80
        let transparent = pixels.withUnsafeBufferPointer {
            PNGEncoder.encodeOpaque(pixels: $0.baseAddress!, width: width, height: height, stride: stride)
        }
        #expect(transparent == nil)
    }

    /// Rows of the kinds the encoder treats differently, for widths around its two-, four- and
    /// eight-pixel steps and its 86-pixel (258-byte) matches: the zlib stream must inflate (zlib
    /// checks the Adler-32 the encoder computes from pixels) to exactly the unfiltered RGB rows.
    @Test func pngEncoderStreamIsTheRowsForEveryWidthAndRowKind() throws {
        for width in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 85, 86, 87, 88, 173, 301] {
            for allDifferent in [false, true] {
                let height = 45
                let stride = width * 4 + (width % 3) * 4  // padding, sometimes none
                var seed = UInt32(width * 2 + (allDifferent ? 1 : 0))
                func next() -> UInt32 {
                    seed = seed &* 1_103_515_245 &+ 12345
                    return seed >> 8
                }
                var words = [UInt32](repeating: 0, count: width * height)
                for y in 0..<height {
                    for x in 0..<width {
                        let grey = UInt32((x * 37 + y * 11) % 256)
                        let word: UInt32
                        switch allDifferent ? 2 + y % 2 : y % 11 {
                        case 0: word = 0xFFFF_FFFF  // one color
                        case 1: word = words[(y - 1) * width + x]  // equal to the row above
                        case 2: word = 0xFF00_0000 | next() & 0xFF_FFFF  // noise: literals
                        case 3: word = 0xFF00_0000 | grey * 0x01_0101 ^ UInt32(y)  // grey and not
                        case 4: word = x % 90 < 89 ? 0xFF00_7AFF : 0xFF10_2030  // runs past 86 pixels
                        case 5: word = x == width / 2 ? 0xFF00_0000 : words[(y - 1) * width + x]  // one pixel changed
                        case 6: word = x < width / 3 || x % 5 == 0 ? 0xFF00_7AFF : 0xFFFF_FFFF  // left-runs over the row above
                        case 7: word = words[(y - 1) * width + x]
                        case 8: word = x % 7 < 3 ? 0xFF00_7AFF : 0xFF00_0000 | grey * 0x01_0101  // short runs both ways
                        case 9: word = 0xFF00_7AFF  // one color again, different from the row above
                        default: word = words[(y - 1) * width + x]
                        }
                        words[y * width + x] = word
                    }
                }
                var pixels = [UInt8](repeating: 0xAB, count: stride * height)  // padding: never read
                for y in 0..<height {
                    for x in 0..<width {
                        withUnsafeBytes(of: words[y * width + x]) { bytes in
                            for k in 0..<4 { pixels[y * stride + x * 4 + k] = bytes[k] }
                        }
                    }
                }
                var expected: [UInt8] = []
                for y in 0..<height {
                    expected.append(0)  // filter type 0
                    for x in 0..<width {
                        let word = words[y * width + x]
                        expected += [UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
                    }
                }
                let png = try #require(
                    pixels.withUnsafeBufferPointer {
                        PNGEncoder.encodeOpaque(pixels: $0.baseAddress!, width: width, height: height, stride: stride)
                    })
                let rows = try inflatedIDAT(of: png)
                #expect(rows == expected, "width \(width), all rows different: \(allDifferent)")
            }
        }
    }

    @Test func pngEncoderRefusesTransparentPixelsWhereverTheyAre() throws {
        let width = 97
        let height = 6
        func encode(_ change: (inout [UInt32]) -> Void) -> [UInt8]? {
            var words = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
            for x in 0..<width { words[3 * width + x] = 0xFF00_0000 | UInt32(x) }
            change(&words)
            return words.withUnsafeBytes {
                PNGEncoder.encodeOpaque(
                    pixels: $0.bindMemory(to: UInt8.self).baseAddress!, width: width, height: height, stride: width * 4)
            }
        }
        #expect(encode { _ in } != nil)
        // Row 0 is compared with a row of zeros: a zero pixel there must not pass as equal to it.
        #expect(encode { $0[0] = 0 } == nil)
        #expect(encode { $0[5] = 0 } == nil)
        #expect(encode { for x in 0..<width { $0[x] = 0 } } == nil)
        #expect(encode { $0[2 * width + 40] = 0x80FF_FFFF } == nil)  // in a row of one color
        #expect(encode { $0[3 * width + 50] = 0x7F00_0032 } == nil)  // among literals
        #expect(encode { for x in 10..<30 { $0[4 * width + x] = 0x0000_0000 } } == nil)  // a run
        #expect(encode { $0[height * width - 1] = 0xFE12_3456 } == nil)  // the last pixel
    }

    /// Rows of one color equal to the one above (most of a page) take one match from the row above
    /// and the rest from the pixel before: a blank 780 × 1688 page is about 152 bits a row.
    @Test func pngEncoderWritesBlankRowsCheaply() throws {
        let width = 780
        let height = 1688
        let words = [UInt32](repeating: 0xFFFF_FFFF, count: width * height)
        let png = try #require(
            words.withUnsafeBytes {
                PNGEncoder.encodeOpaque(
                    pixels: $0.bindMemory(to: UInt8.self).baseAddress!, width: width, height: height, stride: width * 4)
            })
        let rows = try inflatedIDAT(of: png)
        #expect(rows.count == height * (1 + 3 * width) && rows.allSatisfy { $0 == 0 || $0 == 0xFF })
        // With matches at the row's distance only it took 231 bits a row (48,815 bytes).
        #expect(png.count < 33_000)
        // A render keeps every page's file until it writes them all: no worst-case buffer kept.
        #expect(png.capacity < png.count + 4096)
    }

    /// The commands that draw pages lay out without the report (`LayoutOptions.makesReport`):
    /// the same pages, the same bytes, the report's pages without blocks.
    @Test func layoutWithoutTheReportDrawsTheSamePages() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/mockup.xml"
        try mockup.write(toFile: path, atomically: true, encoding: .utf8)
        let typesetter = Typesetter()
        var results: [LayoutResult] = []
        for makesReport in [true, false] {
            let settings = JobSettings(layout: LayoutOptions(makesReport: makesReport))
            results.append(try #require(typesetter.layoutFile(path, settings: settings).layout))
            try render(pages: results[results.count - 1].pages, to: folder + "/\(makesReport).pdf", options: RenderOptions(format: .pdf))
        }
        let (full, drawn) = (results[0].report, results[1].report)
        #expect(full.pages.flatMap(\.blocks).contains { !$0.lines.isEmpty })
        #expect(!drawn.pages.isEmpty && drawn.pages.allSatisfy(\.blocks.isEmpty))
        #expect(full.pages.map(\.height) == drawn.pages.map(\.height))
        let withLines = try Data(contentsOf: URL(fileURLWithPath: folder + "/true.pdf"))
        let withoutLines = try Data(contentsOf: URL(fileURLWithPath: folder + "/false.pdf"))
        #expect(withLines == withoutLines)
    }

    /// A paragraph's cache key hashes its whole style: keys that differed only in a color, a
    /// language, the font families or the numerals hashed alike, and 10,000 one-word labels,
    /// each in its own color, were looked up along one chain (10 s).
    @Test func paragraphKeysHashTheWholeStyle() {
        func key(_ change: (inout TextStyle) -> Void) -> Int {
            var style = TextStyle()
            change(&style)
            var text = ParagraphText()
            text.append("w", style: style, location: nil)
            return ParagraphKey(text, direction: .ltr, width: 100, lineHeight: 1.3, balance: 0).hashValue
        }
        let keys = [
            key { _ in }, key { $0.color = Color(red: 1, green: 0, blue: 0) }, key { $0.color.alpha = 0.5 },
            key { $0.language = "aaa" }, key { $0.families = ["Noto Serif"] }, key { $0.digits = .arab },
            key { $0.digits = .latn }, key { $0.size = 18 }, key { $0.weight = 700 }, key { $0.italic = true },
        ]
        #expect(Set(keys).count == keys.count)
        #expect(key { $0.color = Color(red: 0, green: 0, blue: 0) } == keys[0], "equal keys hash alike")
    }

    @Test func pdfWriterStreamsTheSameBytesAsOneRender() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pages = try mockupPages(in: folder)
        let all = pages + pages + pages
        let options = RenderOptions(format: .pdf, title: "Mockup", language: "ar")
        try render(pages: all, to: folder + "/whole.pdf", options: options)
        let writer = try PDFWriter(path: folder + "/streamed.pdf", options: options)
        try writer.add(pages)
        try writer.add([])
        try writer.add(pages + pages)
        #expect(!FileManager.default.fileExists(atPath: folder + "/streamed.pdf"), "written only on finish")
        #expect(try writer.finish() == [folder + "/streamed.pdf"])
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.pdf"))
        let streamed = try Data(contentsOf: URL(fileURLWithPath: folder + "/streamed.pdf"))
        #expect(whole == streamed)
        #expect(String(decoding: streamed, as: UTF8.self).contains("/Lang (ar)"))
    }

    @Test func unfinishedOrEmptyPDFWriterLeavesNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pages = try mockupPages(in: folder)
        do {
            let writer = try PDFWriter(path: folder + "/dropped.pdf", options: RenderOptions(format: .pdf))
            try writer.add(pages)
        }
        let empty = try PDFWriter(path: folder + "/empty.pdf", options: RenderOptions(format: .pdf))
        #expect(throws: RenderError.noPages) { try empty.finish() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["mockup.xml"])
        try FileManager.default.createDirectory(atPath: folder + "/folder.pdf", withIntermediateDirectories: false)
        #expect(throws: RenderError.self) { try PDFWriter(path: folder + "/folder.pdf", options: RenderOptions(format: .pdf)) }
    }

    @Test func graphemeBoundariesOfARangeMatchThoseOfTheSlice() {
        let text = Array("a\u{301}b\r\n\u{1F469}\u{200D}\u{1F4BB}\u{1F1EB}\u{1F1F7}\u{1F1E9}ש\u{5B8}".unicodeScalars)
        for start in 0...text.count {
            for end in start...text.count {
                let expected = GraphemeBreaker.boundaries(in: Array(text[start..<end])).map { $0 + start }
                #expect(GraphemeBreaker.boundaries(in: text, range: start..<end) == expected)
            }
        }
        // The font fallback's clusters are GraphemeBreaker's.
        let clusters = FontFallbackCluster.split(text, 1..<text.count)
        #expect(clusters.map(\.range.lowerBound) + [text.count] == GraphemeBreaker.boundaries(in: text, range: 1..<text.count))
    }
}

/// The IDAT data of a PNG, inflated (zlib checks its Adler-32), after checking every chunk's CRC.
private func inflatedIDAT(of png: [UInt8]) throws -> [UInt8] {
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    func bigEndian(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    var offset = 8
    var idat: [UInt8] = []
    var size = 0
    while offset + 12 <= png.count {
        let length = bigEndian(offset)
        let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
        let crc = png.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + offset + 4, UInt32(4 + length)) }
        #expect(Int(crc) == bigEndian(offset + 8 + length), "CRC of \(type)")
        if type == "IHDR" { size = bigEndian(offset + 12) * (1 + 3 * bigEndian(offset + 8)) }  // height × row bytes
        if type == "IDAT" { idat += png[offset + 8..<offset + 8 + length] }
        offset += 12 + length
    }
    #expect(offset == png.count)
    var rows = [UInt8](repeating: 0, count: size + 1)
    var rowsLength = uLongf(rows.count)
    let status = uncompress(&rows, &rowsLength, idat, uLong(idat.count))
    try #require(status == Z_OK, "zlib status \(status)")
    return Array(rows.prefix(Int(rowsLength)))
}
