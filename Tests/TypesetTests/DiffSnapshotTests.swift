// End-to-end tests of `typeset diff` (SPEC §5.5), `typeset snapshot` (SPEC §5.6) and
// deterministic output (SPEC §5): they run the built binary (`swift build` first; the Makefile
// does) or the one TYPESET_BIN names, and read the PNGs it writes back through Cairo.
import CCairo  // zlib
import Foundation
import Testing

@testable import Typeset

private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

private func contents(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
}

private let magenta = PixelImage.Pixel(red: 255, green: 0, blue: 255, alpha: 255)

/// A 40×30 PNG (scale 1): white, a grey 20×10 box at (10, 10), and optionally one black pixel.
private func boxImage(_ path: String, height: Double = 30, grey: Double = 0.5, dot: (x: Double, y: Double)? = nil)
    throws
{
    var items: [PageItem] = [
        .rectangle(RectangleItem(x: 10, y: 10, width: 20, height: 10, fill: Color(red: grey, green: grey, blue: grey)))
    ]
    if let dot {
        items.append(
            .rectangle(RectangleItem(x: dot.x, y: dot.y, width: 1, height: 1, fill: Color(red: 0, green: 0, blue: 0))))
    }
    try render(
        pages: [Page(width: 40, height: height, items: items)], to: path, options: RenderOptions(format: .png, scale: 1)
    )
}

private func document(_ body: String, attributes: String = "") -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document width=\"200\"\(attributes)>\n\(body)\n</document>\n"
}

// MARK: - typeset diff

@Suite("DiffSnapshot diff")
struct DiffCommandTests {
    @Test func identicalImagesExitZeroAndWriteNoDiffImage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try boxImage(folder + "/a.png")
        try boxImage(folder + "/b.png")
        let run = try typeset(["diff", "a.png", "b.png"], in: folder)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == ["0 of 1200 pixels differ (0.00%), largest channel difference 0", "identical"])
        #expect(try contents(folder) == ["a.png", "b.png"])
    }

    @Test func aChangedPixelIsCountedBoxedAndMarked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try boxImage(folder + "/a.png")
        try boxImage(folder + "/b.png", dot: (x: 33, y: 4))
        let run = try typeset(["diff", "a.png", "b.png"], in: folder)
        #expect(run.status == 1, "\(run)")
        #expect(
            run.lines.first
                == "1 of 1200 pixels differ (0.08%), largest channel difference 255, box x 33 y 4 width 1 height 1")
        #expect(run.lines.dropFirst() == ["diff image: a.diff.png", "different"])
        // Without --out the diff image goes beside A: A faded, the pixel in magenta.
        let diff = try PixelImage(contentsOf: folder + "/a.diff.png")
        #expect(diff.width == 40 && diff.height == 30)
        #expect(diff.pixel(x: 33, y: 4) == magenta)
        #expect(diff.allPixels().filter { $0 == magenta }.count == 1)
        let faded = try #require(diff.pixel(x: 15, y: 15))
        #expect(faded.red == faded.green && faded.red > 128 && faded.red < 255, "the grey box, faded: \(faded)")

        // --out names the diff image, and is written even when the images match; its folder is
        // made as render's and sheet's are.
        let named = try typeset(["diff", "a.png", "b.png", "--out", "out/d.png"], in: folder)
        #expect(named.status == 1 && named.lines == run.lines.prefix(1) + ["diff image: out/d.png", "different"], "\(named)")
        let written = try typeset(["diff", "b.png", "a.png", "--out", "out/d.png"], in: folder)
        #expect(written.status == 1 && written.lines.contains("diff image: out/d.png"))
        #expect(try PixelImage(contentsOf: folder + "/out/d.png").pixel(x: 33, y: 4) == magenta)
        // The diff image never overwrites an input.
        try FileManager.default.copyItem(atPath: folder + "/b.png", toPath: folder + "/out/b.diff.png")
        let clash = try typeset(["diff", "out/b.diff.png", "a.png", "--out", "out/./b.diff.png"], in: folder)
        #expect(clash.status == 2 && clash.stderr.contains("would overwrite an input"), "\(clash)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/out/b.diff.png"))
                == Data(contentsOf: URL(fileURLWithPath: folder + "/b.png")))
        let same = try typeset(["diff", "a.png", "a.png", "--out", "out/same.png"], in: folder)
        #expect(same.status == 0 && same.lines.last == "identical")
        #expect(try PixelImage(contentsOf: folder + "/out/same.png").allPixels().contains(magenta) == false)

        // A run that finds no difference takes away the diff image an earlier run left beside A
        // (a CI job keeping *.diff.png kept it as this run's); not a-2.diff.png, which may be
        // the diff image of an input a-2.png rather than of a page 2 of a.png.
        try FileManager.default.copyItem(atPath: folder + "/a.diff.png", toPath: folder + "/a-2.diff.png")
        let again = try typeset(["diff", "a.png", "a.png"], in: folder)
        #expect(again.status == 0 && again.lines.last == "identical", "\(again)")
        #expect(try contents(folder).filter { $0.hasSuffix(".diff.png") } == ["a-2.diff.png"])
    }

    @Test func toleranceAndMaxDiffDecideTheVerdict() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try boxImage(folder + "/a.png", grey: 128 / 255)
        try boxImage(folder + "/b.png", grey: 131 / 255)
        // The 200 pixels of the box differ by 3 in each colour channel.
        let strict = try typeset(["diff", "a.png", "b.png"], in: folder)
        #expect(strict.status == 1)
        #expect(
            strict.lines.first?.hasPrefix(
                "200 of 1200 pixels differ (16.67%), largest channel difference 3, box x 10 y 10 width 20 height 10")
                == true)
        let tolerant = try typeset(["diff", "a.png", "b.png", "--tolerance", "3", "--out", "d.png"], in: folder)
        #expect(tolerant.status == 0, "\(tolerant)")
        // The limits the verdict used are said ("0 of 1200 pixels differ" beside "largest
        // channel difference 3" did not say why).
        #expect(tolerant.lines.first == "0 of 1200 pixels differ by more than 3 (0.00%), largest channel difference 3")
        #expect(tolerant.lines.last == "within tolerance")
        #expect(try typeset(["diff", "a.png", "b.png", "--tolerance", "2"], in: folder).status == 1)
        // 200 of 1200 is 16.67%.
        let allowed = try typeset(["diff", "a.png", "b.png", "--max-diff", "17%"], in: folder)
        #expect(allowed.status == 0 && allowed.lines.last == "within tolerance", "\(allowed)")
        #expect(allowed.lines.first?.hasPrefix("200 of 1200 pixels differ (16.67%; 17% allowed), ") == true, "\(allowed)")
        // Beside a limit it rounds across, the share has the decimals that tell them apart
        // ("16.67%; 16.667% allowed" read as over it, and passed).
        for (limit, verdict, shown) in [("16.667%", "within tolerance", "16.6667"), ("16.666%", "different", "16.67")] {
            let close = try typeset(["diff", "a.png", "b.png", "--max-diff", limit], in: folder)
            #expect(close.lines.last == verdict && close.lines.first?.hasPrefix("200 of 1200 pixels differ (\(shown)%; \(limit.dropLast())% allowed), ") == true, "\(close)")
        }
        let both = try typeset(["diff", "a.png", "b.png", "--tolerance", "2", "--max-diff", "0.001"], in: folder)
        #expect(both.status == 1 && both.lines.first?.hasPrefix("200 of 1200 pixels differ by more than 2 (16.67%; 0.1% allowed), ") == true, "\(both)")
        // (As a fraction, a share above a tenth is refused: `0.17` may be 0.17%.)
        #expect(try typeset(["diff", "a.png", "b.png", "--max-diff", "0.17"], in: folder).status == 2)
        #expect(try typeset(["diff", "a.png", "b.png", "--max-diff", "0.1"], in: folder).status == 1)
        #expect(try typeset(["diff", "a.png", "b.png", "--max-diff", "16%"], in: folder).status == 1)
        // A share exactly at a percentage's limit passes, as at the fraction's: 7 of 1,000 pixels
        // failed --max-diff 0.7% (0.7 / 100 is a double above 0.007).
        for (name, dots) in [("blank", 0), ("dots", 7)] {
            let items = (0..<dots).map { PageItem.rectangle(RectangleItem(x: Double($0), y: 0, width: 1, height: 1, fill: .black)) }
            try render(pages: [Page(width: 40, height: 25, items: items)], to: folder + "/\(name).png",
                       options: RenderOptions(format: .png, scale: 1))
        }
        for limit in ["0.7%", "0.007"] {
            let run = try typeset(["diff", "blank.png", "dots.png", "--max-diff", limit], in: folder)
            #expect(run.status == 0 && run.lines.first?.hasPrefix("7 of 1000 pixels differ") == true, "\(limit): \(run)")
        }
        #expect(try typeset(["diff", "blank.png", "dots.png", "--max-diff", "0.69%"], in: folder).status == 1)
        // Bad values are usage errors.
        for bad in [
            ["--max-diff", "2"], ["--max-diff", "-1%"], ["--max-diff", "lots"], ["--tolerance", "256"],
            ["--tolerance", "-1"],
            // Decimal only: Swift's Double read 0x0.1 as 0.0625.
            ["--max-diff", "0x0.1"], ["--max-diff", "0x1p-4%"],
            // A fraction above a tenth, a percentage without its sign more likely: `1` let
            // every pixel differ, and another screen passed.
            ["--max-diff", "1"], ["--max-diff", "0.5"],
        ] {
            let run = try typeset(["diff", "a.png", "b.png"] + bad, in: folder)
            #expect(run.status == 2, "\(bad): \(run)")
        }
        let one = try typeset(["diff", "a.png", "b.png", "--max-diff", "1"], in: folder)
        #expect(one.stderr.contains("--max-diff 1 would let 100% of the pixels differ (a number without '%' is a fraction: 0.01 is 1%); write 1% for 1 percent"), "\(one)")
        #expect(try typeset(["diff", "blank.png", "dots.png", "--max-diff", "0.1"], in: folder).status == 0)
    }

    @Test func differentSizesAreADifferenceWhateverTheTolerance() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try boxImage(folder + "/a.png")
        try boxImage(folder + "/b.png", height: 32, dot: (x: 5, y: 31))
        let run = try typeset(["diff", "a.png", "b.png", "--tolerance", "255", "--max-diff", "100%", "--out", "d.png"], in: folder)
        #expect(run.status == 1, "\(run)")
        #expect(run.lines.first?.hasPrefix("A is 40×30 pixels, B is 40×32, 80 of 1280 pixels differ") == true, "\(run)")
        #expect(run.lines.first?.hasSuffix("box x 0 y 30 width 40 height 2") == true)
        #expect(run.lines.last == "different")
        // The rows only B has are pink in the diff image, and what B shows there (a dot, as a
        // line a longer page adds) magenta: the band was all magenta, and hid what was added.
        let band = try PixelImage(contentsOf: folder + "/d.png")
        let pink = PixelImage.Pixel(red: 255, green: 0xD8, blue: 255, alpha: 255)
        #expect(band.pixel(x: 5, y: 31) == magenta && band.pixel(x: 6, y: 31) == pink && band.pixel(x: 20, y: 30) == pink)
        #expect(band.allPixels().filter { $0 == magenta }.count == 1)
        // Two long thin images make no diff image of both their sides (30,000² pixels: 3.5 GB
        // and 30 s from two files of a hundred bytes).
        try Data(pngFile(width: 30000, height: 1)).write(to: URL(fileURLWithPath: folder + "/wide.png"))
        try Data(pngFile(width: 1, height: 30000)).write(to: URL(fileURLWithPath: folder + "/tall.png"))
        let thin = try typeset(["diff", "wide.png", "tall.png"], in: folder)
        #expect(thin.status == 1 && thin.lines.dropFirst() == ["no diff image: it would be 30000 × 30000 pixels", "different"], "\(thin)")
        // Of the pixels either has, all but the one both have differ: not rounded to 100%.
        #expect(thin.lines.first?.contains(", 59998 of 59999 pixels differ (>99.99%),") == true, "\(thin)")
        // Pixels neither image has are none of either: a wide image against a tall one differs
        // in the 32 pixels only one has (the 64 of neither counted too), and those of neither
        // are a grey checkerboard in the diff image, unlike any page. (The images are of one
        // colour: what only one has is pink, with nothing on it.)
        try Data(pngFile(width: 10, height: 2)).write(to: URL(fileURLWithPath: folder + "/w.png"))
        try Data(pngFile(width: 2, height: 10)).write(to: URL(fileURLWithPath: folder + "/t.png"))
        let crossed = try typeset(["diff", "w.png", "t.png", "--out", "crossed.png"], in: folder)
        #expect(
            crossed.lines.first == "A is 10×2 pixels, B is 2×10, 32 of 36 pixels differ (88.89%), "
                + "largest channel difference 255, box x 0 y 0 width 10 height 10", "\(crossed)")
        let image = try PixelImage(contentsOf: folder + "/crossed.png")
        let grey = PixelImage.Pixel(red: 0xD0, green: 0xD0, blue: 0xD0, alpha: 255)
        #expect(image.pixel(x: 5, y: 5) == grey && image.pixel(x: 5, y: 1) == pink && image.pixel(x: 1, y: 5) == pink)
    }

    @Test func markupInputsAreRenderedWithTheSameOptions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Hello</p>"), to: folder + "/a.xml")
        try write(document("<p>Hello</p>"), to: folder + "/same.xml")
        try write(document("<p>Hallo</p>"), to: folder + "/b.xml")
        let same = try typeset(["diff", "a.xml", "same.xml"], in: folder)
        #expect(same.status == 0 && same.lines.last == "identical", "\(same)")
        let different = try typeset(["diff", "a.xml", "b.xml"], in: folder)
        #expect(different.status == 1, "\(different)")
        #expect(different.lines.contains("diff image: a.diff.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/a.diff.png"))

        // Markup against its own rendering: the same at the same scale, a size mismatch at another.
        let rendered = try typeset(["render", "a.xml", "-o", "a-rendered.png", "--scale", "1"], in: folder)
        #expect(rendered.status == 0, "\(rendered)")
        let matching = try typeset(["diff", "a.xml", "a-rendered.png", "--scale", "1"], in: folder)
        #expect(matching.status == 0 && matching.lines.last == "identical", "\(matching)")
        let scaled = try typeset(["diff", "a.xml", "a-rendered.png"], in: folder)
        #expect(scaled.status == 1 && scaled.lines.first?.hasPrefix("A is 400×") == true, "\(scaled)")
        // The layout options apply to markup: a larger text size changes the page.
        let larger = try typeset(["diff", "a.xml", "a-rendered.png", "--scale", "1", "--text-size", "AX5"], in: folder)
        #expect(larger.status == 1, "\(larger)")

        // Page by page: a five-page document against a one-page one.
        let long = repositoryRoot + "/Examples/long-page.xml"
        let pages = try typeset(["diff", long, "a.xml", "--scale", "0.5", "--out", "pages.png"], in: folder)
        #expect(pages.status == 1, "\(pages)")
        #expect(pages.lines.first?.hasPrefix("page 1: A is 160×284 pixels, B is 100×") == true, "\(pages)")
        #expect(pages.lines.contains("A has 5 pages, B has 1"))
        #expect(pages.lines.last == "different")
        // Pages only A has are compared with a blank page, and each has its diff image: its
        // ink in magenta, the rest white.
        let lone = pages.lines.filter { $0.hasPrefix("page 2: ") || $0.hasPrefix("page 4: ") }
        #expect(lone.count == 2 && lone.allSatisfy { $0.contains("only in A; against a blank page, ") }, "\(pages)")
        #expect(pages.lines.contains("diff image: pages-4.png"))
        let fourth = try PixelImage(contentsOf: folder + "/pages-4.png")
        #expect(fourth.width == 160 && fourth.height == 284)
        let fourthPixels = fourth.allPixels()
        #expect(fourthPixels.contains(magenta) && fourthPixels.contains { $0.red == 255 && $0.green == 255 })
        // B is the one with more pages: the same, the page being B's.
        let reversed = try typeset(["diff", "a.xml", long, "--scale", "0.5", "--out", "reversed.png"], in: folder)
        #expect(reversed.lines.contains { $0.hasPrefix("page 3: only in B; against a blank page, ") }, "\(reversed)")
        let self4 = try typeset(["diff", long, long, "--scale", "0.5", "--out", "four.png"], in: folder)
        #expect(self4.status == 0, "\(self4)")
        #expect(self4.lines.filter { $0.hasPrefix("page ") }.count == 5)
        #expect(
            try contents(folder).filter { $0.hasPrefix("four") } == [
                "four-2.png", "four-3.png", "four-4.png", "four-5.png", "four.png",
            ])
        // The diff images are written all or none: one that cannot be (a folder in its place)
        // leaves the others as they were (pages 1 and 2 were new, 3 and 4 old, on a full disk).
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/pages.png"))
        try FileManager.default.removeItem(atPath: folder + "/pages-3.png")
        try FileManager.default.createDirectory(atPath: folder + "/pages-3.png", withIntermediateDirectories: false)
        let blocked = try typeset(["diff", long, "a.xml", "--scale", "0.4", "--out", "pages.png"], in: folder)
        #expect(blocked.status == 2 && blocked.stderr.contains("cannot write pages-3.png: it is a folder"), "\(blocked)")
        #expect(!blocked.lines.contains { $0.hasPrefix("diff image: ") }, "\(blocked)")
        #expect(blocked.lines.last == "different", "the verdict stands: \(blocked)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/pages.png")) == before)
    }

    /// The diff image never replaces a picture the markup shows, by --out or beside A (it did,
    /// without a word: "diff image: banner.png").
    @Test func theDiffImageNeverReplacesAPictureTheMarkupShows() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let picture = Data(pngFile(width: 4, height: 4))
        for name in ["banner.png", "d.diff.png"] { try picture.write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try write(document(#"<image src="banner.png" width="20" height="20"/><p>One</p>"#), to: folder + "/s1.xml")
        try write(document(#"<image src="banner.png" width="20" height="20"/><p>Two</p>"#), to: folder + "/s2.xml")
        let named = try typeset(["diff", "s1.xml", "s2.xml", "--out", "banner.png"], in: folder)
        #expect(named.status == 2 && named.stderr.contains("banner.png would overwrite an image the markup shows"), "\(named)")
        try write(document(#"<image src="d.diff.png" width="20" height="20"/><p>One</p>"#), to: folder + "/d.xml")
        let beside = try typeset(["diff", "d.xml", "s2.xml"], in: folder)
        #expect(beside.status == 2 && beside.stderr.contains("d.diff.png would overwrite an image the markup shows"), "\(beside)")
        // Even when the pages match: --out names another.
        let same = try typeset(["diff", "d.xml", "d.xml"], in: folder)
        #expect(same.status == 2 && same.stderr.contains("would overwrite an image the markup shows"), "\(same)")
        #expect(try typeset(["diff", "d.xml", "d.xml", "--out", "other.png"], in: folder).status == 0)
        // A picture named as a later page's diff image is none left by an earlier comparison.
        try picture.write(to: URL(fileURLWithPath: folder + "/s1-3.diff.png"))
        try write(document(#"<image src="s1-3.diff.png" width="20" height="20"/><p>One</p>"#), to: folder + "/s1.xml")
        let leftover = try typeset(["diff", "s1.xml", "s2.xml"], in: folder)
        #expect(leftover.status == 1 && !leftover.stderr.contains("left from an earlier comparison"), "\(leftover)")
        for name in ["banner.png", "d.diff.png", "s1-3.diff.png"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) == picture, "\(name)")
        }
    }

    /// The diff images of pages past the last, left by an earlier comparison of more pages, are
    /// said, as `render` says its leftover pages (not removed: `a-4.diff.png` may be the diff
    /// image of an input named `a-4`); a CI job that keeps every diff image showed them.
    @Test func diffImagesAnEarlierComparisonLeftAreSaid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/long-page.xml", toPath: folder + "/a.xml")
        try write(document("<p>Hello</p>"), to: folder + "/b.xml")
        let four = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(four.status == 1 && four.lines.contains("diff image: a-4.diff.png"), "\(four)")
        let withOut = try typeset(["diff", "a.xml", "a.xml", "--scale", "0.25", "--out", "o.png"], in: folder)
        #expect(withOut.status == 0 && withOut.lines.contains("diff image: o-4.png"), "\(withOut)")
        try write(document("<p>Hallo</p>"), to: folder + "/a.xml")
        let one = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(one.status == 1, "\(one)")
        #expect(
            one.stderr.contains(
                "warning: 'a-2.diff.png', 'a-3.diff.png', 'a-4.diff.png' and 1 more are left from an earlier comparison of more pages (this one has 1 page)"),
            "\(one)")
        let oneOut = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25", "--out", "o.png"], in: folder)
        #expect(oneOut.stderr.contains("warning: 'o-2.png', 'o-3.png', 'o-4.png' and 1 more are left from an earlier comparison"), "\(oneOut)")
        let same = try typeset(["diff", "b.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(!same.stderr.contains("left from"), "b's diff images are not a's: \(same)")
        // Only diff images typeset wrote: a file of the user's so named (a-6) is none.
        try? FileManager.default.removeItem(atPath: folder + "/a-5.diff.png")
        for page in [5, 7] { try FileManager.default.copyItem(atPath: folder + "/a-2.diff.png", toPath: folder + "/a-\(page).diff.png") }
        try write("", to: folder + "/a-6.diff.png")
        let five = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(five.stderr.contains("warning: 'a-2.diff.png', 'a-3.diff.png', 'a-4.diff.png' and 2 more are left"), "\(five)")
        for page in [5, 6, 7] { try FileManager.default.removeItem(atPath: folder + "/a-\(page).diff.png") }
        // Only failing pages have a diff image: those left need not follow each other, and are
        // named each (they were "'a-2.diff.png' to 'a-4.diff.png'").
        try FileManager.default.removeItem(atPath: folder + "/a-3.diff.png")
        let two = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(two.stderr.contains("warning: 'a-2.diff.png' and 'a-4.diff.png' are left from an earlier comparison"), "\(two)")
        try FileManager.default.removeItem(atPath: folder + "/a-2.diff.png")
        let gap = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(gap.stderr.contains("warning: 'a-4.diff.png' is left from an earlier comparison"), "\(gap)")
        // The diff image of an input named a-4 is another comparison's, not a leftover.
        try write(document("<p>Four</p>"), to: folder + "/a-4.xml")
        let other = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(!other.stderr.contains("left from"), "\(other)")
        // A file of the user's named as a diff image is not removed when the pages match (it was).
        try write("mine", to: folder + "/b.diff.png")
        let mine = try typeset(["diff", "b.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(mine.status == 0 && mine.stderr.contains("b.diff.png is not a diff image of this comparison"), "\(mine)")
        #expect(FileManager.default.fileExists(atPath: folder + "/b.diff.png"))
        // Nor replaced when they differ, nor written through a link (to a note it replaced).
        let notDrawn = try typeset(["diff", "b.xml", "a.xml", "--scale", "0.25"], in: folder)
        #expect(notDrawn.status == 1 && notDrawn.lines.contains(
            "no diff image: b.diff.png is not a diff image typeset wrote, and is left as it is (give --out)"), "\(notDrawn)")
        #expect(try String(contentsOfFile: folder + "/b.diff.png", encoding: .utf8) == "mine")
        try FileManager.default.removeItem(atPath: folder + "/b.diff.png")
        try write("notes", to: folder + "/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/b.diff.png", withDestinationPath: "notes.txt")
        let linked = try typeset(["diff", "b.xml", "a.xml", "--scale", "0.25"], in: folder)
        #expect(linked.status == 1 && linked.stdout.contains("no diff image: b.diff.png is a link to"), "\(linked)")
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "notes")
        try FileManager.default.removeItem(atPath: folder + "/b.diff.png")
        // Nor the diff image of a screen numbered as a page (login-2.xml's, by login.xml of two
        // pages whose pages match: it was removed), with --out too.
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/long-page.xml", toPath: folder + "/login.xml")
        try write(document("<p>Two</p>"), to: folder + "/login-2.xml")
        #expect(try typeset(["diff", "login-2.xml", "b.xml", "--scale", "0.25"], in: folder).status == 1)
        #expect(try typeset(["diff", "login-2.xml", "b.xml", "--scale", "0.25", "--out", "d/login-2.png"], in: folder).status == 1)
        #expect(try typeset(["diff", "login.xml", "login.xml", "--scale", "0.25"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/login-2.diff.png"))
        // Nor written over by login.xml's page 2 (it was, without a word).
        let theirs = try Data(contentsOf: URL(fileURLWithPath: folder + "/login-2.diff.png"))
        let longer = try typeset(["diff", "login.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(longer.status == 1 && longer.lines.contains { $0.hasPrefix("page 2: no diff image: login-2.diff.png may be another comparison's") }, "\(longer)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/login-2.diff.png")) == theirs)
        // ... and the comparison's diff images are all or none: the other pages' were written
        // beside it, a set whose page 2 was another comparison's.
        #expect(longer.lines.contains("no diff image: login-3.diff.png, since another page's cannot be written"), "\(longer)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/login.diff.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/login-3.diff.png"))
        let out = try typeset(["diff", "b.xml", "b.xml", "--scale", "0.25", "--out", "d/login.png"], in: folder)
        #expect(out.status == 0 && !out.stderr.contains("left from"), "\(out)")
    }

    /// A document rendered to PNG beside its markup (`page.png`, `page-2.png`) gets the diff
    /// image of its page 2, twice: `page-2.png` is its own page, no other comparison's input
    /// (no diff image was written, "may be another comparison's").
    @Test func aDocumentRenderedBesideItsMarkupHasItsDiffImages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraphs = "<p>Page one, first paragraph.</p><p>Page one, second paragraph.</p><p>Page two, first paragraph.</p>"
        try write(#"<document height="120">"# + paragraphs + "<p>Page two, second paragraph.</p></document>", to: folder + "/page.xml")
        try write(#"<document height="120">"# + paragraphs + "<p>Page two, CHANGED paragraph.</p></document>", to: folder + "/new.xml")
        #expect(try typeset(["render", "page.xml", "--format", "png", "--scale", "0.5"], in: folder).status == 0)
        #expect(try contents(folder).filter { $0.hasSuffix(".png") } == ["page-2.png", "page.png"])
        for run in 1...2 {
            let diff = try typeset(["diff", "page.xml", "new.xml", "--scale", "0.5"], in: folder)
            #expect(diff.status == 1 && diff.lines.contains("diff image: page-2.diff.png"), "run \(run): \(diff)")
        }
        // A screenshot of the user's named as page 2 (one typeset did not write, here Cairo's)
        // may be another comparison's A: its diff image is not written over.
        let shot = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10)
        #expect(cairo_surface_write_to_png(shot, folder + "/page-2.png") == CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(shot)
        let theirs = try typeset(["diff", "page.xml", "new.xml", "--scale", "0.5"], in: folder)
        #expect(theirs.status == 1 && theirs.lines.contains { $0.hasPrefix("page 2: no diff image: page-2.diff.png may be another comparison's") }, "\(theirs)")
        // A screen of its own named as page 2 still keeps its diff image.
        #expect(try typeset(["render", "page.xml", "--format", "png", "--scale", "0.5"], in: folder).status == 0)
        try write(#"<document><p>Other</p></document>"#, to: folder + "/page-2.xml")
        let other = try typeset(["diff", "page.xml", "new.xml", "--scale", "0.5"], in: folder)
        #expect(other.status == 1 && other.lines.contains { $0.hasPrefix("page 2: no diff image: page-2.diff.png may be another comparison's") }, "\(other)")
    }

    /// `--out`'s pages after the first, which the user did not name, are not written through a
    /// link or over a file typeset did not write (`d-2.png` a link to a note replaced it), and
    /// a comparison's diff images are all or none: page 1's is not written either, and the
    /// blocked file is said once.
    @Test func aDiffImageThatCannotBeWrittenStopsThemAll() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/long-page.xml", toPath: folder + "/a.xml")
        try write(document("<p>Hello</p>"), to: folder + "/b.xml")
        try write("notes", to: folder + "/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/d-2.png", withDestinationPath: "notes.txt")
        let out = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25", "--out", "d.png"], in: folder)
        #expect(out.status == 1 && out.lines.contains { $0.hasPrefix("page 2: no diff image: d-2.png is a link to") }, "\(out)")
        #expect(out.lines.contains("no diff image: d.png, since another page's cannot be written"), "\(out)")
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "notes")
        #expect(!FileManager.default.fileExists(atPath: folder + "/d.png"))
        try FileManager.default.removeItem(atPath: folder + "/d-2.png")
        try write("mine", to: folder + "/a-2.diff.png")
        let beside = try typeset(["diff", "a.xml", "b.xml", "--scale", "0.25"], in: folder)
        #expect(beside.status == 1 && beside.lines.contains { $0.hasPrefix("page 2: no diff image: a-2.diff.png is not a diff image typeset wrote") }, "\(beside)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.diff.png") && !beside.stderr.contains("a-2.diff.png"), "\(beside)")
    }

    /// Markup's pages are drawn in memory as they are compared (no folder of PNG files for a
    /// signal to leave behind): the same pixels, and the same diff image, resolution included,
    /// as the PNG files `render` writes of them.
    @Test func drawnPagesCompareAsTheirRenderedFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try #require(layoutMarkup(document("<p>Hello</p><p lang=\"ar\">مرحبا ١٢٣</p>"))).pages
        let b = try #require(layoutMarkup(document("<p>Hallo</p>"))).pages
        let filesA = try render(pages: a, to: folder + "/a.png", options: RenderOptions(format: .png, scale: 1.5))
        let filesB = try render(pages: b, to: folder + "/b.png", options: RenderOptions(format: .png, scale: 1.5))
        let fromFiles = try ImageDiff.compare(
            page: 0, of: ComparedPages(file: filesA[0]), ComparedPages(file: filesB[0]), tolerance: 0)
        let drawn = try ImageDiff.compare(
            page: 0, of: ComparedPages(pages: a, of: "a.xml", scale: 1.5), ComparedPages(pages: b, of: "b.xml", scale: 1.5),
            tolerance: 0)
        #expect(drawn.result == fromFiles.result && drawn.result.differingPixels > 0, "\(drawn.result)")
        #expect(try drawn.diffImage(for: folder + "/d.png").bytes == fromFiles.diffImage(for: folder + "/d.png").bytes)
        // A drawn page against its own file: identical. A lone page: against a blank page.
        let same = try ImageDiff.compare(
            page: 0, of: ComparedPages(pages: a, of: "a.xml", scale: 1.5), ComparedPages(file: filesA[0]), tolerance: 0)
        #expect(same.result.matches && same.result.maxChannelDifference == 0, "\(same.result)")
        let lone = try ImageDiff.compare(
            lonePage: 0, of: ComparedPages(pages: b, of: "b.xml", scale: 1.5), pageIsA: false, tolerance: 0)
        let loneFromFile = try ImageDiff.compare(lonePage: 0, of: ComparedPages(file: filesB[0]), pageIsA: false, tolerance: 0)
        #expect(lone.result == loneFromFile.result && lone.result.differingPixels > 0)
        #expect(try lone.diffImage(for: folder + "/l.png").bytes == loneFromFile.diffImage(for: folder + "/l.png").bytes)
        // Sizes a PNG cannot have are refused before any page is drawn.
        #expect(throws: RenderError.self) { try ComparedPages(pages: a, of: "a.xml", scale: 1000) }
    }

    /// A page only markup's side has is compared with a blank page of its own background (a
    /// page beginning with a coloured block at its corner was compared with a page of that
    /// colour: the block counted as unchanged, the white below it as changed).
    @Test func aLonePageOfMarkupIsComparedWithItsBackground() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let markup = document(
            ##"<stack background="#FF0000"><p>Header</p></stack><p>Body</p>"##, attributes: #" margin="0" height="120""#)
        let pages = try #require(layoutMarkup(markup)).pages
        let file = try render(pages: pages, to: folder + "/a.png", options: RenderOptions(format: .png, scale: 1))[0]
        let image = try PixelImage(contentsOf: file)
        let white = PixelImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255)
        #expect(image.pixel(x: 0, y: 0) != white, "the page begins with the block")
        let ink = image.allPixels().filter { $0 != white }.count
        let lone = try ImageDiff.compare(
            lonePage: 0, of: ComparedPages(pages: pages, of: "a.xml", scale: 1), pageIsA: true, tolerance: 0)
        #expect(lone.result.differingPixels == ink && ink > 0, "\(lone.result) \(ink)")
        #expect(lone.result.box?.y == 0 && lone.result.box?.x == 0, "\(lone.result)")
    }

    /// Pixels are compared as the files have them, not multiplied by alpha as Cairo keeps
    /// them: colours at low alpha differ as written (red 100 and 120 at alpha 3 were one
    /// premultiplied value: "identical"), and a difference of 1 at alpha 128 is 1 (it measured
    /// 2, and failed a tolerance of 1). Pixels that show nothing (alpha 0) are equal.
    @Test func translucentPixelsDifferByTheirOwnChannels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func pixel(_ name: String, _ rgba: [UInt8]) throws -> String {
            let path = folder + "/\(name).png"
            try Data(pngFile(width: 1, height: 1, colorType: 6, rows: [0] + rgba)).write(to: URL(fileURLWithPath: path))
            return path
        }
        let cases: [(a: [UInt8], b: [UInt8], difference: Int)] = [
            ([100, 100, 100, 3], [120, 100, 100, 3], 20),
            ([100, 100, 100, 64], [101, 100, 100, 64], 1),
            ([100, 100, 100, 3], [140, 100, 100, 3], 40),
            ([100, 100, 100, 128], [101, 100, 100, 128], 1),
            ([100, 100, 100, 128], [100, 100, 100, 129], 1),
            ([0, 0, 0, 255], [0, 0, 0, 254], 1),
            ([9, 9, 9, 0], [200, 0, 0, 0], 0),
        ]
        var compared = 0
        for (index, expected) in cases.enumerated() {
            let a = try pixel("a\(index)", expected.a)
            let b = try pixel("b\(index)", expected.b)
            for tolerance in Set([0, expected.difference]) {
                let result = try ImageDiff.compare(a, b, tolerance: tolerance)
                #expect(result.maxChannelDifference == expected.difference, "\(expected) \(result)")
                #expect(result.differingPixels == (expected.difference > tolerance ? 1 : 0), "\(expected) \(result)")
                compared += 1
            }
        }
        #expect(compared == 13)
        // The same pixels in the encodings Cairo decodes (typeset decodes 8-bit RGB and RGBA
        // with a 32 KiB zlib window itself) are the same pixels: grey with alpha, a 512-byte
        // window (libpng's for small images). Cairo's premultiplied pixels round their colours;
        // the exact side is rounded as they are.
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder + "/\(name).png"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        var twins = 0
        // (Colours at low alpha: Cairo's rounding changes each of these.)
        for (grey, alpha) in [(100, 3), (120, 3), (200, 16), (77, 9)] as [(UInt8, UInt8)] {
            let rgba = try file("rgba\(grey)-\(alpha)", pngFile(width: 1, height: 1, colorType: 6, rows: [0, grey, grey, grey, alpha]))
            let greyAlpha = try file("ga\(grey)-\(alpha)", pngFile(width: 1, height: 1, colorType: 4, rows: [0, grey, alpha]))
            let smallWindow = try file(
                "w\(grey)-\(alpha)", pngFile(width: 1, height: 1, colorType: 6, rows: [0, grey, grey, grey, alpha], zlibHeader: [0x18, 0x19]))
            #expect(try PixelImage(contentsOf: greyAlpha).roundedByCairo && PixelImage(contentsOf: smallWindow).roundedByCairo)
            for (a, b) in [(rgba, greyAlpha), (greyAlpha, rgba), (rgba, smallWindow), (smallWindow, greyAlpha)] {
                let result = try ImageDiff.compare(a, b, tolerance: 0)
                #expect(result.matches && result.maxChannelDifference == 0, "\(a) \(b): \(result)")
                twins += 1
            }
        }
        #expect(twins == 16)
    }

    @Test func unreadableInputsAreErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try boxImage(folder + "/a.png")
        try write("not a png", to: folder + "/text.png")
        try Data(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png")).prefix(60))
            .write(to: URL(fileURLWithPath: folder + "/cut.png"))
        try write(document("<p>Hello</bogus>"), to: folder + "/broken.xml")
        // A header of 16384 × 16384 pixels (a gigabyte decoded), refused before any data is read.
        let header = Array("IHDR".utf8) + [0, 0, 0x40, 0, 0, 0, 0x40, 0, 8, 6, 0, 0, 0]
        let crc = PNGFile.crc32(header)
        let huge = PNGFile.signature + [0, 0, 0, 13] + header + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) }
        try Data(huge).write(to: URL(fileURLWithPath: folder + "/huge.png"))
        for (arguments, message) in [
            (["missing.png", "a.png"], "missing.png:1:1: error: cannot read the file 'missing.png': no such file"),
            (["a.png", "text.png"], "text.png:1:1: error: not a PNG file"),
            // Located, and in the words of the image check, not Cairo's "error while reading".
            (["a.png", "cut.png"], "cut.png:1:1: error: cannot read it as PNG: not a valid PNG file (it is truncated"),
            // Refused before anything is compared or printed.
            (["a.png", "cut.png", "--out", "a.png"], "typeset: error: the diff image a.png would overwrite an input"),
            (["a.png", "."], ".:1:1: error: cannot read the file '.': it is a folder"),
            (["broken.xml", "a.png"], "broken.xml:3:9: error: end tag '</bogus>' does not match '<p>'"),
            // Both inputs' errors at once.
            (["broken.xml", "missing.png"], "broken.xml:3:9: error: end tag '</bogus>' does not match '<p>'"),
            (["a.png", "huge.png"], "huge.png:1:1: error: cannot read it as PNG: 16384×16384 pixels, 268435456 in all; images may have at most 67108864"),
        ] {
            let run = try typeset(["diff"] + arguments, in: folder)
            #expect(run.status == 2, "\(arguments): \(run)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        #expect(try contents(folder) == ["a.png", "broken.xml", "cut.png", "huge.png", "text.png"])
        #expect(try typeset(["diff", "a.png"], in: folder).status == 2)
        // The diff image is a PNG whatever --out's extension says; that is worth a warning.
        let named = try typeset(["diff", "a.png", "a.png", "--out", "diff.pdf"], in: folder)
        #expect(named.status == 0)
        #expect(named.stderr == "typeset: warning: writing PNG to 'diff.pdf', whose extension says PDF (the diff image is always PNG)\n")
        let jpeg = try typeset(["diff", "a.png", "a.png", "--out", "diff.jpg"], in: folder)
        #expect(jpeg.stderr == "typeset: warning: writing PNG to 'diff.jpg', whose extension says '.jpg' (the diff image is always PNG)\n")
        let both = try typeset(["diff", "broken.xml", "missing.png"], in: folder)
        #expect(both.stderr.contains("missing.png:1:1: error: cannot read the file 'missing.png': no such file"), "\(both)")
    }
}

// MARK: - typeset snapshot

@Suite("DiffSnapshot snapshot")
struct SnapshotCommandTests {
    /// A file name with a line feed is written on one line of the report, as on standard error
    /// (`FAIL new` and `line.xml: …` broke a log read line by line).
    @Test func fileNamesStayOnOneLineOfTheReport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>OK</label>"), to: folder + "/new\nline.xml")
        let run = try typeset(["snapshot", folder])
        #expect(run.status == 1)
        #expect(run.lines.count == 2 && run.lines[0].hasPrefix("FAIL new\\u{A}line.xml: no reference"), "\(run.lines)")
    }

    /// A references folder that cannot be listed is the folder's problem (exit 2, said once):
    /// every screen failed as having no reference, with a hint to record them that failed too.
    /// As root (CI), run as `nobody`, for whom mode 000 means no reading.
    @Test func anUnreadableReferenceFolderIsSaidOnce() throws {
        let folder = try temporaryFolder()
        defer {
            chmod(folder + "/__snapshots__", 0o755)
            try? FileManager.default.removeItem(atPath: folder)
        }
        chmod(folder, 0o755)
        try write(document("<label>OK</label>"), to: folder + "/a.xml")
        try FileManager.default.createDirectory(atPath: folder + "/__snapshots__", withIntermediateDirectories: false)
        chmod(folder + "/__snapshots__", 0)
        let arguments = ["snapshot", folder]
        let run = try typesetUnprivileged(arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("cannot read the folder '\(folder)/__snapshots__' of the references: Permission denied"), "\(run.stderr)")
        #expect(!run.stdout.contains("no reference"), "\(run.stdout)")
    }

    /// The hint for a missing reference names the options the check ran with: without them,
    /// running it recorded the pages in English at the default scale, and the next check failed.
    @Test func theRecordingHintKeepsTheOptions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document(#"<label key="ok">OK</label>"#), to: folder + "/a.xml")
        try write(#"{"ok": "موافق"}"#, to: folder + "/my strings.json")
        let check = ["snapshot", ".", "--locale", "ar", "--strings", "my strings.json", "--scale", "1"]
        let first = try typeset(check, in: folder)
        // Run by its path, as this one was: a bare `typeset` is bash's builtin.
        let hint = "\(try typesetInvocation()) snapshot . --update --scale 1 --locale ar --strings 'my strings.json'"
        #expect(first.lines == ["FAIL a.xml: no reference ./__snapshots__/ar/a.png (run `\(hint)` to record it)", "0 passed, 1 failed"])
        // What the hint says, as a shell would split it, records what the check compares with.
        let update = try typeset(["snapshot", ".", "--update", "--scale", "1", "--locale", "ar", "--strings", "my strings.json"], in: folder)
        #expect(update.status == 0, "\(update)")
        let again = try typeset(check, in: folder)
        #expect(again.status == 0 && again.lines.last == "1 passed, 0 failed", "\(again)")
    }

    /// One folder of screens checked in several locales and text sizes: each run keeps its
    /// references in a folder of its own, so recording one leaves the others alone (before, all
    /// were `__snapshots__/NAME.png`: recording Hebrew overwrote Arabic, and the Arabic check
    /// compared with Hebrew).
    @Test func eachLocaleAndTextSizeHasItsOwnReferences() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document(#"<label key="ok">OK</label>"#), to: folder + "/a.xml")
        try write(
            #"{"sourceLanguage": "en", "version": "1.0", "strings": {"ok": {"localizations": {"#
                + #""ar": {"stringUnit": {"state": "translated", "value": "موافق"}}, "#
                + #""he": {"stringUnit": {"state": "translated", "value": "אישור"}}}}}}"#,
            to: folder + "/L.xcstrings")
        let runs: [(options: [String], reference: String)] = [
            ([], "a.png"), (["--locale", "ar"], "ar/a.png"), (["--locale", "he", "--text-size", "ax1"], "he/AX1/a.png"),
            (["--text-size", "AX1"], "AX1/a.png"),
        ]
        for run in runs {
            let update = try typeset(["snapshot", ".", "--update", "--scale", "1", "--strings", "L.xcstrings"] + run.options, in: folder)
            #expect(update.lines == ["recorded ./__snapshots__/\(run.reference)", "1 passed, 0 failed"], "\(update)")
        }
        #expect(try contents(folder + "/__snapshots__") == ["AX1", "a.png", "ar", "he"])
        // Four different renders, each kept.
        let references = try runs.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/__snapshots__/" + $0.reference)) }
        #expect(Set(references).count == 4)
        // Each checks against its own; the size's and the locale's spelling do not matter, and
        // Large (the default size) is the run without the option.
        for options in [[], ["--locale", "ar"], ["--locale", "AR", "--text-size", "Large"], ["--locale", "he_IL"],
                        ["--locale", "HE", "--text-size", "AX1"], ["--text-size", "ax1"]] {
            let check = try typeset(["snapshot", ".", "--scale", "1", "--strings", "L.xcstrings"] + options, in: folder)
            if options == ["--locale", "he_IL"] {
                // Another locale (he-IL) has no references yet.
                #expect(check.lines.first?.hasPrefix("FAIL a.xml: no reference ./__snapshots__/he-IL/a.png") == true, "\(check)")
            } else {
                #expect(check.status == 0 && check.lines == ["1 passed, 0 failed"], "\(options): \(check)")
            }
        }
    }

    @Test func missingReferencesUpdatePassAndFail() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>Settings</label>"), to: folder + "/a.xml")
        try write(document("<label>الإعدادات</label>", attributes: " lang=\"ar\""), to: folder + "/b.xml")
        try write("not markup", to: folder + "/notes.txt")

        // No references yet: each file fails with a hint.
        let first = try typeset(["snapshot", "."], in: folder)
        let binary = try typesetInvocation()
        #expect(first.status == 1)
        #expect(
            first.lines == [
                "FAIL a.xml: no reference ./__snapshots__/a.png (run `\(binary) snapshot . --update` to record it)",
                "FAIL b.xml: no reference ./__snapshots__/b.png (run `\(binary) snapshot . --update` to record it)",
                "0 passed, 2 failed",
            ])

        // --update records them.
        let update = try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder)
        #expect(update.status == 0, "\(update)")
        #expect(update.lines.last == "2 passed, 0 failed")
        #expect(try contents(folder + "/__snapshots__") == ["a.png", "b.png"])
        let reference = try PixelImage(contentsOf: folder + "/__snapshots__/a.png")
        #expect(reference.width == 200)

        // Now everything passes, silently but for the last line.
        let pass = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(pass.status == 0, "\(pass)")
        #expect(pass.stdout == "2 passed, 0 failed\n")

        // A changed text fails with its figures and a diff image; when the diff image cannot be
        // written (a folder in its place), with its figures all the same (they were lost).
        try write(document("<label>Setting</label>"), to: folder + "/a.xml")
        let diffImage = folder + "/__snapshots__/a.diff.png"
        try FileManager.default.createDirectory(atPath: diffImage, withIntermediateDirectories: false)
        let blocked = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(blocked.status == 1 && blocked.lines.count == 2, "\(blocked)")
        #expect(blocked.lines.first.map { $0.contains(" pixels differ (") && $0.contains("; no diff image: ") } == true, "\(blocked)")
        // (The folder is no diff image: not removed, with what it holds.)
        try FileManager.default.removeItem(atPath: diffImage)
        let fail = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(fail.status == 1)
        #expect(fail.lines.count == 2)
        let line = try #require(fail.lines.first)
        #expect(line.hasPrefix("FAIL a.xml: "), "\(line)")
        #expect(line.hasSuffix("; diff image: \(diffImage)"), "\(line)")
        #expect(
            line.contains(" pixels differ (") && line.contains("largest channel difference") && line.contains("box x "))
        #expect(fail.lines.last == "1 passed, 1 failed")
        // The figures are those of comparing the reference with a fresh render.
        let fresh = try typeset(["render", "a.xml", "-o", "fresh.png", "--scale", "1"], in: folder)
        #expect(fresh.status == 0)
        let expected = try ImageDiff.compare(folder + "/__snapshots__/a.png", folder + "/fresh.png", tolerance: 0)
        #expect(line == "FAIL a.xml: \(expected); diff image: \(diffImage)")
        let diff = try PixelImage(contentsOf: diffImage)
        #expect(diff.allPixels().filter { $0 == magenta }.count == expected.differingPixels)
        #expect(expected.differingPixels > 0)

        // --update rewrites the changed reference and removes the stale diff image.
        let again = try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder)
        #expect(again.status == 0)
        #expect(
            again.lines == [
                "recorded \(folder)/__snapshots__/a.png", "removed \(diffImage)", "2 passed, 0 failed",
            ])
        #expect(try contents(folder + "/__snapshots__") == ["a.png", "b.png"])
        #expect(try typeset(["snapshot", folder, "--scale", "1"], in: folder).status == 0)
    }

    /// A page a screen has grown, without a reference, is compared with a blank page, with a
    /// diff image (SPEC 5.6: beside each failure): it said only "no reference", and a CI job's
    /// diff images showed nothing of it. A new screen's pages are not.
    @Test func aGrownScreensNewPageGetsADiffImage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = "<label>Settings</label>"
        try write(document(page, attributes: " height=\"60\""), to: folder + "/a.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "1"], in: folder).status == 0)
        try write(document(page + "<p>More</p>", attributes: " height=\"60\""), to: folder + "/a.xml")
        try write(document(page), to: folder + "/new.xml")
        let check = try typeset(["snapshot", ".", "--scale", "1"], in: folder)
        let binary = try typesetInvocation()
        #expect(check.status == 1, "\(check)")
        let grown = try #require(check.lines.first { $0.hasPrefix("FAIL a.xml page 2: ") }, "\(check)")
        #expect(grown.hasPrefix("FAIL a.xml page 2: no reference ./__snapshots__/a-2.png (run `\(binary) snapshot . --update --scale 1` to record it); against a blank page, "), "\(grown)")
        #expect(grown.hasSuffix("; diff image: ./__snapshots__/a-2.diff.png") && grown.contains(" pixels differ ("), "\(grown)")
        let diff = try PixelImage(contentsOf: folder + "/__snapshots__/a-2.diff.png")
        #expect(diff.allPixels().contains(magenta))
        #expect(check.lines.contains("FAIL new.xml: no reference ./__snapshots__/new.png (run `\(binary) snapshot . --update --scale 1` to record it)"), "\(check)")
        #expect(try contents(folder + "/__snapshots__") == ["a-2.diff.png", "a.png"])
        // Recorded, the page passes and its diff image goes.
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "1"], in: folder).status == 0)
        #expect(try contents(folder + "/__snapshots__") == ["a-2.png", "a.png", "new.png"])
    }

    /// --update keeps a reference that has the page's pixels in other bytes (one an earlier
    /// version wrote, before PNGs carried a pHYs chunk), so that updating after an upgrade
    /// rewrites only the screens that changed; those are rewritten as before.
    @Test func updateKeepsAReferenceWithThePagesPixels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>Settings</label>"), to: folder + "/a.xml")
        try write(document("<label>General</label>"), to: folder + "/b.xml")
        #expect(try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder).status == 0)

        // a.png without its pHYs and bKGD chunks: the same pixels in other bytes.
        let path = folder + "/__snapshots__/a.png"
        let recorded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let earlier = PNGFile.essentialChunks(of: recorded)
        #expect(earlier != recorded)
        try Data(earlier).write(to: URL(fileURLWithPath: path))
        try Data(recorded).write(to: URL(fileURLWithPath: folder + "/recorded.png"))
        #expect(try ImageDiff.compare(path, folder + "/recorded.png", tolerance: 0).matches, "the same pixels")

        try write(document("<label>Général</label>"), to: folder + "/b.xml")
        let update = try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder)
        #expect(update.status == 0, "\(update)")
        #expect(update.lines == ["recorded \(folder)/__snapshots__/b.png", "2 passed, 0 failed"])
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == earlier, "a.png was rewritten")
        #expect(try typeset(["snapshot", folder, "--scale", "1"], in: folder).status == 0)
    }

    /// A reference with the page's image data in other chunks passes without being decoded
    /// (`PNGFile.samePixelData`); one whose image data is another encoding of the same pixels
    /// (zlib at level 9) passes by its decoded pixels; --update keeps both. Changed data fails.
    @Test func referencesOfThePagesPixelsInOtherBytesPass() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>Settings</label><p>Wi-Fi 6E · 2.4 GHz</p>"), to: folder + "/a.xml")
        try write(document("<label dir=\"rtl\" lang=\"ar\">الإعدادات 2026</label>"), to: folder + "/b.xml")
        #expect(try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder).status == 0)
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(body.count) + typed + bigEndian(Int(PNGFile.crc32(typed)))
        }
        /// The reference at `path` with its image data as `change` makes it (given the data and the
        /// length of a row of it, filter byte first), in two IDAT chunks.
        func rewrite(_ path: String, _ change: ([UInt8], Int) -> [UInt8]) throws -> [UInt8] {
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let chunks = Array(PNGFile.chunks(of: png))
            let data = chunks.filter { $0.type.elementsEqual("IDAT".utf8) }.flatMap { png[$0.data] }
            let changed = change(data, 1 + 3 * PNGFile.bigEndian(png, 16))
            let rewritten = PNGFile.signature + chunk("IHDR", Array(png[chunks[0].data]))
                + chunk("IDAT", Array(changed.prefix(changed.count / 2))) + chunk("IDAT", Array(changed.dropFirst(changed.count / 2)))
                + chunk("IEND", [])
            try Data(rewritten).write(to: URL(fileURLWithPath: path))
            return rewritten
        }
        let (a, b) = (folder + "/__snapshots__/a.png", folder + "/__snapshots__/b.png")
        let recut = try rewrite(a) { data, _ in data }
        /// The rows of image `data` (`rowLength` bytes each), inflated.
        func inflated(_ data: [UInt8], _ rowLength: Int) -> [UInt8] {
            var rows = [UInt8](repeating: 0, count: 4096 * rowLength)
            var length = uLong(rows.count)
            #expect(uncompress(&rows, &length, data, uLong(data.count)) == Z_OK)
            return Array(rows.prefix(Int(length)))
        }
        func deflated(_ rows: [UInt8], level: Int32) -> [UInt8] {
            var size = compressBound(uLong(rows.count))
            var compressed = [UInt8](repeating: 0, count: Int(size))
            #expect(compress2(&compressed, &size, rows, uLong(rows.count), level) == Z_OK)
            return Array(compressed.prefix(Int(size)))
        }
        let reencoded = try rewrite(b) { data, rowLength in
            let again = deflated(inflated(data, rowLength), level: 9)
            #expect(again != data, "another encoding")
            return again
        }
        let check = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(check.status == 0 && check.lines == ["2 passed, 0 failed"], "\(check)")
        let update = try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder)
        #expect(update.status == 0 && update.lines == ["2 passed, 0 failed"], "\(update)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: a))) == recut, "a.png was rewritten")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: b))) == reencoded, "b.png was rewritten")

        // The image data changed: a pixel of a's middle row in another colour (its red, stored).
        _ = try rewrite(a) { data, rowLength in
            var rows = inflated(data, rowLength)
            rows[rowLength * (rows.count / rowLength / 2) + 1 + 3 * 10] ^= 0x40
            return deflated(rows, level: 0)
        }
        let changed = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(changed.status == 1 && changed.lines.last == "1 passed, 1 failed", "\(changed)")
    }

    /// A translucent page (RGBA, from Cairo's PNG writer) whose reference has other bytes is
    /// compared by its pixels, as read back from its PNG: the same pixels pass, a label a little
    /// more opaque differs by its alpha alone.
    @Test func translucentPagesAreComparedByTheirPixels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clear = " background=\"#FFFFFF00\""
        try write(document("<label color=\"#FF000080\">Settings</label>", attributes: clear), to: folder + "/a.xml")
        #expect(try typeset(["snapshot", folder, "--update", "--scale", "1"], in: folder).status == 0)
        let path = folder + "/__snapshots__/a.png"
        let recorded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(recorded[25] == 6, "an RGBA PNG")
        let stripped = PNGFile.essentialChunks(of: recorded)
        #expect(stripped != recorded)
        try Data(stripped).write(to: URL(fileURLWithPath: path))
        let same = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(same.status == 0 && same.lines == ["1 passed, 0 failed"], "\(same)")

        try write(document("<label color=\"#FF000084\">Settings</label>", attributes: clear), to: folder + "/a.xml")
        let changed = try typeset(["snapshot", folder, "--scale", "1"], in: folder)
        #expect(changed.status == 1, "\(changed)")
        #expect(changed.lines.first?.contains("largest channel difference 4,") == true, "\(changed)")
        let tolerated = try typeset(["snapshot", folder, "--scale", "1", "--tolerance", "4"], in: folder)
        #expect(tolerated.status == 0, "\(tolerated)")
    }

    /// A SnapshotFolder lists the folder once: after its own `record` removed a stale reference
    /// and a diff image, the same value checks and records again without missing them.
    @Test func oneFolderValueRecordsAndChecksAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let references = folder + "/__snapshots__"
        try FileManager.default.createDirectory(atPath: references, withIntermediateDirectories: true)
        let pages = (1...2).map { page in
            let box = RectangleItem(x: 2, y: 2, width: Double(page), height: 4, fill: .black)
            return Page(width: 20, height: 10, items: [.rectangle(box)])
        }
        for file in ["a-3.png", "a.diff.png"] {
            try boxImage(references + "/" + file)
        }
        let snapshots = SnapshotFolder(path: references)
        let first = try snapshots.record(pages: pages, name: "a", options: SnapshotOptions(scale: 1), otherNames: ["a", "b"])
        let removed = first.removed.map { ($0 as NSString).lastPathComponent }
        #expect(first.written.count == 2 && removed == ["a-3.png", "a.diff.png"])
        let options = SnapshotOptions(scale: 1)
        let check = try snapshots.check(pages: pages, name: "a", options: options, otherNames: ["a", "b"])
        #expect(check.passed && check.extraReferences.isEmpty, "\(check)")
        let again = try snapshots.record(pages: pages, name: "a", options: SnapshotOptions(scale: 1), otherNames: ["a", "b"])
        #expect(again.written.isEmpty && again.removed.isEmpty)
        #expect(try contents(references) == ["a-2.png", "a.png"])
    }

    @Test func toleranceAndMaxDiffApplyPerPage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Grey text</p>", attributes: " color=\"#808080\""), to: folder + "/a.xml")
        #expect(try typeset(["snapshot", ".", "--update"], in: folder).status == 0)
        // Two levels darker: every inked pixel differs by at most 2.
        try write(document("<p>Grey text</p>", attributes: " color=\"#7E7E7E\""), to: folder + "/a.xml")
        let strict = try typeset(["snapshot", "."], in: folder)
        #expect(strict.status == 1 && strict.lines.last == "0 passed, 1 failed", "\(strict)")
        #expect(strict.lines.first?.contains("largest channel difference 2,") == true, "\(strict)")
        let tolerant = try typeset(["snapshot", ".", "--tolerance", "2"], in: folder)
        #expect(tolerant.stdout == "1 passed, 0 failed\n", "\(tolerant)")
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/__snapshots__/a.diff.png"),
            "a pass removes the old diff image")
        let share = try typeset(["snapshot", ".", "--max-diff", "50%"], in: folder)
        #expect(share.status == 0, "\(share)")
        let tiny = try typeset(["snapshot", ".", "--max-diff", "0.000001", "--tolerance", "1"], in: folder)
        #expect(tiny.status == 1, "\(tiny)")
        // The failure says the limits it was held to.
        #expect(tiny.lines.first?.contains(" pixels differ by more than 1 (") == true, "\(tiny)")
        #expect(tiny.lines.first?.contains("%; 0.0001% allowed), largest channel difference 2,") == true, "\(tiny)")
    }

    @Test func markupErrorsFailTheirFileOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>Fine</label>"), to: folder + "/good.xml")
        try write(document("<labl>Typo</labl>"), to: folder + "/bad.xml")
        let update = try typeset(["snapshot", ".", "--update"], in: folder)
        #expect(update.status == 1)
        #expect(update.lines.last == "1 passed, 1 failed")
        #expect(try contents(folder + "/__snapshots__") == ["good.png"])
        let run = try typeset(["snapshot", "."], in: folder)
        #expect(run.status == 1)
        #expect(run.lines.count == 2, "\(run)")
        #expect(run.lines.first == "FAIL bad.xml: 1 error (given above)", "\(run)")
        // Said once, on standard error, at the start of its line as every command says errors.
        #expect(run.stderr.hasPrefix("./bad.xml:3:1: error: unknown element 'labl'"), "\(run)")
        #expect(run.stderr.components(separatedBy: "unknown element").count == 2, "\(run)")
        #expect(run.lines.last == "1 passed, 1 failed")

        // good.diff.xml's reference would be good.diff.png, the name of good.xml's diff image.
        try FileManager.default.removeItem(atPath: folder + "/bad.xml")
        try write(document("<label>Diff</label>"), to: folder + "/good.diff.xml")
        let clash = try typeset(["snapshot", ".", "--update"], in: folder)
        #expect(clash.status == 1)
        #expect(clash.lines.first?.hasPrefix("FAIL good.diff.xml: a markup file's name cannot end in '.diff'") == true, "\(clash)")
        #expect(clash.lines.last == "1 passed, 1 failed")
        #expect(try contents(folder + "/__snapshots__") == ["good.png"])
    }

    /// `a.xml` and `a.XML` would share `a.png`: the update recorded both, one over the other,
    /// said "2 passed", and the next check failed one of them.
    @Test func filesSharingAReferenceFail() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>lower</label>"), to: folder + "/a.xml")
        try write(document("<label>UPPER</label>"), to: folder + "/a.XML")
        try write(document("<label>Other</label>"), to: folder + "/b.xml")
        let update = try typeset(["snapshot", ".", "--update"], in: folder)
        #expect(update.status == 1, "\(update)")
        #expect(update.lines.contains("FAIL a.XML: its reference would be a.png, as would that of 'a.xml'; rename one of the files"), "\(update)")
        #expect(update.lines.contains("FAIL a.xml: its reference would be a.png, as would that of 'a.XML'; rename one of the files"), "\(update)")
        #expect(update.lines.last == "1 passed, 2 failed", "\(update)")
        #expect(try contents(folder + "/__snapshots__") == ["b.png"])
        let check = try typeset(["snapshot", "."], in: folder)
        #expect(check.status == 1 && check.lines.last == "1 passed, 2 failed", "\(check)")
    }

    /// Hidden files are no screens, as a shell's `*.xml` leaves them out: an editor's lock file
    /// or macOS's `._` copy failed every run.
    @Test func hiddenFilesAreNoScreens() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<label>Screen</label>"), to: folder + "/screen.xml")
        try write("\0\0not markup", to: folder + "/._screen.xml")
        try FileManager.default.createSymbolicLink(atPath: folder + "/.#screen.xml", withDestinationPath: "nobody@host.1234")
        let update = try typeset(["snapshot", ".", "--update"], in: folder)
        #expect(update.status == 0 && update.lines.last == "1 passed, 0 failed", "\(update)")
        #expect(try contents(folder + "/__snapshots__") == ["screen.png"])
    }

    @Test func pagesHaveNumberedReferencesAndStaleOnesFail() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraphs = (1...6).map { "<p>Paragraph \($0) with a few words.</p>" }.joined(separator: "\n")
        try write(document(paragraphs, attributes: " height=\"120\""), to: folder + "/long.xml")
        let update = try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder)
        #expect(update.status == 0, "\(update)")
        let references = try contents(folder + "/__snapshots__")
        #expect(
            references.count >= 3 && references.first == "long-2.png" && references.last == "long.png", "\(references)")
        #expect(try typeset(["snapshot", ".", "--scale", "0.5"], in: folder).status == 0)

        // Fewer pages: the reference of a page that is gone fails, and --update removes it.
        try write(document("<p>Paragraph 1.</p>", attributes: " height=\"120\""), to: folder + "/long.xml")
        let fewer = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(fewer.status == 1)
        #expect(
            fewer.lines.contains {
                $0.hasPrefix(
                    "FAIL long.xml: ./__snapshots__/long-2.png is the reference of a page the document no longer has")
            })
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        #expect(try contents(folder + "/__snapshots__") == ["long.png"])

        // Page 2 of long.xml would be recorded as long-2.png, the reference of long-2.xml: long.xml
        // fails and records none of its pages (it recorded its others and they passed after).
        try write(document(paragraphs, attributes: " height=\"120\""), to: folder + "/long.xml")
        try write(document("<p>Another document.</p>"), to: folder + "/long-2.xml")
        let clash = try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder)
        #expect(clash.status == 1)
        #expect(clash.lines.contains { $0.hasPrefix("FAIL long.xml page 2: its reference would be the first-page reference of long-2.xml") }, "\(clash)")
        #expect(clash.lines.last == "1 passed, 1 failed")
        #expect(try contents(folder + "/__snapshots__") == ["long-2.png", "long.png"])
        // Its pages without a reference are not told to run --update, which records none of them.
        let unchecked = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(unchecked.status == 1)
        let noReference = unchecked.lines.filter { $0.contains(": no reference ") }
        let binary = try typesetInvocation()
        #expect(!noReference.isEmpty && noReference.allSatisfy { $0.contains("(rename the files, then run `\(binary) snapshot .") }, "\(unchecked)")
        try FileManager.default.removeItem(atPath: folder + "/long-2.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        try write(document("<p>Paragraph 1.</p>", attributes: " height=\"120\""), to: folder + "/long.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        #expect(try contents(folder + "/__snapshots__") == ["long.png"])

        // A reference no markup file uses fails (its screen's markup is gone), and --update
        // removes it.
        try FileManager.default.copyItem(
            atPath: folder + "/__snapshots__/long.png", toPath: folder + "/__snapshots__/old.png")
        let stray = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(stray.status == 1, "\(stray)")
        #expect(stray.lines.contains("FAIL ./__snapshots__/old.png: the reference of no markup file in '.' (--update removes it)"))
        #expect(stray.lines.last == "1 passed, 1 failed")
        #expect(
            try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).lines.contains(
                "removed ./__snapshots__/old.png (no markup file uses it)"))
        #expect(try contents(folder + "/__snapshots__") == ["long.png"])

        // Names are told apart by their bytes: the reference of a screen `café` composed is no
        // reference of one decomposed (it was taken for one, never named, never removed).
        try FileManager.default.moveItem(atPath: folder + "/long.xml", toPath: folder + "/cafe\u{301}.xml")
        try FileManager.default.moveItem(
            atPath: folder + "/__snapshots__/long.png", toPath: folder + "/__snapshots__/caf\u{E9}.png")
        let composed = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(composed.status == 1 && composed.lines.last == "0 passed, 2 failed", "\(composed)")
        #expect(composed.lines.contains("FAIL ./__snapshots__/caf\u{E9}.png: the reference of no markup file in '.' (--update removes it)"))
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        #expect(try contents(folder + "/__snapshots__").map { Array($0.utf8) } == [Array("cafe\u{301}.png".utf8)])
    }

    /// A screen whose markup is gone loses its diff image with its reference (`--update` removed
    /// the reference only, and every later run passed beside the stale diff image); a check
    /// removes a diff image no markup file uses too.
    @Test func aGoneScreensDiffImageIsRemoved() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Bluetooth: On</p>"), to: folder + "/a.xml")
        try write(document("<p>Other</p>"), to: folder + "/b.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        try write(document("<p>Bluetooth: Off</p>"), to: folder + "/a.xml")
        #expect(try typeset(["snapshot", ".", "--scale", "0.5"], in: folder).status == 1)
        #expect(try contents(folder + "/__snapshots__") == ["a.diff.png", "a.png", "b.png"])
        try FileManager.default.removeItem(atPath: folder + "/a.xml")
        let update = try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder)
        #expect(update.status == 0, "\(update)")
        #expect(update.lines.contains("removed ./__snapshots__/a.diff.png (no markup file uses it)"), "\(update)")
        #expect(try contents(folder + "/__snapshots__") == ["b.png"])
        try FileManager.default.copyItem(atPath: folder + "/__snapshots__/b.png", toPath: folder + "/__snapshots__/ghost.diff.png")
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 0 && check.lines.last == "1 passed, 0 failed", "\(check)")
        #expect(try contents(folder + "/__snapshots__") == ["b.png"])
    }

    /// The diff images of pages a document no longer has go too, when the run passes (they
    /// stayed, unnamed, and a CI job that keeps every diff image showed them after each run),
    /// and the temporary files a killed run left are named.
    @Test func aGonePagesDiffImageIsRemoved() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraphs = (1...6).map { "<p>Paragraph \($0) with a few words.</p>" }.joined(separator: "\n")
        try write(document(paragraphs, attributes: " height=\"120\""), to: folder + "/long.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        #expect(try contents(folder + "/__snapshots__").count >= 3)
        // The document cut to one page, its references recorded (or the others removed from
        // git); then as a run that failed on page 3 left it, and one that was killed.
        try write(document("<p>Paragraph 1.</p>", attributes: " height=\"120\""), to: folder + "/long.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        try FileManager.default.copyItem(
            atPath: folder + "/__snapshots__/long.png", toPath: folder + "/__snapshots__/long-3.diff.png")
        try write("", to: folder + "/__snapshots__/.long-2.png.kexnld66a8mq.tmp")
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 0 && check.lines.last == "1 passed, 0 failed", "\(check)")
        #expect(try contents(folder + "/__snapshots__") == ["long.png"])
        #expect(FileManager.default.fileExists(atPath: folder + "/__snapshots__/.long-2.png.kexnld66a8mq.tmp"), "named, not removed")
        #expect(
            check.stderr.contains(
                "warning: './__snapshots__/.long-2.png.kexnld66a8mq.tmp' looks like the temporary file of a run that was killed"),
            "\(check.stderr)")
        #expect(check.stderr.hasSuffix("(it is no reference)\n"), "\(check.stderr)")
    }

    /// A diff image is never written through a symbolic link (`x.diff.png` a link to `y.png`
    /// put x's diff image in y's reference; a link out of the repository made or replaced the
    /// file it named), nor over a file typeset did not write; such a file is named and kept
    /// (a check run removed it without a word), a link removed when its page passes.
    @Test func aDiffImageIsNeverWrittenThroughALinkNorOverAnotherFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["x", "y", "z"] { try write(document("<p>Screen \(name)</p>"), to: folder + "/\(name).xml") }
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        let snapshots = folder + "/__snapshots__"
        let yBefore = try Data(contentsOf: URL(fileURLWithPath: snapshots + "/y.png"))
        try FileManager.default.createSymbolicLink(atPath: snapshots + "/x.diff.png", withDestinationPath: "y.png")
        try FileManager.default.createSymbolicLink(atPath: snapshots + "/z.diff.png", withDestinationPath: folder + "/outside.png")
        try write("my notes", to: snapshots + "/gone.diff.png")
        for name in ["x", "z"] { try write(document("<p>Screen \(name), changed</p>"), to: folder + "/\(name).xml") }
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 1 && check.lines.last == "1 passed, 2 failed", "\(check)")
        #expect(check.stdout.contains("no diff image: ./__snapshots__/x.diff.png is a link to"), "\(check)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshots + "/y.png")) == yBefore)
        #expect(!FileManager.default.fileExists(atPath: folder + "/outside.png"))
        #expect(check.stderr.contains("warning: './__snapshots__/gone.diff.png' is named as a diff image, but typeset did not write it"), "\(check)")
        #expect(try String(contentsOfFile: snapshots + "/gone.diff.png", encoding: .utf8) == "my notes")
        // A note where a failing page's diff image goes is not replaced either; once the
        // pages pass, the links go and the note stays.
        try FileManager.default.removeItem(atPath: snapshots + "/gone.diff.png")
        try write("my notes", to: snapshots + "/y.diff.png")
        try write(document("<p>Screen y, changed</p>"), to: folder + "/y.xml")
        let note = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(note.stdout.contains("no diff image: ./__snapshots__/y.diff.png is not a diff image typeset wrote"), "\(note)")
        #expect(try String(contentsOfFile: snapshots + "/y.diff.png", encoding: .utf8) == "my notes")
        for name in ["x", "y", "z"] { try write(document("<p>Screen \(name)</p>"), to: folder + "/\(name).xml") }
        let passed = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(passed.status == 0 && passed.lines.last == "3 passed, 0 failed", "\(passed)")
        #expect(try contents(snapshots) == ["x.png", "y.diff.png", "y.png", "z.png"])
    }

    /// `--update` keeps a reference the check passes by `--tolerance` and `--max-diff` (another
    /// machine's rasterizing): it rewrote every reference, and touched screens nobody changed.
    @Test func updateKeepsAReferenceWithinTheTolerance() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Grey text</p>", attributes: " color=\"#808080\""), to: folder + "/a.xml")
        try write(document("<p>Other</p>"), to: folder + "/b.xml")
        #expect(try typeset(["snapshot", ".", "--update"], in: folder).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/__snapshots__/a.png"))
        // Two levels darker: within --tolerance 2, beyond 1.
        try write(document("<p>Grey text</p>", attributes: " color=\"#7E7E7E\""), to: folder + "/a.xml")
        let kept = try typeset(["snapshot", ".", "--update", "--tolerance", "2"], in: folder)
        #expect(kept.status == 0 && !kept.stdout.contains("recorded"), "\(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/__snapshots__/a.png")) == before)
        let share = try typeset(["snapshot", ".", "--update", "--max-diff", "50%"], in: folder)
        #expect(share.status == 0 && !share.stdout.contains("recorded"), "\(share)")
        let written = try typeset(["snapshot", ".", "--update", "--tolerance", "1"], in: folder)
        #expect(written.lines.contains("recorded ./__snapshots__/a.png") && !written.stdout.contains("b.png"), "\(written)")
    }

    /// A screen that fails without being compared (its markup has an error, its reference is no
    /// PNG) loses the diff image an earlier run left: it stayed, and was taken for this run's.
    @Test func aDiffImageThisRunDidNotMakeIsRemoved() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Bluetooth: On</p>"), to: folder + "/a.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        for breakIt in [
            { try write("<document><p>x</document>", to: folder + "/a.xml") },
            { try write("not a PNG", to: folder + "/__snapshots__/a.png") },
        ] {
            try write(document("<p>Bluetooth: Off</p>"), to: folder + "/a.xml")
            #expect(try typeset(["snapshot", ".", "--scale", "0.5"], in: folder).status == 1)
            #expect(try contents(folder + "/__snapshots__") == ["a.diff.png", "a.png"])
            try breakIt()
            let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
            #expect(check.status == 1 && check.lines.last == "0 passed, 1 failed", "\(check)")
            #expect(try contents(folder + "/__snapshots__") == ["a.png"])
        }
    }

    /// `--junit FILE` writes the results as a JUnit XML report, for a CI system's test view: a
    /// case per markup file, a failing one with its lines (and its markup errors), a case per
    /// reference of no markup file. Well-formed XML whatever the messages hold; written again
    /// over its own report, though named .xml; never inside the folder, nor over markup.
    @Test func aJUnitReportListsEveryScreen() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Bluetooth: On</p>"), to: folder + "/a.xml")
        try write(document("<p>Wi-Fi</p>"), to: folder + "/b.xml")
        #expect(try typeset(["snapshot", "shots", "--update", "--scale", "0.5"], in: folder).status == 2)  // (no such folder)
        try FileManager.default.createDirectory(atPath: folder + "/shots", withIntermediateDirectories: true)
        for name in ["a.xml", "b.xml"] { try FileManager.default.moveItem(atPath: folder + "/" + name, toPath: folder + "/shots/" + name) }
        #expect(try typeset(["snapshot", "shots", "--update", "--scale", "0.5"], in: folder).status == 0)
        try write(document("<p>Bluetooth: Off</p>"), to: folder + "/shots/a.xml")
        try write("<document><p>1 < 2 & \"x\"</p></document>", to: folder + "/shots/c.xml")
        try FileManager.default.copyItem(atPath: folder + "/shots/__snapshots__/b.png", toPath: folder + "/shots/__snapshots__/gone.png")
        for _ in 0..<2 {  // the second over the first's report
            let run = try typeset(["snapshot", "shots", "--scale", "0.5", "--junit", "reports/snapshot.xml"], in: folder)
            #expect(run.status == 1 && run.stdout.hasSuffix("1 passed, 3 failed\n"), "\(run)")
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/reports/snapshot.xml")))
        let root = try XMLReader.read(bytes, file: "snapshot.xml")
        func elements(_ element: XMLElement) -> [XMLElement] {
            element.children.compactMap { if case .element(let child) = $0 { child } else { nil } }
        }
        func attribute(_ element: XMLElement, _ name: String) -> String? { element.attributes.first { $0.name == name }?.value }
        #expect(root.name == "testsuites" && attribute(root, "tests") == "4" && attribute(root, "failures") == "3")
        let cases = elements(root).flatMap(elements)
        #expect(cases.map { attribute($0, "name") ?? "" } == ["a.xml", "b.xml", "c.xml", "shots/__snapshots__/gone.png"])
        let failures = cases.map { elements($0).first { $0.name == "failure" } }
        #expect(failures.map { $0 == nil } == [false, true, false, false])
        #expect(failures[0].flatMap { attribute($0, "message") }?.hasPrefix("FAIL a.xml: ") == true)
        let text = failures[2].map { $0.children.compactMap { if case .text(let t) = $0 { t.value } else { nil } }.joined() } ?? ""
        #expect(text.contains("shots/c.xml:1:17: error: expected an element name"), "\(text)")
        // Not in the folder (the next run would check it as a screen), nor over markup.
        for report in ["shots/report.xml", "shots/a.xml"] {
            let refused = try typeset(["snapshot", "shots", "--junit", report], in: folder)
            #expect(refused.status == 2, "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/shots/report.xml"))
        }
    }

    /// A large reference that is no PNG (3 GB, sparse) is told from its first bytes, checked
    /// and recorded again in little memory: it was read up to a gigabyte first, and under a
    /// memory limit of 800 MB the run died ("failed to allocate").
    @Test func aLargeReferenceThatIsNoPNGIsToldFromItsFirstBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Bluetooth: On</p>"), to: folder + "/a.xml")
        try FileManager.default.createDirectory(atPath: folder + "/__snapshots__", withIntermediateDirectories: true)
        for arguments in [["snapshot", "."], ["snapshot", ".", "--update"]] {
            try write("not a PNG", to: folder + "/__snapshots__/a.png")
            #expect(truncate(folder + "/__snapshots__/a.png", 3 << 30) == 0)
            let limited = ["-c", "ulimit -v 800000; exec \"$0\" \"$@\"", try typesetBinary()]
            let run = try runProgram("/bin/sh", limited + arguments + ["--scale", "0.5"], in: folder)
            let update = arguments.contains("--update")
            #expect(run.status == (update ? 0 : 1), "\(arguments): \(run)")
            #expect(run.stdout.contains(update ? "recorded ./__snapshots__/a.png" : "not a PNG file"), "\(run)")
        }
    }

    /// A folder named like a reference or a diff image is neither: `--update` removed
    /// `old.png/` with all it held, and a check removed `gone.diff.png/`.
    @Test func foldersNamedLikeReferencesStay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(document("<p>Other</p>"), to: folder + "/b.xml")
        for name in ["old.png", "gone.diff.png"] {
            try FileManager.default.createDirectory(atPath: folder + "/__snapshots__/" + name, withIntermediateDirectories: true)
            try write("notes", to: folder + "/__snapshots__/\(name)/notes.txt")
        }
        let update = try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder)
        #expect(update.status == 0 && !update.stdout.contains("removed"), "\(update)")
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 0 && check.lines == ["1 passed, 0 failed"], "\(check)")
        #expect(try contents(folder + "/__snapshots__") == ["b.png", "gone.diff.png", "old.png"])
        #expect(FileManager.default.fileExists(atPath: folder + "/__snapshots__/old.png/notes.txt"))
        #expect(FileManager.default.fileExists(atPath: folder + "/__snapshots__/gone.diff.png/notes.txt"))
    }

    /// A document's diff images are written all or none (an interrupted run left a screen with
    /// some of its pages' new diff images beside older ones): when one cannot be written, no
    /// page has one, and each says why.
    @Test func aDocumentsDiffImagesAreWrittenTogether() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraphs = { (word: String) in
            (1...4).map { "<p>\(word) \($0) with a few words.</p>" }.joined(separator: "\n")
        }
        try write(document(paragraphs("Paragraph"), attributes: " height=\"120\""), to: folder + "/long.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        let pages = try contents(folder + "/__snapshots__").count
        #expect(pages >= 2)
        try write(document(paragraphs("Changed"), attributes: " height=\"120\""), to: folder + "/long.xml")
        // Page 2's diff image cannot be written: a folder is in its place.
        try FileManager.default.createDirectory(atPath: folder + "/__snapshots__/long-2.diff.png", withIntermediateDirectories: true)
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 1, "\(check)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/__snapshots__/long.diff.png"), "\(check)")
        let failures = check.lines.filter { $0.hasPrefix("FAIL long.xml") }
        #expect(failures.count == pages && failures.allSatisfy { $0.contains("long-2.diff.png") }, "\(check)")
        try FileManager.default.removeItem(atPath: folder + "/__snapshots__/long-2.diff.png")
        #expect(try typeset(["snapshot", ".", "--scale", "0.5"], in: folder).status == 1)
        #expect(try contents(folder + "/__snapshots__").filter { $0.hasSuffix(".diff.png") }.count == pages)
    }

    /// A picture a document shows is never taken for a reference or a diff image: one kept in
    /// `__snapshots__` as `p.diff.png` was removed when its document passed (and the next run
    /// failed for want of it), one named like a reference failed as one no markup file uses.
    /// A reference of another size says which is which ("A is ..." named no A).
    @Test func picturesInTheSnapshotFolderStay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/__snapshots__", withIntermediateDirectories: true)
        let picture = Data(pngFile(width: 4, height: 4))
        for name in ["p.diff.png", "logo.png"] {
            try picture.write(to: URL(fileURLWithPath: folder + "/__snapshots__/" + name))
        }
        let image = #"<image src="__snapshots__/%@" width="20" height="20"/>"#
        try write(document(image.replacing("%@", with: "p.diff.png") + image.replacing("%@", with: "logo.png")), to: folder + "/p.xml")
        let update = try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder)
        #expect(update.status == 0, "\(update)")
        let check = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(check.status == 0 && check.lines == ["1 passed, 0 failed"], "\(check)")
        #expect(try contents(folder + "/__snapshots__") == ["logo.png", "p.diff.png", "p.png"])
        // Nor for the reference of a page the document does not have.
        try picture.write(to: URL(fileURLWithPath: folder + "/__snapshots__/p-2.png"))
        try write(document(image.replacing("%@", with: "p-2.png")), to: folder + "/p.xml")
        #expect(try typeset(["snapshot", ".", "--update", "--scale", "0.5"], in: folder).status == 0)
        let second = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(second.status == 0 && second.lines == ["1 passed, 0 failed"], "\(second)")
        #expect(try contents(folder + "/__snapshots__").contains("p-2.png"))

        try write(document("<p>Taller</p>", attributes: #" height="300""#), to: folder + "/p.xml")
        let taller = try typeset(["snapshot", ".", "--scale", "0.5"], in: folder)
        #expect(taller.lines.first?.hasPrefix("FAIL p.xml: the reference is 100×") == true, "\(taller)")
        #expect(taller.lines.first?.contains(" pixels, the page is 100×150, ") == true, "\(taller)")
    }

    @Test func badFoldersAndArguments() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = try typeset(["snapshot", "missing"], in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the folder 'missing': it does not exist"))
        // A file where the folder or its __snapshots__ should be: said which.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        #expect(try typeset(["snapshot", "file"], in: folder).stderr.contains("'file': it is a file, not a folder"))
        try FileManager.default.createDirectory(atPath: folder + "/s", withIntermediateDirectories: true)
        try Data("<document><p>x</p></document>".utf8).write(to: URL(fileURLWithPath: folder + "/s/a.xml"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/s/__snapshots__"))
        // Refused before any screen, check or update (a check failed each screen for want of a
        // reference, with a hint to record it that could not).
        for arguments in [["snapshot", "s", "--update"], ["snapshot", "s"]] {
            let blocked = try typeset(arguments, in: folder)
            #expect(blocked.status == 2 && blocked.stdout.isEmpty, "\(blocked)")
            #expect(blocked.stderr.contains("'s/__snapshots__' is a file, not a folder: the references go in a folder of that name"))
        }
        // A folder named like markup is no markup file: passed over (it failed as one).
        try FileManager.default.removeItem(atPath: folder + "/s/__snapshots__")
        try FileManager.default.createDirectory(atPath: folder + "/s/old.xml", withIntermediateDirectories: true)
        #expect(try typeset(["snapshot", "s", "--update"], in: folder).status == 0)
        let checked = try typeset(["snapshot", "s"], in: folder)
        #expect(checked.status == 0 && checked.stdout == "1 passed, 0 failed\n", "\(checked)")
        try FileManager.default.removeItem(atPath: folder + "/s")
        // diff of one broken file given twice tells its error once.
        try Data("<document><p>x</document>".utf8).write(to: URL(fileURLWithPath: folder + "/bad.xml"))
        let twice = try typeset(["diff", "bad.xml", "bad.xml"], in: folder)
        #expect(twice.status == 2 && twice.stderr.components(separatedBy: "bad.xml:1:").count == 2, "\(twice.stderr)")
        // And its warnings once (they were told twice).
        try Data("<document><title key=\"hello\">x</title></document>".utf8).write(to: URL(fileURLWithPath: folder + "/warn.xml"))
        for other in ["warn.xml", "./warn.xml", folder + "/warn.xml"] {
            let warned = try typeset(["diff", "warn.xml", other, "--locale", "fr"], in: folder)
            #expect(warned.status == 0 && warned.stderr.components(separatedBy: "warn.xml:1:").count == 2, "\(warned.stderr)")
        }
        try FileManager.default.removeItem(atPath: folder + "/warn.xml")
        try FileManager.default.removeItem(atPath: folder + "/bad.xml")
        try FileManager.default.removeItem(atPath: folder + "/file")
        // A mistyped Unicode folder is a usage error, as a mistyped --font-dir is.
        let conformance = try typeset(["conformance", "--unicode-dir", "missing"], in: folder)
        #expect(conformance.status == 2 && conformance.stderr.contains("--unicode-dir 'missing' does not exist"))
        // Every file is run and reported: a malformed line is a failed case, a file of no case
        // or none at all fails, each error located.
        let unicode = folder + "/ucd"
        try FileManager.default.createDirectory(atPath: unicode, withIntermediateDirectories: true)
        try Data("@Levels: 0\n@Reorder: 0\nL; 3\nL R; x\n".utf8).write(to: URL(fileURLWithPath: unicode + "/BidiTest.txt"))
        try Data("# nothing but a comment\n".utf8).write(to: URL(fileURLWithPath: unicode + "/BidiCharacterTest.txt"))
        let partial = try typeset(["conformance", "--unicode-dir", "ucd"], in: folder)
        #expect(partial.status == 1, "\(partial)")
        #expect(partial.lines == [
            "BidiTest.txt: 2 passed, 1 failed", "BidiCharacterTest.txt: 0 passed, 0 failed", "LineBreakTest.txt: not run",
        ], "\(partial)")
        #expect(partial.stderr.contains("ucd/BidiTest.txt:4:1: error: malformed: expected CLASSES; BITSET, got L R; x"), "\(partial)")
        #expect(partial.stderr.contains("ucd/BidiCharacterTest.txt:1:1: error: no test cases in this file"), "\(partial)")
        #expect(partial.stderr.contains("ucd/LineBreakTest.txt:1:1: error: cannot read this Unicode test file"), "\(partial)")
        #expect(partial.stderr.contains("ucd/BidiTest.txt:1:1: error: its first line is not '# BidiTest-15.0.0.txt'"), "\(partial)")
        // A file cut short passes every case it has, and fails on the count.
        let whole = try String(contentsOfFile: unicodeDirectory + "/BidiCharacterTest.txt", encoding: .utf8)
        try Data((whole.split(separator: "\n").prefix(500).joined(separator: "\n") + "\n").utf8)
            .write(to: URL(fileURLWithPath: unicode + "/BidiCharacterTest.txt"))
        let cut = try typeset(["conformance", "--unicode-dir", "ucd"], in: folder)
        let ran = cut.lines.first { $0.hasPrefix("BidiCharacterTest.txt: ") } ?? ""
        #expect(cut.status == 1 && ran.hasSuffix(" passed, 0 failed") && ran != "BidiCharacterTest.txt: 0 passed, 0 failed", "\(cut)")
        #expect(cut.stderr.contains("ucd/BidiCharacterTest.txt:1:1: error: ran "), "\(cut)")
        #expect(cut.stderr.contains(" cases, and Unicode 15.0.0's BidiCharacterTest.txt holds 91707: the file is cut short or changed"), "\(cut)")
        // A line of garbage is quoted with its control characters escaped, not sent raw to the
        // terminal.
        try Data("# BidiTest-15.0.0.txt\n@Levels: 0\n\u{1B}[2J\u{7}; 1\n".utf8).write(to: URL(fileURLWithPath: unicode + "/BidiTest.txt"))
        let garbage = try typeset(["conformance", "--unicode-dir", "ucd"], in: folder)
        #expect(garbage.stderr.contains("ucd/BidiTest.txt:3:1: error: malformed: "), "\(garbage)")
        #expect(garbage.stderr.contains("\\u{1B}[2J\\u{7}") && !garbage.stderr.contains("\u{1B}"), "\(garbage)")
        let empty = try typeset(["snapshot", "."], in: folder)
        // A folder without markup checks nothing: it fails, or a mistyped CI path would pass.
        #expect(empty.status == 1 && empty.stdout == "0 passed, 0 failed\n" && empty.stderr.contains("no markup files"))
        let emptyUpdate = try typeset(["snapshot", ".", "--update"], in: folder)
        #expect(emptyUpdate.status == 0 && emptyUpdate.stderr.contains("warning: no markup files"), "\(emptyUpdate)")
        // Screens in a subfolder are not checked, and the run says so (it still fails, having
        // checked nothing).
        try FileManager.default.createDirectory(atPath: folder + "/settings", withIntermediateDirectories: true)
        try Data("<document><p>x</p></document>".utf8).write(to: URL(fileURLWithPath: folder + "/settings/wifi.xml"))
        let nested = try typeset(["snapshot", "."], in: folder)
        #expect(nested.status == 1 && nested.stdout == "0 passed, 0 failed\n", "\(nested)")
        #expect(
            nested.stderr.contains(
                "typeset: warning: './settings' holds 1 markup file not checked: snapshot checks the files directly in '.'; run it on './settings' too"),
            "\(nested)")
        // Deeper down too; not a folder named like markup, a link back to the folder, nor a
        // second link to one already named.
        try FileManager.default.createDirectory(atPath: folder + "/flows/sign-in", withIntermediateDirectories: true)
        try Data("<document><p>x</p></document>".utf8).write(to: URL(fileURLWithPath: folder + "/flows/sign-in/a.xml"))
        try FileManager.default.createDirectory(atPath: folder + "/empty/old.xml", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: folder + "/wifi-link", withDestinationPath: "settings")
        // (A link inside a subfolder is not followed: it named 'aaa' for settings' screens.)
        try FileManager.default.createDirectory(atPath: folder + "/aaa", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/aaa/to-settings", withDestinationPath: "../settings")
        #expect(mkfifo(folder + "/empty/pipe.xml", 0o600) == 0)
        // Level by level: 250 empty folders before a subfolder's screens do not hide them, nor
        // an asset catalog's hundreds of folders the screens a level down beside it.
        for k in 0..<250 {
            try FileManager.default.createDirectory(atPath: folder + "/flows/assets/i\(k)", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder + "/App/Assets.xcassets/i\(k).imageset", withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: folder + "/App/Screens/Login", withIntermediateDirectories: true)
        try Data("<document><p>x</p></document>".utf8).write(to: URL(fileURLWithPath: folder + "/App/Screens/Login/login.xml"))
        let deeper = try typeset(["snapshot", "."], in: folder)
        #expect(deeper.stderr.contains("typeset: warning: './flows' holds 1 markup file not checked"), "\(deeper)")
        #expect(
            !deeper.stderr.contains("'./empty'") && !deeper.stderr.contains("'./self'") && !deeper.stderr.contains("'./aaa'")
                && deeper.stderr.contains("'./settings' holds 1"), "\(deeper)")
        #expect(deeper.stderr.components(separatedBy: "holds 1 markup file not checked").count == 4, "\(deeper)")
        #expect(deeper.stderr.contains("typeset: warning: './App' holds 1 markup file not checked"), "\(deeper)")
        // It names the folders that hold them: run on './flows', it checked nothing and failed.
        #expect(deeper.stderr.contains("run it on './flows/sign-in' too") && deeper.stderr.contains("run it on './App/Screens/Login' too"), "\(deeper)")
        #expect(try typeset(["snapshot", ".", "--tolerance", "999"], in: folder).status == 2)
        #expect(try typeset(["snapshot", ".", "--jobs", "0"], in: folder).status == 2)
    }
}

// MARK: - Deterministic output

@Suite("DiffSnapshot determinism")
struct DeterminismTests {
    /// Every Example, a copy of each, and a document with an image, rendered in one batch on two
    /// threads by two processes: the two processes' files are byte-identical, and so is every
    /// copy's output to its original's.
    @Test(arguments: OutputFormat.allCases)
    func examplesRenderByteIdentically(format: OutputFormat) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = folder + "/in"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: false)
        let examples = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Examples")
            .filter { $0.hasSuffix(".xml") }.sorted()
        #expect(examples.count >= 6)
        for file in examples {
            try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/" + file, toPath: inputs + "/" + file)
            try FileManager.default.copyItem(
                atPath: repositoryRoot + "/Examples/" + file, toPath: inputs + "/copy-of-" + file)
        }
        try boxImage(inputs + "/box.png", dot: (x: 3, y: 3))
        try write(
            document(
                "<title>Picture</title>\n<image src=\"box.png\" width=\"80\" height=\"60\" alt=\"A box\"/>",
                attributes: " lang=\"he\" dir=\"rtl\""), to: inputs + "/picture.xml")
        try FileManager.default.copyItem(atPath: inputs + "/picture.xml", toPath: inputs + "/copy-of-picture.xml")
        let names = try contents(inputs).filter { $0.hasSuffix(".xml") }

        for run in ["one", "two"] {
            let result = try typeset(
                ["render"] + names.map { "in/" + $0 } + ["--out-dir", run, "--format", format.rawValue, "--jobs", "2"],
                in: folder)
            #expect(result.status == 0, "\(result)")
        }
        let one = try contents(folder + "/one")
        #expect(one == (try contents(folder + "/two")))
        // Every input has output (long-page has several pages in SVG and PNG).
        #expect(one.count >= names.count)
        for name in names {
            let stem = String(name.dropLast(4))
            #expect(one.contains("\(stem).\(format.rawValue)"), "no output for \(name)")
        }
        var compared = 0
        for file in one {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/one/" + file))
            #expect(!bytes.isEmpty)
            #expect(
                bytes == (try Data(contentsOf: URL(fileURLWithPath: folder + "/two/" + file))),
                "\(file) differs between two processes")
            if file.hasPrefix("copy-of-") {
                let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/one/" + file.dropFirst(8)))
                #expect(bytes == original, "\(file) differs from its original in the same batch")
                compared += 1
            }
        }
        #expect(compared == one.count / 2)
    }
}
