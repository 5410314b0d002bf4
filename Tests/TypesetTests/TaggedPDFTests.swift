// The structure of tagged PDF as a screen reader walks it, read back with qpdf: one element per
// paragraph or list however the pages cut it, nested lists inside their item, the language of
// text in another language than the document's, and a space where a line wraps.
import Foundation
import Testing

@testable import Typeset

/// A structure element of a PDF: its type, language, marked content (page number, MCID) and
/// children, read from `qpdf --json`.
private struct Element {
    var type: String
    var language: String?
    var content: [(page: Int, id: Int)]
    var children: [Element]

    /// The types of the tree, as "Document(H1 P L(LI(Lbl LBody)))".
    var outline: String {
        children.isEmpty ? type : type + "(" + children.map(\.outline).joined(separator: " ") + ")"
    }
}

private func structureTree(of pdf: String) throws -> Element {
    let json = try runProgram("/usr/bin/qpdf", ["--json", pdf])
    #expect(json.status == 0, "\(json.stderr)")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let objects = try #require((root["qpdf"] as? [Any])?.last as? [String: Any])
    let pages = (root["pages"] as? [[String: Any]] ?? []).compactMap { $0["object"] as? String }
    func value(_ reference: String) -> [String: Any] {
        (objects["obj:" + reference] as? [String: Any])?["value"] as? [String: Any] ?? [:]
    }
    func element(_ reference: String, page inherited: Int?) -> Element {
        let dictionary = value(reference)
        let page = (dictionary["/Pg"] as? String).flatMap { pages.firstIndex(of: $0) }.map { $0 + 1 } ?? inherited
        var result = Element(
            type: String((dictionary["/S"] as? String ?? "?").dropFirst()), language: dictionary["/Lang"] as? String,
            content: [], children: [])
        let kids = dictionary["/K"].map { ($0 as? [Any]) ?? [$0] } ?? []
        for kid in kids {
            if let id = kid as? Int {
                result.content.append((page ?? 0, id))
            } else if let child = kid as? String {
                result.children.append(element(child, page: page))
            } else if let reference = kid as? [String: Any], let id = reference["/MCID"] as? Int {
                let kidPage = (reference["/Pg"] as? String).flatMap { pages.firstIndex(of: $0) }.map { $0 + 1 }
                result.content.append((kidPage ?? 0, id))
            }
        }
        return result
    }
    let treeRoot = try #require(
        objects.values.compactMap { ($0 as? [String: Any])?["value"] as? [String: Any] }
            .first { $0["/Type"] as? String == "/StructTreeRoot" })
    let document = try #require(treeRoot["/K"] as? String)
    return element(document, page: nil)
}

/// The decompressed content streams of `pdf`, one string (qpdf's QDF form).
private func contentStreams(of pdf: String, in folder: String) throws -> String {
    let qdf = folder + "/qdf.pdf"
    let result = try runProgram("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
    #expect(result.status == 0, "\(result.stderr)")
    return String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
}

@Suite("Tagged PDF")
struct TaggedPDFTests {
    static let markup = """
        <document lang="en" width="300" height="220" margin="20">
          <title>Structure</title>
          <p>This paragraph is long enough to run over several lines, so that the page break falls \
        between its lines and the rest of it goes on to the next page of the mockup here.</p>
          <list>
            <item>First item</item>
            <list><item>Nested one</item><item>Nested two</item></list>
            <item>Second item</item>
          </list>
          <p lang="ar">مرحبا بكم في الإعدادات</p>
          <p>Call <span lang="he">שלום עולם</span> now.</p>
        </document>
        """

    @Test func elementsSplitByPagesAndNestedListsAreOneTree() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = try #require(layoutMarkup(Self.markup))
        #expect(layout.pages.count == 3)
        let pdf = folder + "/structure.pdf"
        try render(pages: layout.pages, to: pdf, options: RenderOptions(format: .pdf, language: layout.language))
        let check = try runProgram("/usr/bin/qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.stdout)")

        let document = try structureTree(of: pdf)
        // One P for the paragraph on pages 1 and 2; one L, the nested L in the first item's body.
        #expect(document.outline == "Document(H1 P L(LI(Lbl LBody(L(LI(Lbl LBody) LI(Lbl LBody)))) LI(Lbl LBody)) P P)")
        let split = document.children[1]
        #expect(Set(split.content.map(\.page)) == [1, 2], "\(split.content)")
        // Every marked-content id of every page belongs to exactly one element.
        var seen: [String: Int] = [:]
        func collect(_ element: Element) {
            for (page, id) in element.content { seen["\(page):\(id)", default: 0] += 1 }
            element.children.forEach(collect)
        }
        collect(document)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(seen.count > 12)
    }

    /// Headings are H1 until a title comes (PDF/UA wants the first heading H1; a document
    /// without a title began at H2), the first heading is the /Title of a document without a
    /// title, and a picture with alt="" is decoration: an artifact, no Figure, and hidden in
    /// SVG, whose pages carry the document's title and language. Shapes are artifacts too, and an
    /// empty element is left out.
    @Test func headingsTitlesAndDecorativePictures() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try makeFlagImage(in: folder)
        try """
            <document lang="en"><heading>Sync</heading><p>Text</p><title>Settings</title><heading>Storage</heading><button>OK</button><p></p>\
            <image src="flag.png" width="20" height="10" alt=""/><image src="flag.png" width="20" height="10" alt="علم" lang="ar"/></document>
            """.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        for output in ["doc.pdf", "doc.svg"] {
            let run = try typeset(["render", "doc.xml", "-o", output], in: folder)
            #expect(run.status == 0, "\(run)")
        }
        let pdf = folder + "/doc.pdf"
        let tree = try structureTree(of: pdf)
        #expect(tree.outline == "Document(H1 P H1 H2 P Figure)", "no P for the empty one")
        #expect(tree.children.last?.language == "u:ar", "the language of the Figure's /Alt")
        let streams = try contentStreams(of: pdf, in: folder)
        // The page's background, the button's shape (its P holds only its text) and the picture.
        #expect(streams.components(separatedBy: "/Artifact BMC").count - 1 == 3)
        #expect(try runProgram("/usr/bin/pdfinfo", [pdf]).stdout.contains("Title:           Settings\n"))

        let untitled = try #require(layoutMarkup("<document><p>a</p><heading>First</heading><heading>Second</heading></document>"))
        #expect(untitled.title == "First")
        // A blank title is no title: its headings are H1, and the first is the /Title.
        for title in [" ", "&#x200B;", "&#x200F;&#xAD;"] {  // nothing that shows: no title
            let blank = try #require(layoutMarkup("<document><title>\(title)</title><heading>Section</heading><p>a</p></document>"))
            #expect(blank.title == "Section", "\(title)")
            let blankPDF = folder + "/blank.pdf"
            try render(pages: blank.pages, to: blankPDF, options: RenderOptions(format: .pdf, title: blank.title))
            #expect(try structureTree(of: blankPDF).outline == "Document(H1 P)", "\(title)")
        }

        let svg = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/doc.svg")), as: UTF8.self)
        #expect(svg.contains(#"version="1.1" xml:lang="en">"# + "\n<title>Settings</title>\n<defs>"), "\(svg.prefix(400))")
        // Both drawings hidden: the named one's name is in the text layer, the other says nothing.
        #expect(svg.components(separatedBy: #"aria-hidden="true"/>"#).count - 1 == 2)
        #expect(svg.contains(#"role="img" xml:lang="ar" aria-label="علم""#))
        // An alt of only white space is none, and said (its Figure's /Alt said "   ").
        try #"<document><image src="flag.png" width="20" height="10" alt="  "/></document>"#
            .write(toFile: folder + "/blank.xml", atomically: true, encoding: .utf8)
        let blankAlt = try typeset(["render", "blank.xml", "-o", "blank.svg"], in: folder)
        #expect(blankAlt.stderr.contains("blank.xml:1:11: warning: this <image> has an 'alt' of only white space"), "\(blankAlt)")
        #expect(!(try String(contentsOfFile: folder + "/blank.svg", encoding: .utf8)).contains("aria-label"))
        // So is one of characters that show nothing (a zero-width space, a mark).
        try #"<document><image src="flag.png" width="20" height="10" alt="&#x200B;&#x200E;"/></document>"#
            .write(toFile: folder + "/blank.xml", atomically: true, encoding: .utf8)
        let invisible = try typeset(["render", "blank.xml", "-o", "blank.svg"], in: folder)
        #expect(invisible.stderr.contains("warning: this <image> has an 'alt' of only white space or invisible characters"), "\(invisible)")
        #expect(!(try String(contentsOfFile: folder + "/blank.svg", encoding: .utf8)).contains("aria-label"))
    }

    /// A list says how its items are marked (ListNumbering, ISO 32000-1 §14.8.5.5): numbers
    /// as Decimal (Eastern Arabic digits too), bullets as Disc, none as None.
    @Test func listsSayHowTheirItemsAreMarked() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = try #require(layoutMarkup("""
            <document lang="ar"><list type="number"><item>أ</item><list><item>ب</item></list></list>\
            <list type="none"><item>ج</item></list></document>
            """))
        let pdf = folder + "/lists.pdf"
        try render(pages: layout.pages, to: pdf, options: RenderOptions(format: .pdf, language: layout.language))
        #expect(try structureTree(of: pdf).outline.hasPrefix("Document(L(LI(Lbl LBody(L("))
        let json = try runProgram("/usr/bin/qpdf", ["--json", pdf]).stdout
        let numberings = json.matches(of: /"\/ListNumbering": "\/(\w+)"/).map { String($0.output.1) }
        #expect(numberings.sorted() == ["Decimal", "Disc", "None"], "\(numberings)")
    }

    /// A list that comes before any item of its list goes in an item of its own (an L holds
    /// only LIs; it was an L directly inside the L).
    @Test func aListBeforeAnyItemGoesInAnItemOfItsOwn() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = try #require(layoutMarkup("""
            <document><list><list><item>a</item></list><list><item>b</item></list><item>c</item></list>\
            <row><list><list><item>d</item></list><item>e</item></list></row></document>
            """))
        let pdf = folder + "/first.pdf"
        try render(pages: layout.pages, to: pdf, options: RenderOptions(format: .pdf, language: layout.language))
        #expect(try structureTree(of: pdf).outline
            == "Document(L(LI(LBody(L(LI(Lbl LBody)) L(LI(Lbl LBody)))) LI(Lbl LBody)) L(LI(LBody(L(LI(Lbl LBody)))) LI(Lbl LBody)))")
    }

    /// A row taller than a page: each column goes on on the next pages, and the structure keeps
    /// the columns' order (the first column's list after its paragraph, before the second
    /// column) though the second column ends first.
    @Test func aRowSplitBetweenPagesKeepsItsOrder() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = (0..<90).map { "word\($0)" }.joined(separator: " ")
        let layout = try #require(layoutMarkup("""
            <document width="300" height="300"><p>Before</p><row>\
            <stack><p>\(long)</p><list><item>a</item><item>b</item></list></stack>\
            <p>\((0..<50).map { "other\($0)" }.joined(separator: " "))</p></row><p>After</p></document>
            """))
        #expect(layout.pages.count == 5)
        let pdf = folder + "/row.pdf"
        try render(pages: layout.pages, to: pdf, options: RenderOptions(format: .pdf, language: layout.language))
        let tree = try structureTree(of: pdf)
        #expect(tree.outline == "Document(P P L(LI(Lbl LBody) LI(Lbl LBody)) P P)")
        // The row starts below "Before"; its list is on the last page, with "After".
        #expect(tree.children.map { Set($0.content.map(\.page)).sorted() } == [[1], [1, 2, 3, 4], [], [1, 2, 3, 4], [5]])
        #expect(try runProgram("/usr/bin/qpdf", ["--check", pdf]).status == 0)

        // Lists nested down to a few points wide in one cell are one column still (by frames
        // they were several, and the PDF failed): in order, and the writer takes them. The list
        // left no room beside its markers is an error, and not laid out.
        let nested = try #require(layoutMarkup("""
            <document width="200" height="150"><row><list><item>\(long)</item><list><item>Two</item>\
            <list><item>Three</item><list><item>Four</item></list></list></list></list><p>a</p></row></document>
            """))
        let texts = nested.report.pages.flatMap(\.blocks).filter { $0.kind == "item" }.compactMap { $0.lines.first?.runs.first?.text }
        #expect(texts.suffix(2) == ["Two", "Th"], "the first lines of Two and Three")
        #expect(nested.diagnostics.errors.map(\.message).first?.hasPrefix("a 'list' nested 4 deep has ") == true)
        try render(pages: nested.pages, to: folder + "/nested.pdf", options: RenderOptions(format: .pdf))
    }

    /// Text in another language than the document's is marked with its /Lang (ISO 32000-1
    /// §14.9.2), block or span alike; text in the document's language is not.
    @Test func textInAnotherLanguageIsMarkedWithIt() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = try #require(layoutMarkup(Self.markup))
        let pdf = folder + "/languages.pdf"
        try render(pages: layout.pages, to: pdf, options: RenderOptions(format: .pdf, language: layout.language))
        let content = try contentStreams(of: pdf, in: folder)
        let marked = content.matches(of: #/<< /MCID \d+ (/Lang \(([a-z-]+)\) )?>> BDC/#).map {
            $0.output.2.map(String.init)
        }
        #expect(marked.compactMap { $0 } == ["ar", "he"])
        #expect(marked.count > 12)
        // An element all of whose text is in one other language says so itself, where readers
        // look (the Arabic paragraph); one of mixed text does not (the Hebrew span's).
        let languages = try structureTree(of: pdf).children.map { $0.type + ($0.language.map { " " + $0 } ?? "") }
        #expect(languages == ["H1", "P", "L", "P u:ar", "P"], "\(languages)")

        // /Lang goes down the tree: an item's LBody with a list inside has one only when all
        // of it is in that language (an English item of a list in a Hebrew item's LBody was read
        // as Hebrew; the Hebrew text is marked so itself). (qpdf writes a text string "u:…".)
        let nested = try #require(
            layoutMarkup(
                #"<document lang="en"><list><item lang="he">שלום</item><list><item>Charger</item></list>"#
                    + #"<item lang="ar">شاحن</item></list></document>"#))
        let nestedPDF = folder + "/nested.pdf"
        try render(pages: nested.pages, to: nestedPDF, options: RenderOptions(format: .pdf, language: nested.language))
        func tagged(_ element: Element) -> String {
            let own = element.type + (element.language.map { ":" + $0 } ?? "")
            return element.children.isEmpty ? own : own + "(" + element.children.map(tagged).joined(separator: " ") + ")"
        }
        let tree = tagged(try structureTree(of: nestedPDF))
        #expect(tree == "Document(L(LI(Lbl LBody(L(LI(Lbl LBody)))) LI(Lbl LBody:u:ar)))", "\(tree)")

        // SVG: every text has its language.
        let svg = folder + "/languages.svg"
        let written = try render(pages: layout.pages, to: svg, options: RenderOptions(format: .svg))
        let last = String(decoding: try Data(contentsOf: URL(fileURLWithPath: written[2])), as: UTF8.self)
        #expect(last.contains(#"xml:lang="he">שלום עולם</tspan>"#))
        #expect(last.contains(#"xml:lang="ar">مرحبا بكم في الإعدادات</tspan>"#))
    }

    /// A wrapped line's last word and the next line's first are two words in the text: the space
    /// between them hangs, unseen, but is drawn as a run of its own after the line, so the PDF's
    /// and the SVG's text have it, whatever font or span the space is in. The report's text
    /// (SPEC §6) is without it, and the page looks the same (the goldens).
    @Test func wrappedLinesKeepTheirWordSpace() throws {
        func runs(_ page: Page) -> [GlyphRun] {
            page.items.compactMap { item -> GlyphRun? in if case .glyphs(let run) = item { run } else { nil } }
        }
        // Bold words, regular spaces: each space is in another font and span than the word before.
        let words = (1...24).map { "word\($0)" }
        let markup = "<document width=\"160\"><p>" + words.map { "<b>\($0)</b>" }.joined(separator: " ") + "</p></document>"
        let layout = try #require(layoutMarkup(markup))
        let drawn = runs(layout.pages[0])
        #expect(drawn.map(\.text).joined() == words.joined(separator: " "))
        let lines = layout.report.pages[0].blocks[0].lines
        #expect(lines.count > 4)
        // The report has the line's own text: the hanging spaces are the difference.
        let reported = lines.map { $0.runs.map(\.text).joined() }
        #expect(reported.allSatisfy { !$0.hasSuffix(" ") }, "\(reported)")
        #expect(reported.joined().filter { $0 == " " }.count == words.count - lines.count)
        // Every space between the bold words is a run of its own, at a line's end too.
        #expect(drawn.filter { $0.text == " " }.count == words.count - 1, "\(drawn.map(\.text))")
        for (index, run) in drawn.enumerated() where run.text == " " {
            #expect(run.problem == nil && run.font.weight == 400)
            // Past the end of its line.
            let before = try #require(drawn[index - 1].glyphs.last)
            #expect(run.glyphs[0].x >= before.x)
        }
        // Right to left: the space goes left of the line, the line's logical end.
        let arabic = try #require(
            layoutMarkup(
                #"<document lang="ar" width="200"><p>مرحبا بكم في الإعدادات الجديدة للهاتف اليوم</p></document>"#))
        let arabicRuns = runs(arabic.pages[0])
        let space = try #require(arabicRuns.firstIndex { $0.text == " " })
        #expect(space > 0 && arabicRuns[space].backward && arabicRuns[space].problem == nil)
        #expect(arabicRuns[space - 1].glyphs.allSatisfy { $0.x > arabicRuns[space].glyphs[0].x })
        #expect(arabicRuns.map(\.text).joined() == "مرحبا بكم في الإعدادات الجديدة للهاتف اليوم")
        // A <br/> (U+2028, no glyph in the fonts) reads as a space too ("line oneline two").
        for (lang, text) in [("en", ["line one", "line two"]), ("ar", ["سطر", "ثان"])] {
            let broken = try #require(layoutMarkup(#"<document lang="\#(lang)"><p>\#(text[0])<br/>\#(text[1])</p></document>"#))
            #expect(runs(broken.pages[0]).map(\.text).joined() == text.joined(separator: " "), "\(lang)")
        }
        // So does every other character that ends a line: U+2029, NEL, CR, LF, VT and FF (from
        // references or a catalog; they read "oneline two").
        for reference in ["&#x2029;", "&#x85;", "&#xD;", "&#xA;&#xA;"] {
            let ended = try #require(layoutMarkup(#"<document><p>one\#(reference)two</p></document>"#))
            #expect(runs(ended.pages[0]).map(\.text).joined() == "one two", "\(reference)")
        }
    }

    /// The writer checks that what one page ends with `continued` the next begins so.
    @Test func continuedElementsMustGoOnOnTheNextPage() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let options = RenderOptions(format: .pdf)
        func pages(_ first: [PageItem], _ second: [PageItem]) -> [Page] {
            [Page(width: 100, height: 100, items: first), Page(width: 100, height: 100, items: second)]
        }
        // Text, an element's content (a shape is an artifact).
        let text = PageItem.glyphs(try glyphRun("a", font: notoSans, size: 10, x: 10, baseline: 20))
        let good = pages(
            [
                .beginTag(.list), .beginTag(.listItem), text, .endTag(.listItem, continued: true),
                .endTag(.list, continued: true),
            ],
            [
                .beginTag(.list, continued: true), .beginTag(.listItem, continued: true), text, .endTag(.listItem),
                .endTag(.list),
            ])
        try render(pages: good, to: folder + "/good.pdf", options: options)
        #expect(try structureTree(of: folder + "/good.pdf").outline == "Document(L(LI))")
        // Side by side (a row split between pages): the first goes on after the second began.
        let sideBySide = pages(
            [.beginTag(.paragraph), text, .endTag(.paragraph, continued: true), .beginTag(.h1), text,
             .endTag(.h1, continued: true), text],
            [text, .beginTag(.paragraph, continued: true), text, .endTag(.paragraph), .beginTag(.h1, continued: true),
             text, .endTag(.h1)])
        try render(pages: sideBySide, to: folder + "/sides.pdf", options: options)
        let sides = try structureTree(of: folder + "/sides.pdf")
        #expect(sides.outline == "Document(P H1)")
        #expect(sides.children.map { $0.content.map(\.page) } == [[1, 2], [1, 2]])
        let bad: [[Page]] = [
            // Not begun again on the next page.
            pages([.beginTag(.paragraph), text, .endTag(.paragraph, continued: true)], [text]),
            // Begun again in the wrong order.
            pages(
                [
                    .beginTag(.list), .beginTag(.listItem), .endTag(.listItem, continued: true),
                    .endTag(.list, continued: true),
                ],
                [
                    .beginTag(.listItem, continued: true), .beginTag(.list, continued: true), .endTag(.list),
                    .endTag(.listItem),
                ]),
            // Two going on, begun again in the wrong order.
            pages(
                [
                    .beginTag(.paragraph), .endTag(.paragraph, continued: true), .beginTag(.h1),
                    .endTag(.h1, continued: true),
                ],
                [
                    .beginTag(.h1, continued: true), .endTag(.h1), .beginTag(.paragraph, continued: true),
                    .endTag(.paragraph),
                ]),
            // Ended so and begun again on the same page.
            pages(
                [.beginTag(.paragraph), .endTag(.paragraph, continued: true), .beginTag(.paragraph, continued: true),
                 .endTag(.paragraph)],
                [text]),
            // Going on from a page that did not end it so.
            pages([text], [.beginTag(.paragraph, continued: true), .endTag(.paragraph)]),
        ]
        for (index, pages) in bad.enumerated() {
            // Refused for the element that goes on, not for another fault.
            do {
                try render(pages: pages, to: folder + "/bad\(index).pdf", options: options)
                Issue.record("case \(index) was written")
            } catch RenderError.unbalancedTags(_, let reason) {
                #expect(reason.contains(" goes on from the previous page"), "case \(index): \(reason)")
            } catch {
                Issue.record("case \(index): \(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/bad\(index).pdf"))
        }
    }
}
