// Tests of what the performance work changed: the PNG encoder keeps Cairo's pixels exactly, the
// streamed PDF writer writes the same bytes as a render in one go, and the grapheme splitter the
// font fallback now shares with line breaking.
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

@Suite("Performance")
struct PerformanceTests {
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
            try PageDrawer(raster: true).draw(page, pageNumber: 1, on: context)
            let ours = try pngBytes(of: surface, context: "test")
            let cairos = try cairoPNGBytes(of: surface, context: "test")
            // Our encoder's stream (zlib header 78 01), not Cairo's, and the same pixels.
            #expect(ours != cairos)
            // Signature (8 bytes), IHDR (25), bKGD (18), then IDAT's length and type.
            #expect(ours.count > 61 && Array(ours[55..<59]) == Array("IDAT".utf8) && ours[59] == 0x78 && ours[60] == 0x01)
            let a = folder + "/ours.png"
            let b = folder + "/cairo.png"
            #expect(FileManager.default.createFile(atPath: a, contents: Data(ours)))
            #expect(FileManager.default.createFile(atPath: b, contents: Data(cairos)))
            let result = try ImageDiff.compare(a, b, tolerance: 0)
            #expect(result.matches && result.differingPixels == 0, "scale \(scale)")
            #expect(result.width == Int((page.width * scale).rounded(.up)))
        }
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
