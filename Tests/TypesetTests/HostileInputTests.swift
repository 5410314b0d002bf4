// End-to-end tests of bad and hostile input (issue 7): every case of the corpus in Tests/Hostile/
// through the `typeset` binary, inputs too big to commit generated here, and batches that must
// lose nothing but their failing inputs. Whatever the input, the answer is a located error and
// no output file, or a correct render; never a crash, a hang, a partial or a temporary file.
//
// Corpus format: `NAME.xml` (any bytes) and `NAME.expected`, whose first line is either
// `LINE:COLUMN: error: MESSAGE-FRAGMENT` or `renders`; further lines may say `pages: N` (the
// PDF's page count), `images: N` (the images it draws, by pdfimages), `text: FRAGMENT` (in the
// PDF's text, by pdftotext; one line each) or `LINE:COLUMN: warning: MESSAGE-FRAGMENT` (printed;
// a case that renders prints these warnings and no other).
import Foundation
import Testing

@testable import Typeset

/// The corpus must not shrink unnoticed: a case deleted or added changes the count (update
/// it with the case).
private let errorCaseCount = 120
private let renderCaseCount = 22

@Suite("Hostile inputs", .serialized)
struct HostileInputTests {
    @Test func corpusGivesLocatedErrorsOrRenders() throws {
        let cli = try CLI()
        let folder = repositoryRoot + "/Tests/Hostile"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let inputs = names.filter { $0.hasSuffix(".xml") }.sorted()
        let expectations = Set(names.filter { $0.hasSuffix(".expected") })
        // Every input has an expectation and every expectation an input.
        for input in inputs {
            #expect(expectations.contains(stem(input) + ".expected"), "\(input) has no .expected file")
        }
        for expectation in expectations {
            #expect(inputs.contains(stem(expectation) + ".xml"), "\(expectation) has no input")
        }

        var errorCases = 0
        var renderCases = 0
        for input in inputs {
            let text = try String(contentsOfFile: folder + "/" + stem(input) + ".expected", encoding: .utf8)
            let expectation = try Expectation(text, file: input)
            let outcome = try cli.render(folder + "/" + input)
            try check(outcome, expectation, path: folder + "/" + input)
            if expectation.error != nil { errorCases += 1 } else { renderCases += 1 }
        }
        #expect(errorCases == errorCaseCount, "\(errorCases) error cases ran, expected \(errorCaseCount)")
        #expect(renderCases == renderCaseCount, "\(renderCases) render cases ran, expected \(renderCaseCount)")
        #expect(errorCases + renderCases == inputs.count)
    }

    // MARK: Generated inputs

    @Test func inputOverFourMebibytesIsRefusedUnread() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/huge.xml"
        // A well-formed document one byte over the limit.
        let head = "<document><p>"
        let tail = "</p></document>"
        let filler = String(repeating: "a", count: MarkupParser.maximumInputBytes + 1 - head.utf8.count - tail.utf8.count)
        try (head + filler + tail).write(toFile: path, atomically: false, encoding: .utf8)
        let outcome = try cli.render(path)
        try check(
            outcome,
            Expectation(error: (1, 1, "the input is \(MarkupParser.maximumInputBytes + 1) bytes; the limit is 4194304 bytes (4 MiB)")),
            path: path)
    }

    /// A device, a pipe or a socket is never replaced by an output file (as root, `-o /dev/null`
    /// turned /dev/null into a PDF), and a pipe named like a font is not opened (it waited for a
    /// writer forever).
    @Test func specialFilesAreLeftAlone() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.xml"
        try "<document><p>x</p></document>".write(toFile: input, atomically: false, encoding: .utf8)
        for name in ["pipe.pdf", "pipe.png", "pipe.svg"] {
            let pipe = folder + "/" + name
            #expect(mkfifo(pipe, 0o644) == 0)
            let result = try run(cli.binary, ["render", input, "-o", pipe])
            #expect(result.status == 1)
            #expect(result.error.contains("cannot write"), "\(result.error)")
            #expect(result.error.contains("it is a device, a pipe or a socket"), "\(result.error)")
            var status = stat()
            #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "\(name) is still a pipe")
        }
        // Through a link only the kernel follows: /dev/stdout, this test's pipe, which
        // readlink gives as "pipe:[N]" (it was taken for a file not there yet).
        let standardOutput = try run(cli.binary, ["render", input, "-o", "/dev/stdout", "--format", "svg"])
        #expect(standardOutput.status == 1)
        #expect(standardOutput.error.contains("cannot write /dev/stdout: it is a device, a pipe or a socket"), "\(standardOutput.error)")
        let fonts = folder + "/fonts"
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        #expect(mkfifo(fonts + "/pipe.ttf", 0o644) == 0)
        let result = try run(cli.binary, ["render", input, "--font-dir", fonts, "-o", folder + "/out.pdf"])
        #expect(result.status == 0, "\(result.error)")

        // A pipe given to diff, or as a snapshot's reference, is refused at once (it waited for
        // a writer forever); `timeout` ends the wait if it comes back.
        try Data(pngFile(width: 2, height: 2)).write(to: URL(fileURLWithPath: folder + "/a.png"))
        let diff = try run("/usr/bin/timeout", ["20", cli.binary, "diff", folder + "/pipe.png", folder + "/a.png"])
        #expect(diff.status == 2 && diff.error.contains("it is not a regular file"), "\(diff)")
        try FileManager.default.createDirectory(atPath: folder + "/shots/__snapshots__", withIntermediateDirectories: true)
        try "<document><p>x</p></document>".write(toFile: folder + "/shots/in.xml", atomically: false, encoding: .utf8)
        #expect(mkfifo(folder + "/shots/__snapshots__/in.png", 0o644) == 0)
        let snapshot = try run("/usr/bin/timeout", ["20", cli.binary, "snapshot", folder + "/shots"])
        #expect(snapshot.status == 1 && snapshot.output.contains("not a regular file"), "\(snapshot)")
    }

    /// An output named through a symbolic link is written to the file the link points to; the
    /// link stays (it was replaced by the file, and the file it pointed to left as it was).
    @Test func anOutputThroughALinkIsWrittenThrough() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.xml"
        try "<document><p>x</p></document>".write(toFile: input, atomically: false, encoding: .utf8)
        for format in ["pdf", "svg", "png"] {
            let real = folder + "/real." + format
            let link = folder + "/link." + format
            try Data().write(to: URL(fileURLWithPath: real))
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
            #expect(try run(cli.binary, ["render", input, "-o", link]).status == 0)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "\(format)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: real)).count > 100, "\(format)")
        }
    }

    /// Thousands of text sizes drawn to PNG by two threads: Cairo 1.16 deadlocked between
    /// `cairo_show_glyphs` and `cairo_scaled_font_destroy` (its scaled-font locks taken in
    /// different orders), and the render hung in 5 runs of 8 (`CairoFontLock`), SIGTERM held
    /// pending (killed 5 s after it). Two runs, each ended after two minutes (12 s each here in
    /// a debug build): a hang fails them, one in seven chances missed when the deadlock was there.
    @Test func manyTextSizesDrawnByTwoThreadsDoNotHang() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spans = (0..<10_000).map { String(format: "<span size=\"%.3f\">abcd </span>", 10 + Double($0) / 200) }.joined()
        try "<document width=\"1000\" height=\"1000\"><p>\(spans)</p></document>"
            .write(toFile: folder + "/sizes.xml", atomically: false, encoding: .utf8)
        for run in 1...2 {
            let out = folder + "/out\(run)"
            let result = try runProgram(
                "/usr/bin/timeout",
                ["-k", "5", "120", try typesetBinary(), "render", "sizes.xml", "--format", "png", "--out-dir", out, "--jobs", "2"],
                in: folder)
            #expect(result.status == 0, "run \(run): \(result.status == 124 ? "hung" : result.stderr)")
            #expect(files(in: out).count == 55, "run \(run): \(files(in: out).count) pages")
        }
    }

    /// Text far larger than an interface's is filled as outlines, not kept as glyph images in
    /// Cairo's fonts (`PageDrawer.largestGlyphImage`): 60 sizes of the alphabet at 300–890 pt
    /// took more than a gigabyte of address space in PNG ("out of memory" on page 59 under this
    /// limit; 100 such sizes held 3.6 GB), and take about 140 MB.
    @Test func hugeTextSizesTakeLittleMemoryInPNG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let labels = (0..<60).map { "<label size=\"\(300 + 10 * $0)\">abcdefghijklmnopqrstuvwxyz</label>" }.joined()
        try "<document width=\"1200\" height=\"3000\">\(labels)</document>"
            .write(toFile: folder + "/huge.xml", atomically: false, encoding: .utf8)
        let result = try runProgram("/bin/sh", ["-c", "ulimit -v 1000000; exec \"$0\" \"$@\"", try typesetBinary(),
            "render", "huge.xml", "--out-dir", "out", "--format", "png", "--jobs", "2"], in: folder)
        #expect(result.status == 0, "\(result.stderr.split(separator: "\n").filter { !$0.contains("warning") })")
        #expect(files(in: folder + "/out").count == 186)
    }

    @Test func pageCountLimitIsALocatedError() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = BlockLayouter.maximumPageCount
        // Paragraphs of one 68 pt line on pages of 80: each starts a page of its own. Paragraph k
        // is on line k + 1. (Spacers taller than a page did, before a spacer at a page's end
        // was left out.)
        func spacers(_ count: Int) -> String {
            "<document height=\"100\" margin=\"10\">\n"
                + String(repeating: "<p line-height=\"4\">x</p>\n", count: count) + "</document>\n"
        }
        let over = folder + "/spacers.xml"
        try spacers(limit + 1).write(toFile: over, atomically: false, encoding: .utf8)
        try check(
            try cli.render(over),
            Expectation(error: (limit + 2, 1, "this element's content would reach page \(limit + 1); a document can have at most 10,000 pages")),
            path: over)

        // Exactly at the limit: every page is written.
        let at = folder + "/at-limit.xml"
        try spacers(limit).write(toFile: at, atomically: false, encoding: .utf8)
        try check(try cli.render(at), Expectation(pages: limit), path: at)

        // A paragraph whose lines run past the limit: the error is at the paragraph.
        let lines = folder + "/lines.xml"
        try ("<document height=\"60\" margin=\"10\">\n  <p>" + String(repeating: "x<br/>", count: limit + 5) + "</p>\n</document>\n")
            .write(toFile: lines, atomically: false, encoding: .utf8)
        try check(
            try cli.render(lines),
            Expectation(error: (2, 3, "this element's content would reach page \(limit + 1)")), path: lines)

        // Paragraphs and spacers, the spacers left out at each page's end: still the error, at
        // the paragraph past the limit (layout stopped early, counting the spacers toward it,
        // and the end of the document was dropped without a word).
        let spaced = folder + "/spaced.xml"
        try ("<document height=\"100\" margin=\"10\">\n"
            + String(repeating: "<p>x</p><spacer height=\"75\"/>\n", count: limit + 1) + "</document>\n")
            .write(toFile: spaced, atomically: false, encoding: .utf8)
        try check(
            try cli.render(spaced),
            Expectation(error: (limit + 2, 1, "this element's content would reach page \(limit + 1)")), path: spaced)
    }

    /// Columns narrower than a letter set a line per letter: 4 MiB of them took 3.6 GB on under
    /// 5,000 pages. The error is at the paragraph that would set the line past the limit, in a
    /// row of columns and in one paragraph alone.
    @Test func linesPastTheLimitAreAnError() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = BlockLayouter.maximumLineCount
        let perColumn = limit / 30 + 100  // the 30th column crosses the limit
        let start = "<document device=\"iphone-8\"><row>"
        let column = "<p>" + String(repeating: "a", count: perColumn) + "</p>"
        let row = folder + "/row.xml"
        try (start + String(repeating: column, count: 30) + "</row></document>\n").write(toFile: row, atomically: false, encoding: .utf8)
        try check(
            try cli.render(row),
            Expectation(error: (1, start.count + 29 * column.count + 1, "<p>'s text would take the document past 1,000,000 lines")), path: row)
        let alone = folder + "/alone.xml"
        try ("<document width=\"40\">\n<p>" + String(repeating: "a", count: limit + 1) + "</p></document>\n")
            .write(toFile: alone, atomically: false, encoding: .utf8)
        try check(try cli.render(alone), Expectation(error: (2, 1, "past 1,000,000 lines")), path: alone)
        // Markers count: two lists of 299,000 empty numbered items each (2 GB before).
        let markers = folder + "/markers.xml"
        let list = "<list type=\"number\">" + String(repeating: "<item/>", count: 299_000) + "</list>"
        try ("<document device=\"iphone-8\"><row>" + list + list + "</row></document>\n").write(toFile: markers, atomically: false, encoding: .utf8)
        // 598,000 lines for the first list, its items' and their markers'; the second's item
        // 201,001 would set line 1,000,001.
        let crossing = "<document device=\"iphone-8\"><row>".count + list.count + "<list type=\"number\">".count + 201_000 * "<item/>".count + 1
        try check(
            try cli.render(markers), Expectation(error: (1, crossing, "<item>'s text would take the document past 1,000,000 lines")),
            path: markers)
    }

    /// An image file over the byte limit is refused without decoding it (a sparse file: a real
    /// PNG start, then zeros up to one byte past the limit).
    @Test func imageOverTheByteLimitIsRefused() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let image = folder + "/big.png"
        try Data(pngFile(width: 2, height: 2)).write(to: URL(fileURLWithPath: image))
        #expect(truncate(image, off_t(MarkupParser.maximumImageBytes + 1)) == 0)
        let path = folder + "/big.xml"
        try "<document>\n  <p>x</p>\n  <image src=\"big.png\"/>\n</document>\n".write(toFile: path, atomically: false, encoding: .utf8)
        try check(try cli.render(path), Expectation(error: (3, 10, "image 'big.png' is larger than 64 MiB")), path: path)
    }

    /// A named pipe (which git cannot hold, so it is made here) is refused without opening it:
    /// opening a pipe no one writes to would wait forever.
    @Test func imageThatIsANamedPipeIsRefusedWithoutWaiting() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/pipe.png", 0o644) == 0)
        let path = folder + "/pipe.xml"
        try "<document>\n  <image src=\"pipe.png\"/>\n</document>\n".write(toFile: path, atomically: false, encoding: .utf8)
        try check(try cli.render(path), Expectation(error: (2, 10, "image 'pipe.png' is not a readable file")), path: path)
    }

    /// A 1 MB paragraph renders, all of it, in bounded time: of Latin, Arabic and Hebrew words
    /// with digits and brackets (many items), and of Latin words only (one item of 1 MB, which
    /// a scan of the item's glyphs per line once made quadratic).
    @Test(arguments: [false, true])
    func oneMegabyteParagraphRenders(latinOnly: Bool) throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/megabyte.xml"
        let paragraph = mixedScriptParagraph(bytes: 1_000_000, latinOnly: latinOnly)
        try ("<document device=\"iphone-8\">\n<p>" + paragraph + "</p>\n</document>\n")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let start = Date()
        let outcome = try cli.render(path)
        let seconds = Date().timeIntervalSince(start)
        defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.outputs == ["megabyte.pdf"])
        // Generous for a debug build on a loaded machine; a quadratic step takes hours here.
        #expect(seconds < 300, "a 1 MB paragraph took \(seconds) s")
        // The last words are on the last page: nothing was lost.
        let pdf = outcome.folder + "/megabyte.pdf"
        let pages = try #require(try pdfPageCount(pdf))
        #expect(pages > 100)
        let lastPage = try run("/usr/bin/pdftotext", ["-f", "\(pages)", "-l", "\(pages)", pdf, "-"]).output
        #expect(lastPage.contains("ENDMARK"), "the paragraph's last word is missing from the last page")
    }

    /// A paragraph of 50,000 `br`s: one span per line, which a linear search per line once made
    /// quadratic (minutes here; 16 MiB of them did not finish in ten minutes).
    @Test func paragraphOfManyLineBreaksRendersInLinearTime() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/breaks.xml"
        try ("<document device=\"iphone-8\">\n  <p>" + String(repeating: "a<br/>", count: 50_000) + "end</p>\n</document>\n")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let start = Date()
        let outcome = try cli.render(path)
        let seconds = Date().timeIntervalSince(start)
        try check(outcome, Expectation(pages: nil), path: path)
        #expect(seconds < 120, "50,000 lines took \(seconds) s")
    }

    /// A paragraph of 800,000 empty lines (`<br/>`, 4 MB): each page looked through all the
    /// empty lines left for text to keep with them (quadratic: a minute in a release build,
    /// 200,000 of them 3.7 s); now they are looked up. Empty lines that end a paragraph end
    /// with its page: one page (they made more pages of nothing than a document may have).
    @Test func paragraphOfEmptyLinesOverManyPagesPaginatesInLinearTime() throws {
        let (outcome, seconds) = try CLI().timedRender(
            "empty.xml", "<document device=\"iphone-8\">\n<p>" + String(repeating: "<br/>", count: 800_000) + "</p>\n</document>\n")
        defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
        #expect(outcome.status == 0 && outcome.outputs.count == 1, "\(outcome.error)")
        #expect(seconds < 120, "800,000 empty lines took \(seconds) s")
    }

    /// What pagination leaves out at page breaks (empty paragraphs, empty lines) does not count
    /// toward the page limit: 13,000 empty `<p/>` on a small page, or 60,000 `<br/>` in a
    /// paragraph or a list item, stopped the layout as if past 10,000 pages, and pagination,
    /// which left them out at the breaks, set two: everything after them was lost, unsaid.
    @Test func whatPaginationLeavesOutDoesNotStopTheLayout() {
        let floods = [
            "<p>START</p>" + String(repeating: "<p/>", count: 13_000) + "<p>END</p>",
            "<p>START" + String(repeating: "<br/>", count: 60_000) + "</p><p>END</p>",
            "<list><item>START" + String(repeating: "<br/>", count: 60_000) + "</item></list><p>END</p>",
        ]
        for flood in floods {
            let layout = layoutMarkup(#"<document width="200" height="60">"# + flood + "</document>")
            let texts = layout?.report.pages.flatMap { $0.blocks.flatMap { $0.lines.flatMap { $0.runs.map(\.text) } } }
            #expect(texts?.first == "START" && texts?.last == "END", "\(flood.prefix(40)): \(texts ?? [])")
            #expect(layout?.diagnostics.items.isEmpty == true, "\(layout?.diagnostics.items ?? [])")
        }
    }

    /// A word wider than its line whose pieces begin with a long run of zero-width characters
    /// (128,000 word joiners between brackets): the search for a cut that reads better looked
    /// through the run again for each cut it weighed (0.07 s became 48 s); and 20,000 prices
    /// and addresses cut in a narrow box, each weighed by cutting its rest again.
    @Test func cutsThatReadBetterAreWeighedInLinearTime() throws {
        for (name, text, width) in [
            ("joiners.xml", ")" + String(repeating: "\u{2060}", count: 128_000) + String(repeating: ")", count: 60), 200),
            ("prices.xml", Array(repeating: "$1,299,999.99 customer.support@example-company.com", count: 20_000).joined(separator: " "), 136),
        ] {
            let (outcome, seconds) = try CLI().timedRender(
                name, "<document width=\"\(width)\" height=\"14400\" font-size=\"33\">\n  <p>\(text)</p>\n</document>\n")
            defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
            #expect(outcome.status == 0 && outcome.outputs.count == 1, "\(name): \(outcome.error)")
            #expect(seconds < 120, "\(name) took \(seconds) s")
        }
    }

    /// 64,000 words each wider than its 32 pt box, cut between their letters: the cut looked at
    /// every glyph of the paragraph for each word (0.75 s became 69 s; minutes in a debug build).
    @Test func manyWordsCutBetweenTheirLettersInLinearTime() throws {
        let (outcome, seconds) = try CLI().timedRender(
            "cut.xml",
            "<document width=\"40\" height=\"14400\" margin=\"4\">\n  <p>" + Array(repeating: "abcdefghij", count: 64_000).joined(separator: " ")
                + "</p>\n</document>\n")
        defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
        #expect(outcome.status == 0 && outcome.outputs == ["cut.pdf"], "\(outcome.error)")
        #expect(outcome.error.contains("narrower than the word 'abcdefghij' (84 pt): it is broken between its letters"))
        #expect(seconds < 120, "64,000 cut words took \(seconds) s")
    }

    /// A mark after each of 500,000 bidi controls that open or close nothing: 500,000 pieces of
    /// one run on one line, each taken into the run before it, which copied all the glyphs
    /// gathered so far each time (quadratic: 160,000 took 21 s in a release build). They are
    /// joined once.
    @Test func aRunOfManyPiecesIsJoinedOnce() throws {
        let (outcome, seconds) = try CLI().timedRender(
            "pieces.xml", "<document><p>a" + String(repeating: "\u{202C}\u{0301}", count: 500_000) + "</p></document>")
        defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
        #expect(outcome.status == 0 && outcome.outputs == ["pieces.pdf"], "\(outcome.error)")
        #expect(seconds < 120, "500,000 pieces took \(seconds) s")
    }

    /// Marks each after a ZWSP: HarfBuzz looks through the ZWSP for the marks' letter, so the
    /// sequence, never cut, was shaped in time that grew with its square (66,000 took 35 s), and
    /// a Hebrew one of 33,000 stopped the process on HarfBuzz's assertion: nothing of its batch
    /// was written. It is cut as any long sequence of marks is.
    @Test func marksAfterInvisibleCharactersAreASequenceOfMarks() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ("<document lang=\"he\"><p>ש" + String(repeating: "\u{200B}\u{05B8}", count: 300_000) + "</p></document>")
            .write(toFile: folder + "/marks.xml", atomically: false, encoding: .utf8)
        try "<document><p>good</p></document>".write(toFile: folder + "/good.xml", atomically: false, encoding: .utf8)
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let start = Date()
        let result = try run(cli.binary, ["render", folder + "/marks.xml", folder + "/good.xml", "--out-dir", out, "--jobs", "1"])
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["good.pdf", "marks.pdf"])
        #expect(seconds < 120, "300,000 marks after ZWSPs took \(seconds) s")
    }

    // MARK: Batches and atomic writes

    /// One batch with good inputs and inputs that fail while parsing, while laying out and while
    /// rendering, and an output path that cannot be written: every good input is written, the
    /// others leave nothing, and no temporary file is left.
    @Test(arguments: [1, 2])
    func batchLosesOnlyItsFailingInputs(jobs: Int) throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = folder + "/in"
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var good: [String] = []
        for k in 1...12 {
            let path = inputs + "/good-\(k).xml"
            try "<document lang=\"\(["en", "ar", "he"][k % 3])\"><title>Page \(k)</title><p>\(k) مرحبا שלום</p></document>"
                .write(toFile: path, atomically: false, encoding: .utf8)
            good.append(path)
        }
        // A PNG whose chunks are sound but whose pixel data does not inflate: refused when the
        // document is read, located at its src attribute.
        var corrupt = pngFile(width: 2, height: 2)
        let idat = try #require(corrupt.indices.first { corrupt[$0..<$0 + 4].elementsEqual(Array("IDAT".utf8)) })
        let idatLength = corrupt[(idat - 4)..<idat].reduce(0) { $0 << 8 | Int($1) }
        for k in (idat + 4)..<(idat + 4 + idatLength) { corrupt[k] = 0xA5 }
        let crc = PNGFile.crc32(corrupt[idat..<(idat + 4 + idatLength)])
        for k in 0..<4 { corrupt[idat + 4 + idatLength + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        try Data(corrupt).write(to: URL(fileURLWithPath: inputs + "/corrupt.png"))

        let bad = [
            ("broken-xml.xml", "<document><p>unclosed</document>"),
            ("page-limit.xml", "<document height=\"100\" margin=\"10\">" + String(repeating: "<p line-height=\"4\">x</p>", count: BlockLayouter.maximumPageCount + 1) + "</document>"),
            ("bad-pixels.xml", "<document><image src=\"corrupt.png\"/></document>"),
            ("blocked.xml", "<document><p>its output path is a folder</p></document>"),
        ]
        for (name, text) in bad { try text.write(toFile: inputs + "/" + name, atomically: false, encoding: .utf8) }
        try FileManager.default.createDirectory(atPath: out + "/blocked.pdf", withIntermediateDirectories: true)
        // An older output of a failing input stays as it was.
        try "old".write(toFile: out + "/broken-xml.pdf", atomically: false, encoding: .utf8)

        // Interleave the bad inputs with the good ones.
        var all = good
        for (k, (name, _)) in bad.enumerated() { all.insert(inputs + "/" + name, at: 3 * k + 1) }
        let result = try run(cli.binary, ["render"] + all + ["--out-dir", out, "--jobs", "\(jobs)"])
        #expect(result.status == 1, "\(result.error)")
        let summary = result.error.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("rendered 12 of 16 inputs; failed: "), "\(summary)")
        for (name, _) in bad { #expect(summary.contains(inputs + "/" + name), "\(summary)") }
        for path in good {
            let pdf = out + "/" + stem((path as NSString).lastPathComponent) + ".pdf"
            #expect((try? pdfPageCount(pdf)) == 1, "\(pdf) is missing or broken")
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let expected = (good.map { stem(($0 as NSString).lastPathComponent) + ".pdf" } + ["blocked.pdf", "broken-xml.pdf"]).sorted()
        #expect(written == expected, "no output for failing inputs, no temporary files")
        #expect(try String(contentsOfFile: out + "/broken-xml.pdf", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/blocked.pdf").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: inputs).allSatisfy { !$0.hasSuffix(".tmp") })
        // Each failure is located.
        #expect(result.error.contains(inputs + "/broken-xml.xml:1:22: error: end tag '</document>' does not match '<p>'"))
        #expect(result.error.contains(inputs + "/page-limit.xml:1:"))
        #expect(result.error.contains(inputs + "/bad-pixels.xml:1:18: error: image 'corrupt.png' is not a valid PNG file (its image data is corrupt"))
        #expect(result.error.contains(inputs + "/blocked.xml:1:1: error: cannot write "))
    }

    /// Noncharacters (U+FDD0, U+1FFFF: XML allows them) drew in PDF, but Cairo refused them as
    /// invalid UTF-8 in SVG and PNG, and a sheet or `-o` lost every input along with them.
    @Test func noncharactersRenderInEveryFormat() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/nonchar.xml"
        // (Swift's literals refuse noncharacters.)
        let (fdd0, plane1FFFF) = (Character(Unicode.Scalar(0xFDD0)!), Character(Unicode.Scalar(0x1FFFF)!))
        try "<document><p>a\(fdd0)b \(plane1FFFF) c</p></document>".write(toFile: input, atomically: false, encoding: .utf8)
        for format in ["pdf", "svg", "png"] {
            let result = try run(cli.binary, ["render", input, "-o", folder + "/out." + format])
            #expect(result.status == 0, "\(format): \(result.error)")
        }
        let converted = try runProgram("/usr/bin/rsvg-convert", [folder + "/out.svg", "-o", folder + "/svg.png"])
        #expect(converted.status == 0, "\(converted.stderr)")
    }

    /// `layout` says so and fails when its JSON cannot be written (it exited 0 into /dev/full).
    @Test func layoutFailsWhenItsOutputCannotBeWritten() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/in.xml"
        try "<document><p>x</p></document>".write(toFile: input, atomically: false, encoding: .utf8)
        let full = try runProgram("/bin/sh", ["-c", "\"$0\" layout \"$1\" > /dev/full", cli.binary, input])
        #expect(full.status == 1)
        #expect(full.stderr.contains("typeset: error: cannot write to standard output: No space left on device"), "\(full.stderr)")
        let written = try runProgram("/bin/sh", ["-c", "\"$0\" layout \"$1\" > \"$2\"", cli.binary, input, folder + "/l.json"])
        #expect(written.status == 0)
        #expect(try String(contentsOfFile: folder + "/l.json", encoding: .utf8).hasPrefix("{"))
        // So does every command that prints: what `print` buffered is checked at the end
        // (`conformance`, `snapshot` and `diff` into /dev/full exited 0). For those, whose 1 is a
        // verdict, it is an error, 2: two equal images into /dev/full were said to differ.
        let png = folder + "/in.png"
        #expect(try runProgram(cli.binary, ["render", input, "-o", png]).status == 0)
        for (arguments, status) in [(["diff", png, png], 2), (["--help"], 1)] as [([String], Int32)] {
            let printed = try runProgram("/bin/sh", ["-c", "\"$0\" \"$@\" > /dev/full", cli.binary] + arguments)
            #expect(printed.status == status, "\(arguments): \(printed)")
            #expect(printed.stderr.contains("typeset: error: cannot write to standard output: No space left on device"), "\(arguments): \(printed.stderr)")
        }
        // `conformance` flushes each file's line as it goes: that flush's failure counts (the
        // last flush, at the end, found nothing left to write, and the failure went unsaid).
        try FileManager.default.createDirectory(atPath: folder + "/ucd", withIntermediateDirectories: true)
        try "@Levels: 0\n@Reorder: 0\nL; 3\n".write(toFile: folder + "/ucd/BidiTest.txt", atomically: false, encoding: .utf8)
        let conformance = try runProgram("/bin/sh", ["-c", "\"$0\" conformance --unicode-dir \"$1\" > /dev/full", cli.binary, folder + "/ucd"])
        #expect(conformance.status == 2)
        #expect(conformance.stderr.contains("typeset: error: cannot write to standard output: No space left on device"), "\(conformance.stderr)")
    }

    /// A diagnostic quotes at most the start of a long name (a 5 MB element name made 15 MB of
    /// errors, quoted in the message and the hint).
    @Test func longNamesAreQuotedShort() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/long.xml"
        let name = String(repeating: "a", count: 1_000_000)
        try "<document><\(name)/><p \(name)=\"1\">x</p></document>".write(toFile: input, atomically: false, encoding: .utf8)
        let result = try run(cli.binary, ["render", input, "-o", folder + "/out.pdf"])
        #expect(result.status == 1)
        let quoted = String(repeating: "a", count: 80)
        #expect(result.error.contains(":1:11: error: unknown element '" + quoted + "…" + quoted + "'"))
        #expect(result.error.utf8.count < 2_000, "\(result.error.utf8.count) bytes of errors")
    }

    /// Ctrl-C or a CI job's time limit (SIGINT, SIGTERM) while a PDF of many inputs is written:
    /// its hidden temporary file stayed in the output folder. It is removed, and the process
    /// still dies of the signal. So does SIGPIPE, the reader of its messages gone
    /// (`typeset render … 2>&1 | head`), and the other signals that end a process: Ctrl-\'s
    /// SIGQUIT, a CPU-time limit's SIGXCPU, SIGUSR1, SIGALRM (each left it). In a folder whose
    /// path is over 1,023 bytes too (its temporary was not recorded). And when the parent spawned
    /// it with those signals blocked (`blocked`, as a test runner's thread does): SIGTERM and
    /// SIGINT stayed pending, and the render ran to its end.
    @Test(arguments: [(SIGINT, false, false), (SIGTERM, false, false), (SIGPIPE, false, false), (SIGQUIT, false, false),
                      (SIGXCPU, false, false), (SIGUSR1, false, false), (SIGALRM, false, false), (SIGTERM, true, false),
                      (SIGTERM, false, true), (SIGINT, false, true)])
    func anInterruptedRenderLeavesNoTemporaryFile(signal: Int32, longPath: Bool, blocked: Bool) throws {
        let top = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: top) }
        let folder = longPath ? top + String(repeating: "/" + String(repeating: "d", count: 200), count: 6) : top
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Over 64 inputs: the PDF's temporary file is made after the first 64 are laid out,
        // and stays while the others are.
        let inputs = (0..<200).map { folder + "/page\($0).xml" }
        let page = try String(contentsOfFile: repositoryRoot + "/Examples/long-page.xml", encoding: .utf8)
        for input in inputs { try page.write(toFile: input, atomically: false, encoding: .utf8) }
        try interrupt(["render"] + inputs + ["-o", folder + "/all.pdf", "--jobs", "1"], in: folder, with: signal, blocked: blocked)
        #expect(!FileManager.default.fileExists(atPath: folder + "/all.pdf"))
        // The folders it made for the output go too, left empty (they stayed).
        guard !longPath && !blocked else { return }
        let deeper = folder + "/made/deeper"
        try interrupt(["render"] + inputs + ["-o", deeper + "/all.pdf", "--jobs", "1"], in: folder, with: signal) { _ in
            ((try? FileManager.default.contentsOfDirectory(atPath: deeper)) ?? []).contains { $0.hasSuffix(".tmp") }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/made"))
    }

    /// A file size limit (`ulimit -f`) is a write that fails, as a full disk is: its SIGXFSZ
    /// killed the batch without a word (exit 153), left the page it was writing as a hidden
    /// temporary, and the inputs after it were never rendered.
    @Test func aFileSizeLimitFailsOneInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document><p>Text</p></document>".write(toFile: folder + "/small.xml", atomically: false, encoding: .utf8)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/long-page.xml", toPath: folder + "/long.xml")
        try "<document><p>After</p></document>".write(toFile: folder + "/z.xml", atomically: false, encoding: .utf8)
        // 40 blocks (of 512 bytes for dash, 1,024 for bash): the small pages fit, a long one does not.
        let result = try run("/bin/sh", ["-c", "ulimit -f 40; exec \"$0\" \"$@\"", try typesetBinary(),
            "render", "small.xml", "long.xml", "z.xml", "--out-dir", "out", "--format", "png", "--jobs", "1"], in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("long.xml:1:1: error: cannot write out/long.png: File too large"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted() == ["small.png", "z.png"])
    }

    /// The background of a list or stack of the flow is kept once, not on each block it is
    /// behind: 250 stacks one inside the other, each of its own color, gave each of 6,000
    /// paragraphs 250 rectangles until its page was drawn, and the render took more than 250 MB
    /// of address space (`ulimit -v`; the same paragraphs without the stacks take about 130).
    @Test func nestedBackgroundsTakeNoMemoryPerParagraph() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var inner = String(repeating: "<p>ab</p>", count: 6_000)
        for level in 0..<250 {
            let color = String(format: "#%02X%02X%02X", level * 7 % 256, level * 13 % 256, level * 29 % 256)
            inner = #"<stack background="\#(color)">"# + inner + "</stack>"
        }
        try (#"<document width="390" height="844">"# + inner + "</document>").write(
            toFile: folder + "/deep.xml", atomically: false, encoding: .utf8)
        let result = try run("/bin/sh", ["-c", "ulimit -v 250000; exec \"$0\" \"$@\"", try typesetBinary(),
            "render", "deep.xml", "-o", "deep.pdf", "--jobs", "1"], in: folder)
        #expect(result.status == 0, "\(result)")
        let pdf = try Data(contentsOf: URL(fileURLWithPath: folder + "/deep.pdf"))
        #expect(pdf.count > 100_000)
    }

    /// The same while the pages of one input are written, each to a temporary file of its own:
    /// a signal that came as one was created (during open(2)) found it not yet recorded, and
    /// left it behind nearly every time.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRenderOfManyPagesLeavesNoTemporaryFile(signal: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraph = "<p>Typesetting localized interfaces means every screen is checked in every language.</p>"
        try ("<document device=\"iphone-se\">" + String(repeating: paragraph, count: 4000) + "</document>")
            .write(toFile: folder + "/pages.xml", atomically: false, encoding: .utf8)
        for _ in 0..<3 {
            try interrupt(["render", folder + "/pages.xml", "--out-dir", folder, "--format", "svg"], in: folder, with: signal)
        }
    }

    /// The same in a batch of two jobs: the other job went on making temporaries while the
    /// handler removed them (a run in three left some), and a signal between two renames left a
    /// document with some of its pages. Every document is whole or absent.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedBatchOfTwoJobsLeavesNoTemporaryFileNorPartOfADocument(signal: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = try String(contentsOfFile: repositoryRoot + "/Examples/long-page.xml", encoding: .utf8)
        let inputs = (0..<300).map { folder + "/f\($0).xml" }
        for (k, input) in inputs.enumerated() {
            try page.replacingOccurrences(of: "<title>", with: "<title>\(k) ").write(toFile: input, atomically: false, encoding: .utf8)
        }
        let out = folder + "/out"
        // The pages of one document, rendered alone.
        let whole = try run(try typesetBinary(), ["render", inputs[0], "--out-dir", out, "--format", "svg"])
        let pageCount = try FileManager.default.contentsOfDirectory(atPath: out).count
        #expect(whole.status == 0 && pageCount == 5, "long-page.xml: \(pageCount) SVG pages; \(whole.error)")
        try FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for _ in 0..<2 {
            // Interrupted once a document is whole and another's pages are being written.
            try interrupt(["render"] + inputs + ["--out-dir", out, "--format", "svg", "--jobs", "2"], in: out, with: signal) { files in
                files.contains { $0.hasSuffix(".svg") } && files.contains { $0.hasSuffix(".tmp") }
            }
            var pages: [String: Int] = [:]  // of each document, by its name
            for file in try FileManager.default.contentsOfDirectory(atPath: out) {
                let name = String(file.dropLast(4))  // .svg
                pages[name.split(separator: "-").first.map(String.init) ?? name, default: 0] += 1
            }
            #expect(!pages.isEmpty, "no document was whole when the signal came")
            #expect(pages.values.allSatisfy { $0 == pageCount }, "pages of each document (each has \(pageCount)): \(pages)")
            try FileManager.default.removeItem(atPath: out)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        }
    }

    /// Runs typeset with `arguments`, sends it `signal` once the files in `folder` are `ready`
    /// (by default: once a temporary file is there), and expects it to die of the signal
    /// leaving no temporary file.
    private func interrupt(_ arguments: [String], in folder: String, with signal: Int32, blocked: Bool = false,
                           when ready: ([String]) -> Bool = { files in files.contains { $0.hasSuffix(".tmp") } }) throws {
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder) }
        func temporaries() throws -> [String] { try files().filter { $0.hasSuffix(".tmp") } }
        // Spawned as a shell spawns a command: signals unblocked and at their default action
        // (the test runner's own may be otherwise, and a child inherits them).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // (`blocked`: the signal blocked, as a parent's thread that blocks it passes it on.)
        var signals = sigset_t()
        sigemptyset(&signals)
        if blocked { sigaddset(&signals, signal) }
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigemptyset(&signals)
        for handled in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGXCPU, SIGUSR1, SIGALRM] { sigaddset(&signals, handled) }
        // SIGQUIT and SIGXCPU dump core by default: no core file (the child inherits the limit).
        var core = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &core)
        let runnersCore = core
        core.rlim_cur = 0
        setrlimit(Int32(RLIMIT_CORE.rawValue), &core)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [try typesetBinary()] + arguments
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ) == 0)
        var restored = runnersCore
        setrlimit(Int32(RLIMIT_CORE.rawValue), &restored)
        var seen = false
        var finished = false
        var status: Int32 = 0
        for _ in 0..<10_000 {
            if try ready(files()) {
                seen = true
                break
            }
            if waitpid(pid, &status, WNOHANG) == pid {  // done before: nothing to interrupt
                finished = true
                break
            }
            usleep(1_000)
        }
        #expect(seen, "the files to interrupt at did not appear while the output was written")
        guard seen else {
            if !finished {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
            return
        }
        kill(pid, signal)
        #expect(waitpid(pid, &status, 0) == pid)
        // Killed by the signal (WIFSIGNALED, WTERMSIG), not finished.
        #expect(status & 0x7F == signal, "wait status \(status)")
        #expect(try temporaries().isEmpty)
    }

    /// A multi-page PNG render that fails writes none of its pages.
    @Test func failingMultiPagePNGRenderWritesNoPage() throws {
        let cli = try CLI()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/pages.xml"
        try ("<document height=\"200\">" + String(repeating: "<p>page</p><spacer height=\"130\"/>", count: 3) + "</document>")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out + "/pages-3.png", withIntermediateDirectories: true)
        let result = try run(cli.binary, ["render", path, "--out-dir", out, "--format", "png", "--scale", "1"])
        #expect(result.status == 1)
        #expect(result.error.contains(path + ":1:1: error: cannot write "), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["pages-3.png"])
        // Without the obstacle all three pages are written.
        try FileManager.default.removeItem(atPath: out + "/pages-3.png")
        let again = try run(cli.binary, ["render", path, "--out-dir", out, "--format", "png", "--scale", "1"])
        #expect(again.status == 0, "\(again.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["pages-2.png", "pages-3.png", "pages.png"])
    }

    // MARK: Checking one outcome

    private func check(_ outcome: CLI.Outcome, _ expectation: Expectation, path: String,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let name = (path as NSString).lastPathComponent
        defer { try? FileManager.default.removeItem(atPath: outcome.folder) }
        #expect(!outcome.output.contains(".tmp"), "\(name): a temporary file is left", sourceLocation: sourceLocation)
        if let (line, column, fragment) = expectation.error {
            #expect(outcome.status == 1, "\(name): exit \(outcome.status), stderr: \(outcome.error)", sourceLocation: sourceLocation)
            #expect(outcome.outputs.isEmpty, "\(name): wrote \(outcome.outputs)", sourceLocation: sourceLocation)
            let errors = outcome.error.split(separator: "\n").filter { $0.contains(": error: ") }
            guard let first = errors.first else {
                Issue.record("\(name): no error printed; stderr: \(outcome.error)", sourceLocation: sourceLocation)
                return
            }
            let prefix = "\(path):\(line):\(column): error: "
            #expect(first.hasPrefix(prefix), "\(name): expected \(prefix)…, got \(first)", sourceLocation: sourceLocation)
            #expect(first.contains(fragment), "\(name): expected “\(fragment)” in \(first)", sourceLocation: sourceLocation)
        } else {
            #expect(outcome.status == 0, "\(name): exit \(outcome.status), stderr: \(outcome.error)", sourceLocation: sourceLocation)
            #expect(!outcome.error.contains(": error: "), "\(name): \(outcome.error)", sourceLocation: sourceLocation)
            #expect(outcome.outputs == [stem(name) + ".pdf"], "\(name): wrote \(outcome.outputs)", sourceLocation: sourceLocation)
            guard let pdf = outcome.outputs.first.map({ outcome.folder + "/" + $0 }) else { return }
            let pages = try? pdfPageCount(pdf)
            #expect((pages ?? 0) >= 1, "\(name): not a readable PDF", sourceLocation: sourceLocation)
            if let expected = expectation.pages {
                #expect(pages == expected, "\(name): \(pages ?? 0) pages, expected \(expected)", sourceLocation: sourceLocation)
            }
            if let expected = expectation.images {
                // pdfimages -list: two lines of heading, then a line per image or soft mask.
                let listed = try run("/usr/bin/pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
                let images = listed.filter { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first == "image" }
                #expect(images.count == expected, "\(name): \(images.count) images drawn, expected \(expected)", sourceLocation: sourceLocation)
            }
            let text = expectation.texts.isEmpty ? "" : try run("/usr/bin/pdftotext", [pdf, "-"]).output
            for fragment in expectation.texts {
                #expect(text.contains(fragment), "\(name): “\(fragment)” is not in the PDF's text: \(text)", sourceLocation: sourceLocation)
            }
            let printed = outcome.error.split(separator: "\n").filter { $0.contains(": warning: ") }
            for (line, column, fragment) in expectation.warnings {
                let prefix = "\(path):\(line):\(column): warning: "
                #expect(printed.contains { $0.hasPrefix(prefix) && $0.contains(fragment) },
                        "\(name): expected \(prefix)\(fragment)…, stderr: \(outcome.error)", sourceLocation: sourceLocation)
            }
            for warning in printed where !expectation.warnings.contains(where: { warning.hasPrefix("\(path):\($0.line):\($0.column): warning: ") && warning.contains($0.fragment) }) {
                Issue.record("\(name): a warning its .expected does not list: \(warning)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The summary names the first ten inputs that failed and counts the others (each has its
    /// error above): 2,000 inputs whose one output could not be written made a line of 36 KB.
    @Test func theSummaryNamesTenFailedInputs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = (0..<25).map { String(format: "f%02d.xml", $0) }
        for name in names { try "<document><p>x</document>".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
        let result = try run(try typesetBinary(), ["render"] + names + ["-o", "all.pdf"], in: folder)
        #expect(result.status == 1)
        let summary = result.error.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary == "rendered 0 of 25 inputs; failed: " + names.prefix(10).joined(separator: ", ") + " and 15 more", "\(summary)")
    }

    /// Too few files that may be open at once (`ulimit -n`): the soft limit is raised as far
    /// as the hard one lets it; below 8, a clear error (at 5, libdispatch could not make its
    /// epoll and the process died of SIGILL, one run in two; at 6, inputs "could not be read").
    @Test func tooFewOpenFilesIsSaidOrRaised() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["a", "b", "c"] {
            try "<document><p>\(name)</p></document>".write(toFile: folder + "/\(name).xml", atomically: false, encoding: .utf8)
        }
        func render(_ limit: String) throws -> (status: Int32, output: String, error: String) {
            try run("/bin/sh", ["-c", "\(limit); exec \"$0\" \"$@\"", try typesetBinary(),
                "render", "a.xml", "b.xml", "c.xml", "--out-dir", "out", "--jobs", "2"], in: folder)
        }
        for _ in 0..<4 {
            let low = try render("ulimit -n 5")
            #expect(low.status == 2, "\(low)")
            #expect(low.error == "typeset: error: only 5 files may be open at once (ulimit -n); typeset needs 8\n", "\(low)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        let soft = try render("ulimit -S -n 5")
        #expect(soft.status == 0, "\(soft)")
        #expect(files(in: folder + "/out") == ["a.pdf", "b.pdf", "c.pdf"])
    }

    /// Where no thread can be started (a CI container at its pids limit, a user at
    /// RLIMIT_NPROC), a batch and a document's pages are drawn with one job, said once: they
    /// waited for a worker thread for ever, printing nothing.
    @Test func withoutThreadsTheWorkIsDoneWithOneJob() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        let long = "<document height=\"120\">" + String(repeating: "<p>Line</p>", count: 12) + "</document>"
        for (name, markup) in [("a.xml", "<document><p>A</p></document>"), ("b.xml", "<document><p>B</p></document>"), ("long.xml", long)] {
            try markup.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        }
        let warning = "typeset: warning: cannot start another thread (Resource temporarily unavailable): working with one job\n"
        let batch = try typesetUnprivileged(
            ["render", folder + "/a.xml", folder + "/b.xml", "--out-dir", folder + "/out", "--jobs", "2"], processes: 1)
        #expect(batch.status == 0 && batch.stderr.hasPrefix(warning), "\(batch)")
        #expect(files(in: folder + "/out") == ["a.pdf", "b.pdf"])
        let pages = try typesetUnprivileged(["render", folder + "/long.xml", "-o", folder + "/long.png", "--jobs", "2"], processes: 1)
        #expect(pages.status == 0 && pages.stderr == warning, "\(pages)")
        #expect(files(in: folder).filter { $0.hasPrefix("long-") }.count > 1, "\(files(in: folder))")
        // Nor where no second thread is needed.
        let alone = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/alone.pdf", "--jobs", "2"], processes: 1)
        #expect(alone.status == 0 && alone.stderr.isEmpty, "\(alone)")
        // With threads to spare, nothing is said.
        let spare = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/a.pdf", "--jobs", "2"])
        #expect(spare.status == 0 && spare.stderr.isEmpty, "\(spare)")
    }
}

/// What a corpus case must give.
private struct Expectation {
    var error: (line: Int, column: Int, fragment: String)?
    var pages: Int?
    var images: Int?
    var texts: [String] = []
    var warnings: [(line: Int, column: Int, fragment: String)] = []

    init(error: (Int, Int, String)) { self.error = error }
    init(pages: Int?) { self.pages = pages }

    init(_ text: String, file: String) throws {
        let lines = text.split(separator: "\n").map(String.init)
        guard let first = lines.first else { throw CorpusError("\(file): empty .expected") }
        /// `LINE:COLUMN: SEVERITY: MESSAGE` as its line, column and message.
        func located(_ text: String, _ severity: String) -> (Int, Int, String)? {
            let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]),
                parts[2].hasPrefix(" \(severity): ")
            else { return nil }
            return (line, column, String(parts[2].dropFirst(severity.count + 3)))
        }
        if first != "renders" {
            guard let located = located(first, "error")
            else { throw CorpusError("\(file): the first line must be 'LINE:COLUMN: error: MESSAGE' or 'renders'") }
            error = located
        }
        for line in lines.dropFirst() {
            if line.hasPrefix("pages: "), let count = Int(line.dropFirst(7)) {
                pages = count
            } else if line.hasPrefix("images: "), let count = Int(line.dropFirst(8)) {
                images = count
            } else if line.hasPrefix("text: ") {
                texts.append(String(line.dropFirst(6)))
            } else if error == nil, let warning = located(line, "warning") {
                warnings.append(warning)
            } else {
                throw CorpusError("\(file): unknown line '\(line)'")
            }
        }
    }
}

private struct CorpusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Running the binary

/// The built `typeset` binary: TYPESET_BIN, else the debug build (`make test` builds it first).
private struct CLI {
    let binary: String

    init() throws {
        binary = try typesetBinary()
    }

    struct Outcome {
        var status: Int32
        var error: String
        /// The output folder and the files in it after the run.
        var folder: String
        var outputs: [String]
        var output: String { outputs.joined(separator: " ") }
    }

    /// `markup` written as `name` in a folder of its own and rendered (`render`), and how long
    /// that took: the input's folder is removed, the output folder is the caller's to remove.
    func timedRender(_ name: String, _ markup: String) throws -> (outcome: Outcome, seconds: Double) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try markup.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        let start = Date()
        let outcome = try render(folder + "/" + name)
        return (outcome, Date().timeIntervalSince(start))
    }

    /// `typeset render INPUT --out-dir FRESH-FOLDER`; the caller removes the folder.
    func render(_ input: String) throws -> Outcome {
        let folder = try temporaryFolder()
        let result = try run(binary, ["render", input, "--out-dir", folder])
        let outputs = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return Outcome(status: result.status, error: result.error, folder: folder, outputs: outputs)
    }
}

/// Runs a program to its end (the shared runner of Support.swift).
private func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let result = try runProgram(executable, arguments, in: directory)
    return (result.status, result.stdout, result.stderr)
}

private func stem(_ name: String) -> String { (name as NSString).deletingPathExtension }

/// Words of three scripts with digits, brackets and punctuation, deterministic, about `bytes`
/// long, ending with the word ENDMARK.
func mixedScriptParagraph(bytes: Int, latinOnly: Bool = false) -> String {
    let all = [
        "layout", "render", "Swift", "HarfBuzz", "(2024)", "page", "مرحبا", "بالعالم", "تنزيل", "١٢٣",
        "الإعدادات", "שלום", "עולם", "הורדה", "הגדרות", "42.5%", "[note]", "line,", "كتاب.", "ספר!",
    ]
    let words = latinOnly ? all.filter { $0.unicodeScalars.allSatisfy { $0.value < 0x80 } } : all
    var text = ""
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    while text.utf8.count < bytes {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        text += words[Int(state >> 33) % words.count] + " "
    }
    return text + "ENDMARK"
}
