// A libFuzzer target over the whole pipeline: bytes → XMLReader → MarkupParser →
// Typesetter.layout (styles, bidi, itemization, shaping, line breaking, HIG rules, pagination)
// → the layout report's JSON → the writers: PDF (PDFWriter, the TrueType subsetter), SVG and PNG
// (PageDrawer, RasterGlyphs, PNGEncoder), which work on raw memory. Built only by `make fuzz`
// (Package.swift adds this target only when TYPESET_FUZZ is set; the Makefile's fuzz-build
// builds it with -sanitize=fuzzer,address -parse-as-library).
import Glibc
import Typeset

/// One typesetter for every input, as in a batch: its font and shaping caches are shared.
private let typesetter = Typesetter(fontDirectories: [])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Image paths resolve against the working directory (the corpus folder make fuzz runs in).
    let parsed = MarkupParser.parse(bytes: bytes, file: "fuzz-input.xml")
    guard let document = parsed.document else {
        // Every refusal is a located error.
        precondition(parsed.diagnostics.hasErrors, "no document and no error")
        for error in parsed.diagnostics.errors {
            precondition(error.location.line >= 1 && error.location.column >= 1, "bad location \(error)")
        }
        return 0
    }
    let result = typesetter.layout(document)
    precondition(!result.pages.isEmpty || result.diagnostics.hasErrors, "a layout without pages and without error")
    for page in result.pages {
        precondition(page.width.isFinite && page.height.isFinite && page.width > 0 && page.height > 0,
                     "page size \(page.width) × \(page.height)")
    }
    _ = result.report.json()
    renderFirstPages(result.pages)
    return 0
}

/// A folder of this process's own for the files the writers write (on tmpfs: they are written
/// and replaced at every input), removed when the run ends at its time limit (an interrupted
/// run leaves it).
private let outputFolder: String = {
    let folder = "/dev/shm/typeset-fuzz-\(getpid())"
    mkdir(folder, 0o700)
    atexit {
        for name in ["out.pdf", "out.svg", "out.png"] { unlink(outputFolder + "/" + name) }
        rmdir(outputFolder)
    }
    return folder
}()

/// The writers' largest PNG, in pixels: a 390 × 844 pt page at 2× (in whole pixels: RasterGlyphs
/// draws the text). Larger pages are drawn at 1, or at the scale that makes them this large
/// (rarely whole pixels: Cairo draws the text).
private let maximumPixels = 1_400_000.0

/// Renders the first pages (a document may have thousands) to PDF, SVG and PNG. A render may
/// refuse a page with an error (a glyph not in its font, a page too large); it must never crash.
private func renderFirstPages(_ allPages: [Page]) {
    let pages = Array(allPages.prefix(3))
    guard !pages.isEmpty else { return }
    _ = try? render(pages: pages, to: outputFolder + "/out.pdf", options: RenderOptions(format: .pdf))
    _ = try? render(pages: [pages[0]], to: outputFolder + "/out.svg", options: RenderOptions(format: .svg))
    for page in pages {
        let area = page.width * page.height
        let scale = area * 4 <= maximumPixels ? 2 : area <= maximumPixels ? 1 : (maximumPixels / area).squareRoot()
        _ = try? render(pages: [page], to: outputFolder + "/out.png", options: RenderOptions(format: .png, scale: scale))
    }
    // Not in whole pixels (Cairo draws the glyphs), and as a page in a comparison sheet
    // (clipped pages in a page).
    let first = pages[0]
    if first.width * first.height * 0.49 <= maximumPixels {
        _ = try? render(pages: [first], to: outputFolder + "/out.png", options: RenderOptions(format: .png, scale: 0.7))
    }
    let sheet = SheetLayouter(typesetter: typesetter).layout(rows: [
        [SheetCell(file: "fuzz-input.xml", locale: "en", textSize: "Large", page: first, pageCount: allPages.count)]
    ])
    if !sheet.isEmpty {
        _ = try? render(pages: sheet, to: outputFolder + "/out.pdf", options: RenderOptions(format: .pdf))
        _ = try? render(pages: sheet, to: outputFolder + "/out.png", options: RenderOptions(format: .png, scale: 1))
    }
}

/// SwiftPM links an executable's entry point as `<Module>_main`; hand over to libFuzzer's driver,
/// which parses the usual libFuzzer flags.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("TypesetFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { fuzzOneInput($0, $1) }
}
