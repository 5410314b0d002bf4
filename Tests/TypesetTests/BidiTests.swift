// UAX #9: the Unicode conformance files, counted, and the API later stages use.
import Foundation
import Testing

@testable import Typeset

/// The UCD files the conformance tests read: `make test UCD_DIR=…` passes its folder on, as it
/// does to the table check and to `typeset conformance`.
let unicodeDirectory = ProcessInfo.processInfo.environment["TYPESET_UCD_DIR"] ?? "/usr/share/unicode"

@Suite struct BidiConformanceTests {
    @Test func bidiTestRunsEveryCase() throws {
        let result = try ConformanceResult.bidiTest(file: unicodeDirectory + "/BidiTest.txt")
        #expect(result.failures.isEmpty, "\(result.failures.map(\.description).joined(separator: "\n"))")
        #expect(result.failed == 0)
        #expect(result.total == 770_241, "ran \(result.total) cases")
        #expect(result.version == "15.0.0" && result.shortfall == nil, "\(result.shortfall ?? "")")
    }

    @Test func bidiCharacterTestRunsEveryCase() throws {
        let result = try ConformanceResult.bidiCharacterTest(file: unicodeDirectory + "/BidiCharacterTest.txt")
        #expect(result.failures.isEmpty, "\(result.failures.map(\.description).joined(separator: "\n"))")
        #expect(result.failed == 0)
        #expect(result.total == 91_707, "ran \(result.total) cases")
        #expect(result.version == "15.0.0" && result.shortfall == nil, "\(result.shortfall ?? "")")
    }

    /// A file cut short passes every case it has: only its count against the count of Unicode
    /// 15.0.0's file shows it. A file of another version, or without its version line, cannot
    /// be counted against it.
    @Test func aFileCutShortOrOfAnotherVersionIsAShortfall() throws {
        let whole = try String(contentsOfFile: unicodeDirectory + "/BidiCharacterTest.txt", encoding: .utf8)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("BidiCharacterTest-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        func run(_ text: String) throws -> ConformanceResult {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return try ConformanceResult.bidiCharacterTest(file: path)
        }
        let cut = try run(lines.prefix(1_000).joined(separator: "\n") + "\n")
        #expect(cut.failed == 0 && cut.total > 500 && cut.version == "15.0.0", "\(cut.summary)")
        #expect(cut.shortfall == "ran \(cut.total) cases, and Unicode 15.0.0's BidiCharacterTest.txt holds 91707: the file is cut short or changed")
        let newer = try run("# BidiCharacterTest-16.0.0.txt\n" + lines.dropFirst().joined(separator: "\n"))
        #expect(newer.failed == 0 && newer.total == 91_707)
        #expect(newer.shortfall == "this is the file of Unicode 16.0.0; the built-in algorithms are Unicode 15.0.0's")
        // A copy with CR LF line ends and a byte-order mark (CR LF is one Character: the file was
        // one line, "no test cases").
        let crlf = try run("\u{FEFF}" + lines.prefix(1_000).joined(separator: "\r\n") + "\r\n")
        #expect(crlf.version == "15.0.0" && crlf.failed == 0 && crlf.total == cut.total, "\(crlf.summary) \(crlf.failures.prefix(2))")
        let cr = try run(lines.prefix(1_000).joined(separator: "\r") + "\r")
        #expect(cr.version == "15.0.0" && cr.failed == 0 && cr.total == cut.total, "\(cr.summary) \(cr.failures.prefix(2))")
        let headless = try run(lines.dropFirst().joined(separator: "\n"))
        #expect(headless.version == nil && headless.shortfall?.hasPrefix("its first line is not '# BidiCharacterTest-15.0.0.txt'") == true)
    }
}

@Suite struct BidiParagraphTests {
    func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    /// X5c's directions of all FSIs in one pass are those of a scan from each FSI to its PDI
    /// (P2–P3), on 20,000 random paragraphs of isolates, strong and neutral classes and
    /// separators; and 80,000 nested FSIs take one pass, not a scan each.
    @Test func fsiDirectionsInOnePassAreThoseOfAScanEach() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [BidiClass] = [.FSI, .FSI, .LRI, .RLI, .PDI, .PDI, .L, .R, .AL, .ON, .EN, .B]
        var fsis = 0
        for _ in 0..<20_000 {
            let classes = (0..<Int.random(in: 1...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            var resolver = BidiResolver(classes: classes, scalars: nil, baseLevel: 0)
            resolver.findMatchingIsolates()
            let oneP = resolver.rightToLeftFSIs()
            for i in classes.indices where classes[i] == .FSI {
                fsis += 1
                let end = resolver.matchingPDI[i] ?? classes.count
                let scanned = BidiParagraph.firstStrongLevel(classes, from: i + 1, to: end) == 1
                #expect(oneP.contains(i) == scanned, "\(classes) at \(i)")
            }
        }
        #expect(fsis > 20_000)
        let nested = Array(repeating: BidiClass.FSI, count: 80_000) + [.R]
        var resolver = BidiResolver(classes: nested, scalars: nil, baseLevel: 0)
        resolver.findMatchingIsolates()
        // Each FSI's isolate holds only the next one's (skipped, P2): only the innermost sees the R.
        #expect(resolver.rightToLeftFSIs() == [79_999])
    }

    @Test func autoDirectionFollowsFirstStrongCharacter() {
        #expect(BidiParagraph(scalars: scalars("123 שלום abc"), direction: .auto).baseLevel == 1)
        #expect(BidiParagraph(scalars: scalars("(abc) שלום"), direction: .auto).baseLevel == 0)
        #expect(BidiParagraph(scalars: scalars("\u{2067}abc\u{2069} مرحبا"), direction: .auto).baseLevel == 1)
        #expect(BidiParagraph(scalars: scalars("123 ..."), direction: .auto).baseLevel == 0)
    }

    @Test func digitsKeepTheirOrderInRightToLeftText() {
        let text = scalars("עמוד 123 מתוך 456")
        let paragraph = BidiParagraph(scalars: text, direction: .rtl)
        let order = paragraph.visualOrder(0..<text.count)
        let visual = String(String.UnicodeScalarView(order.map { text[$0] }))
        #expect(visual == "456 ךותמ 123 דומע")  // read left to right: numbers unreversed
    }

    @Test func visualRunsOfAMixedLine() {
        let text = scalars("Hello مرحبا world")
        let paragraph = BidiParagraph(scalars: text, direction: .ltr)
        let runs = paragraph.visualRuns(0..<text.count)
        #expect(runs.map(\.level) == [0, 1, 0])
        #expect(runs.map(\.scalarRange) == [0..<6, 6..<11, 11..<17])
    }

    @Test func trailingWhiteSpaceTakesTheParagraphLevel() {
        // L1: the space that ends the line returns to level 1 in an RTL paragraph.
        let text = scalars("abc ")
        let paragraph = BidiParagraph(scalars: text, direction: .rtl)
        #expect(paragraph.levels == [2, 2, 2, 1])
        #expect(paragraph.lineLevels(0..<4) == [2, 2, 2, 1])
        #expect(paragraph.lineLevels(0..<3) == [2, 2, 2])
        let inner = BidiParagraph(scalars: scalars("abc def"), direction: .rtl)
        #expect(inner.lineLevels(0..<4) == [2, 2, 2, 1], "the space at a line break hangs at level 1")
    }

    @Test func bracketsPairInRightToLeftContext() {
        // N0: the brackets around Latin text in an Arabic paragraph take the embedding direction.
        let text = scalars("مرحبا (abc) ok")
        let paragraph = BidiParagraph(scalars: text, direction: .rtl)
        #expect(paragraph.levels[6] == 1 && paragraph.levels[10] == 1)
    }

    @Test func isolatesDoNotAffectTheirSurroundings() {
        // An LRI…PDI isolate with a phone number stays one left-to-right run.
        let text = scalars("اتصل \u{2066}+1 (555) 010\u{2069} الآن")
        let paragraph = BidiParagraph(scalars: text, direction: .rtl)
        let runs = paragraph.visualRuns(0..<text.count)
        // Left to right: the last Arabic word, the whole number, the first Arabic word; the
        // isolate's controls at the paragraph's level, with the words around them.
        #expect(runs.map(\.level) == [1, 2, 1])
        #expect(runs.map(\.scalarRange) == [18..<24, 6..<18, 0..<6], "\(runs.map(\.scalarRange))")
        #expect(text[6..<18].map { Character($0) } == Array("+1 (555) 010"))
    }
}
