// UAX #9: the Unicode conformance files, counted, and the API later stages use.
import Testing

@testable import Typeset

let unicodeDirectory = "/usr/share/unicode"

@Suite struct BidiConformanceTests {
    @Test func bidiTestRunsEveryCase() throws {
        let result = try ConformanceResult.bidiTest(file: unicodeDirectory + "/BidiTest.txt")
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
        #expect(result.failed == 0)
        #expect(result.total == 770_241, "ran \(result.total) cases")
    }

    @Test func bidiCharacterTestRunsEveryCase() throws {
        let result = try ConformanceResult.bidiCharacterTest(file: unicodeDirectory + "/BidiCharacterTest.txt")
        #expect(result.failures.isEmpty, "\(result.failures.joined(separator: "\n"))")
        #expect(result.failed == 0)
        #expect(result.total == 91_707, "ran \(result.total) cases")
    }
}

@Suite struct BidiParagraphTests {
    func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

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
        let phone = runs.first { $0.level == 2 }
        #expect(phone != nil)
        #expect(text[phone!.scalarRange].map { Character($0) }.contains("5"))
    }
}
