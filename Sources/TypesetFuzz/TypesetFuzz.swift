// A libFuzzer target over the whole pipeline short of the file writers: bytes → XMLReader →
// MarkupParser → Typesetter.layout (styles, bidi, itemization, shaping, line breaking, HIG
// rules, pagination) → the layout report's JSON. Built only by `make fuzz` (Package.swift adds
// this target only when TYPESET_FUZZ is set, with -sanitize=fuzzer,address -parse-as-library).
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
    return 0
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
