// Pages of a document with a `height` (SPEC §2): what moves to the next page, what splits
// between its lines, and what is cut off with a warning; and text wider than its box, which
// overflows it with a warning. Nothing is lost silently.
import Testing

@testable import Typeset

@Suite struct PaginationTests {
    /// `count` words, numbered so that their order can be checked.
    func words(_ count: Int) -> String { (0..<count).map { "word\($0)" }.joined(separator: " ") }

    /// Every line's text on every page, in order.
    func lineTexts(_ result: LayoutResult) -> [String] {
        result.report.pages.flatMap { page in
            page.blocks.flatMap { block in block.lines.map { $0.runs.map(\.text).joined() } }
        }
    }

    @Test func listItemTallerThanAPageSplitsBetweenItsLines() throws {
        let result = try #require(
            layoutMarkup(
                #"<document width="300" height="400"><list><item>\#(words(600))</item><item>last</item></list></document>"#
            ))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let pages = result.report.pages
        #expect(pages.count > 5)
        // Every word once, in order, and the second item after them.
        let text = lineTexts(result).joined(separator: " ")
        #expect(text == words(600) + " last")
        // The item's marker stands beside its first line only.
        let parts = pages.flatMap(\.blocks).filter { $0.kind == "item" }
        #expect(parts.count == pages.count + 1)
        #expect(parts.map { $0.marker != nil } == [true] + Array(repeating: false, count: pages.count - 1) + [true])
        // Each part fits its page.
        for page in pages {
            for block in page.blocks { #expect(block.frame.y + block.frame.height <= page.height - 16 + 0.001) }
        }
    }

    @Test func listItemThatFitsAPageMovesWhole() throws {
        // The first item fills most of the page; the second (7 lines) does not fit below it.
        let result = try #require(
            layoutMarkup(
                #"<document width="300" height="400"><list><item>\#(words(40))</item><item>\#(words(24))</item></list></document>"#
            ))
        let pages = result.report.pages
        #expect(pages.count == 2)
        #expect(pages.map { $0.blocks.count } == [1, 1])
        #expect(pages[1].blocks[0].marker != nil)
        #expect(result.diagnostics.items.isEmpty)
    }

    /// But an item right under a heading that cannot share a page with it goes on between its
    /// lines from under the heading, as a paragraph does: moved whole, it left the heading alone
    /// at the page's foot (at AX2, a page of a title and a heading, two thirds blank).
    @Test func listItemUnderAHeadingItCannotShareAPageWithGoesOnUnderIt() throws {
        let result = try #require(
            layoutMarkup(
                #"<document width="300" height="400"><title>Privacy</title><heading>What we collect</heading><list><item>\#(words(40))</item><item>\#(words(4))</item></list></document>"#
            ))
        let pages = result.report.pages
        #expect(pages.count == 2, "\(pages.map { $0.blocks.map(\.kind) })")
        #expect(pages.first?.blocks.map(\.kind) == ["title", "heading", "item"], "\(pages.map { $0.blocks.map(\.kind) })")
        let first = try #require(pages.first?.blocks.last), rest = try #require(pages.last?.blocks.first)
        #expect(first.marker != nil && first.lines.count >= 2 && rest.kind == "item" && rest.marker == nil, "\(first.lines.count)")
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
    }

    /// A row taller than a page starts below what comes before it, and each of its columns goes
    /// on at the top of the next pages where its lines end, as a paragraph does: no line lost,
    /// none cut, the columns still side by side (the first on the right in Arabic).
    @Test func rowTallerThanAPageGoesOnColumnByColumn() throws {
        let result = try #require(
            layoutMarkup(
                """
                <document width="300" height="400" lang="ar">
                  <p>قبل</p>
                  <row><label>\(words(600))</label>
                  <stack><p>\(words(150))</p><button>OK</button></stack></row>
                  <p>بعد</p>
                </document>
                """))
        #expect(result.diagnostics.items.isEmpty)
        let pages = result.report.pages
        #expect(pages.count > 5)
        func parts(line: Int) -> [(page: Int, block: ReportBlock)] {
            pages.enumerated().flatMap { index, page in page.blocks.filter { $0.line == line }.map { (index, $0) } }
        }
        func text(_ parts: [(page: Int, block: ReportBlock)]) -> [String] {
            parts.flatMap { $0.block.lines.map { $0.runs.map(\.text).joined() } }.joined(separator: " ")
                .split(separator: " ").map(String.init)
        }
        let label = parts(line: 3)
        let paragraph = parts(line: 4).filter { $0.block.kind == "p" }
        #expect(text(label) == words(600).split(separator: " ").map(String.init))
        #expect(text(paragraph) == words(150).split(separator: " ").map(String.init))
        // Both columns start on the first page, below the paragraph before, side by side.
        #expect(label[0].page == 0 && paragraph[0].page == 0)
        #expect(label[0].block.frame.y > 16 && label[0].block.frame.y == paragraph[0].block.frame.y)
        #expect(label.allSatisfy { $0.block.frame.x > paragraph[0].block.frame.x + paragraph[0].block.frame.width })
        // Then each goes on at the top of each page, until it ends.
        #expect(label.map(\.page) == Array(0..<label.count))
        #expect(paragraph.map(\.page) == Array(0..<paragraph.count))
        #expect(label.dropFirst().allSatisfy { $0.block.frame.y == 16 })
        #expect(paragraph.dropFirst().allSatisfy { $0.block.frame.y == 16 })
        // The button follows the paragraph in its column; the paragraph after, the whole row.
        let button = try #require(parts(line: 4).first { $0.block.kind == "button" })
        let lastOfColumn = try #require(paragraph.last)
        #expect(button.page == lastOfColumn.page)
        #expect(button.block.frame.y > lastOfColumn.block.frame.y + lastOfColumn.block.frame.height)
        let after = try #require(parts(line: 5).first)
        #expect(after.page == label.last?.page && after.block.frame.y > label.last!.block.frame.y)
        // Nothing reaches into the bottom margin.
        for page in pages {
            for block in page.blocks { #expect(block.frame.y + block.frame.height <= 384 + 0.001) }
        }
    }

    /// In a column of a row split between pages, a paragraph below another block does not leave
    /// its first line alone at a page's foot, nor a heading end the column's page: as in the flow,
    /// they go on to the next page ("First step 4" ended a column's page).
    @Test func aRowsColumnKeepsTheFlowsRules() throws {
        let paragraph = "<p>A paragraph in a column of a row, long enough to wrap to four lines in the column width here.</p>"
        func pages(_ column: String) throws -> [[String]] {
            let result = try #require(layoutMarkup(
                ##"<document width="390" height="300"><row><stack>"## + column + "</stack><label>Side</label></row></document>"))
            return result.report.pages.map { page in page.blocks.filter { $0.kind != "label" }.map { "\($0.kind)\($0.lines.count)" } }
        }
        // Before: the third paragraph's first line alone at page 1's foot; the heading there.
        #expect(try pages(paragraph + paragraph + paragraph + paragraph) == [["p5", "p5"], ["p5", "p5"]])
        #expect(try pages(paragraph + paragraph + "<heading>Details</heading>" + paragraph) == [["p5", "p5"], ["heading1", "p5"]])
        // A paragraph first in its column on a page still begins there.
        let first = try pages("<p>" + String(repeating: "Words that wrap in a narrow column. ", count: 30) + "</p>")
        #expect(first.count > 1 && first.allSatisfy { $0.count == 1 }, "\(first)")
        // A column that begins with a heading begins with the paragraph under it: the row goes
        // on to the next page rather than leave the heading alone at this one's foot.
        let section = try #require(layoutMarkup(
            ##"<document width="390" height="180"><p>An opening paragraph that takes up some of the first page before the row "##
                + "begins below it.</p><row><stack><heading>Section</heading><p>This paragraph is long enough to wrap to several "
                + "lines in the narrow column of this row, so it goes on to the next page.</p></stack><p>The other column holds a "
                + "long paragraph as well, wrapping across the page break to the next page of the document here.</p></row></document>"))
        // Unless the two cannot share a page: then the row starts where it is (it waited a page
        // and the heading was alone at the foot of the next).
        let photos = try #require(layoutMarkup(
            ##"<document device="iphone-se"><p>Intro paragraph text here that wraps over a couple of lines on this phone.</p>"##
                + ##"<row><stack><heading>Photos</heading><stack background="#888888"><spacer height="520"/></stack>"##
                + "<p>\(words(40))</p></stack><stack><p>\(words(200))</p></stack></row><p>After row.</p></document>"))
        #expect(photos.report.pages.first?.blocks.map(\.kind).contains("heading") == true, "\(photos.report.pages.map { $0.blocks.map(\.kind) })")
        let withHeading = try #require(section.report.pages.first { $0.blocks.contains { $0.kind == "heading" } })
        let heading = try #require(withHeading.blocks.first { $0.kind == "heading" })
        #expect(withHeading.blocks.contains { $0.kind == "p" && $0.frame.x == heading.frame.x && $0.frame.y > heading.frame.y })
    }

    /// A row with a block that is not cut between lines and is taller than a page (a button at
    /// AX5) starts on a page of its own, its children side by side there: the button went to
    /// the next page alone and the label beside it stayed on the page before.
    @Test func aRowWithABlockTallerThanAPageStartsAPage() throws {
        let result = try #require(
            layoutMarkup(
                """
                <document width="300" height="300" lang="ar"><title>عنوان</title>
                  <row><button>\(words(120))</button><label>نص</label></row></document>
                """))
        let pages = result.report.pages
        #expect(pages.count == 2)
        #expect(pages[0].blocks.map(\.kind) == ["title"])
        #expect(pages[1].blocks.map(\.kind) == ["button", "label"])
        let tops = pages[1].blocks.map(\.frame.y)
        #expect(tops.allSatisfy { abs($0 - tops[0]) < 0.001 }, "\(tops)")
        #expect(result.diagnostics.items.count == 1 && result.diagnostics.items[0].message.contains("cut off"),
                "\(result.diagnostics.items)")
    }

    /// A block about as tall as a page, set lower in its row to share the first baseline, stays
    /// beside its neighbours, into the bottom margin, with a warning: it went to the next page
    /// alone, after the button beside it in reading order, though it fits a page.
    @Test func aRowsLoweredBlockStaysBesideItsNeighbours() throws {
        for lang in ["en", "ar"] {
            let result = try #require(layoutMarkup(
                #"<document width="300" height="206" lang="\#(lang)"><row><heading>One two three four five six seven eight nine ten eleven</heading>"#
                    + "<button>Edit</button></row></document>"))
            #expect(result.report.pages.map { $0.blocks.map(\.kind) } == [["heading", "button"]], "\(lang)")
            #expect(result.diagnostics.items.map(\.message) == [
                "a <heading> in this <row>, set lower to share the row's first baseline, ends 177.4 pt down, past the 174 pt between the page's margins: it runs into the bottom margin"
            ])
        }
    }

    /// Two paragraphs side by side in one column of a split row (a row in it), with lines of
    /// two sizes: each goes on at the top of the next page. The one whose last line on a page
    /// ended higher up set the column's top, and the other started as much lower down.
    @Test func paragraphsSideBySideInAColumnEachGoOnAtTheTop() throws {
        let result = try #require(
            layoutMarkup(
                """
                <document width="700" height="300"><p>Before</p>
                  <row><row><p>\(words(240))</p><p size="25">\(words(120))</p></row>
                  <p>Short</p></row>
                </document>
                """))
        #expect(result.diagnostics.items.isEmpty)
        let pages = result.report.pages
        #expect(pages.count > 4)
        for size in [17.0, 25.0] {
            let parts = pages.enumerated().flatMap { index, page in
                page.blocks.filter { $0.line == 2 && $0.lines.first?.runs.first?.size == size }.map { (index, $0) }
            }
            let text = parts.flatMap { $0.1.lines.map { $0.runs.map(\.text).joined() } }.joined(separator: " ")
            #expect(text.split(separator: " ").map(String.init) == words(size == 17 ? 240 : 120).split(separator: " ").map(String.init))
            #expect(parts.map(\.0) == Array(0..<parts.count), "a part on every page from the first")
            #expect(parts.dropFirst().allSatisfy { $0.1.frame.y == 16 }, "\(size) pt: \(parts.map(\.1.frame.y))")
        }
        for page in pages {
            for block in page.blocks { #expect(block.frame.y + block.frame.height <= 284 + 0.001) }
        }
    }

    /// A row in a row taller than a page starts on a page only where the first lines of all its
    /// columns fit: judged by its first column alone, it began with one line of a list item and
    /// of a label, its heading went to the next page off their shared baseline, and the label's
    /// two lines were cut one and one.
    @Test func aRowInARowStartsWhereAllItsColumnsDo() throws {
        let result = try #require(
            layoutMarkup(
                """
                <document lang="en" width="300" height="300"><label>Top</label><spacer height="190"/>
                  <row><row><list><item>\(words(60))</item></list><label>lazy brown fox</label><heading size="12">privacy brown fox quick</heading></row></row>
                </document>
                """))
        let pages = result.report.pages
        #expect(pages.count >= 2 && pages[0].blocks.map(\.kind) == ["label"], "\(pages.map { $0.blocks.map(\.kind) })")
        let row = pages[1].blocks.filter { $0.kind != "label" || $0.lines.count == 2 }
        #expect(row.count == 3 && Set(row.map { $0.lines[0].baseline }).count == 1, "\(row.map { ($0.kind, $0.lines.first?.baseline) })")
        #expect(pages[1].blocks.first { $0.kind == "label" }?.lines.count == 2, "the label whole")
    }

    /// A paragraph's background split with it: behind its lines on each page, never in the
    /// bottom margin (it reached there from the first page, and the other pages had none).
    @Test func backgroundGoesWithEachPartOfASplitParagraph() throws {
        let result = try #require(
            layoutMarkup(
                ##"<document width="300" height="300"><p>Before</p><p background="#FFDDDD">\##(words(120))</p></document>"##))
        let pages = result.pages
        #expect(pages.count == 3)
        for (page, report) in zip(pages, result.report.pages) {
            let pink = Color(red: 1, green: 0xDD / 255.0, blue: 0xDD / 255.0)
            var backgrounds: [RectangleItem] = []
            for case .rectangle(let r) in page.items where r.fill == pink { backgrounds.append(r) }
            let part = try #require(report.blocks.last)
            #expect(backgrounds.count == 1)
            #expect(backgrounds.first?.y == part.frame.y && backgrounds.first?.height == part.frame.height)
            #expect(part.frame.y + part.frame.height <= 300 - 16 + 0.001)
        }
    }

    /// A paragraph's last line does not go on alone at the top of a page (a widow): the line
    /// before it goes with it; a paragraph of two lines goes on whole, when it fits on a page.
    /// Nor does its first line stand alone at a page's foot (an orphan) below something else:
    /// the paragraph begins on the next page (one of three after a spacer was cut 1 + 2).
    @Test func noLastLineAloneAtAPagesTop() throws {
        func split(_ lines: Int, height: Int) throws -> [Int] {
            let text = (1...lines).map { "line\($0)" }.joined(separator: "<br/>")
            let result = try #require(layoutMarkup(#"<document width="300" height="\#(height)" margin="10"><p>\#(text)</p></document>"#))
            return result.report.pages.map { $0.blocks.first?.lines.count ?? 0 }
        }
        // 22.1 pt lines: four fit in 90 pt, two in 50 pt.
        #expect(try split(5, height: 110) == [3, 2])
        #expect(try split(6, height: 110) == [4, 2])
        #expect(try split(3, height: 70) == [1, 2])
        // A paragraph of two lines that fits on a page goes on to the next whole rather than
        // leave one line on each (and one of three is cut 1 + 2, not 2 + 1). After a line and
        // a 350 pt spacer there is room for two lines, after a 370 pt one for one.
        func after(_ spacer: Int, _ lines: Int) throws -> [Int] {
            let text = (1...lines).map { "line\($0)" }.joined(separator: "<br/>")
            let markup = #"<document width="200" height="460" margin="10"><p>top</p><spacer height="\#(spacer)"/><p>\#(text)</p></document>"#
            let result = try #require(layoutMarkup(markup))
            return result.report.pages.map { page in
                page.blocks.filter { $0.kind == "p" && $0.text.hasPrefix("line") }.reduce(0) { $0 + $1.lines.count }
            }
        }
        #expect(try after(370, 2) == [0, 2])
        #expect(try after(350, 2) == [2])
        #expect(try after(350, 3) == [0, 3])
        #expect(try after(370, 3) == [0, 3])
        #expect(try after(350, 4) == [2, 2])
        #expect(try after(370, 4) == [0, 4])
        #expect(try after(330, 5) == [3, 2])
        // Lines of text, that is: the empty line of a paragraph that ends in `<br/><br/>` is no
        // company, its last line of text takes the one before along (its last word opened a
        // page alone); a `<br/>` before the first line is no line of its start (the first
        // line ended a page alone, the rest on the next).
        let ended = try #require(layoutMarkup(
            #"<document width="300" height="110" margin="10"><p>line1<br/>line2<br/>line3<br/>line4<br/>line5<br/><br/></p></document>"#))
        #expect(ended.report.pages.map { $0.blocks.flatMap { $0.lines.map { $0.runs.map(\.text).joined() } } }
            == [["line1", "line2", "line3"], ["line4", "line5", ""]])
        func leading(_ spacer: Int, _ lines: Int) throws -> [Int] {
            let text = (1...lines).map { "line\($0)" }.joined(separator: "<br/>")
            let markup = #"<document width="200" height="460" margin="10"><p>top</p><spacer height="\#(spacer)"/><p><br/>\#(text)</p></document>"#
            let result = try #require(layoutMarkup(markup))
            return result.report.pages.map { page in
                page.blocks.filter { $0.kind == "p" && $0.text != "top" }.reduce(0) { $0 + $1.lines.count }
            }
        }
        #expect(try leading(350, 3) == [0, 4])
        #expect(try leading(330, 4) == [3, 2])
    }

    /// No page starts with an empty line (`<br/><br/>`) before text: it stays on the page
    /// before, and as a widow's company it does not count, the text line before it goes along
    /// (a page began with a 22 pt band of nothing, the last line below it as alone as before).
    @Test func noPageStartsWithAnEmptyLine() throws {
        func pages(_ text: String) throws -> [[String]] {
            let result = try #require(layoutMarkup(#"<document width="300" height="120"><p>\#(text)</p></document>"#))
            return result.report.pages.map { page in
                page.blocks.flatMap { $0.lines.map { line in line.runs.map(\.text).joined() } }
            }
        }
        #expect(try pages("Name: Dana<br/>Plan: PRO<br/><br/>Renews 1 May") == [["Name: Dana"], ["Plan: PRO", "", "Renews 1 May"]])
        // So is a line of a no-break space alone, a blank line kept from collapsing.
        #expect(try pages("Name: Dana<br/>Plan: PRO<br/>&#xA0;<br/>Renews 1 May") == [["Name: Dana"], ["Plan: PRO", "\u{A0}", "Renews 1 May"]])
        #expect(try pages("A<br/>B<br/><br/>C<br/>D<br/>E") == [["A", "B", ""], ["C", "D", "E"]])
        // Nor with those that end a paragraph: they end with the page (`a` and ten `<br/>` made
        // three pages of nothing after the first), and what follows starts the next page.
        #expect(try pages("a" + String(repeating: "<br/>", count: 10)) == [["a"] + Array(repeating: "", count: 9)])
        let next = try #require(layoutMarkup(#"<document width="300" height="120"><p>a<br/><br/><br/><br/><br/></p><p>next</p></document>"#))
        #expect(next.report.pages.map { $0.blocks.flatMap { $0.lines.map { $0.runs.map(\.text).joined() } } } == [["a", "", "", "", ""], ["next"]])
        #expect(next.report.pages[0].blocks.allSatisfy { $0.frame.y + $0.frame.height <= 104 + 0.001 && $0.lines.allSatisfy { $0.baseline <= 104.001 } })
        // A paragraph of empty lines alone is left out at a page break, as a spacer is (the
        // next page began with them, "After" below a band of nothing).
        let words = Array(repeating: "word", count: 38).joined(separator: " ")
        let blank = try #require(layoutMarkup(
            #"<document width="300" height="200"><p>\#(words)</p><p><br/><br/><br/><br/><br/></p><p>After</p></document>"#))
        #expect(blank.report.pages.map { $0.blocks.flatMap { $0.lines.map { $0.runs.map(\.text).joined() } }.filter { $0 != "" }.count } == [7, 1])
        #expect(blank.report.pages[1].blocks.first?.lines.first?.runs.map(\.text).joined() == "After")
        // Its background ends with them, at the content area's end (it was painted over the
        // bottom margin and past the page).
        let painted = try #require(layoutMarkup(
            ##"<document width="300" height="200"><p>Intro line</p><p background="#FFCC00">a"## + String(repeating: "<br/>", count: 12)
                + "</p><p>After</p></document>"))
        let fills = painted.pages[0].items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }
        #expect(fills.count == 1 && fills.allSatisfy { $0.y + $0.height <= 184 + 0.001 }, "\(fills)")
    }

    /// The empty lines kept at a page's foot end there: the part's frame, its background and
    /// the empty lines' baselines stay within the content area (60 `<br/>` made a frame 1,326 pt
    /// tall on a 400 pt page, and a background painted into the bottom margin).
    @Test func emptyLinesAtAPageFootStayInTheContentArea() throws {
        let breaks = String(repeating: "<br/>", count: 60)
        let result = try #require(
            layoutMarkup(##"<document width="300" height="400"><p background="#FFCC00">Start\##(breaks)End of it</p></document>"##))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let pages = result.report.pages
        #expect(pages.count == 2)
        #expect(lineTexts(result) == ["Start"] + Array(repeating: "", count: 59) + ["End of it"])
        for (page, report) in zip(result.pages, pages) {
            for block in report.blocks {
                #expect(block.frame.y + block.frame.height <= 384 + 0.001, "\(block.frame)")
                #expect(block.lines.allSatisfy { $0.baseline <= 384 + 0.001 })
            }
            for case .rectangle(let background) in page.items {
                #expect(background.y + background.height <= 384 + 0.001, "\(background)")
            }
        }
        // The second page's part begins with its text, at the top.
        #expect(pages[1].blocks.first?.lines.first.map { $0.runs.map(\.text).joined() } == "End of it")
        #expect(pages[1].blocks.first?.frame.y == 16)
    }

    /// A page that grows to fit its content grows to its ink: with `margin="0"` the dots and
    /// kasra under an Arabic label were cut off at the page's foot, and the hamza, damma and
    /// shadda over «أُمٌّ لَّكَ» at its top (what the page holds moves down by them). Latin's
    /// page is its line.
    @Test func aGrowingPageHoldsTheInkOfItsLines() throws {
        for (text, above) in [("يَجِيءُ غَدًا", false), ("أُمٌّ لَّكَ", true)] {
            let arabic = try #require(layoutMarkup(##"<document lang="ar" width="200" margin="0"><label>\##(text)</label></document>"##))
            let page = try #require(arabic.pages.first)
            #expect(page.height > 22.1 + 2)
            #expect(arabic.report.pages[0].height == page.height)
            let frame = arabic.report.pages[0].blocks[0].frame
            #expect((frame.y > 2) == above, "\(text): \(frame)")
            var checked = 0
            for case .glyphs(let run) in page.items {
                #expect(abs(run.baseline - arabic.report.pages[0].blocks[0].lines[0].baseline) < 0.01)
                for glyph in run.glyphs {
                    guard let ink = Shaper.shared.glyphExtents(face: run.font, size: run.size, glyph: glyph.id), ink.height != 0 else { continue }
                    #expect(glyph.y - ink.yBearing >= -1e-9, "\(text)")
                    #expect(glyph.y - ink.yBearing - ink.height <= page.height + 1e-9, "\(text)")
                    checked += 1
                }
            }
            #expect(checked > 5)
        }
        let latin = try #require(layoutMarkup(##"<document width="200" margin="0"><label>Hello gjpqy</label></document>"##))
        #expect(abs((latin.pages.first?.height ?? 0) - 22.1) < 1e-9)
    }

    /// A background holds the ink of its text: white Arabic on a dark label, stack, row or list
    /// lost the dots under «في» and «يجيء», drawn on the page below the line box (SPEC §2:
    /// line-height × size, which Noto Sans Arabic's tails pass by 2.6 pt at 17 pt), and the
    /// marks over «لِلَّٰهِ» above it. Each glyph's ink is inside a rectangle of the background
    /// behind it; what follows the background moves down; Latin text keeps its line box.
    @Test func aBackgroundHoldsTheInkOfItsText() throws {
        let dark = Color(hex: "#102030")
        let arabic = "لِلَّٰهِ في جيب يجيء"
        let cases = [
            ##"<label background="#102030">\##(arabic)</label>"##,
            ##"<stack background="#102030"><label>Top</label><label>\##(arabic)</label></stack>"##,
            ##"<row><stack background="#102030"><label>\##(arabic)</label></stack><label>Beside</label></row>"##,
            ##"<row background="#102030"><label>Beside</label><label>\##(arabic)</label></row>"##,
            ##"<list background="#102030"><item>One</item><item>\##(arabic)</item></list>"##,
            ##"<stack><list background="#102030"><item>\##(arabic)</item></list></stack>"##,
            ##"<stack background="#102030"><stack background="#102030"><label>\##(arabic)</label></stack><spacer height="1"/></stack>"##,
        ]
        for markup in cases {
            let result = try #require(layoutMarkup(
                ##"<document lang="ar" width="300" margin="0" color="#FFFFFF">\##(markup)<label>بعد</label></document>"##))
            let page = try #require(result.pages.first)
            let backgrounds = page.items.compactMap { if case .rectangle(let r) = $0, r.fill == dark { r } else { nil } }
            #expect(!backgrounds.isEmpty, "\(markup)")
            let last = try #require(result.report.pages[0].blocks.last)
            var checked = 0
            // Every glyph on a background: all but the last label's, which stands after it.
            for case .glyphs(let run) in page.items {
                for glyph in run.glyphs where glyph.y < last.frame.y {
                    guard let ink = Shaper.shared.glyphExtents(face: run.font, size: run.size, glyph: glyph.id), ink.height != 0
                    else { continue }
                    let (inkTop, inkBottom) = (glyph.y - ink.yBearing, glyph.y - ink.yBearing - ink.height)
                    let behind = backgrounds.filter { $0.x <= glyph.x && glyph.x <= $0.x + $0.width && $0.y <= glyph.y }
                    guard !behind.isEmpty else { continue }  // "Beside" a stack with a background
                    #expect(behind.contains { $0.y <= inkTop + 1e-9 && inkBottom <= $0.y + $0.height + 1e-9 },
                            "\(markup): \(inkTop)–\(inkBottom) \(behind)")
                    checked += 1
                }
            }
            #expect(checked >= 9, "\(markup)")
            // The label after it begins below the ink.
            let lowest = backgrounds.map { $0.y + $0.height }.max() ?? 0
            #expect(last.frame.y >= lowest + 8 - 1e-9, "\(markup)")
        }
        // A paragraph split between pages: the ink under the last line of each part too.
        let long = String(repeating: "لِلَّٰهِ في جيبك يجيء كل شيء ", count: 30)
        let split = try #require(layoutMarkup(
            ##"<document lang="ar" width="200" height="200" margin="16"><p background="#102030">\##(long)</p></document>"##))
        #expect(split.pages.count >= 3)
        var glyphsChecked = 0
        for page in split.pages {
            let backgrounds = page.items.compactMap { if case .rectangle(let r) = $0, r.fill == dark { r } else { nil } }
            #expect(backgrounds.count == 1)
            let lowest = backgrounds.map { $0.y + $0.height }.max() ?? 0
            let highest = backgrounds.map(\.y).min() ?? 0
            for case .glyphs(let run) in page.items {
                for glyph in run.glyphs {
                    guard let ink = Shaper.shared.glyphExtents(face: run.font, size: run.size, glyph: glyph.id), ink.height != 0
                    else { continue }
                    #expect(glyph.y - ink.yBearing - ink.height <= lowest + 1e-9)
                    #expect(glyph.y - ink.yBearing >= highest - 1e-9)
                    glyphsChecked += 1
                }
            }
        }
        #expect(glyphsChecked > 300)
        // A badge on a page as tall as its line: the room a page does not hold is given up, the
        // room over the text first (it was pushed off the page, with a warning).
        let badge = try #require(layoutMarkup(
            ##"<document lang="ar" width="120" height="24" margin="0"><label background="#102030">لِلَّٰهِ يجي</label></document>"##))
        #expect(badge.diagnostics.items.isEmpty && badge.pages.count == 1, "\(badge.diagnostics.items)")
        let badgeShape = try #require(badge.pages.first?.items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }.first)
        #expect(badgeShape.y == 0 && badgeShape.height > 22.1 && badgeShape.height <= 24 + 1e-9)
        #expect(badge.report.pages[0].blocks.first?.frame.y == 0)
        // A list item's marker stays on its first line's baseline, moved down with it.
        let list = try #require(layoutMarkup(
            ##"<document lang="ar" width="300"><list type="number"><item background="#102030">لِلَّٰهِ يجي</item></list></document>"##))
        var baselines: [String: [Double]] = [:]
        for case .glyphs(let run) in try #require(list.pages.first).items {
            baselines[run.text, default: []] += run.glyphs.map(\.y)
        }
        let markerBaseline = try #require(baselines.first { $0.key.contains("1") }?.value.first)
        let textBaselines = baselines.filter { !$0.key.contains("1") }.flatMap(\.value)
        #expect(textBaselines.filter { abs($0 - markerBaseline) < 1e-9 }.count >= 3, "\(baselines)")
        #expect(markerBaseline > 22.1 * 0.8 + 16 + 2)
        // Latin text on a background keeps its line box, and so does what follows it.
        let latin = try #require(layoutMarkup(
            ##"<document width="300" margin="0"><label background="#102030">Hello gjpqy</label><label>After</label></document>"##))
        let shape = try #require(latin.pages.first?.items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }.first)
        #expect(abs(shape.height - 22.1) < 1e-9)
        #expect(latin.report.pages[0].blocks.map(\.frame.y) == [0, 30.1])
    }

    /// What follows a row split between pages comes after the row's end, a card's bottom
    /// padding in a column too: it was set where the card's text ended, on its background.
    @Test func whatFollowsASplitRowComesAfterItsPadding() throws {
        let text = String(repeating: "This card is one column of a row, and its text goes on past the foot of the page. ", count: 4)
        let result = try #require(layoutMarkup(
            ##"<document width="390" height="300"><row><stack background="#E5F0FF"><p>\##(text)</p><spacer height="24"/></stack>"##
                + #"<label>Side</label></row><p>Text after the row.</p></document>"#))
        let last = try #require(result.pages.last)
        let card = try #require(last.items.compactMap { if case .rectangle(let r) = $0, r.fill == Color(hex: "#E5F0FF") { r } else { nil } }.first)
        let after = try #require(result.report.pages.last?.blocks.last)
        #expect(after.lines.first?.runs.first?.text == "Text after the row.")
        #expect(after.frame.y >= card.y + card.height - 1e-9, "\(after.frame) \(card)")
    }

    /// A stack's background covers the spacers before its first blocks, its padding: a card's
    /// top spacer was left bare in the flow (its background began at its first label), though
    /// not in a row. A nested card's padding takes its own color. Where those spacers stayed
    /// on the page before, or were left out at a page's top, the part on the page its blocks
    /// stand on begins at the content area, not in the margin above it.
    @Test func aBackgroundCoversTheSpacersBeforeItsBlocks() throws {
        let (gray, blue) = (Color(hex: "#DDDDDD"), Color(hex: "#2255AA"))
        func backgrounds(_ page: Page, _ color: Color?) -> [RectangleItem] {
            page.items.compactMap { if case .rectangle(let r) = $0, r.fill == color { r } else { nil } }
        }
        for card in [
            ##"<stack background="#DDDDDD"><spacer height="20"/><label>Card</label><spacer height="20"/></stack>"##,
            ##"<stack background="#DDDDDD"><stack><spacer height="20"/><label>Card</label></stack><spacer height="20"/></stack>"##,
        ] {
            let result = try #require(layoutMarkup(#"<document width="200" margin="10">\#(card)<label>After</label></document>"#))
            let page = try #require(result.pages.first)
            #expect(backgrounds(page, gray).map(\.y) == [10], "\(card): \(backgrounds(page, gray))")
            #expect(result.report.pages[0].blocks[0].frame.y > 10 + 20, "the label stays below its padding")
        }
        // Nested: the outer card's padding in its color, the inner card's in its own, drawn
        // over it.
        let nested = try #require(layoutMarkup(
            ##"<document width="200" margin="10"><stack background="#DDDDDD"><spacer height="20"/>"##
                + ##"<stack background="#2255AA"><spacer height="10"/><label>Card</label></stack></stack></document>"##))
        let page = try #require(nested.pages.first)
        let (outer, inner) = (backgrounds(page, gray), backgrounds(page, blue))
        #expect(outer.map(\.y) == [10] && inner.count == 1, "\(outer) \(inner)")
        if let o = outer.first, let i = inner.first {
            #expect(i.y > 10 + 20 && i.y < nested.report.pages[0].blocks[0].frame.y - 10 + 0.001, "\(i)")
            let order = page.items.compactMap { if case .rectangle(let r) = $0 { r.fill } else { nil } }
            #expect(order.firstIndex(of: o.fill!)! < order.firstIndex(of: i.fill!)!, "the outer card is drawn first")
        }
        // A card after a long paragraph on a page of fixed height, the break before it, inside
        // it or after it: on the page its first label stands on, the card begins with its
        // padding (20 pt and the 8 pt gap), at the next page's top too (the spacer was left on
        // the page before, or left out, and the card began at its label), never in the margin.
        for repeats in 6...16 {
            let long = String(repeating: "فقرة طويلة ", count: repeats)
            let markup = ##"<document width="200" height="160" margin="10" lang="ar"><p>\##(long)</p><stack background="#DDDDDD">"##
                + #"<spacer height="20"/><label>بطاقة</label><label>سطر</label><spacer height="20"/></stack></document>"#
            let result = try #require(layoutMarkup(markup))
            for (n, page) in result.pages.enumerated() {
                let shown = backgrounds(page, gray)
                for rectangle in shown {
                    #expect(rectangle.y >= 10 - 1e-9 && rectangle.y + rectangle.height <= 150 + 1e-9, "\(repeats), page \(n + 1): \(rectangle)")
                }
                if let label = result.report.pages[n].blocks.first(where: { $0.kind == "label" }), label.lines.first?.runs.first?.text == "بطاقة" {
                    #expect(shown.first.map { abs($0.y - (label.frame.y - 28)) < 1e-9 } == true, "\(repeats), page \(n + 1): \(shown) \(label.frame)")
                }
            }
        }
        // A translucent card that goes on at a page's top with its padding, in a blue card: the
        // blue is behind the padding too (it began at the card's label, the padding over white).
        let paged = try #require(layoutMarkup(
            ##"<document height="200" width="260" margin="16"><stack background="#2255AA"><label>One</label><label>Two</label>"##
                + ##"<label>Three</label><spacer height="60"/><stack background="#FF000080"><spacer height="30"/><label>Inner</label>"##
                + ##"</stack><label>Last</label></stack></document>"##))
        let second = try #require(paged.pages.dropFirst().first)
        #expect(backgrounds(second, blue).first?.y == 16, "\(backgrounds(second, blue))")
        #expect(backgrounds(second, Color(hex: "#FF000080")).first?.y == 16)
        // A card in a stack of the same color as the stack around it: the card's color over its
        // last label (the inner stack's part there was drawn anew after the card's, and hid it).
        let inside = try #require(layoutMarkup(
            ##"<document width="260" margin="16"><stack background="#2255AA"><stack background="#2255AA"><label>Short</label>"##
                + ##"<stack background="#FF0000"><label>H</label><label>P</label></stack></stack><label>X</label></stack></document>"##))
        let red = Color(hex: "#FF0000")
        for label in inside.report.pages[0].blocks where ["H", "P"].contains(label.lines.first?.runs.first?.text) {
            let (x, y) = (label.frame.x + 1, label.frame.y + label.frame.height / 2)
            let topmost = inside.pages[0].items.last {
                if case .rectangle(let r) = $0 { r.x <= x && x <= r.x + r.width && r.y <= y && y <= r.y + r.height } else { false }
            }
            if case .rectangle(let r)? = topmost { #expect(r.fill == red, "\(label.frame): \(r)") } else { Issue.record("no background") }
        }
        // A first block that goes on to the next page (a paragraph, a list, a row): its part on
        // its first page covers the padding too (it began at the block).
        for first in [
            "<p>One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen.</p>",
            "<list><item>One two three four five six</item><item>seven eight nine ten eleven twelve</item><item>thirteen fourteen</item></list>",
            "<row><p>One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.</p><label>x</label></row>",
        ] {
            let result = try #require(layoutMarkup(
                ##"<document width="220" height="120" margin="10"><stack background="#DDDDDD"><spacer height="20"/>"## + first + "</stack></document>"))
            #expect(result.pages.count >= 2)
            #expect(result.pages.first.map { backgrounds($0, gray).map(\.y) } == [10], "\(first): \(result.pages.first.map { backgrounds($0, gray) } ?? [])")
            #expect(result.pages.dropFirst().allSatisfy { backgrounds($0, gray).allSatisfy { $0.y >= 10 - 1e-9 } })
        }
    }

    /// A stack or row with a background and only spacers in it is a band of its color (a
    /// placeholder, a bar): it drew nothing, and a page break left it out as a spacer.
    @Test func aBackgroundAroundSpacersAloneIsABand() throws {
        let (blue, green, red) = (Color(hex: "#3366CC"), Color(hex: "#33CC33"), Color(hex: "#CC3333"))
        func band(_ page: Page, _ color: Color?) -> RectangleItem? {
            page.items.lazy.compactMap { if case .rectangle(let r) = $0, r.fill == color { r } else { nil } }.first
        }
        let result = try #require(layoutMarkup(
            ##"<document width="200" margin="10"><label>Before</label><stack background="#3366CC"><spacer height="40"/></stack>"##
                + ##"<row><stack background="#33CC33"><spacer height="30"/></stack><label>Beside</label></row>"##
                + ##"<row background="#CC3333"><spacer height="12"/></row><label>After</label></document>"##))
        let page = try #require(result.pages.first)
        let blocks = result.report.pages[0].blocks
        #expect(blocks.map(\.kind) == ["label", "stack", "stack", "label", "row", "label"], "\(blocks.map(\.kind))")
        let (stack, column, row) = (try #require(band(page, blue)), try #require(band(page, green)), try #require(band(page, red)))
        #expect(abs(stack.height - 40) < 1e-9 && stack.width == 180 && stack.y > blocks[0].frame.y + blocks[0].frame.height, "\(stack)")
        #expect(abs(column.height - 30) < 1e-9 && column.width < 90 && abs(column.y - blocks[3].frame.y) < 1e-9, "\(column)")
        #expect(abs(row.height - 12) < 1e-9 && row.y > column.y + column.height && row.y < blocks[5].frame.y, "\(row)")
        // At a page break: the band goes to the next page whole, which the spacer alone did not.
        let paged = try #require(layoutMarkup(
            ##"<document width="200" height="100" margin="10"><label>One</label><label>Two</label>"##
                + ##"<stack background="#3366CC"><spacer height="40"/></stack></document>"##))
        #expect(paged.pages.count == 2 && paged.pages.last.flatMap { band($0, blue) }.map { $0.y == 10 && abs($0.height - 40) < 1e-9 } == true)
        // A band above a label in a row shares no baseline: the label beside a larger one
        // still does (it stood 11 pt higher). Nor does it take the room for ink that a card of
        // Arabic beside it makes (a 20 pt bar came out 24.8 pt tall).
        let shared = try #require(layoutMarkup(
            ##"<document width="320" margin="10"><row><label size="28">Wi-Fi</label><row><stack background="#3366CC">"##
                + ##"<spacer height="12"/></stack><label>On</label></row></row></document>"##))
        let baselines = shared.report.pages[0].blocks.compactMap { $0.lines.first?.baseline }
        #expect(baselines.count == 2 && abs(baselines[0] - baselines[1]) < 1e-9, "\(baselines)")
        let beside = try #require(layoutMarkup(
            ##"<document width="320" margin="10"><row><stack background="#3366CC"><spacer height="20"/></stack>"##
                + ##"<stack background="#222222"><label color="#FFFFFF" lang="ar">يجيء عالمي</label></stack></row></document>"##))
        #expect(beside.pages.first.flatMap { band($0, blue) }.map { abs($0.height - 20) < 1e-9 } == true)
        // Nor does a card of bands alone.
        let bands = try #require(layoutMarkup(
            ##"<document width="320" margin="10"><row><stack background="#DDDDDD"><stack background="#3366CC"><spacer height="20"/>"##
                + ##"</stack></stack><stack background="#222222"><label color="#FFFFFF" lang="ar">لِلَّٰهِ يجيء</label></stack></row></document>"##))
        #expect(bands.pages.first.flatMap { band($0, Color(hex: "#DDDDDD")) }.map { abs($0.height - 20) < 1e-9 } == true)
    }

    /// A button holds the ink of its text 2 pt inside its edges: at AX3 the lower dot of
    /// Pashto's final "ې" fell 6 pt under it (white on the page's white: another letter). At
    /// body size its padding holds it, and the button is the 44 pt it was.
    @Test func aButtonHoldsTheInkOfItsText() throws {
        for (size, text, grows) in [(40.0, "ښځې", true), (40.0, "سېلې", true), (17.0, "ښځې", false), (40.0, "Save", false)] {
            let result = try #require(layoutMarkup(
                ##"<document lang="ps" width="390" margin="0"><button>\##(text)</button></document>"##,
                options: LayoutOptions(bodySize: size)))
            let page = try #require(result.pages.first)
            let button = try #require(page.items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }.first)
            let padded = max(44, result.report.pages[0].blocks[0].frame.height + 16)
            #expect((button.height > padded + 1e-9) == grows, "\(text) at \(size): \(button.height) against \(padded)")
            var checked = 0
            for case .glyphs(let run) in page.items {
                for glyph in run.glyphs {
                    guard let ink = Shaper.shared.glyphExtents(face: run.font, size: run.size, glyph: glyph.id), ink.height != 0 else { continue }
                    #expect(glyph.y - ink.yBearing >= button.y + 2 - 1e-9, "\(text) at \(size)")
                    #expect(glyph.y - ink.yBearing - ink.height <= button.y + button.height - 2 + 1e-9, "\(text) at \(size)")
                    checked += 1
                }
            }
            #expect(checked >= 3)
        }
        // It grows at both edges: its text stays on the baseline of the buttons beside it.
        let row = try #require(layoutMarkup(
            ##"<document lang="ps" width="390" margin="0"><row><button>ښځې</button><button>Save</button></row></document>"##,
            options: LayoutOptions(bodySize: 40)))
        let baselines = row.report.pages[0].blocks.map { $0.lines[0].baseline }
        #expect(baselines.count == 2 && abs(baselines[0] - baselines[1]) < 1e-9, "\(baselines)")
        // On a page of fixed height with room for part of it, at both edges alike.
        let fixed = try #require(layoutMarkup(
            ##"<document lang="ps" margin="8" font-size="40" height="94"><row><button>ښځې</button><button>Save</button></row></document>"##))
        let fixedBaselines = fixed.report.pages[0].blocks.map { $0.lines[0].baseline }
        #expect(fixedBaselines.count == 2 && abs(fixedBaselines[0] - fixedBaselines[1]) < 1e-9, "\(fixedBaselines)")
        // It takes all the room the page has (94 - 2 × 8 pt), less than a page that grows
        // gives it (it took only part of it, and the second dot fell out).
        let growing = try #require(layoutMarkup(
            ##"<document lang="ps" margin="8" font-size="40"><row><button>ښځې</button><button>Save</button></row></document>"##))
        func buttonHeight(_ result: LayoutResult) -> Double? {
            result.pages.first?.items.compactMap { if case .rectangle(let r) = $0 { r.height } else { nil } }.first
        }
        let (fixedHeight, growingHeight) = (try #require(buttonHeight(fixed)), try #require(buttonHeight(growing)))
        #expect(abs(fixedHeight - 78) < 1e-9 && growingHeight > fixedHeight, "\(fixedHeight) \(growingHeight)")
        // On a page too short for it, it does not grow past the page (it was cut off).
        let short = try #require(layoutMarkup(
            ##"<document lang="ps" margin="8" height="76"><button>ښځې</button></document>"##, options: LayoutOptions(bodySize: 40)))
        let shape = try #require(short.pages.first?.items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }.first)
        #expect(abs(shape.height - max(44, short.report.pages[0].blocks[0].frame.height + 16)) < 1e-9, "\(shape)")
        #expect(!short.diagnostics.items.contains { $0.message.contains("cut off") }, "\(short.diagnostics.items)")
    }

    /// A row's child moved down to the row's first baseline takes all of itself along: a stack
    /// ending with a spacer kept only its blocks' foot (the spacer shrank by the move).
    @Test func aRowEndsWhereItsMovedChildrenEnd() throws {
        let result = try #require(layoutMarkup(
            ##"<document width="300" margin="0"><row><label size="30">Big</label><stack><label>Small</label><spacer height="20"/></stack></row><label>After</label></document>"##))
        let blocks = result.report.pages[0].blocks
        let small = try #require(blocks.first { $0.lines.first?.runs.first?.text == "Small" })
        let after = try #require(blocks.last)
        #expect(small.frame.y > 5, "moved down to the shared baseline: \(small.frame.y)")
        #expect(abs(after.frame.y - (small.frame.y + small.frame.height + 8 + 20 + 8)) < 1e-9, "\(small.frame) \(after.frame)")
    }

    /// Backgrounds side by side in a row whose text ends on one line end together, the room one
    /// makes for the ink under its Arabic letters taken by the others too (a row of cards, or of
    /// dark labels, came out ragged by 2.7 pt); one that ends higher, a line shorter, stays so.
    @Test func backgroundsSideBySideEndTogether() throws {
        func bottoms(_ row: String) throws -> [Double] {
            let result = try #require(layoutMarkup(##"<document lang="ar" width="300" margin="0">\##(row)</document>"##))
            let shapes = try #require(result.pages.first).items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }
            return shapes.map { $0.y + $0.height }
        }
        let cards = try bottoms(
            ##"<row><stack background="#FF375F"><label>في جيب</label></stack><stack background="#FF375F"><label>Pocket</label></stack></row>"##)
        #expect(cards.count == 2 && abs(cards[0] - cards[1]) < 1e-9 && cards[0] > 22.1 + 2, "\(cards)")
        let labels = try bottoms(
            ##"<row><label background="#000000">Pocket</label><label background="#000000">في جيب</label><label background="#000000">Inbox</label></row>"##)
        #expect(labels.count == 3 && Set(labels).count == 1 && labels[0] > 22.1 + 2, "\(labels)")
        // The room over one card's vocalized text moves the others' text down to its baseline:
        // their backgrounds still begin at the row's top, and all end together.
        let vocalized = try #require(layoutMarkup(
            ##"<document lang="ar" width="300" margin="0"><row><label background="#000000">لِلَّٰهِ</label><label background="#000000">Settings</label><stack background="#000000"><label>الخليج</label></stack></row></document>"##))
        let cardShapes = try #require(vocalized.pages.first).items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }
        #expect(cardShapes.count == 3 && cardShapes.allSatisfy { $0.y == 0 }, "\(cardShapes)")
        #expect(Set(cardShapes.map { $0.y + $0.height }).count == 1 && cardShapes[0].height > 22.1 + 4, "\(cardShapes)")
        // One beside a stack that begins with a rule (not moved to the shared baseline), its
        // text ending where the other's did without the room.
        let beside = try bottoms(
            ##"<row><stack background="#000000"><label>لِلَّٰهِ</label><label>x</label></stack><stack background="#000000"><divider/><spacer height="13.1"/><label>x</label></stack></row>"##)
        #expect(beside.count == 2 && abs(beside[0] - beside[1]) < 1e-9, "\(beside)")
        // A row balanced by 4.3 (the Arabic 2 pt larger) whose cards ended 0.5 pt apart: within
        // the room for the dots, they end together.
        let balanced = try bottoms(
            ##"<row><label background="#000000">DOWNLOAD</label><label background="#000000">تنزيل الخليج</label></row>"##)
        #expect(balanced.count == 2 && abs(balanced[0] - balanced[1]) < 1e-9, "\(balanced)")
        let ragged = try bottoms(
            ##"<row><label background="#000000">في جيب</label><label background="#000000">Two lines of Latin here</label></row>"##)
        #expect(ragged.count == 2 && ragged[0] > 22.1 + 2 && abs(ragged[1] - 44.2) < 1e-9, "\(ragged)")
    }

    /// Nested containers' backgrounds: an opaque one of the same color on the same area as the
    /// one it is inside hides it, which is left out (250 nested stacks gave each of 80,000
    /// paragraphs 250 rectangles: 2.6 GB); translucent ones, of other colors (the outer one's
    /// part beside the inner one would meet it edge to edge, the page showing between), or on
    /// other areas, are each drawn.
    @Test func aHiddenBackgroundIsLeftOut() throws {
        func rectangles(_ markup: String) throws -> [RectangleItem] {
            let result = try #require(layoutMarkup(markup))
            return result.pages.flatMap(\.items).compactMap { if case .rectangle(let r) = $0 { r } else { nil } }
        }
        func nested(_ colors: [String]) -> String {
            colors.map { #"<stack background="\#($0)">"# }.joined() + "<p>One</p><p>Two</p>"
                + String(repeating: "</stack>", count: colors.count)
        }
        let same = try rectangles(#"<document width="300" margin="10">"# + nested(Array(repeating: "#EEEEEE", count: 200)) + "</document>")
        #expect(same.count == 1 && same.first?.fill == Color(hex: "#EEEEEE"), "\(same)")
        let mixed = try rectangles(#"<document width="300" margin="10">"# + nested(["#EEEEEE", "#EEEEEE", "#FF0000"]) + "</document>")
        #expect(mixed.map(\.fill) == [Color(hex: "#EEEEEE"), Color(hex: "#FF0000")], "\(mixed)")
        let translucent = try rectangles(#"<document width="300" margin="10">"# + nested(["#FF000080", "#FF000080"]) + "</document>")
        #expect(translucent.map(\.fill) == [Color(hex: "#FF000080"), Color(hex: "#FF000080")], "\(translucent)")
        // A paragraph before the inner stack: the outer one's parts merge into one rectangle.
        let around = try rectangles(
            ##"<document width="300" margin="10"><stack background="#EEEEEE"><p>Top</p><stack background="#EEEEEE"><p>In</p></stack></stack></document>"##)
        #expect(around.count == 1, "\(around)")
        // A nested list is indented: the outer list's shows beside it.
        let list = try rectangles(
            ##"<document width="300" margin="10"><list background="#EEEEEE"><list background="#FF0000"><item>x</item></list></list></document>"##)
        #expect(list.count == 2, "\(list)")
    }

    /// `background` on a stack, a row or a list (SPEC §2: a common block attribute) is drawn
    /// behind its children, across its width from its top to its bottom, before them (it was
    /// warned about and left out): a stack's children stand on one area, gaps included, and
    /// each page has its part.
    @Test func listsRowsAndStacksDrawTheirBackgrounds() throws {
        let markup = ##"""
            <document width="300" height="300" margin="10"><stack background="#FFFFFF"><p>One</p><p>Two</p></stack>
            <row background="#00FF00"><label>a</label><button>OK</button></row>
            <list background="#0000FF"><item>x</item><item>y</item><list background="#FF00FF"><item>z</item></list></list>
            <stack background="#FF0000"><p>\##(words(60))</p><p>after</p></stack></document>
            """##
        let result = try #require(layoutMarkup(markup))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        func rectangles(_ page: Page, _ hex: String) -> [RectangleItem] {
            page.items.compactMap { if case .rectangle(let r) = $0, r.fill == Color(hex: hex) { r } else { nil } }
        }
        let first = try #require(result.pages.first)
        // One area, one rectangle on a page (drawn in parts edge to edge, the page showed
        // through their antialiased edges): from the container's top to its end.
        let report = try #require(result.report.pages.first)
        for hex in ["#FFFFFF", "#00FF00", "#0000FF"] {
            let found = rectangles(first, hex)
            #expect(found.count == 1 && found.allSatisfy { $0.x == 10 && $0.width == 280 }, "\(hex): \(found)")
        }
        let two = report.blocks.filter { $0.kind == "p" }.prefix(2).map(\.frame)
        let white = rectangles(first, "#FFFFFF").first
        #expect(white.map { abs($0.y + $0.height - two[1].y - two[1].height) < 0.001 } == true, "\(String(describing: white)) \(two)")
        #expect(rectangles(first, "#FFFFFF").first?.y == 10)
        // A nested list's own, behind its items, indented as they are.
        let nested = rectangles(first, "#FF00FF")
        #expect(nested.count == 1 && (nested.first?.x ?? 0) > 10, "\(nested)")
        // Drawn before the text it is behind.
        let firstRectangle = first.items.firstIndex { if case .rectangle = $0 { true } else { false } }
        let firstText = first.items.firstIndex { if case .glyphs = $0 { true } else { false } }
        #expect(try #require(firstRectangle) < #require(firstText))
        // A list item's own background is behind its marker too.
        let item = try #require(layoutMarkup(##"<document width="300" margin="10"><list><item background="#CDE8FF">x</item></list></document>"##))
        let itemBackground = rectangles(try #require(item.pages.first), "#CDE8FF")
        #expect(itemBackground.count == 1 && itemBackground.first?.x == 10 && itemBackground.first?.width == 280, "\(itemBackground)")
        // A stack's paragraph split between pages: its part on each page.
        #expect(result.pages.count >= 2 && result.pages.dropFirst().allSatisfy { !rectangles($0, "#FF0000").isEmpty })
    }

    /// Backgrounds of nested stacks are drawn outermost first, one rectangle a page each (the
    /// parts behind each paragraph merged where they meet), on every page. (They are kept
    /// innermost first, each appended as its container ends: inserted at the front, and the
    /// merging looking through every rectangle drawn on the page, 200 nested stacks took a
    /// minute for a megabyte of text.)
    @Test func nestedBackgroundsAreDrawnOutermostFirstAndMerged() throws {
        let colors = ["#FF0000", "#00FF00", "#0000FF"]
        let paragraphs = (0..<12).map { "<p>Paragraph \($0) \(words(12))</p>" }.joined()
        let markup = #"<document width="300" height="300" margin="10">"# + colors.map { #"<stack background="\#($0)">"# }.joined()
            + paragraphs + String(repeating: "</stack>", count: colors.count) + "</document>"
        let result = try #require(layoutMarkup(markup))
        #expect(result.pages.count >= 3, "\(result.pages.count)")
        for (index, page) in result.pages.enumerated() {
            let drawn = page.items.compactMap { if case .rectangle(let r) = $0 { r } else { nil } }
            #expect(drawn.compactMap(\.fill) == colors.compactMap { Color(hex: $0) }, "page \(index + 1): \(drawn)")
            #expect(drawn.allSatisfy { $0.x == 10 && $0.width == 280 && $0.y == 10 }, "page \(index + 1): \(drawn)")
        }
    }

    /// A row taller than a page keeps its background on every page its columns go on to (it was
    /// drawn with its first column's first block, on the first page only): from the content
    /// area's top to its end, and on the last page to where its lowest column ends. A stack's
    /// goes to the content area's end on a page its paragraph goes on from, as CSS fragments a box.
    @Test func backgroundOfARowTallerThanAPageGoesOnWithItsColumns() throws {
        let markup = ##"""
            <document width="300" height="300" margin="10"><p>Before</p>
            <row background="#00FF00"><label>Short</label><p>\##(words(150))</p></row><p>After</p>
            <stack background="#FF0000"><p>\##(words(100))</p></stack></document>
            """##
        let result = try #require(layoutMarkup(markup))
        func rectangles(_ page: Page, _ hex: String) -> [RectangleItem] {
            page.items.compactMap { if case .rectangle(let r) = $0, r.fill == Color(hex: hex) { r } else { nil } }
        }
        let green = result.pages.map { rectangles($0, "#00FF00") }
        let rowPages = green.indices.filter { !green[$0].isEmpty }
        #expect(rowPages.count >= 3 && rowPages == Array(0..<rowPages.count), "\(green)")
        for k in rowPages {
            let found = green[k]
            #expect(found.count == 1 && found[0].x == 10 && found[0].width == 280, "\(found)")
            if k > 0 { #expect(found.first?.y == 10) }
            if k < rowPages.count - 1 { #expect(found.first.map { $0.y + $0.height } == 290) }
        }
        // On the last page, to the row's last line, above "After".
        let last = try #require(rowPages.last)
        let lines = result.report.pages[last].blocks.filter { $0.kind == "p" }.map(\.frame)
        let bottom = try #require(green[last].first.map { $0.y + $0.height })
        #expect(abs(bottom - lines[0].y - lines[0].height) < 0.001, "\(bottom) \(lines)")
        #expect(lines.count >= 2 && bottom < lines[1].y)
        // A row whose first page takes none of it (a spacer fills the page) has its background
        // within the content area of its pages (it began in the top margin).
        let late = try #require(layoutMarkup(
            ##"<document width="300" height="300" margin="20"><spacer height="252"/><row background="#00FF00"><p>\##(words(150))</p><title>Big</title></row></document>"##))
        let lateGreen = late.pages.flatMap { rectangles($0, "#00FF00") }
        #expect(!lateGreen.isEmpty && lateGreen.allSatisfy { $0.y >= 20 - 0.001 && $0.y + $0.height <= 280 + 0.001 }, "\(lateGreen)")
        let red = result.pages.map { rectangles($0, "#FF0000") }
        let stackPages = red.indices.filter { !red[$0].isEmpty }
        #expect(stackPages.count >= 2)
        for k in stackPages.dropLast() { #expect(red[k].first.map { $0.y + $0.height } == 290, "\(red[k])") }
    }

    @Test func lineTallerThanAPageIsCutOffWithOneWarning() throws {
        // "Big" at 300 pt is wider than the page: two lines ("B", "ig"), each taller than the page.
        let result = try #require(
            layoutMarkup(
                """
                <document width="300" height="200">
                  <p>Before</p>
                  <p size="300">Big</p>
                  <p>After</p>
                </document>
                """))
        // One warning for the lines, and one for the word broken between its letters.
        let warnings = result.diagnostics.warnings
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0.location.line == 3 })
        #expect(warnings.filter { $0.message.hasPrefix("a line of this <p> is 390 pt tall") && $0.message.hasSuffix("it is cut off at the bottom of the page") }.count == 1)
        #expect(warnings.filter { $0.message.contains("the word 'Big'") }.count == 1)
        #expect(lineTexts(result).joined(separator: "|") == "Before|B|ig|After")
        // A line only a fraction taller than the page says by how much (not "23 pt tall"), and
        // that it is drawn whole, into the bottom margin (it was "cut off", and was not).
        let tight = try #require(layoutMarkup(#"<document height="54.09"><label>x</label></document>"#))
        #expect(tight.diagnostics.warnings.map(\.message) == [
            "a line of this <label> is 22.1 pt tall, more than the 22.09 pt between the page's margins: it runs into the bottom margin"
        ])
    }

    @Test func contentThatFitsGivesNoWarning() throws {
        let result = try #require(
            layoutMarkup(
                #"<document width="300" height="400"><p>\#(words(600))</p><row><label>a</label><button>OK</button></row></document>"#
            ))
        #expect(result.diagnostics.items.isEmpty)
        #expect(result.report.pages.count > 5)
        // Space taller than a page cuts off nothing worth a warning; it is left out, and the
        // text starts the first page (it was left blank).
        let spaced = try #require(
            layoutMarkup(
                #"<document height="100" margin="10"><spacer height="90"/><p>y</p></document>"#))
        #expect(spaced.diagnostics.items.isEmpty)
        #expect(spaced.report.pages.map(\.blocks.count) == [1])
    }

    /// A page less tall than the spacing of doubles at a line's top still takes that line: empty
    /// pages repeated until the page limit's error, for a paragraph of five lines.
    @Test func aPageTooShortForALineStillTakesIt() throws {
        let result = try #require(
            layoutMarkup(#"<document width="5" height="0.000000000000001" margin="0"><p>Hello</p></document>"#))
        #expect(!result.diagnostics.items.contains { $0.severity == .error }, "\(result.diagnostics.items)")
        #expect(result.report.pages.count < 10 && result.report.pages.allSatisfy { !$0.blocks.isEmpty })
    }

    /// Three page ends a review found: a heading before a row taller than a page goes on with
    /// the row's start (it stayed alone at the bottom); a row none of whose columns start on a
    /// page starts the next one whole, its columns sharing their first baseline (each began
    /// at its own first line); and a page of spacers only is no page (a spacer that fit, before
    /// a paragraph that did not, made a blank first page).
    @Test func headingsRowsAndSpacersAtAPageEnd() throws {
        func pages(_ body: String) throws -> [[(kind: String, y: Double, baseline: Double?)]] {
            let result = try #require(layoutMarkup(#"<document width="300" height="200" margin="10">"# + body + "</document>"))
            return result.report.pages.map { $0.blocks.map { ($0.kind, $0.frame.y, $0.lines.first?.baseline) } }
        }
        let six = "<p>" + (1...6).map { "x\($0)" }.joined(separator: "<br/>") + "</p>"
        let tall = "<row><p>" + (1...10).map { "A\($0)" }.joined(separator: "<br/>") + "</p><p>B1<br/>B2</p></row>"
        let heading = try pages(six + "<heading>Heading</heading>" + tall)
        #expect(heading.map { $0.map(\.kind) } == [["p"], ["heading", "p", "p"], ["p"]], "\(heading)")

        let row = try pages(six + "<row><button>Button</button><p>" + (1...9).map { "L\($0)" }.joined(separator: "<br/>") + "</p></row>")
        #expect(row.count == 3 && row[1].count == 2, "\(row)")
        #expect(row[1].map(\.kind) == ["button", "p"] && row[1][0].baseline == row[1][1].baseline, "\(row)")

        // Nor is a column of two lines cut one and one: the row starts on the next page.
        let short = try pages(
            #"<p>Top</p><spacer height="100"/><row><p>R1<br/>R2</p><p>"# + (1...9).map { "A\($0)" }.joined(separator: "<br/>")
                + "</p></row>")
        #expect(short.count == 3 && short[1].count == 2 && short[1][0].baseline == short[1][1].baseline, "\(short)")

        // A button taller than a page in a row inside a row starts beside its neighbours (it
        // waited for the next page, its top a little below the row's, aligned to their
        // baseline), cut off with a warning.
        let nested = try pages(
            "<row><button>x</button><row><button>" + (1...9).map { "b\($0)" }.joined(separator: "<br/>") + "</button><p>"
                + (1...9).map { "L\($0)" }.joined(separator: "<br/>") + "</p></row></row>")
        #expect(nested.first?.map(\.kind) == ["button", "button", "p"], "\(nested)")
        #expect(Set(nested.first?.map(\.baseline) ?? []).count == 1, "\(nested)")

        let spaced = try pages(#"<spacer height="160"/><p>One</p>"#)
        #expect(spaced.count == 1 && spaced[0].map(\.kind) == ["p"] && spaced[0][0].y == 10, "\(spaced)")
        // A spacer before content that fits stays, as before.
        let kept = try pages(#"<spacer height="100"/><p>One</p>"#)
        #expect(kept.count == 1 && kept[0][0].y > 100, "\(kept)")
    }

    /// A spacer that does not fit at a page's end is left out: the next page starts with the
    /// content (it started 60 pt down, and a spacer as tall as a page made a blank page).
    @Test func aSpacerAtAPageBreakIsLeftOut() throws {
        let sevenLines = (0..<7).map { "line\($0)" }.joined(separator: "<br/>")  // 154.7 of 180 pt
        for height in [60, 180, 500] {
            let result = try #require(
                layoutMarkup(
                    #"<document width="300" height="200" margin="10"><p>\#(sevenLines)</p><spacer height="\#(height)"/><p>after</p></document>"#
                ))
            #expect(result.diagnostics.items.isEmpty)
            let pages = result.report.pages
            #expect(pages.count == 2 && pages[1].blocks.first?.frame.y == 10, "\(height): \(pages.map(\.blocks))")
        }
        // One taller than the first page, at its top, is left out there too: the content starts
        // the first page (it was left blank).
        let first = try #require(layoutMarkup(#"<document height="100"><spacer height="69"/><p>x</p></document>"#))
        #expect(first.report.pages.count == 1 && first.report.pages[0].blocks.first?.frame.y == 16, "\(first.report.pages.map(\.blocks))")
    }

    /// A title or a heading goes to the next page with the start of its section, rather than
    /// stand alone at the bottom of a page (it did).
    @Test func headingsGoWithTheirSection() throws {
        /// Each page's blocks, as kind and source line, on pages of 180 pt between the margins.
        func pages(_ body: String) throws -> [[String]] {
            let result = try #require(layoutMarkup(#"<document width="300" height="200" margin="10">"# + body + "</document>"))
            #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
            return result.report.pages.map { $0.blocks.map { "\($0.kind)\($0.line)" } }
        }
        /// A paragraph of `count` lines, each 22.1 pt.
        func lines(_ count: Int) -> String { "<p>" + (0..<count).map { "line\($0)" }.joined(separator: "<br/>") + "</p>" }
        // 132.6 + 8 + 28.6 pt: the heading fits on page 1, the first line of its paragraph not.
        #expect(try pages(lines(6) + "<heading>Next</heading>\n" + lines(3)) == [["p1"], ["heading1", "p2"]])
        // A title and a heading keep together, and with the paragraph.
        #expect(try pages(lines(4) + "<title>T</title><heading>H</heading>\n" + lines(3)) == [["p1"], ["title1", "heading1", "p2"]])
        // Room for two lines of the paragraph: one of five splits, two lines here and three
        // there, the heading staying; one of three goes on whole, the heading with it (cut, it
        // left its first line alone here or its last alone there).
        #expect(try pages(lines(4) + "<heading>Next</heading>\n" + lines(3)) == [["p1"], ["heading1", "p2"]])
        #expect(try pages(lines(4) + "<heading>Next</heading>\n" + lines(5)) == [["p1", "heading1", "p2"], ["p2"]])
        // A paragraph of two lines would leave its last alone: it goes on whole, and the
        // heading with it.
        #expect(try pages(lines(5) + "<heading>Next</heading>\n" + lines(2)) == [["p1"], ["heading1", "p2"]])
        // Nothing to keep: the heading is last, or only a spacer follows it (left out at the
        // page's end: no page of nothing).
        #expect(try pages(lines(6) + "<heading>End</heading>") == [["p1", "heading1"]])
        #expect(try pages(lines(6) + "<heading>H</heading><spacer height=\"80\"/>") == [["p1", "heading1"]])
        // Spacers and dividers between a heading and its section go with both (the heading
        // stayed alone at the bottom, its spacer or divider with it).
        #expect(try pages(lines(6) + "<heading>H</heading><spacer height=\"4\"/>" + lines(2)) == [["p1"], ["heading1", "p1"]])
        #expect(try pages(lines(6) + "<heading>H</heading><divider/>" + lines(2)) == [["p1"], ["heading1", "divider1", "p1"]])
        // A heading of several lines that fits on a page is not cut between them (its first
        // line ended page 1, the rest began page 2).
        let long = "<heading>" + (0..<3).map { "h\($0)" }.joined(separator: "<br/>") + "</heading>"
        #expect(try pages(lines(6) + long + lines(1)) == [["p1"], ["heading1", "p1"]])
        // What follows could not stand beside the heading on any page: the heading stays.
        #expect(try pages(lines(6) + "<heading>H</heading><button size=\"120\">OK</button>") == [["p1", "heading1"], ["button1"]])
        // A row with a heading is a section's header ("New Apps" and "See All"): it goes with
        // its section too (it stayed at the foot, both items on the next page).
        #expect(
            try pages(lines(6) + "<row><heading>New</heading><button>All</button></row>\n<list><item>A</item><item>B</item></list>")
                == [["p1"], ["heading1", "button1", "item2", "item2"]])
        // A heading beside a paragraph is a term and its description, content: such rows do not
        // keep with each other (four went on as a chain, and left half a page empty).
        let terms = (1...4).map { "<row><heading>H\($0)</heading><p>d</p></row>\n" }.joined()
        #expect(try pages(lines(6) + "\n" + terms).first == ["p1", "heading2", "p2"])
        // A heading above a header row whose section cannot stand beside them goes with the row
        // alone (it stayed at the foot, the row and a tall picture on the next page).
        #expect(
            try pages(lines(5) + #"<heading>Apps</heading><row><heading>New</heading><button>All</button></row><button size="90">Big</button>"#)
                == [["p1"], ["heading1", "heading1", "button1"], ["button1"]])
        // A heading above a section's header row goes with it and its start (it stayed alone).
        #expect(
            try pages(lines(5) + "<heading>Apps</heading><row><heading>New</heading><button>All</button></row>\n<list><item>A</item></list>")
                == [["p1"], ["heading1", "heading1", "button1", "item2"]])
        // Headings, each with a spacer after it, more than a page: each keeps the next only,
        // and two stand on each page, as many as fit (they went on a page each, the rest of
        // each page blank, as a page of the others following each one did not fit beside it).
        let chain = try pages((1...12).map { "<heading>S\($0)</heading>\n<spacer height=\"40\"/>\n" }.joined())
        #expect(chain.count == 6 && chain.allSatisfy { $0.count == 2 }, "\(chain)")
        // But a heading that the one before keeps with a chain that fits goes on with its
        // paragraph (it stayed at the foot, as the first heading stayed for it).
        #expect(try pages("<heading>First</heading><spacer height=\"100\"/>\n<heading>Second</heading>\n" + lines(5))
            == [["heading1"], ["heading2", "p3"]])
        // A card with padding of half a page, beginning with a heading: at a page's top, room
        // for the padding only where the heading and its paragraph's start fit below it.
        let card = try pages(
            ##"<label>Top</label><spacer height="40"/><stack background="#DDDDDD"><spacer height="110"/><heading>Card</heading>"##
                + "\n" + lines(3) + "</stack>")
        #expect(card.allSatisfy { $0.last != "heading1" }, "\(card)")
    }

    /// A divider is not the first thing on a page: left out at a page break, as a spacer is (a
    /// page began with a hairline above "Row B", the row it went under on the page before).
    @Test func aDividerAtAPageBreakIsLeftOut() throws {
        let markup = #"<document width="300" height="260" margin="20"><label>Top</label><spacer height="152"/>"#
            + #"<label>Row A</label><divider/><label>Row B</label><divider/><label>Row C</label></document>"#
        let result = try #require(layoutMarkup(markup))
        let pages = result.report.pages.map { $0.blocks.map(\.kind) }
        #expect(pages == [["label", "label"], ["label", "divider", "label"]], "\(pages)")
        // Nor is a page a divider alone: at the first page's top, over a title that goes on to
        // the next page with what it keeps (a band that fits below it only without the
        // divider), it is left out, the title taking the first page.
        let first = try #require(layoutMarkup(
            ##"<document width="300" height="640" margin="16"><divider/><title>Title</title>"##
                + ##"<stack background="#CCCCCC"><spacer height="550"/></stack><p>After</p></document>"##))
        let kinds = first.report.pages.map { $0.blocks.map(\.kind) }
        #expect(kinds == [["title", "stack"], ["p"]], "\(kinds)")
        #expect(first.pages.first?.items.contains { if case .rule = $0 { true } else { false } } == false)
        // In a card with padding, the card begins with its padding, without the divider's room.
        let card = try #require(layoutMarkup(
            ##"<document width="300" height="640" margin="16"><stack background="#EEEEEE"><spacer height="12"/><divider/>"##
                + ##"<title>Title</title><stack background="#CCCCCC"><spacer height="530"/></stack></stack><p>After</p></document>"##))
        let top = card.report.pages.first?.blocks.first
        #expect(top?.kind == "title" && top?.frame.y == 16 + 12 + 8, "\(top?.frame as Any)")
        // Its divider at a page's foot, its heading going on to the next page with its text: the
        // divider is left out there, and the card begins at the next page's top with its
        // padding (its top showed at the foot of one page and again at the next's top).
        let begun = try #require(layoutMarkup(
            ##"<document width="300" height="300" margin="16"><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "##
                + "eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation "
                + "ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse.</p>"
                + ##"<stack background="#DDDDEE"><spacer height="12"/><divider/><heading>Card title</heading>"##
                + ##"<p>Body of the card with some words.</p><spacer height="12"/></stack></document>"##))
        let begunKinds = begun.report.pages.map { $0.blocks.map(\.kind) }
        let heading = begun.report.pages.dropFirst().first?.blocks.first
        #expect(begunKinds.count == 2 && !begunKinds[0].contains("divider") && heading?.kind == "heading", "\(begunKinds)")
        #expect(heading.map { abs($0.frame.y - (16 + 12 + 8)) < 1e-9 } == true, "\(heading?.frame as Any)")
        // Any divider whose next block goes on to the next page is left out at the break.
        let list = try #require(layoutMarkup(
            ##"<document width="300" height="200" margin="16"><label>Row 1</label><divider/><label>Row 2</label><divider/>"##
                + ##"<label>Row 3</label><divider/><label>Row 4</label><divider/><label>Row 5</label><divider/><label>Row 6</label></document>"##))
        let rows = list.report.pages.map { $0.blocks.map(\.kind) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.last == "label" && $0.first == "label" }, "\(rows)")
        // So is one before a row that moves on whole (a settings list's rows: the page ended
        // with the divider), and not one before a heading that stays at the foot anyway.
        let settings = try #require(layoutMarkup(
            ##"<document width="360" height="240"><p>Intro.</p><divider/><row><stack><p>Name 1</p><p>Detail one</p>"##
                + "<p>Detail two</p><p>Detail three</p></stack><label>Value</label></row><divider/><row><stack><p>Name 2</p>"
                + "<p>Detail one</p><p>Detail two</p><p>Detail three</p></stack><label>Value</label></row><divider/><p>End</p></document>"))
        let settingsKinds = settings.report.pages.map { $0.blocks.map(\.kind) }
        #expect(settingsKinds.dropLast().allSatisfy { $0.last != "divider" }, "\(settingsKinds)")
        let gallery = try #require(layoutMarkup(
            ##"<document device="iphone-se"><p>Intro paragraph one, which has a few words in it so that it wraps onto two lines.</p>"##
                + ##"<p>Intro paragraph two.</p><divider/><heading>Gallery</heading><row><stack><stack background="#888888">"##
                + ##"<spacer height="515"/></stack><p>Caption under the picture, quite a long one that wraps a few times over.</p>"##
                + ##"</stack><stack><p>Column two text.</p></stack></row><p>After.</p></document>"##))
        let galleryKinds = gallery.report.pages.map { $0.blocks.map(\.kind) }
        #expect(galleryKinds.first == ["p", "p", "divider", "heading"], "a page of the heading alone: \(galleryKinds)")
    }

    @Test func textWiderThanItsBoxIsAWarningOncePerElement() throws {
        // Ten labels in 80 pt: each is 0.8 pt wide (the 72 pt of gaps between them take the rest;
        // the warning gives the box's width, not the 1 pt its text is laid out in at least).
        let labels = (1...10).map { "<label>Word\($0)</label>" }.joined()
        let row = try #require(layoutMarkup(#"<document width="100" margin="10">"# + "\n<row>\(labels)</row></document>"))
        let warnings = row.diagnostics.warnings
        #expect(warnings.count == 10)
        #expect(warnings.allSatisfy { $0.location.line == 2 })
        #expect(warnings.first?.message.hasPrefix("this <label> is 0.8 pt wide, narrower than a piece of its text") == true)
        // A list nested deeper than the page is wide: the items narrower than their text warn,
        // and the first list with no room left for its items is an error (lists nested 19 deep
        // in a phone's width were placed off the page).
        let nested = String(repeating: "<list><item>x</item>", count: 30) + String(repeating: "</list>", count: 30)
        let deep = try #require(layoutMarkup(#"<document width="200">"# + nested + "</document>"))
        let items = deep.report.pages[0].blocks
        let overflowing = items.filter { block in block.lines.contains { $0.width > block.frame.width + 0.5 } }
        #expect(overflowing.count == 1)
        #expect(items.allSatisfy { block in block.lines.allSatisfy { $0.x >= 0 && $0.x + $0.width <= 200 } })
        #expect(deep.diagnostics.warnings.count == overflowing.count)
        #expect(deep.diagnostics.warnings.allSatisfy { $0.message.hasPrefix("this <item> is ") })
        #expect(Set(deep.diagnostics.warnings.map(\.hint)) == ["make the text shorter, nest its list less deeply, or make the page wider"])
        #expect(deep.diagnostics.errors.map(\.message) == [
            "a 'list' nested 9 deep has 8 pt left, and its markers take 20 pt of it, leaving its items no room"
        ])
        #expect(deep.diagnostics.errors.first?.location.column == 183)
        #expect(deep.diagnostics.errors.first?.hint == "nest its list less deeply, or make the page wider")
        // The same in a right-to-left list, whose markers were drawn over their text.
        let rightToLeft = try #require(layoutMarkup(#"<document width="200" lang="he">"# + nested + "</document>"))
        #expect(rightToLeft.diagnostics.errors.map(\.location.column) == [193])  // 10 more for lang="he"
        #expect(warnings.first?.hint == "make the text shorter, give its row fewer children, or make the page wider")
        // Text that wraps within its box gives none, in a row or a list.
        let fits = try #require(
            layoutMarkup(#"<document width="300"><row><label>a b c</label><label>d</label></row><list><item>\#(words(40))</item></list></document>"#))
        #expect(fits.diagnostics.items.isEmpty)
    }

    /// A word wider than its box is broken between its letters, as UIKit does, and said so once
    /// per element: at a large text size or in a longer translation, that is what the mockup is
    /// for (it was silent). Words that wrap, or break at their soft hyphens, are not.
    @Test func aWordBrokenBetweenItsLettersIsAWarning() throws {
        let result = try #require(
            layoutMarkup(
                """
                <document width="200" lang="ar">
                  <label lang="en" size="40">Notifications Notifications</label>
                  <row><button size="40">موافق</button><button>OK</button></row>
                  <p>Words that wrap at their spaces</p>
                </document>
                """))
        let warnings = result.diagnostics.warnings
        #expect(warnings.map(\.location.line) == [2, 3], "\(warnings.map(\.message))")
        // A line that ends after a soft hyphen broke where the author allowed, though Hebrew's
        // is no UAX #14 opportunity (LB21a); one that ends inside a word did not.
        let shy: [Unicode.Scalar] = ["a", "b", "\u{AD}", "c", "d"]
        let end = [BreakOpportunity(offset: 5, isMandatory: true)]
        #expect(LineFiller.brokenWords([0..<3, 3..<5], scalars: shy, opportunities: end).map(\.word) == [])
        #expect(LineFiller.brokenWords([0..<2, 2..<5], scalars: shy, opportunities: end).map(\.word) == [0..<5])
        // Each line end inside a word, of every word.
        let two: [Unicode.Scalar] = ["a", "b", "c", " ", "d", "e"]
        let ends = [BreakOpportunity(offset: 4, isMandatory: false), BreakOpportunity(offset: 6, isMandatory: true)]
        #expect(LineFiller.brokenWords([0..<1, 1..<2, 2..<4, 4..<5, 5..<6], scalars: two, opportunities: ends).map(\.word) == [0..<3, 0..<3, 4..<6])
        // (Both words are broken: the first is named, the other counted.)
        #expect(warnings.first?.message == "this <label> is 168 pt wide, narrower than the word 'Notifications' (238 pt): it is broken between its letters, and so is 1 other word")
        // A button's text is set inside its padding: both widths are said ("80 pt wide,
        // narrower than the word (70 pt)" would read as a contradiction).
        #expect(warnings.last?.message == "this <button> is 80 pt wide (64 pt inside its padding), narrower than the word 'موافق' (116 pt): it is broken between its letters")
        // The hints name only what narrows the block: a label outside any row has no row.
        #expect(warnings.map(\.hint) == [
            "make the text shorter, or make the page wider",
            "make the text shorter, give its row fewer children, or make the page wider",
        ])
        // The pieces are on lines of their own, and every letter is there.
        let label = result.report.pages[0].blocks[0]
        #expect(label.lines.map { $0.runs.map(\.text).joined() }.joined() == "NotificationsNotifications")
        // A cut before white space puts it at the end of the line before, where it hangs (" . PDF"
        // began a line with a space: UAX #14 keeps the "." with "Settings ", LB13).
        for lang in ["en", "ar"] {
            let spaced = try #require(layoutMarkup(#"<document width="90" margin="10" lang="\#(lang)"><label>Settings . PDF</label></document>"#))
            let lines = spaced.report.pages[0].blocks[0].lines
            #expect(lines.map { $0.runs.map(\.text).joined() } == ["Settings", ". PDF"], "\(lang)")
        }
        // A word that fits without the hyphen of the soft hyphen it ends at, and not with it, is
        // named and measured with it ("168 pt wide, narrower than the word 'microscopic'
        // (168 pt)" read as a contradiction).
        let hyphenated = try #require(
            layoutMarkup(#"<document width="200"><p size="30">ultra&#xAD;microscopic&#xAD;silico</p></document>"#))
        #expect(hyphenated.diagnostics.warnings.map(\.message) == [
            "this <p> is 168 pt wide, narrower than the word 'microscopic-' (178 pt): it is broken between its letters",
        ])
        // Quoted with the ZWNJs of its spelling (Persian's were left out).
        let persian = try #require(
            layoutMarkup(#"<document lang="fa" width="130" margin="8"><label>ناخودآگاه‌ترین‌ها‌یشان</label></document>"#))
        #expect(persian.diagnostics.warnings.first?.message.contains("the word 'ناخودآگاه\u{200C}ترین\u{200C}ها\u{200C}یشان'") == true,
            "\(persian.diagnostics.warnings.map(\.message))")
        // A Persian compound too wide for its line parts after a ZWNJ, where its letters do not
        // join, when that piece fills half the line: a cut two letters on split "ها".
        let compound = try #require(
            layoutMarkup(#"<document width="100" margin="8"><label lang="fa">بارگیری‌های‌جدید‌برنامه‌ها‌و‌بازی‌ها</label></document>"#))
        let parts = compound.report.pages[0].blocks[0].lines.map { $0.runs.map(\.text).joined() }
        // (The report's text is without the ZWNJs, bidi class BN, as X9 removes them.)
        #expect(parts == ["بارگیریهای", "جدیدبرنامه", "هاوبازیها"], "\(parts)")
        // Not where the punctuation after the ZWNJ would begin a line ("Internationa | !").
        // Nor past a mark that shows nothing (an LRM, a ZWNJ and an RLM) before the "!".
        for (lang, word, lines) in [("en", "Internationa&#x200C;!", ["Internation", "a!"]), ("fa", "برنامه‌نویسی‌ها&#x200C;؟", ["برنامهنویسی", "ها؟"]),
                                    ("en", "Internationa&#x200E;!", ["Internation", "a\u{200E}!"]),
                                    ("en", "Internationa&#x200C;&#x200F;!", ["Internation", "a\u{200F}!"])] {
            let cut = try #require(layoutMarkup(#"<document width="150" font-size="20" lang="\#(lang)"><p>\#(word)</p></document>"#))
            #expect(cut.report.pages[0].blocks[0].lines.map { $0.runs.map(\.text).joined() } == lines, "\(lang)")
        }
        // Not where no line can end at the soft hyphen: the paragraph's end, or before a space.
        for xml in [#"<document width="60" margin="4"><p>Donaudampfschiff&#xAD;</p></document>"#,
                    #"<document width="60" margin="4"><p>Donaudampfschiff&#xAD; next</p></document>"#] {
            #expect(try #require(layoutMarkup(xml)).diagnostics.warnings.map(\.message) == [
                "this <p> is 52 pt wide, narrower than the word 'Donaudampfschiff' (149 pt): it is broken between its letters",
            ])
        }
    }

    /// A word broken between its letters is never cut inside a ligature: the lam-alef of "لأن"
    /// and the "ffi" of "office" are one glyph each, which a cut drew whole on one line, leaving
    /// the next empty and its letters out of the PDF's and SVG's text. A ligature wider than
    /// the box overflows, as any cluster does.
    @Test func aWordIsNotBrokenInsideALigature() throws {
        for (word, lines) in [("لأن", ["لأ", "ن"]), ("office", ["o", "ffi", "c", "e"])] {
            let block = try #require(
                layoutMarkup(#"<document width="20" margin="4"><label size="30">\#(word)</label></document>"#)?.report.pages[0].blocks.first)
            #expect(block.lines.map { $0.runs.map(\.text).joined() } == lines)
            let runs = block.lines.flatMap(\.runs)
            #expect(runs.allSatisfy { $0.glyphs > 0 && $0.width > 0 }, "\(runs.map { ($0.text, $0.glyphs) })")
        }
    }

    /// A soft hyphen inside a ligature (HarfBuzz ligates across it) is no break: "Auf&#xAD;lage"
    /// drew "Aufl-" over "age", and the warning named the word 'lage'. No Latin ligature crosses
    /// a soft hyphen now (`Shaper.withLigatureBreaks`): "Auf&#xAD;lage" breaks at its hyphen, as
    /// the author asked (it was cut "Auflag|e", and "Kauf&#xAD;interesse" "Kaufinter|esse");
    /// Arabic's lam-alef still forms across one, and stays whole. A piece of nothing visible
    /// (the LRI that `<ltr>` begins with) is no line of its own: a word cut between its letters
    /// showed an empty line.
    @Test func noBreakInsideALigatureAtASoftHyphenNorAnEmptyPiece() throws {
        func lines(_ xml: String) throws -> (lines: [String], runs: [ReportRun], warnings: [String]) {
            let result = try #require(layoutMarkup(xml))
            let block = try #require(result.report.pages[0].blocks.first)
            return (block.lines.map { $0.runs.map(\.text).joined() }, block.lines.flatMap(\.runs), result.diagnostics.warnings.map(\.message))
        }
        let auflage = try lines(#"<document width="60" margin="4" lang="de"><p>Auf&#xAD;lage</p></document>"#)
        #expect(auflage.lines == ["Auf", "lage"] && auflage.runs.map(\.glyphs) == [4, 4], "\(auflage.runs.map { ($0.text, $0.glyphs) })")
        #expect(auflage.warnings.isEmpty, "\(auflage.warnings)")
        // After the marks and controls UAX #14 keeps with the soft hyphen (LB9).
        let marked = try lines(#"<document width="60" margin="4" lang="de"><p>Auf&#xAD;&#x200E;lage</p></document>"#)
        #expect(marked.lines == ["Auf\u{200E}", "lage"] && marked.runs.allSatisfy { $0.glyphs > 0 }, "\(marked.runs.map { ($0.text, $0.glyphs) })")
        let lamAlef = try lines(#"<document width="40" margin="4" lang="ar" font-size="30"><p>سل&#xAD;ام</p></document>"#)
        #expect(lamAlef.lines.contains("لا") && lamAlef.runs.allSatisfy { $0.glyphs > 0 }, "\(lamAlef.runs.map { ($0.text, $0.glyphs) })")
        let shadda = try lines(#"<document width="28" margin="4" lang="ar"><p size="40">إِلَ&#xAD;ّا</p></document>"#)
        #expect(shadda.runs.allSatisfy { $0.glyphs > 0 }, "\(shadda.runs.map { ($0.text, $0.glyphs) })")
        let aufbau = try lines(#"<document width="60" margin="4" lang="de"><p>Auf&#xAD;bau</p></document>"#)
        #expect(aufbau.lines == ["Auf", "bau"] && aufbau.runs.map(\.glyphs) == [4, 3] && aufbau.warnings.isEmpty)
        let waffle = try lines(#"<document width="115" margin="4"><p>difficultwaf&#xAD;fle</p></document>"#)
        #expect(waffle.lines == ["difficultwaf", "fle"] && waffle.runs.map(\.glyphs) == [11, 2], "\(waffle.runs.map { ($0.text, $0.glyphs) })")
        let isolate = try lines(#"<document width="20" margin="4"><label size="30">ab<b>c</b><ltr>de</ltr></label></document>"#)
        #expect(isolate.lines == ["a", "b", "c", "d", "e"], "\(isolate.lines)")
        // Nor is a soft hyphen after an isolate's end: its hyphen goes with the letter before.
        let result = try #require(layoutMarkup(
            #"<document lang="ur" width="40" margin="2" font-size="14"><row><button>ا</button><button>ا</button><button>ا</button><button>اُ<rtl>ر</rtl>&#xAD;دُو</button></row></document>"#))
        let button = try #require(result.report.pages[0].blocks.last)
        #expect(button.lines.map { $0.runs.map(\.text) } == [["اُ"], ["", "ر"], ["دُ"], ["و"]], "\(button.lines.map { $0.runs.map(\.text) })")
    }

    /// Nor at any other break inside a glyph cluster. UAX #14 breaks between a space and a mark
    /// after it (LB10), which HarfBuzz draws on the space: a line that started at the mark lost
    /// it (10 glyphs of 12). The break moves past the space and its mark, which end the line,
    /// and the words on either side stay apart.
    @Test func noBreakInsideAGlyphCluster() throws {
        // (At 220 pt the last word alone took the one before it: UIKit's push-out.)
        for (width, expected) in [(80, ["xxxxx \u{301}", "yyyyy"]), (220, ["xxxxx \u{301}yyyyy", "xxxxx yyyyy"])] {
            let text = width < 100 ? "xxxxx &#x301;yyyyy" : "xxxxx &#x301;yyyyy xxxxx yyyyy"
            let result = try #require(layoutMarkup(
                #"<document width="\#(width)" margin="4"><label size="20">\#(text)</label></document>"#))
            let lines = try #require(result.report.pages[0].blocks.first).lines
            #expect(lines.map { $0.runs.map(\.text).joined() } == expected)
            #expect(lines.flatMap(\.runs).reduce(0) { $0 + $1.glyphs } == expected.joined().unicodeScalars.count)
            #expect(result.diagnostics.warnings.isEmpty, "\(result.diagnostics.warnings.map(\.message))")
        }
    }
}
