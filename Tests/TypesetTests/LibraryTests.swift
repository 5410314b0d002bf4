// The Swift library as a package that depends on it sees it: a plain (not @testable) import,
// so only what is public compiles here.
import Foundation
import Testing
import Typeset

@Suite struct LibraryTests {
    /// The README's "Swift library" example, run as written there, its output in a temporary
    /// folder; every line of it but the output's path must be a line of this file, so the README
    /// cannot drift from code that compiles and works.
    @Test func theReadmesLibraryExampleRunsAsWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/screen.pdf"
        var printed: [String] = []
        func print(_ item: Any) { printed.append("\(item)") }

        // From here to the end of the `if`, the README's lines.
        let markup = #"<document lang="ar"><title>مرحبا</title><button>OK</button></document>"#
        let parsed = MarkupParser.parse(bytes: Array(markup.utf8), file: "screen.xml")
        for diagnostic in parsed.diagnostics.items { print(diagnostic) }  // screen.xml:1:1: error: ...
        if let document = parsed.document {
            let typesetter = Typesetter(fontDirectories: [])  // thread-safe; keep one for many documents
            let result = typesetter.layout(document, options: LayoutOptions(locale: "ar"))
            for diagnostic in result.diagnostics.items { print(diagnostic) }
            try render(pages: result.pages, to: output, options: RenderOptions(format: .pdf, title: result.title, language: result.language))
            print(result.report.json())  // what `typeset layout` prints
        }

        #expect(printed.count == 1, "no diagnostics, then the JSON: \(printed)")
        let json = try #require(printed.last)
        #expect(json.hasPrefix(#"{"version":1,"diagnostics":[],"pages":[{"width":390,"#))
        #expect(json.contains(#""kind":"button""#) && json.contains(#""text":"OK""#))
        let text = try runProgram("/usr/bin/pdftotext", [output, "-"]).stdout
        #expect(text.contains("مرحبا") && text.contains("OK"), "\(text)")
        #expect(try pdfInfo(output, "Title") == "مرحبا")

        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let example = try #require(readme.firstRange(of: "```swift\n").flatMap { start in
            readme[start.upperBound...].firstRange(of: "\n```").map { readme[start.upperBound..<$0.lowerBound] }
        })
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let here = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let lines = example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != #"let output = "screen.pdf""# }
        #expect(lines.count == 11)
        for line in lines { #expect(here.contains(line), "the README's line is not this test's: \(line)") }
    }

    /// A document with an error gives no document, and its diagnostic says where.
    @Test func aDocumentWithAnErrorSaysWhere() {
        let parsed = MarkupParser.parse(bytes: Array("<document>\n  <p align=\"justify\">x</p>\n</document>".utf8), file: "bad.xml")
        #expect(parsed.document == nil)
        #expect(parsed.diagnostics.items.map(\.location.description) == ["bad.xml:2:6"])
    }
}
