// Tests of comparison sheets (SPEC 5.4): pages drawn inside pages (subpage items), the sheet
// layouter, and `typeset sheet` end to end, its PDFs checked with poppler and qpdf.
import Foundation
import Testing

@testable import Typeset


/// The text of a PDF. `raw`: in drawing order, without poppler guessing a page direction from
/// its characters (which reorders the captions' brackets when most text is right to left), but
/// right-to-left words come out a letter per line; without it, words in any script come whole.
private func pdfText(_ path: String, page: Int? = nil, raw: Bool = true) throws -> String {
    var arguments = raw ? ["-raw", "-enc", "UTF-8"] : ["-enc", "UTF-8"]
    if let page { arguments += ["-f", "\(page)", "-l", "\(page)"] }
    let run = try runProgram("/usr/bin/pdftotext", arguments + [path, "-"])
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout
}

/// pdfimages -list: one line per image after a two-line header.
private func pdfImageCount(_ path: String) throws -> Int {
    let run = try runProgram("/usr/bin/pdfimages", ["-list", path])
    #expect(run.status == 0, "\(run.stderr)")
    return max(0, run.stdout.split(separator: "\n").count - 2)
}

// MARK: - Pages inside pages

@Suite struct SubpageTests {
    @Test func subpageIsScaledTranslatedAndClipped() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let red = Color(red: 1, green: 0, blue: 0)
        let blue = Color(red: 0, green: 0, blue: 1)
        // A 40×40 red page with a blue square that reaches 20 pt beyond its right edge.
        let inner = Page(
            width: 40, height: 40, background: red,
            items: [
                .rectangle(RectangleItem(x: 20, y: 0, width: 40, height: 20, fill: blue)),
                .beginTag(.paragraph), .endTag(.paragraph),
            ])
        let outer = Page(width: 100, height: 60, items: [.subpage(SubpageItem(page: inner, x: 10, y: 5, scale: 0.5))])
        let path = folder + "/sub.png"
        try render(pages: [outer], to: path, options: RenderOptions(format: .png, scale: 1))
        let image = try PixelImage(contentsOf: path)
        let white = PixelImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255)
        #expect(image.pixel(x: 5, y: 5) == white)
        #expect(image.pixel(x: 12, y: 20) == PixelImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 25, y: 8) == PixelImage.Pixel(red: 0, green: 0, blue: 255, alpha: 255))
        // The page ends at x = 10 + 40 × 0.5 = 30: the rest of the square is clipped.
        #expect(image.pixel(x: 32, y: 8) == white)
        #expect(image.pixel(x: 45, y: 8) == white)
        #expect(image.pixel(x: 20, y: 27) == white)
    }

    @Test func subpageMovesWithItsPage() {
        let item = PageItem.subpage(SubpageItem(page: Page(width: 10, height: 10), x: 3, y: 4, scale: 2))
        guard case .subpage(let moved) = item.moved(dy: 10) else {
            Issue.record("not a subpage")
            return
        }
        #expect(moved.x == 3 && moved.y == 14 && moved.scale == 2)
        #expect(moved.width == 20 && moved.height == 20)
    }

    @Test func badSubpageIsAnErrorNotAPartialFile() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outer = Page(
            width: 100, height: 60,
            items: [
                .subpage(SubpageItem(page: Page(width: 10, height: 10), x: 0, y: 0, scale: .nan))
            ])
        #expect(throws: RenderError.self) {
            try render(pages: [outer], to: folder + "/bad.pdf", options: RenderOptions(format: .pdf))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}

// MARK: - The sheet layouter

@Suite struct SheetLayouterTests {
    private func cell(_ file: String, _ width: Double, _ height: Double, column: Int) -> SheetCell {
        SheetCell(
            file: file, locale: "en", textSize: "Large (17 pt)", page: Page(width: width, height: height),
            pageCount: 1)
    }

    @Test func cellsAreScaledToTheCellWidthAndTallPagesToTheCap() throws {
        let layouter = SheetLayouter(typesetter: Typesetter())
        let options = SheetOptions()
        func subpages(_ rows: [[SheetCell]]) -> [SubpageItem] {
            layouter.layout(rows: rows).flatMap(\.items).compactMap { item -> SubpageItem? in
                if case .subpage(let s) = item, s.scale != 1 { return s }
                return nil
            }
        }
        let short = subpages([[cell("a.xml", 390, 844, column: 0)]])
        #expect(short.count == 1 && abs(short[0].width - options.cellWidth) < 1e-9)
        #expect(abs(short[0].x - options.margin) < 1e-9 && abs(short[0].y - options.margin) < 1e-9)
        // A very tall page is scaled to the tallest a cell may be, and centered in its column;
        // the pages of its row with it, at one scale (a page that grows with its text, shrunk
        // more at AX5 than at AX2, showed AX5's text the smaller).
        let row = subpages([[cell("a.xml", 390, 844, column: 0), cell("a.xml", 390, 2000, column: 1)]])
        #expect(row.count == 2)
        #expect(abs(row[1].height - options.cellWidth * options.maximumCellAspect) < 1e-9)
        #expect(row[0].scale == row[1].scale && row[0].width < options.cellWidth, "\(row.map(\.scale))")
        let columnCenter = options.margin + options.cellWidth * 1.5 + options.columnGap
        #expect(abs(row[1].x + row[1].width / 2 - columnCenter) < 1e-9)
        #expect(abs(row[0].x + row[0].width / 2 - options.margin - options.cellWidth / 2) < 1e-9)
        let page = try #require(layouter.layout(rows: [[cell("a.xml", 390, 844, column: 0), cell("a.xml", 390, 2000, column: 1)]]).first)
        #expect(page.width == 2 * options.margin + 2 * options.cellWidth + options.columnGap)
    }

    /// Each sheet page is as tall as its rows: a last page of one row was as tall as the first.
    @Test func aSheetPageIsAsTallAsItsRows() throws {
        let layouter = SheetLayouter(typesetter: Typesetter())
        let pages = layouter.layout(rows: (0..<4).map { [cell("s\($0).xml", 390, 844, column: 0)] })
        #expect(pages.count == 2)
        let (first, last) = (try #require(pages.first), try #require(pages.last))
        let options = SheetOptions()
        let row = (first.height - 2 * options.margin + options.rowGap) / 3
        #expect(abs(last.height - (2 * options.margin + row - options.rowGap)) < 1e-9, "\(pages.map(\.height))")
    }

    /// A caption's file name reads as it was typed, left to right, whatever script it begins
    /// with: "מסך_3.xml" came out "xml.3_מסך", in the direction of its first letter.
    @Test func captionFileNamesReadLeftToRight() throws {
        let layouter = SheetLayouter(typesetter: Typesetter())
        let pages = layouter.layout(rows: [[cell("מסך_3.xml", 390, 844, column: 0)]])
        let captions = try #require(pages.first).items.compactMap { item -> Page? in
            if case .subpage(let s) = item, s.scale == 1 { return s.page }
            return nil
        }
        let runs = captions.flatMap(\.items).compactMap { item -> GlyphRun? in
            if case .glyphs(let run) = item { return run }
            return nil
        }
        let hebrew = try #require(runs.first { $0.text.contains("מסך") })
        let latin = try #require(runs.first { $0.text.contains("xml") })
        #expect(hebrew.originX < latin.originX, "\(runs.map { ($0.text, $0.originX) })")
    }

    @Test func manyColumnsShrinkThenContinueOnFurtherPages() {
        let layouter = SheetLayouter(typesetter: Typesetter())
        let options = SheetOptions()
        #expect(layouter.columnGeometry(6, widestPage: 390) == (options.cellWidth, 6))
        let (width, perPage) = layouter.columnGeometry(24, widestPage: 390)
        #expect(perPage == 12 && width >= options.minimumCellWidth && width < options.cellWidth)
        let page = 2 * options.margin + Double(perPage) * width + Double(perPage - 1) * options.columnGap
        #expect(abs(page - options.maximumPageWidth) < 1e-9)
        // Wider pages, wider cells in proportion: fewer to a sheet page (5 fit), shared evenly
        // by the pages they need: three of 4, not 5, 5 and 2.
        let (ipad, ipadPerPage) = layouter.columnGeometry(12, widestPage: 1024)
        #expect(ipadPerPage == 4 && ipad >= options.minimumCellWidth * 1024 / 390, "\(ipad) \(ipadPerPage)")
        // 13 columns: 7 and 6 at the preferred width, not 12 and a last page of one.
        #expect(layouter.columnGeometry(13, widestPage: 390) == (options.cellWidth, 7))
        #expect(layouter.columnGeometry(25, widestPage: 390).columnsPerPage == 9)
        // A locale's text sizes stay on one sheet page: five locales in three sizes go 9 and 6
        // (they went 8 and 7, the third locale's last size on the second page); groups too large
        // for a page are shared out as single columns.
        var grouped = SheetOptions()
        grouped.columnGroup = 3
        let groups = SheetLayouter(typesetter: Typesetter(), options: grouped)
        #expect(layouter.columnGeometry(15, widestPage: 390).columnsPerPage == 8)
        #expect(groups.columnGeometry(15, widestPage: 390).columnsPerPage == 9)
        #expect(groups.columnGeometry(21, widestPage: 390).columnsPerPage == 12)
        #expect(groups.columnGeometry(6, widestPage: 390) == (options.cellWidth, 6))
        // Not at the cost of a sheet page: 35 columns of seven locales in five sizes stay on 3
        // pages of 12 (in groups, 10 to a page, they took 4).
        grouped.columnGroup = 5
        #expect(SheetLayouter(typesetter: Typesetter(), options: grouped).columnGeometry(35, widestPage: 390).columnsPerPage == 12)
        grouped.columnGroup = 13
        #expect(SheetLayouter(typesetter: Typesetter(), options: grouped).columnGeometry(26, widestPage: 390).columnsPerPage == 9)
        // Up to an iPad's on its side: a wider page is scaled down to fit, as before.
        #expect(layouter.columnGeometry(2, widestPage: 100_000) == layouter.columnGeometry(2, widestPage: options.widestReferencePage))
    }

    /// An iPad's page is shown at the scale a phone's is (it was shrunk into a phone's cell, its
    /// body text 3 pt); each page fits its cell, enlarged no more than a phone's page is.
    @Test func widerPagesGetWiderCells() {
        let layouter = SheetLayouter(typesetter: Typesetter())
        let options = SheetOptions()
        let pages = layouter.layout(rows: [[cell("ipad.xml", 1024, 1366, column: 0), cell("ipad.xml", 1024, 1366, column: 1)], [cell("phone.xml", 390, 844, column: 0)]])
        let scaled = pages.flatMap(\.items).compactMap { item -> SubpageItem? in
            if case .subpage(let s) = item, s.scale != 1 { return s }
            return nil
        }
        let reference = options.cellWidth / options.referencePageWidth
        #expect(scaled.count == 3 && abs(scaled[0].scale - reference) < 1e-9 && abs(scaled[1].scale - reference) < 1e-9, "\(scaled.map(\.scale))")
        #expect(abs(scaled[2].scale - reference) < 1e-9, "the phone as on a sheet of phones: \(scaled.map(\.scale))")
        // Each page at most as large as on a sheet of its own: an iPhone 8's and a badge's
        // fill a phone's cell, beside an iPad's too (they filled the iPad's, at 1.26 and 4.7).
        for rows in [[[cell("small.xml", 375, 667, column: 0), cell("badge.xml", 100, 60, column: 1)]],
                     [[cell("small.xml", 375, 667, column: 0), cell("badge.xml", 100, 60, column: 1), cell("ipad.xml", 1024, 1366, column: 2)]]] {
            let scales = layouter.layout(rows: rows).flatMap(\.items).compactMap { item -> Double? in
                if case .subpage(let s) = item, s.scale != 1 { return s.scale }
                return nil
            }
            #expect(abs(scales[0] - 180.0 / 375) < 1e-9 && abs(scales[1] - 1.8) < 1e-9, "\(scales)")
        }
        // A long page too: its height's cap is the one of its own sheet (it grew with the iPad's cell).
        let long = layouter.layout(rows: [[cell("long.xml", 390, 4304, column: 0), cell("ipad.xml", 1024, 1366, column: 1)]])
        let longScale = long.flatMap(\.items).compactMap { item -> Double? in
            if case .subpage(let s) = item, s.scale != 1 { return s.scale }
            return nil
        }.first
        #expect(longScale.map { abs($0 - 180 * options.maximumCellAspect / 4304) < 1e-9 } == true, "\(String(describing: longScale))")
    }
}

// MARK: - typeset sheet

private let examplesFolder = repositoryRoot + "/Examples/localized"

@Suite struct SheetCommandTests {
    @Test func twoMockupsThreeLocalesTwoTextSizes() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sheet = folder + "/sheet.pdf"
        let run = try L10nCLI.typeset(
            [
                "sheet", "onboarding.xml", "account.xml", "--strings", "Localizable.xcstrings",
                "--locales", "en,ar,he", "--text-sizes", "Large,AX1", "-o", sheet,
            ], in: examplesFolder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "sheet of 2 inputs × 6 columns on 1 page: \(sheet)\n")
        #expect(try pdfPageCount(sheet) == 1)
        #expect(try runProgram("/usr/bin/qpdf", ["--check", sheet]).status == 0)
        // Vectors, not pictures: no image at all, and the mockups' text is text.
        #expect(try pdfImageCount(sheet) == 0)
        let text = try pdfText(sheet)
        for caption in [
            "onboarding.xml", "account.xml", "en · Large (17 pt)", "en · AX1 (28 pt)", "ar · Large (17 pt)",
            "ar · AX1 (28 pt)", "he · Large (17 pt)", "he · AX1 (28 pt)", "page 1 of 2",
        ] {
            #expect(text.contains(caption), "caption \(caption)")
        }
        let wholeWords = try pdfText(sheet, raw: false)
        for string in [
            "Welcome to Lumen", "Back Up Photos", "dana@example.com", "Manage Plan", "חשבון", "התנתקות",
            "אחסון", "الحساب", "التخزين",
        ] {
            #expect(wholeWords.contains(string), "string \(string)")
        }
        // Each caption once per cell: 2 rows × 3 locales.
        #expect(text.components(separatedBy: "· AX1 (28 pt)").count - 1 == 6)
        // The mockups are in the PDF's structure, each cell a Div of its page's elements and its
        // caption (they were artifacts: a screen reader heard only the captions).
        let structure = try runProgram("/usr/bin/pdfinfo", ["-struct-text", sheet])
        #expect(structure.status == 0, "\(structure.stderr)")
        let lines = structure.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0 == "Div" }.count == 12, "\(lines.prefix(40))")
        #expect(lines.filter { $0 == "H1 (block)" }.count == 12)
        // A caption is one P (it was a P in a P).
        let captionLine = try #require(lines.firstIndex(of: "\"onboarding.xml en · Large (17 pt)\""))
        #expect(lines[captionLine - 1] == "P (block)" && lines[captionLine - 2] != "P (block)", "\(lines[captionLine - 3...captionLine])")
        #expect(lines.contains("\"Welcome to Lumen\""))
        #expect(lines.contains("\"onboarding.xml en · Large (17 pt)\""))
    }

    /// A caption gives the body size its cell is set in: a document's own `font-size` scales
    /// with the text size as every size does (one of 20 pt was captioned "Large (17 pt)").
    @Test func captionsGiveTheCellsBodySize() throws {
        let folder = try L10nCLI.folder(["big.xml": #"<document font-size="20"><p>Twenty</p></document>"#])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["sheet", "big.xml", "--text-sizes", "Large,AX1", "-o", "s.pdf"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try pdfText(folder + "/s.pdf")
        #expect(text.contains("en · Large (20 pt)") && text.contains("en · AX1 (32.9 pt)"), "\(text)")
        let layout = try L10nCLI.typeset(["layout", "big.xml", "--text-size", "AX1"], in: folder)
        #expect(try L10nCLI.blocks(layout.stdout).blocks.first?.sizes.first.map { ($0 * 10).rounded() / 10 } == 32.9)
    }

    @Test func svgAndPNGSheets() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["sheet", "onboarding.xml", "--strings", "Localizable.xcstrings", "--locales", "ar,he"]
        let png = try L10nCLI.typeset(arguments + ["-o", folder + "/sheet.png", "--scale", "1"], in: examplesFolder)
        #expect(png.status == 0, "\(png.stderr)")
        let image = try PixelImage(contentsOf: folder + "/sheet.png")
        let options = SheetOptions()
        #expect(image.width == Int((2 * options.margin + 2 * options.cellWidth + options.columnGap).rounded(.up)))
        let svg = try L10nCLI.typeset(arguments + ["-o", folder + "/sheet.svg"], in: examplesFolder)
        #expect(svg.status == 0, "\(svg.stderr)")
        let contents = try String(contentsOfFile: folder + "/sheet.svg", encoding: .utf8)
        #expect(!contents.contains("<image"))
        // The cells (pages in the page, scaled and clipped) where the PNG at scale 2 has them, up
        // to anti-aliasing: librsvg's edges differ from Cairo's by more than the tolerance on
        // 0.6% of this sheet's pixels (Cairo's own SVG of it measured the same).
        let sharp = try L10nCLI.typeset(arguments + ["-o", folder + "/sheet2.png", "--scale", "2"], in: examplesFolder)
        #expect(sharp.status == 0, "\(sharp.stderr)")
        let conversion = try runProgram(
            "/usr/bin/rsvg-convert", ["--dpi-x", "144", "--dpi-y", "144", "-o", folder + "/check.png", folder + "/sheet.svg"])
        #expect(conversion.status == 0)
        let comparison = try ImageDiff.compare(folder + "/check.png", folder + "/sheet2.png", tolerance: 96)
        #expect(comparison.sizeMismatch == nil)
        #expect(comparison.share < 0.015, "\(comparison)")
        // --format overrides the extension; a missing folder is made.
        let forced = try L10nCLI.typeset(
            arguments + ["-o", folder + "/new/folder/sheet.out", "--format", "pdf"], in: examplesFolder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try pdfPageCount(folder + "/new/folder/sheet.out") == 1)  // the folder is made
    }

    @Test func sheetsAreTheSameWhateverTheJobs() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for format in ["pdf", "svg", "png"] {
            var outputs: [Data?] = []
            for jobs in ["1", "2"] {
                let path = folder + "/sheet-\(jobs).\(format)"
                let run = try L10nCLI.typeset(
                    [
                        "sheet", "onboarding.xml", "account.xml", "--strings", "Localizable.xcstrings", "--locales",
                        "ar,he", "--text-sizes", "Small,AX2", "-o", path, "--jobs", jobs, "--scale", "1",
                    ], in: examplesFolder)
                #expect(run.status == 0, "\(run.stderr)")
                outputs.append(FileManager.default.contents(atPath: path))
            }
            #expect(outputs[0] != nil && outputs[0] == outputs[1], "\(format)")
        }
    }

    /// A sheet is the same however its inputs are typed and wherever it is made: its captions
    /// showed the paths as typed, and a CI machine's checkout folder changed its bytes.
    @Test func sheetsAreTheSameFromAnyFolder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let examples = URL(fileURLWithPath: examplesFolder).standardizedFileURL.path
        var outputs: [Data?] = []
        for (inputs, directory) in [
            (["onboarding.xml", "account.xml"], examples), (["./onboarding.xml", examples + "/account.xml"], examples),
            ([examples + "/onboarding.xml", examples + "//account.xml"], folder),
        ] {
            let path = folder + "/sheet-\(outputs.count).svg"
            let run = try L10nCLI.typeset(
                ["sheet"] + inputs + ["--strings", examples + "/Localizable.xcstrings", "--locales", "ar", "-o", path], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(FileManager.default.contents(atPath: path))
        }
        #expect(outputs[0] != nil && outputs[0] == outputs[1] && outputs[1] == outputs[2])
        let svg = String(decoding: outputs[0] ?? Data(), as: UTF8.self)
        #expect(svg.contains(">onboarding.xml<") && !svg.contains("Examples"), "the file's name alone")
    }

    @Test func largeGridsContinueOnFurtherPages() throws {
        var files: [String: String] = [:]
        for i in 1...8 {
            files["screen\(i).xml"] =
                "<document device=\"iphone-8\"><title>Screen \(i)</title><p>Text \(i)</p></document>"
        }
        let folder = try L10nCLI.folder(files)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sizes = LayoutSizes.all
        let run = try L10nCLI.typeset(
            ["sheet"] + (1...8).map { "screen\($0).xml" } + [
                "--locales", "en,he", "--text-sizes", sizes.joined(separator: ","), "-o", "sheet.pdf", "--jobs", "2",
            ], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        // 24 columns: 12 per page; 8 rows: two pages' worth. Columns groups first, then rows.
        #expect(try pdfPageCount(folder + "/sheet.pdf") == 4)
        let pages = try (1...4).map { try pdfText(folder + "/sheet.pdf", page: $0) }
        #expect(pages[0].contains("screen1.xml") && pages[0].contains("en · xSmall (14 pt)"))
        #expect(pages[0].contains("en · AX5 (53 pt)") && !pages[0].contains("he · "))
        #expect(
            pages[2].contains("screen1.xml") && pages[2].contains("he · AX5 (53 pt)") && !pages[2].contains("en · "))
        #expect(
            !pages[0].contains("screen8.xml") && pages[1].contains("screen8.xml") && pages[3].contains("screen8.xml"))
        // Every cell once.
        for i in 1...8 {
            let count = pages.map { $0.components(separatedBy: "screen\(i).xml").count - 1 }.reduce(0, +)
            #expect(count == 24, "screen\(i).xml in \(count) captions")
            #expect(pages.joined().contains("Screen \(i)"))
        }
    }

    @Test func aFailingInputShowsItsErrorAndTheOthersAreDrawn() throws {
        let folder = try L10nCLI.folder([
            "good.xml": "<document><title key=\"title\">Hello</title><p key=\"nowhere\">Fallback</p></document>",
            "bad.xml": "<document>\n  <p>broken</q>\n</document>\n",
            "s.json": "{\"title\": \"Bonjour\"}",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(
            ["sheet", "good.xml", "bad.xml", "--strings", "s.json", "--text-sizes", "Large,xLarge", "-o", "sheet.pdf"],
            in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.xml:2:12: error: end tag '</q>'"), "\(run.stderr)")
        // The missing key is reported once, not once per column.
        #expect(
            run.stderr.components(separatedBy: "good.xml:1:43: warning: no string for key 'nowhere'").count == 2,
            "\(run.stderr)")
        #expect(run.stderr.hasSuffix("sheet of 2 inputs × 2 columns on 1 page: sheet.pdf; failed: bad.xml\n"))
        let text = try pdfText(folder + "/sheet.pdf")
        #expect(text.contains("Bonjour") && text.contains("Fallback"))
        #expect(text.components(separatedBy: "error: 2:12: end tag").count - 1 == 2)
        #expect(text.contains("bad.xml") && text.contains("en · xLarge (19 pt)"))
    }

    /// A sheet that cannot be written names the one an earlier run left, as `render -o` does
    /// (it stood looking current, only "cannot write" said).
    @Test func anEarlierSheetLeftByAFailedWriteIsNamed() throws {
        var files: [String: String] = [:]
        for i in 1...30 { files["d\(i).xml"] = "<document><p>doc \(i)</p></document>" }
        let folder = try L10nCLI.folder(files)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = (1...30).map { "d\($0).xml" }
        let first = try L10nCLI.typeset(["sheet"] + inputs + ["-o", "sheet.png"], in: folder)
        #expect(first.status == 0 && first.stderr.hasSuffix("on 2 pages: sheet.png, sheet-2.png\n"), "\(first)")
        try FileManager.default.removeItem(atPath: folder + "/sheet-2.png")
        try FileManager.default.createDirectory(atPath: folder + "/sheet-2.png", withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder + "/sheet.png")
        let failed = try L10nCLI.typeset(["sheet"] + inputs + ["-o", "sheet.png"], in: folder)
        #expect(failed.status == 1 && failed.stderr.contains("cannot write sheet-2.png: it is a folder"), "\(failed)")
        #expect(failed.stderr.contains("warning: 'sheet.png', from an earlier run, is left as it was"), "\(failed)")
        // The inputs are fine: the advice is to remove it, not to fix them.
        #expect(failed.stderr.contains("remove it\n") && !failed.stderr.contains("fix the inputs"), "\(failed)")
    }

    /// A failed cell shows the error's hint as standard error does: "did you mean 'title'?" is
    /// the fix (it was cut).
    @Test func aFailedCellShowsTheHint() throws {
        let folder = try L10nCLI.folder(["typo.xml": "<document><titel>Hello</titel></document>"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["sheet", "typo.xml", "-o", "sheet.pdf"], in: folder)
        #expect(run.status == 1 && run.stderr.contains("(did you mean 'title'?)"), "\(run.stderr)")
        let text = try pdfText(folder + "/sheet.pdf").replacing("\n", with: " ")
        #expect(text.contains("unknown element 'titel'") && text.contains("did you mean 'title'?"), "\(text)")
    }

    /// A cell failed by a catalog's entry shows the catalog's name with the place: "4:76" read
    /// as a line of the cell's document.
    @Test func aCellFailedByTheCatalogNamesIt() throws {
        let plural = #"{"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "one"}}}}}"#
        let folder = try L10nCLI.folder([
            "a.xml": "<document>\n<label key=\"k\">x</label></document>",
            "c.xcstrings": #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": "# + plural + "}}}}",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["sheet", "a.xml", "--strings", "c.xcstrings", "-o", "sheet.pdf"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("c.xcstrings:1:"), "\(run.stderr)")
        let text = try pdfText(folder + "/sheet.pdf")
        #expect(text.contains("error: c.xcstrings:1:"), "\(text)")
    }

    /// A warning that only some cells give names them: which locale and size broke a word is
    /// what the sheet is for. One that every cell gives is said once, as it is.
    @Test func warningsNameTheCellsTheyComeFrom() throws {
        let folder = try L10nCLI.folder([
            "a.xml": #"<document width="260"><row><button key="go">Go</button><button>OK</button></row><p key="none">x</p></document>"#,
            "s.json": #"{"go": "Continue"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(
            ["sheet", "a.xml", "--strings", "s.json", "--text-sizes", "Large,AX5", "-o", "sheet.pdf"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("no string for key 'none'") } == [
            "a.xml:1:81: warning: no string for key 'none' in the catalog; the element's own text is used"
        ])
        let broken = lines.filter { $0.contains("the word 'Continue'") }
        #expect(broken.count == 1 && broken[0].contains("it is broken between its letters; in en AX5 ("), "\(lines)")
    }

    /// A catalog that cannot be read fails the cells that use a key, and the sheet; the others
    /// are shown (no sheet was written at all).
    @Test func brokenCatalogFailsTheCellsThatUseAKey() throws {
        let folder = try L10nCLI.folder([
            "a.xml": "<document><p>x</p></document>", "b.xml": #"<document><p key="a">x</p></document>"#,
            "s.strings": "\"a\" = \"b\"\n\"c\" = \"d\";",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["sheet", "a.xml", "b.xml", "--strings", "s.strings", "-o", "sheet.pdf"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("s.strings:1:10: error: expected ';' after the text of 'a', found '\"'"),
            "\(run.stderr)")
        #expect(run.stderr.contains("b.xml:1:11: error: key 'a' cannot be looked up: the string catalog 's.strings' cannot be read"), "\(run.stderr)")
        #expect(run.stderr.contains("sheet.pdf; failed: b.xml; the string catalog 's.strings' cannot be read\n"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/sheet.pdf"))
    }

    @Test(arguments: [
        ["sheet", "a.xml"],
        ["sheet", "-o", "sheet.pdf"],
        ["sheet", "a.xml", "-o", "sheet.txt"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--locales", "en,,ar"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--locales", "en,not a tag"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--text-sizes", "Large,Huge"],
        // One locale or size twice made two columns alike, without a word.
        ["sheet", "a.xml", "-o", "sheet.pdf", "--locales", "en,ar,en"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--locales", "ar-EG,ar_eg"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--locales", "he,iw"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--text-sizes", "Large,AX1,large"],
        ["sheet", "a.xml", "-o", "sheet.pdf", "--scale", "0"],
    ])
    func usageErrors(arguments: [String]) throws {
        let folder = try L10nCLI.folder(["a.xml": "<document><p>x</p></document>"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(arguments, in: folder)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.xml"])
    }
}

/// The Dynamic Type categories of SPEC 5.3, smallest first.
private enum LayoutSizes {
    static let all = [
        "xSmall", "Small", "Medium", "Large", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4", "AX5",
    ]
}
