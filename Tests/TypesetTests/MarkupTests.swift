// Tests of the markup stage (SPEC §2, §4.4): the XML reader, the parser's checks and the model.

import Foundation
import Testing

@testable import Typeset

// MARK: - Helpers

private func parse(_ source: String, file: String = "/nonexistent/doc.xml", assets: [String] = [])
    -> (document: Document?, diagnostics: Diagnostics)
{
    MarkupParser.parse(bytes: Array(source.utf8), file: file, assetDirectories: assets)
}

/// Message and hint together, for matching a key part of either.
private func text(of diagnostic: Diagnostic) -> String {
    diagnostic.message + " " + (diagnostic.hint ?? "")
}

private func expectError(
    _ result: (document: Document?, diagnostics: Diagnostics), line: Int, column: Int,
    _ key: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(result.document == nil, sourceLocation: sourceLocation)
    let errors = result.diagnostics.errors
    guard let error = errors.first(where: { text(of: $0).contains(key) }) else {
        Issue.record("no error contains \"\(key)\"; got \(errors)", sourceLocation: sourceLocation)
        return
    }
    #expect(error.location.line == line, "\(error)", sourceLocation: sourceLocation)
    #expect(error.location.column == column, "\(error)", sourceLocation: sourceLocation)
}

/// A complete PNG of `width` × `height` grey pixels (the parser checks every chunk, CRC and
/// row), or of the 8-bit `colorType` (2 RGB, 6 RGBA) whose `rows` (each a filter type, then its
/// samples) are given: IHDR, one IDAT holding the rows as stored (uncompressed) zlib blocks, IEND.
/// `zlibHeader`: the stream's two header bytes (78 01: a 32 KiB window, as most writers say).
func pngFile(width: UInt32, height: UInt32, colorType: UInt8 = 6, rows: [UInt8]? = nil, zlibHeader: [UInt8] = [0x78, 0x01])
    -> [UInt8]
{
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(PNGFile.crc32(typed))
    }
    var png = PNGFile.signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0])
    // Each row: filter byte 0, then RGBA pixels.
    let row = [0] + [UInt8](repeating: 0x80, count: 4 * Int(width))
    let raw = rows ?? [UInt8]((0..<Int(height)).flatMap { _ in row })
    var adlerA: UInt32 = 1
    var adlerB: UInt32 = 0
    for byte in raw {
        adlerA = (adlerA + UInt32(byte)) % 65521
        adlerB = (adlerB + adlerA) % 65521
    }
    var zlib: [UInt8] = zlibHeader
    var start = 0
    repeat {
        let end = min(start + 65535, raw.count)
        let length = UInt16(end - start)
        zlib += [end == raw.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        zlib += raw[start..<end]
        start = end
    } while start < raw.count
    png += chunk("IDAT", zlib + bigEndian(adlerB << 16 | adlerA))
    return png + chunk("IEND", [])
}

/// A fresh folder with `docs/` (the document's folder), `assets/` and `outside/`.
private struct Fixture {
    let root: String
    var docs: String { root + "/docs" }
    var assets: String { root + "/assets" }
    var outside: String { root + "/outside" }
    var file: String { docs + "/doc.xml" }

    init() throws {
        root = FileManager.default.temporaryDirectory.path + "/typeset-markup-\(UUID().uuidString)"
        for folder in [docs, assets, outside] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

// MARK: - Valid documents

@Suite struct MarkupTests {
    @Test func validDocumentUsingEveryElementAndAttribute() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(pngFile(width: 200, height: 100), to: fixture.docs + "/pic.png")
        let source = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- A settings screen -->
            <document lang="ar-EG" dir="rtl" width="400" height="800" margin="20"
                font="Noto Sans, 'Noto Sans Arabic'" font-size="18" line-height="1.4" numerals="auto"
                rtl-balance="3" background="#FFFFFF" color="#102030">
              <title key="screen.title" align="center" weight="bold">Settings</title>
              <heading size="24" color="#FF000080">Section</heading>
              <p lang="en" dir="ltr" align="natural" line-height="1.5" background="#EEEEEE">Hello
                 <b>bold</b> and <i>italic</i> <span lang="fa" dir="auto" size="20" weight="medium"
                 color="#00FF00" numerals="arabext">۱۲</span> <ltr>+1 555</ltr><rtl>r</rtl><bdi>b</bdi>
                 <br/> next &amp; &#x41;&#66;<![CDATA[<raw>]]></p>
              <label weight="light">L</label>
              <caption weight="thin">C</caption>
              <button weight="semibold" align="start">OK</button>
              <list type="number" dir="rtl" align="end"><item>One</item><item weight="regular">Two</item></list>
              <row dir="ltr"><label align="left">A</label><stack dir="auto"><label align="right">B</label></stack></row>
              <image src="pic.png" width="100" flip="rtl" alt="A picture"/>
              <divider color="#000000"/>
              <spacer height="12"/>
              <spacer/>
            </document>
            """
        let result = parse(source, file: fixture.file)
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let document = try #require(result.document)
        #expect(document.location == Typeset.SourceLocation(file: fixture.file, line: 3, column: 1))
        #expect(document.lang == "ar-EG")
        #expect(document.dir == .rtl)
        #expect(document.width == 400 && document.height == 800 && document.device == nil)
        #expect(document.pageWidth == 400 && document.pageHeight == 800)
        #expect(document.margin == 20)
        #expect(document.fontFamilies == ["Noto Sans", "Noto Sans Arabic"])
        #expect(document.fontSize == 18 && document.lineHeight == 1.4)
        #expect(document.numerals == .auto && document.rtlBalance == 3)
        // As in CSS, a comma inside quotes is part of a family's name; white space of any kind
        // around one is not.
        let quoted = try #require(parse(#"<document font="'Foo, Bar' , &quot;Noto Sans&quot;&#10;, Baz"/>"#).document)
        #expect(quoted.fontFamilies == ["Foo, Bar", "Noto Sans", "Baz"])
        // An apostrophe inside a name opens no quote.
        let apostrophe = try #require(parse(#"<document font="Miss's Font, Noto Serif"/>"#).document)
        #expect(apostrophe.fontFamilies == ["Miss's Font", "Noto Serif"])
        #expect(document.background == .white)
        #expect(document.color == Color(red: 0x10 / 255, green: 0x20 / 255, blue: 0x30 / 255))
        #expect(
            document.blocks.map(\.elementName) == [
                "title", "heading", "p", "label", "caption", "button", "list", "row", "image", "divider",
                "spacer", "spacer",
            ])

        let title = document.blocks[0]
        #expect(
            title.kind
                == .text(
                    .title,
                    [
                        Inline(
                            kind: .text("Settings"),
                            location: Typeset.SourceLocation(file: fixture.file, line: 6, column: 58))
                    ]))
        #expect(title.key == "screen.title" && title.style.align == .center && title.style.weight == .bold)
        #expect(title.location == Typeset.SourceLocation(file: fixture.file, line: 6, column: 3))
        #expect(document.blocks[1].style.size == 24)
        #expect(document.blocks[1].style.color == Color(red: 1, green: 0, blue: 0, alpha: 128 / 255))

        let paragraph = document.blocks[2]
        #expect(
            paragraph.style
                == BlockStyle(
                    lang: "en", dir: .ltr, align: .natural, lineHeight: 1.5,
                    background: Color(red: 0xEE / 255, green: 0xEE / 255, blue: 0xEE / 255)))
        guard case .text(.paragraph, let inlines) = paragraph.kind else {
            Issue.record("not a paragraph: \(paragraph.kind)")
            return
        }
        // White space collapsed; spaces sit outside the elements; none after <br/>.
        let flat = inlines.styledText().map(\.text).joined()
        #expect(
            flat
                == "Hello bold and italic \u{2068}۱۲\u{2069} \u{2066}+1 555\u{2069}\u{2067}r\u{2069}\u{2068}b\u{2069}\u{2028}next & AB<raw>"
        )
        #expect(
            inlines[1].kind
                == .span(
                    .b, InlineStyle(weight: .bold),
                    [
                        Inline(
                            kind: .text("bold"),
                            location: Typeset.SourceLocation(file: fixture.file, line: 9, column: 9))
                    ]))
        guard case .span(.span, let spanStyle, _) = inlines[5].kind else {
            Issue.record("not a span: \(inlines[5].kind)")
            return
        }
        #expect(
            spanStyle
                == InlineStyle(
                    lang: "fa", dir: .auto, size: 20, weight: .medium, color: Color(red: 0, green: 1, blue: 0),
                    numerals: .arabext))
        #expect(inlines.contains { $0.kind == .lineBreak })
        let italic = inlines.styledText().first { $0.text == "italic" }
        #expect(italic?.style.italic == true)

        #expect(document.blocks[3].style.weight == .light)
        #expect(document.blocks[4].style.weight == .thin)
        #expect(document.blocks[5].style.weight == .semibold && document.blocks[5].style.align == .start)

        guard case .list(let list) = document.blocks[6].kind else {
            Issue.record("not a list")
            return
        }
        #expect(list.marker == .number && document.blocks[6].style.dir == .rtl)
        #expect(list.items.map(\.elementName) == ["item", "item"])
        #expect(document.blocks[6].style.align == .end && list.items[1].style.weight == .regular)
        #expect(
            list.items[1].kind
                == .text(
                    .item,
                    [
                        Inline(
                            kind: .text("Two"),
                            location: Typeset.SourceLocation(file: fixture.file, line: 15, column: 84))
                    ]))

        guard case .row(let row) = document.blocks[7].kind, case .stack(let stack) = row.last?.kind else {
            Issue.record("not a row with a stack")
            return
        }
        #expect(row.first?.style.align == .left && row.last?.style.dir == .auto)
        #expect(stack.first?.style.align == .right)

        guard case .image(let image) = document.blocks[8].kind else {
            Issue.record("not an image")
            return
        }
        #expect(image.source == "pic.png")
        #expect(image.path == Path.realPath(fixture.docs + "/pic.png"))
        #expect(image.pixelWidth == 200 && image.pixelHeight == 100)
        #expect(image.width == 100 && image.height == nil && image.size == (100, 50) as (Double, Double))
        #expect(image.flip == .rtl && image.alt == "A picture")
        #expect(document.blocks[9].kind == .divider && document.blocks[9].style.color == .black)
        #expect(document.blocks[10].kind == .spacer(height: 12))
        #expect(document.blocks[11].kind == .spacer(height: nil))
    }

    /// Numbers are read in one pass; the value must be the one `Double(text)` gives (correctly
    /// rounded), and anything but `-?digits[.digits]` or `-?.digits` is refused.
    @Test func decimalsParseAsDoubleDoesAndNothingElse() {
        let valid = [
            "0", "-0", "12", "12.5", ".5", "-.5", "0.1", "0.3", "1.3", "390", "14400", "14400.001",
            "123456789012345", "1234567890123456", "0.000000000000001", "0.0000000000000001",
            "99999999999999.9", "1.7976931348623157", "007.250",
        ]
        for text in valid {
            let parsed = AttributeValues.parseDecimal(text)
            #expect(parsed != nil && parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        for text in ["", "-", ".", "-.", "5.", "1.2.3", "--1", "+1", "1e5", "inf", "nan", " 1", "1 ", "1_0", "٣", "0x10"] {
            #expect(AttributeValues.parseDecimal(text) == nil, "\(text)")
        }
    }

    /// A language tag is kept in the case BCP 47 recommends, as `--locale` is (`AR-eg` came out
    /// as written, beside `ar-EG` from the locale).
    @Test func languageTagsTakeTheirRecommendedCase() throws {
        let document = try #require(parse(#"<document lang="AR-eg"><p lang="ZH-hant-tw">x</p></document>"#).document)
        #expect(document.lang == "ar-EG" && document.blocks.first?.style.lang == "zh-Hant-TW")
        // A deprecated code is written as the current one (a PDF's /Lang said `iw`).
        let old = try #require(parse(#"<document lang="iw"><p lang="IN-id">x</p><p lang="ji">x</p></document>"#).document)
        #expect(old.lang == "he" && old.blocks.map(\.style.lang) == ["id-ID", "yi"])
        #expect(Language.canonical(tag: "iw_IL") == "he-IL" && Language.canonical(tag: "iwx") == "iwx")
        // So is a three-letter code of a language that has a two-letter one (`ara` was set left
        // to right, an unknown language).
        let long = try #require(parse(#"<document lang="ara"><p lang="heb-IL">x</p><p lang="FAS">x</p></document>"#).document)
        #expect(long.lang == "ar" && long.blocks.map(\.style.lang) == ["he-IL", "fa"])
    }

    /// What goes to a terminal (`writeStandardError`) has its control characters (a terminal's
    /// escape codes in a catalog's text) and bidi overrides and isolates (which reorder the line:
    /// a file name with U+202E) written as `\u{…}`; joiners and marks stay.
    @Test func terminalSafeTextEscapesControlsAndOverrides() {
        #expect(terminalSafe("the word 'x\u{1B}[31my'") == "the word 'x\\u{1B}[31my'")
        #expect(terminalSafe("a\u{202E}b\u{2067}c\u{200C}d") == "a\\u{202E}b\\u{2067}c\u{200C}d")
        // Invisible format characters pasted into a value ("not 'center' (did you mean
        // 'center'?)"), and line separators; not an emoji's joiner or its flag's tags.
        #expect(terminalSafe("cen\u{200B}ter #fff\u{FEFF} a\u{2028}b") == "cen\\u{200B}ter #fff\\u{FEFF} a\\u{2028}b")
        #expect(terminalSafe("👩\u{200D}💻 🏴\u{E0067}\u{E0062}\u{E007F}") == "👩\u{200D}💻 🏴\u{E0067}\u{E0062}\u{E007F}")
        // A diagnostic is one line: a line feed in its file's name or its message (an
        // attribute's `&#10;`) cut it in two.
        let diagnostic = Diagnostic.error(SourceLocation(file: "x\ny.xml", line: 1, column: 14), "not 'a\nb'", hint: "c\nd")
        #expect(diagnostic.description == "x\\u{A}y.xml:1:14: error: not 'a\\u{A}b' (c\\u{A}d)")
    }

    /// SPEC §2's table of device presets, typed out: each gives its page size.
    @Test func devicePresetsGiveTheSpecsPageSizes() throws {
        let table: [(String, Double, Double)] = [
            ("iphone-se", 320, 568), ("iphone-8", 375, 667), ("iphone-8-plus", 414, 736), ("iphone-xs", 375, 812),
            ("iphone-xr", 414, 896), ("iphone-xs-max", 414, 896), ("ipad-mini", 768, 1024), ("ipad", 768, 1024),
            ("ipad-pro-10.5", 834, 1112), ("ipad-pro-12.9", 1024, 1366),
        ]
        #expect(table.map(\.0) == DevicePreset.allCases.map(\.rawValue))
        for (name, width, height) in table {
            let document = try #require(parse("<document device='\(name)'><p>x</p></document>").document)
            #expect(document.pageWidth == width && document.pageHeight == height, "\(name)")
            let page = try #require(layoutMarkup("<document device='\(name)'><p>x</p></document>")?.report.pages.first)
            #expect(page.width == width && page.height == height, "\(name): \(page.width) × \(page.height)")
        }
    }

    @Test func unsetAttributesAreNilAndDefaultsAreNamed() throws {
        let document = try #require(parse("<document device='iphone-xs'><p>x</p></document>").document)
        #expect(document.lang == nil && document.dir == nil && document.margin == nil && document.numerals == nil)
        #expect(document.device == .iphoneXS && document.pageWidth == 375 && document.pageHeight == 812)
        #expect(document.blocks[0].style == BlockStyle() && document.blocks[0].key == nil)
        #expect(Document.defaultLanguage == "en" && Document.defaultWidth == 390 && Document.defaultMargin == 16)
        #expect(Document.defaultFontSize == 17 && Document.defaultLineHeight == 1.3)
        #expect(document.numerals == nil && Document.defaultRTLBalance == 2)
        #expect(TextRole.title.defaultSize() == 34 && TextRole.heading.defaultSize() == 22)
        #expect(TextRole.caption.defaultSize() == 12 && TextRole.button.defaultWeight == .semibold)
        // iOS's Title 2 for a heading, between two Dynamic Type sizes in proportion, past AX5 as the body.
        #expect(TextRole.heading.defaultSize(textSize: 53) == 56 && TextRole.heading.defaultSize(textSize: 14) == 19)
        #expect(TextRole.heading.defaultSize(textSize: 18) == 23 && TextRole.title.defaultSize(textSize: 106) == 120)
        #expect(TextRole.caption.defaultSize(textSize: 17, documentSize: 34) == 24 && TextRole.label.defaultSize(textSize: 28) == 28)
        #expect(TextRole.title.scale(textSize: 53) == 60.0 / 34 && TextRole.label.scale(textSize: 53) == 53.0 / 17)
        #expect(TextRole.button.defaultAlignment == .center && ListBlock.defaultMarker == .bullet)
        let empty = try #require(parse("<document/>").document)
        #expect(empty.pageWidth == 390 && empty.pageHeight == nil && empty.blocks.isEmpty)
        // Laid out, its blank page is said to be one (it was rendered unsaid).
        let blank = try #require(layoutMarkup("<document/>"))
        #expect(blank.diagnostics.warnings.map(\.message) == ["the document has no blocks: its page is blank"])
        #expect(try #require(layoutMarkup("<document><spacer/></document>")).diagnostics.warnings.isEmpty)
    }

    @Test func explicitSizeOverridesTheDeviceWithAWarning() throws {
        let result = parse("<document device='ipad' height='2000'/>")
        let document = try #require(result.document)
        #expect(document.pageWidth == 768 && document.pageHeight == 2000)
        #expect(result.diagnostics.warnings.count == 1)
        #expect(result.diagnostics.warnings.first?.message == "'height' overrides the height of device 'ipad'")
        #expect(result.diagnostics.warnings.first?.location.column == 25)
    }

    /// Several problems are listed in the order of the input, not of the checks.
    @Test func diagnosticsComeInTheOrderOfTheInput() {
        let result = MarkupParser.parse(
            bytes: Array("<document><p color=\"zz\" size=\"x\" align=\"justify\" weight=\"heavy\">x</p>\n<p size=\"-1\">y</p></document>".utf8),
            file: "t.xml")
        #expect(result.document == nil)
        let places = result.diagnostics.items.map { [$0.location.line, $0.location.column] }
        #expect(places == [[1, 14], [1, 25], [1, 34], [1, 50], [2, 4]], "\(result.diagnostics.items)")
    }

    /// US-ASCII, a subset of UTF-8, is read as declared (Python's ElementTree writes
    /// `encoding='us-ascii'` and character references by default; it was refused with "save
    /// the file as UTF-8").
    @Test func asciiDeclaredIsRead() throws {
        for name in ["us-ascii", "US-ASCII", "ascii"] {
            let result = parse("<?xml version='1.0' encoding='\(name)'?>\n<document lang='ar'><p>&#1605;&#1585;</p></document>")
            #expect(result.document != nil && result.diagnostics.items.isEmpty, "\(name): \(result.diagnostics.items)")
        }
    }

    /// A terminal is shown ten warnings of one message, then one line with how many more and
    /// where the last is, and 200 warnings in all (20,000 `<spacer size="8"/>` printed 20,000
    /// lines); errors all stay, in their places.
    @Test func repeatedWarningsAreCondensed() {
        let spacers = String(repeating: "<spacer size=\"8\"/>\n", count: 25)
        let result = MarkupParser.parse(bytes: Array("<document>\n\(spacers)<p color='zz'>x</p></document>".utf8), file: "t.xml")
        #expect(result.diagnostics.warnings.count == 25)
        let shown = result.diagnostics.condensed()
        #expect(shown.count == 12, "\(shown)")
        #expect(shown[10].location.line == 26 && shown[10].message.hasPrefix("… and 15 more times, the last here: "), "\(shown[10])")
        #expect(shown[10].message.hasSuffix(result.diagnostics.warnings[0].messageWithHint))
        #expect(shown[11].severity == .error && shown[11].location.line == 27)
        var many = Diagnostics()
        for line in 1...300 { many.report(.warning(SourceLocation(file: "t.xml", line: line, column: 1), "word \(line)")) }
        let capped = many.condensed()
        #expect(capped.count == 201 && capped[200].message == "… and 100 more warnings, the last here" && capped[200].location.line == 300)
        // 250 messages 11 times each: 200 lines, then one for the rest (it added a "1 more
        // time" of each message, of which none had been shown ten times).
        var distinct = Diagnostics()
        for k in 0..<11 {
            for i in 0..<250 { distinct.report(.warning(SourceLocation(file: "t.xml", line: k * 250 + i + 1, column: 1), "phone \(i)")) }
        }
        let few = distinct.condensed()
        #expect(few.count == 201 && few[200].message == "… and 2550 more warnings, the last here" && few[200].location.line == 2750)
    }

    /// Common attributes that mean nothing on an element are accepted with a warning at the
    /// attribute, never silently.
    @Test func attributesWithoutEffectWarnAtTheAttribute() throws {
        let result = parse("""
            <document>
            <divider size="3" color="#FF0000"/><spacer height="4" align="end"/>
            <stack key="k" size="20"><p>a</p></stack>
            </document>
            """)
        #expect(result.document != nil)
        let warnings = result.diagnostics.warnings.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(warnings == [
            "2:10 'size' has no effect on 'divider'", "2:55 'align' has no effect on 'spacer'",
            "3:8 'key' has no effect on 'stack'",
        ])
    }

    @Test func whiteSpaceWrittenAsReferencesIsWhiteSpace() throws {
        let result = parse("<document>&#32;<p>x</p>&#x9;&#10;<list>&#13;<item>y</item></list></document>")
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        #expect(result.document?.blocks.count == 2)
        // Any other reference is text, which does not belong there.
        expectError(parse("<document>&#160;<p>x</p></document>"), line: 1, column: 11, "text is not allowed")
    }

    @Test func whiteSpaceIsCollapsedAcrossInlineElements() throws {
        let document = try #require(parse("<document><p>\n  a  <b> b </b>\tc <br/>  d\n</p></document>").document)
        guard case .text(_, let inlines) = document.blocks[0].kind else {
            Issue.record("not a text block: \(document.blocks[0].kind)")
            return
        }
        // As in HTML, a run's space is where the run begins, with that text's style: "b " is
        // bold (it was " c", and a 40 pt span's space took the next text's 17 pt).
        #expect(inlines.styledText().map(\.text) == ["a ", "b ", "c", "\u{2028}", "d"])
        let markup = #"<p><span size="40">Total </span>$5 <ltr>+1 555 </ltr>next <b>x </b><i><br/>y</i><b> z </b></p>"#
        let sized = try #require(parse("<document>\(markup)</document>").document)
        guard case .text(_, let sizedInlines) = sized.blocks[0].kind else {
            Issue.record("not a text block: \(sized.blocks[0].kind)")
            return
        }
        let pieces = sizedInlines.styledText()
        // An isolate's last space goes after it, outside its direction; none ends a line.
        #expect(pieces.map(\.text) == ["Total ", "$5 ", "\u{2066}", "+1 555", "\u{2069}", " ", "next ", "x", "\u{2028}", "y", " z"])
        #expect(pieces.first?.style.size == 40)
        // A space that begins an isolate's text goes before it: inside, it stood on the far
        // side, and "Wi-Fi" touched "مرحبا" (in a span, and a span's `dir` isolates too).
        let leading = try #require(parse(#"<document><p>مرحبا<ltr> Wi-Fi</ltr><b><span dir="rtl"><i> x</i></span></b></p></document>"#).document)
        guard case .text(_, let leadingInlines) = leading.blocks[0].kind else { return }
        #expect(leadingInlines.styledText().map(\.text) == ["مرحبا ", "\u{2066}", "Wi-Fi", "\u{2069}", " ", "\u{2067}", "x", "\u{2069}"])
        // The space goes, not the combining mark after it, as collapsing keeps it: a Character
        // of the two, " \u{301}" was dropped whole, the accent lost.
        let marked = try #require(parse("<document><p>Mark:<ltr> \u{301}x</ltr> end</p></document>").document)
        guard case .text(_, let markedInlines) = marked.blocks[0].kind else { return }
        #expect(markedInlines.styledText().map(\.text) == ["Mark: ", "\u{2066}", "\u{301}x", "\u{2069}", " end"])
        // Outside, a `dir` span's space keeps the rest of its style: 40 pt (it took the 17 of "$5").
        let directed = try #require(parse(#"<document><p><span dir="ltr" size="40">Total </span>$5</p></document>"#).document)
        guard case .text(_, let directedInlines) = directed.blocks[0].kind else { return }
        let directedPieces = directedInlines.styledText()
        #expect(directedPieces.map(\.text) == ["\u{2066}", "Total", "\u{2069}", " ", "$5"])
        #expect(directedPieces.map(\.style.size) == [nil, 40, nil, 40, nil])
        // The space before a line's end goes, not one after it ("b " lost its space for "a "'s).
        let after = try #require(parse(#"<document><p>a <b><br/>b <i>c</i></b></p></document>"#).document)
        guard case .text(_, let afterInlines) = after.blocks[0].kind else { return }
        #expect(afterInlines.styledText().map(\.text) == ["a", "\u{2028}", "b ", "c"])
        // U+2028 and U+2029 typed in the text (or as references) end a line as `br` does: no
        // space on either side (the space after one began the next line).
        for text in ["a \u{2028} d", "a&#x2028; d", "a<b> \u{2029} </b>d", "a\u{2028}\u{2028} d"] {
            let typed = try #require(parse("<document><p>\(text)</p></document>").document)
            guard case .text(_, let inlines) = typed.blocks[0].kind else {
                Issue.record("\(text): not a text block")
                continue
            }
            let joined = inlines.styledText().map(\.text).joined()
            #expect(!joined.contains(" ") && joined.hasPrefix("a") && joined.hasSuffix("d"), "\(text): \(joined.debugDescription)")
        }
    }

    @Test func manyErrorsAreCollectedInOnePass() {
        let result = parse(
            """
            <document margin="-1" colour="#000000">
              <p weight="heavy" size="0">x</p>
              <lable>y</lable>
            </document>
            """)
        #expect(result.document == nil)
        #expect(result.diagnostics.errors.count == 5, "\(result.diagnostics.items)")
    }

    // MARK: - Bad inputs

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { name }

        init(_ name: String, _ source: String, _ line: Int, _ column: Int, _ message: String) {
            self.init(name, Array(source.utf8), line, column, message)
        }
        init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.column = column
            self.message = message
        }
    }

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
        ]>
        <document><p>&lol2;</p></document>
        """

    static let badInputs: [BadInput] = [
        BadInput(
            "mismatched end tag", "<document>\n  <p>x</label>\n</document>", 2, 7,
            "end tag '</label>' does not match '<p>' opened at line 2, column 3"),
        // What to do differs with the case: each was told to close the open element first.
        BadInput("stray end tag", "<document><p>a</p></p></document>", 1, 19, "no '<p>' is open: remove this end tag"),
        BadInput("br left open", "<document><p>a<br>b</p></document>", 1, 20, "'br' takes no content: write it '<br/>'"),
        BadInput("misspelt end tag", "<document><lable>a</label></document>", 1, 19, "the names differ: spell the start tag and the end tag alike"),
        BadInput("end tag in another case", "<document><p>a</P></document>", 1, 15, "names are case-sensitive: write '</p>'"),
        // Names longer than any element's are not measured for a typo (the measure takes the
        // product of their lengths: two of 40,000 letters took 8 s).
        BadInput(
            "long names that differ", "<document><p><" + String(repeating: "a", count: 100) + ">x</"
                + String(repeating: "a", count: 99) + "b></p></document>", 1, 117, "' is open: remove this end tag, or close"),
        BadInput("entity without ';'", "<document><p>Fish &amp chips</p></document>", 1, 19, "the entity '&amp' lacks its ';'"),
        BadInput("HTML entity", "<document><p>a&nbsp;b</p></document>", 1, 15, "unknown entity '&nbsp;'"),
        BadInput("HTML entity's reference", "<document><p>a &rlm b</p></document>", 1, 16, "write '&#x200F;'"),
        BadInput("quote not closed before the tag ends", "<document>\n<p color=\"#ff0000>a</p>\n</document>", 2, 4,
                 "add its closing '\"' before the '>' that ends the tag"),
        BadInput("unclosed element", "<document>\n  <p>text\n", 2, 3, "element 'p' is not closed"),
        BadInput("empty input", "", 1, 1, "no root element"),
        BadInput("text after the root", "<document/>\nx", 2, 1, "text after the root element"),
        BadInput("second root", "<document/><document/>", 1, 12, "a second root element"),
        BadInput("duplicate attribute", "<document lang='en' lang='ar'/>", 1, 21, "duplicate attribute 'lang'"),
        BadInput("unquoted attribute", "<document lang=en/>", 1, 16, "must be in quotes"),
        BadInput("'<' in an attribute", "<document lang='<'/>", 1, 17, "'<' is not allowed in an attribute value"),
        BadInput("bare ampersand", "<document><p>a & b</p></document>", 1, 16, "'&' must start"),
        BadInput("unclosed comment", "<document>\n<!-- x\n</document>", 2, 1, "comment is not closed"),
        BadInput("double hyphen in comment", "<document><!-- a -- b --></document>", 1, 18, "'--' is not allowed"),
        BadInput("late XML declaration", "<document/>\n<?xml version='1.0'?>", 2, 1, "XML declaration"),
        BadInput("declared encoding", "<?xml version='1.0' encoding='ISO-8859-1'?><document/>", 1, 31, "'ISO-8859-1'; only UTF-8"),
        BadInput("uppercase XML declaration", "<?XML version='1.0'?><document/>", 1, 1, "'<?XML' is not an XML declaration"),
        BadInput("XML declaration without version", "<?xml?><document/>", 1, 1, "the XML declaration has no version"),
        BadInput("XML version 2.0", "<?xml version=\"2.0\"?><document/>", 1, 16, "the XML version '2.0' is not 1.0"),
        BadInput("XML version abc", "<?xml version='abc'?><document/>", 1, 16, "the XML version 'abc'"),
        BadInput("standalone maybe", "<?xml version='1.0' standalone='maybe'?><document/>", 1, 33, "standalone is 'yes' or 'no'"),
        BadInput("XML declaration extra", "<?xml version='1.0' extra='x'?><document/>", 1, 21, "'extra' is not allowed"),
        BadInput("XML declaration order", "<?xml encoding='UTF-8' version='1.0'?><document/>", 1, 7, "'encoding' is out of place"),
        BadInput("XML declaration twice", "<?xml version='1.0' version='1.0'?><document/>", 1, 21, "'version' is out of place"),
        BadInput("XML declaration unspaced", "<?xml version='1.0'encoding='UTF-8'?><document/>", 1, 20, "expected a space"),
        BadInput("XML declaration no equals", "<?xml version '1.0'?><document/>", 1, 15, "expected '=' after 'version'"),
        BadInput("XML declaration unclosed", "<?xml version='1.0'", 1, 1, "the XML declaration is not closed"),
        // A tag next: the declaration lacks its `?>` (it read "expected a space and a name").
        BadInput("XML declaration unclosed before a tag", "<?xml version='1.0'\n<document/>", 1, 1, "the XML declaration is not closed"),
        BadInput("XML declaration ended by '>'", "<?xml version='1.0'><document/>", 1, 20, "ends with '?>', not '>'"),
        BadInput("XML declaration unclosed right before a tag", "<?xml version='1.0'<document/>", 1, 1, "the XML declaration is not closed"),
        BadInput(
            "UTF-16 with its byte-order mark", [0xFF, 0xFE] + "<document/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            1, 1, "the input is UTF-16 (it starts with a UTF-16 byte-order mark); markup must be UTF-8"),
        // Told as what they are: a UTF-16 or UTF-32 file without a mark, a UTF-32 one with it
        // (they read "a NUL byte is not allowed", and UTF-32 "UTF-16").
        BadInput(
            "UTF-16 without a byte-order mark", "<document/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            1, 1, "the input is UTF-16 (its first characters are two bytes each)"),
        BadInput(
            "UTF-16 starting with a line end", "\n<document/>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            1, 1, "the input is UTF-16 (its first characters are two bytes each)"),
        BadInput("a processing instruction cut off", "<document><?pi", 1, 11, "the processing instruction is not closed"),
        BadInput(
            "UTF-32 with its byte-order mark", [0xFF, 0xFE, 0, 0, 0x3C, 0, 0, 0], 1, 1,
            "the input is UTF-32 (it starts with a UTF-32 byte-order mark)"),
        // At the start, `<?xml` not followed by white space is a declaration written wrong (it
        // was told to be at the start); a `?` ends it only before `>`; the encoding as written.
        BadInput("XML declaration with a no-break space", "<?xml\u{A0}version='1.0'?><document/>", 1, 6, "expected white space after '<?xml'"),
        BadInput("XML declaration closed at once", "<?xml><document/>", 1, 6, "expected white space after '<?xml' in the XML declaration, not '>'"),
        BadInput("XML declaration's ? apart", "<?xml version=\"1.0\"?   ><document/>", 1, 20, "expected '>' right after '?'"),
        BadInput(
            "non-ASCII under a US-ASCII declaration", "<?xml version='1.0' encoding='us-ascii'?>\n<document><p>a\u{E9}</p></document>",
            2, 15, "declares the encoding 'us-ascii', and this character is not ASCII"),
        BadInput("UTF-16 declared", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><document/>", 1, 31, "declares the encoding 'UTF-16'"),
        // A file in the encoding it declares is told so, not only of a byte (0xE3 is Windows-1256's م).
        BadInput(
            "Windows-1256 declared",
            [UInt8]("<?xml version=\"1.0\" encoding=\"windows-1256\"?>\n<document><p>".utf8) + [0xE3, 0xD1]
                + Array("</p></document>".utf8),
            1, 31, "the input declares the encoding 'windows-1256'; only UTF-8 is supported"),
        // XML 1.0 [16]: white space or `?>` after the target.
        BadInput("processing instruction target unspaced", "<?pi=x?><document/>", 1, 5, "expected white space or '?>' after the processing-instruction target 'pi'"),
        BadInput("CSS property name", "<document><p font-size='20'>x</p></document>", 1, 14, "did you mean 'size'?"),
        BadInput("language for lang", "<document><p language='ar'>x</p></document>", 1, 14, "did you mean 'lang'?"),
        BadInput("fontsize on the document", "<document fontsize='20'><p>x</p></document>", 1, 11, "did you mean 'font-size'?"),
        // Not "did you mean 'weight'?".
        BadInput(
            "a height of a divider", "<document><divider height='3'/></document>", 1, 20,
            "it is an attribute of 'document', 'image' and 'spacer', not of 'divider'"),
        BadInput("DOCTYPE", "<!DOCTYPE document>\n<document/>", 1, 1, "a DOCTYPE is not allowed"),
        BadInput("billion laughs", billionLaughs, 2, 1, "DTDs and entity declarations are refused"),
        BadInput(
            "external entity declaration",
            "<!DOCTYPE d [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><document>&xxe;</document>",
            1, 1, "a DOCTYPE is not allowed"),
        BadInput(
            "undeclared entity reference", "<document>\n  <p>&xxe;</p>\n</document>", 2, 6, "unknown entity '&xxe;'"),
        BadInput("HTML entity", "<document><p title='&nbsp;'/></document>", 1, 21, "unknown entity '&nbsp;'"),
        BadInput(
            "invalid UTF-8", [UInt8]("<document>\n<p>aé".utf8) + [0xFF] + Array("</p></document>".utf8),
            2, 6, "not valid UTF-8 (byte 0xFF)"),
        BadInput("encoded surrogate", [UInt8]("<document>".utf8) + [0xED, 0xA0, 0x80], 1, 11, "not valid UTF-8"),
        // A picture or a PDF beside the markup (`render screens/*`) is said to be one: "not
        // valid UTF-8 (save the file as UTF-8)" misled.
        BadInput("a PNG", PNGFile.signature + [0, 0, 0, 13], 1, 1, "the input is a PNG image, not markup"),
        BadInput("a PDF", Array("%PDF-1.7\n%".utf8) + [0xE2, 0xE3], 1, 1, "the input is a PDF, not markup"),
        BadInput("NUL byte", [UInt8]("<document>\n ab".utf8) + [0] + Array("</document>".utf8), 2, 4, "NUL byte"),
        BadInput("control character", "<document>\u{1}</document>", 1, 11, "control character U+0001"),
        BadInput("surrogate reference", "<document><p>x&#xD800;</p></document>", 1, 15, "a surrogate"),
        BadInput("NUL reference", "<document><p>&#0;</p></document>", 1, 14, "refers to NUL"),
        BadInput("non-character reference", "<document><p>&#xFFFE;</p></document>", 1, 14, "U+FFFE"),
        BadInput("reference beyond Unicode", "<document><p>&#99999999999;</p></document>", 1, 14, "beyond U+10FFFF"),
        BadInput(
            "nesting 300 deep", "<document>" + String(repeating: "<stack>", count: 299), 1, 11 + 255 * 7,
            "nested deeper than 256"),
        BadInput(
            "CRLF line counting", "<document>\r\n<p>x</p>\r\n\r\n  <bogus/>\r\n</document>", 4, 3,
            "unknown element 'bogus'"),
        BadInput("CR line counting", "<document>\r<p>x</p>\r<p>&bad;</p></document>", 3, 4, "unknown entity"),
        BadInput(
            "BOM is not a column", [0xEF, 0xBB, 0xBF] + Array("<document><bogus/></document>".utf8), 1, 11,
            "unknown element 'bogus'"),
        BadInput("columns count scalars", "<document><p>عربي 😀 <x/></p></document>", 1, 21, "unknown element 'x'"),
        // Text long enough for the reader's eight-bytes-at-a-time scans (`readCharacterData`,
        // `skipCommonCharacters`), with the byte they stop at inside a word of eight.
        BadInput(
            "columns after long mixed text", "<document><p>Lorem ipsum dolor sit amet مرحبا بالعالم 😀 <x/></p></document>",
            1, 57, "unknown element 'x'"),
        BadInput(
            "']]>' after long text", "<document><p>some long ascii text here ]]> x</p></document>", 1, 40,
            "']]>' is not allowed in text"),
        BadInput(
            "']]>' after Arabic", "<document>\n<p>مرحبا بالعالم مرة أخرى]]></p></document>", 2, 26,
            "']]>' is not allowed in text"),
        BadInput(
            "control character inside long text", "<document><p>abcdefghij\u{1}klmnop</p></document>", 1, 24,
            "control character U+0001"),
        BadInput(
            "lead byte without its continuation", [UInt8]("<document><p>abcdefghijklmnop".utf8) + [0xD8, 0x41]
                + Array("</p></document>".utf8),
            1, 30, "not valid UTF-8 (byte 0xD8)"),
        BadInput("root is not document", "<doc/>", 1, 1, "the root element must be 'document', not 'doc'"),
        BadInput("root capitalised", "<Document/>", 1, 1, "not 'Document' element names are case-sensitive: write <document>"),
        BadInput("root misspelt", "<documnet/>", 1, 1, "not 'documnet' did you mean 'document'?"),
        BadInput("a CSS weight", "<document><p weight='700'>x</p></document>", 1, 14, "not '700' did you mean 'bold'?"),
        BadInput("a CSS list type", "<document><list type='disc'><item>x</item></list></document>", 1, 17, "not 'disc' did you mean 'bullet'?"),
        BadInput("a side for a direction", "<document dir='right'/>", 1, 11, "not 'right' did you mean 'rtl'?"),
        BadInput("a color name", "<document><p color='red'>x</p></document>", 1, 14, "not 'red' write '#FF0000' for red"),
        // UIKit's alignments, the digits' names, CSS's short colors, a text size in the markup.
        BadInput("a leading alignment", "<document><p align='leading'>x</p></document>", 1, 14, "did you mean 'start'?"),
        BadInput("a trailing alignment", "<document><p align='trailing'>x</p></document>", 1, 14, "did you mean 'end'?"),
        BadInput("Eastern Arabic digits", "<document numerals='eastern'/>", 1, 11, "did you mean 'arab'?"),
        BadInput("Persian digits", "<document numerals='Persian'/>", 1, 11, "did you mean 'arabext'?"),
        BadInput("a short color", "<document><p color='#F00'>x</p></document>", 1, 14, "write '#FF0000' for #F00"),
        BadInput("a short color with alpha", "<document><p color='#f008'>x</p></document>", 1, 14, "write '#FF000088' for #f008"),
        BadInput("a text size", "<document text-size='AX1'/>", 1, 11, "is chosen with the --text-size option"),
        BadInput(
            "unknown element with suggestion", "<document>\n  <lable>x</lable>\n</document>", 2, 3,
            "unknown element 'lable' did you mean 'label'?"),
        BadInput("HTML element name", "<document><img src='a.png'/></document>", 1, 11, "did you mean 'image'?"),
        // Two letters swapped are one edit: 'title' (one swap), not 'item' (two edits).
        BadInput("swapped letters", "<document><titel>x</titel></document>", 1, 11, "did you mean 'title'?"),
        // Guesses among the names allowed where the element is, and what is said of attributes
        // that blocks take (each was a guess at another name: 'b', 'span', 'height').
        BadInput("abbreviated button", "<document><btn>OK</btn></document>", 1, 11, "did you mean 'button'?"),
        BadInput("inline guess inside text", "<document><p><spn>x</spn></p></document>", 1, 14, "did you mean 'span'?"),
        BadInput("an inline guess among blocks says where it goes", "<document><spn>x</spn></document>", 1, 11,
                 "did you mean 'span'? It is not allowed inside 'document', which accepts block elements"),
        BadInput("an HTML name among blocks says where its element goes", "<document><li>x</li></document>", 1, 11,
                 "did you mean 'item'? It is not allowed inside 'document'"),
        BadInput("no guess two edits from a short name", "<document><p>a<sup>2</sup></p></document>", 1, 15,
                 "'p' accepts"),
        BadInput("no block alias inside text", "<document><p>a<small>2</small></p></document>", 1, 15, "'p' accepts"),
        BadInput("xml:lang is lang", "<document xml:lang='ar'/>", 1, 11, "did you mean 'lang'?"),
        BadInput("block attribute on the document", "<document weight='bold'/>", 1, 11,
                 "it is an attribute of blocks such as 'p' and 'label', not of 'document'"),
        BadInput("key on a span", "<document><p><span key='x'>x</span></p></document>", 1, 20,
                 "it is an attribute of blocks such as 'p' and 'label', not of 'span'"),
        BadInput("size on the document", "<document size='20'/>", 1, 11, "did you mean 'font-size'?"),
        // Well-formed BCP 47, but no language has a 6-letter code: a name written for a code.
        BadInput(
            "language name for a code", "<document><p lang='Arabic'>x</p></document>", 1, 14,
            "no language has a subtag of 6 letters; codes have 2 or 3 (ISO 639); did you mean 'ar'?"),
        BadInput(
            "unknown attribute with suggestion", "<document>\n<p colr='#000000'>x</p></document>", 2, 4,
            "unknown attribute 'colr' on 'p' did you mean 'color'?"),
        BadInput(
            "attribute on an element without any", "<document><p><b size='3'>x</b></p></document>", 1, 17,
            "'b' takes no attributes"),
        BadInput(
            "unknown keyword", "<document><p weight='heavy'>x</p></document>", 1, 14,
            "attribute 'weight' accepts thin, light, regular, medium, semibold or bold, not 'heavy'"),
        BadInput("keyword suggestion", "<document dir='rtll'/>", 1, 11, "did you mean 'rtl'?"),
        // Of two presets one edit away, the one that 'iphone-x' begins.
        BadInput("closest preset", "<document device='iphone-x'/>", 1, 11, "did you mean 'iphone-xs'?"),
        BadInput("name from HTML", "<document><paragraph>x</paragraph></document>", 1, 11, "did you mean 'p'?"),
        BadInput("misspelled name from HTML", "<document><paragraf>x</paragraf></document>", 1, 11, "did you mean 'p'?"),
        // Not a short name, nor an element not allowed where it stands ('body' is the document).
        BadInput("short unknown name", "<document><code>x</code></document>", 1, 11, "'document' accepts"),
        // A one-letter name is nobody's typo: the hint lists what is allowed instead of guessing 'b'.
        BadInput(
            "one-letter name", "<document><p><u>x</u></p></document>", 1, 14,
            "unknown element 'u' 'p' accepts text and inline elements: b, i, span, ltr, rtl, bdi or br"),
        BadInput(
            "no close name", "<document><carousel/></document>", 1, 11,
            "'document' accepts block elements: title, heading, p, label, caption, button, list, row, stack, image, "
                + "divider or spacer"),
        BadInput(
            "malformed color", "<document color='red'/>", 1, 11,
            "attribute 'color' accepts a color as #RRGGBB or #RRGGBBAA (hexadecimal), not 'red'"),
        BadInput(
            "short color", "<document><p background='#FFF'>x</p></document>", 1, 14,
            "attribute 'background' accepts a color"),
        BadInput(
            "malformed language tag", "<document lang='english!'/>", 1, 11,
            "attribute 'lang' accepts a BCP 47 language tag"),
        BadInput("underscore language tag", "<document><p lang='en_US'>x</p></document>", 1, 14, "'en-US'"),
        BadInput(
            "negative margin", "<document margin='-4'/>", 1, 11,
            "attribute 'margin' accepts a length in points, 0 or more"),
        BadInput(
            "margin leaves no room", "<document width='300' margin='150'/>", 1, 23,
            "attribute 'margin' accepts a length in points that leaves room for text"),
        BadInput(
            "default margin on a tiny page", "<document width='30'/>", 1, 11,
            "attribute 'width' accepts a length in points that leaves room for text: a page 30 pt in width has less "
                + "than 1 pt inside the default 16 pt margins"),
        BadInput("a device with a tiny margin-less height", "<document device='ipad' height='20'/>", 1, 25, "make it more than 32"),
        // Room for text is a point at least (a ten-millionth of one was taken).
        BadInput(
            "a width a hair wider than its margins", "<document width='32.0000001'/>", 1, 11,
            "a page 32.0000001 pt in width has less than 1 pt inside"),
        BadInput("a margin a hair narrower than half", "<document width='100' margin='49.8'/>", 1, 23, "use a margin of at most 49.5"),
        // A page narrower than the room text needs is the page's fault, whatever the margin
        // (the margin of 0 was told to be "at most 0").
        BadInput(
            "a page narrower than a point", "<document width='0.5' margin='0'/>", 1, 11,
            "attribute 'width' accepts a length in points that leaves room for text: a page 0.5 pt in width has less "
                + "than 1 pt inside 0 pt margins"),
        BadInput(
            "zero font size", "<document font-size='0'/>", 1, 11,
            "attribute 'font-size' accepts a length in points, at least 1 and at most 1000"),
        // Set as 0 in a PDF (a singular text matrix), its words read backwards.
        BadInput("a size too small to draw", "<document><p>a <span size='0.0001'>b</span></p></document>", 1, 22, "at least 1"),
        BadInput(
            "number with a unit", "<document><spacer height='12pt'/></document>", 1, 19, "attribute 'height' accepts"),
        BadInput("line height", "<document line-height='0'/>", 1, 11, "attribute 'line-height' accepts a multiple"),
        BadInput("empty font family", "<document font='A,,B'/>", 1, 11, "attribute 'font' accepts comma-separated"),
        BadInput("unknown numerals", "<document numerals='hindi'/>", 1, 11, "latn, arab, arabext, beng, deva, mymr, tibt, olck, cakm or auto"),
        BadInput(
            "unknown device", "<document device='iphone-15'/>", 1, 11,
            "one of the device presets iphone-se, iphone-8, iphone-8-plus, iphone-xs, iphone-xr"),
        BadInput("unknown list type", "<document><list type='disc'/></document>", 1, 17, "bullet, number or none"),
        BadInput(
            "justify", "<document>\n  <p align=\"justify\">x</p>\n</document>", 2, 6,
            "text is never fully justified: evenly spread words form rivers and make text hard to read"),
        BadInput("justify hint", "<document><p align='justify'>x</p></document>", 1, 14, "use align=\"natural\""),
        BadInput(
            "justify-all", "<document><label align='justify-all'>x</label></document>", 1, 18, "never fully justified"),
        BadInput(
            "distribute", "<document><button align='distribute'>x</button></document>", 1, 19, "never fully justified"),
        BadInput("both (Word's justify)", "<document><p align='both'>x</p></document>", 1, 14, "never fully justified"),
        // Other programs' names for it: the reason, not "accepts natural, start, ...".
        BadInput("kashida (Word's Arabic justify)", "<document><p align='lowKashida'>x</p></document>", 1, 14, "never fully justified"),
        BadInput("thaiDistribute", "<document><p align='thaiDistribute'>x</p></document>", 1, 14, "never fully justified"),
        BadInput("fill (GTK)", "<document><p align='fill'>x</p></document>", 1, 14, "never fully justified"),
        BadInput("inter_word (Android)", "<document><p align='inter_word'>x</p></document>", 1, 14, "never fully justified"),
        BadInput(
            "NSTextAlignmentJustified", "<document><p align='NSTextAlignmentJustified'>x</p></document>", 1, 14,
            "never fully justified"),
        BadInput("force-justify", "<document><p align='force-justify'>x</p></document>", 1, 14, "never fully justified"),
        BadInput("inter-ideograph (CSS)", "<document><p align='inter-ideograph'>x</p></document>", 1, 14, "never fully justified"),
        // A side named: flush left or right, told the values there are.
        BadInput("left-justified", "<document><p align='left-justified'>x</p></document>", 1, 14, "accepts natural, start, end"),
        BadInput("justify-left (InDesign)", "<document><p align='justify-left'>x</p></document>", 1, 14, "never fully justified"),
        BadInput("extended-justify", "<document><p align='extended-justify'>x</p></document>", 1, 14, "never fully justified"),
        BadInput(
            "text in row", "<document><row>\n  <label>a</label> stray\n</row></document>", 2, 20,
            "text is not allowed directly inside 'row'"),
        BadInput(
            "text in document", "<document>\n  Hello\n</document>", 2, 3,
            "text is not allowed directly inside 'document'"),
        BadInput("text in list", "<document><list>x<item>a</item></list></document>", 1, 17, "directly inside 'list'"),
        BadInput(
            "text in stack", "<document><stack><![CDATA[x]]></stack></document>", 1, 18, "directly inside 'stack'"),
        BadInput(
            "item outside list", "<document><item>x</item></document>", 1, 11, "'item' is only allowed inside 'list'"),
        BadInput(
            "non-item in list", "<document><list><p>x</p></list></document>", 1, 17,
            "'list' can only contain 'item' and nested 'list' elements, not 'p' wrap its text in <item>"),
        // An item holds text: "wrap it in <item>" led to another error.
        BadInput(
            "row in list", "<document><list><row/></list></document>", 1, 17,
            "not 'row' put it before or after the list"),
        BadInput("block inside text", "<document><p>a <p>b</p></p></document>", 1, 16, "'p' is a block element"),
        // As HTML nests lists; said how a list nests here.
        BadInput(
            "a list inside an item", "<document><list><item>a<list><item>b</item></list></item></list></document>", 1, 24,
            "a nested list follows its item, inside the outer list"),
        BadInput("inline in a row", "<document><row><b>x</b></row></document>", 1, 16, "'b' is an inline element"),
        BadInput("content in br", "<document><p><br>x</br></p></document>", 1, 18, "'br' takes no content"),
        BadInput("content in image", "<document><divider>x</divider></document>", 1, 20, "'divider' takes no content"),
        BadInput("image without src", "<document><image/></document>", 1, 11, "'image' needs a 'src' attribute"),
        BadInput("nested document", "<document><document/></document>", 1, 11, "only allowed as the root"),
        BadInput(
            "input too large", [UInt8](repeating: 0x20, count: 4 * 1024 * 1024 + 1), 1, 1,
            "the limit is 4194304 bytes (4 MiB)"),
    ]

    /// A margin's hint is in hundredths, rounded down: it said "at most 15.504999999999999",
    /// and 15.505 was refused.
    @Test func aMarginsHintIsInHundredths() {
        let result = MarkupParser.parse(bytes: Array("<document width='32.01' margin='16'/>".utf8), file: "bad.xml")
        #expect(result.diagnostics.errors.map(\.hint) == ["use a margin of at most 15.5"])
        let taken = MarkupParser.parse(bytes: Array("<document width='32.01' margin='15.5'><p>x</p></document>".utf8), file: "ok.xml")
        #expect(taken.diagnostics.errors.isEmpty && taken.document != nil)
    }

    @Test(arguments: badInputs)
    func badInputIsReportedAtItsLocation(_ input: BadInput) {
        expectError(
            MarkupParser.parse(bytes: input.bytes, file: "bad.xml"), line: input.line, column: input.column,
            input.message)
    }

    @Test func fatalXMLErrorStopsAtTheFirst() {
        let result = parse("<document><p>&bogus;</p><lable/></document>")
        #expect(result.diagnostics.items.count == 1)
        #expect(result.diagnostics.items.first?.location.file == "/nonexistent/doc.xml")
    }

    @Test func deepNestingDoesNotCrash() {
        let deep = String(repeating: "<stack>", count: 200_000)
        let result = parse("<document>" + deep)
        #expect(result.diagnostics.errors.first?.message.contains("deeper than 256") == true)
        var allowed = "<document>" + String(repeating: "<stack>", count: 255)
        allowed += String(repeating: "</stack>", count: 255) + "</document>"
        #expect(parse(allowed).document != nil)
    }

    // MARK: - Images

    @Test func imageEscapingTheFolderIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(pngFile(width: 1, height: 1), to: fixture.outside + "/secret.png")
        let relative = parse("<document>\n<image src='../outside/secret.png'/></document>", file: fixture.file)
        expectError(relative, line: 2, column: 8, "image '../outside/secret.png' is outside the document's folder")
        let absolute = parse("<document><image src='\(fixture.outside)/secret.png'/></document>", file: fixture.file)
        expectError(absolute, line: 1, column: 18, "is outside the document's folder")
        let probing = parse("<document><image src='../../../../etc/passwd'/></document>", file: fixture.file)
        expectError(probing, line: 1, column: 18, "is outside the document's folder")
    }

    @Test func imageSymlinkEscapingTheFolderIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(pngFile(width: 1, height: 1), to: fixture.outside + "/secret.png")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.docs + "/link.png", withDestinationPath: fixture.outside + "/secret.png")
        let result = parse("<document><image src='link.png'/></document>", file: fixture.file)
        expectError(result, line: 1, column: 18, "through a symbolic link")
    }

    @Test func imageInAnAssetFolderIsAllowed() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(pngFile(width: 40, height: 20), to: fixture.assets + "/icon.png")
        let source = "<document><image src='../assets/icon.png' height='10' alt=''/></document>"
        expectError(parse(source, file: fixture.file), line: 1, column: 18, "outside the document's folder")
        let result = parse(source, file: fixture.file, assets: [fixture.assets])
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        // Without alt, a located warning: the PDF's Figure had nothing for a screen reader.
        // Said when the document is laid out, where a `key` is looked up (one that gives it
        // an alt from the catalog was told it had none).
        try fixture.write(pngFile(width: 40, height: 20), to: fixture.docs + "/icon.png")
        try fixture.write(Array("<document>\n  <image src='icon.png' height='10'/></document>".utf8), to: fixture.file)
        #expect(parse("<document>\n  <image src='../assets/icon.png' height='10'/></document>", file: fixture.file, assets: [fixture.assets])
            .diagnostics.items.isEmpty)
        let bare = sharedTypesetter.layoutFile(fixture.file, settings: JobSettings()).diagnostics.warnings
        #expect(bare.map(\.location.line) == [2] && bare.map(\.location.column) == [3], "\(bare)")
        #expect(bare.first?.message == "this <image> has no 'alt': a screen reader has nothing to say of it")
        guard case .image(let image)? = result.document?.blocks.first?.kind else {
            Issue.record("no image")
            return
        }
        #expect(image.size == (20, 10) as (Double, Double))
        #expect(image.path.hasSuffix("/assets/icon.png"))
        // A name the document's folder lacks is looked for in the asset folder (it was not
        // found); the document's own comes first, and a name in neither is not found.
        try fixture.write(pngFile(width: 8, height: 8), to: fixture.assets + "/logo.png")
        func path(_ source: String) -> String? {
            let found = parse("<document><image src='\(source)' alt=''/></document>", file: fixture.file, assets: [fixture.assets])
            guard case .image(let image)? = found.document?.blocks.first?.kind else { return nil }
            return image.path
        }
        #expect(path("logo.png")?.hasSuffix("/assets/logo.png") == true)
        #expect(path("icon.png")?.hasSuffix("/docs/icon.png") == true, "\(path("icon.png") ?? "none")")
        #expect(path("nowhere.png") == nil)
        expectError(parse("<document><image src='logo.png' alt=''/></document>", file: fixture.file), line: 1, column: 18, "does not exist")
    }

    /// An image named as iOS names its images at 2× and 3× is that many pixels to the point
    /// when no size is given (`icon@2x.png` of 40 × 20 pixels was 40 pt wide, twice its size).
    @Test func anImageNamedAtTwoOrThreeTimesIsSetAtItsSizeInPoints() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        for name in ["icon.png", "icon@2x.png", "icon@3x~iphone.png", "icon@2x-old.png"] {
            try fixture.write(pngFile(width: 60, height: 30), to: fixture.docs + "/" + name)
        }
        let result = parse(
            "<document><image src='icon.png' alt=''/><image src='icon@2x.png' alt=''/><image src='icon@3x~iphone.png' alt=''/>"
                + "<image src='icon@2x-old.png' alt=''/><image src='icon@2x.png' width='45' alt=''/></document>",
            file: fixture.file)
        let sizes = (result.document?.blocks ?? []).compactMap { block -> [Double]? in
            guard case .image(let image) = block.kind else { return nil }
            return [image.size.width, image.size.height]
        }
        #expect(sizes == [[60, 30], [30, 15], [20, 10], [60, 30], [45, 22.5]])
    }

    @Test func imageThatIsNotAPNGIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(Array("GIF89a not a png".utf8), to: fixture.docs + "/fake.png")
        let result = parse("<document>\n  <image alt='x' src='fake.png'/>\n</document>", file: fixture.file)
        expectError(result, line: 2, column: 18, "image 'fake.png' is not a PNG file")
    }

    /// An image named in the markup with a composed é, whose file has it decomposed (as macOS
    /// writes names), is not found, and the hint names the file there: the message named the
    /// very file the user could see.
    @Test func imageNamedInOtherCodePointsIsHinted() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(Array("x".utf8), to: fixture.docs + "/cafe\u{301}.png")
        let result = parse("<document>\n  <image alt='x' src='caf\u{E9}.png'/>\n</document>", file: fixture.file)
        expectError(result, line: 2, column: 18, "has 'cafe\u{301}.png', the same path in other Unicode code points")
        let other = parse("<document>\n  <image alt='x' src='tea.png'/>\n</document>", file: fixture.file)
        #expect(other.diagnostics.errors.map(\.hint) == [nil])
        // A folder's name too.
        try FileManager.default.createDirectory(atPath: fixture.docs + "/cafe\u{301}", withIntermediateDirectories: false)
        try fixture.write(Array("x".utf8), to: fixture.docs + "/cafe\u{301}/x.png")
        let inFolder = parse("<document>\n  <image alt='x' src='caf\u{E9}/x.png'/>\n</document>", file: fixture.file)
        expectError(inFolder, line: 2, column: 18, "has 'cafe\u{301}/x.png', the same path in other Unicode code points")
        // Every name spelled otherwise on the way, from the first.
        try fixture.write(Array("x".utf8), to: fixture.docs + "/cafe\u{301}/re\u{301}sume\u{301}.png")
        let both = parse("<document>\n  <image alt='x' src='caf\u{E9}/r\u{E9}sum\u{E9}.png'/>\n</document>", file: fixture.file)
        expectError(both, line: 2, column: 18, "has 'cafe\u{301}/re\u{301}sume\u{301}.png', the same path")
        // Not when the file is not there so spelled either.
        let elsewhere = parse("<document>\n  <image alt='x' src='caf\u{E9}/y.png'/>\n</document>", file: fixture.file)
        #expect(elsewhere.diagnostics.errors.map(\.hint) == [nil])
        // In other letter case: a Mac's disk takes one for the other, a Linux CI runner's not.
        try fixture.write(Array("x".utf8), to: fixture.docs + "/Logo.png")
        let cased = parse("<document>\n  <image alt='x' src='logo.png'/>\n</document>", file: fixture.file)
        expectError(cased, line: 2, column: 18, "has 'Logo.png', the same path in other letter case")
        let casedFolder = parse("<document>\n  <image alt='x' src='CAFE\u{301}/X.png'/>\n</document>", file: fixture.file)
        expectError(casedFolder, line: 2, column: 18, "has 'cafe\u{301}/x.png', the same path in other letter case")
        // A web address is said to be one (it was looked for as a folder "https:").
        let address = parse("<document>\n  <image alt='x' src='https://example.com/logo.png'/>\n</document>", file: fixture.file)
        expectError(address, line: 2, column: 18, "image 'https://example.com/logo.png' is an address; 'src' takes the path of a PNG file")
    }

    /// A batch checks an image once per version of its file (`PNGFile.checked`): documents after
    /// the first take its verdict, and a file written over in between is checked again.
    @Test func imageIsCheckedAgainWhenItsFileChanges() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let path = fixture.docs + "/pic.png"
        let source = "<document><image alt='x' src='pic.png'/></document>"
        func size() -> (Double, Double)? {
            guard case .image(let image)? = parse(source, file: fixture.file).document?.blocks.first?.kind else {
                return nil
            }
            return image.size
        }
        try fixture.write(pngFile(width: 40, height: 20), to: path)
        #expect(size().map { $0 == (40, 20) } == true)
        #expect(size().map { $0 == (40, 20) } == true)
        try fixture.write(Array("GIF89a not a png".utf8), to: path)
        expectError(parse(source, file: fixture.file), line: 1, column: 26, "image 'pic.png' is not a PNG file")
        try fixture.write(pngFile(width: 80, height: 10), to: path)
        #expect(size().map { $0 == (80, 10) } == true)
    }

    @Test func missingImageIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let result = parse("<document><image src='missing.png'/></document>", file: fixture.file)
        expectError(result, line: 1, column: 18, "image 'missing.png' does not exist")
        let folder = parse("<document><image src='.'/></document>", file: fixture.file)
        expectError(folder, line: 1, column: 18, "is not a readable file")
        // A file's name written as a folder's is no file (it showed the file).
        try fixture.write(pngFile(width: 4, height: 4), to: fixture.docs + "/pic.png")
        let slash = parse("<document><image src='pic.png/'/></document>", file: fixture.file)
        expectError(slash, line: 1, column: 18, "image 'pic.png/' ends in '/', which names a folder")
        // A symbolic link to nothing, or in a loop, is said to be one ("does not exist" was
        // puzzling beside the link).
        try FileManager.default.createSymbolicLink(atPath: fixture.docs + "/loop.png", withDestinationPath: "loop.png")
        let loop = parse("<document><image src='loop.png'/></document>", file: fixture.file)
        expectError(loop, line: 1, column: 18, "image 'loop.png' is a symbolic link that leads to no file")
    }

    @Test func absurdImageSizeIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(pngFile(width: 20000, height: 10), to: fixture.docs + "/huge.png")
        let result = parse("<document><image src='huge.png'/></document>", file: fixture.file)
        expectError(result, line: 1, column: 18, "is 20000×10 pixels; images must be 1 to 16384 pixels")
    }

    /// A document's images together hold at most 8192 × 8192 pixels, each file counted once
    /// (however often shown, or through a link): 64 different 4096 × 4096 PNGs of 65 KB each
    /// took over a minute to a PDF.
    @Test func aDocumentsImagesHaveAPixelBudget() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let side = 4096
        let white = [UInt8](repeating: 0xFF, count: 4 * side * side)
        let png = try #require(white.withUnsafeBufferPointer {
            PNGEncoder.encodeOpaque(pixels: $0.baseAddress!, width: side, height: side, stride: 4 * side)
        })
        for name in ["a", "b", "c", "d", "e"] { try fixture.write(png, to: fixture.docs + "/\(name).png") }
        try FileManager.default.createSymbolicLink(atPath: fixture.docs + "/link.png", withDestinationPath: "a.png")
        func images(_ names: [String]) -> String {
            "<document>" + names.map { "<image src='\($0).png' alt=''/>" }.joined() + "</document>"
        }
        let four = parse(images(["a", "a", "link", "b", "c", "d"]), file: fixture.file)
        #expect(four.diagnostics.errors.isEmpty, "\(four.diagnostics.errors)")
        let five = parse(images(["a", "b", "c", "d", "a", "e", "e"]), file: fixture.file)
        expectError(five, line: 1, column: 153, "with 'e.png', the images of this document hold more than 67,108,864 pixels together")
        #expect(five.diagnostics.errors.count == 1)
    }

    // MARK: - Files

    @Test func parsesAFileByPath() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write(Array("<document><p>x</p></document>".utf8), to: fixture.file)
        let result = MarkupParser.parse(path: fixture.file)
        #expect(result.document?.blocks.count == 1)
        #expect(result.document?.directory == Path.normalized(fixture.docs, relativeTo: "/"))
        // A symbolic link to a document is read like the document.
        let link = fixture.docs + "/link.xml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.file)
        #expect(MarkupParser.parse(path: link).document?.blocks.count == 1)
    }

    /// A file stops being checked after `maximumErrors` errors, and says so (a million unknown
    /// elements gave a million errors in 24 s).
    @Test func errorsStopAtTheirLimit() {
        let limit = MarkupParser.maximumErrors
        let result = parse("<document>" + String(repeating: "<x/>", count: limit + 500) + "<p><y/><y/></p></document>")
        #expect(result.document == nil)
        let errors = result.diagnostics.errors
        #expect(errors.count == limit + 1)
        #expect(errors.last?.message == "stopped after \(limit) errors; the rest of the file is not checked")
        #expect(errors.last?.location.column == errors[limit - 1].location.column)
        #expect(result.diagnostics.errorCount == errors.count)
        // The limit holds within an element too: of 1,500 unknown attributes the first 1,000 are
        // errors, and the rest are not checked (all were given, and "stopped after 1500 errors").
        let attributes = (0..<1500).map { "a\($0)='1'" }.joined(separator: " ")
        let one = parse("<document><p \(attributes)>x</p></document>").diagnostics.errors
        #expect(one.count == limit + 1)
        #expect(one.last?.message == "stopped after \(limit) errors; the rest of the file is not checked")
        #expect(one[limit - 1].message.hasPrefix("unknown attribute 'a999' on 'p'"), "\(one[limit - 1].message)")
        // Known attributes after the limit are still read: an image's `src` was not, and its
        // "needs a 'src'" error, at the element's start, took the place of the 1,000th.
        let image = parse("<document>" + String(repeating: "<p x='1'>a</p>", count: limit - 1) + "<image a='1' b='1' src='x.png'/></document>")
            .diagnostics.errors
        #expect(!image.contains { $0.message.contains("needs a 'src'") }, "\(image.suffix(3))")
        #expect(image.count == limit + 1 && image[limit - 1].message.hasPrefix("unknown attribute 'a' on 'image'"), "\(image.suffix(3))")
        // Exactly that many, all checked: not said to have stopped.
        let exactly = parse("<document>" + String(repeating: "<x/>", count: limit) + "</document>")
        #expect(exactly.diagnostics.errors.count == limit && !exactly.diagnostics.errors.contains { $0.message.hasPrefix("stopped") })
    }

    @Test func unreadableFileIsAnErrorAtTheStart() {
        let result = MarkupParser.parse(path: "/nonexistent/typeset/doc.xml")
        expectError(result, line: 1, column: 1, "cannot read the file '/nonexistent/typeset/doc.xml'")
        #expect(result.diagnostics.errors.first?.location.file == "/nonexistent/typeset/doc.xml")
        expectError(MarkupParser.parse(path: "/tmp"), line: 1, column: 1, "it is not a regular file")
        expectError(MarkupParser.parse(path: "/dev/zero"), line: 1, column: 1, "it is not a regular file")
    }

    /// Why a file cannot be read is the system's, not only "it cannot be read".
    @Test func anUnreadableFileSaysWhy() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let loop = fixture.docs + "/loop.xml"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.xml")
        expectError(MarkupParser.parse(path: loop), line: 1, column: 1, "it cannot be read (too many levels of symbolic links)")
    }

    @Test func emptyAndOversizedFiles() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.write([], to: fixture.file)
        expectError(MarkupParser.parse(path: fixture.file), line: 1, column: 1, "no root element")
        let handle = try #require(FileHandle(forWritingAtPath: fixture.file))
        try handle.truncate(atOffset: UInt64(MarkupParser.maximumInputBytes) * 2)
        try handle.close()
        expectError(MarkupParser.parse(path: fixture.file), line: 1, column: 1, "the input is \(MarkupParser.maximumInputBytes * 2) bytes")
    }
}

// MARK: - Language

@Suite struct MarkupLanguageTests {
    @Test func rightToLeftByLanguageAndScript() {
        for tag in [
            "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "syc", "syr", "ug", "ur", "yi", "ar-EG", "he_IL",
            "az-Arab", "ku-Arab-IQ", "pa-PK", "AR", "ara", "heb", "urd-PK", "arz", "pes", "ary-MA",
            // Written in Arabic letters in the region: az-IR is az-Arab-IR.
            "az-IR", "az_ir", "kk-CN", "uz-AF", "aze-IR", "kas", "pan-PK", "kk-AF", "kk-IR", "ku-LB", "ha-SD",
            // Biblical and Samaritan Hebrew, Mandaic, Judeo-Arabic; N'Ko in Guinea, Tajik in Pakistan.
            "hbo", "smp", "mid", "jrb", "tg-PK",
            // Brahui, Lahnda, Chadian Arabic (Arabic letters); Avestan and Sogdian (their own scripts).
            "brh", "brh-PK", "lah", "shu", "ae", "sog",
            // Estrangela, Western and Eastern Syriac; Nastaliq (variants of their scripts).
            "syr-Syrj", "syr-Syre", "syr-Syrn", "aii-Syrn", "ur-Aran", "fa-Aran-IR",
        ] {
            #expect(Language.isRightToLeft(language: tag), "\(tag)")
        }
        #expect(Language.rightToLeftScript(of: "aii-Syrn") == Script(code: "Syrc"))
        #expect(Language.rightToLeftScript(of: "ur-Aran") == .arabic)
        // ug-KZ is written in Cyrillic; az-AZ in Latin. Ladino, Rohingya and Hausa in Cameroon are
        // written in Latin letters as much as in CLDR's likely script for them.
        for tag in [
            "en", "de-DE", "ar-Latn", "sd-Deva", "uz-Cyrl", "tr", "", "zh-Hans-CN", "pa", "en-u-nu-arab", "ug-KZ", "az-AZ",
            "az-Latn-IR", "lad", "rhg", "ha-CM", "sd-IN", "man", "man-GN", "uz-CN", "sr-ME", "mn-CN",
        ] {
            #expect(!Language.isRightToLeft(language: tag), "\(tag)")
        }
    }

    /// A language written in either direction's letters, or the code of no one language, leaves
    /// a text block's direction to its text (`und` and `hbo` were set left to right, Hebrew and all).
    @Test func languagesOfEitherDirectionLeaveItToTheText() throws {
        let expected: [(String, Bool?)] = [
            ("he", true), ("hbo", true), ("en", false), ("xx", false), ("und", nil), ("UND", nil), ("zxx", nil), ("mul", nil),
            ("lad", nil), ("lad-IL", nil), ("rhg", nil), ("lad-Hebr", true), ("rhg-Rohg", true), ("und-Latn", false), ("und-Arab", true),
            // Written in both where the region is: Sindhi in India, Mandingo in Guinea.
            ("sd-IN", nil), ("snd-IN", nil), ("sd-Arab-IN", true), ("sd-Deva-IN", false), ("sd", true), ("man-GN", nil), ("man-Nkoo-GN", true),
            // CLDR's likely script is Arabic or Cypriot, but Latin or Greek letters are as usual.
            ("fub", nil), ("swb", nil), ("grc", nil), ("grc-Cprt", true), ("grc-Grek", false), ("brh", true),
        ]
        for (tag, rightToLeft) in expected {
            #expect(Language.declaredRightToLeft(language: tag) == rightToLeft, "\(tag)")
        }
        let result = try #require(
            layoutMarkup(
                #"<document lang="en"><p lang="und">שלום לכם</p><p lang="lad">¡Bienvenidos!</p><p lang="lad">ברוכים הבאים</p><p lang="hbo">בְּרֵאשִׁית בָּרָא</p></document>"#
            ))
        #expect(result.report.pages.first?.blocks.map(\.direction) == ["rtl", "ltr", "rtl", "rtl"])
        // Western Balochi and Hazaragi are written in Arabic letters (CLDR: bgn-Arab, haz-Arab).
        #expect(Language.isRightToLeft(language: "bgn") && Language.isRightToLeft(language: "haz-AF"))
        // A locale of an old code refines the pinned language as its current code does.
        #expect(Language.refined("fa", by: "pes-IR") == "fa-IR" && Language.refined("he", by: "iw-IL") == "he-IL")
        #expect(Language.refined("fa", by: "fa-IR") == "fa-IR" && Language.refined("ar", by: "pes-IR") == "ar")
        #expect(Language.refined("arb", by: "ar-MA") == "ar-MA" && Language.refined("pes", by: "pes") == "pes")
        #expect(Language.refined("no", by: "no-NO") == "no-NO" && Language.refined("tl", by: "tl-PH") == "tl-PH")
        // A container's dir="auto" in one is its context's.
        let auto = try #require(layoutMarkup(#"<document lang="he"><stack dir="auto" lang="und"><label>1</label></stack></document>"#))
        #expect(auto.report.pages.first?.blocks.map(\.context) == ["rtl"])
    }

    @Test func defaultNumberingSystemsFollowCLDR() throws {
        let expected: [(String, NumberingSystem)] = [
            ("ar", .arab), ("ar-EG", .arab), ("ar-SA", .arab), ("ar-MA", .latn), ("ar-DZ", .latn),
            ("ar-TN", .latn), ("ar-LY", .latn), ("ar-EH", .latn), ("ar-AE", .latn), ("ar-QA", .arab), ("fa", .arabext), ("fa-AF", .arabext),
            ("ur", .latn), ("ur-PK", .latn), ("ur-IN", .arabext), ("ps", .arabext), ("ckb", .arab),
            ("he", .latn), ("en", .latn), ("", .latn), ("ar-u-nu-latn", .latn), ("en-u-nu-arab", .arab),
            ("ar-Latn-EG", .latn), ("ar_MA", .latn), ("az-IR", .arabext), ("az", .latn), ("sd-PK", .arab), ("sd-IN", .latn), ("sd-Arab-IN", .arab),
            // Scripts' own digits (ICU 72 gives the same): auto in Bengali was 0-9.
            ("bn", .beng), ("bn-IN", .beng), ("as", .beng), ("mni", .beng), ("mni-Mtei", .latn), ("mr", .deva),
            ("ne", .deva), ("sa", .deva), ("my", .mymr), ("dz", .tibt), ("sat", .olck), ("ccp", .cakm),
            ("bn-Beng", .beng), ("bn-u-nu-latn", .latn), ("hi", .latn), ("th", .latn), ("ta", .latn),
            // Codes CLDR replaces by their macrolanguage's (ICU's canonical locale): `pes` is `fa`.
            ("pes", .arabext), ("arb", .arab), ("pbu", .arabext), ("pbt", .arabext), ("prs", .arabext), ("iw", .latn),
            // Nastaliq is Arabic letters: Persian, Pashto and Kashmiri in it keep their digits.
            ("fa-Aran", .arabext), ("ps-Aran", .arabext), ("ks-Aran", .arabext), ("ur-Aran-IN", .arabext),
            // The `nu` key wherever it stands among the extension's keys, and only there.
            ("ar-SA-u-ca-islamic-nu-latn", .latn), ("ar-u-ca-nu", .arab), ("ar-x-nu-latn", .arab), ("en-x-u-nu-arab", .latn),
        ]
        for (locale, system) in expected {
            #expect(Language.defaultNumberingSystem(locale: locale) == system, "\(locale)")
        }
        #expect(NumeralSetting.auto.numberingSystem(locale: "fa-IR") == .arabext)
        #expect(NumeralSetting.arab.numberingSystem(locale: "en") == .arab)
        // Digits of their own that typeset does not show: 0-9, said where `auto` asks for them.
        for (locale, digits) in [("nqo", "nkoo"), ("ff-Adlm-GN", "adlm"), ("mni-Mtei", "mtei"), ("ff", nil), ("mni", nil), ("nqo-u-nu-latn", nil)] {
            #expect(Language.unshownDefaultDigits(locale: locale) == digits, "\(locale)")
        }
        let nko = try #require(layoutMarkup(#"<document lang="nqo" numerals="auto"><p>2026</p></document>"#))
        #expect(nko.diagnostics.warnings.map(\.message).contains { $0.hasPrefix("numerals=\"auto\" shows 0-9 in 'nqo': its own digits ('nkoo')") },
                "\(nko.diagnostics.items)")
        #expect(try #require(layoutMarkup(#"<document lang="nqo" numerals="latn"><p>2026</p></document>"#)).diagnostics.items.isEmpty)
    }

    @Test func langAskingForDigitsNotShownIsWarned() {
        let result = parse(#"<document><p lang="ar-u-nu-thai">١٢</p><p lang="ar-u-nu-latn">12</p></document>"#)
        #expect(result.document != nil)
        let warnings = result.diagnostics.warnings
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first.map { text(of: $0).contains("'thai'") && $0.location.line == 1 && $0.location.column == 14 } == true, "\(warnings)")
    }

    @Test func wellFormedLanguageTags() {
        for tag in [
            "en", "EN-us", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1901", "sl-rozaj-biske",
            "zh-yue-HK", "en-a-bbb-x-a-ccc", "x-whatever", "i-klingon", "hy-Latn-IT-arevela",
            "en-US-u-nu-latn", "qaa-Qaaa-QM-x-southern", "ar-001",
        ] {
            #expect(Language.isWellFormed(tag: tag), "\(tag)")
        }
        for tag in [
            "", "e", "en_US", "en-", "-en", "english!", "en--US", "a-DE", "en-a", "x", "en-x",
            "toolongtag", "de-419-DE-CH-1901x", "en-US-a-", "12-34",
        ] {
            #expect(!Language.isWellFormed(tag: tag), "\(tag)")
        }
    }

    /// The case RFC 5646 recommends (snapshot's reference folders are named by it).
    @Test func languageTagsInTheirRecommendedCase() {
        let cases = [
            "ar": "ar", "EN_gb": "en-GB", "zh-hant-tw": "zh-Hant-TW", "SR-LATN-RS": "sr-Latn-RS", "es-419": "es-419",
            "de-ch-1901": "de-CH-1901", "en-US-u-nu-latn": "en-US-u-nu-latn", "en-a-bbb-x-ab-cdef": "en-a-bbb-x-ab-cdef",
            "i-klingon": "i-klingon",
        ]
        for (tag, expected) in cases { #expect(Language.canonicalCase(tag: tag) == expected, "\(tag)") }
    }
}
