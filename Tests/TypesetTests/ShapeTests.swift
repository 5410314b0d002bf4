// Tests of Shape/: bundled fonts, matching, per-cluster fallback (SPEC §3) and HarfBuzz shaping.

import Foundation
import Testing

@testable import Typeset

@Suite("Shape: fonts")
struct ShapeFontTests {
    let fonts = FontDatabase.shared

    func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    func fileName(_ face: FontFace?) -> String? {
        face.map { URL(fileURLWithPath: $0.path).lastPathComponent }
    }

    @Test("bundled fonts are found from another working directory")
    func bundledFontsFromAnotherDirectory() throws {
        let elsewhere = FileManager.default.temporaryDirectory
            .appendingPathComponent("typeset-shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let previous = FileManager.default.currentDirectoryPath
        // The lookup never reads the working directory; this proves it for the default path.
        #expect(FileManager.default.changeCurrentDirectoryPath(elsewhere.path))
        let found = FontDatabase.bundledFontDirectory(environment: [:])
        _ = FileManager.default.changeCurrentDirectoryPath(previous)

        let directory = try #require(found)
        #expect(directory.hasPrefix("/"))
        #expect(FileManager.default.fileExists(atPath: directory + "/NotoSans-Regular.ttf"))
        #expect(FileManager.default.fileExists(atPath: directory + "/OFL.txt"))

        let database = FontDatabase(bundledDirectory: directory)
        #expect(Set(database.bundledFaces.map(\.family)) == [
            "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Math", "Noto Sans Symbols", "Noto Sans Symbols2",
        ])
        #expect(database.bundledFaces.count == 11)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ttf") }
        #expect(Set(files) == Set(FontDatabase.bundledFiles) && files.count == FontDatabase.bundledFiles.count)
    }

    /// A TYPESET_FONT_DIR without the bundled fonts: text still takes fonts (the system's), and
    /// the run says that its output is not the same on every machine. Every character was
    /// missing, and a render failed with "cannot open font : cannot open the file".
    @Test func withoutTheBundledFontsEachRunSaysSo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document><p>Hello</p></document>".write(toFile: folder + "/a.xml", atomically: true, encoding: .utf8)
        let run = try runProgram("/usr/bin/env", ["TYPESET_FONT_DIR=" + folder, try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr.hasPrefix(
                "typeset: warning: the bundled fonts are not all there (TYPESET_FONT_DIR '\(folder)' has no NotoSans-Regular.ttf); other fonts are used"),
            "\(run)")
        // The layout JSON has it too (it was on standard error only).
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let first = (json["diagnostics"] as? [[String: Any]])?.first
        #expect(first?["file"] as? String == folder && (first?["message"] as? String)?.hasPrefix("the bundled fonts are not all there") == true, "\(json)")
        // One with some of them says which it lacks (bold was drawn regular without a word).
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Fonts/NotoSans-Regular.ttf", toPath: folder + "/NotoSans-Regular.ttf")
        let some = try runProgram("/usr/bin/env", ["TYPESET_FONT_DIR=" + folder, try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(
            some.stderr.hasPrefix(
                "typeset: warning: the bundled fonts are not all there (TYPESET_FONT_DIR '\(folder)' lacks NotoSans-Bold.ttf, "
                    + "NotoSans-Italic.ttf, NotoSans-BoldItalic.ttf and 7 more); other fonts are used"),
            "\(some)")
        // One whose font is a folder or a pipe says so (it was skipped without a word, and the
        // system's Noto Sans Arabic drawn).
        for file in FontDatabase.bundledFiles where file != "NotoSans-Regular.ttf" {
            try FileManager.default.copyItem(atPath: repositoryRoot + "/Fonts/" + file, toPath: folder + "/" + file)
        }
        try FileManager.default.removeItem(atPath: folder + "/NotoSansArabic-Regular.ttf")
        try FileManager.default.createDirectory(atPath: folder + "/NotoSansArabic-Regular.ttf", withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/NotoSansHebrew-Regular.ttf.fifo", 0o644) == 0)
        try FileManager.default.removeItem(atPath: folder + "/NotoSansHebrew-Regular.ttf")
        try FileManager.default.moveItem(atPath: folder + "/NotoSansHebrew-Regular.ttf.fifo", toPath: folder + "/NotoSansHebrew-Regular.ttf")
        let notFiles = try runProgram("/usr/bin/env", ["TYPESET_FONT_DIR=" + folder, try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(
            notFiles.stderr.hasPrefix(
                "typeset: warning: the bundled fonts are not all there (in TYPESET_FONT_DIR '\(folder)', "
                    + "NotoSansArabic-Regular.ttf and NotoSansHebrew-Regular.ttf are not files); other fonts are used"),
            "\(notFiles)")
        for file in FontDatabase.bundledFiles { try FileManager.default.removeItem(atPath: folder + "/" + file) }
        // A relative one is named as the folder it gives, a file as a file.
        let file = try runProgram("/usr/bin/env", ["TYPESET_FONT_DIR=a.xml", try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(
            file.stderr.hasPrefix(
                "typeset: warning: the bundled fonts are not all there (TYPESET_FONT_DIR '\(folder)/a.xml' is a file, not a folder); other fonts are used"),
            "\(file)")
        // One that does not exist says so (it was passed over, and the fonts beside the binary used).
        let missing = try runProgram(
            "/usr/bin/env", ["TYPESET_FONT_DIR=" + folder + "/missing", try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(missing.status == 0, "\(missing)")
        #expect(
            missing.stderr.hasPrefix(
                "typeset: warning: the bundled fonts are not all there (TYPESET_FONT_DIR '\(folder)/missing' does not exist); other fonts are used"),
            "\(missing)")
        let found = FontDatabase(bundledDirectory: folder).itemize(
            scalars: Array("Hello".unicodeScalars), range: 0..<5, families: [], weight: 400, italic: false, script: .latin)
        #expect(found.count == 1 && !found[0].face.path.isEmpty, "a system font, when the system has one: \(found)")
    }

    @Test("each way of finding the bundled fonts works on its own")
    func bundledFontLookupOrder() throws {
        let directory = try #require(FontDatabase.bundledFontDirectory())
        let root = URL(fileURLWithPath: directory).deletingLastPathComponent().path
        // The environment variable wins.
        let elsewhere = NSTemporaryDirectory()
        #expect(
            FontDatabase.bundledFontDirectory(environment: ["TYPESET_FONT_DIR": elsewhere], executablePath: nil)
                == URL(fileURLWithPath: elsewhere).path)
        // Walking up from an executable inside the repository.
        #expect(
            FontDatabase.bundledFontDirectory(
                environment: [:], executablePath: root + "/.build/x86_64-unknown-linux-gnu/debug/typeset",
                sourceFilePath: "/nonexistent/a/b/c/d.swift") == directory)
        // The compile-time source path.
        #expect(
            FontDatabase.bundledFontDirectory(environment: [:], executablePath: "/nonexistent/bin/typeset")
                == directory)
    }

    @Test("a fresh database's first call finds the bundled fallbacks")
    func freshDatabase() {
        let database = FontDatabase()
        let text = scalars("Hello")
        let runs = database.itemize(
            scalars: text, range: 0..<5, families: [], weight: 400, italic: false, script: TestScript.latin)
        #expect(runs.map { fileName($0.face) } == ["NotoSans-Regular.ttf"])
        #expect(runs.first?.missing == [])
    }

    @Test("--font-dir folders are searched by family")
    func extraDirectory() throws {
        let bundled = try #require(FontDatabase.bundledFontDirectory())
        // The bundled folder given as an extra one to a database without bundled fonts.
        let database = FontDatabase(extraDirectories: [bundled], bundledDirectory: "/nonexistent")
        #expect(database.bundledFaces.isEmpty)
        let face = database.face(family: "Noto Sans Hebrew", weight: 700, italic: false)
        #expect(face?.path == bundled + "/NotoSansHebrew-Bold.ttf")
    }

    @Test("bold maps to the Bold file, semibold to bold, medium and light to regular")
    func weights() {
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 700, italic: false)) == "NotoSans-Bold.ttf")
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 600, italic: false)) == "NotoSans-Bold.ttf")
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 500, italic: false)) == "NotoSans-Regular.ttf")
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 300, italic: false)) == "NotoSans-Regular.ttf")
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 100, italic: false)) == "NotoSans-Regular.ttf")
        #expect(fileName(fonts.face(family: "noto sans", weight: 400, italic: true)) == "NotoSans-Italic.ttf")
        #expect(fileName(fonts.face(family: " 'Noto Sans' ", weight: 400, italic: false)) == "NotoSans-Regular.ttf")
        #expect(fileName(fonts.face(family: "Noto Sans", weight: 700, italic: true)) == "NotoSans-BoldItalic.ttf")
        // No italic Arabic: upright.
        #expect(
            fileName(fonts.face(family: "Noto Sans Arabic", weight: 600, italic: true)) == "NotoSansArabic-Bold.ttf")
        let bold = fonts.face(family: "Noto Sans Hebrew", weight: 700, italic: false)
        #expect(bold?.weight == 700 && bold?.italic == false && bold?.family == "Noto Sans Hebrew")
    }

    /// SPEC §3: the nearest weight the family has, CSS's order deciding between two as near.
    @Test func aMissingWeightTakesTheNearest() {
        func face(_ weight: Int, italic: Bool = false) -> FontFace {
            FontFace(path: "/f/\(weight)\(italic ? "i" : "").ttf", family: "F", weight: weight, italic: italic)
        }
        func chosen(_ weights: [Int], _ weight: Int) -> Int? {
            FontDatabase.bestMatch(weights.map { face($0) }, weight: weight, italic: false)?.weight
        }
        // Bold takes Semibold before Black, light Regular before Hairline (CSS took the others).
        #expect(chosen([100, 400, 600, 900], 700) == 600)
        #expect(chosen([100, 400, 600, 900], 300) == 400)
        // As near either way: CSS's order (above 500 heavier, below 400 lighter, 400 to 500
        // heavier up to 500).
        #expect(chosen([500, 700], 600) == 700)
        #expect(chosen([200, 400], 300) == 200)
        #expect(chosen([300, 500], 400) == 500)
        #expect(chosen([400, 600], 500) == 400)
        #expect(chosen([400, 700], 500) == 400 && chosen([400, 700], 600) == 700 && chosen([400, 700], 100) == 400)
        // One key for a family's name wherever it is looked up: quotes, case and runs of
        // spaces aside.
        #expect(FontDatabase.familyKey(" 'Two  Spaces' ") == "two spaces" && FontDatabase.familyKey("Two Spaces") == "two spaces")
        // The style first: an italic asked for takes the family's italic faces.
        let faces = [face(400), face(700, italic: true)]
        #expect(FontDatabase.bestMatch(faces, weight: 400, italic: true)?.weight == 700)
    }

    @Test("bold text itemizes to the Bold files")
    func boldItemize() {
        let text = scalars("Hello שלום")
        let runs = fonts.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 600, italic: false, script: TestScript.latin)
        #expect(runs.map { fileName($0.face) } == ["NotoSans-Bold.ttf", "NotoSansHebrew-Bold.ttf"])
        #expect(runs.map(\.range) == [0..<6, 6..<10])
    }

    @Test("an unknown family falls back to the bundled fonts")
    func unknownFamily() {
        let text = scalars("Hello مرحبا")
        let runs = fonts.itemize(
            scalars: text, range: 0..<text.count, families: ["No Such Family 42"], weight: 400, italic: false,
            script: TestScript.latin)
        #expect(runs.map(\.face.family) == ["Noto Sans", "Noto Sans Arabic"])
        #expect(runs.allSatisfy { $0.missing.isEmpty })
        #expect(fonts.face(family: "No Such Family 42", weight: 400, italic: false) == nil)
    }

    @Test("the family list is tried in order before the script fallback")
    func familyOrder() {
        let text = scalars("abc")
        let runs = fonts.itemize(
            scalars: text, range: 0..<3, families: ["Noto Sans Hebrew", "Noto Sans Arabic"], weight: 400,
            italic: false, script: TestScript.latin)
        // Noto Sans Hebrew has no Latin letters; Noto Sans Arabic has none either: Noto Sans.
        #expect(runs.map(\.face.family) == ["Noto Sans"])
        let arabic = scalars("مرحبا")
        let arabicRuns = fonts.itemize(
            scalars: arabic, range: 0..<5, families: ["Noto Sans"], weight: 400, italic: false,
            script: TestScript.arabic)
        #expect(arabicRuns.map(\.face.family) == ["Noto Sans Arabic"])
    }

    @Test("digits in Hebrew text fall back to Noto Sans, per cluster")
    func hebrewDigits() {
        let text = scalars("שלום 123 עולם")
        let runs = fonts.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.hebrew)
        #expect(runs.map(\.face.family) == ["Noto Sans Hebrew", "Noto Sans", "Noto Sans Hebrew"])
        // The spaces stay with the Hebrew runs.
        #expect(runs.map(\.range) == [0..<5, 5..<8, 8..<13])
        #expect(runs.allSatisfy { $0.missing.isEmpty })
    }

    @Test("parentheses in Arabic text fall back to Noto Sans")
    func arabicParentheses() {
        let text = scalars("(مرحبا) ١٢")
        let runs = fonts.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.arabic)
        #expect(runs.map(\.face.family) == ["Noto Sans", "Noto Sans Arabic", "Noto Sans", "Noto Sans Arabic"])
        #expect(runs.map(\.range) == [0..<1, 1..<6, 6..<7, 7..<10])
    }

    @Test("marks and format characters stay in their cluster's font")
    func marksAndIgnorables() {
        // Hebrew with niqqud, an RLM, a ZWJ and a variation selector: one run.
        let hebrew = scalars("שָׁלוֹם\u{200F}\u{200D}ם\u{FE00}")
        let runs = fonts.itemize(
            scalars: hebrew, range: 0..<hebrew.count, families: [], weight: 400, italic: false,
            script: TestScript.hebrew)
        #expect(runs.map(\.face.family) == ["Noto Sans Hebrew"])
        #expect(runs.first?.missing == [])
        // A Latin letter with a combining accent Noto Sans has: one cluster, one font.
        let latin = scalars("e\u{301}x")
        #expect(
            fonts.itemize(
                scalars: latin, range: 0..<3, families: [], weight: 400, italic: false, script: TestScript.latin
            )
            .map(\.face.family) == ["Noto Sans"])
        // Bidi isolates around Arabic.
        let isolated = scalars("\u{2067}مرحبا\u{2069}")
        #expect(
            fonts.itemize(
                scalars: isolated, range: 0..<isolated.count, families: [], weight: 400, italic: false,
                script: TestScript.arabic
            ).map(\.face.family) == ["Noto Sans Arabic"])
    }

    @Test("a character no font covers is reported and stays in the primary font")
    func missingCharacter() {
        let text = scalars("ab\u{10FFFD}c")
        let runs = fonts.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.latin)
        #expect(runs.count == 1)
        #expect(runs.first?.face.family == "Noto Sans")
        #expect(runs.first?.missing == [2])
        // In Arabic text the primary font is Noto Sans Arabic.
        let arabic = scalars("مر\u{10FFFD}حبا")
        let arabicRuns = fonts.itemize(
            scalars: arabic, range: 0..<arabic.count, families: [], weight: 400, italic: false,
            script: TestScript.arabic)
        #expect(arabicRuns.map(\.face.family) == ["Noto Sans Arabic"])
        #expect(arabicRuns.flatMap(\.missing) == [2])
    }

    @Test("the warning for a character no font covers points at the character itself")
    func missingCharacterLocation() throws {
        // \u{10FFFD} (a private-use character) is in no font. A byte-order mark, CRLF line ends,
        // two-byte characters before it, references, a CDATA section and a comment are counted
        // as the reader counts them: lines from 1, columns in characters from 1.
        let box = "\u{10FFFD}"
        let xml = "\u{FEFF}<document>\r\n<p>Héllo\r\n  wörld \(box) and</p>\n"
            + "<p>A &amp; B <b>bold &#x10FFFC;</b><![CDATA[ <x> \u{10FFFB}]]><!-- c -->\u{10FFFA}</p>\n"
            + "<p><![CDATA[\u{10FFF9}]]></p>\n"
            + "</document>\n"
        let result = try #require(layoutMarkup(xml))
        let warnings = result.diagnostics.items.map { "\($0.location.line):\($0.location.column)" }
        #expect(warnings == ["3:9", "4:22", "4:50", "4:64", "5:13"])
        // A character that comes back is reported once in the document, where it first is,
        // with its count (each text reported it again: 600 warnings for 300 `<p>中文</p>`).
        let repeated = try #require(layoutMarkup("<document>\n<p>a\(box) b\(box) <b>c\(box)</b></p><p>\(box)</p></document>"))
        #expect(repeated.diagnostics.items.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:5 no font covers U+10FFFD; it is drawn as a missing-glyph box (4 times in this document)"
        ])
        // Past the first ten characters, one warning says the others (a paragraph of thousands
        // of characters no font has gave a warning for each), at the first of them, which it says
        // (its place was taken for all of theirs).
        let many = (0..<30).map { String(UnicodeScalar(0x10FFD0 - $0)!) }
        let crowded = try #require(layoutMarkup("<document>\n<p>\(many.joined())</p><p>\(many.joined())</p></document>"))
        let said = crowded.diagnostics.items.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(said.count == 11, "\(said)")
        #expect(said.first == "2:4 no font covers U+10FFD0; it is drawn as a missing-glyph box (2 times in this document)")
        #expect(
            said.last == "2:14 20 more characters, the first here, are drawn as missing-glyph boxes (U+10FFC6, U+10FFC5, U+10FFC4, "
                + "U+10FFC3, U+10FFC2, U+10FFC1, U+10FFC0, U+10FFBF, …), 40 times in this document", "\(said)")
        // An eleventh alone has a warning of its own, with its count.
        let eleven = many.prefix(11).joined()
        let one = try #require(layoutMarkup("<document>\n<p>\(eleven)\(many[10])\(many[10])</p></document>"))
        #expect(
            one.diagnostics.items.last?.message
                == "no font covers U+10FFC6; it is drawn as a missing-glyph box (3 times in this document)",
            "\(one.diagnostics.items.map(\.message))")
        // Many texts on one line: each is found from where the one before starts (a line read
        // from its start for each of 20,000 paragraphs took minutes).
        // (Other characters each: one that comes back is reported once.)
        let oneLine = try #require(layoutMarkup("<document><p>\(box)</p><p>ab\u{10FFFC}</p><row><label>\u{10FFFB}</label><label>\u{10FFFA}x</label></row></document>"))
        #expect(oneLine.diagnostics.items.map { "\($0.location.line):\($0.location.column)" } == ["1:14", "1:24", "1:41", "1:57"])
        // Text that is not in the source (a catalog's string) is reported where its element is.
        let parsed = MarkupParser.parse(bytes: Array("<document>\n  <label key=\"k\">x</label>\n</document>".utf8), file: "k.xml")
        let document = try #require(parsed.document)
        let localized = sharedTypesetter.layout(document, options: LayoutOptions(catalog: StringCatalog(tables: ["": ["k": "a\(box)"]], sourceLanguage: nil)))
        #expect(localized.diagnostics.items.map { "\($0.location.line):\($0.location.column)" } == ["2:3"])
        // References to white space are white space: the character after them is still found
        // (it was reported where the text starts, 1:14).
        let spaced = try #require(layoutMarkup("<document><p>ab &#x9;tab&#xA;&#x20; \(box) &#xD;\(box)</p></document>"))
        #expect(spaced.diagnostics.items.map { "\($0.location.line):\($0.location.column)" } == ["1:37"])
        // Past a processing instruction, out of a CDATA section the text starts in, and at a
        // reference with leading zeros (each was reported where its text starts).
        for (markup, location) in [
            ("<document><p>a<?pi?>\(box)</p></document>", "1:21"), ("<document><p><![CDATA[a]]>&#x10FFFD;</p></document>", "1:27"),
            ("<document><p>a&#x0000010FFFD;</p></document>", "1:15"),
            // A text that starts in a CDATA section holding what would be markup outside one.
            ("<document><p><![CDATA[a <?b c?> \(box)]]></p></document>", "1:33"),
        ] {
            let result = try #require(layoutMarkup(markup))
            #expect(result.diagnostics.items.map { "\($0.location.line):\($0.location.column)" } == [location], "\(markup)")
        }
    }

    /// Control characters come from catalogs (markup collapses its white space): a tab is the
    /// space it is in markup, in the text itself (bidi, line breaking and the PDF's text agree),
    /// and hangs at a line's end like one. The others, which no font has, are drawn as boxes as
    /// before, but now said, as every other character no font covers is (SPEC §3); line breaks
    /// (here NEL) break the line and show nothing.
    @Test("a tab from a catalog is a space; other control characters are reported boxes")
    func controlCharactersFromACatalog() throws {
        let parsed = MarkupParser.parse(
            bytes: Array(
                "<document>\n<label key='k'>x</label><label key='a'>x</label><label key='b'>x</label><label>Name: Value</label></document>".utf8),
            file: "c.xml")
        let document = try #require(parsed.document)
        let catalog = StringCatalog(
            tables: ["": ["k": "Name:\tValue\u{85}bell\u{7}ed\u{80}", "a": "\u{645}\u{645}\t", "b": "\u{645}\u{645}"]],
            sourceLanguage: nil)
        let result = sharedTypesetter.layout(document, options: LayoutOptions(catalog: catalog))
        #expect(result.diagnostics.items.map { "\($0.location.line):\($0.location.column) \($0.message) (\($0.hint ?? ""))" } == [
            "2:1 no font covers U+0007; it is drawn as a missing-glyph box (it is a control character: leave it out of the text)",
            "2:1 no font covers U+0080; it is drawn as a missing-glyph box (it is a control character: leave it out of the text)",
        ])
        let glyphs = result.pages[0].items.flatMap { item -> [UInt32] in
            if case .glyphs(let run) = item { run.glyphs.map(\.id) } else { [] }
        }
        #expect(glyphs.count { $0 == 0 } == 2, "a box for U+0007 and U+0080 only: \(glyphs)")
        let blocks = result.report.pages[0].blocks
        try #require(blocks.count == 4)
        #expect(blocks[0].text == "Name: Value|belled", "U+0007 and U+0080 are boundary neutrals, left out (SPEC §6)")
        #expect(blocks[0].lines[0].width == blocks[3].lines[0].width, "the tab is as wide as a space")
        // A tab at the end of a line hangs, as a space does: the line is as wide as its letters.
        #expect(blocks[1].lines[0].width == blocks[2].lines[0].width && blocks[2].lines[0].width > 10)
    }

    /// White space that UAX #9 L1 sets back to the paragraph's level at a line's end, where a
    /// word joiner or ZWJ keeps it from hanging, was shaped with the right-to-left word before
    /// it: its glyphs came in the item's order, their clusters fell in a left-to-right run, and
    /// the run could not be written (PDF crashed; SVG and PNG failed the input with "invalid
    /// glyph run"). Every run is whole, and each format writes the page.
    @Test func whiteSpaceL1SetsBackIsInItsRunsOrder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for markup in [
            "<document device=\"iphone-8\"><p>a \(String(repeating: "ש", count: 25)) \u{2060} \u{2060} \u{2060} \u{FDFC}</p></document>",
            "<document lang=\"he\" device=\"iphone-8\"><p>aaa\u{5E9}aaaaaaaaaaaa\u{A9}aaaaaa \u{200B} \u{200D} \u{200D}a\u{A9}aa\u{5E9}2aaaa</p></document>",
        ] {
            let result = try #require(layoutMarkup(markup))
            let runs = result.pages.flatMap(\.items).compactMap { if case .glyphs(let run) = $0 { run } else { nil } }
            #expect(!runs.isEmpty && runs.allSatisfy { $0.problem == nil }, "\(runs.compactMap(\.problem))")
            for format in OutputFormat.allCases {
                #expect(throws: Never.self) { try render(pages: result.pages, to: folder + "/p." + format.rawValue, options: RenderOptions(format: format)) }
            }
        }
    }

    /// The Hangul fillers are default ignorables that HarfBuzz draws (old Hangul is composed
    /// with them): without a font that has them they are boxes, and said (they were not).
    /// (A machine with a font that has them, fonts-noto-cjk's, draws those from it, unsaid.)
    @Test func hangulFillersWithoutAFontAreSaid() throws {
        let result = try #require(layoutMarkup("<document><p>A&#x115F;B &#x1160;C &#x3164;E &#xFFA0;F &#x200B;G</p></document>"))
        let hangul = try #require(Script(code: "Hang"))
        let uncovered = ["115F", "1160", "3164", "FFA0"].filter { hex in
            let scalars = [Unicode.Scalar(UInt32(hex, radix: 16)!)!]
            return FontDatabase.shared.itemize(scalars: scalars, range: 0..<1, families: [], weight: 400, italic: false, script: hangul)
                .contains { !$0.missing.isEmpty }
        }
        #expect(result.diagnostics.items.map(\.message) == uncovered.map {
            "no font covers U+\($0); it is drawn as a missing-glyph box"
        })
        let glyphs = result.pages[0].items.flatMap { item -> [UInt32] in
            if case .glyphs(let run) = item { run.glyphs.map(\.id) } else { [] }
        }
        #expect(glyphs.count { $0 == 0 } == uncovered.count, "a box for each filler no font has, none for the zero-width space: \(glyphs)")
    }

    /// A cluster whose mark its letter's font lacks goes whole to a font that has both, as Pango
    /// draws it (x⃗ in Noto Sans Math, bundled; it was Noto Sans's x beside a box); only when no
    /// font has both is the mark drawn as a box in its letter's font, and reported, naming the
    /// font. A mark that composes with its letter is not.
    @Test("a cluster goes whole to a font that has its letter and mark; else the mark is a reported box")
    func markTheClusterFontLacks() throws {
        let vector = scalars("x\u{20D7}")
        let runs = fonts.itemize(scalars: vector, range: 0..<2, families: [], weight: 400, italic: false, script: TestScript.latin)
        #expect(runs.map(\.face.family) == ["Noto Sans Math"] && runs.flatMap(\.missing) == [], "\(runs)")
        #expect(try #require(layoutMarkup("<document><p>x\u{20D7} and e\u{301}</p></document>")).diagnostics.items.isEmpty)
        // Hebrew shin with an Arabic fatha: DejaVu Sans has both where it is installed.
        let result = try #require(layoutMarkup("<document lang=\"he\">\n<p>ש\u{64E}לום and e\u{301}</p></document>"))
        let text = scalars("ש\u{64E}")
        let shin = fonts.itemize(scalars: text, range: 0..<2, families: [], weight: 400, italic: false, script: TestScript.hebrew)
        try #require(shin.count == 1 && shin[0].missing.isEmpty)
        if fonts.covers(shin[0].face, "\u{64E}") {
            #expect(shin[0].face.family != "Noto Sans Hebrew" && result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        } else {
            #expect(shin[0].face.family == "Noto Sans Hebrew")
            #expect(result.diagnostics.items.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
                "2:5 Noto Sans Hebrew, the font of the character it goes with, has no U+064E; it is drawn as a missing-glyph box"
            ])
        }
    }

    @Test("a font family that is nowhere to be found is a warning; a known one, in any case or quoted, is not")
    func unknownFamilyWarning() throws {
        let result = try #require(
            layoutMarkup("<document\n  font=\"Helvetica Nue, 'noto sans arabic', Noto Sans\"><p>Hello</p></document>"))
        #expect(result.diagnostics.items.map(\.message) == [
            "font family 'Helvetica Nue' not found (not bundled, in a --font-dir folder or installed); text falls back "
                + "to the next family in font=\"Helvetica Nue, noto sans arabic, Noto Sans\", then the bundled fonts"
        ])
        // At the attribute, not at <document>.
        #expect(result.diagnostics.items.map { "\($0.severity) \($0.location.line):\($0.location.column)" } == ["warning 2:3"])
        let known = try #require(layoutMarkup("<document font=\"NOTO SANS\"><p>Hello</p></document>"))
        #expect(known.diagnostics.items.isEmpty)
        // Several: one warning, naming a few; a family named again (in any case) counts once.
        let several = try #require(layoutMarkup("<document font=\"A1, b2, Noto Sans, a1, C3\"><p>Hello</p></document>"))
        #expect(several.diagnostics.items.map(\.message) == [
            "font families 'A1', 'b2' and 'C3' not found (not bundled, in a --font-dir folder or installed); text falls "
                + "back to the next family in font=\"A1, b2, Noto Sans, a1, C3\", then the bundled fonts"
        ])
        // CSS's generic families stand for families here: 'sans-serif' for the bundled Noto Sans
        // (it was 'not found', as the last of a CSS font stack usually is).
        let css = try #require(layoutMarkup("<document font=\"Helvetica, sans-serif\"><p>Hello</p></document>"))
        #expect(css.diagnostics.items.map(\.message).allSatisfy { $0.hasPrefix("font family 'Helvetica' not found") })
        #expect(css.report.pages.first?.blocks.first?.lines.first?.runs.map(\.font) == ["Noto Sans"])
        // None found: there is no next family to fall back to.
        let none = try #require(layoutMarkup("<document font=\"Nonexistent Family\"><p>Hello</p></document>"))
        #expect(none.diagnostics.items.map(\.message) == [
            "font family 'Nonexistent Family' not found (not bundled, in a --font-dir folder or installed); "
                + "text takes the bundled fonts"
        ])
        // 10,000 of them: one warning, not one each quoting all (34 s), and the text is set.
        let list = (0..<10_000).map { "Family \($0)" }.joined(separator: ", ")
        let many = try #require(layoutMarkup("<document font=\"\(list)\"><p>Hello</p></document>"))
        let warning = try #require(many.diagnostics.items.first?.message)
        #expect(many.diagnostics.items.count == 1)
        #expect(warning.hasPrefix("font families 'Family 0', 'Family 1', 'Family 2' and 9997 more not found"), "\(warning)")
        #expect(warning.count < 400, "the attribute is quoted shortened: \(warning)")
        #expect(many.report.pages[0].blocks[0].lines[0].runs.map(\.font) == ["Noto Sans"])
    }

    @Test("a --font-dir font covers what the family list and the bundled fonts lack, before system fonts")
    func extraFontsAreFallbacks() throws {
        let folder = repositoryRoot + "/Tests/Fonts"
        let database = FontDatabase(extraDirectories: [folder])
        let text = scalars("King \u{16A0}")  // ᚠ: in TestRunes.ttf, in no bundled font
        let runs = database.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.latin)
        #expect(runs.map(\.range) == [0..<5, 5..<6])
        #expect(runs.map(\.face.family) == ["Noto Sans", "Typeset Test Runes"])
        #expect(runs.last?.face.path.hasPrefix(folder) == true, "from the folder, not the system: \(runs)")
        #expect(runs.allSatisfy { $0.missing.isEmpty })
    }

    /// The CIDs of a CID-keyed CFF font's glyphs (`CFFCharset`), and nil, never a crash or a
    /// read past the table, for every cut-short or damaged copy of it (fonts of `--font-dir`
    /// are anyone's).
    @Test func cffCharsetsAreReadSafely() throws {
        let font = HarfBuzzFont(path: repositoryRoot + "/Tests/Fonts/CIDKeyed.otf", index: 0)
        let table = font.tableBytes("CFF ")
        let cids = table.withUnsafeBytes { CFFCharset.cids(of: $0, glyphCount: 97) }
        #expect(cids == (0...95).map { UInt32($0) } + [9481], "\(String(describing: cids))")
        // A name-keyed font (no ROS): nil. (A TrueType font has no CFF table: nil.)
        #expect(HarfBuzzFont(path: repositoryRoot + "/Fonts/NotoSans-Regular.ttf", index: 0).withTable("CFF ") {
            CFFCharset.cids(of: $0, glyphCount: 10) } == nil)
        var seed: UInt64 = 1  // the same damage on every run
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        for length in stride(from: 0, to: table.count, by: 7) {
            _ = Array(table.prefix(length)).withUnsafeBytes { CFFCharset.cids(of: $0, glyphCount: 97) }
            var damaged = table
            for _ in 0..<8 { damaged[next() % damaged.count] = UInt8(next() % 256) }
            _ = damaged.withUnsafeBytes { CFFCharset.cids(of: $0, glyphCount: 97) }
        }
    }

    @Test("arrows, math signs, check marks and the like come from the bundled symbol fonts")
    func symbolsAreBundled() throws {
        // Noto Sans lacks them all: they were drawn from whatever the machine had (DejaVu Math
        // TeX Gyre's minus, as wide as an em dash), or as boxes where it had nothing.
        let text = scalars("−5 ≤ 3 → ✓ ★ ⚙")
        let runs = FontDatabase.shared.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.latin)
        let symbols = runs.filter { text[$0.range].contains { !$0.properties.isWhitespace && !("0"..."9").contains($0) } }
        #expect(runs.allSatisfy { $0.missing.isEmpty && $0.face.path.hasPrefix(repositoryRoot + "/Fonts/") }, "\(runs)")
        #expect(Set(symbols.map(\.face.family)) == ["Noto Sans Math", "Noto Sans Symbols", "Noto Sans Symbols2"], "\(runs)")
    }

    @Test("ranges index the whole paragraph")
    func subrange() {
        let text = scalars("abc שלום 12")
        let runs = fonts.itemize(
            scalars: text, range: 4..<11, families: [], weight: 400, italic: false, script: TestScript.hebrew)
        #expect(runs.map(\.range) == [4..<9, 9..<11])
        #expect(runs.map(\.face.family) == ["Noto Sans Hebrew", "Noto Sans"])
    }
}

@Suite("Shape: HarfBuzz")
struct ShapeShaperTests {
    let fonts = FontDatabase.shared
    let shaper = Shaper.shared

    func face(_ family: String, weight: Int = 400) throws -> FontFace {
        try #require(fonts.face(family: family, weight: weight, italic: false))
    }

    /// A soft hyphen after a Latin, Greek or Cyrillic letter is shaped as a ZWNJ, which no
    /// ligature crosses ("Kauf&#xAD;interesse" had one "fi" glyph, inside which the line could
    /// not end at the author's hyphen); after an Arabic letter (which joins across it) or an
    /// Indic one (where a ZWNJ shows the virama) it stays; kerning and the other glyphs are
    /// those of the text without it.
    @Test func noLatinLigatureCrossesASoftHyphen() throws {
        func shaped(_ text: String, _ range: Range<Int>? = nil) -> String? {
            let scalars = Array(text.unicodeScalars)
            guard let (window, item) = Shaper.withLigatureBreaks(scalars, range ?? 0..<scalars.count) else { return nil }
            return String(String.UnicodeScalarView(window[item]))
        }
        #expect(shaped("Kauf\u{AD}interesse") == "Kauf\u{200C}interesse")
        #expect(shaped("Кни\u{AD}га") == "Кни\u{200C}га")
        // Past a format character or mark (an LRM: the ligature stayed).
        #expect(shaped("Kauf\u{200E}\u{AD}interesse") == "Kauf\u{200E}\u{200C}interesse")
        #expect(shaped("سل\u{AD}ام") == nil && shaped("क्\u{AD}ष") == nil && shaped("Kaufinteresse") == nil)
        // A piece of a long paragraph gets its own stretch, with HarfBuzz's context around it.
        let long = String(repeating: "Wort ", count: 100) + "Kauf\u{AD}interesse" + String(repeating: " Wort", count: 100)
        let start = 500
        #expect(shaped(long, start..<start + 14) == "Kauf\u{200C}interesse")
        let scalars = Array(long.unicodeScalars)
        let window = try #require(Shaper.withLigatureBreaks(scalars, start..<start + 14)).0
        #expect(window.count == 14 + 16, "\(window.count)")
        let noto = try face("Noto Sans")
        func glyphs(_ text: String) -> [UInt32] {
            let scalars = Array(text.unicodeScalars)
            return shaper.shape(scalars: scalars, range: 0..<scalars.count, face: noto, size: 17, rightToLeft: false,
                                script: .latin, language: "de").glyphs.map(\.id)
        }
        let hyphenated = glyphs("Kauf\u{AD}interesse")
        #expect(hyphenated.count == 14 && hyphenated == glyphs("Kauf\u{200C}interesse"), "\(hyphenated)")
        #expect(glyphs("Kaufinteresse").count == 12, "the fi ligature without the soft hyphen")
    }

    /// HarfBuzz is given a language only where the font has a language system for it: each
    /// language it is given makes a shape plan, looked up along a list, and the word cache
    /// lists them too (17,576 three-letter tags took 28 s). Without one, a language shapes as
    /// undetermined: the same glyphs.
    @Test("a language the font has no language system for is shaped as undetermined")
    func shapingLanguages() throws {
        let sans = try face("Noto Sans")
        let font = HarfBuzzFontCache.shared.font(for: sans)
        // Noto Sans has Moldavian's and Romanian's (ş drawn with a comma below), not English's.
        #expect(font.shapingLanguage("ro", script: TestScript.latin) == "ro")
        #expect(font.shapingLanguage("ro-RO", script: TestScript.latin) == "ro-RO")
        #expect(font.shapingLanguage("en", script: TestScript.latin) == "")
        #expect(font.shapingLanguage("aaa", script: TestScript.latin) == "")
        #expect(font.shapingLanguage("aaa", script: .common) == "aaa", "a script HarfBuzz guesses keeps it")
        let text = Array("Şapte şi".unicodeScalars)
        // Script Common: HarfBuzz takes the language as given (and Latin from the text), so
        // that what these compare is HarfBuzz's own shaping of each language.
        func glyphs(_ language: String) -> [UInt32] {
            Shaper(runCacheCapacity: 0, wordCacheCapacity: 0).shape(
                scalars: text, range: 0..<text.count, face: sans, size: 17, rightToLeft: false,
                script: .common, language: language
            ).glyphs.map(\.id)
        }
        #expect(glyphs("ro") != glyphs("en"), "Romanian's letter forms")
        #expect(glyphs("aaa") == glyphs("") && glyphs("en") == glyphs(""), "no language system: as undetermined")
        // Many languages, one language given to HarfBuzz.
        let many = (0..<2_000).map { "x" + String($0, radix: 26) }
        #expect(Set(many.map { font.shapingLanguage($0, script: TestScript.latin) }) == [""])
    }

    @Test("Arabic letters join")
    func arabicJoining() throws {
        let arabic = try face("Noto Sans Arabic")
        let word = Array("مرحبا".unicodeScalars)
        let run = shaper.shape(
            scalars: word, range: 0..<5, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        #expect(run.glyphs.count == 5)
        #expect(run.glyphs.allSatisfy { $0.id != 0 })
        for (offset, letter) in word.enumerated() {
            let isolated = shaper.shape(
                scalars: [letter], range: 0..<1, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
                language: "ar")
            let joined = try #require(run.glyphs.first { $0.cluster == offset })
            #expect(joined.id != isolated.glyphs.first?.id, "letter \(offset) should take a joining form")
        }
    }

    @Test("Arabic joins across run boundaries (paragraph context)")
    func arabicContext() throws {
        let arabic = try face("Noto Sans Arabic")
        let word = Array("مرحبا".unicodeScalars)
        let whole = shaper.shape(
            scalars: word, range: 0..<5, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        // Shape "حب" and "ا" apart, as if a style change cut the word: the same glyphs.
        let left = shaper.shape(
            scalars: word, range: 2..<4, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        let right = shaper.shape(
            scalars: word, range: 4..<5, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        let wholeIDs = Dictionary(uniqueKeysWithValues: whole.glyphs.map { ($0.cluster, $0.id) })
        for glyph in left.glyphs + right.glyphs {
            #expect(wholeIDs[glyph.cluster] == glyph.id)
        }
        #expect(left.range == 2..<4 && left.glyphs.map(\.cluster) == [3, 2])
    }

    @Test("Hebrew is shaped right to left in visual order")
    func hebrewVisualOrder() throws {
        let hebrew = try face("Noto Sans Hebrew")
        let word = Array("שלום".unicodeScalars)
        let run = shaper.shape(
            scalars: word, range: 0..<4, face: hebrew, size: 17, rightToLeft: true, script: TestScript.hebrew,
            language: "he")
        #expect(run.glyphs.count == 4)
        #expect(run.glyphs.map(\.cluster) == [3, 2, 1, 0])
        #expect(run.rightToLeft && run.face == hebrew && run.size == 17 && run.range == 0..<4)
        #expect(run.advance > 0)
        #expect(abs(run.advance - run.glyphs.reduce(0) { $0 + $1.advance }) < 1e-9)
    }

    @Test("advances scale linearly with the size")
    func linearAdvances() throws {
        let latin = try face("Noto Sans")
        let text = Array("Typesetting, office; AVA.".unicodeScalars)
        let small = shaper.shape(
            scalars: text, range: 0..<text.count, face: latin, size: 10, rightToLeft: false, script: TestScript.latin,
            language: "en")
        let large = shaper.shape(
            scalars: text, range: 0..<text.count, face: latin, size: 37, rightToLeft: false, script: TestScript.latin,
            language: "en")
        #expect(small.glyphs.map(\.id) == large.glyphs.map(\.id))
        #expect(abs(large.advance - small.advance * 3.7) < 1e-9)
        for (a, b) in zip(small.glyphs, large.glyphs) {
            #expect(abs(b.advance - a.advance * 3.7) < 1e-9)
        }
        // 17 pt: the advance of "T" is its font-unit advance × 17 / 1000.
        #expect(large.advance > 100 && large.advance < 500)
    }

    @Test("features and unsafe-to-break flags reach HarfBuzz")
    func features() throws {
        let latin = try face("Noto Sans")
        let text = Array("office".unicodeScalars)
        let plain = shaper.shape(
            scalars: text, range: 0..<6, face: latin, size: 17, rightToLeft: false, script: TestScript.latin,
            language: "en",
            features: ["liga=0"])
        #expect(plain.glyphs.count == 6)
        #expect(plain.glyphs.map(\.cluster) == [0, 1, 2, 3, 4, 5])
        let arabic = try face("Noto Sans Arabic")
        let word = Array("مرحبا".unicodeScalars)
        let joined = shaper.shape(
            scalars: word, range: 0..<5, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        // Breaking inside a joined word changes the glyphs.
        #expect(joined.glyphs.contains { $0.unsafeToBreak })
    }

    @Test("a letter with thousands of marks is shaped in pieces, in one cluster")
    func longMarkSequencesAreShapedInPieces() throws {
        let marks = 3 * Shaper.longestMarkSequence + 10  // three cuts
        // (HarfBuzz composes "a" and the first U+0301 into "á": one glyph fewer in Latin.)
        for (letters, family, rightToLeft, script, composed) in [
            ("ab", "Noto Sans", false, TestScript.latin, 1), ("של", "Noto Sans Hebrew", true, TestScript.hebrew, 0),
        ] {
            let first = Array(letters.unicodeScalars)[0]
            let last = Array(letters.unicodeScalars)[1]
            // A letter, its marks (alternating, as Zalgo text does), a letter after.
            let text = [first] + (0..<marks).map { Unicode.Scalar($0 % 2 == 0 ? 0x0301 : 0x05B8)! } + [last]
            let run = Shaper(runCacheCapacity: 0, wordCacheCapacity: 0).shape(
                scalars: text, range: 0..<text.count, face: try face(family), size: 17, rightToLeft: rightToLeft,
                script: script, language: "")
            // Every character keeps a glyph; the marks stay in their letter's cluster, as
            // HarfBuzz gives them when it shapes them together (the next letter's is its own).
            #expect(run.glyphs.count == text.count - composed)
            let clusters = run.glyphs.map(\.cluster)
            let expected = [Int](repeating: 0, count: marks + 1 - composed) + [text.count - 1]
            #expect(clusters == (rightToLeft ? expected.reversed() : expected), "\(letters)")
        }
    }

    /// A chain of consonants joined by stacking signs ("က္က္…") is cut like a mark sequence:
    /// shaped whole, 100,000 pairs took 28 s and 70,000 stopped the process on one of
    /// HarfBuzz's assertions (GPOS `propagate_attachment_offsets`). It stays one cluster, as
    /// HarfBuzz makes it when it shapes it whole.
    @Test("a chain of stacked consonants is shaped in pieces")
    func longStacksAreShapedInPieces() throws {
        let myanmar = try face("Noto Sans Myanmar")
        for pairs in [2 * Shaper.longestMarkSequence + 10, 70_000] {
            let text = (0..<pairs).flatMap { _ in [Unicode.Scalar(0x1000)!, Unicode.Scalar(0x1039)!] } + [Unicode.Scalar(0x1000)!]
            let run = Shaper(runCacheCapacity: 0, wordCacheCapacity: 0).shape(
                scalars: text, range: 0..<text.count, face: myanmar, size: 17, rightToLeft: false,
                script: Script(code: "Mymr") ?? .common, language: "my")
            #expect(run.glyphs.count >= pairs && run.glyphs.allSatisfy { $0.id != 0 }, "\(pairs)")
            #expect(Set(run.glyphs.map(\.cluster)) == [0], "\(pairs)")
        }
    }

    @Test("mirrored brackets in RTL runs and .notdef for missing characters")
    func notdefAndMirroring() throws {
        let latin = try face("Noto Sans")
        let text = Array("(\u{10FFFD}".unicodeScalars)
        let run = shaper.shape(
            scalars: text, range: 0..<2, face: latin, size: 17, rightToLeft: true, script: .common, language: "ar")
        #expect(run.glyphs.map(\.cluster) == [1, 0])
        #expect(run.glyphs.first?.id == 0)
        let ltr = shaper.shape(
            scalars: text, range: 0..<1, face: latin, size: 17, rightToLeft: false, script: .common, language: "en")
        // "(" became the font's ")".
        let close = shaper.shape(
            scalars: [")"], range: 0..<1, face: latin, size: 17, rightToLeft: false, script: .common, language: "en")
        #expect(ltr.glyphs.first?.id != close.glyphs.first?.id && close.glyphs.first?.id != 0)
        #expect(run.glyphs.last?.id == close.glyphs.first?.id)
    }

    @Test("the run cache gives what HarfBuzz gives, at every size and in every context")
    func runCacheEquivalence() throws {
        let uncached = Shaper(runCacheCapacity: 0, wordCacheCapacity: 0)
        let cached = Shaper(runCacheCapacity: 300)  // small: also exercises emptying
        var texts = ShapeBenchmark.paragraphs.map { ($0.text, $0.script, $0.rtl, $0.language) }
        texts += [
            ("  office  affluent   ", "Latn", false, "en"),
            ("AVA Type, To. WAVE", "Latn", false, "en"),
            ("مرحبا بالعالم لا إله إلا الله ١٢٣", "Arab", true, "ar"),
            ("שָׁלוֹם עוֹלָם", "Hebr", true, "he"),
        ]
        for (text, code, rtl, language) in texts {
            let scalars = Array(text.unicodeScalars)
            let script = Script(code: code) ?? .common
            for face in fonts.bundledFaces {
                // The whole paragraph, and runs cut mid-word and at spaces.
                let cuts = [0..<scalars.count, 3..<scalars.count - 2, 5..<min(17, scalars.count)]
                for range in cuts {
                    for size in [9.0, 17.0] {
                        for _ in 0..<2 {  // the second time from the cache
                            let a = uncached.shape(
                                scalars: scalars, range: range, face: face, size: size, rightToLeft: rtl,
                                script: script, language: language)
                            let b = cached.shape(
                                scalars: scalars, range: range, face: face, size: size, rightToLeft: rtl,
                                script: script, language: language)
                            #expect(a == b, "\(face) \(range) \(text)")
                        }
                    }
                }
            }
        }
        // The same run in another paragraph context is not taken from the cache: "حب" inside
        // "مرحبا" joins on both sides, alone it does not.
        let arabic = try face("Noto Sans Arabic")
        let word = Array("مرحبا".unicodeScalars)
        let inside = cached.shape(
            scalars: word, range: 2..<4, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        let alone = cached.shape(
            scalars: Array(word[2..<4]), range: 0..<2, face: arabic, size: 17, rightToLeft: true,
            script: TestScript.arabic, language: "ar")
        #expect(inside.glyphs.map(\.id) != alone.glyphs.map(\.id))
    }

    @Test("the bundled text fonts' layout never reads a space, so their runs are cut into words")
    func bundledFontsShapeWordsApart() throws {
        for face in fonts.bundledFaces {
            // The symbol fonts' layout reads it (Symbols2 ligates the space with U+102E0): their
            // runs are shaped whole.
            let readsSpace = face.family == "Noto Sans Symbols" || face.family == "Noto Sans Symbols2"
            #expect(HarfBuzzFontCache.shared.font(for: face).layoutReadsSpace == readsSpace, "\(face)")
        }
    }

    @Test("a font whose layout reads the space is never cut into words")
    func spaceReadingFont() throws {
        let folder = repositoryRoot + "/Tests/Fonts"
        let font = HarfBuzzFont(path: folder + "/SpaceLigature.ttf", index: 0)
        #expect(font.isUsable)
        #expect(font.layoutReadsSpace)

        let database = FontDatabase(extraDirectories: [folder])
        let face = try #require(database.face(family: "Typeset Test Space Ligature", weight: 400, italic: false))
        let uncached = Shaper(runCacheCapacity: 0, wordCacheCapacity: 0)
        let words = Shaper(runCacheCapacity: 0)
        let ligature = Array("A \u{102E0}".unicodeScalars)
        // More runs than the font shapes before it is checked (HarfBuzzFont.cutsIntoWords): "A A A"
        // again would be put together from words if the check let it.
        let texts = [Array("A A A".unicodeScalars), ligature, Array("A A \u{102E0} A".unicodeScalars)]
        for text in Array(repeating: texts, count: 10).joined() {
            let a = uncached.shape(
                scalars: text, range: 0..<text.count, face: face, size: 17, rightToLeft: false,
                script: TestScript.latin, language: "en")
            let b = words.shape(
                scalars: text, range: 0..<text.count, face: face, size: 17, rightToLeft: false,
                script: TestScript.latin, language: "en")
            #expect(a == b)
            if text == ligature { #expect(a.glyphs.count == 2) }  // "A", then space + U+102E0 as one
        }
        #expect(words.runsPutTogetherFromWords == 0)
    }

    @Test("runs put together from words shaped before are what HarfBuzz gives for the whole run")
    func wordCacheEquivalence() throws {
        let uncached = Shaper(runCacheCapacity: 0, wordCacheCapacity: 0)
        let words = Shaper(runCacheCapacity: 0, wordCacheCapacity: 400)  // small: also exercises emptying
        var texts = ShapeBenchmark.paragraphs.map { ($0.text, $0.script, $0.rtl, $0.language) }
        texts += [
            ("  office  affluent   AVA Type, To. WAVE fi ffi", "Latn", false, "en"),
            ("مرحبا بالعالم لا إله إلا الله ١٢٣ بِسْمِ ٱللَّٰهِ", "Arab", true, "ar"),
            ("שָׁלוֹם עוֹלָם ספר \u{05B4}בית", "Hebr", true, "he"),
            ("a \u{0301}b \u{200D}c  d\u{FE0F} e", "Latn", false, "en"),
        ]
        var putTogether = 0
        for (text, code, rtl, language) in texts {
            let script = try #require(Script(code: code))
            // The words again in another order: a run not seen before, all of whose words were.
            let shuffled = text.split(separator: " ", omittingEmptySubsequences: false).reversed().joined(separator: " ")
            for paragraph in [text, shuffled, shuffled + " " + text] {
                let scalars = Array(paragraph.unicodeScalars)
                for face in fonts.bundledFaces {
                    // Whole, and cut at spaces (word ends) and mid-word (not cut into words).
                    let spaces = scalars.indices.filter { scalars[$0] == " " }
                    var cuts = [0..<scalars.count, 3..<scalars.count - 2]
                    if spaces.count >= 2 { cuts.append(spaces[0]..<spaces[spaces.count - 1] + 1) }
                    for range in cuts {
                        let before = words.runsPutTogetherFromWords
                        let a = uncached.shape(
                            scalars: scalars, range: range, face: face, size: 17, rightToLeft: rtl,
                            script: script, language: language)
                        let b = words.shape(
                            scalars: scalars, range: range, face: face, size: 17, rightToLeft: rtl,
                            script: script, language: language)
                        #expect(a == b, "\(face) \(range) \(paragraph)")
                        putTogether += words.runsPutTogetherFromWords - before
                    }
                }
            }
        }
        // Not vacuous: runs were put together from words (a font starts cutting runs into words
        // at its 17th run, HarfBuzzFont.cutsIntoWords), some after shaping only their new words
        // ("shuffled + text" after "shuffled" lacks one stretch, the words around the join).
        #expect(putTogether >= texts.count)
        #expect(words.runsWithNewWordsShaped >= texts.count)
    }

    @Test("font metrics in points")
    func metrics() throws {
        let arabic = shaper.metrics(face: try face("Noto Sans Arabic"), size: 17)
        #expect(abs(arabic.ascent - 23.4) < 0.1)
        #expect(abs(arabic.descent + 12.5) < 0.1)
        let latin = shaper.metrics(face: try face("Noto Sans"), size: 17)
        #expect(latin.unitsPerEm == 1000)
        #expect(abs(latin.capHeight - 12.1) < 0.1)
        #expect(latin.xHeight > 8 && latin.xHeight < 10)
        let text = Array("H".unicodeScalars)
        let h = shaper.shape(
            scalars: text, range: 0..<1, face: try face("Noto Sans"), size: 17, rightToLeft: false,
            script: TestScript.latin,
            language: "en")
        let extents = try #require(
            shaper.glyphExtents(face: try face("Noto Sans"), size: 17, glyph: h.glyphs.first?.id ?? 0))
        #expect(abs(extents.yBearing - latin.capHeight) < 0.1)
        #expect(extents.height < 0 && extents.width > 0)
    }

    @Test("shaping and itemizing from many tasks at once")
    func concurrent() async throws {
        let arabic = try face("Noto Sans Arabic")
        let text = Array("مرحبا بالعالم (123) שלום".unicodeScalars)
        let expected = shaper.shape(
            scalars: text, range: 0..<13, face: arabic, size: 17, rightToLeft: true, script: TestScript.arabic,
            language: "ar")
        let expectedRuns = fonts.itemize(
            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: TestScript.arabic)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var same = true
                    for _ in 0..<50 {
                        let run = Shaper.shared.shape(
                            scalars: text, range: 0..<13, face: arabic, size: 17, rightToLeft: true,
                            script: TestScript.arabic, language: "ar")
                        let runs = FontDatabase.shared.itemize(
                            scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false,
                            script: TestScript.arabic)
                        same = same && run == expected && runs == expectedRuns
                    }
                    return same
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}

private enum TestScript {
    static let latin = Script(code: "Latn") ?? .common
    static let arabic = Script(code: "Arab") ?? .common
    static let hebrew = Script(code: "Hebr") ?? .common
}

/// Throughput of itemizing and shaping, run only with TYPESET_SHAPE_BENCH=1 (numbers go to the
/// report, not to assertions: the machine is shared).
@Suite("Shape: benchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["TYPESET_SHAPE_BENCH"] == "1"))
struct ShapeBenchmark {
    static let paragraphs: [(text: String, script: String, rtl: Bool, language: String)] = [
        (
            "The quick brown fox jumps over the lazy dog while typesetting office documents, "
                + "and everyone agrees that localized interfaces need careful testing of every string. "
                + "Settings, notifications and privacy options appear in the same order on every screen.",
            "Latn", false, "en"
        ),
        (
            "مرحبا بكم في التطبيق الجديد الذي يساعدكم على تنظيم أعمالكم اليومية بسهولة ويسر "
                + "ويمكنكم تغيير الإعدادات والإشعارات وخيارات الخصوصية من الشاشة الرئيسية في أي وقت",
            "Arab", true, "ar"
        ),
        (
            "ברוכים הבאים ליישום החדש שעוזר לכם לארגן את העבודה היומיומית בקלות "
                + "ניתן לשנות את ההגדרות וההתראות ואפשרויות הפרטיות מהמסך הראשי בכל עת",
            "Hebr", true, "he"
        ),
        // Mixed: fallback digits and parentheses, Latin in Arabic (the full itemizer path).
        (
            "המחיר הוא 120 ש״ח (כולל מע״מ) והמשלוח יגיע תוך 3 ימי עבודה לכל כתובת בארץ, "
                + "ניתן לעקוב אחרי ההזמנה (מספר 45-678) באתר או באפליקציה",
            "Hebr", true, "he"
        ),
        (
            "(مرحبا) يمكنكم تحميل التطبيق من App Store أو Google Play مجانا، والاشتراك السنوي "
                + "يكلف 99 دولارا (شاملا الضريبة) مع تجربة مجانية لمدة 30 يوما",
            "Arab", true, "ar"
        ),
    ]

    @Test("shape 1,000 pages", arguments: [0, 50_000])
    func thousandPages(runCacheCapacity: Int) throws {
        let fonts = FontDatabase.shared
        let shaper = Shaper(runCacheCapacity: runCacheCapacity)
        let inputs = Self.paragraphs.map {
            (Array($0.text.unicodeScalars), Script(code: $0.script) ?? .common, $0.rtl, $0.language)
        }
        // A page: about 12 such paragraphs (~2,000 characters).
        let pages = Int(ProcessInfo.processInfo.environment["TYPESET_SHAPE_BENCH_PAGES"] ?? "") ?? 1000
        let clock = ContinuousClock()
        var glyphCount = 0
        var characters = 0
        var itemizeTime = Duration.zero
        var shapeTime = Duration.zero
        for page in 0..<pages {
            for i in 0..<12 {
                let (text, script, rtl, language) = inputs[(page + i) % inputs.count]
                characters += text.count
                var runs: [FontRun] = []
                itemizeTime += clock.measure {
                    runs = fonts.itemize(
                        scalars: text, range: 0..<text.count, families: [], weight: 400, italic: false, script: script)
                }
                // Sizes vary as in a comparison sheet; cached words serve every size.
                let size = [17.0, 12, 22][page % 3]
                shapeTime += clock.measure {
                    for run in runs {
                        glyphCount +=
                            shaper.shape(
                                scalars: text, range: run.range, face: run.face, size: size, rightToLeft: rtl,
                                script: script, language: language
                            ).glyphs.count
                    }
                }
            }
        }
        print(
            "BENCH run-cache=\(runCacheCapacity) pages=\(pages) characters=\(characters) glyphs=\(glyphCount) "
                + "itemize=\(itemizeTime) shape=\(shapeTime)"
        )
    }

    /// The worst case for a cache: every word new (random letters).
    @Test("shape 200 pages of unique words", arguments: [0, 50_000])
    func uniqueWords(runCacheCapacity: Int) throws {
        let shaper = Shaper(runCacheCapacity: runCacheCapacity, wordCacheCapacity: runCacheCapacity)
        let face = try #require(FontDatabase.shared.face(family: "Noto Sans Arabic", weight: 400, italic: false))
        let latin = try #require(FontDatabase.shared.face(family: "Noto Sans", weight: 400, italic: false))
        var seed: UInt64 = 42
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        let arabicLetters = Array("ابتثجحخدذرزسشصضطظعغفقكلمنهوي".unicodeScalars)
        let latinLetters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
        let clock = ContinuousClock()
        var time = Duration.zero
        for paragraph in 0..<(200 * 12) {
            let arabic = paragraph % 2 == 0
            let letters = arabic ? arabicLetters : latinLetters
            var text: [Unicode.Scalar] = []
            for _ in 0..<30 {
                for _ in 0..<(3 + next() % 6) { text.append(letters[next() % letters.count]) }
                text.append(" ")
            }
            time += clock.measure {
                _ = shaper.shape(
                    scalars: text, range: 0..<text.count, face: arabic ? face : latin, size: 17, rightToLeft: arabic,
                    script: Script(code: arabic ? "Arab" : "Latn") ?? .common, language: arabic ? "ar" : "en")
            }
        }
        print("BENCH unique-words run-cache=\(runCacheCapacity) pages=200 shape=\(time)")
    }

    /// A real document, shaped once with an empty cache: the GPL 3 (about 5,600 words, 12 pages).
    @Test("shape one natural document", arguments: [0, 50_000])
    func naturalDocument(runCacheCapacity: Int) throws {
        let path = "/usr/share/common-licenses/GPL-3"
        let data = try #require(FileManager.default.contents(atPath: path), "\(path) is missing: nothing measured")
        let paragraphs = String(decoding: data, as: UTF8.self).components(separatedBy: "\n\n").map {
            Array($0.replacingOccurrences(of: "\n", with: " ").unicodeScalars)
        }
        let face = try #require(FontDatabase.shared.face(family: "Noto Sans", weight: 400, italic: false))
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        for _ in 0..<5 {
            let shaper = Shaper(runCacheCapacity: runCacheCapacity, wordCacheCapacity: runCacheCapacity)  // cold every time
            let time = clock.measure {
                for text in paragraphs where !text.isEmpty {
                    _ = shaper.shape(
                        scalars: text, range: 0..<text.count, face: face, size: 17, rightToLeft: false,
                        script: TestScript.latin, language: "en")
                }
            }
            best = min(best, time)
        }
        print("BENCH GPL-3 run-cache=\(runCacheCapacity) paragraphs=\(paragraphs.count) best-of-5=\(best)")
    }

    /// First-use costs: bundled fonts, the lazy system scan, an uncovered character (which loads
    /// every system font's cmap).
    @Test("cold start")
    func coldStart() {
        let clock = ContinuousClock()
        let database = FontDatabase()
        let latin = Array("Hello".unicodeScalars)
        let bundled = clock.measure {
            _ = database.itemize(
                scalars: latin, range: 0..<5, families: [], weight: 400, italic: false, script: .common)
        }
        let scan = clock.measure {
            _ = database.itemize(
                scalars: latin, range: 0..<5, families: ["No Such Family"], weight: 400, italic: false, script: .common)
        }
        let missing = Array("a\u{10FFFD}".unicodeScalars)
        let uncovered = clock.measure {
            _ = database.itemize(
                scalars: missing, range: 0..<2, families: [], weight: 400, italic: false, script: .common)
        }
        print("BENCH cold bundled=\(bundled) system-scan=\(scan) uncovered-character=\(uncovered)")
    }
}
