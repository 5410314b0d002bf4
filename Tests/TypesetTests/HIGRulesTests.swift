// The HIG right-to-left rules (SPEC §4) as `typeset layout` reports them, in English, Arabic
// and Hebrew contexts, with the edges: exactly two and three lines, untagged and neutral text,
// lists mixing scripts, balancing in rows and its exceptions, numerals, rows and images.
import Foundation
import Testing

@testable import Typeset

/// One typesetter for the suite: fonts and shaping are cached across tests.
let sharedTypesetter = Typesetter()

/// Lays out markup given as a string; fails the test on any parse error.
func layoutMarkup(_ xml: String, options: LayoutOptions = LayoutOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation) -> LayoutResult? {
    let parsed = MarkupParser.parse(bytes: Array(xml.utf8), file: "test.xml")
    guard let document = parsed.document else {
        Issue.record("markup did not parse: \(parsed.diagnostics.items)", sourceLocation: sourceLocation)
        return nil
    }
    return sharedTypesetter.layout(document, options: options)
}

/// The report's blocks of the first page; none is an issue, so that checks over them cannot pass
/// on nothing.
func blocks(
    _ xml: String, options: LayoutOptions = LayoutOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [ReportBlock] {
    guard let layout = layoutMarkup(xml, options: options, sourceLocation: sourceLocation) else { return [] }
    guard let blocks = layout.report.pages.first?.blocks, !blocks.isEmpty else {
        Issue.record("no blocks laid out", sourceLocation: sourceLocation)
        return []
    }
    return blocks
}

extension ReportBlock {
    var text: String { lines.map { $0.runs.map(\.text).joined() }.joined(separator: "|") }
    /// SPEC §6: left-aligned lines start at the frame, right-aligned ones end at it.
    func linesFollowAlignment() -> Bool {
        lines.allSatisfy { line in
            switch align {
            case "left": return abs(line.x - frame.x) < 0.01
            case "right": return abs(line.x + line.width - (frame.x + frame.width)) < 0.01
            default: return abs((line.x + line.width / 2) - (frame.x + frame.width / 2)) < 0.01
            }
        }
    }
}

@Suite struct ParagraphLanguageAlignmentTests {
    // 4.1: three or more lines → own direction's start; one or two → the context's start.
    @Test(arguments: ["ar", "he"])
    func englishInRightToLeftInterface(lang: String) {
        let b = blocks("""
            <document lang="\(lang)"><p>One<br/>two</p><p>One<br/>two<br/>three</p><label>OK</label></document>
            """)
        #expect(b.map(\.lines.count) == [2, 3, 1])
        #expect(b.map(\.direction) == ["ltr", "ltr", "ltr"])
        #expect(b.map(\.context) == ["rtl", "rtl", "rtl"])
        #expect(b.map(\.align) == ["right", "left", "right"])
        #expect(b.allSatisfy { $0.linesFollowAlignment() })
    }

    /// An empty isolate after the last `<br/>` is no third line: it made an empty one, and the
    /// two-line paragraph took the alignment of three (as an empty `<b></b>` never did).
    @Test func emptyElementsAfterTheLastBreakAddNoLine() {
        let b = blocks("""
            <document lang="ar"><p lang="en">One<br/>two<br/><ltr></ltr></p><p lang="en">One<br/>two<br/><bdi> </bdi><span dir="rtl"></span></p>
            <p lang="en">One<br/><rtl></rtl>two</p><p lang="en">One<br/>two<br/><ltr>three</ltr></p>
            <p lang="en">One<br/>two<ltr>three<br/></ltr></p><p lang="en">One<br/>two<rtl><br/></rtl>x</p></document>
            """)
        #expect(b.map(\.lines.count) == [2, 2, 2, 3, 2, 3])
        #expect(b.map(\.align) == ["right", "right", "right", "left", "right", "left"])
    }

    /// The empty lines of `<br/><br/>` are no lines of text: two lines with a blank one after,
    /// between or before them are a block of two, aligned by the interface (they were set as
    /// a paragraph of three, by their own language); three lines of text with one are three.
    /// Nor is a line of nothing but white space that has glyphs (`<br/>&nbsp;<br/>`).
    @Test func blankLinesAreNotLinesOfText() {
        let b = blocks("""
            <document lang="ar"><p lang="en">One<br/>two<br/><br/></p><p lang="en">One<br/><br/>two</p>
            <p lang="en"><br/>One<br/>two</p><p lang="en"><br/><br/><br/></p><p lang="en">One<br/><br/>two<br/>three</p></document>
            """)
        #expect(b.map(\.lines.count) == [3, 3, 3, 3, 4])
        #expect(b.map(\.align) == ["right", "right", "right", "right", "left"])
        // A blank line kept with a no-break space (or a figure or narrow one) is blank too; a
        // line of text that begins with one is a line of text.
        let kept = blocks("""
            <document lang="ar"><label>Wi-Fi<br/>&#xA0;<br/>Connected</label><label>Wi-Fi<br/>&#x2007;&#x202F;<br/>On</label>
            <p lang="en">One<br/>two<br/>&#xA0;</p><p lang="en">One<br/>&#xA0;two<br/>three</p></document>
            """)
        #expect(kept.map(\.lines.count) == [3, 3, 3, 3])
        #expect(kept.map(\.align) == ["right", "right", "right", "left"])
    }

    @Test func arabicAndHebrewInLeftToRightInterface() {
        let b = blocks("""
            <document lang="en"><p>سطر<br/>سطر</p><p>سطر<br/>سطر<br/>سطر</p><p>שורה<br/>שורה</p><p>שורה<br/>שורה<br/>שורה</p></document>
            """)
        #expect(b.map(\.direction) == ["rtl", "rtl", "rtl", "rtl"])
        #expect(b.map(\.align) == ["left", "right", "left", "right"])
        #expect(b.allSatisfy { $0.linesFollowAlignment() })
    }

    @Test func ownDirectionFromDirThenLangThenFirstStrongThenContext() {
        let b = blocks("""
            <document lang="en">
              <p dir="rtl">abc</p>
              <p lang="he">abc</p>
              <p>123 שלום</p>
              <p>123 ... 456</p>
              <p>123 שלום abc</p>
            </document>
            """)
        // An inherited left-to-right language leaves the first strong letter's direction.
        #expect(b.map(\.direction) == ["rtl", "rtl", "rtl", "ltr", "rtl"])
        #expect(blocks("<document><p>123 שלום abc</p></document>").map(\.direction) == ["rtl"])
        let ar = blocks(#"<document lang="ar"><p>123 ... 456</p><p dir="auto">abc</p></document>"#)
        #expect(ar.map(\.direction) == ["rtl", "ltr"], "neutral-only text takes the context direction")
    }

    /// Text that starts with a Latin word (a product name, a unit, "Wi-Fi") takes the direction
    /// of the right-to-left language it inherits when a third or more of its words are in that
    /// language's letters: the HIG aligns a paragraph by its language, and the first strong
    /// letter put a Hebrew label's key after its value ("Wi-Fi: רשת ביתית" left to right) and
    /// set a Hebrew paragraph that began with "Lumen Pro" left to right, left aligned. An
    /// English sentence with one Arabic word keeps its first strong letter's, and so does any
    /// text under a left-to-right language (a Hebrew sentence with "iPhone" in it).
    @Test func inheritedLanguageGivesTheDirectionOfItsOwnLetters() throws {
        let he = blocks("""
            <document lang="he"><label>Wi-Fi: רשת ביתית</label><p>12.5 GB מתוך 50 GB</p><p>English only, 2 GB</p>
            <list><item>Bluetooth: פועל</item></list><stack lang="en"><p>Wi-Fi: רשת ביתית</p></stack></document>
            """)
        #expect(he.map(\.direction) == ["rtl", "rtl", "ltr", "rtl", "ltr"])
        let mixed = blocks(#"<document lang="ar"><p>Tap حفظ to keep your changes.</p><p>Welcome, مرحبا, to Lumen Pro.</p></document>"#)
        #expect(mixed.map(\.direction) == ["ltr", "ltr"])
        // An English sentence naming right-to-left words, as many of its own and a function
        // word among them, is English (half its words Arabic made it right to left, scrambled);
        // without a function word, or with fewer words of its own, it is not.
        let naming = blocks(
            #"<document lang="ar"><label>Open الإعدادات then الخصوصية</label><label>Go to الإعدادات</label>"#
                + #"<label>Open الإعدادات</label><label>The تطبيق الإعدادات الجديد</label></document>"#)
        #expect(naming.map(\.direction) == ["ltr", "ltr", "rtl", "rtl"])
        // A name with a function word in it before Hebrew or Arabic is no English sentence.
        let named = blocks(
            #"<document lang="he"><label>Call of Duty זמין להורדה</label><label>Find My מופעל</label>"#
                + #"<label>The Economist מאמר חדש</label><label>Words With Friends הזמין אותך</label></document>"#)
        #expect(named.map(\.direction) == ["rtl", "rtl", "rtl", "rtl"])
        // Words in quotation marks are not counted: an English sentence that quotes Arabic or
        // Hebrew was right to left ('Translate "شكرا جزيلا" to English' read "to English …
        // Translate"). An inch's sign and a gershayim typed as '"' quote nothing.
        let quoting = blocks(
            #"<document lang="ar"><label>Translate "شكرا جزيلا" to English</label><label>Type «مرحبا بكم في تطبيقنا» here.</label>"#
                + #"<label>"Lumen Pro" مفعل الآن</label><label>"مرحبا"</label></document>"#)
        #expect(quoting.map(\.direction) == ["ltr", "ltr", "rtl", "rtl"])
        // An inch's sign is no mark, marks nest, and one before a word of another script
        // closes; a key with its quoted value, one word outside, is the value's language.
        let more = blocks(
            #"<document lang="he"><label>The 27" display shows "שלום עולם"</label><label>Say "the «שלום עולם» text" now</label>"#
                + #"<label>Search "שלום עולם"now please</label><label>Tap <bdi>"x</bdi> then "שלום עולם" now</label>"#
                + #"<label>Wi-Fi: "רשת ביתית"</label><label>WhatsApp: "ההודעה נשלחה בהצלחה"</label><label>Photos: «تم حفظ الصورة»</label></document>"#)
        #expect(more.map(\.direction) == ["ltr", "ltr", "ltr", "ltr", "rtl", "rtl", "rtl"])
        // A '"' after a digit closes an open one; „…” pairs (Hebrew, Polish); a key of two words
        // with its quoted value is the value's language too.
        let closing = blocks(
            #"<document lang="he"><label>Move "תמונה 1" and "תמונה 2" to Trash</label><label>Translate „שלום עולם” to English</label>"#
                + #"<label>Device Name: "האייפון של דני"</label><label>Network Name: "רשת ביתית"</label>"#
                + #"<label>Updated at 9:41 from "הגדרות כלליות" menu</label><label>Tip: Say "היי סירי" to start</label>"#
                + "<label>Device Name: \u{200F}\"האייפון של דני\"</label><label>Device Name: (“האייפון של דני”)</label></document>")
        #expect(closing.map(\.direction) == ["ltr", "ltr", "rtl", "rtl", "ltr", "ltr", "rtl", "rtl"])
        #expect(BlockLayouter.quotations(Array(#"a "b «c» d" e „f“ ”g” »h« »i» „j”"#.unicodeScalars)) == [3..<10, 15..<16, 19..<20, 23..<24, 27..<28, 31..<32])
        #expect(BlockLayouter.quotations(Array(#"a "b c"#.unicodeScalars)).isEmpty)
        // Hebrew and Arabic with words outside the quotation marks stay right to left: an
        // inch's sign, a gershayim typed as '"' or '”', a quotation after a prefix letter
        // (ב"הגדרות"), or one stray mark quoted the rest of the sentence.
        let marks = blocks(
            #"<document lang="he"><label>Display 27" מסך גדול מאוד</label><label>Lumen צה"ל מאשר</label>"#
                + #"<p>Wi-Fi: "Home 5" מחובר לרשת הביתית שלך</p><p>Face ID, Passcode ב"הגדרות" פעיל כעת במכשיר הזה</p>"#
                + #"<p>Apple Music: 20 ש”ח לחודש עם ביטול בכל עת</p><p>Wi-Fi: "Home מחובר לרשת הביתית שלך</p>"#
                + #"<p lang="ar">Wi-Fi: "Home 5" متصلة بالشبكة المنزلية</p></document>"#)
        #expect(marks.map(\.direction) == ["rtl", "rtl", "rtl", "rtl", "rtl", "rtl", "rtl"])
        // A product's name before the Hebrew it ends in: "Apple Watch Ultra 2 מחובר." was set
        // left to right, one Hebrew word in four. Title-case English ending in a name, a key in
        // English words with a Hebrew value, a list, or a sentence with a Hebrew word, stays
        // left to right.
        let names = blocks(
            #"<document lang="he"><label>Apple Watch Ultra 2 מחובר.</label><label>Welcome Back To The App, דני</label>"#
                + "<p>Open Settings and tap שמור now.</p><label>Call דני now please</label>"
                + "<label>Current display language: עברית</label><label>iPhone 15 Pro Max מחובר</label>"
                + "<label>Signed In As דני</label><label>Current Display Language: עברית</label>"
                + "<label>macOS Sonoma Beta הותקן</label><label>OK, Cancel, Delete, בטל</label>"
                // (A name of words with capitals and no function word: it was set left to
                // right, "זמין" read first.)
                + "<label>Apple Pay Later זמין</label><label>Google Maps מחובר</label><label>Logged Out From דני</label></document>")
        #expect(names.map(\.direction) == ["rtl", "ltr", "ltr", "ltr", "ltr", "rtl", "ltr", "ltr", "rtl", "ltr", "rtl", "rtl", "ltr"])
        let english = blocks(#"<document lang="en"><p>שלום עולם, זה iPhone חדש.</p><p>Tap שמור now</p></document>"#)
        #expect(english.map(\.direction) == ["rtl", "ltr"])
        #expect(he.first?.lines.first?.runs.last?.text == "Wi-Fi", "\(he.first?.text ?? "")")
        // A `--locale` is a language given; a catalog's text is in its language.
        let catalog = try StringCatalog.parse(
            bytes: Array(#"{"body": "Lumen Pro מגבה את התמונות שלך בכל לילה"}"#.utf8), file: "he.json")
        let localized = blocks(#"<document><p key="body">x</p><p>Lumen Pro</p></document>"#, options: LayoutOptions(locale: "he", catalog: catalog))
        #expect(localized.map(\.direction) == ["rtl", "ltr"])
        let pinned = blocks(#"<document lang="en"><p key="body">x</p></document>"#, options: LayoutOptions(locale: "he", catalog: catalog))
        #expect(pinned.map(\.direction) == ["rtl"])
        // `dir="auto"` is the first strong letter's, as in HTML.
        #expect(blocks(#"<document lang="he"><p dir="auto">Wi-Fi: רשת</p></document>"#).map(\.direction) == ["ltr"])
    }

    /// From an audit of these rules: single quotes quote too (‘…’, '…', ‹…›, ״…״), an
    /// apostrophe does not ("users’", "don't"); a word that begins in Latin letters (a URL, a
    /// file's name with a Hebrew part) is not one of right-to-left letters; a comma after the
    /// Hebrew leaves a product's name first; a leading LRM asks for left to right, as a leading
    /// RLM asks for right to left; and a catalog's text has its language's direction whether
    /// its element names a language or not. Each was set the other way.
    @Test func quotesAddressesMarksAndCatalogTextTakeTheirDirection() throws {
        let quotes = blocks(
            #"<document lang="ar"><label>Translate ‘شكرا جزيلا’ to English</label><label>Translate 'شكرا جزيلا' to English</label>"#
                + #"<label>Type ‹مرحبا بكم› here.</label><label>The users’ files show ‘مرحبا بكم’ here</label>"#
                + #"<stack lang="he"><label>Translate ״שלום עולם״ to English</label></stack><label>'مرحبا بكم</label></document>"#)
        #expect(quotes.map(\.direction) == ["ltr", "ltr", "ltr", "ltr", "ltr", "rtl"])
        #expect(BlockLayouter.quotations(Array("a ‘b’ c 'd' don't ‹e› x’s".unicodeScalars)) == [3..<4, 9..<10, 19..<20])
        #expect(BlockLayouter.quotations(Array("the users’ files, 5' tall, צה״ל".unicodeScalars)).isEmpty)
        let he = blocks(
            #"<document lang="he"><label>https://he.wikipedia.org/wiki/ירושלים</label><label>Invoice_חשבונית.pdf</label>"#
                + #"<label>info@מוזיאון.co.il</label><label>Apple Watch Ultra 2 מחובר, 80%</label><label>Apple Watch Ultra 2 מחובר</label>"#
                + "<label>\u{200E}שלום עולם!</label><label>\u{200F}Wi-Fi is on.</label><label>Wi-Fi: רשת ביתית</label></document>")
        #expect(he.map(\.direction) == ["ltr", "ltr", "ltr", "rtl", "rtl", "ltr", "rtl", "rtl"])
        let catalog = try StringCatalog.parse(
            bytes: Array(
                #"{"sourceLanguage": "en", "version": "1.0", "strings": {"video.ready": {"localizations": {"he": {"stringUnit": {"state": "translated", "value": "Amazon Prime Video זמין."}}}}}}"#
                    .utf8), file: "Localizable.xcstrings")
        let keyed = blocks(
            #"<document><label key="video.ready">x</label><label key="video.ready" lang="en">x</label></document>"#,
            options: LayoutOptions(locale: "he", catalog: catalog))
        #expect(keyed.map(\.direction) == ["rtl", "rtl"])
    }

    /// SPEC 4.1 counts lines of text, not the pieces of a word broken between its letters: a
    /// Latin label cut in three in a Hebrew row stays on the row's start side (it was left
    /// aligned as a paragraph of three lines of its own language).
    @Test func aBrokenWordIsOneLineForTheAlignmentRule() throws {
        let b = blocks(#"<document lang="he" width="200"><row><label size="40">Bluetooth</label><label>פועל</label></row></document>"#)
        let label = b.first { $0.text.contains("Blu") }
        #expect(label.map { $0.lines.count >= 3 && $0.align == "right" } == true, "\(String(describing: label.map { ($0.lines.count, $0.align) }))")
        // Every broken word's pieces are one line: two words cut in six pieces are two lines
        // (the second word's pieces were counted as lines, and the label left aligned), and a
        // warning says there is another.
        let twoWords = try #require(layoutMarkup(
            #"<document lang="he" width="200"><row><label size="40">Bluetooth Notifications</label><label>פועל</label></row></document>"#))
        let twoLabel = twoWords.report.pages[0].blocks.first { $0.kind == "label" && $0.direction == "ltr" }
        #expect(twoLabel.map { $0.lines.count >= 5 && $0.align == "right" } == true, "\(String(describing: twoLabel.map { ($0.lines.count, $0.align) }))")
        #expect(twoWords.diagnostics.warnings.map(\.message).contains { $0.hasSuffix("it is broken between its letters, and so is 1 other word") },
                "\(twoWords.diagnostics.warnings.map(\.message))")
        // Two broken words and a line of words are three lines.
        let three = blocks(#"<document lang="he" width="200"><p lang="en" size="40">Incomprehensible Counterrevolutionary</p><p lang="en" size="40">Incomprehensible Counterrevolutionary<br/>Yes</p></document>"#)
        #expect(three.map(\.align) == ["right", "left"], "\(three.map { ($0.lines.count, $0.align) })")
        // A paragraph of three lines of words is still one.
        let words = blocks(#"<document lang="he" width="120"><p>one two three four five six seven</p></document>"#)
        #expect(words[0].lines.count >= 3 && words[0].align == "left")
    }

    /// SPEC 4.5: "the digits of a number are never reversed, in any context". An override (RLO)
    /// reverses them in UAX #9 ("a RLO 123 abc PDF" showed "cba 321"); its numbers, with their
    /// separators and signs, read left to right inside it, its letters still reversed.
    @Test func anOverrideDoesNotReverseDigits() {
        let b = blocks("<document width=\"300\"><p>a \u{202E}123 abc\u{202C} b</p><p>\u{202E}12.5%\u{202C}</p></document>")
        let runs = b.map { $0.lines.flatMap(\.runs).map { "\($0.text)@\($0.level)" } }
        #expect(runs == [["a @0", " abc@1", "123@2", " b@0"], ["12.5%@2"]], "\(runs)")
        // A keycap's marks stay with its digit (the emoji fell apart), a word joiner or soft
        // hyphen in a number does not end it (its pieces were reversed), and the digits of
        // left-to-right scripts (class L) are numbers too.
        let more = blocks("<document width=\"300\"><p>\u{202E}1\u{20E3} 2\u{FE0F}\u{20E3}\u{202C}</p><p>\u{202E}ab 1\u{2060}234\u{AD}567\u{202C}</p><p>a \u{202E}\u{967}\u{968}\u{969}\u{202C} z</p></document>")
        let moreRuns = more.map { $0.lines.flatMap(\.runs).map { "\($0.text)@\($0.level)" } }
        #expect(moreRuns.prefix(2) == [["2\u{FE0F}\u{20E3}@2", " @1", "1\u{20E3}@2"], ["1234567@2", "ab @1"]], "\(moreRuns)")
        #expect(moreRuns.last?.contains("\u{967}\u{968}\u{969}@2") == true, "\(moreRuns)")
        // A plus or minus sign (class ES) before a number is its ("-5" showed "5-", "+972"
        // "972+"); one between a word and a number is not the number's.
        let signs = blocks("<document lang=\"he\" width=\"300\"><label>\u{202E}-5\u{202C} מעלות</label><label>\u{202E}+972 ש-5\u{202C}</label><label>\u{202E}בְּ-5 ab\u{AD}-6\u{202C}</label></document>")
        let signRuns = signs.map { $0.lines.flatMap(\.runs).filter { $0.level == 4 }.map(\.text) }
        #expect(signRuns == [["-5"], ["5", "+972"], ["6", "5"]], "\(signRuns)")
    }

    /// A number in groups that right-to-left text reorders is warned about (SPEC 4.5: numbers
    /// are never reversed; "+1 (800) 555-0199" showed "555-0199 (800) 1+"); one in an isolate,
    /// in left-to-right text, or one that UAX #9 keeps whole (digits and hyphens or dots, in
    /// brackets or not) is not.
    @Test func aPhoneNumberRightToLeftTextReordersIsWarnedAbout() throws {
        func warnings(_ body: String) throws -> [String] {
            let result = try #require(layoutMarkup("<document lang=\"he\">\(body)</document>"))
            return result.diagnostics.warnings.map(\.message)
        }
        #expect(try warnings("<p>אפשר להתקשר ל-+1 (800) 555-0199 או 03 555 0199.</p>") == [
            "the number '+1 (800) 555-0199' is not isolated: the right-to-left text around it reorders its groups",
            "the number '03 555 0199' is not isolated: the right-to-left text around it reorders its groups",
        ])
        // Each at the place it is typed (all were at the paragraph's start).
        let located = try #require(layoutMarkup("<document lang=\"he\">\n<p>אפשר ל-+1 (800) 555-0199 או 03 555 0199.</p></document>"))
        #expect(located.diagnostics.warnings.map { [$0.location.line, $0.location.column] } == [[2, 11], [2, 32]])
        #expect(try warnings("<p>הזמנה (4839201) מיום (12.05.2024), טווח (1000000-2000000)</p>").isEmpty)
        #expect(try warnings(#"<p lang="ar">اتصل على ٠٥٠ ١٢٣ ٤٥٦٧ الآن</p>"#).count == 1)
        #expect(try warnings("<p>חייגו <bdi>+972 3 555 0199</bdi> או <ltr>(03) 555 0199</ltr>.</p>").isEmpty)
        #expect(try warnings(#"<p lang="en">Call +1 (800) 555-0199 any time.</p><p>טלפון: 03-555-0199</p>"#).isEmpty)
        #expect(try warnings("<p>שיחה: +972 3 555 0199</p>").count == 1)
        // Groups UAX #9 keeps in order, and only the "+" moved: said so (it said its groups).
        #expect(try warnings("<p>טלפון: +972-3-123-4567</p>") == [
            "the number '+972-3-123-4567' is not isolated: the right-to-left text around it moves its '+' to its other end"
        ])
        // A group of ten digits or more (a Saudi phone number without its "+") overflowed the
        // group's value: a crash, the whole batch lost.
        #expect(try warnings(#"<p lang="ar">اتصل بنا (966501234567)</p>"#).isEmpty)
        #expect(try warnings("<p>מספר הזמנה 12345678901 - 2</p>").count == 1)
        #expect(try warnings(#"<p lang="ar">رقم: 4929 1234567890123</p>"#).count == 1)
        // A ")" closes only its "(": two numbers side by side are not one in groups (the masked
        // card number is one, below).
        #expect(try warnings("<p>הוראת קבע (Visa \u{200F}•••• 4242) 120 ₪</p>") == [
            "the number '•••• 4242' is not isolated: the right-to-left text around it reorders its groups"
        ])
        // A masked number, shown by its last digits, is one: "•••• 4242" showed "4242 ••••".
        // Not isolated, nor in left-to-right text, nor signs that are no mask ("a** 12").
        #expect(try warnings(#"<p lang="ar">البطاقة **** **** **** 4242 صالحة</p>"#) == [
            "the number '**** **** **** 4242' is not isolated: the right-to-left text around it reorders its groups"
        ])
        #expect(try warnings("<p>הכרטיס <ltr>•••• 4242</ltr> יחויב, וגם a** 12 ו-• 34</p>").isEmpty)
        #expect(try warnings(#"<p lang="en">Card •••• 4242 is charged.</p>"#).isEmpty)
        // A hyphen between spaces joins groups, as it did.
        #expect(try warnings("<p>טלפון 050 - 123 - 4567 עכשיו</p>").count == 1)
        // A date of fewer digits is one number too ("12-05-24" showed "24-05-12"); a range,
        // of numbers or of two years, reads right to left as it should, and neither a
        // formation, a count nor two quantities side by side is one number.
        #expect(try warnings(#"<p lang="ar">التاريخ 12-05-24 اليوم</p>"#) == [
            "the number '12-05-24' is not isolated: the right-to-left text around it reorders its groups"
        ])
        #expect(try warnings(#"<p lang="ar">من 10-20 في 2020-2024 و١٩٩٠-٢٠٠٠ خطة 4-4-2 و4-2-3-1 والخطوات ١ - ٢ - ٣ عاش 1879-1955 وحكمت (1299 - 1922)</p>"#).isEmpty)
        #expect(try warnings(#"<p>אייפון 15 128 ג'יגה, ספירה 3 - 2 - 1 יציאה, בשנים 2020 - 2024 ודגמים 2023 2024</p>"#).isEmpty)
        #expect(try warnings(#"<p lang="ar">رقم 2024-2020 أو 5555-1234 أو 2123 2456 أو 4412-3456</p>"#).count == 4)
        #expect(try warnings(#"<p lang="ar">للفترة 2081-2100 والسعر 2000-2500 ريال</p>"#).isEmpty)
        // A date with dots is one number to UAX #9: a date and a time, or a range of dates, read
        // right to left as with slashes ("21.11.2026 14" was warned of, its ":30" cut off); a
        // phone number with dots between groups is still one.
        #expect(try warnings("<p>עודכן: 21.11.2026 14:30, תאריכים: 01.12.2026 - 15.12.2026 ו-2026.12.01 2026.12.15</p>").isEmpty)
        #expect(try warnings(#"<p lang="ar">التحديث 21.11.26 14:30</p>"#).isEmpty)
        #expect(try warnings("<p>טלפון: +1 555.010.2030</p>") == [
            "the number '+1 555.010.2030' is not isolated: the right-to-left text around it reorders its groups"
        ])
        // By their values: a Belgian phone number's dotted groups are no date; a range of
        // dotted times or amounts reads right to left as one of plain ones does.
        #expect(try warnings("<p>נייד 0470 12.34.56 או 030 12.34.5678</p>").count == 2)
        #expect(try warnings("<p>שעות 9.00 - 17.00 או 14.30 - 15.30, מחיר 100.50 - 200.75 או 1.000 - 2.000</p>").isEmpty)
        // A price between spaces with decimals or its currency sign is one number ("1 299,90 ₪"
        // showed "₪ 299,90 1", unsaid); with a no-break space UAX #9 keeps it whole, and without
        // either, numbers of fewer than seven digits side by side are two, as above.
        #expect(try warnings("<p>המחיר 1 299,90 ₪ לחודש, או ₪ 12 500 לשנה, או 1 299.90 בלי מע״מ.</p>") == [
            "the number '1 299,90' is not isolated: the right-to-left text around it reorders its groups",
            "the number '12 500' is not isolated: the right-to-left text around it reorders its groups",
            "the number '1 299.90' is not isolated: the right-to-left text around it reorders its groups",
        ])
        #expect(try warnings(#"<p lang="ar">السعر 1 299,90 ريال</p>"#).count == 1)
        #expect(try warnings("<p>המחיר <ltr>1 299,90 ₪</ltr> או 1\u{A0}299,90 ₪, דגם 15 128 ו-1 299 יחידות.</p>").isEmpty)
        // Quoted as typed, not in the digits it is shown in.
        let persian = try #require(layoutMarkup(#"<document lang="fa" numerals="auto"><p>تلفن: 021 8888 1234</p></document>"#))
        #expect(persian.diagnostics.warnings.map(\.message) == [
            "the number '021 8888 1234' is not isolated: the right-to-left text around it reorders its groups",
        ])
    }

    /// What an audit of numbers in right-to-left mockups found, each case checked on the page.
    @Test func numbersOfRightToLeftMockupsAreWarnedAboutWhenReordered() throws {
        func warnings(_ body: String, lang: String = "he") throws -> [String] {
            let result = try #require(layoutMarkup("<document lang=\"\(lang)\">\(body)</document>"))
            return result.diagnostics.warnings.map { $0.message.replacing("is not isolated: the right-to-left text around it ", with: "") }
        }
        // Two numbers, not one of seven digits: a price and its change, a rating and its count
        // ("189.84 (+2.31" was warned of; '<ltr>' would put the change first). In Hebrew, the
        // change's "+" is moved to its other end ("2.31%+"), which Hebrew's formats prevent.
        #expect(try warnings("<label>אפל 189.84 (+2.31%)</label><label>דירוג 4.8 (12345 ביקורות)</label>")
            == ["the number '+2.31' moves its '+' to its other end"])
        #expect(try warnings(#"<label>سهم أرامكو 27.85 (+0.36%)</label><label>التقييم 4.8 (12345 مراجعة)</label>"#, lang: "ar").isEmpty)
        // A code of groups of three ("917 482" was shown, unsaid).
        #expect(try warnings("<label>קוד האימות שלך: 482 917</label><title>482 917</title>")
            == ["the number '482 917' reorders its groups", "the number '482 917' reorders its groups"])
        #expect(try warnings("<label>קוד: <ltr>482 917</ltr></label>").isEmpty)
        // A sign in Hebrew: "-5°" was shown "5°-"; not after a letter ("ב-5"), nor with a
        // left-to-right mark before it, nor in Arabic.
        #expect(try warnings("<label>הטמפרטורה -5° בלילה, יתרה: -1,299.90 ₪</label><title>-5°</title>") == [
            "the number '-5' moves its '-' to its other end", "the number '-1,299.90' moves its '-' to its other end",
            "the number '-5' moves its '-' to its other end",
        ])
        #expect(try warnings("<label>ב-5 בנובמבר, הטמפרטורה \u{200E}-5°</label>").isEmpty)
        #expect(try warnings(#"<label>درجة الحرارة -5°</label>"#, lang: "ar").isEmpty)
        // A hyphenated date and a time, one number to UAX #9 in Hebrew, as with dots; a time or
        // a date and a price after it are not one number ("30 120", "05 120.00").
        #expect(try warnings("<label>עודכן 2024-05-12 14:30, 12-05-2024 14:30</label>").isEmpty)
        #expect(try warnings("<label>נסיעה בשעה 14:30 120 ₪, חיוב 12/05 120.00 ₪</label>").isEmpty)
        #expect(try warnings("<label>ויזה •••• 4242 120 ₪</label>") == ["the number '•••• 4242' reorders its groups"])
        // A masked number without a space.
        #expect(try warnings("<label>כרטיס ••••4242 או ****4242</label>")
            == ["the number '••••4242' reorders its groups", "the number '****4242' reorders its groups"])
        // Lists read right to left as they should: sizes, years newest first, rooms; an
        // account's groups are one number.
        #expect(try warnings("<label>מידות: 36 37 38 39 40, ארכיון: 2024 2023 2022, חדרים 101 102 103 או 101 102</label>").isEmpty)
        #expect(try warnings("<label>מספר לקוח: 123 456 789, חשבון 12 34 56 78</label>")
            == ["the number '123 456 789' reorders its groups", "the number '12 34 56 78' reorders its groups"])
        // A number in a bracket closed after other text is a number ("(+972 3 555 0199, 24/7)"
        // was nothing, and broke between its groups); after a slash, a whole one; a sign and
        // the number after it are said once.
        #expect(try warnings("<label>מוקד (+972 3 555 0199, 24/7), טלפון: 03 555 0199/+972 50 123 4567</label>") == [
            "the number '+972 3 555 0199' reorders its groups", "the number '03 555 0199' reorders its groups",
            "the number '+972 50 123 4567' reorders its groups",
        ])
        #expect(try warnings("<label>יתרה: -1 299,90 ₪, התקשרו (+972) 3 555 0199</label>")
            == ["the number '1 299,90' reorders its groups", "the number '(+972) 3 555 0199' reorders its groups"])
        // A price with its currency in letters, or a round one.
        #expect(try warnings("<label>המחיר 12 500 ש״ח, יותר מ-10 000 הורדות</label>")
            == ["the number '12 500' reorders its groups", "the number '10 000' reorders its groups"])
        #expect(try warnings(#"<label>السعر 12 500 ر.س والسعر ١ ٢٩٩٫٩٠ ر.س</label>"#, lang: "ar")
            == ["the number '12 500' reorders its groups", "the number '١ ٢٩٩٫٩٠' reorders its groups"])
    }

    @Test func explicitAlignments() {
        let b = blocks("""
            <document lang="ar"><label align="start">a</label><label align="end">a</label>
            <label align="left">a</label><label align="right">a</label><label align="center">a</label></document>
            """)
        #expect(b.map(\.align) == ["right", "left", "left", "right", "center"])
        #expect(b.allSatisfy { $0.linesFollowAlignment() })
    }

    @Test func containerDirectionSetsTheContext() {
        let b = blocks(#"<document lang="en"><stack dir="rtl"><label>Hello</label></stack><label>Hello</label></document>"#)
        #expect(b.map(\.context) == ["rtl", "ltr"])
        #expect(b.map(\.align) == ["right", "left"])
    }
}

@Suite struct ListAlignmentTests {
    // 4.2: one alignment for every item, markers on the list's start side.
    @Test func mixedScriptsShareTheListAlignment() {
        let b = blocks("""
            <document lang="ar" width="320"><list type="number">
              <item>حليب</item>
              <item>A long English item that certainly wraps over three or more lines in this narrow list of a phone screen</item>
              <item>לחם</item>
            </list></document>
            """)
        #expect(b.count == 3)
        #expect(b[1].lines.count >= 3)
        #expect(b.allSatisfy { $0.align == "right" && $0.context == "rtl" })
        #expect(b.allSatisfy { $0.linesFollowAlignment() })
        for item in b {
            let marker = try! #require(item.marker)
            #expect(marker.x >= item.frame.x + item.frame.width, "the marker stands right of the text")
        }
        #expect(b.compactMap(\.marker?.text) == ["1.", "2.", "3."])
    }

    /// 4.2 holds inside a centered stack or row: the items keep to the list's start side,
    /// beside their markers (they were centered, far from their numbers). An `align` on the list
    /// or the item itself still counts.
    @Test func listsKeepTheirAlignmentInsideAlignedContainers() {
        let b = blocks("""
            <document lang="ar" width="320"><stack align="center"><heading>مرحبا بك</heading>
              <list type="number"><item>البند الأول</item><item>English item</item></list></stack>
              <row align="left"><list><item>حليب</item><item>Milk</item></list><label>نص</label></row>
              <stack align="center"><list align="left"><item>حليب</item></list><list><item align="left">حليب</item></list></stack>
              <stack align="left"><list align="center"><item>حليب</item><list><item>ماء</item></list></list></stack>
            </document>
            """)
        // A list nested in a centered list is centered too; the stack's `left` reaches neither.
        #expect(b.map(\.align) == ["center", "right", "right", "right", "right", "left", "left", "left", "center", "center"])
        #expect(b.filter { $0.kind == "item" && $0.align == "right" }.allSatisfy { $0.linesFollowAlignment() })
        // An item's own `align` is set, and said: it sets the item apart from the others.
        // (Not when every item has the same, nor for the list's own, nor for `natural`, the default.)
        func warnings(_ list: String) -> [String] {
            MarkupParser.parse(bytes: Array("<document>\(list)</document>".utf8), file: "t.xml").diagnostics.warnings.map(\.message)
        }
        #expect(warnings(#"<list><item align="center">a</item><item>b</item></list>"#)
            == ["'align' on an item sets it apart from the other items of its list, which share one alignment"])
        for alike in [
            #"<list align="center"><item align="center">a</item><item>b</item></list>"#,
            #"<list><item align="center">a</item><item align="center">b</item></list>"#,
            #"<list><item align="end">a</item></list>"#, #"<list><item align="natural">a</item><item>b</item></list>"#,
        ] {
            #expect(warnings(alike).isEmpty, "\(alike)")
        }
    }

    @Test func leftToRightListInRightToLeftDocument() {
        let b = blocks(#"<document lang="he"><list dir="ltr"><item>Milk</item><item>חלב</item><item>حليب</item></list></document>"#)
        #expect(b.count == 3 && b.allSatisfy { $0.align == "left" && $0.context == "ltr" })
        for item in b {
            let marker = try! #require(item.marker)
            #expect(marker.x + marker.width <= item.frame.x, "the marker stands left of the text")
            #expect(marker.text == "•")
        }
    }

    /// The room for markers is measured in the digits shown: Arabic-Indic digits are narrower
    /// than Latin, and the list reserved Latin widths, leaving twice the gap before the text.
    @Test func markersStandAsCloseWhateverTheirDigits() {
        let items = (1...10).map { "<item>بند \($0)</item>" }.joined()
        var gaps: [String: Double] = [:]
        for numerals in ["latn", "arab"] {
            let b = blocks(#"<document lang="ar" numerals="\#(numerals)"><list type="number">\#(items)</list></document>"#)
            #expect(b.last?.marker?.text == (numerals == "latn" ? "10." : "١٠."))
            // In RTL the marker stands right of its item: the gap is from the text's end to it.
            let all = b.compactMap { item in item.marker.map { $0.x - (item.frame.x + item.frame.width) } }
            #expect(all.count == 10)
            gaps[numerals] = all.min()
        }
        // The widest marker of each is 9 pt from its text, and none is closer.
        #expect(gaps["latn"].map { abs($0 - 9) < 0.01 } == true, "\(gaps)")
        #expect(gaps["arab"].map { abs($0 - 9) < 0.01 } == true, "\(gaps)")
        // Arabic-Indic digits differ in width: with 4 items "٣." is the widest, not the last.
        let four = blocks(#"<document lang="ar" numerals="arab"><list type="number"><item>أ</item><item>ب</item><item>ج</item><item>د</item></list></document>"#)
        let fourGaps = four.compactMap { item in item.marker.map { $0.x - (item.frame.x + item.frame.width) } }
        #expect(fourGaps.count == 4 && abs((fourGaps.min() ?? 0) - 9) < 0.01, "\(fourGaps)")
        // The gap grows with Dynamic Type, as the text does: 9 pt at Large (17 pt), 28 pt at
        // AX5 (53 pt), where a fixed 9 pt left "1.عنصر" nearly touching.
        let large = try! #require(layoutMarkup(#"<document lang="ar"><list type="number">\#(items)</list></document>"#,
                                               options: LayoutOptions(bodySize: 53)))
        let ax5 = large.report.pages.flatMap(\.blocks).compactMap { item in
            item.marker.map { $0.x - (item.frame.x + item.frame.width) }
        }
        #expect(!ax5.isEmpty && abs((ax5.min() ?? 0) - 9 * 53 / 17) < 0.01, "\(ax5)")
        // Bullet lists nested three deep still have room at AX5 on a phone.
        let nested = try! #require(layoutMarkup(
            #"<document device="iphone-se"><list><item>a</item><list><item>b</item><list><item>c</item></list></list></list></document>"#,
            options: LayoutOptions(bodySize: 53)))
        #expect(nested.diagnostics.items.isEmpty, "\(nested.diagnostics.items)")
    }

    /// Numbers end in a column, their periods under each other ("9." over "10."), on the
    /// start side of either direction; they stood flush with the margin, 9 pt from the text
    /// for the widest and more for the others.
    @Test func numbersEndInAColumn() {
        let items = (1...10).map { "<item>Item \($0)</item>" }.joined()
        for (lang, numerals) in [("en", "latn"), ("ar", "arab"), ("ar", "latn")] {
            let b = blocks(#"<document lang="\#(lang)" numerals="\#(numerals)"><list type="number">\#(items)</list></document>"#)
            let markers = b.compactMap(\.marker)
            #expect(markers.count == 10)
            // The text side of each marker: its end in LTR, its start in RTL; 9 pt from the text.
            let sides = zip(b, markers).map { item, marker in
                lang == "ar" ? marker.x - (item.frame.x + item.frame.width) : item.frame.x - (marker.x + marker.width)
            }
            #expect(sides.allSatisfy { abs($0 - 9) < 0.01 }, "\(lang) \(numerals): \(sides)")
        }
        // Bullets still stand at the margin.
        let bullets = blocks(#"<document lang="ar"><list><item>أ</item><item>ب</item></list></document>"#)
        #expect(bullets.allSatisfy { item in item.marker.map { abs($0.x + $0.width - 374) < 0.01 } == true })
    }

    @Test func easternArabicNumbersCountInReadingOrder() {
        let b = blocks(#"<document lang="ar" numerals="arab"><list type="number"><item>أ</item><item>ب</item><item>ج</item></list></document>"#)
        #expect(b.compactMap(\.marker?.text) == ["١.", "٢.", "٣."])
        let tops = b.map { $0.frame.y }
        #expect(tops == tops.sorted(), "item 1 is on top")
        let auto = blocks(#"<document lang="fa" numerals="auto"><list type="number"><item>الف</item></list></document>"#)
        #expect(auto.compactMap(\.marker?.text) == ["۱."])
    }

    /// A marker is in its item's own style, not that of the item's first words, and stands
    /// clear of the text however large the items: a 60 pt first word made a 60 pt "1." that ran
    /// into it, and a 60 pt item's marker reached into its frame.
    @Test func markersStandClearOfTheirItems() throws {
        let ltr = blocks(#"<document><list type="number"><item><span size="60">Big</span> text</item><item>Normal</item></list></document>"#)
        #expect(ltr.count == 2)
        #expect(ltr.compactMap(\.marker?.width) == [ltr[1].marker?.width ?? 0, ltr[1].marker?.width ?? 0], "both at body size")
        let big = #"<list type="number"><item size="60">كبير</item><item>صغير</item></list><list><item size="60">כן</item></list>"#
        for document in [#"<document lang="ar">"# + big + "</document>", #"<document lang="en">"# + big + "</document>"] {
            let items = blocks(document)
            #expect(items.count == 3)
            for item in items + ltr {
                let marker = try #require(item.marker)
                if item.context == "rtl" {
                    #expect(marker.x >= item.frame.x + item.frame.width, "\(document): \(marker) \(item.frame)")
                } else {
                    #expect(marker.x + marker.width <= item.frame.x, "\(document): \(marker) \(item.frame)")
                }
            }
            #expect(items[0].frame.x == items[1].frame.x && items[0].frame.width == items[1].frame.width, "one column")
        }
    }

    @Test func nestedListsAreIndentedOnTheStartSide() {
        let rtl = blocks(#"<document lang="he"><list><item>א</item><list><item>ב</item></list></list></document>"#)
        #expect(rtl.count == 2)
        #expect(rtl[1].frame.x + rtl[1].frame.width < rtl[0].frame.x + rtl[0].frame.width)
        let ltr = blocks(#"<document lang="en"><list><item>a</item><list><item>b</item></list></list></document>"#)
        #expect(ltr[1].frame.x > ltr[0].frame.x)
        // So is one without markers (its items stood under their parent's text); a top-level
        // one is not.
        for lang in ["en", "he"] {
            let plain = blocks(#"<document lang="\#(lang)"><list><item>a</item><list type="none"><item>b</item></list></list></document>"#)
            let (outer, inner) = (plain[0].frame, plain[1].frame)
            if lang == "en" {
                #expect(inner.x >= outer.x + 19.9, "\(outer) \(inner)")
            } else {
                #expect(inner.x + inner.width <= outer.x + outer.width - 19.9, "\(outer) \(inner)")
            }
        }
        let top = blocks(#"<document><label>x</label><list type="none"><item>b</item></list></document>"#)
        #expect(top[1].frame.x == top[0].frame.x)
        // One of the other direction is a level in on its own start side too (its markers
        // stood at the margin, as a first level's).
        let other = blocks(
            #"<document lang="ar"><list><item>أ</item><list dir="ltr"><item>b</item></list></list>"#
                + #"<list dir="ltr"><item>a</item><list dir="rtl"><item>ب</item></list></list></document>"#)
        let (ltrMarker, rtlMarker) = (other[1].marker?.x ?? 0, other[3].marker?.x ?? 0)
        #expect(ltrMarker >= other[2].marker!.x + 19.9, "\(other.map(\.frame))")
        #expect(rtlMarker + other[3].marker!.width <= other[0].marker!.x + other[0].marker!.width - 19.9, "\(other.map(\.frame))")
        #expect(other[1].frame.x + other[1].frame.width == other[0].frame.x + other[0].frame.width)
        // In a row too, and as wide as bullets at every text size.
        let inRow = blocks(#"<document><row><list><item>a</item><list type="none"><item>b</item></list></list><label>x</label></row></document>"#)
        #expect(inRow[1].frame.x >= inRow[0].frame.x + 19.9, "\(inRow.map(\.frame))")
        let large = try! #require(layoutMarkup(
            #"<document><list><item>a</item><list type="none"><item>b</item></list><list><item>c</item></list></list></document>"#,
            options: LayoutOptions(bodySize: 53)))
        let items = large.report.pages[0].blocks
        #expect(items[1].frame.x == items[2].frame.x && items[1].frame.x > 60, "\(items.map(\.frame))")
    }
}

/// Lists, rows and stacks pass `align`, `size`, `weight`, `line-height` and `color` on to what
/// they hold, as CSS does: what a block sets itself wins, and so do an element's own defaults
/// (a title's size and weight, a caption's size, a button's centering, weight and white text).
/// But a list's items take `align` only from the list (4.2).
@Suite struct InheritanceTests {
    @Test func containersPassTheirTextStyleOn() throws {
        let b = blocks(##"""
            <document><stack size="20" color="#808080" align="center" line-height="2">
              <label>inherits</label><label size="12" align="left">overrides</label>
              <row weight="light"><label>in a row</label><button>OK</button></row>
              <list><item>item</item></list><title>Title</title><caption>caption</caption>
            </stack><label>outside</label></document>
            """##)
        #expect(b.map(\.text) == ["inherits", "overrides", "in a row", "OK", "item", "Title", "caption", "outside"])
        #expect(b.map { $0.lines[0].runs[0].size } == [20, 12, 20, 20, 20, 34, 12, 17])
        // The item keeps to its list's start side (4.2): a list's items take `align` only from it.
        #expect(b.map(\.align) == ["center", "left", "center", "center", "left", "center", "center", "left"])
        #expect(b[0].frame.height == 40, "line-height 2 × 20 pt")
        let result = try #require(layoutMarkup(##"""
            <document><stack color="#808080" weight="light"><label>grey</label><title>T</title><button>OK</button></stack></document>
            """##))
        let runs = result.pages[0].items.compactMap { item -> GlyphRun? in if case .glyphs(let run) = item { run } else { nil } }
        let grey = Color(red: 128 / 255, green: 128 / 255, blue: 128 / 255)
        #expect(runs.map(\.color) == [grey, grey, .white], "a button's text stays white")
        // Light (Noto Sans has no light: regular) for the label; the title and button keep bold.
        #expect(runs.map { ($0.font.path as NSString).lastPathComponent } == [
            "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Bold.ttf",
        ])
    }
}

@Suite struct BalancingTests {
    /// The size of each script's runs in `block`. Runs of one script at two sizes (a block
    /// balanced in part) fail the test.
    func sizes(_ block: ReportBlock, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String: Double] {
        var result: [String: Double] = [:]
        for run in block.lines.flatMap(\.runs) where !run.text.trimmingCharacters(in: .whitespaces).isEmpty {
            if let earlier = result[run.script], earlier != run.size {
                Issue.record("\(run.script) runs at \(earlier) and \(run.size) pt in one block", sourceLocation: sourceLocation)
            }
            result[run.script] = run.size
        }
        return result
    }

    // 4.3: Arabic and Hebrew next to all-caps Latin in titles, headings, labels and buttons.
    @Test func sameElement() {
        let b = blocks(#"<document><label>DOWNLOAD تنزيل</label><button>OK הורדה</button><title>NEW חדש</title><heading>FAQ الأسئلة</heading></document>"#)
        #expect(sizes(b[0]) == ["Latn": 17, "Arab": 19])
        #expect(sizes(b[1]) == ["Latn": 17, "Hebr": 19])
        #expect(sizes(b[2]) == ["Latn": 34, "Hebr": 36])
        #expect(sizes(b[3]) == ["Latn": 22, "Arab": 24])
    }

    @Test func siblingsInARow() {
        let b = blocks(#"<document width="480"><row><button>DOWNLOAD</button><button>تنزيل</button><button>הורדה</button></row></document>"#)
        #expect(b.map { sizes($0) } == [["Latn": 17], ["Arab": 19], ["Hebr": 19]])
        // The line grows to fit the larger size.
        #expect(b[1].frame.height > b[0].frame.height)
    }

    /// Text side by side in a row shares its first baseline: a balanced Hebrew label (19 pt)
    /// beside "GPS" (17 pt) sat 2 pt lower, top-aligned; a heading beside a caption likewise.
    /// Buttons keep their own rule (as tall as the tallest, text centered).
    @Test func textSideBySideSharesItsFirstBaseline() throws {
        let b = blocks("""
            <document lang="he"><row><label>GPS</label><label>מופעל</label></row>
            <row><heading>Title</heading><caption>small print</caption><label>x</label></row>
            <row><button>OK</button><button>אישור</button></row></document>
            """)
        #expect(b.count == 7)
        #expect(sizes(b[1]) == ["Hebr": 19], "balanced")
        for row in [b[0...1], b[2...4]] {
            let baselines = row.map { $0.lines[0].baseline }
            #expect(Set(baselines).count == 1, "\(row.map(\.text)): \(baselines)")
        }
        // The largest text stays at the row's top; the smaller moves down to its baseline.
        #expect(b[0].frame.y > b[1].frame.y && b[1].frame.y == 16)
        #expect(b[3].frame.y > b[2].frame.y && b[4].frame.y > b[2].frame.y)
        #expect(abs((b[5].frame.y + b[5].frame.height / 2) - (b[6].frame.y + b[6].frame.height / 2)) < 0.001, "centered")

        // A label or a caption beside a button stands on its title's baseline (it was 11 pt
        // above it); a title lower than the button's moves the button down, whole.
        let buttons = try #require(layoutMarkup("""
            <document lang="ar"><row><label>البريد الإلكتروني</label><button>تحقق</button></row>
            <row><caption>آخر مزامنة</caption><button>مزامنة</button><button>إلغاء الأمر الآن</button></row>
            <row><title>الإعدادات</title><button>تم</button></row></document>
            """))
        let placed = buttons.report.pages[0].blocks
        // (The third button's title wraps to two lines: the caption takes the lower baseline.)
        #expect(placed[4].lines.count == 2)
        for row in [[placed[0], placed[1]], [placed[2], placed[3]], [placed[5], placed[6]]] {
            let baselines = row.map { $0.lines[0].baseline }
            #expect(abs(baselines[0] - baselines[1]) < 0.001, "\(row.map(\.kind)): \(baselines)")
        }
        let shapes = buttons.pages[0].items.compactMap { item -> RectangleItem? in
            if case .rectangle(let shape) = item { shape } else { nil }
        }
        #expect(shapes.count == 4)
        #expect(shapes[1].y == shapes[2].y && shapes[1].height == shapes[2].height, "buttons keep one box")
        #expect(shapes[3].y > placed[5].frame.y, "the title's button moved down")
        let middle = placed[6].frame.y + placed[6].frame.height / 2
        #expect(abs(shapes[3].y + shapes[3].height / 2 - middle) < 0.001, "its title still centered")

        // A stack, a nested row or a list beside them goes by its first block's first baseline
        // (a label stood 11 pt above the titles of a nested row of buttons), and moves whole.
        let nested = try #require(layoutMarkup("""
            <document lang="he"><row><label>מצב</label><row><button>כן</button><button>לא</button></row></row>
            <row><label>WI-FI</label><stack><label>רשת</label><caption>מחובר</caption></stack><button>עריכה</button></row>
            <row><caption>x</caption><list><item>one</item><item>two</item></list></row></document>
            """)).report.pages[0].blocks
        #expect(nested.count == 10)
        for row in [nested[0...2], nested[3...4] + [nested[6]], nested[7...8]] {
            let baselines = row.map { $0.lines[0].baseline }
            #expect(baselines.allSatisfy { abs($0 - baselines[0]) < 0.001 }, "\(row.map(\.text)): \(baselines)")
        }
        #expect(nested[5].frame.y > nested[4].frame.y + nested[4].frame.height - 0.001, "the caption stays under its label")
        #expect(nested[9].frame.y > nested[8].frame.y, "the list's second item stays under its first")
    }

    @Test func onlyDirectChildrenOfTheRowAreSiblings() {
        // Labels inside a stack of the row are not its children: neither way round.
        let inner = blocks(#"<document><row><label>NEW</label><stack><label lang="ar">جديد</label></stack></row></document>"#)
        #expect(inner.map { sizes($0) } == [["Latn": 17], ["Arab": 17]])
        let outer = blocks(#"<document><row><stack><label>NEW</label></stack><label lang="ar">جديد</label></row></document>"#)
        #expect(outer.map { sizes($0) } == [["Latn": 17], ["Arab": 17]])
        // A row inside the stack has siblings of its own.
        let nested = blocks(#"<document><row><label>x</label><stack><row><label>NEW</label><label>جديد</label></row></stack></row></document>"#)
        #expect(nested.map { sizes($0) } == [["Latn": 17], ["Latn": 17], ["Arab": 19]])
    }

    @Test func noBalancing() {
        let b = blocks("""
            <document><label>Download تنزيل</label><p>DOWNLOAD تنزيل</p><caption>NEW חדש</caption>
            <list><item>NEW חדש</item></list><label>A תנזיל</label>
            <row><button>Download</button><button>تنزيل</button></row></document>
            """)
        #expect(b.map(\.kind) == ["label", "p", "caption", "item", "label", "button", "button"])
        for block in b { #expect(block.lines.flatMap(\.runs).allSatisfy { $0.size == 17 || $0.size == 12 }, "\(block.kind) \(block.text)") }
    }

    /// "All capitals" is asked of each stretch of Latin between letters of other scripts: an
    /// element with "PDF" beside its Arabic is balanced even if "iCloud" is in it too.
    @Test func eachStretchOfLatinCounts() {
        let b = blocks("""
            <document lang="ar"><title>ملفات PDF من iCloud</title><label>تنزيل DVD أو Blu-ray</label>
            <label>جهاز iPhone 15 PRO</label><label>حفظ A B</label></document>
            """)
        #expect(b.map { sizes($0) } == [
            ["Latn": 34, "Arab": 36], ["Latn": 17, "Arab": 19], ["Latn": 17, "Arab": 17], ["Latn": 17, "Arab": 19],
        ])
    }

    /// One word, one size: the digit of "5G" takes the script of the Arabic or Hebrew before it
    /// (for its font), and was set 2 pt larger than its G.
    @Test func aLatinWordIsNotBalancedInPart() {
        for (lang, word) in [("ar", "باقة"), ("he", "חבילה")] {
            let runs = blocks(#"<document lang="\#(lang)"><label>\#(word) 5G PRO</label></document>"#)[0].lines
                .flatMap(\.runs)
            let latin = runs.filter { $0.text.contains("5") || $0.text.contains("G") }
            #expect(!latin.isEmpty && latin.allSatisfy { $0.size == 17 }, "\(runs.map { ($0.text, $0.size) })")
            let rightToLeft = runs.filter { $0.text.contains(word) }
            #expect(!rightToLeft.isEmpty && rightToLeft.allSatisfy { $0.size == 19 }, "\(runs.map { ($0.text, $0.size) })")
        }
    }

    /// What stands between two words is balanced between two balanced words only: by the script
    /// such characters take from the text before them, the first dash of
    /// "تنزيل — DOWNLOAD — تنزيل" was 2 pt larger than the second, and the space of "חדש NEW"
    /// 2 pt larger than that of "NEW جديد"; balanced beside a balanced word on either side, a
    /// dash ending a line of Latin made it 19 pt tall ("DOWNLOAD —<br/>تنزيل").
    @Test func whatStandsBetweenWordsIsBalancedBetweenBalancedWords() {
        let b = blocks(#"""
            <document lang="ar"><button>تنزيل — DOWNLOAD — تنزيل</button><label>NEW جديد</label>
            <label lang="he">חדש NEW</label><label>حفظ · حفظ | PDF</label><label>USB / DVD — جديد</label>
            <label>DOWNLOAD —<br/>تنزيل</label><title>تنزيل " PDF " الآن</title>
            <label>—<br/>تنزيل DOWNLOAD</label><label lang="he">חיבור ה-USB</label>
            <label>تنزيل—DOWNLOAD—تنزيل ب.ت PDF</label></document>
            """#)
        func runs(_ block: Int) -> [(String, Double)] { b[block].lines.flatMap(\.runs).map { ($0.text, $0.size) } }
        func sizes(of text: String, in block: Int) -> [Double] { runs(block).filter { $0.0.contains(text) }.map(\.1) }
        #expect(sizes(of: "—", in: 0) == [17, 17], "\(runs(0))")
        #expect(sizes(of: "تنزيل", in: 0) == [19, 19], "\(runs(0))")
        for block in 1...2 { #expect(Set(sizes(of: " ", in: block)) == [17], "\(runs(block))") }
        #expect(sizes(of: "·", in: 3) == [19] && sizes(of: "|", in: 3) == [17], "\(runs(3))")
        #expect(sizes(of: "/", in: 4) == [17] && sizes(of: "—", in: 4) == [17], "\(runs(4))")
        // The line of Latin keeps its 17 pt line box.
        #expect(b[5].lines.count == 2 && sizes(of: "—", in: 5) == [17], "\(runs(5))")
        #expect(abs(b[5].frame.height - (17 * 1.3 + 19 * 1.3)) < 0.01, "\(b[5].frame)")
        // Nor alone on its line at the text's start; a hyphen that ends a prefix goes with it.
        #expect(sizes(of: "—", in: 7) == [17] && abs(b[7].frame.height - (17 * 1.3 + 19 * 1.3)) < 0.01, "\(runs(7))")
        #expect(sizes(of: "-", in: 8) == [19] && sizes(of: "USB", in: 8) == [17], "\(runs(8))")
        // So is punctuation between the letters of a word.
        #expect(sizes(of: "—", in: 9) == [17, 17] && sizes(of: "ب.ت", in: 9) == [19], "\(runs(9))")
        // Quotation marks go with what they enclose, even apart from it by spaces.
        #expect(Set(sizes(of: "\"", in: 6)) == [34] && sizes(of: "الآن", in: 6) == [36], "\(runs(6))")
    }

    /// A number is not balanced: "2.5" and "10:30" after Hebrew or Arabic were 2 pt larger than
    /// their "GB" and "AM", and a typed ٢٫٥ was 2 pt larger than a 2.5 that `numerals` showed as
    /// the same ٢٫٥.
    @Test func numbersAreNotBalanced() {
        for (lang, word) in [("he", "גודל"), ("ar", "الحجم")] {
            let runs = blocks(#"<document lang="\#(lang)"><label>\#(word) 2.5 GB בשעה 10:30 AM</label></document>"#)[0]
                .lines.flatMap(\.runs)
            let latin = runs.filter { $0.text.contains { "0123456789GBAM:.".contains($0) } }
            #expect(!latin.isEmpty && latin.allSatisfy { $0.size == 17 }, "\(runs.map { ($0.text, $0.size) })")
            let rightToLeft = runs.filter { $0.text.contains(word) || $0.text.contains("בשעה") }
            #expect(rightToLeft.count >= 1 && rightToLeft.allSatisfy { $0.size == 19 }, "\(runs.map { ($0.text, $0.size) })")
        }
        // Typed in Arabic-Indic or Persian digits, or shown in them: one size.
        let typed = blocks(#"""
            <document lang="ar" numerals="arab"><label>المساحة 2.5 GB</label><label>المساحة ٢٫٥ GB</label>
            <label>٢٫٥ GB</label><label>المساحة ۲٫۵ GB</label><button>NEW جديد ٣</button></document>
            """#)
        for block in typed {
            let runs = block.lines.flatMap(\.runs)
            let digits = runs.filter { $0.text.unicodeScalars.contains { $0.properties.numericType == .decimal } }
            #expect(!digits.isEmpty && digits.allSatisfy { $0.size == 17 }, "\(runs.map { ($0.text, $0.size) })")
        }
        #expect(typed.map { $0.lines.flatMap(\.runs).contains { $0.size == 19 } } == [true, true, false, true, true])
        // Shown as 0-9 (`latn`), with an Arabic percent sign, after a Hebrew prefix and its maqaf
        // or hyphen: Latin type all the same.
        for (markup, number) in [
            (#"<document lang="ar" numerals="latn"><label>الحجم ٢٫٥ GB</label></document>"#, "2.5"),
            (#"<document lang="ar"><label>خصم 50٪ PRO</label></document>"#, "50"),
            (#"<document lang="he"><label>פתוח ב-10:30 AM</label></document>"#, "10:30"),
            (#"<document lang="he"><label>פתוח ב־10:30 AM</label></document>"#, "10:30"),
            // A minus begins its word: it was cut off from it, and balanced apart.
            (#"<document lang="ar"><label>NEW الحرارة -5</label></document>"#, "-5"),
            (#"<document lang="ar"><label>خصم -50% PRO</label></document>"#, "-50%"),
            (#"<document lang="ar"><label>جديد -PRO</label></document>"#, "-PRO"),
            (#"<document lang="ar"><label>NEW الحرارة <ltr>-5</ltr> (-7)</label></document>"#, "-57"),
            // A dash between numbers stands between words: it was set 2 pt larger, its line taller.
            (#"<document lang="he"><label>NEW שעות 10 - 20 - 30</label></document>"#, "10-23"),
            // A currency or percent sign apart from its number by a space takes its size (the
            // shekel sign of CLDR's "49.90 ₪" was 2 pt larger than its price).
            (#"<document lang="he"><label>USB-C ב-49.90 ₪ בלבד</label></document>"#, "49.0₪"),
            (#"<document lang="ar"><label>PRO خصم € 20 و 50 % و ٥٠ ٪</label></document>"#, "€205%٥٪"),
            // With punctuation, brackets and the bidi marks a number formatter writes.
            (#"<document lang="he"><label>USB-C מחיר 49.90 ₪, משלוח (10 ₪)</label></document>"#, "49.01₪"),
            (#"<document lang="ar"><label>PRO خصم ٥٠&#xA0;٪&#x61C; و 50 &#x200E;%&#x200E;</label></document>"#, "٥٠٪5%"),
        ] {
            let runs = blocks(markup)[0].lines.flatMap(\.runs)
            let sizes = runs.filter { $0.text.contains { number.contains($0) } }.map(\.size)
            #expect(!sizes.isEmpty && sizes.allSatisfy { $0 == 17 }, "\(markup): \(runs.map { ($0.text, $0.size) })")
            #expect(runs.contains { $0.size == 19 }, "\(markup): the Arabic or Hebrew is balanced")
        }
    }

    /// `numerals` changes how digits look, not their size: "SALE 50" shows Arabic-Indic
    /// digits, of the Arabic script, and they were set 2 pt larger than the Latin digits.
    @Test func substitutedDigitsAreNotBalanced() {
        for numerals in ["latn", "arab"] {
            let b = blocks(#"<document lang="ar" numerals="\#(numerals)"><label>تنزيل SALE 50 الآن</label></document>"#)
            let runs = b[0].lines.flatMap(\.runs)
            let digits = runs.filter { $0.text.unicodeScalars.contains { $0.properties.numericType == .decimal } }
            #expect(!digits.isEmpty && digits.allSatisfy { $0.size == 17 }, "\(numerals): \(runs.map { ($0.text, $0.size) })")
            let arabic = runs.filter { $0.text.contains("الآن") || $0.text.contains("تنزيل") }
            #expect(!arabic.isEmpty && arabic.allSatisfy { $0.size == 19 })
        }
    }

    /// A pair of brackets or quotation marks is set in one size, that of what it encloses:
    /// larger around Arabic or Hebrew, the Latin size around Latin letters or digits (the
    /// closing one was Latin after "PDF", 2 pt smaller than its Arabic partner; then both were
    /// 2 pt larger than the "PDF" they enclose), its script's around neither.
    @Test func aPairOfBracketsOrQuotesTakesTheSizeOfWhatItEncloses() {
        for (text, balancedPairs) in [
            ("حفظ (PDF)", ""), ("שמור (PDF) 2.0", ""), ("حفظ [PDF {OK}] نعم", ""), ("PDF (تنزيل)", "()"),
            ("OK [نعم {PRO}]", "[]"), ("حفظ (2026) PRO", ""), ("NEW «جديد»", "«»"), ("NEW \"חדש\"", "\"\""),
            ("«NEW» جديد", ""), ("جديد (…) PRO", "()"),
        ] {
            let runs = blocks(#"<document lang="ar"><button>\#(text)</button></document>"#)[0].lines.flatMap(\.runs)
            func sizes(_ mark: Character) -> [Double] { runs.filter { $0.text.contains(mark) }.map(\.size) }
            for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("«", "»"), ("\"", "\"")] as [(Character, Character)]
            where text.contains(open) {
                let expected: Double = balancedPairs.contains(open) ? 19 : 17
                #expect(sizes(open).first == expected && sizes(close).last == expected, "\(text): \(runs.map { ($0.text, $0.size) })")
            }
        }
    }

    @Test func balanceIsConfigurable() {
        #expect(sizes(blocks(#"<document rtl-balance="0"><label>OK שלום</label></document>"#)[0])["Hebr"] == 17)
        #expect(sizes(blocks(#"<document rtl-balance="3"><label>OK שלום</label></document>"#)[0])["Hebr"] == 20)
    }
}

@Suite struct NumberTests {
    // 4.5: digits never reversed; numerals substitute for display.
    @Test func digitsKeepTheirOrderAndSubstitute() {
        let b = blocks(#"<document lang="ar" numerals="arab"><label>السعر 1234 ريال</label></document>"#)
        let runs = b[0].lines[0].runs
        #expect(runs.contains { $0.text == "١٢٣٤" && $0.level == 2 })
        let ext = blocks(#"<document lang="fa" numerals="arabext"><label>قیمت 56</label></document>"#)
        #expect(ext[0].lines[0].runs.contains { $0.text == "۵۶" })
        let span = blocks(#"<document><label>Total <span numerals="arab">42</span> and 42</label></document>"#)
        #expect(span[0].text == "Total ٤٢ and 42")
        // The digits of a word with a Latin letter are a name's or a code's, not a number's.
        let codes = blocks(#"<document lang="ar" numerals="arab"><p>ملف MP3 و COVID-19 و <ltr>A1B2-C3</ltr> على https://x.com/a1?id=42 بسعر 15 (2024)</p></document>"#)
        let codeRuns = codes[0].lines.flatMap(\.runs).map(\.text)
        for kept in ["MP3", "COVID-19", "A1B2-C3", "a1?id=42", "١٥", "٢٠٢٤"] {
            #expect(codeRuns.contains { $0.contains(kept) }, "\(kept): \(codeRuns)")
        }
        #expect(!codeRuns.joined().contains("٣") && !codeRuns.joined().contains("٤٢"), "\(codeRuns)")
        // A no-break space parts a number from its unit as a space does.
        let units = blocks(#"<document lang="ar" numerals="arab"><label>15&#xA0;km 16&#x202F;km 17 km</label></document>"#)
        #expect(units[0].text.contains("١٥") && units[0].text.contains("١٦") && units[0].text.contains("١٧"), "\(units[0].text)")
        // In Arabic, the number of a name (after a word with a capital Latin letter) keeps its
        // digits; one after a unit, a lower-case word or punctuation does not.
        let names = blocks(
            #"<document lang="ar" numerals="arab"><p>اشترِ iPhone 15 Pro و <ltr>iOS 17.2</ltr> و Wi-Fi&#xA0;6 و Ethiopia, 500 و gb 8 بسعر 15</p></document>"#)
        let shown = names[0].lines.flatMap(\.runs).map(\.text).joined(separator: "|")
        for kept in ["15 Pro", "17.2", "6", "٥٠٠", "٨", "١٥"] { #expect(shown.contains(kept), "\(kept): \(shown)") }
        #expect(!shown.contains("١٧") && !shown.contains("٦"), "\(shown)")
        // Nor is an amount after a currency code a name's number: a receipt's "SAR 25.00" kept
        // 0-9 beside "1,299.00 SAR" shown ١٬٢٩٩٫٠٠, in brackets too. "TOP 10", a code that is a
        // word, and "PHP 8.2", one that is as often a language's name, are names.
        let amounts = blocks(
            #"<document lang="ar" numerals="arab"><p>الشحن SAR 25.00 و USD 1,336.50 و (EUR 3.10) و TOP 10 و PHP 8.2 و <ltr>AED 4.25</ltr> و 'QAR 7.50' و &#x200F;JOD 9.75 و &#x200B;KWD 1.25</p></document>"#)
        let amountText = amounts[0].lines.flatMap(\.runs).map(\.text).joined(separator: "|")
        for shownAmount in ["٢٥٫٠٠", "١٬٣٣٦٫٥٠", "٣٫١٠", "10", "8.2", "٤٫٢٥", "٧٫٥٠", "٩٫٧٥", "١٫٢٥"] {
            #expect(amountText.contains(shownAmount), "\(shownAmount): \(amountText)")
        }
        // A phone number after a name is none of its: all its digits are substituted (its first
        // group kept 0-9: "+1 (٨٠٠) ٥٥٥-٠١٩٩"), in an isolate or not.
        for number in ["<ltr>+1 (800) 555-0199</ltr>", "+1 (800) 555-0199", "800 555 0199"] {
            let phone = blocks(#"<document lang="ar" numerals="arab"><p>اتصل بـ Apple Support "# + number + "</p></document>")
            let digits = phone[0].lines.flatMap(\.runs).map(\.text).joined().unicodeScalars.filter { NumberingSystem.isDigit($0) }
            #expect(digits.count >= 10 && digits.allSatisfy { !("0"..."9").contains($0) }, "\(phone[0].text)")
        }
        // A name's number in an isolate, or after a mark, is still one.
        for number in ["<ltr>15</ltr>", "\u{200E}15"] {
            let name = blocks(#"<document lang="ar" numerals="arab"><p>هاتف iPhone "# + number + " جديد</p></document>")
            #expect(name[0].lines.flatMap(\.runs).map(\.text).joined().contains("15"), "\(name[0].text)")
        }
    }

    /// One phrase, one set of digits: an English sentence's numbers (an untranslated string)
    /// showed "Step 3 of ٥", the first kept as a name's; a percentage is an amount; an IBAN
    /// showed "SA03 ٨٠٠٠ ٠٠٠٠ …", its first group kept as a word with a letter.
    @Test func aPhraseShowsOneSetOfDigits() {
        func shown(_ label: String) -> String {
            blocks(#"<document lang="ar" numerals="arab"><label>"# + label + "</label></document>")[0]
                .lines.flatMap(\.runs).map(\.text).joined()
        }
        #expect(shown("Step 3 of 5") == "Step ٣ of ٥")
        #expect(shown("Page 2 of 10") == "Page ٢ of ١٠")
        #expect(shown("Battery 65% · 1 min") == "Battery ٦٥٪ · ١ min")
        #expect(shown("Battery 65 %") == "Battery ٦٥ ٪")
        // A name's number with no count one lower-case word after it stays a name's: the
        // count of a phrase farther on, or beyond right-to-left text, is not its.
        for kept in [
            "iPhone 13 mini", "iPhone 15 Pro Max with 256 GB", "Updated at 10:30 — iOS 17.2", "Up to 50% off iPhone 15",
            "<ltr>iPhone 15</ltr> • <ltr>in 2 days</ltr>", "iPhone 15 بسعر 2 ريال",
        ] {
            #expect(shown(kept).contains(kept.contains("13") ? "13" : kept.contains("17.2") ? "17.2" : "15"), "\(kept): \(shown(kept))")
        }
        #expect(shown("iPhone 15 بسعر 2 ريال").contains("٢"))
        // Digits of another span are its own.
        #expect(shown(#"Step 1<span numerals="latn">2</span> of 5"#) == "Step 12 of ٥")
        // A code in groups, all as written, after or before punctuation and brackets too; a
        // card number's groups, all substituted.
        for (label, code) in [
            ("الآيبان: <ltr>SA03 8000 0000 6080 1016 7519</ltr>", "SA03 8000 0000 6080 1016 7519"),
            ("الآيبان GB29 NWBK 6016 1331 9268 19، شكرا", "GB29 NWBK 6016 1331 9268 19"),
            ("الآيبان (DE89 3704 0044 0532 0130 00)", "DE89 3704 0044 0532 0130 00"),
        ] {
            #expect(shown(label).contains(code), "\(code): \(shown(label))")
        }
        let card = shown("البطاقة VISA 4242 4242 4242 4242")
        #expect(card.unicodeScalars.filter { ("0"..."9").contains($0) }.isEmpty, "\(card)")
        // Two groups are no code in groups: a name's number, as before.
        #expect(shown("رمز SA03 8000").contains("8000"))
        // A series of a name's numbers is the name's ("iOS ١٧٫٢, ١٧٫٣" read as amounts), not a
        // phone number's groups; a call's numbers are the code's ("rgb(255, ٨٧, ٥١)"); a tag with
        // letters is a name ("#عروض_٢٠٢٥" is another tag), an order number is not.
        // (`shown` is in visual order.)
        #expect(shown("يتطلب iOS 17.2, 17.3") == "iOS 17.2, 17.3يتطلب ")
        #expect(shown("متوافق مع iPhone 14، 15، 16 فقط") == " فقطiPhone 14، 15، 16متوافق مع ")
        #expect(shown("اتصل بـ Apple Support 800 555 0199") == "Apple Support ٨٠٠ ٥٥٥ ٠١٩٩اتصل بـ ")
        #expect(shown("اللون rgb(255, 87, 51) و (1, 2)") == ")٢, ١(و  rgb(255, 87, 51)اللون ")
        #expect(shown("#عروض_2025 و @متجر24 و #12345") == "١٢٣٤٥# و 24متجر@ و 2025_عروض#")
        // However long: the series or the call switched digits after eight numbers, or 64 characters.
        let versions = (0..<40).map { "17.\($0)" }.joined(separator: ", ")
        let arguments = (0..<60).map(String.init).joined(separator: ", ")
        let long = shown("يتطلب iOS \(versions) و rgb(\(arguments))")
        #expect(!long.unicodeScalars.contains { (0x0660...0x0669).contains($0.value) }, "\(long)")
    }

    /// A percent sign shown as ٪ beside Arabic-Indic digits stands on the number's left in
    /// right-to-left text, as a typed ٦٥٪ does; but not where left-to-right text before the
    /// number makes it left to right (UAX #9 W7), where it stays on the right as typed: an
    /// LRM's "‎-3.5%" showed "٪-٣٫٥", its minus between the sign and the digits, and "total 65%"
    /// "٪total ٦٥".
    @Test func aPercentSignStaysWithALeftToRightNumber() {
        let labels = blocks(#"""
            <document lang="ar" numerals="arab"><label>&#x200E;-3.5%</label><label>ب total 65%</label>
            <label>-3.5%</label><label>ب 65%</label><label><ltr>65%</ltr></label>
            <label>ب &#x202A;total&#x202C; 65%</label><label>ب &#x202B;تم&#x202C; 65%</label></document>
            """#)
        #expect(labels.map(\.text) == ["\u{200E}-٣٫٥٪", "total ٦٥٪ب ", "٪٣٫٥-", "٪٦٥ب ", "٦٥٪", "total ٦٥٪ب ", "٪٦٥ تمب "])
    }

    /// A substituted number takes its system's separators and percent sign (CLDR: ٫ ٬ ٪), as a
    /// number formatter shows it: "١٢.٥" is hard to tell from "١٢٠٥", the zero being a dot.
    /// Punctuation that is not a formatted number's is kept.
    @Test func substitutedNumbersTakeTheirSystemsSeparators() {
        // In a left-to-right paragraph, so that `text` (visual order) reads as written.
        func text(_ markup: String) -> String {
            blocks(#"<document lang="en" numerals="arab">"# + markup + "</document>")[0].text
        }
        #expect(text("<label>12.5 and 1,234.50 and 65% and %20</label>") == "١٢٫٥ and ١٬٢٣٤٫٥٠ and ٦٥٪ and ٪٢٠")
        #expect(text("<label>of 64. then 3,</label>") == "of ٦٤. then ٣,", "a full stop or comma after a number")
        // Not one formatted value: a date, an address; a time; a code.
        #expect(
            text("<label>21.11.2026 192.168.0.1 09:41 MP3.5</label>")
                == "٢١.١١.٢٠٢٦ ١٩٢.١٦٨.٠.١ ٠٩:٤١ MP3.5")
        // A European amount, dots before one comma, is one: its dots read as zeros (١.٢٣٤,٥٠).
        #expect(text("<label>1.234,50 1.234.567,8% 1.23,4 1.234,5,6</label>") == "١٬٢٣٤٫٥٠ ١٬٢٣٤٬٥٦٧٫٨٪ ١.٢٣,٤ ١.٢٣٤,٥,٦")
        #expect(
            blocks(#"<document lang="en" numerals="latn"><label>1.234,50</label></document>"#)[0].text == "1.234,50")
        #expect(text(#"<label>12.5 <span numerals="latn">12.5%</span></label>"#) == "١٢٫٥ 12.5%")
        // A decimal comma is no group separator (٢٬٥٠ reads 250), nor is a list's comma.
        #expect(
            text("<label>2,50 1,5 3,5% 1,2,3 1,2.3 1,000,000 1.2.3%</label>")
                == "٢,٥٠ ١,٥ ٣,٥% ١,٢,٣ ١,٢.٣ ١٬٠٠٠٬٠٠٠ ١.٢.٣%")
        // Beside a European amount, a lone decimal comma is one too (it showed ٢,٥٠ beside
        // ١٬٢٣٤٫٥٠); a date or a list's comma is not.
        #expect(text("<label>1.234,50 2,50 3,5% 21.11.2026 1,2,3</label>") == "١٬٢٣٤٫٥٠ ٢٫٥٠ ٣٫٥٪ ٢١.١١.٢٠٢٦ ١,٢,٣")
        // But not a comma three digits before the number's end, a thousands separator's.
        #expect(text("<label>1.234,50 3,000</label>") == "١٬٢٣٤٫٥٠ ٣٬٠٠٠")
        // Groups after no-break spaces and a decimal comma, as French and Russian formatters
        // write an amount, are one (its comma stayed Latin: "١ ٢٩٩,٩٠"); not groups alone, a
        // phone number's, nor after a plain space.
        #expect(text("<label>1\u{202F}299,90 12\u{A0}345\u{A0}678,5</label>") == "١٬٢٩٩٫٩٠ ١٢٬٣٤٥٬٦٧٨٫٥")
        #expect(
            text("<label>050\u{A0}123\u{A0}4567 1 299,90 1\u{A0}29,90</label>") == "٠٥٠\u{A0}١٢٣\u{A0}٤٥٦٧ ١ ٢٩٩,٩٠ ١\u{A0}٢٩,٩٠")
        // A percent sign past an isolate's controls.
        #expect(text("<label><ltr>65</ltr>% 12.5<ltr>%</ltr></label>") == "٦٥٪ ١٢٫٥٪")
        // And past a mark: CLDR's Arabic percent pattern puts an ALM beside the sign.
        let marked = text("<label>65&#x61C;% 12&#x200F;%</label>")
        #expect(marked.filter { $0 == "٪" }.count == 2 && !marked.contains("%"), "\(marked)")
        let persian = blocks(#"<document lang="fa" numerals="arabext"><label>2.5%</label></document>"#)
        #expect(persian[0].text == "۲٫۵٪")
        // Beside Arabic-Indic digits the sign stands where a typed ٦٥٪ has it, on the number's
        // left in right-to-left text (it was on the right of a lone "65%"), and on its right in
        // left-to-right text; Persian digits keep theirs joined to the number, as typed ones do.
        let arabic = blocks(#"""
            <document lang="ar" numerals="arab"><label>65%</label><label>٦٥٪</label><label>البطارية 65%</label>
            <label lang="en">Battery 65% left</label></document>
            """#)
        #expect(arabic.map(\.text) == ["٪٦٥", "٪٦٥", "٪٦٥البطارية ", "Battery ٦٥٪ left"])
        #expect(blocks(#"<document lang="fa" numerals="arabext"><label>65%</label></document>"#)[0].text == "۶۵٪")
        // Only what is shown changes: the runs order as the written number does.
        let runs = blocks(#"<document lang="ar" numerals="arab"><label>السعر 1,234.50 ريال</label></document>"#)[0]
            .lines[0].runs
        #expect(runs.contains { $0.text == "١٬٢٣٤٫٥٠" && $0.level == 2 }, "\(runs.map(\.text))")
    }

    /// `latn` shows 0-9 as `arab` shows ٠-٩: Arabic-Indic and Persian digits typed in the text
    /// (a translator's) were kept under an explicit `latn`, and under `auto` in ar-MA, whose
    /// digits are Latin. Without `numerals`, digits show as written.
    @Test func latinNumeralsShowZeroToNine() {
        // The words shown, sorted.
        func words(_ markup: String) -> [String] { blocks(markup)[0].text.split(separator: " ").map(String.init).sorted() }
        #expect(words(#"<document numerals="latn"><label>2026 ٢٠٢٦ ۲۰۲۶ ١٬٢٩٩٫٥٠ ٢١.١١.٢٠٢٦</label></document>"#)
            == ["1,299.50", "2026", "2026", "2026", "21.11.2026"])
        // Arabic signs between 0-9 are Latin ones, in a formatted value or not.
        #expect(words(#"<document numerals="latn"><label>٢١٫١١٫٢٠٢٦ ١٢٬٥ ١٬٢٣٤٬٥</label></document>"#)
            == ["1,234,5", "12,5", "21.11.2026"])
        let percent = blocks(#"<document numerals="latn"><label>٪٥٠</label></document>"#)[0].text
        #expect(percent.contains("%") && percent.contains("50") && !percent.contains("٪"), "\(percent)")
        #expect(words(#"<document lang="ar-MA" numerals="auto"><label>٢٠٢٦ و 2026</label></document>"#) == ["2026", "2026", "و"])
        #expect(words(#"<document><label><span numerals="latn">١٢٣</span> ١٢٣ 123</label></document>"#) == ["123", "123", "١٢٣"])
        #expect(words(#"<document lang="ar"><label>٢٠٢٦ 2026</label></document>"#) == ["2026", "٢٠٢٦"], "as written")
        // Shown as 0-9, they order as the European numbers they read as: ordered as Arabic ones
        // (UAX #9 AN), the hyphen between them went right to left, and the line read "20-10".
        // In the lines' visual order:
        for (markup, shown) in [
            (#"<document numerals="latn"><label>Range ١٠-٢٠ days</label></document>"#, "Range 10-20 days"),
            (#"<document numerals="latn"><label>Pages ١٠ - ٢٠, ٣٠</label></document>"#, "Pages 10 - 20, 30"),
        ] {
            #expect(blocks(markup)[0].text == shown, "\(markup)")
        }
        // In Arabic text they order as typed 0-9 do there (UAX #9 W2 makes both Arabic numbers).
        let shownLatin = blocks(#"<document lang="ar"><label>المدى <span numerals="latn">١٠-٢٠</span></label></document>"#)
        let typedLatin = blocks(#"<document lang="ar"><label>المدى 10-20</label></document>"#)
        #expect(shownLatin[0].lines[0].runs.map(\.text) == typedLatin[0].lines[0].runs.map(\.text))
        // Digits shown as Arabic-Indic keep the order of the number written (SPEC 4.5).
        #expect(blocks(#"<document numerals="arab"><label>Range 10-20</label></document>"#)[0].text == "Range ١٠-٢٠")
    }

    /// `auto` shows the digits CLDR gives the locale, a script's own where that is the default
    /// (Bengali, Marathi, Burmese: they were 0-9), with the number's Latin signs; `latn` shows
    /// typed ones as 0-9, and a `-u-nu-` extension wins.
    @Test func scriptsOwnDigits() {
        #expect(blocks(#"<document lang="bn" numerals="auto"><label>মূল্য 1,299.50 টাকা</label></document>"#)[0].text == "মূল্য ১,২৯৯.৫০ টাকা")
        #expect(blocks(#"<document lang="mr" numerals="auto"><label>2026</label></document>"#)[0].text == "२०२६")
        #expect(blocks(#"<document lang="my" numerals="auto"><label>12%</label></document>"#)[0].text == "၁၂%")
        #expect(blocks(#"<document lang="hi" numerals="auto"><label>2026</label></document>"#)[0].text == "2026")
        #expect(blocks(#"<document lang="bn-u-nu-latn" numerals="auto"><label>2026</label></document>"#)[0].text == "2026")
        #expect(blocks(#"<document numerals="latn"><label>१२३ ১২৩</label></document>"#)[0].text == "123 123")
        #expect(blocks(#"<document numerals="deva"><label>Page 12</label></document>"#)[0].text == "Page १२")
        // A name's number keeps its digits, as in Arabic: "iPhone ১৫" was shown.
        #expect(blocks(#"<document lang="bn" numerals="auto"><label>আপনার iPhone 15 প্রস্তুত, 15 টাকা</label></document>"#)[0].text
            == "আপনার iPhone 15 প্রস্তুত, ১৫ টাকা")
    }

    @Test func phoneNumberIsolatedLeftToRight() {
        let b = blocks(#"<document lang="he"><label>התקשרו <ltr>+1 (555) 010-9999</ltr> עכשיו</label></document>"#)
        let phone = b[0].lines[0].runs.filter { $0.level == 2 }
        #expect(phone.map(\.text).joined().contains("+1 (555) 010-9999"))
        #expect(!b[0].text.unicodeScalars.contains { $0.value == 0x2066 || $0.value == 0x2069 }, "isolate controls are not run text")
    }
}

@Suite struct RowAndImageTests {
    // 4.6: a row's first child at the start side of the context.
    @Test func firstChildAtStartSide() {
        let rtl = blocks(#"<document lang="ar"><row><label>أول</label><label>ثاني</label></row></document>"#)
        #expect(rtl[0].frame.x > rtl[1].frame.x)
        let ltr = blocks(#"<document lang="en"><row><label>first</label><label>second</label></row></document>"#)
        #expect(ltr[0].frame.x < ltr[1].frame.x)
        let pinned = blocks(#"<document lang="en"><row dir="rtl"><label>first</label><label>second</label></row></document>"#)
        #expect(pinned[0].frame.x > pinned[1].frame.x)
    }

    /// Buttons are at least 44 pt (SPEC §2); a row of too many keeps each in its slot and warns
    /// once. Widened to 44 pt, nine buttons overlapped and the last crossed the margin.
    @Test func buttonsKeepToTheirSlotsAndARowOfTooManyWarns() throws {
        func buttons(_ count: Int) throws -> (rectangles: [RectangleItem], warnings: [Diagnostic]) {
            let row = (1...count).map { "<button>\($0)</button>" }.joined()
            let result = try #require(layoutMarkup("<document>\n<row>\(row)</row></document>"))
            let rectangles = result.pages[0].items.compactMap { item -> RectangleItem? in
                if case .rectangle(let r) = item { r } else { nil }
            }
            return (rectangles, result.diagnostics.items)
        }
        let three = try buttons(3)
        #expect(three.warnings.isEmpty)
        #expect(three.rectangles.count == 3 && three.rectangles.allSatisfy { $0.width >= 44 && $0.height >= 44 })
        let nine = try buttons(9)
        #expect(nine.rectangles.count == 9)
        let sorted = nine.rectangles.sorted { $0.x < $1.x }
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.x + $0.width <= $1.x }, "no overlap")
        #expect(sorted.first.map { $0.x >= 16 } == true && sorted.last.map { $0.x + $0.width <= 390 - 16 + 0.001 } == true)
        #expect(nine.warnings.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:1 the 9 buttons of this row of 9 are 32.6 pt wide, under the 44 pt that a tap target needs (Apple HIG)"
        ])
        // A lone button on a narrow page warns at the button.
        let narrow = try #require(layoutMarkup("<document width=\"70\">\n<button>1</button></document>"))
        #expect(narrow.diagnostics.items.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:1 this <button> is 38 pt wide, under the 44 pt that a tap target needs (Apple HIG)"
        ])
    }

    /// The buttons of a row are as tall as the tallest, each text centered in its rectangle:
    /// one that wraps to two lines (a long label at a large text size) no longer hangs below
    /// the others. Other children of the row keep their own height.
    @Test func buttonsOfARowShareTheTallestHeight() throws {
        let result = try #require(layoutMarkup("""
            <document width="300"><row><button>Manage the subscription plan</button><button>OK</button>\
            <label>Note</label></row><button>Alone</button></document>
            """))
        let rectangles = result.pages[0].items.compactMap { item -> RectangleItem? in
            if case .rectangle(let r) = item { r } else { nil }
        }
        let blocks = result.report.pages[0].blocks
        try #require(rectangles.count == 3 && blocks.count == 4)
        #expect(blocks[0].lines.count >= 2 && blocks[1].lines.count == 1)
        #expect(rectangles[0].height > 44 && rectangles[1].height == rectangles[0].height)
        #expect(rectangles[2].height == 44, "a button outside the row keeps its own height")
        for (rectangle, block) in zip(rectangles, [blocks[0], blocks[1], blocks[3]]) {
            let middle = block.frame.y + block.frame.height / 2
            #expect(abs(middle - (rectangle.y + rectangle.height / 2)) < 0.001, "text centered: \(block.text)")
        }
        #expect(blocks[2].frame.height < 44, "the label keeps its own height")
    }
}

@Suite struct ReportInvariantTests {
    /// An empty block still takes a line of its own size: an empty title is a title's height
    /// (it was the body's), and two empty blocks of different sizes do not share a cached line.
    @Test func anEmptyBlockTakesALineOfItsOwnSize() throws {
        let b = blocks("<document><title> </title><p></p><caption/><title size='50'/></document>")
        let expected: [Double] = [34, 17, 12, 50].map { $0 * 1.3 }
        #expect(b.map(\.frame.height) == expected)
        #expect(b.allSatisfy { $0.lines.count == 1 && $0.lines[0].runs.isEmpty })
    }

    /// A container of nothing takes no room: an empty row, or a row of empty stacks, as an
    /// empty stack or list (the row took the 8 pt gap between blocks).
    @Test func anEmptyContainerTakesNoRoom() {
        let tops = ["", "<row/>", "<row><stack/></row>", "<stack/>", "<list/>"].map { empty in
            blocks("<document><label>a</label>\(empty)<label>b</label></document>").map(\.frame.y)
        }
        #expect(tops.count == 5 && tops.allSatisfy { $0 == tops[0] && $0.count == 2 }, "\(tops)")
    }

    /// §6 as printed: a right-aligned line's x + width is its frame's right edge in the JSON
    /// too (x and width rounded apart missed it by 0.01 in one line of fifteen).
    /// Strings are escaped as JSON requires (quote, backslash, control characters) and as
    /// JavaScript needs (U+2028, U+2029); every other character, Arabic, emoji and U+2014, U+2027
    /// and U+2030 (whose UTF-8 starts as U+2028's does) among them, is written as it is.
    @Test func jsonStringsAreEscaped() throws {
        let message = "\"a\" \\ b\nc\r\td\u{1}\u{1F} e\u{2028}f\u{2029}g é مرحبا 😀 \u{E2} — ‧ ‰"
        let report = LayoutReport(
            diagnostics: [.warning(SourceLocation(file: "x.xml", line: 2, column: 3), message)], pages: [])
        let escaped = #"\"a\" \\ b\nc\r\td\u0001\u001f e\u2028f\u2029g é مرحبا 😀 â — ‧ ‰"#
        #expect(
            report.json() == #"{"version":1,"diagnostics":[{"file":"x.xml","line":2,"column":3,"severity":"warning","#
                + #""message":"\#(escaped)"}],"pages":[]}"# + "\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let diagnostic = try #require((parsed["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["message"] as? String == message)
    }

    @Test func rightAlignedLinesEndAtTheFrameInTheJSON() throws {
        let words = ["Hello!", "English", "Settings", "Photon X2", "OK", "Wi-Fi", "Bluetooth"]
        let result = try #require(layoutMarkup(
            "<document lang=\"ar\">" + words.map { "<label>\($0)</label><label size=\"19\">\($0)</label>" }.joined()
                + "</document>"))
        // Rounded apart, some of these lines miss the frame's edge: the case is here.
        let hundredths = { (value: Double) in (value * 100).rounded() / 100 }
        let missed = result.report.pages.flatMap(\.blocks).filter { $0.align == "right" }.flatMap { block in
            block.lines.filter {
                abs(hundredths($0.x) + hundredths($0.width) - hundredths(block.frame.x) - hundredths(block.frame.width)) > 0.005
            }
        }
        #expect(!missed.isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.report.json().utf8)) as? [String: Any])
        var count = 0
        for case let page as [String: Any] in json["pages"] as? [Any] ?? [] {
            for case let block as [String: Any] in page["blocks"] as? [Any] ?? [] where block["align"] as? String == "right" {
                let frame = try #require(block["frame"] as? [String: Double])
                for case let line as [String: Any] in block["lines"] as? [Any] ?? [] {
                    let x = try #require(line["x"] as? Double), width = try #require(line["width"] as? Double)
                    #expect(abs(x + width - (frame["x"]! + frame["width"]!)) < 1e-9, "\(x) + \(width), \(frame)")
                    count += 1
                }
            }
        }
        #expect(count == 2 * words.count)
    }

    /// Runs in visual order by their content, widths as the same text measures alone, and lines
    /// aligned inside their frame (a line's width and its runs' x are sums of the run widths by
    /// construction, so those are checked against text measured elsewhere).
    @Test func linesAndRunsAddUp() throws {
        let result = try #require(layoutMarkup("""
            <document lang="ar"><title>الإعدادات</title><p>نص عربي مع English words و 123 أرقام، وجملة أطول قليلاً حتى تلتف على أكثر من سطر واحد في هذه الصفحة الضيقة.</p></document>
            """))
        let blocks = result.report.pages[0].blocks
        #expect(blocks.map(\.kind) == ["title", "p"])
        for block in blocks {
            #expect(block.align == "right" && block.linesFollowAlignment())
            for line in block.lines { #expect(line.width <= block.frame.width + 0.01, "never wider than the frame") }
        }
        let lines = try #require(blocks.last?.lines)
        try #require(lines.count == 3)
        // The first line left to right: the logical order's last words first, the English
        // words and the number as left-to-right islands.
        #expect(lines[0].runs.map(\.text) == [" أرقام، وجملة", "123", "و ", " ", "English words", "نص عربي مع "])
        #expect(lines[0].runs.map(\.level) == [1, 2, 1, 1, 2, 1])
        // Each run's width and place: the same text set alone in a paragraph of its own.
        func alone(_ xml: String) throws -> ReportLine {
            try #require(layoutMarkup(xml)?.report.pages[0].blocks.first?.lines.first)
        }
        let english = try alone("<document><p>English words</p></document>")
        let englishRun = try #require(lines[0].runs.first { $0.text == "English words" })
        #expect(abs(englishRun.width - english.width) < 0.01, "\(englishRun.width) \(english.width)")
        let last = try alone(#"<document lang="ar"><p>الصفحة الضيقة.</p></document>"#)
        #expect(abs(lines[2].width - last.width) < 0.01 && abs(lines[2].x - last.x) < 0.01, "\(lines[2]) \(last)")
        // Runs abut: each starts where the one on its left ends.
        for (left, right) in zip(lines[0].runs, lines[0].runs.dropFirst()) {
            #expect(abs(left.x + left.width - right.x) < 0.01, "\(left.text) | \(right.text)")
        }
    }
}

extension ReportInvariantTests {
    /// SPEC §2: the baseline sits where the first font family's ascent puts it within the line
    /// (the line's leading shared above and below the first family's ascent and descent),
    /// whatever script the line holds.
    @Test func theBaselineIsTheFirstFamilysWhateverTheScript() throws {
        func baseline(_ xml: String) throws -> Double {
            let block = try #require(blocks(xml).first)
            return try #require(block.lines.first).baseline - block.frame.y
        }
        // hhea of the bundled fonts, per 1000: Noto Sans 1069 and -293, Noto Sans Arabic 1374 and -738.
        let lineHeight = 1.3 * 17
        let notoSans = (lineHeight - (1.069 + 0.293) * 17) / 2 + 1.069 * 17
        for xml in [
            "<document><p>Hello</p></document>", #"<document><p lang="ar">مرحبا</p></document>"#,
            #"<document lang="he"><p>שלום</p></document>"#,
        ] {
            #expect(abs(try baseline(xml) - notoSans) < 0.001, "\(xml)")
        }
        let arabicFirst = (lineHeight - (1.374 + 0.738) * 17) / 2 + 1.374 * 17
        #expect(abs(try baseline(#"<document font="Noto Sans Arabic"><p>Hello</p></document>"#) - arabicFirst) < 0.001)
    }

    /// SPEC §2: bidi controls in the text are honoured as UAX #9 says, overrides too: RLO makes
    /// Latin letters a right-to-left run drawn right to left, LRO makes Hebrew ones a
    /// left-to-right run; the controls themselves are left out of the text (X9).
    @Test func overridesInTheTextAreHonoured() throws {
        func glyph(_ character: Unicode.Scalar, of run: GlyphRun) throws -> UInt32 {
            try #require(FontProgram.of(run.font).nominalGlyph(character))
        }
        func glyphRuns(_ xml: String) throws -> [GlyphRun] {
            try #require(layoutMarkup(xml)).pages[0].items.compactMap { if case .glyphs(let run) = $0 { run } else { nil } }
        }
        let latin = try #require(blocks(#"<document><p>a&#x202E;bcd&#x202C;e</p></document>"#).first?.lines.first)
        #expect(latin.runs.map(\.text) == ["a", "bcd", "e"] && latin.runs.map(\.level) == [0, 1, 0], "\(latin.runs.map(\.text))")
        let reversed = try #require(glyphRuns(#"<document><p>a&#x202E;bcd&#x202C;e</p></document>"#).first { $0.text == "bcd" })
        #expect(try reversed.glyphs.map(\.id) == ["d", "c", "b"].map { try glyph($0, of: reversed) }, "drawn d c b")
        let hebrew = try #require(blocks(#"<document lang="he"><p>א&#x202D;בגד&#x202C;ה</p></document>"#).first?.lines.first)
        #expect(hebrew.runs.map(\.text) == ["ה", "בגד", "א"] && hebrew.runs.map(\.level) == [1, 2, 1], "\(hebrew.runs.map(\.text))")
        let forward = try #require(glyphRuns(#"<document lang="he"><p>א&#x202D;בגד&#x202C;ה</p></document>"#).first { $0.text == "בגד" })
        #expect(try forward.glyphs.map(\.id) == ["ב", "ג", "ד"].map { try glyph($0, of: forward) }, "drawn ב ג ד")
    }

    /// Isolates' and embeddings' controls are left out of the text (§6): a run of them alone
    /// would be an empty run, and is not reported.
    @Test func noEmptyRuns() throws {
        let result = try #require(layoutMarkup("""
            <document><p>abc<rtl>def</rtl>ghi <bdi>שלום</bdi> x&#x202B;y&#x202C;z</p></document>
            """))
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        #expect(runs.map(\.text).joined() == "abcdefghi שלום xyz")
        #expect(runs.allSatisfy { !$0.text.isEmpty && $0.glyphs > 0 }, "\(runs.map(\.text))")
        // The controls have no glyph: one per character shown (HarfBuzz hides them).
        let glyphs = runs.map(\.glyphs).reduce(0, +)
        #expect(glyphs == runs.map(\.text.count).reduce(0, +), "\(runs.map { ($0.text, $0.glyphs) })")
    }

    /// Isolate controls in the text of `<rtl>`, `<ltr>`, `<bdi>` or `<span dir>` stay inside
    /// the element's isolate: a stray LRI is closed at the element's end, and a stray PDI does
    /// not end the element's isolate early. Each paragraph's glyphs stand where those of the
    /// paragraph without the stray control (or with it closed where the element ends) do.
    @Test func isolateControlsInAnElementStayInIt() throws {
        let pairs = [
            ("Label: <rtl>שלום&#x2066;x</rtl> then more words", "Label: <rtl>שלום<ltr>x</ltr></rtl> then more words"),
            ("a <rtl>&#x2069;bcd</rtl> efg", "a <rtl>bcd</rtl> efg"),
            ("a <ltr>אב &#x2069;גד</ltr> efg", "a <ltr>אב גד</ltr> efg"),
            ("x <bdi>&#x2067;abc</bdi> שלום", "x <bdi><rtl>abc</rtl></bdi> שלום"),
            ("One <span dir=\"rtl\">שלום&#x2067;abc</span> two", "One <span dir=\"rtl\">שלום<rtl>abc</rtl></span> two"),
            ("a <rtl>&#x2066;&#x2066;b&#x2069;&#x2069;&#x2069;c</rtl> d", "a <rtl><ltr><ltr>b</ltr></ltr>c</rtl> d"),
        ]
        func glyphs(_ paragraph: String) throws -> [String] {
            let result = try #require(layoutMarkup("<document><p>\(paragraph)</p></document>"))
            return result.pages[0].items.flatMap { item -> [String] in
                guard case .glyphs(let run) = item else { return [] }
                return run.glyphs.map { "\($0.id) at \(($0.x * 1000).rounded() / 1000)" }
            }.sorted()
        }
        for (stray, closed) in pairs {
            let shown = try glyphs(stray)
            #expect(!shown.isEmpty)
            #expect(shown == (try glyphs(closed)), "\(stray)")
        }
        // Without the fix the first set "then more words" inside the isolate, left of the Hebrew.
        let result = try #require(layoutMarkup("<document><p>Label: <rtl>שלום&#x2066;x</rtl> then</p></document>"))
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        let then = try #require(runs.first { $0.text.contains("then") })
        let hebrew = try #require(runs.first { $0.text == "שלום" })
        #expect(then.level == 0 && then.x > hebrew.x, "\(runs)")
    }

    /// X9 removes the boundary neutrals too: ZWJ, ZWNJ, ZWSP and the soft hyphen are not in a
    /// run's text (§6), nor drawn, nor in the PDF's text. LRM is a strong character, not removed.
    @Test func textIsWithoutBoundaryNeutrals() throws {
        let result = try #require(layoutMarkup("""
            <document><p>a&#x200D;b&#x200C;c&#x200B;d&#xAD;e&#x200E;f مر&#x200D;حبا</p></document>
            """))
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        #expect(runs.map(\.text).joined() == "abcde\u{200E}f مرحبا")
        // Only the letters and the space have glyphs: HarfBuzz's invisible ones are left out.
        let glyphs = runs.map(\.glyphs).reduce(0, +)
        #expect(glyphs == 12, "six letters, a space, five letters: \(runs.map { ($0.text, $0.glyphs) })")
        // The quick tests agree with the table on every code point.
        let disagreeing = (0...0x10FFFF).lazy.compactMap(Unicode.Scalar.init).filter {
            isBoundaryNeutral($0) != ($0.bidiClass == .BN)
                || isLeftOutOfText($0) != (isHiddenControl($0) || $0.bidiClass == .BN)
        }
        #expect(disagreeing.first == nil)
    }
}

/// Where the text pipeline meets styling, hyphens and the PDF's text (a review against Pango).
@Suite struct TextOnThePageTests {
    /// The glyph runs of the first page, in drawing order.
    func glyphRuns(_ xml: String) throws -> [GlyphRun] {
        try #require(layoutMarkup(xml)).pages[0].items.compactMap { if case .glyphs(let run) = $0 { run } else { nil } }
    }

    /// A button's title is white, as on iOS's filled button, unless its background is too
    /// light for white: then the text color around it, else black ("Cancel" on `#F2F2F7` was
    /// white, unreadable). A `color` of its own is kept.
    @Test func aLightButtonHasADarkTitle() throws {
        let xml = ##"""
            <document color="#333333"><row><button>Save</button><button background="#F2F2F7">Cancel</button>
            <button background="#8E8E93">Skip</button><button background="#FFFFFF40">Back</button>
            <button background="#FFFFFF" color="#FFFFFF">Own</button></row>
            <stack color="#FFFFFF"><button background="#EEEEEE">Light</button></stack></document>
            """##
        // (A title may be drawn in more than one run: "Canc" and "el", kerned.)
        var colors: [String: Color] = [:]
        var last: (text: String, color: Color)?
        for run in try glyphRuns(xml) {
            if let (text, color) = last, color == run.color, colors[text] == color {
                colors[text] = nil
                last = (text + run.text, color)
            } else {
                last = (run.text, run.color)
            }
            colors[last!.text] = last!.color
        }
        let grey = Color(red: 0x33 / 255, green: 0x33 / 255, blue: 0x33 / 255)
        let expected: [String: Color] = ["Save": .white, "Cancel": grey, "Skip": .white, "Back": grey, "Own": .white, "Light": .black]
        #expect(colors == expected, "\(colors)")
    }

    /// A color change inside a word is not a cut for shaping: the lam-alef ligature of "سلام"
    /// with a red alef stays one glyph, drawn in the alef's color, and Latin keeps its
    /// kerning. (Shaped apart, the lam and alef showed unligated, misspelt.)
    @Test func aColorChangeKeepsLigaturesAndKerning() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        let arabic = try glyphRuns(##"<document lang="ar"><p>سل<span color="#FF0000">ا</span>م</p></document>"##)
        #expect(arabic.map(\.text) == ["س", "لا", "م"], "\(arabic.map(\.text))")
        #expect(arabic.map(\.glyphs.count) == [1, 1, 1])
        #expect(arabic.map { $0.color == red } == [false, true, false])
        let plain = try glyphRuns(#"<document lang="ar"><p>سلام</p></document>"#)
        #expect(plain.map(\.glyphs.count) == [3], "the same three glyphs, uncolored")
        // A letter and its vowel mark are one cluster of HarfBuzz's, but two glyphs: each is
        // drawn in its own color, a red letter with a black mark and a red mark on a black
        // letter (both were red, the letter and the mark alike), as Pango draws them. The
        // glyphs are those of the uncolored word, where they stand in it.
        let marked = try glyphRuns(#"<document lang="ar"><p>ابَت</p></document>"#)
        for (xml, texts) in [
            (##"<document lang="ar"><p>ا<span color="#FF0000">ب</span>&#x64E;ت</p></document>"##, ["ا", "ب", "َت"]),
            (##"<document lang="ar"><p>اب<span color="#FF0000">&#x64E;</span>ت</p></document>"##, ["اب", "َ", "ت"]),
        ] {
            let runs = try glyphRuns(xml)
            #expect(runs.map(\.text) == texts, "\(runs.map(\.text))")
            #expect(runs.map { $0.color == red } == [false, true, false], "\(xml)")
            let drawn = runs.flatMap(\.glyphs).sorted { ($0.x, $0.id) < ($1.x, $1.id) }
            let whole = marked.flatMap(\.glyphs).sorted { ($0.x, $0.id) < ($1.x, $1.id) }
            #expect(drawn.map(\.id) == whole.map(\.id) && zip(drawn, whole).allSatisfy { abs($0.x - $1.x) < 1e-9 && $0.y == $1.y })
        }
        // Not apart: a vowel sign HarfBuzz draws in two parts around its consonant (Tamil's ொ,
        // half of it before க, in the letter's cluster), nor translucent letters, whose join
        // two runs would lay on twice: the cluster takes the color given, as before.
        let tamil = try glyphRuns(##"<document><p lang="ta">க<span color="#FF0000">ொ</span>ட</p></document>"##)
        #expect(tamil.map(\.text) == ["கொ", "ட"] && tamil.map { $0.color == red } == [true, false], "\(tamil.map(\.text))")
        let translucent = try glyphRuns(
            ##"<document lang="ar"><p><span color="#FF000080">ب</span><span color="#0000FF">َ</span><span color="#FF000080">ت</span></p></document>"##)
        #expect(translucent.map(\.text) == ["بَت"], "\(translucent.map(\.text))")
        // A lam-alef keeps its color under a red tanween (the alef, a letter, is of the
        // letter's color), and a cluster that cannot be drawn apart (a blue alef in a lam-alef)
        // leaves the others on the line drawn apart.
        let tanween = try glyphRuns(##"<document lang="ar"><p>أولا<span color="#FF0000">ً</span></p></document>"##)
        #expect(tanween.map(\.text) == ["أولا", "ً"] && tanween.map { $0.color == red } == [false, true], "\(tanween.map(\.text))")
        let line = try glyphRuns(##"<document lang="ar"><p>ب<span color="#FF0000">ِ</span>ت ل<span color="#0000FF">ا</span></p></document>"##)
        #expect(line.map(\.text) == ["ب", "ِ", "ت ", "لا"] && line.map { $0.color == red } == [false, true, false, false], "\(line.map(\.text))")
        // A mark the font draws with its neighbor as one glyph, in the letter's cluster, and
        // itself as an empty one (Devanagari's "किं") is not parted: its color would be unseen.
        let hindi = try glyphRuns(##"<document lang="hi"><p>कि<span color="#FF0000">ं</span> ब<span color="#FF0000">ं</span></p></document>"##)
        #expect(hindi.map(\.text) == ["किं", " ब", "ं"] && hindi.map { $0.color == red } == [true, false, true], "\(hindi.map(\.text))")
        // An empty glyph of the letter's own color is no reason: a red Vedic accent after
        // "किं" is drawn apart.
        let vedic = try glyphRuns(##"<document lang="sa"><p>किं<span color="#FF0000">॑</span></p></document>"##)
        #expect(vedic.map(\.text) == ["किं", "॑"] && vedic.map { $0.color == red } == [false, true], "\(vedic.map(\.text))")
        // Marks past the 256 HarfBuzz is given at once keep their own colors too.
        var marks = ""
        for k in 0..<600 {
            let color = k % 2 == 0 ? "#FF0000" : "#0000FF"
            marks += "<span color=\"\(color)\">&#x301;</span>"
        }
        let many = try glyphRuns("<document><p>a\(marks)</p></document>")
        #expect(many.filter { $0.color == red }.map(\.glyphs.count).reduce(0, +) == 300, "\(many.count) runs")
        // A mark HarfBuzz composes with its letter into one glyph (e and U+0301, é) is that
        // glyph's, drawn in the color the author gave.
        let composed = try glyphRuns(##"<document><p>e<span color="#FF0000">&#x301;</span>t</p></document>"##)
        #expect(composed.map(\.text) == ["é", "t"] && composed.map { $0.color == red } == [true, false], "\(composed.map(\.text))")

        func width(_ xml: String) throws -> Double {
            try #require(blocks(xml).first?.lines.first?.width)
        }
        let kerned = try width(#"<document><p>AVATAR</p></document>"#)
        let colored = try width(##"<document><p>A<span color="#E00000">V</span>ATAR</p></document>"##)
        #expect(abs(kerned - colored) < 0.001, "\(kerned) \(colored)")
        #expect(try width(#"<document><p>A<b>V</b>ATAR</p></document>"#) != kerned, "a font change is a cut")
    }

    /// Spans whose text gets the same face are shaped as one, as a color change is: a button's
    /// semibold is the bold face, and so is its `<b>`; Arabic has no italic face; a medium or
    /// light weight is the regular face. They kept the lam-alef apart (an unligated «لا» is a
    /// misspelling), lost Latin kerning and the ffi ligature, and report one run (SPEC §6).
    /// A letter with its marks is one item in its letter's style: a bold shin's dot, shaped in
    /// the regular face without its letter, stood off it (sin's place).
    @Test func spansInOneFaceAreShapedAsOne() throws {
        let button = try glyphRuns(#"<document lang="ar"><button>إل<b>ا</b>ء</button></document>"#)
        let plainButton = try glyphRuns(#"<document lang="ar"><button>إلاء</button></document>"#)
        #expect(button.map(\.text) == ["إلاء"] && button.map(\.glyphs) == plainButton.map(\.glyphs), "\(button.map(\.text))")
        for xml in [#"<document lang="ar"><p>سل<i>ا</i>م</p></document>"#, #"<document lang="ar"><p>سل<span weight="medium">ا</span>م</p></document>"#] {
            let runs = try glyphRuns(xml)
            #expect(runs.map(\.text) == ["سلام"] && runs.map(\.glyphs.count) == [3], "\(xml): \(runs.map(\.text))")
        }
        func width(_ xml: String) throws -> Double { try #require(blocks(xml).first?.lines.first?.width) }
        let kerned = try width(#"<document><p>AVATAR office</p></document>"#)
        #expect(abs(try width(#"<document><p>A<span weight="medium">V</span>ATAR of<span weight="light">fi</span>ce</p></document>"#) - kerned) < 0.001)
        // Not when the face changes (a bold V), the size or the language.
        #expect(try glyphRuns(#"<document><p>A<b>V</b>A</p></document>"#).count == 3)
        #expect(try glyphRuns(#"<document><p>A<span size="17.5">V</span>A</p></document>"#).count == 3)

        // The marks of a letter in <b> or another size go with it, in its face and size.
        let whole = try glyphRuns(#"<document lang="he"><p><b>שָׁלוֹם</b></p></document>"#)
        for xml in [#"<document lang="he"><p><b>ש</b>ָׁלוֹם</p></document>"#, #"<document lang="he"><p><span size="30">ש</span>ָׁלוֹם</p></document>"#] {
            let runs = try glyphRuns(xml)
            #expect(runs.map(\.text) == ["שָׁ", "לוֹם"], "\(xml): \(runs.map(\.text))")
            #expect(runs[0].font == whole[0].font || runs[0].size == 30)
            // The dot and qamats stand where they do on the letter alone.
            let alone = try glyphRuns(xml.replacingOccurrences(of: "לוֹם", with: ""))
            #expect(alone.map(\.text) == ["שָׁ"] && alone[0].glyphs.map(\.id) == runs[0].glyphs.map(\.id))
            #expect(zip(alone[0].glyphs, runs[0].glyphs).allSatisfy { abs(($0.x - alone[0].originX) - ($1.x - runs[0].originX)) < 1e-6 })
        }
        let arabic = try glyphRuns(#"<document lang="ar"><p>كتا<b>ب</b>ً</p></document>"#)
        #expect(arabic.map(\.text) == ["كتا", "بً"] && arabic[1].font.weight == 700, "\(arabic.map(\.text))")
    }

    /// A `<br/>` ends a bidi paragraph, as a browser's `<br>` does (CSS Writing Modes 4 §2.4) and
    /// a new line in an iOS label: the neutrals after it take the block's direction from its
    /// start, not the letters before it. ", def" after "abc<br/>" in an Arabic block put its
    /// comma after "def", on the left; it now begins the line, on the right, as Pango has it.
    /// The block's direction holds for every stretch (not each one's first letter), and an
    /// `<ltr>` the `<br/>` is inside goes on past it.
    @Test func aLineBreakEndsABidiParagraph() throws {
        let lines = try #require(blocks(#"<document lang="ar"><p>عربي abc<br/>, def عربي</p></document>"#).first).lines
        #expect(lines.map { $0.runs.map(\.text) } == [["abc", "عربي "], ["عربي", " ", "def", ", "]], "\(lines.map { $0.runs.map(\.text) })")
        #expect(lines[1].runs.map(\.level) == [1, 1, 2, 1])
        let isolated = try #require(blocks(#"<document lang="ar"><p>عربي <ltr>abc<br/>, def</ltr> عربي</p></document>"#).first).lines
        #expect(isolated.map { $0.runs.map(\.text) } == [["abc", "عربي "], ["عربي", " ", ", def"]], "\(isolated.map { $0.runs.map(\.text) })")
        #expect(isolated[1].runs.map(\.level) == [1, 1, 2])
        // A stretch beginning with Latin stays right to left in an Arabic block: its Arabic reads
        // from the right, its Latin at the left.
        let latinFirst = try #require(blocks(#"<document lang="ar"><p>عربي<br/>abc عربي</p></document>"#).first).lines
        #expect(latinFirst[1].runs.map(\.text) == ["عربي", " ", "abc"] && latinFirst[1].runs.map(\.level) == [1, 1, 2], "\(latinFirst[1].runs.map(\.text))")
        // A `<bdi>` keeps the direction all its text gives it ("! 123" right to left, as the
        // Hebrew before the break makes it): reopened as a first-strong isolate, the line after
        // the break, with no letter, was left to right ("123 !").
        let bdi = try #require(blocks(#"<document lang="en"><p>User: <bdi>שלום<br/>123 !</bdi></p></document>"#).first).lines
        #expect(bdi[1].runs.map(\.text) == ["!", " ", "123"] && bdi[1].runs.map(\.level) == [1, 1, 2], "\(bdi[1].runs.map(\.text))")
        // A block of dir="auto" takes its direction from all its text, past a U+2029 too.
        let block = try #require(blocks(#"<document><p dir="auto">(1)&#x2029;עברית חדשה.</p></document>"#).first)
        #expect(block.direction == "rtl", "\(block.direction)")
        // A first-strong isolate reads all its text for its direction, past a U+2029 too.
        let auto = try #require(blocks(#"<document lang="en"><p>x <bdi>-&#x2029;עברית abc</bdi> y</p></document>"#).first).lines
        #expect(auto[1].runs.map(\.text) == ["abc", "עברית ", " y"], "\(auto[1].runs.map(\.text))")
        // U+2029 and a new line end a bidi paragraph too; an override typed in the text ends
        // with its paragraph (UAX #9 X8), as markup's isolates do not.
        let separator = try #require(blocks(#"<document lang="ar"><p>عربي abc&#x2029;, def</p></document>"#).first).lines
        #expect(separator[1].runs.map(\.text) == ["def", ", "], "\(separator[1].runs.map(\.text))")
        let typed = try #require(blocks("<document><p>abc &#x202E;abc def<br/>ghi jkl&#x202C; mno</p></document>").first).lines
        #expect(typed[1].runs.map(\.level) == [0], "\(typed[1].runs.map { ($0.text, $0.level) })")
        // A new line written as a reference ends a line as a `br` does, no space beside it
        // (`&#xA;` was collapsed to a space, and after `&#xD;` began the next line with one); a
        // new line typed in the file is a space.
        let references = blocks("<document><label>one&#xA;two</label><label>one&#xD;&#xA;two</label><label>one &#xA; two</label><label>one\ntwo</label></document>")
        #expect(references.map { $0.lines.map { $0.runs.map(\.text).joined() } } == [["one", "two"], ["one", "two"], ["one", "two"], ["one two"]])
        #expect(references.prefix(3).allSatisfy { $0.lines.allSatisfy { $0.x == 16 } })
        // Two are two line ends (`&#xA;&#xA;` was one, taken for a CRLF), and one that ends an
        // isolate ends no line of its own, as a `br` there does not.
        // (So do U+2028, U+2029 and U+0085 typed after its text: "three\u{2028}" made a line.)
        let twice = blocks(
            "<document><p>one&#xA;&#xA;two</p><label>two<ltr>three&#xA;</ltr></label><label>two<ltr>three\u{2028}</ltr></label>"
                + "<label>two<bdi>three&#x2029;</bdi></label><label>two<span dir=\"ltr\">three&#x85;</span></label></document>")
        #expect(twice.map { $0.lines.map { $0.runs.map(\.text).joined() } } == [["one", "", "two"], ["twothree"], ["twothree"], ["twothree"], ["twothree"]])
        // U+0085 ends a line with no space beside it, as U+2028 does (" two" began one).
        let nextLine = blocks("<document><label>one &#x85; two</label></document>")
        #expect(nextLine.map { $0.lines.map { $0.runs.map(\.text).joined() } } == [["one", "two"]])
        // The characters that end a line (UAX #14 BK, CR, LF, NL) are those that end one.
        let ends = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter(\.endsLine)
        #expect(ends.map(\.value) == [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
        let classes: Set<LineBreakClass> = [.BK, .CR, .LF, .NL]
        #expect(ends.map(\.value) == (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { classes.contains($0.lineBreakClass) }.map(\.value))
        // Past the deepest level (125), isolates opened in excess are counted, not reopened:
        // 200 nested ones, 70 closed before the break, leave the text after it where it was.
        let tags = (0..<200).map { $0 % 2 == 0 ? "rtl" : "ltr" }
        let deep = tags.map { "<\($0)>" }.joined() + "a" + tags.suffix(70).reversed().map { "</\($0)>" }.joined() + "b<br/>c"
            + tags.prefix(130).reversed().map { "</\($0)>" }.joined()
        let nested = try #require(blocks("<document><p>\(deep)</p></document>").first).lines
        #expect(nested.map { $0.runs.map(\.level) } == [[126], [126]], "\(nested.map { $0.runs.map { ($0.text, $0.level) } })")
    }

    /// A line broken at a soft hyphen shows the hyphen at the end of the word it breaks, in the
    /// word's direction: "inter-" in an Arabic line, "-في" (on the left) in an English one. It
    /// took the paragraph's level and stood at the line's end: "-inter".
    @Test func aSoftHyphenEndsTheWordItBreaks() throws {
        let latin = try #require(blocks(#"<document lang="ar" width="150"><p>كلمة inter&#xAD;national كلمة</p></document>"#).first)
        let first = try #require(latin.lines.first)
        #expect(first.runs.map(\.text) == ["inter", "كلمة "], "\(first.runs.map(\.text))")
        #expect(first.runs.map(\.level) == [2, 1])
        #expect(first.runs.first?.glyphs == 6, "the five letters and the hyphen, after them")
        let arabic = try #require(blocks(#"<document width="120"><p>Hello في&#xAD;كلمة end</p></document>"#).first)
        let line = try #require(arabic.lines.first)
        #expect(line.runs.map(\.text) == ["Hello ", "في"], "\(line.runs.map(\.text))")
        #expect(line.runs.last?.glyphs == 3, "the two letters and the hyphen")
        // Drawn: the hyphen (its font's glyph for "-") is the leftmost glyph of the Arabic word,
        // the rightmost of the Latin, and the only one.
        func hyphen(of run: GlyphRun) throws -> UInt32 { try #require(FontProgram.of(run.font).nominalGlyph("-")) }
        let hyphenated = try #require(glyphRuns(#"<document width="120"><p>Hello في&#xAD;كلمة end</p></document>"#)
            .first { $0.text == "في" })
        let arabicHyphen = try hyphen(of: hyphenated)
        #expect(hyphenated.glyphs.min { $0.x < $1.x }?.id == arabicHyphen)
        #expect(hyphenated.glyphs.filter { $0.id == arabicHyphen }.count == 1)
        let word = try #require(glyphRuns(#"<document lang="ar" width="150"><p>كلمة inter&#xAD;national كلمة</p></document>"#)
            .first { $0.text == "inter" })
        let latinHyphen = try hyphen(of: word)
        #expect(word.glyphs.count == 6 && word.glyphs.max { $0.x < $1.x }?.id == latinHyphen)
        #expect(word.glyphs.filter { $0.id == latinHyphen }.count == 1)
        // A ZWNJ or ZWJ before the soft hyphen (L1 puts it at the paragraph's level too) does
        // not part the hyphen from its word.
        for (xml, expected) in [
            (#"<document width="120"><p>Hello في&#x200C;&#xAD;كلمة end</p></document>"#, ["Hello ", "في"]),
            (#"<document lang="ar" width="150"><p>كلمة inter&#x200D;&#xAD;national كلمة</p></document>"#, ["inter", "كلمة "]),
        ] {
            let runs = try #require(blocks(xml).first?.lines.first?.runs)
            #expect(runs.map(\.text) == expected, "\(runs.map { ($0.text, $0.level) })")
            #expect(runs.map(\.glyphs) == (expected[0] == "inter" ? [6, 5] : [6, 3]))
        }
        // Nor does an LRM or RLM after it: UAX #14 keeps the mark with the soft hyphen, and the
        // line that ended after the mark showed no hyphen.
        for (xml, glyphs) in [
            (#"<document width="120" margin="4"><p>Donaudampf&#xAD;&#x200E;schiff</p></document>"#, 11),
            (#"<document width="100" margin="4" lang="ar"><p>مستشفى&#xAD;&#x200F;الجامعة</p></document>"#, 7),
        ] {
            let line = try #require(blocks(xml).first?.lines.first)
            #expect(line.runs.map(\.glyphs) == [glyphs], "the letters and the hyphen: \(line.runs.map { ($0.text, $0.glyphs) })")
        }
    }

    /// Pointed Arabic and Hebrew read right from the glyphs alone, as readers that ignore
    /// /ActualText read them: each glyph of a letter with its marks stands for its character
    /// in ToUnicode, and the letter comes before its marks. They read "(cid:291)"
    /// for every mark, and PyMuPDF split the words at them.
    @Test func pointedTextReadsFromItsGlyphs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A letter whose marks are one glyph, drawn in a joining form of its own (the lam of
        // "اللَّهِ", the meem of "مُحَمَّدٌ"), read as two U+FFFD in mutool.
        // Lam-alef, one glyph, read its lam's fatha after its alef ("لاَ" for "لَا"); Hebrew's
        // dagesh, drawn before its sheva, reads as Unicode orders them (String's == ).
        for (lang, word) in [
            ("ar", "مَرْحَبًا بِكُمْ"), ("he", "שָׁלוֹם עוֹלָם"), ("ar", "مُحَمَّدٌ"), ("ar", "اللَّهِ"), ("ar", "شَدَّة"),
            ("ar", "لَا إِلَّا سَلَامٌ فَلَا"), ("he", "בְּ"),
        ] {
            try #"<document lang="\#(lang)"><p>\#(word)</p></document>"#
                .write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            #expect(try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder).status == 0)
            let read = try textOfGlyphs(folder + "/doc.pdf")
            #expect(read == word, "\(lang): \(read.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Elsewhere a glyph with an advance need not be the letter: Devanagari's reph and short
        // i are one spacing glyph beside an empty one, which stood for "र" and for "्ि", and the
        // word read "आरथ्िक". A cluster whose glyphs do not spell it, in the order drawn (a
        // short i drawn before its consonant read "िक" for "कि"; a conjunct and Tamil's and
        // Thai's split vowels stood for nothing, U+FFFD in mutool) is read whole and in
        // order, its glyphs standing each for a character in the order drawn, the last for
        // the rest; a glyph left with none stands for nothing ("").
        for (lang, word) in [
            ("hi", "आर्थिक"), ("hi", "प्रिय क्षत्रिय कि"), ("bn", "কি"), ("ml", "ന്റെ"), ("ta", "கொண்டு"), ("th", "น้ำ คำ"),
            ("km", "កៅ ខ្មែរ"),
        ] {
            try #"<document lang="\#(lang)"><p>\#(word)</p></document>"#.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            #expect(try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder).status == 0)
            let read = try textOfGlyphs(folder + "/doc.pdf")
            #expect(read == word, "\(lang): \(read)")
        }
        // A vowel drawn in two glyphs around its consonant: the cluster is parted by its
        // canonical decomposition, so that no glyph stands for nothing (which mutool reads as
        // U+FFFD, "கொ�"). Thai's "ำ" has none and still leaves one (`<...> <>`).
        for (lang, word, empty) in [("ta", "கொண்டு", 0), ("bn", "কোন", 0), ("ml", "കൊച്ചി", 0), ("th", "คำ", 1)] {
            try #"<document lang="\#(lang)"><p>\#(word)</p></document>"#.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            #expect(try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder).status == 0)
            #expect(try textOfGlyphs(folder + "/doc.pdf") == word, "\(lang)")
            let expanded = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/doc.pdf.qdf.pdf")), as: UTF8.self)
            #expect(expanded.matches(of: /<[0-9a-fA-F]{4}> <>/).count == empty, "\(lang)")
        }
    }

    /// The text a PDF's glyphs stand for in ToUnicode, in the order its TJ arrays show them, as
    /// the readers that ignore /ActualText read it. One font only: the CMaps are read together.
    private func textOfGlyphs(_ path: String) throws -> String {
        let expanded = path + ".qdf.pdf"
        #expect(try runProgram("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", path, expanded]).status == 0)
        let pdf = String(decoding: try Data(contentsOf: URL(fileURLWithPath: expanded)), as: UTF8.self)
        // ToUnicode: <code> <UTF-16BE> pairs (<> for nothing).
        var toUnicode: [String: String] = [:]
        for match in pdf.matches(of: /<([0-9a-fA-F]{4})> <([0-9a-fA-F]*)>/) {
            let units = stride(from: 0, to: match.2.count, by: 4).map { offset -> UInt16 in
                let start = match.2.index(match.2.startIndex, offsetBy: offset)
                return UInt16(match.2[start..<match.2.index(start, offsetBy: 4)], radix: 16) ?? 0
            }
            toUnicode[match.1.lowercased()] = String(decoding: units, as: UTF16.self)
        }
        // A right-to-left run, drawn left to right inside /ReversedChars, is turned round a
        // cluster at a time: a glyph, or the glyphs of an /ActualText span (a letter, then its
        // marks).
        var read = ""
        var reversed: [String]? = nil
        var inSpan = false
        for token in pdf.matches(of: /\/ReversedChars BMC|\/Span <<.*?>> BDC|EMC|\[([^\]]*)\]TJ/) {
            switch token.0 {
            case "/ReversedChars BMC": reversed = []
            case "EMC" where inSpan: inSpan = false
            case "EMC": if let clusters = reversed { read += clusters.reversed().joined() }; reversed = nil
            case let tag where tag.hasPrefix("/Span"): inSpan = true; reversed?.append("")
            default:
                for hex in (token.1 ?? "").matches(of: /<([0-9a-fA-F]+)>/) {
                    let digits = Array(hex.1.lowercased())
                    for offset in stride(from: 0, to: digits.count, by: 4) {
                        let character = toUnicode[String(digits[offset..<offset + 4])] ?? "?"
                        if reversed == nil {
                            read += character
                        } else if inSpan {
                            reversed![reversed!.count - 1] += character
                        } else {
                            reversed!.append(character)
                        }
                    }
                }
            }
        }
        return read
    }

    /// A glyph drawn for two texts stands for each, by a code of its own the second time
    /// (/CIDToGIDMap maps both to it): a bracket mirrored in right-to-left text is the glyph of
    /// its pair. The first use used to win: after "(b)" in a right-to-left run, every "(b)"
    /// read ")b(" in pdfminer and mutool, which ignore /ActualText.
    @Test func aGlyphDrawnForTwoTextsStandsForEach() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Mirrored, the right-to-left "(b)" looks as the left-to-right one does.
        try #"<document><p><rtl>(b)</rtl></p><p>(b)</p></document>"#
            .write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder).status == 0)
        #expect(try textOfGlyphs(folder + "/doc.pdf") == "(b)(b)")
        #expect(try runProgram("/usr/bin/qpdf", ["--check", folder + "/doc.pdf"]).status == 0)
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/doc.pdf", "-"]).stdout
        // (poppler reads the first, right-to-left line visually: ")b(".)
        #expect(text.split(separator: "\n").dropFirst().first == "(b)", "\(text)")
        // The second line's brackets are drawn by their new codes: poppler draws the same
        // glyphs there as on the first line (the ink of each column alike, whatever the lines'
        // fractions of a pixel).
        #expect(try runProgram("/usr/bin/pdftoppm", ["-r", "144", "-png", folder + "/doc.pdf", folder + "/page"]).status == 0)
        let image = try PixelImage(contentsOf: folder + "/page-1.png")
        func ink(_ x: Int, _ y: Int) -> Int { 255 - Int(image.pixel(x: x, y: y)?.green ?? 255) }
        let inkedRows = (0..<image.height).filter { y in (0..<image.width).contains { ink($0, y) > 0 } }
        let gap = try #require(inkedRows.indices.dropFirst().first { inkedRows[$0] > inkedRows[$0 - 1] + 1 })
        let lines = [inkedRows[..<gap], inkedRows[gap...]]
        let columns = lines.map { rows in (0..<image.width).map { x in rows.reduce(0) { $0 + ink(x, $1) } } }
        let total = columns[0].reduce(0, +)
        let difference = zip(columns[0], columns[1]).reduce(0) { $0 + abs($1.0 - $1.1) }
        #expect(total > 1000 && difference * 20 < total, "ink \(total), differing \(difference)")
    }

    /// The hyphen shown at a soft hyphen (the soft hyphen is left out of the text) reads as
    /// "-", as its glyph does in the font's ToUnicode: pdftotext joins the word's halves, as at
    /// any hyphen that ends a line (with an empty /ActualText it gave "inter" and "national",
    /// and a search for the word failed). Its glyph was once mapped to nothing, and every real
    /// "-" after it needed /ActualText, which some readers ignore.
    @Test func aSoftHyphensHyphenLeavesTheRealOnesTheirText() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"<document width="100"><p>inter&#xAD;national co-op</p></document>"#
            .write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder).status == 0)
        #expect(try runProgram("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", folder + "/doc.pdf", folder + "/qdf.pdf"]).status == 0)
        let pdf = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/qdf.pdf")), as: UTF8.self).lowercased()
        #expect(!pdf.contains("/actualtext"), "both hyphens stand for '-' in ToUnicode")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/doc.pdf", "-"]).stdout
        #expect(text.split(separator: "\n").prefix(2) == ["international", "co-op"], "\(text)")
        // A right-to-left line's keeps no text: poppler put its "-" before the word.
        try #"<document width="80" lang="he"><p>העי&#xAD;רונית</p></document>"#
            .write(toFile: folder + "/he.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "he.xml", "-o", "he.pdf"], in: folder).status == 0)
        let hebrewText = try runProgram("/usr/bin/pdftotext", [folder + "/he.pdf", "-"]).stdout
        let hebrew = hebrewText.split(separator: "\n").map { $0.filter { !"\u{202A}\u{202B}\u{202C}\u{0C}".contains($0) } }
        #expect(hebrew.prefix(2) == ["העי", "רונית"], "\(hebrewText)")
        // Nor does a left-to-right word's in a right-to-left paragraph: poppler put the "-" in
        // the middle of its line, or joined the word's half to a Hebrew word.
        try #"<document width="150" lang="he"><p>שלום inter&#xAD;national עולם</p></document>"#
            .write(toFile: folder + "/mixed.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "mixed.xml", "-o", "mixed.pdf"], in: folder).status == 0)
        let mixed = try runProgram("/usr/bin/pdftotext", [folder + "/mixed.pdf", "-"]).stdout
        #expect(mixed.contains("inter") && !mixed.contains("-"), "\(mixed)")
    }

    /// ZWNJ (in most Persian sentences), ZWJ, a soft hyphen and LRM are not drawn: HarfBuzz's
    /// stand-in for them, the space glyph, went into the PDF, where it read as a space or made
    /// the real space read as a ZWNJ, and pdftotext gave the Persian in pieces.
    @Test func hiddenCharactersLeaveThePDFsTextWhole() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xml = #"""
            <document lang="fa"><p>می&#x200C;خواهم کتاب&#x200C;ها را</p><p lang="en">a&#x200D;b c&#xAD;d</p>
            <p lang="he">שלום&#x200F; עולם</p><p lang="ar">مرحبا&#x061C; بكم</p></document>
            """#
        try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        let run = try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try runProgram("/usr/bin/pdftotext", ["-enc", "UTF-8", folder + "/doc.pdf", "-"]).stdout
        // (pdftotext marks direction with embeddings, and ends the page with a form feed.)
        let lines = text.split(separator: "\n").map { $0.filter { !"\u{202A}\u{202B}\u{202C}\u{0C}".contains($0) } }
            .filter { !$0.isEmpty }
        // The marks RLM and ALM are left out: mapped with the letter before them, they came out
        // inside the word ("שלו\u{200F}ם").
        // A left-to-right run's ZWJ stays (Sinhala, Bengali and Malayalam spell with it); a
        // right-to-left one's ZWNJ does not (poppler put it before its letter).
        #expect(lines == ["میخواهم کتابها را", "a\u{200D}b cd", "שלום עולם", "مرحبا بكم"], "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        let runs = try glyphRuns(xml)
        let glyphCount = runs.map { $0.glyphs.count }.reduce(0, +)
        #expect(glyphCount == 15 + 2 + 4 + 1 + 9 + 9, "a glyph per letter and space: \(runs.map { ($0.text, $0.glyphs.count) })")
        // The SVG's text keeps the ZWNJ and ZWJ (a Persian word copied without its ZWNJ is
        // another spelling), and leaves out the soft hyphen and the marks as the PDF's does.
        let svg = try typeset(["render", "doc.xml", "-o", "doc.svg"], in: folder)
        #expect(svg.status == 0, "\(svg.stderr)")
        let document = try String(contentsOfFile: folder + "/doc.svg", encoding: .utf8)
        let spans = document.components(separatedBy: "<tspan").dropFirst().compactMap { tspan in
            tspan.split(separator: ">", maxSplits: 1).last.map { String($0.prefix { $0 != "<" }) }
        }
        #expect(spans == ["می\u{200C}خواهم کتاب\u{200C}ها را", "a\u{200D}b cd", "שלום עולם", "مرحبا بكم"], "\(spans)")
    }
}

@Suite struct ImageFlipTests {
    /// A PNG made by our own renderer, in a fresh folder, with a document beside it.
    func document(lang: String, flip: String) throws -> (folder: String, xml: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typeset-img-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let page = Page(width: 20, height: 10, items: [.rectangle(RectangleItem(x: 0, y: 0, width: 10, height: 10, fill: .black))])
        try render(pages: [page], to: folder + "/arrow.png", options: RenderOptions(format: .png, scale: 1))
        let xml = #"<document lang="\#(lang)"><image src="arrow.png" width="40" flip="\#(flip)" alt="Next"/></document>"#
        try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        return (folder, xml)
    }

    func images(_ path: String) -> [ImageItem] {
        let outcome = sharedTypesetter.layoutFile(path, settings: JobSettings())
        #expect(!outcome.failed, "\(outcome.diagnostics.items)")
        return outcome.layout?.pages.flatMap(\.items).compactMap { if case .image(let i) = $0 { i } else { nil } } ?? []
    }

    @Test func flipsOnlyWhenAskedInRightToLeftContext() throws {
        for (lang, flip, flipped) in [("ar", "rtl", true), ("ar", "never", false), ("en", "rtl", false), ("he", "rtl", true)] {
            let (folder, _) = try document(lang: lang, flip: flip)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let found = images(folder + "/doc.xml")
            #expect(found.count == 1)
            #expect(found.first?.flipped == flipped, "\(lang) flip=\(flip)")
            #expect(found.first?.height == 20, "height keeps the PNG's aspect ratio")
            // At the start side: right in RTL contexts.
            let x = found.first?.x ?? 0
            #expect(lang == "en" ? x == 16 : x == 390 - 16 - 40)
        }
    }

    /// An image given a size wider than its box is scaled down to it, its shape kept, and said
    /// (a width of 1000 and height of 10 were shown 358 × 3.58 without a word); one shown at its
    /// pixels' size is scaled silently.
    @Test func anImageGivenASizeWiderThanItsBoxIsSaid() throws {
        let (folder, _) = try document(lang: "en", flip: "never")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"<document><image src="arrow.png" width="1000" height="10" alt=""/><image src="arrow.png" alt=""/></document>"#
            .write(toFile: folder + "/wide.xml", atomically: true, encoding: .utf8)
        let outcome = sharedTypesetter.layoutFile(folder + "/wide.xml", settings: JobSettings())
        #expect(outcome.diagnostics.items.map(\.message) == [
            "this <image> is 1000 pt wide, more than the 358 pt it has: it is shown 358 × 3.6 pt, its shape kept"
        ])
        let found: [ImageItem] = outcome.layout?.pages.flatMap(\.items).compactMap { if case .image(let i) = $0 { i } else { nil } } ?? []
        #expect(found.map(\.width) == [358, 20] && abs((found.first?.height ?? 0) - 3.58) < 0.001)
    }

    /// The context that flips an image is the nearest container's: a stack's or row's `dir`
    /// says it, whatever the document's language.
    @Test func theContainersDirectionDecidesTheFlip() throws {
        let (folder, _) = try document(lang: "en", flip: "rtl")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (xml, flipped) in [
            (#"<document lang="en"><stack dir="rtl"><image src="arrow.png" width="40" flip="rtl"/></stack></document>"#, true),
            (#"<document lang="ar"><row dir="ltr"><image src="arrow.png" width="40" flip="rtl"/></row></document>"#, false),
            (#"<document lang="ar"><stack dir="ltr"><stack dir="rtl"><image src="arrow.png" width="40" flip="rtl"/></stack></stack></document>"#, true),
        ] {
            try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            let found = images(folder + "/doc.xml")
            #expect(found.count == 1 && found.first?.flipped == flipped, "\(xml)")
        }
    }

    /// `align` places an image as it would a line of text: start and end follow the context's
    /// direction, left, right and center are physical. A divider takes its `color`.
    @Test func alignPlacesTheImageAndColorPaintsTheDivider() throws {
        let (folder, _) = try document(lang: "en", flip: "never")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(lang: String, align: String, x: Double, side: String)] = [
            ("en", "center", 175, "center"), ("en", "end", 334, "right"), ("en", "start", 16, "left"),
            ("ar", "start", 334, "right"), ("ar", "end", 16, "left"), ("ar", "left", 16, "left"),
            ("ar", "center", 175, "center"), ("he", "right", 334, "right"),
        ]
        for (lang, align, x, side) in cases {
            let xml = ##"<document lang="\##(lang)"><image src="arrow.png" width="40" align="\##(align)"/><divider color="#FF0000"/></document>"##
            try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: JobSettings())
            let items = try #require(outcome.layout?.pages.first?.items)
            let image = items.compactMap { if case .image(let i) = $0 { i } else { nil } }.first
            #expect(image?.x == x, "\(lang) align=\(align)")
            #expect(outcome.layout?.report.pages.first?.blocks.first?.align == side, "\(lang) align=\(align)")
            let rule = items.compactMap { if case .rule(let r) = $0 { r } else { nil } }.first
            #expect(rule?.color == Color(red: 1, green: 0, blue: 0))
        }
    }
    /// An image less tall than the first line of the text beside it in a row stands centered
    /// on that line, as an icon beside its label does (it stood at the row's top); a taller one
    /// stays at the top, but where the line was moved down to a button's title: there an icon
    /// taller than the line is centered on it too (a 24 pt icon stood 11 pt above its label).
    @Test func anIconBesideItsLabelIsCenteredOnItsLine() throws {
        let (folder, _) = try document(lang: "en", flip: "never")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (height, centered) in [(12.0, true), (40.0, false)] {
            let xml = #"<document lang="ar"><row><image src="arrow.png" width="24" height="\#(height)"/><label>رجوع إلى القائمة</label></row></document>"#
            try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: JobSettings())
            let blocks = try #require(outcome.layout?.report.pages.first?.blocks)
            let image = try #require(blocks.first { $0.kind == "image" }?.frame)
            let label = try #require(blocks.first { $0.kind == "label" })
            let line = try #require(label.lines.first)
            // The label's line box: `line-height` (1.3) times its size, its baseline where the
            // layout put it; its middle, from the frame's top.
            let middle = label.frame.y + 17 * 1.3 / 2
            #expect((abs(image.y + image.height / 2 - middle) < 0.01) == centered, "\(height): \(image) \(label.frame) \(line.baseline)")
            if !centered { #expect(image.y == label.frame.y) }
        }
        // Beside a label moved down to a 44 pt button's title: 22.2 and 28 pt icons at Large
        // (17 pt), a 20 pt one at xSmall (14 pt), as a 22 pt one at Large was.
        for (height, body) in [(22.0, 17.0), (22.2, 17), (28, 17), (20, 14)] {
            let xml = #"<document><row><image src="arrow.png" width="24" height="\#(height)"/><label>Wi-Fi</label><button>Join</button></row></document>"#
            try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            var settings = JobSettings()
            settings.layout.bodySize = body
            let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: settings)
            let blocks = try #require(outcome.layout?.report.pages.first?.blocks)
            let image = try #require(blocks.first { $0.kind == "image" }?.frame)
            let label = try #require(blocks.first { $0.kind == "label" }?.frame)
            #expect(label.y > 16 + 5, "moved down to the button's title: \(label)")
            #expect(abs(image.y + image.height / 2 - (label.y + body * 1.3 / 2)) < 0.01, "\(height) at \(body): \(image) \(label)")
        }
        // So do the rules of a "—— or ——" separator (they ran along the row's top).
        let separator = #"<document lang="ar"><row><divider/><label align="center">أو</label><divider/></row></document>"#
        try separator.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: JobSettings())
        let blocks = try #require(outcome.layout?.report.pages.first?.blocks)
        let label = try #require(blocks.first { $0.kind == "label" })
        let rules = blocks.filter { $0.kind == "divider" }.map(\.frame)
        #expect(rules.count == 2 && rules.allSatisfy { abs($0.y + $0.height / 2 - (label.frame.y + 17 * 1.3 / 2)) < 0.01 }, "\(rules)")
        // Between buttons of one height, whichever comes first: on the highest of the tallest lines.
        var heights: [Double] = []
        for buttons in [("A much longer button title that wraps onto lines", "Short"), ("Short", "A much longer button title that wraps onto lines")] {
            let xml = "<document><row><button>\(buttons.0)</button><divider/><button>\(buttons.1)</button></row></document>"
            try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            let page = try #require(sharedTypesetter.layoutFile(folder + "/doc.xml", settings: JobSettings()).layout?.report.pages.first)
            heights += page.blocks.filter { $0.kind == "divider" }.map(\.frame.y)
        }
        #expect(heights.count == 2 && heights[0] == heights[1], "\(heights)")
    }

    /// An image's `key` takes its alt text from the string catalog.
    @Test func anImagesKeyLocalizesItsAlt() throws {
        let (folder, _) = try document(lang: "ar", flip: "never")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xml = #"<document lang="ar"><image src="arrow.png" width="40" alt="Next" key="next"/><image src="arrow.png" width="40" alt="Back" key="back"/></document>"#
        try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        var settings = JobSettings()
        settings.layout.catalog = StringCatalog(tables: ["": ["next": "التالي"]], sourceLanguage: nil)
        let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: settings)
        let images = outcome.layout?.pages.flatMap(\.items).compactMap { item -> ImageItem? in
            if case .image(let i) = item { i } else { nil }
        } ?? []
        #expect(images.map(\.alt) == ["التالي", "Back"])
        #expect(outcome.diagnostics.items.map(\.message) == ["no string for key 'back' in the catalog; the image's own alt is used"])
    }

    /// An image's or divider's own direction (SPEC §6 `direction`) is its dir, else its lang's,
    /// else the context's; `context` stays the context's.
    @Test func leavesReportTheirOwnDirection() throws {
        let (folder, _) = try document(lang: "ar", flip: "never")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xml = #"<document lang="ar"><image src="arrow.png" width="40" dir="ltr"/><divider lang="en"/><image src="arrow.png" width="40"/><divider dir="auto" lang="he"/></document>"#
        try xml.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        let outcome = sharedTypesetter.layoutFile(folder + "/doc.xml", settings: JobSettings())
        let blocks = try #require(outcome.layout?.report.pages.first?.blocks)
        #expect(blocks.map(\.direction) == ["ltr", "ltr", "rtl", "rtl"])
        #expect(blocks.allSatisfy { $0.context == "rtl" })
    }
}
