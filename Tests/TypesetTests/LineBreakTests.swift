// Line breaking (UAX #14) and grapheme clusters (UAX #29): the Unicode conformance files, counted,
// and the public API on Arabic, Hebrew and Latin text.
import Foundation
import Testing

@testable import Typeset

@Suite struct LineBreakTests {
    static let auxiliaryDirectory = unicodeDirectory + "/auxiliary"

    /// The number of cases (non-comment lines) in LineBreakTest-15.0.0.txt.
    static let lineBreakCaseCount = 7_654
    /// The number of cases (non-comment lines) in GraphemeBreakTest-15.0.0.txt.
    static let graphemeBreakCaseCount = 602

    /// The BMP table the scan reads is built with shortcuts (properties shared by a class);
    /// every entry must equal the properties computed from the scalar itself.
    @Test func bmpTableEqualsThePropertiesOfEachScalar() {
        let table = LineBreaker.bmpProperties
        #expect(table.count == 0x10000)
        var checked = 0
        for value in UInt32(0)..<0x10000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if table[Int(value)] != LineBreaker.ScalarProperties(scalar) {
                Issue.record("U+\(String(value, radix: 16, uppercase: true)) differs")
                break
            }
            checked += 1
        }
        #expect(checked == 0x10000 - 0x800)  // all but the surrogates
    }

    // MARK: - Conformance

    @Test func lineBreakTestFilePassesEveryCase() throws {
        let path = "\(Self.auxiliaryDirectory)/LineBreakTest.txt"
        let result = try ConformanceResult.lineBreakTest(file: path)
        #expect(result.name == "LineBreakTest.txt")
        #expect(result.failed == 0, "\(result.summary)\n\(result.failures.map(\.description).joined(separator: "\n"))")
        #expect(result.passed == Self.lineBreakCaseCount, "\(result.summary)")
        #expect(result.total == Self.lineBreakCaseCount)
        #expect(result.version == "15.0.0" && result.shortfall == nil, "\(result.shortfall ?? "")")
    }

    @Test func graphemeBreakTestFilePassesEveryCase() throws {
        let path = "\(Self.auxiliaryDirectory)/GraphemeBreakTest.txt"
        let result = try ConformanceResult.graphemeBreakTest(file: path)
        #expect(result.name == "GraphemeBreakTest.txt")
        #expect(result.failed == 0, "\(result.summary)\n\(result.failures.map(\.description).joined(separator: "\n"))")
        #expect(result.passed == Self.graphemeBreakCaseCount, "\(result.summary)")
        #expect(result.total == Self.graphemeBreakCaseCount)
        #expect(result.version == "15.0.0" && result.shortfall == nil, "\(result.shortfall ?? "")")
    }

    @Test func conformanceCountsEveryCaseAndReportsFailures() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("LineBreakTest-\(UUID().uuidString).txt").path
        let text = """
            # comment line
            × 0023 × 0023 ÷\t# passes
            × 0023 × 0020 × 0023 ÷\t# wrong on purpose: LB18 breaks after the space

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try ConformanceResult.lineBreakTest(file: path)
        #expect(result.passed == 1)
        #expect(result.failed == 1)
        #expect(
            result.failures.map(\.description) == [
                "line 3: input 0023 0020 0023 expected × 0023 × 0020 × 0023 ÷ "
                    + "actual × 0023 × 0020 ÷ 0023 ÷"
            ])
    }

    @Test func missingConformanceFileThrows() {
        #expect(throws: ConformanceError.self) {
            try ConformanceResult.lineBreakTest(file: "/nonexistent/LineBreakTest.txt")
        }
        #expect(throws: ConformanceError.self) {
            try ConformanceResult.graphemeBreakTest(file: "/nonexistent/GraphemeBreakTest.txt")
        }
    }

    // MARK: - LineBreaker

    /// The text between opportunities (UAX #14's, changed by `tailoring`), with "!" after a
    /// segment that ends in a mandatory break.
    private func segments(
        _ text: String, _ tailoring: ([BreakOpportunity], [Unicode.Scalar]) -> [BreakOpportunity] = { breaks, _ in breaks }
    ) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        return tailoring(LineBreaker.opportunities(in: scalars), scalars).map { opportunity in
            defer { start = opportunity.offset }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<opportunity.offset])
            return String(view) + (opportunity.isMandatory ? "!" : "")
        }
    }

    @Test func breaksAfterSpacesInLatinArabicAndHebrew() {
        #expect(segments("Hello world") == ["Hello ", "world!"])
        #expect(segments("مرحبا بالعالم") == ["مرحبا ", "بالعالم!"])
        #expect(segments("שלום עולם") == ["שלום ", "עולם!"])
        #expect(segments("Hello مرحبا שלום") == ["Hello ", "مرحبا ", "שלום!"])
    }

    @Test func breaksAfterAHyphenButNotBeforeANumber() {
        #expect(segments("well-known") == ["well-", "known!"])
        // LB25: a hyphen before digits is a minus sign.
        #expect(segments("a -5") == ["a ", "-5!"])
    }

    /// An e-mail address or URL is broken before a hyphen of its own, not after it: "support-"
    /// | "team@example.org" read as a hyphenated word. A word's hyphen still breaks after it.
    @Test func anAddressIsBrokenBeforeItsHyphen() throws {
        func moved(_ text: String) -> [String] {
            let scalars = Array(text.unicodeScalars)
            let breaks = AddressBreaks.breakingBeforeHyphensAndSlashes(LineBreaker.opportunities(in: scalars), in: scalars) { _ in true }
            var pieces: [String] = []
            var start = 0
            for b in breaks {
                pieces.append(String(String.UnicodeScalarView(scalars[start..<b.offset])))
                start = b.offset
            }
            return pieces
        }
        #expect(segments("Write to support-team@example.org now") == ["Write ", "to ", "support-", "team@example.org ", "now!"])
        #expect(moved("Write to support-team@example.org now") == ["Write ", "to ", "support", "-team@example.org ", "now"])
        #expect(moved("see https://my-site.example.com/long-path/x") == ["see ", "https://", "my", "-site.example.com", "/long", "-path", "/x"])
        #expect(moved("(www.my-site.com) or well-known") == ["(www.my", "-site.com) ", "or ", "well-", "known"])
        // Not a domain without its scheme or "www.", which prose is not told from: "Node.js" |
        // "/React" | "-based" began a line with a hyphen.
        #expect(moved("Try our Node.js/React-based app") == ["Try ", "our ", "Node.js/", "React-", "based ", "app"])
        #expect(moved("mail a-b@c--d.org, or read well-known") == ["mail ", "a", "-b@c", "--d.org, ", "or ", "read ", "well-", "known"])
        // Not addresses: an "@" between spaces, a time, a sentence's full stop.
        // Not in an address with soft hyphens of the author's.
        #expect(moved("to support-team@exam\u{AD}ple.org") == ["to ", "support-", "team@exam\u{AD}", "ple.org"])
        #expect(moved("meet @ 10:30 in the well-lit room.") == ["meet ", "@ ", "10:30 ", "in ", "the ", "well-", "lit ", "room."])
        // Not after a word joiner or an opening bracket, where UAX #14 never breaks.
        #expect(moved("to support\u{2060}-team@example.org") == ["to ", "support\u{2060}-", "team@example.org"])
        #expect(moved("at (-team@example.org) now") == ["at ", "(-", "team@example.org) ", "now"])
        // Where the piece from the hyphen is wider than a line, the break after it stays: a cut
        // between letters, with a warning, was worse than "help-" | "team@example.com".
        let scalars = Array("Write to help-team@example.com".unicodeScalars)
        let narrow = AddressBreaks.breakingBeforeHyphensAndSlashes(LineBreaker.opportunities(in: scalars), in: scalars) { $0.count < 17 }
        #expect(narrow.map(\.offset) == [6, 9, 14, 30])
        // The next piece is measured to where its own break is moved: "-team@my", not "-team@my-".
        let two = Array("to support-team@my-co.com".unicodeScalars)
        let measured = AddressBreaks.breakingBeforeHyphensAndSlashes(LineBreaker.opportunities(in: two), in: two) { $0.count <= 8 }
        #expect(measured.map(\.offset) == [3, 10, 18, 25])
        let row = try #require(layoutMarkup(
            #"<document device="iphone-8"><row><label>Sales: sales@example.com</label><label>Write to help-team@example.com</label></row></document>"#))
        #expect(row.diagnostics.items.isEmpty, "\(row.diagnostics.items)")
        // A piece measured to where the next break ends up: moved on the thought that the next
        // would move too, "-hyphens@sub-" was cut between its letters.
        let chained = try #require(layoutMarkup(#"<document width="120" margin="0"><p>a-hyphens@sub-domain.example.org</p></document>"#))
        #expect(chained.diagnostics.items.allSatisfy { !"\($0)".contains("hyphens") }, "\(chained.diagnostics.items)")
        let chainedLines = chained.report.pages.first?.blocks.first?.lines.map { $0.runs.map(\.text).joined() } ?? []
        #expect(chainedLines.contains { $0.hasSuffix("hyphens@sub") || $0.hasSuffix("hyphens@sub-") }, "\(chainedLines)")
        let result = try #require(layoutMarkup(#"<document width="220"><p>Write to support-team@example.org for help</p></document>"#))
        let lines = result.report.pages.first?.blocks.first?.lines.map { $0.runs.map(\.text).joined() }
        #expect(lines == ["Write to support", "-team@example.org", "for help"])
        // Where the piece after the hyphen is cut anyway, the break moves before it too, and a
        // URL's single slash begins its line as well: "support-" | "team@example" | ".org" and
        // "site.example.com/" | "help" in a narrow row.
        func lineTexts(_ xml: String) throws -> [[String]] {
            let result = try #require(layoutMarkup(xml))
            return result.report.pages.first?.blocks.map { $0.lines.map { $0.runs.map(\.text).joined() } } ?? []
        }
        let narrowRow = try lineTexts(
            #"<document lang="ar" width="320"><row><label>البريد</label><label>support-team@example.org</label></row>"#
                + #"<row><label>الموقع</label><label>https://my-long-site.example.com/help</label></row></document>"#)
        #expect(narrowRow[1] == ["support", "-team@example", ".org"], "\(narrowRow)")
        #expect(narrowRow[3] == ["https://my-long-", "site.example.com", "/help"], "\(narrowRow)")
        // A piece measured without the space that hangs after it: with a word after the
        // address, it broke "Mail support-" | "team@example.org".
        let followed = try lineTexts(#"<document width="196"><p>Mail support-team@example.org today.</p></document>"#)
        #expect(followed[0] == ["Mail support", "-team@example.org", "today."], "\(followed)")
        // Unless the piece before the hyphen is cut too: "suppor" | "t" | "-team" was a line more.
        let narrower = try lineTexts(#"<document margin="0" width="60"><p>write support-team@example.org.</p></document>"#)
        #expect(narrower[0].contains("t-") && !narrower[0].contains("t"), "\(narrower)")
    }

    /// A Hebrew compound wider than its line is cut after its maqaf or hyphen, and a Hebrew
    /// word at its soft hyphens, where UAX #14 gives no break (LB21a): "בתל־אביב־יפ" | "ו" left
    /// a letter alone, and "העירוני" | "ת" passed over the author's "העי-" | "רונית". Neither
    /// is a word broken between its letters, which a warning would say.
    @Test func aHebrewCompoundIsCutWhereItsPartsMeet() throws {
        for (width, compound, expected) in [
            (320, "בתל־אביב־יפו", ["בתל־אביב־", "יפו"]), (320, "בתל-אביב-יפו", ["בתל-אביב-", "יפו"]),
            (200, "בתל־אביב־יפו", ["בתל־", "אביב־", "יפו"]), (200, "ה&#xAD;עי&#xAD;רונית", ["העי", "רונית"]),
            (200, "יָפוֹ־חֵיפָה", ["יָפוֹ־", "חֵיפָה"]),  // (its letter before the maqaf past its points)
        ] {
            let result = try #require(layoutMarkup(
                #"<document lang="he" width="\#(width)"><row><label>עיר</label><label>\#(compound)</label><label>בית־הספר</label></row></document>"#))
            let lines = result.report.pages.first?.blocks[1].lines.map { $0.runs.map(\.text).joined() }
            #expect(lines == expected, "\(compound) at \(width)")
            #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        }
        // Its pieces are one line to SPEC 4.1, as a word cut between its letters is: in an
        // English row it stands on the row's start side, as its siblings do.
        let row = try #require(layoutMarkup(
            #"<document lang="en" width="200"><row><label>City</label><label>בתל־אביב־יפו</label><label>School</label></row></document>"#))
        #expect(row.report.pages[0].blocks.map(\.align) == ["left", "left", "left"])
        #expect(row.report.pages[0].blocks[1].lines.count == 3)
        // Not any hyphen: a phone number's and "COVID-19"'s cuts are said, the phone number's
        // after its hyphens at its separators ("+1-800-" | "555-" | "01998").
        let latin = try #require(layoutMarkup(#"<document width="70" margin="0"><p>+1-800-555-01998</p><p>COVID-19</p></document>"#))
        let said = latin.diagnostics.warnings.map(\.message)
        #expect(said.count == 2 && said[0].contains("'+1-800-555-01998' (143 pt): it is broken at its separators")
                && said[1].contains("'COVID-19' (77 pt): it is broken between its letters"), "\(said)")
    }

    /// Each block's lines, each line's runs' text joined.
    private func lines(_ markup: String) throws -> [[String]] {
        let result = try #require(layoutMarkup(markup))
        return result.report.pages.flatMap(\.blocks).map { $0.lines.map { $0.runs.map(\.text).joined() } }
    }

    /// UIKit's push-out (a label's standard line-break strategy): a last line of one word takes
    /// the word before it where both fit, in every direction and after each line break; not
    /// where they do not fit, nor a word after a line break, nor a piece of a cut word.
    @Test func aLastWordAloneTakesTheWordBeforeIt() throws {
        #expect(try lines(#"<document width="150" margin="0"><label>Welcome to the new Lumen</label></document>"#)
            == [["Welcome to the", "new Lumen"]])
        // Each part a line break ends: "new" alone before it took "the".
        #expect(try lines(#"<document width="150" margin="0"><label>Welcome to the new<br/>Lumen and more of it here</label></document>"#)
            == [["Welcome to", "the new", "Lumen and more", "of it here"]])
        // Right to left too ("שלנו" and "الجديد" stood alone).
        #expect(try lines(#"<document lang="he" width="150" margin="0"><label>ברוכים הבאים לאפליקציה החדשה שלנו</label></document>"#)
            == [["ברוכים הבאים", "לאפליקציה", "החדשה שלנו"]])
        #expect(try lines(#"<document lang="ar" width="150" margin="0"><label>مرحبا بكم في التطبيق الجديد</label></document>"#)
            == [["مرحبا بكم في", "التطبيق الجديد"]])
        // Two words that do not fit on one line stay apart; a word after a line break is alone
        // by the author's choice.
        #expect(try lines(#"<document width="150" margin="0"><label>Welcome extraordinarily uncomfortably</label></document>"#)
            == [["Welcome", "extraordinarily", "uncomfortably"]])
        #expect(try lines(#"<document width="150" margin="0"><label>Welcome to the<br/>Lumen</label></document>"#)
            == [["Welcome to the", "Lumen"]])
    }

    /// A word cut because it is wider than its line is cut where it reads better only where that
    /// makes no more lines, the words after it counted: "support" | "@example.com or" | "call"
    /// took a line more than "support@exampl" | "e.com or call". A price is cut after its
    /// separators where that takes no more ("$1,29" | "9,999." | "99" read as other numbers).
    @Test func aBetterCutOfAWordTakesNoMoreLines() throws {
        #expect(try lines(#"<document width="145" margin="0"><p>support@example.com or call</p></document>"#)
            == [["support@exampl", "e.com or call"]])
        #expect(try lines(#"<document width="136" font-size="33"><p>Total: $1,299,999.99 due</p></document>"#)
            == [["Total:", "$1,", "299,", "999.99", "due"]])
        #expect(try lines(#"<document width="168"><p>Email customer.support@example-company.com now</p></document>"#)
            == [["Email", "customer", ".support", "@example", "-company.com", "now"]])
    }

    @Test func keepsAPercentWithItsNumber() {
        #expect(segments("up 50% today") == ["up ", "50% ", "today!"])
        #expect(segments("خصم 50% اليوم") == ["خصم ", "50% ", "اليوم!"])
        #expect(segments("$(12.50)") == ["$(12.50)!"])
    }

    @Test func breaksAfterLineFeedIsMandatory() {
        let opportunities = LineBreaker.opportunities(in: Array("ab\ncd".unicodeScalars))
        #expect(
            opportunities == [
                BreakOpportunity(offset: 3, isMandatory: true),
                BreakOpportunity(offset: 5, isMandatory: true),
            ])
        // CR LF is one line end (LB5); no break between them.
        #expect(segments("one\r\ntwo") == ["one\r\n!", "two!"])
    }

    @Test func endOfTextIsTheOnlyBreakOfOneWord() {
        #expect(
            LineBreaker.opportunities(in: Array("word".unicodeScalars)) == [
                BreakOpportunity(offset: 4, isMandatory: true)
            ])
        #expect(LineBreaker.opportunities(in: []) == [])
    }

    @Test func combiningMarksStayWithTheirBase() {
        // Hebrew points and Arabic harakat (CM) never start a segment (LB9).
        #expect(segments("שָׁלוֹם עוֹלָם") == ["שָׁלוֹם ", "עוֹלָם!"])
        #expect(segments("كَتَبَ الدَّرْسَ") == ["كَتَبَ ", "الدَّرْسَ!"])
    }

    // MARK: - DictionaryBreaks

    /// `segments` with the word boundaries of Thai, Lao, Khmer and Myanmar (ICU's dictionaries).
    private func dictionarySegments(_ text: String) -> [String] {
        segments(text) { DictionaryBreaks.adding(to: $0, in: $1) }
    }

    @Test func dictionaryFindsTheWordsOfScriptsWrittenWithoutSpaces() {
        // UAX #14 alone (LB1: SA is AL) keeps each run of them whole.
        #expect(segments("ภาษาไทยเป็นภาษา") == ["ภาษาไทยเป็นภาษา!"])
        #expect(dictionarySegments("ภาษาไทยเป็นภาษา") == ["ภาษา", "ไทย", "เป็น", "ภาษา!"])
        #expect(dictionarySegments("ສະບາຍດີທ່ານສະບາຍດີບໍ") == ["ສະບາຍດີ", "ທ່ານ", "ສະບາຍດີ", "ບໍ!"])
        #expect(dictionarySegments("ខ្ញុំចង់ទៅផ្សារនៅថ្ងៃស្អែក") == ["ខ្ញុំ", "ចង់ទៅ", "ផ្សារ", "នៅ", "ថ្ងៃស្អែក!"])
        #expect(dictionarySegments("ဈေးကိုသွားချင်တယ်") == ["ဈေး", "ကို", "သွား", "ချင်", "တယ်!"])
        // Among other words, after spaces and before a line feed: UAX #14's breaks stay, each once.
        #expect(
            dictionarySegments("Hello สวัสดีครับ 42\nภาษาไทย") == ["Hello ", "สวัสดี", "ครับ ", "42\n!", "ภาษา", "ไทย!"])
    }

    /// The quick tests find every SA character (758 in Unicode 15.0) and nothing else: by its
    /// code point, and by the script of the item it is in.
    @Test func everySouthEastAsianCharacterIsFound() {
        var found = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let isSA = scalar.lineBreakClass == .SA
            if DictionaryBreaks.isSouthEastAsian(scalar) != isSA {
                Issue.record("U+\(String(value, radix: 16, uppercase: true)): SA is \(isSA)")
                return
            }
            guard isSA else { continue }
            found += 1
            if !DictionaryBreaks.writesWordsWithoutSpaces(scalar.script) {
                Issue.record("U+\(String(value, radix: 16, uppercase: true)) is in \(scalar.script)")
                return
            }
        }
        #expect(found == 758)
        #expect(!DictionaryBreaks.writesWordsWithoutSpaces(.latin) && !DictionaryBreaks.writesWordsWithoutSpaces(.common))
    }

    @Test func dictionaryLeavesTextWithoutSuchScriptsAsItWas() {
        for text in ["Hello world", "مرحبا بالعالم 2024", "שלום עולם\nשלום", "Ελληνικά ქართული 中文", ""] {
            let scalars = Array(text.unicodeScalars)
            #expect(DictionaryBreaks.adding(to: LineBreaker.opportunities(in: scalars), in: scalars) == LineBreaker.opportunities(in: scalars))
        }
        #expect(!DictionaryBreaks.isSouthEastAsian("a") && !DictionaryBreaks.isSouthEastAsian("\u{E3F}"))  // ฿ is PR
        #expect(DictionaryBreaks.isSouthEastAsian("\u{E01}") && DictionaryBreaks.isSouthEastAsian("\u{11700}"))
    }

    /// Korean breaks at the spaces between its words, as UIKit's labels do (hangulWordPriority),
    /// not between two syllables of a word, which UAX #14 alone allows.
    @Test func koreanKeepsItsWordsWhole() {
        let text = "개인정보 처리방침에 동의하시겠습니까? OK"
        #expect(segments(text).count > 10, "UAX #14 breaks between syllables")
        #expect(segments(text) { HangulWords.keepingWordsWhole($0, in: $1) } == ["개인정보 ", "처리방침에 ", "동의하시겠습니까? ", "OK!"])
        // A word with Hangul in it stays whole with its Latin letters and digits.
        #expect(
            segments("가나 iPhone에서 2026년에 中文字") { HangulWords.keepingWordsWhole($0, in: $1) }
                == ["가나 ", "iPhone에서 ", "2026년에 ", "中", "文", "字!"])
        // Chinese written without spaces around a Korean word keeps its breaks between ideographs.
        #expect(
            segments("句子한국어这个词") { HangulWords.keepingWordsWhole($0, in: $1) }
                == ["句", "子", "한국어", "这", "个", "词!"])
        // Other scripts' breaks stay: Chinese breaks between its characters.
        let chinese = Array("中文字".unicodeScalars)
        #expect(HangulWords.keepingWordsWhole(LineBreaker.opportunities(in: chinese), in: chinese).map(\.offset) == [1, 2, 3])
    }

    /// A number in groups (a phone number, a price) stays on one line where it fits: UAX #14
    /// breaks at the spaces between its groups, and "+1 (555)" ended one line with "010-2030"
    /// on the next. One wider than its line keeps its breaks; numbers side by side that are
    /// not one (years, scores) keep theirs.
    @Test func numbersInGroupsStayWhole() {
        let fits: (Range<Int>) -> Bool = { _ in true }
        func kept(_ text: String) -> [String] { segments(text) { NumberGroups.keepingWhole($0, in: $1, fits: fits) } }
        #expect(kept("Call +1 (555) 010-2030 now") == ["Call ", "+1 (555) 010-2030 ", "now!"])
        #expect(kept("טלפון: \u{2066}03 555 0199\u{2069}, עכשיו") == ["טלפון: ", "\u{2066}03 555 0199\u{2069}, ", "עכשיו!"])
        #expect(kept("Call us (+44 20 7946 0958) today") == ["Call ", "us ", "(+44 20 7946 0958) ", "today!"])
        // In a bracket closed after more text: the number after the "(" (it broke between its
        // groups when the "(" it does not close was cut off with all that followed).
        #expect(kept("line (+1 800 555 0199, toll free)") == ["line ", "(+1 800 555 0199, ", "toll ", "free)!"])
        // Typed in two scripts' digits, shown in one.
        #expect(kept("رقم +966 ٥٠ ١٢٣ ٤٥٦٧ هنا") == ["رقم ", "+966 ٥٠ ١٢٣ ٤٥٦٧ ", "هنا!"])
        // Not isolated and no "+"; fewer than seven digits; two spaces; a full stop that ends a
        // sentence: as before (years, scores, room numbers, prices in groups).
        // Thousands: a first group of one or two digits, or a currency sign before it.
        let amounts = kept("Total 12 345 678,90 € or €999 999 999")
        #expect(amounts.contains { $0.contains("12 345 678") } && amounts.contains { $0.contains("999 999 999") }, "\(amounts)")
        for text in ["call 03 555 0199", "1999 2000 2001", "21 19 25 23 18", "Rooms 101 102 103 104 105", "128 256 512 GB",
                     "in 10 20 30 days", "12 345  678 90", "It happened in 1999. 2000 people came.", "+ 966 11 234 5678"] {
            let scalars = Array(text.unicodeScalars)
            let all = LineBreaker.opportunities(in: scalars)
            #expect(NumberGroups.keepingWhole(all, in: scalars, fits: fits) == all, "\(text)")
        }
        // What cannot be broken around it is measured with it: a bracket, a comma, a full stop.
        for (text, stretch) in [("Call (+44 20 7946 0958), now", "(+44 20 7946 0958),"), ("Call +44 20 7946 0958.", "+44 20 7946 0958.")] {
            let scalars = Array(text.unicodeScalars)
            var measured: [String] = []
            _ = NumberGroups.keepingWhole(LineBreaker.opportunities(in: scalars), in: scalars) { range in
                measured.append(String(String.UnicodeScalarView(scalars[range])))
                return true
            }
            #expect(measured == [stretch], "\(text)")
        }
        // Too wide for its line: its breaks stay.
        let scalars = Array("Call +1 (555) 010-2030".unicodeScalars)
        let all = LineBreaker.opportunities(in: scalars)
        #expect(NumberGroups.keepingWhole(all, in: scalars) { _ in false } == all)
        // In a paragraph: the number goes to the next line whole.
        let lines = blocks(#"<document lang="he" width="200"><p>טלפון: <ltr>+1 (555) 010-2030</ltr></p></document>"#)[0].lines
        #expect(lines.count == 2 && lines[1].runs.map(\.text).joined().contains("+1 (555) 010-2030"), "\(lines.map(\.runs))")
    }

    // MARK: - GraphemeBreaker

    @Test func graphemeClustersKeepMarksAndEmojiSequences() {
        #expect(GraphemeBreaker.boundaries(in: Array("abc".unicodeScalars)) == [0, 1, 2, 3])
        // e + combining acute; CR LF.
        #expect(GraphemeBreaker.boundaries(in: ["e", "\u{301}", "\r", "\n"]) == [0, 2, 4])
        // Woman + ZWJ + laptop (GB11); two flags (GB12, GB13).
        #expect(GraphemeBreaker.boundaries(in: ["\u{1F469}", "\u{200D}", "\u{1F4BB}"]) == [0, 3])
        let flags: [Unicode.Scalar] = ["\u{1F1EE}", "\u{1F1F1}", "\u{1F1EF}", "\u{1F1F5}"]
        #expect(GraphemeBreaker.boundaries(in: flags) == [0, 2, 4])
        #expect(GraphemeBreaker.boundaries(in: []) == [])
    }
}
