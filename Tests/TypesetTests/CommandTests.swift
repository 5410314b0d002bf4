// End-to-end tests of `typeset render` and `typeset layout` (SPEC 5.1, 5.7): the built binary,
// checked with pdftotext, pdfinfo, qpdf and rsvg-convert.
import Foundation
import Testing

@testable import Typeset

@Suite(.serialized) struct RenderCommandTests {
    let examples = repositoryRoot + "/Examples"

    @Test func pdfIsTaggedValidAndExtractsText() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let pdf = out + "/settings-en.pdf"
        let result = try typeset(["render", examples + "/settings-en.xml", "-o", pdf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pdfInfo(pdf, "Tagged") == "yes")
        #expect(try pdfInfo(pdf, "Pages") == "1")
        #expect(try pdfInfo(pdf, "Title") == "Settings")
        let text = try runProgram("/usr/bin/pdftotext", [pdf, "-"]).stdout
        for word in ["Settings", "Bluetooth: On", "12.5 GB of 64 GB", "(65%)", "Back Up Now"] {
            #expect(text.contains(word), "pdftotext misses \(word)")
        }
        let check = try runProgram("/usr/bin/qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// Output places and a catalog named wrong are usage errors (exit 2), found before any input
    /// is read: an --out-dir that is a file was each input's error at 1:1 ("Not a directory").
    @Test func misnamedOutputsAndCatalogsAreUsageErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = examples + "/settings-en.xml"
        try "x".write(toFile: folder + "/file", atomically: false, encoding: .utf8)
        for (arguments, message) in [
            (["render", input, "--out-dir", folder + "/file"], "--out-dir '\(folder)/file' is a file, not a folder"),
            (["render", input, "--out-dir", ""], "--out-dir needs a folder"),
            (["render", input, "-o", folder], "-o '\(folder)' is a folder"),
            (["sheet", input, "-o", folder, "--format", "pdf"], "-o '\(folder)' is a folder"),
            // A name ending in a slash is a folder's, refused before any work (it failed each input).
            (["render", input, "-o", "y.pdf/"], "-o 'y.pdf/' ends in '/', which names a folder"),
            (["diff", input, input, "--out", "o/"], "--out 'o/' ends in '/', which names a folder"),
            (["diff", input, input, "--out", folder], "--out '\(folder)' is a folder"),
            (["sheet", input, "-o", "s.pdf/"], "-o 's.pdf/' ends in '/', which names a folder"),
            (["render", input, "-o", folder + "/x.pdf", "--strings", folder + "/none.json"], "--strings '\(folder)/none.json' does not exist"),
            (["render", input, "-o", folder + "/x.pdf", "--strings", ""], "--strings needs a file"),
            (["render", input, "-o", folder + "/x.pdf", "--strings", folder], "is a folder, not a string catalog"),
            (["sheet", input, "-o", folder + "/x.pdf", "--strings", folder + "/none.json"], "--strings '\(folder)/none.json' does not exist"),
            // A pipe or a device is the option's fault, not a located flaw in a file (it was
            // "/dev/null:1:1: error", exit 1).
            (["render", input, "-o", folder + "/x.pdf", "--strings", "/dev/null"], "--strings '/dev/null' is not a regular file (a pipe or a device)"),
            (["sheet", input, "-o", folder + "/x.pdf", "--strings", "/dev/zero"], "--strings '/dev/zero' is not a regular file (a pipe or a device)"),
            // A folder that cannot be made says why, not "No such file or directory" per input.
            // ("File exists" said a file stands in the way: which one is said.)
            (["render", input, "--out-dir", folder + "/file/sub"],
             "cannot make the folder '\(folder)/file/sub' for the output: '\(folder)/file' is a file, not a folder"),
            (["render", input, "-o", folder + "/file/x.pdf"],
             "cannot make the folder '\(folder)/file' for the output: '\(folder)/file' is a file, not a folder"),
            (["sheet", input, "-o", folder + "/file/s.pdf"],
             "cannot make the folder '\(folder)/file' for the output: '\(folder)/file' is a file, not a folder"),
            // A name too long for a folder leaves none of the folders above it (they stayed).
            (["render", input, "-o", folder + "/new/" + String(repeating: "n", count: 300) + "/x.pdf"], "File name too long"),
            (["render", input, "--out-dir", folder + "/new/deeper/" + String(repeating: "n", count: 300)], "File name too long"),
        ] {
            let run = try typeset(arguments, in: folder)  // a regression writes there, not into the repository
            #expect(run.status == 2 && run.stderr.hasPrefix("typeset: error: ") && run.stderr.contains(message), "\(arguments): \(run)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file"])
        // A long value is shortened in the message, as a diagnostic's quote is.
        let long = try typeset(["render", input, "-o", folder + "/x.pdf", "--locale", String(repeating: "a", count: 2000)], in: folder)
        #expect(long.status == 2 && long.stderr.contains("…") && long.stderr.utf8.count < 800, "\(long.stderr.utf8.count)")
        // A symbolic link to nothing, or in a loop, where a folder is wanted.
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: "nowhere")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: "loop")
        for target in ["dangling", "loop/sub"] {
            let run = try typeset(["render", input, "--out-dir", folder + "/" + target], in: folder)
            let link = folder + "/" + target.prefix { $0 != "/" }
            #expect(run.status == 2 && run.stderr.contains("'\(link)' is a symbolic link that leads to no folder"), "\(run)")
        }
    }

    /// Fonts installed for the user (`~/.local/share/fonts`, where fontconfig finds them too)
    /// are system fonts: a family there was "not found".
    @Test func fontsInstalledForTheUserAreFound() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/home/.local/share/fonts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Tests/Fonts/TestRunes.ttf", toPath: folder + "/home/.local/share/fonts/TestRunes.ttf")
        try #"<document font="Typeset Test Runes"><p>&#x16A0;</p></document>"#.write(
            toFile: folder + "/runes.xml", atomically: true, encoding: .utf8)
        let run = try runProgram(
            "/usr/bin/env", ["HOME=\(folder)/home", "XDG_DATA_HOME=", try typesetBinary(), "layout", "runes.xml"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.contains(#""font":"Typeset Test Runes""#), "\(run.stdout)")
        // One whose cmap maps nothing is not taken for its family: the family is not found, as
        // it is not there for any text (it was found, and its text silently took other fonts).
        let runes = try withEmptyCmap([UInt8](try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Tests/Fonts/TestRunes.ttf"))))
        try Data(runes).write(to: URL(fileURLWithPath: folder + "/home/.local/share/fonts/TestRunes.ttf"))
        let empty = try runProgram(
            "/usr/bin/env", ["HOME=\(folder)/home", "XDG_DATA_HOME=", try typesetBinary(), "layout", "runes.xml"], in: folder)
        #expect(empty.status == 0 && empty.stderr.contains("font family 'Typeset Test Runes' not found"), "\(empty)")
    }

    /// Files of a --font-dir that give no font are named (they were skipped without a word, and
    /// a user wondered why their family was not found); the fonts beside them still serve.
    @Test func unusableFontFilesAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts/sub", withIntermediateDirectories: true)
        try "junk".write(toFile: folder + "/fonts/bad.ttf", atomically: false, encoding: .utf8)
        try "wOF2".write(toFile: folder + "/fonts/sub/web.woff2", atomically: false, encoding: .utf8)
        try "wOFF and more".write(toFile: folder + "/fonts/named.ttf", atomically: false, encoding: .utf8)  // a WOFF named .ttf
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Fonts/NotoSans-Regular.ttf", toPath: folder + "/fonts/good.ttf")
        // A font HarfBuzz shapes with but FreeType cannot open (it has no 'hhea' table): chosen,
        // it failed every render with "FreeType error 143".
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Fonts/NotoSansHebrew-Regular.ttf")))
        var hebrew = original
        hebrew[try tableRecord(original, "hhea")] = UInt8(ascii: "x")
        try Data(hebrew).write(to: URL(fileURLWithPath: folder + "/fonts/damaged.ttf"))
        // Units per em of 0 (PNG failed, poppler refused the PDF's font) and a `loca` pointing
        // past the outlines (every glyph drew nothing), both without a word.
        var noEm = original
        let head = try table(original, "head").offset
        noEm[head + 18] = 0
        noEm[head + 19] = 0
        try Data(noEm).write(to: URL(fileURLWithPath: folder + "/fonts/no-em.ttf"))
        var lost = original
        let loca = try table(original, "loca")
        for i in loca.offset..<loca.offset + loca.length { lost[i] = 0x7F }
        try Data(lost).write(to: URL(fileURLWithPath: folder + "/fonts/lost.ttf"))
        // A `loca` one offset short is read as it is, as FreeType reads it: no damage.
        var short = original
        short[try tableRecord(original, "loca") + 15] &-= 2
        try Data(short).write(to: URL(fileURLWithPath: folder + "/fonts/short.ttf"))
        // No `cmap`, or one of no subtables: its family was found, and its text silently took
        // other fonts.
        var noCmap = original
        noCmap[try tableRecord(original, "cmap")] = UInt8(ascii: "x")
        try Data(noCmap).write(to: URL(fileURLWithPath: folder + "/fonts/no-cmap.ttf"))
        try Data(try withEmptyCmap(original)).write(to: URL(fileURLWithPath: folder + "/fonts/empty-cmap.ttf"))
        // An 'hhea' read from the wrong place (its offset 1): hb-subset left it and 'hmtx' out of
        // the PDF (poppler drew another font), and FreeType drew every glyph at one place.
        var badHhea = original
        let hhea = try tableRecord(original, "hhea")
        badHhea.replaceSubrange(hhea + 8..<hhea + 12, with: [0, 0, 0, 1])
        try Data(badHhea).write(to: URL(fileURLWithPath: folder + "/fonts/bad-hhea.ttf"))
        // A pipe named like a font is not opened (that waited forever), and is said.
        #expect(mkfifo(folder + "/fonts/pipe.ttf", 0o644) == 0)
        // So are a link to itself and one to nothing (skipped without a word).
        #expect(symlink("loop.ttf", folder + "/fonts/loop.ttf") == 0)
        #expect(symlink("gone.ttf", folder + "/fonts/dangling.ttf") == 0)
        try "<document><p>x שלום</p></document>".write(toFile: folder + "/d.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["render", "d.xml", "-o", "d.pdf", "--font-dir", "fonts"], in: folder)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("/fonts/bad.ttf:1:1: warning: not a font file HarfBuzz can read; skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/damaged.ttf:1:1: warning: a damaged font: it has no 'hhea' table; skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/no-em.ttf:1:1: warning: a damaged font: its units per em (0) are not 16 to 16384; skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/lost.ttf:1:1: warning: a damaged font: its 'loca' table points outside its outlines ('glyf'); skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/no-cmap.ttf:1:1: warning: a damaged font: it has no 'cmap' table; skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/empty-cmap.ttf:1:1: warning: a damaged font: its 'cmap' table maps no Unicode character; skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/pipe.ttf:1:1: warning: not a regular file (a pipe, a socket or a device)"), "\(run)")
        #expect(run.stderr.contains("/fonts/loop.ttf:1:1: warning: a symbolic link that cannot be followed (too many levels of symbolic links)"), "\(run)")
        #expect(run.stderr.contains("/fonts/dangling.ttf:1:1: warning: a symbolic link that cannot be followed (no such file or directory)"), "\(run)")
        #expect(run.stderr.contains("/fonts/bad-hhea.ttf:1:1: warning: a damaged font: its 'hhea' table is damaged or does not match its advances ('hmtx'); skipped"), "\(run)")
        #expect(run.stderr.contains("/fonts/sub/web.woff2:1:1: warning: a WOFF font, which is not read"), "\(run)")
        #expect(run.stderr.contains("/fonts/named.ttf:1:1: warning: a WOFF font, which is not read"), "\(run)")
        #expect(!run.stderr.contains("good.ttf") && !run.stderr.contains("short.ttf"), "\(run)")
        // `layout`'s JSON holds them too, each said once (they were on standard error only).
        let layout = try typeset(["layout", "d.xml", "--font-dir", "fonts"], in: folder)
        #expect(layout.status == 0 && layout.stderr.components(separatedBy: "bad.ttf").count == 2, "\(layout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any])
        let messages = (json["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains("not a font file HarfBuzz can read; skipped"), "\(messages)")
    }

    /// A font whose cmap maps a character to a glyph past its glyphs: the character is a box
    /// with a warning that names the font, in every format, and the batch's other documents are
    /// rendered. (The PDF and SVG writers refused the run, failing every input of the batch with
    /// "invalid glyph run", and PNG drew nothing without a word.)
    @Test func aFontThatMapsACharacterPastItsGlyphsDrawsABox() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: false)
        var runes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Tests/Fonts/TestRunes.ttf")))
        // Its cmap's format 4 subtables (one, shared by two encodings) map U+16A0 by the second
        // segment's idDelta to glyph 2 of 3: 100 more is past them.
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(runes[at + $1]) } }
        func short(_ at: Int) -> Int { Int(runes[at]) << 8 | Int(runes[at + 1]) }
        let cmap = try table(runes, "cmap").offset
        let subtable = cmap + word(cmap + 8)
        #expect(short(subtable) == 4)
        let segments = short(subtable + 6) / 2
        let delta = subtable + 16 + 4 * segments + 2  // idDelta[1]
        let damaged = (short(delta) + 100) & 0xFFFF
        (runes[delta], runes[delta + 1]) = (UInt8(damaged >> 8), UInt8(damaged & 0xFF))
        try Data(runes).write(to: URL(fileURLWithPath: folder + "/fonts/runes.ttf"))
        try "<document><p>King \u{16A0}</p></document>".write(toFile: folder + "/runes.xml", atomically: false, encoding: .utf8)
        try "<document><p>Other</p></document>".write(toFile: folder + "/other.xml", atomically: false, encoding: .utf8)
        let warning = "runes.xml:1:19: warning: Typeset Test Runes maps U+16A0 to a glyph it does not have (a damaged font); it is drawn as a missing-glyph box"
        for output in ["all.pdf", "all.svg"] {
            let run = try typeset(["render", "runes.xml", "other.xml", "-o", output, "--font-dir", "fonts"], in: folder)
            #expect(run.status == 0 && run.stderr.contains(warning), "\(run)")
            #expect(run.stderr.contains("rendered 2 of 2 inputs"), "\(run)")
        }
        let png = try typeset(["render", "runes.xml", "--out-dir", "png", "--format", "png", "--font-dir", "fonts"], in: folder)
        #expect(png.status == 0 && png.stderr.contains(warning), "\(png)")
        #expect(FileManager.default.fileExists(atPath: folder + "/png/runes.png"))
        let pdf = try runProgram("/usr/bin/pdftotext", [folder + "/all.pdf", "-"]).stdout
        #expect(pdf.contains("King") && pdf.contains("Other"), "\(pdf)")
    }

    /// The box of a damaged font's glyph takes .notdef's advance (it had none, over the next
    /// letter), and the warning names the character whose glyph is damaged: a mark, not the
    /// letter whose cluster it is in (`Tests/Fonts/DamagedCmap.ttf` maps A and U+0301 past its
    /// glyphs).
    @Test func aDamagedGlyphIsABoxOfItsOwnWidthNamedByItsCharacter() throws {
        let folder = try folderWithTestFont("DamagedCmap.ttf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"<document font="Typeset Test Damaged"><p>qx&#x301;q</p><p>xAq</p><p>xq</p></document>"#
            .write(toFile: folder + "/d.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["layout", "d.xml", "--font-dir", "fonts"], in: folder)
        #expect(run.status == 0, "\(run)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let diagnostics = json["diagnostics"] as? [[String: Any]] ?? []
        let said = diagnostics.map { "\($0["line"] ?? 0):\($0["column"] ?? 0) \($0["message"] ?? "")" }
        #expect(said == [
            "1:44 Typeset Test Damaged maps U+0301 to a glyph it does not have (a damaged font); it is drawn as a missing-glyph box (replace the font file, or name another font in 'font')",
            "1:60 Typeset Test Damaged maps U+0041 to a glyph it does not have (a damaged font); it is drawn as a missing-glyph box (replace the font file, or name another font in 'font')",
        ], "\(said)")
        let pages = json["pages"] as? [[String: Any]] ?? []
        let blocks = pages.first?["blocks"] as? [[String: Any]] ?? []
        let widths = blocks.map { block in
            ((block["lines"] as? [[String: Any]])?.first?["width"] as? Double) ?? 0
        }
        // .notdef of Noto Sans is 600 units, 10.2 pt at 17 pt (and x and q, apart, are not
        // kerned: 0.34 pt more); without it the box added nothing.
        #expect(widths.count == 3 && abs(widths[1] - widths[2] - 10.54) < 0.01, "\(widths)")
    }

    /// A variable font is set at its default instance, whatever weight its text asks for: said
    /// once, at `font` (a family of one variable font set bold titles and buttons regular
    /// without a word). A family of static fonts is not (the bundled Noto Sans).
    @Test func aVariableFontsWeightsAreSaidToBeUnset() throws {
        let folder = try folderWithTestFont("TestVariable.ttf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document\n  font=\"Typeset Test Variable\"><title>AH</title><p>AH <b>AH</b></p></document>"
            .write(toFile: folder + "/v.xml", atomically: false, encoding: .utf8)
        try "<document font=\"Noto Sans\"><title>AH</title></document>".write(toFile: folder + "/s.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["render", "v.xml", "s.xml", "--font-dir", "fonts", "--out-dir", "out"], in: folder)
        #expect(run.status == 0, "\(run)")
        let said = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(said == [
            "v.xml:2:3: warning: font family 'Typeset Test Variable' is a variable font (weights 100 to 900); typeset sets it at its default weight, 400, whatever weight its text asks for (give its static fonts of the other weights with --font-dir)"
        ], "\(run.stderr)")
    }

    /// A temporary folder whose `fonts` folder holds the test font `name` (`Tests/Fonts`).
    private func folderWithTestFont(_ name: String) throws -> String {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Tests/Fonts/" + name, toPath: folder + "/fonts/" + name)
        return folder
    }

    /// A glyph of a `--font-dir` font whose outline cannot be drawn is a box with a warning in
    /// every format: the PNG failed ("error occurred in libfreetype"), a sheet with it failed
    /// whole ("out of memory"), and the PDF and SVG drew nothing there, with nothing said.
    @Test func aGlyphWhoseOutlineCannotBeDrawnIsABox() throws {
        let folder = try folderWithTestFont("DamagedOutline.ttf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document font=\"Typeset Test Damaged Outline\">\n  <p>Room 3</p>\n</document>"
            .write(toFile: folder + "/r.xml", atomically: false, encoding: .utf8)
        try "<document><p>Other</p></document>".write(toFile: folder + "/a.xml", atomically: false, encoding: .utf8)
        let warning = "r.xml:2:11: warning: Typeset Test Damaged Outline has a damaged glyph for U+0033 (its outline cannot be drawn)"
        for format in ["png", "pdf", "svg"] {
            let run = try typeset(["render", "r.xml", "--font-dir", "fonts", "--format", format], in: folder)
            #expect(run.status == 0 && run.stderr.contains(warning), "\(format): \(run)")
        }
        let sheet = try typeset(["sheet", "a.xml", "r.xml", "--font-dir", "fonts", "-o", "s.png"], in: folder)
        #expect(sheet.status == 0 && sheet.stderr.contains(warning), "\(sheet)")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/r.pdf", "-"]).stdout
        #expect(text.contains("Room 3"), "the text keeps its 3: \(text)")
    }

    /// A CFF font whose `maxp` counts fewer glyphs than its CFF table has: hb-subset left the
    /// CFF table out of the subset, and poppler could make no font of it ("Couldn't create a
    /// font"): the PDF showed no text. The whole font is embedded instead.
    @Test func aCFFFontThatCannotBeSubsetIsEmbeddedWhole() throws {
        let folder = try folderWithTestFont("DamagedCFF.otf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document font=\"Typeset Test Damaged CFF\"><p>Rom 一丁七</p></document>"
            .write(toFile: folder + "/c.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["render", "c.xml", "--font-dir", "fonts"], in: folder)
        #expect(run.status == 0, "\(run)")
        let drawn = try runProgram("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", folder + "/c.pdf", folder + "/drawn"])
        #expect(drawn.status == 0 && drawn.stderr.isEmpty, "\(drawn)")
        let image = try PixelImage(contentsOf: folder + "/drawn.png")
        var ink = 0
        for y in 0..<image.height { for x in 0..<image.width where (image.pixel(x: x, y: y)?.red ?? 255) < 128 { ink += 1 } }
        #expect(ink > 100, "the text is drawn: \(ink) dark pixels")
    }

    /// A CID-keyed CFF font (Noto Sans CJK's kind) is embedded with only the glyphs drawn,
    /// renumbered, as a CFF table whose glyphs keep their CIDs (/CIDFontType0C): its glyphs
    /// were kept in place, every other one empty, and Noto Sans CJK's 65,535 made a PDF of
    /// sixty 268 KB. Poppler finds them by CID, and draws them as our PNG does. A glyph whose
    /// CID is not its id (this font's 一) keeps the font's glyph ids, as before.
    @Test func aCIDKeyedCFFFontIsEmbeddedWithTheGlyphsDrawn() throws {
        let folder = try folderWithTestFont("CIDKeyed.otf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func drawn(_ text: String, _ name: String) throws -> (fonts: String, text: String, darkPixels: [Int], bytes: Int) {
            try "<document font=\"Typeset Test CID\" width=\"200\" height=\"60\"><p>\(text)</p></document>"
                .write(toFile: folder + "/\(name).xml", atomically: false, encoding: .utf8)
            for format in ["pdf", "png"] {
                let run = try typeset(["render", "\(name).xml", "--font-dir", "fonts", "--format", format, "--scale", "1"], in: folder)
                #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
            }
            let popplered = try runProgram("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", folder + "/\(name).pdf", folder + "/\(name)-poppler"])
            #expect(popplered.status == 0 && popplered.stderr.isEmpty, "\(popplered)")
            let dark = try [folder + "/\(name)-poppler.png", folder + "/\(name).png"].map { path in
                let image = try PixelImage(contentsOf: path)
                var ink = 0
                for y in 0..<image.height { for x in 0..<image.width where (image.pixel(x: x, y: y)?.red ?? 255) < 128 { ink += 1 } }
                return ink
            }
            let fonts = try runProgram("/usr/bin/pdffonts", [folder + "/\(name).pdf"]).stdout
            let text = try runProgram("/usr/bin/pdftotext", [folder + "/\(name).pdf", "-"]).stdout
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/\(name).pdf")[.size] as? Int ?? 0
            return (fonts, text, dark, size)
        }
        let latin = try drawn("Room 42", "latin")
        #expect(latin.fonts.contains("CID Type 0C ") && !latin.fonts.contains("(OT)"), "\(latin.fonts)")
        #expect(latin.text.contains("Room 42"), "\(latin.text)")
        // Poppler's ink and ours within a tenth (anti-aliasing), and some of it.
        #expect(latin.darkPixels[0] > 40 && abs(latin.darkPixels[0] - latin.darkPixels[1]) * 10 <= latin.darkPixels[1], "\(latin.darkPixels)")
        let han = try drawn("Room 一", "han")
        #expect(han.fonts.contains("CID Type 0C (OT)"), "\(han.fonts)")
        #expect(han.text.contains("Room 一") && han.darkPixels[0] > 40, "\(han)")
    }

    /// A `--font-dir` font whose missing-glyph box (.notdef) cannot be drawn gives no face, and
    /// says why: its damaged glyphs, drawn as that box, failed the PNG again.
    @Test func aFontWhoseMissingGlyphBoxCannotBeDrawnIsNotUsed() throws {
        let folder = try folderWithTestFont("DamagedNotdef.ttf")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document font=\"Typeset Test Damaged Notdef\"><p>Room 3 &#xE000;</p></document>"
            .write(toFile: folder + "/n.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["render", "n.xml", "--font-dir", "fonts", "--format", "png"], in: folder)
        #expect(run.status == 0 && run.stderr.contains("a damaged font: its missing-glyph box (.notdef) cannot be drawn"), "\(run)")
    }

    /// Several inputs into one `-o x.svg`: each file is a document of its own, with its own
    /// page's title and language (all had the first input's).
    @Test func svgPagesOfSeveralInputsHaveTheirOwnTitleAndLanguage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try typeset(["render", examples + "/settings-en.xml", examples + "/settings-ar.xml", "-o", folder + "/all.svg"])
        #expect(result.status == 0, "\(result.stderr)")
        let first = try String(contentsOfFile: folder + "/all.svg", encoding: .utf8)
        let second = try String(contentsOfFile: folder + "/all-2.svg", encoding: .utf8)
        #expect(first.contains(#"xml:lang="en""#) && first.contains("<title>Settings</title>"))
        #expect(second.contains(#"xml:lang="ar""#) && second.contains("<title>الإعدادات</title>"), "\(second.prefix(600))")
    }

    /// A family is found by the legacy name (ID 1) of its faces too, as fc-list shows it ("DejaVu
    /// Sans,DejaVu Sans Light"): it was "not found", and the text fell back. Spaces inside a
    /// name count as one.
    @Test func familiesAreFoundByTheirLegacyNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: true)
        // Noto Sans with a typographic family (ID 16) "Noto Sans Regular", its full name's record
        // renumbered, and a legacy family (ID 1) "Test Fmly".
        var font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Fonts/NotoSans-Regular.ttf")))
        func u16(_ at: Int) -> Int { Int(font[at]) << 8 | Int(font[at + 1]) }
        let name = try table(font, "name").offset
        let storage = name + u16(name + 4)
        var renamed = 0
        for entry in (0..<u16(name + 2)).map({ name + 6 + 12 * $0 }) {
            switch u16(entry + 6) {
            case 1:
                let start = storage + u16(entry + 10)
                let legacy = Array("Test Fmly".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                try #require(u16(entry + 8) == legacy.count)
                font.replaceSubrange(start..<start + legacy.count, with: legacy)
                renamed += 1
            case 4:
                font[entry + 7] = 16
                renamed += 1
            default: continue
            }
        }
        try #require(renamed == 2)
        try Data(font).write(to: URL(fileURLWithPath: folder + "/fonts/legacy.ttf"))
        try #"<document font="test  fmly"><p>Hello</p></document>"#.write(toFile: folder + "/d.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["layout", "d.xml", "--font-dir", "fonts"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.contains(#""font":"Noto Sans Regular""#), "\(run.stdout)")
        // Without a full name (ID 4), the face is named by its family and style.
        #expect(run.stdout.contains(#""face":"Noto Sans Regular"}"#), "\(run.stdout)")
    }

    /// A run's `face` names the face drawn, style included, where `font` is its family: bold
    /// and italic runs said "Noto Sans" alone (and a condensed face its family, "DejaVu Sans").
    @Test func layoutRunsNameTheirFace() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document><p>Plain <b>Bold</b> <i>Slanted</i> שלום</p></document>"
            .write(toFile: folder + "/d.xml", atomically: false, encoding: .utf8)
        let run = try typeset(["layout", "d.xml"], in: folder)
        #expect(run.status == 0, "\(run)")
        let faces = run.stdout.matches(of: #/"text":"([^"]*)".*?"font":"([^"]*)".*?"face":"([^"]*)"/#)
            .map { "\($0.1)|\($0.2)|\($0.3)" }
        #expect(
            faces == [
                "Plain |Noto Sans|Noto Sans Regular", "Bold|Noto Sans|Noto Sans Bold", " |Noto Sans|Noto Sans Regular",
                "Slanted|Noto Sans|Noto Sans Italic", " |Noto Sans|Noto Sans Regular",
                "שלום|Noto Sans Hebrew|Noto Sans Hebrew Regular",
            ], "\(faces)")
    }

    /// A page too large for a PNG is its document's located error, found when it is laid out:
    /// with one `-o` for all inputs, the others are still drawn (the error was "typeset: error:
    /// cannot write all.png: page 2 ...", and nothing was written). `snapshot` and `diff` say
    /// it the same way.
    @Test func aPageTooLargeForPNGIsItsDocumentsError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document><p>ok</p></document>".write(toFile: folder + "/a.xml", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/snap", withIntermediateDirectories: false)
        try "\n<document width=\"9000\" height=\"9000\"><p>x</p></document>"
            .write(toFile: folder + "/snap/big.xml", atomically: false, encoding: .utf8)
        let error = "snap/big.xml:2:1: error: page 1 would be 18000 × 18000 pixels; PNG pages can be at most"
        let render = try typeset(["render", "a.xml", "snap/big.xml", "-o", "all.png"], in: folder)
        #expect(render.status == 1 && render.stderr.hasPrefix(error), "\(render)")
        #expect(render.stderr.hasSuffix("rendered 1 of 2 inputs; failed: snap/big.xml\n"), "\(render)")
        #expect(FileManager.default.fileExists(atPath: folder + "/all.png"))
        let small = try typeset(["render", "snap/big.xml", "-o", "big.png", "--scale", "0.5"], in: folder)
        #expect(small.status == 0, "\(small)")
        let snapshot = try typeset(["snapshot", "snap", "--update"], in: folder)
        #expect(snapshot.status == 1 && snapshot.stderr.hasPrefix(error), "\(snapshot)")
        let diff = try typeset(["diff", "a.xml", "snap/big.xml"], in: folder)
        #expect(diff.status == 2 && diff.stderr.hasPrefix(error), "\(diff)")
    }

    /// SPEC §5: long work shows progress on a terminal and stays quiet when not on one. A lone
    /// input's pages show theirs as they are drawn (a 462-page document at a large scale took
    /// seconds with nothing shown); `script` gives the command a terminal.
    @Test func aLoneInputShowsItsPagesProgressOnATerminalOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paragraph = "<p>Typesetting localized interfaces means every screen is checked in every language.</p>"
        try ("<document device=\"iphone-se\">" + String(repeating: paragraph, count: 60) + "</document>")
            .write(toFile: folder + "/pages.xml", atomically: false, encoding: .utf8)
        // TERM as a terminal's (TERM=dumb turns the line off).
        let command = "TERM=xterm '\(try typesetBinary())' render pages.xml --format svg --out-dir out"
        let onTerminal = try runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], in: folder)
        #expect(onTerminal.status == 0, "\(onTerminal)")
        let count = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").count
        #expect(count > 2)
        #expect(onTerminal.stdout.contains("[page 1/\(count)] pages.xml"), "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("[page \(count)/\(count)] pages.xml  0s left"), "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
        let quiet = try typeset(["render", "pages.xml", "--format", "svg", "--out-dir", "out"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet)")
    }

    /// The command line grammar (Sources/typeset/Arguments.swift): inputs between options keep
    /// their order, `--name=value` and `--` work, unknown options and missing values are usage
    /// errors, and help lists every option.
    @Test func commandLineGrammar() throws {
        let help = try typeset(["render", "--help"])
        #expect(help.status == 0)
        for option in [
            "-o, --output <output>", "--out-dir", "--format", "--scale", "--jobs", "--shard", "--locale",
            "--strings", "--text-size", "--font-dir", "--assets", "-h, --help",
        ] {
            #expect(help.stdout.contains(option), "help misses \(option)")
        }
        let root = try typeset(["--help"])
        #expect(root.status == 0 && root.stdout.contains("SUBCOMMANDS:") && !root.stdout.contains("bench"))
        // Its hint names the binary as it was run: a bare `typeset help render` is bash's builtin.
        #expect(root.stdout.contains("See `\(try typesetInvocation()) help <subcommand>` for detailed help."), "\(root)")
        #expect(try typeset(["help", "diff"]).stdout.contains("USAGE: typeset diff <a> <b> [options]"))
        for bad in [
            ["render", "a.xml", "--bogus"], ["render", "a.xml", "--scale"], ["render", "a.xml", "--scale", "x"],
            ["render", "a.xml", "-x"], ["diff", "a.png"], ["layout", "a.xml", "b.xml"], ["nonsense"],
            ["snapshot", ".", "--update=yes"], ["render", "a.xml", "--format", "doc"],
            ["render", "a.xml", "-o", "a.png", "--scale", "1e-300"], ["sheet", "a.xml", "-o", "s.png", "--scale", "0.009"],
            ["diff", "a.xml", "b.xml", "--scale", "17"],
            // Decimal only: Swift's Double read "0x10" as 16.
            ["render", "a.xml", "-o", "a.png", "--scale", "0x10"], ["render", "a.xml", "-o", "a.png", "--scale", "0x1p1"],
        ] {
            let run = try typeset(bad)
            #expect(run.status == 2 && run.stderr.hasPrefix("typeset: error: "), "\(bad): \(run)")
        }
        // No command at all is a usage error; typos get the closest name.
        let bare = try typeset([])
        #expect(bare.status == 2 && bare.stdout.isEmpty && bare.stderr.contains("SUBCOMMANDS:"), "\(bare)")
        for (bad, hint) in [
            (["rendr", "a.xml"], "unknown command 'rendr'; did you mean 'render'?"),
            (["render", "a.xml", "--sacle", "2"], "unknown option '--sacle'; did you mean '--scale'?"),
            (["sheet", "a.xml", "-o", "s.pdf", "--text-size=AX1"], "unknown option '--text-size=AX1'; did you mean '--text-sizes'?"),
            // An option where a value belongs is the value missing (a folder named '--format'
            // was made), and '-' is no input: standard input is not read.
            (["render", "a.xml", "--out-dir", "--format", "png"], "missing value for '--out-dir' (it is followed by the option '--format')"),
            (["layout", "a.xml", "--strings", "-o"], "missing value for '--strings' (it is followed by the option '-o')"),
            (["render", "a.xml", "--out-dir", "--"], "missing value for '--out-dir' (it is followed by the option '--')"),
            (["layout", "-"], "'-' (standard input) is not read; give the path of a file"),
            // Nor is standard output written: '-' was a file of that name.
            (["render", "a.xml", "-o", "-", "--format", "png"], "-o '-' (standard output) is not written; give a file name"),
            (["sheet", "a.xml", "-o", "-", "--format", "pdf"], "-o '-' (standard output) is not written"),
            (["diff", "a.png", "b.png", "--out", "-"], "--out '-' (standard output) is not written"),
            (["render", "a.xml", "--out-dir", "-"], "--out-dir '-' is no folder"),
        ] {
            let run = try typeset(bad)
            #expect(run.status == 2 && run.stderr.contains(hint), "\(bad): \(run)")
        }
        // The help to see is named as the command was run: a bare `typeset render --help` is
        // bash's builtin.
        let invocation = try typesetInvocation()
        #expect(try typeset(["rendr"]).stderr.contains("See `\(invocation) --help` for the commands."))
        #expect(try typeset(["render", "a.xml", "--sacle", "2"]).stderr.contains("See `\(invocation) render --help` for more information."))

        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let pdf = out + "/three.pdf"
        let result = try typeset([
            "render", examples + "/settings-en.xml", "--jobs=1", examples + "/settings-he.xml", "-o", pdf,
            "--scale", "1", "--", examples + "/mixed-list.xml",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try pdfPageCount(pdf) == 3)
        let first = try runProgram("/usr/bin/pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).stdout
        let second = try runProgram("/usr/bin/pdftotext", ["-f", "2", "-l", "2", pdf, "-"]).stdout
        let third = try runProgram("/usr/bin/pdftotext", ["-f", "3", "-l", "3", pdf, "-"]).stdout
        #expect(first.contains("Settings") && second.contains("הגדרות") && third.contains("قائمة التسوق"), "\(third)")
        // A file name's escape codes reach the terminal escaped, in its diagnostic and in the
        // summary line.
        let escaped = out + "/bad\u{1B}[31m.xml"
        try "<document><p>x</document>".write(toFile: escaped, atomically: true, encoding: .utf8)
        let named = try typeset(["render", escaped, examples + "/settings-en.xml", "--out-dir", out])
        #expect(named.status == 1 && !named.stderr.contains("\u{1B}") && named.stderr.contains("bad\\u{1B}[31m.xml:1:"), "\(named)")
        #expect(named.stderr.contains("failed: \(out)/bad\\u{1B}[31m.xml"), "\(named)")
        let missing = try typeset(["render", examples + "/settings-en.xml", out + "/missing.xml", "-o", pdf])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("missing.xml"))
    }

    @Test func arabicAndHebrewTextExtractInLogicalOrder() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        for name in ["settings-ar", "settings-he"] {
            let pdf = "\(out)/\(name).pdf"
            #expect(try typeset(["render", "\(examples)/\(name).xml", "-o", pdf]).status == 0)
            let text = try runProgram("/usr/bin/pdftotext", [pdf, "-"]).stdout
            let expected = name == "settings-ar" ? ["التخزين", "إدارة"] : ["הגדרות", "אחסון", "ניהול"]
            for word in expected { #expect(text.contains(word), "\(name): pdftotext misses \(word)") }
            // Digits substituted for display are the text too (numerals="auto" → Arabic-Indic in ar).
            if name == "settings-ar" { #expect(text.contains("٦٤")) }
        }
    }

    @Test func longDocumentContinuesOnFurtherPages() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(
            try typeset(["render", examples + "/long-page.xml", "--out-dir", out, "--format", "png", "--scale", "1"])
                .status == 0)
        let pngs = files(in: out)
        #expect(pngs.count >= 2)
        #expect(pngs.contains("long-page.png") && pngs.contains("long-page-2.png"))
        #expect(try typeset(["render", examples + "/long-page.xml", "--out-dir", out, "--format", "pdf"]).status == 0)
        #expect(try pdfInfo(out + "/long-page.pdf", "Pages") == "\(pngs.count)")
    }

    @Test func svgConvertsWithRsvg() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try typeset(["render", examples + "/mixed-list.xml", "--out-dir", out, "--format", "svg"]).status == 0)
        let converted = try runProgram("/usr/bin/rsvg-convert", [out + "/mixed-list.svg", "-o", out + "/check.png"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try (FileManager.default.attributesOfItem(atPath: out + "/check.png")[.size] as? Int ?? 0) > 1000)
    }

    @Test func severalInputsIntoOnePDF() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try typeset([
            "render", examples + "/settings-en.xml", examples + "/settings-he.xml", "-o", out + "/both.pdf",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.contains("rendered 2 of 2 inputs"))
        #expect(try pdfInfo(out + "/both.pdf", "Pages") == "2")
    }

    @Test func missingOutputFoldersAreMade() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        for name in ["a/b/one.pdf", "c/d/one.png", "e/f/one.svg"] {
            let result = try typeset(["render", examples + "/settings-en.xml", "-o", out + "/" + name])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: out + "/" + name), "\(name)")
        }
        // A write that fails names the file once.
        try FileManager.default.createDirectory(atPath: out + "/g/settings-en.svg", withIntermediateDirectories: true)
        let result = try typeset(["render", examples + "/settings-en.xml", "--out-dir", out + "/g", "--format", "svg"])
        #expect(result.status == 1)
        #expect(result.stderr.components(separatedBy: "g/settings-en.svg").count == 2, "\(result.stderr)")
    }

    @Test func badInputFailsWithLocationAndOthersStillRender() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let bad = out + "/bad.xml"
        try "<document>\n  <p align=\"justify\">Text</p>\n</document>\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let result = try typeset(["render", bad, examples + "/settings-en.xml", "--out-dir", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(bad):2:6: error:"), "\(result.stderr)")
        #expect(result.stderr.contains("justif"))
        #expect(result.stderr.contains("failed: \(bad)"))
        #expect(files(in: out) == ["bad.xml", "settings-en.pdf"], "no output for the bad input, no temporary file")
        #expect(!result.stderr.contains("earlier run"), "\(result.stderr)")
    }

    /// After a failed write the input is fine: the stale output's advice is to remove it, not
    /// to fix the input (a page 2 that cannot be written, a folder in its place).
    @Test func aFailedWriteSaysOnlyToRemoveTheStaleOutput() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let doc = "<document height=\"100\"><p>one</p><p>two</p><p>three</p><p>four</p></document>"
        try doc.write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "doc.xml", "--format", "svg"], in: out).status == 0)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: out + "/doc.svg")
        try doc.replacing("four", with: "five").write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: out + "/doc-2.svg")
        try FileManager.default.createDirectory(atPath: out + "/doc-2.svg", withIntermediateDirectories: false)
        let unwritten = try typeset(["render", "doc.xml", "--format", "svg"], in: out)
        #expect(unwritten.status == 1 && unwritten.stderr.contains("'./doc.svg', from an earlier run, is left as it was"), "\(unwritten)")
        #expect(unwritten.stderr.contains("remove it\n") && !unwritten.stderr.contains("fix the input"), "\(unwritten)")
    }

    /// An input that fails where an earlier run wrote its output says that output is left as it
    /// was (it stood looking current, exit 1 and nothing said), whether one output per input
    /// (with its further pages) or every input into one `-o` that none of them made it into.
    /// The outputs of a batch are known by the files they will be once `--out-dir` is made: known
    /// by `out/a-2.svg` before and by its absolute path after, page 2 of a.xml was written over
    /// another input's a-2.svg unsaid, and that output, written first, was called a leftover.
    @Test func outputsInAnOutDirNotYetMadeAreKnownAsTheyWillBe() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["x", "y"] { try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        try "<document width='200' height='100'><p>A</p><spacer height='90'/><p>A2</p></document>"
            .write(toFile: root + "/x/a.xml", atomically: true, encoding: .utf8)
        try "<document width='200' height='200'><p>B</p></document>".write(toFile: root + "/y/a-2.xml", atomically: true, encoding: .utf8)
        // (Through a link reached past a `..` out of a folder not made: `missing/../link`.)
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "real")
        for out in ["out", "./new/out/", "missing/../link", "gone/../link/new"] {
            let over = try typeset(["render", "x/a.xml", "y/a-2.xml", "--out-dir", out, "--format", "svg", "--jobs", "1"], in: root)
            #expect(over.status == 1 && over.stderr.contains("page 2 would be written to '"), "\(over)")
            #expect(over.stderr.contains("the output of 'y/a-2.xml'"), "\(over)")
        }
        try "<document width='200' height='200'><p>A</p></document>".write(toFile: root + "/x/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: root + "/out")
        let fresh = try typeset(["render", "y/a-2.xml", "x/a.xml", "--out-dir", "out", "--format", "svg", "--jobs", "1"], in: root)
        #expect(fresh.status == 0 && !fresh.stderr.contains("left from"), "\(fresh)")
    }

    @Test func anEarlierOutputOfAFailedInputIsNamed() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        // Two pages: doc.svg and doc-2.svg.
        try "<document height='100'><p>version one</p><spacer height='200'/><p>more</p></document>"
            .write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "doc.xml"], in: out).status == 0)
        #expect(try typeset(["render", "doc.xml", "--format", "svg"], in: out).status == 0)
        // The outputs an hour older than the input changed now (the clock's tick could give
        // them the same time).
        func dated(_ name: String, _ seconds: TimeInterval) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: seconds)], ofItemAtPath: out + "/" + name)
        }
        for name in ["doc.pdf", "doc.svg", "doc-2.svg"] { try dated(name, -3600) }
        try "<document><p>version two<x/></p></document>".write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        let pdf = try typeset(["render", "doc.xml"], in: out)
        #expect(pdf.status == 1 && pdf.stderr.contains(
            "doc.xml:1:1: warning: './doc.pdf', from an earlier run, is left as it was: it does not show the input as it is now"), "\(pdf)")
        let svg = try typeset(["render", "doc.xml", "--format", "svg"], in: out)
        #expect(svg.stderr.contains("'./doc.svg' and 1 more page after it, from an earlier run, are left as they were"), "\(svg)")
        // Said after the document's warnings, however many (the cap of 200 took it).
        let many = String(repeating: "<spacer size='8'/>", count: 300)
        try "<document>\(many)<p>version three<x/></p></document>".write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        let capped = try typeset(["render", "doc.xml"], in: out)
        #expect(capped.stderr.hasSuffix(
            "doc.xml:1:1: warning: './doc.pdf', from an earlier run, is left as it was: it does not show the input as it is now; remove it or fix the input\nrendered 0 of 1 input; failed: doc.xml\n"), "\(capped)")
        let one = try typeset(["render", "doc.xml", "-o", "doc.pdf"], in: out)
        #expect(one.status == 1 && one.stderr.contains("typeset: warning: 'doc.pdf', from an earlier run, is left as it was"), "\(one)")
        let fresh = try typeset(["render", "doc.xml", "-o", "new.pdf"], in: out)
        #expect(fresh.status == 1 && !fresh.stderr.contains("earlier run"), "\(fresh)")
        // Not an output written after the input last changed (it may show the input as it is),
        // nor a file typeset did not write (a picture of that name: it was told to remove it).
        try dated("doc.pdf", 3600)
        let unchanged = try typeset(["render", "doc.xml"], in: out)
        #expect(unchanged.status == 1 && !unchanged.stderr.contains("earlier run"), "\(unchanged)")
        // Nor one written after the input changed, but before an image it shows did: a PNG
        // replaced by a GIF failed the input, and its page stood unsaid.
        try writeRedPicture(out + "/pic.png")
        try "<document><image src='pic.png' alt='x'/></document>".write(toFile: out + "/pic.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "pic.xml"], in: out).status == 0)
        try dated("pic.xml", -7200)
        try dated("pic.pdf", -3600)
        try "GIF89a".write(toFile: out + "/pic.png", atomically: true, encoding: .utf8)
        let picture = try typeset(["render", "pic.xml"], in: out)
        #expect(picture.status == 1 && picture.stderr.contains("'./pic.pdf', from an earlier run, is left as it was"), "\(picture)")
        try dated("pic.png", -7200)
        let older = try typeset(["render", "pic.xml"], in: out)
        #expect(older.status == 1 && !older.stderr.contains("earlier run"), "\(older)")
        try FileManager.default.removeItem(atPath: out + "/pic.png")
        let gone = try typeset(["render", "pic.xml"], in: out)
        #expect(gone.status == 1 && gone.stderr.contains("'./pic.pdf', from an earlier run, is left as it was"), "\(gone)")
        try "x".write(toFile: out + "/doc.pdf", atomically: true, encoding: .utf8)
        try dated("doc.pdf", -3600)
        let notOurs = try typeset(["render", "doc.xml"], in: out)
        #expect(notOurs.status == 1 && !notOurs.stderr.contains("earlier run"), "\(notOurs)")
        #expect(!OutputFormat.pdf.isOurs(out + "/doc.pdf") && OutputFormat.pdf.isOurs(out + "/new.pdf") == false)
        #expect(OutputFormat.svg.isOurs(out + "/doc-2.svg") && !OutputFormat.png.isOurs(out + "/doc-2.svg"))
        // A picture named as a later page is no leftover of a render that succeeds.
        try writeRedPicture(out + "/shows-2.png")
        try "<document><image src='shows-2.png' alt='x'/></document>".write(toFile: out + "/shows.xml", atomically: true, encoding: .utf8)
        let shows = try typeset(["render", "shows.xml", "--format", "png"], in: out)
        #expect(shows.status == 0 && !shows.stderr.contains("left from"), "\(shows)")
        #expect(OutputFormat.png.isOurs(out + "/shows.png"))
        // Nor the outputs of screens numbered as pages: onboarding-2.xml's of onboarding.xml.
        for name in ["onb", "onb-2", "onb-3"] {
            try "<document><p>\(name)</p></document>".write(toFile: out + "/\(name).xml", atomically: true, encoding: .utf8)
        }
        #expect(try typeset(["render", "onb.xml", "onb-2.xml", "onb-3.xml", "--format", "png"], in: out).status == 0)
        let alone = try typeset(["render", "onb.xml", "--format", "png"], in: out)
        #expect(alone.status == 0 && !alone.stderr.contains("left from"), "\(alone)")
        let named = try typeset(["render", "onb.xml", "-o", "onb.png"], in: out)
        #expect(named.status == 0 && !named.stderr.contains("left from"), "\(named)")
        // Nor is another screen's output written over by a page of this one, rendered alone (as
        // a batch of both refuses to).
        let page2 = try Data(contentsOf: URL(fileURLWithPath: out + "/onb-2.png"))
        try "<document height='100'><p>1</p><spacer height='90'/><p>2</p></document>".write(toFile: out + "/onb.xml", atomically: true, encoding: .utf8)
        let over = try typeset(["render", "onb.xml", "--format", "png"], in: out)
        #expect(over.status == 1 && over.stderr.contains("page 2 would be written to './onb-2.png', the output of 'onb-2.xml'"), "\(over)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/onb-2.png")) == page2)
        // Pages left with a file of the user's between them are named each.
        try "<document height='100'><p>1</p><spacer height='90'/><p>2</p><spacer height='90'/><p>3</p></document>"
            .write(toFile: out + "/long.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "long.xml", "-o", "x.png"], in: out).status == 0)
        try "mine".write(toFile: out + "/x-2.png", atomically: true, encoding: .utf8)
        let gap = try typeset(["render", "onb.xml", "-o", "x.png"], in: out)
        #expect(gap.stderr.contains("warning: 'x-3.png' is left from an earlier render"), "\(gap)")
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try typeset(["render"]).status == 2)
        #expect(try typeset(["render", "a.xml", "-o", "x.pdf", "--out-dir", "d"]).status == 2)
        #expect(try typeset(["render", "a.xml", "-o", "x.doc"]).status == 2)
        #expect(try typeset(["render", "a.xml", "--text-size", "Huge"]).status == 2)
        #expect(try typeset(["render", "a.xml", "--shard", "3/2"]).status == 2)
        // layout takes render's options: --shard is checked too, and otherwise changes nothing.
        #expect(try typeset(["layout", "a.xml", "--shard", "3/2"]).status == 2)
        let layout = try typeset(["layout", examples + "/settings-en.xml", "--shard", "1/2"])
        #expect(layout.status == 0 && layout.stdout.hasPrefix("{"), "\(layout)")
    }

    /// An output that is one of the command's inputs is refused before anything is read or
    /// written: the markup (or catalog) is left as it was. A mistyped font or asset folder is a
    /// usage error too, rather than fonts and images silently not found.
    @Test func inputsAreNeverWrittenOver() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let markup = "<document><p>Text</p></document>\n"
        let input = out + "/v.xml"
        try markup.write(toFile: input, atomically: true, encoding: .utf8)
        try "{\"k\": \"Text\"}".write(toFile: out + "/s.json", atomically: true, encoding: .utf8)
        try markup.write(toFile: out + "/w.pdf", atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            ["render", input, "-o", input, "--format", "pdf"],
            ["render", input, "-o", out + "/./sub/../v.xml", "--format", "png"],
            ["render", input, "--strings", out + "/s.json", "-o", out + "/s.json", "--format", "svg"],
            ["render", out + "/w.pdf"],
            ["sheet", input, "-o", input, "--format", "svg"],
        ]
        for arguments in commands {
            let result = try typeset(arguments)
            #expect(result.status == 2 && result.stderr.contains("is an input"), "\(arguments): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == markup)
        #expect(try String(contentsOfFile: out + "/w.pdf", encoding: .utf8) == markup)
        #expect(files(in: out) == ["s.json", "v.xml", "w.pdf"])
        for option in ["--font-dir", "--assets"] {
            for folder in [out + "/missing", input] {
                let layout = try typeset(["layout", input, option, folder])
                #expect(layout.status == 2 && layout.stderr.contains(folder), "\(option) \(folder): \(layout.stderr)")
                let sheet = try typeset(["sheet", input, "-o", out + "/sheet.pdf", option, folder])
                #expect(sheet.status == 2, "\(option) \(folder): \(sheet.stderr)")
            }
        }
        #expect(try typeset(["layout", input, "--font-dir", out, "--assets", out]).status == 0)
    }

    /// Nor through a symbolic link (outputs are written through links), nor as a later page or
    /// a snapshot's reference, which are known only as they are written: each replaced the input
    /// it led to, and the command said nothing and exited 0.
    @Test func inputsAreNeverWrittenOverThroughLinksOrLaterPages() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let markup = "<document><p>Text</p></document>\n"
        let long = try String(contentsOfFile: repositoryRoot + "/Examples/long-page.xml", encoding: .utf8)
        try markup.write(toFile: out + "/v.xml", atomically: true, encoding: .utf8)
        try long.write(toFile: out + "/long.xml", atomically: true, encoding: .utf8)
        try markup.write(toFile: out + "/x-2.png", atomically: true, encoding: .utf8)  // markup, so named
        try FileManager.default.createSymbolicLink(atPath: out + "/out.pdf", withDestinationPath: "v.xml")
        try FileManager.default.createSymbolicLink(atPath: out + "/long-2.png", withDestinationPath: "v.xml")
        let linked = try typeset(["render", "long.xml", "v.xml", "-o", "out.pdf"], in: out)
        #expect(linked.status == 2 && linked.stderr.contains("'out.pdf' leads to the input 'v.xml'"), "\(linked.stderr)")
        let sheet = try typeset(["sheet", "v.xml", "-o", "out.pdf"], in: out)
        #expect(sheet.status == 2 && sheet.stderr.contains("'out.pdf' leads to the input 'v.xml'"), "\(sheet.stderr)")
        // A markup file or string catalog that is no input is refused as an output too.
        try markup.write(toFile: out + "/notes.xml", atomically: true, encoding: .utf8)
        for arguments in [["render", "v.xml", "-o", "notes.xml", "--format", "pdf"], ["sheet", "v.xml", "-o", "notes.xml", "--format", "png"],
                          ["diff", "v.xml", "v.xml", "--out", "notes.xml"]] {
            let result = try typeset(arguments, in: out)
            #expect(result.status == 2 && result.stderr.contains("'notes.xml' is a markup file or string catalog"), "\(arguments): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: out + "/notes.xml", encoding: .utf8) == markup)
        // A later page through a link, and a later page named like an input: the input fails.
        let page = try typeset(["render", "long.xml", "v.xml", "--format", "png", "--out-dir", "."], in: out)
        #expect(page.status == 1, "\(page.stderr)")
        #expect(page.stderr.contains("cannot write ./long-2.png: it leads to 'v.xml', a file this command reads"), "\(page.stderr)")
        let named = try typeset(["render", "long.xml", "x-2.png", "-o", "x.png"], in: out)
        #expect(named.status == 1 && named.stderr.contains("cannot write x-2.png: it is a file this command reads"), "\(named.stderr)")
        // A snapshot reference that leads to its markup, and one that is a picture it shows.
        try FileManager.default.createDirectory(atPath: out + "/snap/__snapshots__", withIntermediateDirectories: true)
        try markup.write(toFile: out + "/snap/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out + "/snap/__snapshots__/a.png", withDestinationPath: "../a.xml")
        try #"<document><image src="__snapshots__/b.png" width="10" height="10"/></document>"#
            .write(toFile: out + "/snap/b.xml", atomically: true, encoding: .utf8)
        let picture = try typeset(["render", out + "/snap/a.xml", "-o", out + "/pic.png", "--scale", "0.1"])
        #expect(picture.status == 0)
        try FileManager.default.copyItem(atPath: out + "/pic.png", toPath: out + "/snap/__snapshots__/b.png")
        let snapshot = try typeset(["snapshot", "snap", "--update"], in: out)
        #expect(snapshot.status == 1, "\(snapshot)")
        #expect(snapshot.stdout.contains("it leads to 'snap/a.xml', a file this command reads"), "\(snapshot.stdout)")
        #expect(snapshot.stdout.contains("an image a document shows"), "\(snapshot.stdout)")
        for file in ["v.xml", "x-2.png", "snap/a.xml"] {
            #expect(try String(contentsOfFile: out + "/" + file, encoding: .utf8) == markup, "\(file)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/snap/__snapshots__/b.png")) == Data(contentsOf: URL(fileURLWithPath: out + "/pic.png")))
        // Another document's picture, whatever the order of the jobs: z.xml shows c's reference.
        try FileManager.default.createDirectory(atPath: out + "/order/__snapshots__", withIntermediateDirectories: true)
        try markup.write(toFile: out + "/order/c.xml", atomically: true, encoding: .utf8)
        try #"<document><image src="__snapshots__/c.png" width="10" height="10"/></document>"#
            .write(toFile: out + "/order/z.xml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: out + "/pic.png", toPath: out + "/order/__snapshots__/c.png")
        let ordered = try typeset(["snapshot", "order", "--update", "--jobs", "1"], in: out)
        #expect(ordered.status == 1 && ordered.stdout.contains("FAIL c.xml: cannot write"), "\(ordered)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/order/__snapshots__/c.png")) == Data(contentsOf: URL(fileURLWithPath: out + "/pic.png")))
        // A hard link to an input is another name: writing it (a rename) leaves the input.
        try FileManager.default.linkItem(atPath: out + "/v.xml", toPath: out + "/hard.pdf")
        let hard = try typeset(["render", "v.xml", "-o", "hard.pdf"], in: out)
        #expect(hard.status == 0, "\(hard.stderr)")
        #expect(try String(contentsOfFile: out + "/v.xml", encoding: .utf8) == markup)
    }

    /// An output folder the system will not make (no permission) is the input's failure, exit 1,
    /// as a folder that is there and read-only is (it was a usage error, exit 2, with the usage
    /// text); a file in the way is still a usage error. As root (CI), run as `nobody`.
    @Test func anOutputFolderTheSystemWillNotMakeFailsTheInputs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o755)  // readable by all, writable by its owner only
        try "<document><p>x</p></document>".write(toFile: folder + "/a.xml", atomically: true, encoding: .utf8)
        chmod(folder + "/a.xml", 0o644)
        try "<document><p>y</p></document>".write(toFile: folder + "/b.xml", atomically: true, encoding: .utf8)
        chmod(folder + "/b.xml", 0o644)
        let arguments = ["render", folder + "/a.xml", folder + "/b.xml", "--out-dir", folder + "/out/sub"]
        let run = try typesetUnprivileged(arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("cannot make the folder '\(folder)/out/sub' for the output: Permission denied"), "\(run.stderr)")
        #expect(!run.stderr.contains("Usage"), "\(run.stderr)")
        // The summary names the inputs that failed, as for a failed write.
        #expect(run.stderr.contains("rendered 0 of 2 inputs; failed: \(folder)/a.xml, \(folder)/b.xml"), "\(run.stderr)")
        // A file in a folder that is there and read-only: the folder is named (it said only
        // "Permission denied" of a file the user may write).
        let file = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/a.pdf"])
        #expect(
            file.stderr.contains("cannot write \(folder)/a.pdf: Permission denied (the folder '\(folder)' may not be written to)"),
            "\(file.stderr)")
    }

    /// An output replaced keeps its owner, group and permissions (a shared 0664 file came back
    /// 0644); one its owner made read-only (chmod a-w) is refused (it was replaced, exit 0), but
    /// not to root. As root (CI), run as `nobody`.
    @Test func aReplacedOutputKeepsItsModeAndAReadOnlyOneIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o777)
        try "<document><p>x</p></document>".write(toFile: folder + "/a.xml", atomically: true, encoding: .utf8)
        chmod(folder + "/a.xml", 0o644)
        for (name, mode) in [("shared.pdf", 0o664), ("kept.pdf", 0o444)] as [(String, mode_t)] {
            let made = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/" + name])
            #expect(made.status == 0, "\(made)")
            chmod(folder + "/" + name, mode)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/kept.pdf"))
        try "<document><p>y</p></document>".write(toFile: folder + "/a.xml", atomically: true, encoding: .utf8)
        let shared = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/shared.pdf"])
        #expect(shared.status == 0, "\(shared)")
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/shared.pdf")[.posixPermissions] as? Int
        #expect(mode == 0o664)
        let kept = try typesetUnprivileged(["render", folder + "/a.xml", "-o", folder + "/kept.pdf"])
        #expect(kept.status == 1, "\(kept)")
        #expect(
            kept.stderr.contains("cannot write \(folder)/kept.pdf: it is read-only (mode 444); make it writable or name another output"),
            "\(kept.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/kept.pdf")) == before)
        // Root replaces a user's file as theirs (it came back root's, 0600 unreadable to them).
        if getuid() == 0 {
            #expect(try typeset(["render", folder + "/a.xml", "-o", folder + "/shared.pdf"]).status == 0)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/shared.pdf")
            #expect(attributes[.ownerAccountID] as? Int == 65534 && attributes[.posixPermissions] as? Int == 0o664, "\(attributes)")
        }
    }

    /// An output that is a link to another input's output or to a picture a document shows:
    /// written through, it replaced that file without a word (exit 0), the one kept depending
    /// on the order of the jobs. Both inputs fail on another input's output; the picture is
    /// refused; a snapshot reference that links to another screen's is not written through.
    @Test func outputsThroughLinksReplaceNoOtherOutputNorPicture() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let markup = "<document><p>Text</p></document>\n"
        for name in ["a", "b", "c"] { try markup.write(toFile: out + "/\(name).xml", atomically: true, encoding: .utf8) }
        try FileManager.default.createDirectory(atPath: out + "/o", withIntermediateDirectories: true)
        // A link to nothing yet too: written through once a.pdf was, whichever came first.
        try FileManager.default.createSymbolicLink(atPath: out + "/o/b.pdf", withDestinationPath: "a.pdf")
        let fresh = try typeset(["render", "a.xml", "b.xml", "--out-dir", "o", "--jobs", "1"], in: out)
        #expect(fresh.status == 1 && !FileManager.default.fileExists(atPath: out + "/o/a.pdf"), "\(fresh)")
        // And a chain of them: b.pdf → c.pdf → a.pdf.
        try FileManager.default.removeItem(atPath: out + "/o/b.pdf")
        try FileManager.default.createSymbolicLink(atPath: out + "/o/b.pdf", withDestinationPath: "c.pdf")
        try FileManager.default.createSymbolicLink(atPath: out + "/o/c.pdf", withDestinationPath: "a.pdf")
        let chain = try typeset(["render", "a.xml", "b.xml", "--out-dir", "o", "--jobs", "1"], in: out)
        #expect(chain.status == 1 && !FileManager.default.fileExists(atPath: out + "/o/a.pdf"), "\(chain)")
        try FileManager.default.removeItem(atPath: out + "/o/c.pdf")
        try FileManager.default.removeItem(atPath: out + "/o/b.pdf")
        try FileManager.default.createSymbolicLink(atPath: out + "/o/b.pdf", withDestinationPath: "a.pdf")
        try Data("an earlier a.pdf".utf8).write(to: URL(fileURLWithPath: out + "/o/a.pdf"))
        for jobs in ["1", "2"] {
            let both = try typeset(["render", "a.xml", "b.xml", "c.xml", "--out-dir", "o", "--jobs", jobs], in: out)
            #expect(both.status == 1, "\(both)")
            #expect(both.stderr.contains("'a.xml' and 'b.xml' would both be written to 'o/a.pdf' ('o/b.pdf' leads to 'o/a.pdf')"), "\(both.stderr)")
            #expect(try String(contentsOfFile: out + "/o/a.pdf", encoding: .utf8) == "an earlier a.pdf")
            #expect(FileManager.default.fileExists(atPath: out + "/o/c.pdf"))
        }
        // A picture: a.xml shows pic.png, and b's output is a link to it, in PNG and in PDF.
        let picture = try typeset(["render", "c.xml", "-o", "pic.png", "--scale", "0.1"], in: out)
        #expect(picture.status == 0)
        let pictureBytes = try Data(contentsOf: URL(fileURLWithPath: out + "/pic.png"))
        try #"<document><image src="pic.png" width="10" height="10"/></document>"#.write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: out + "/p", withIntermediateDirectories: true)
        for format in ["png", "pdf"] {
            try FileManager.default.createSymbolicLink(atPath: out + "/p/b.\(format)", withDestinationPath: "../pic.png")
            let shown = try typeset(["render", "a.xml", "b.xml", "--out-dir", "p", "--format", format], in: out)
            #expect(shown.status != 0 && shown.stderr.contains("a picture 'a.xml' shows"), "\(format): \(shown)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/pic.png")) == pictureBytes, "\(format)")
        }
        // A snapshot reference linked to another screen's: that screen's is left as it was.
        try FileManager.default.createDirectory(atPath: out + "/s/__snapshots__", withIntermediateDirectories: true)
        try markup.write(toFile: out + "/s/a.xml", atomically: true, encoding: .utf8)
        try markup.write(toFile: out + "/s/b.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["snapshot", "s", "--update"], in: out).status == 0)
        try FileManager.default.removeItem(atPath: out + "/s/__snapshots__/b.png")
        try FileManager.default.createSymbolicLink(atPath: out + "/s/__snapshots__/b.png", withDestinationPath: "a.png")
        let reference = try Data(contentsOf: URL(fileURLWithPath: out + "/s/__snapshots__/a.png"))
        try "<document><p>Changed</p></document>\n".write(toFile: out + "/s/b.xml", atomically: true, encoding: .utf8)
        let update = try typeset(["snapshot", "s", "--update"], in: out)
        #expect(update.status == 1 && update.stdout.contains("/s/__snapshots__/a.png', which it would replace"), "\(update)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/s/__snapshots__/a.png")) == reference)
    }

    /// An output that is a link to itself was replaced by the file; one to a file in a folder
    /// that does not exist failed naming only that file, a path the user never typed.
    @Test func outputLinksThatCannotBeWrittenThroughAreNamed() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try "<document><p>Text</p></document>\n".write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out + "/self.pdf", withDestinationPath: "self.pdf")
        try FileManager.default.createSymbolicLink(atPath: out + "/far.pdf", withDestinationPath: "nowhere/out.pdf")
        let loop = try typeset(["render", "a.xml", "-o", "self.pdf"], in: out)
        #expect(loop.status == 1, "\(loop)")
        // At the file, as SPEC 5 has every error (it was "typeset: error: …", which a CI log's
        // matcher of FILE:LINE:COLUMN missed); `sheet -o` too.
        #expect(loop.stderr.contains("self.pdf:1:1: error: cannot write self.pdf: it is a symbolic link that cannot be followed (too many levels of symbolic links)"), "\(loop)")
        let sheet = try typeset(["sheet", "a.xml", "-o", "self.pdf"], in: out)
        #expect(sheet.status == 1 && sheet.stderr.contains("self.pdf:1:1: error: cannot write self.pdf: it is a symbolic link"), "\(sheet)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: out + "/self.pdf") == "self.pdf")
        let far = try typeset(["render", "a.xml", "-o", "far.pdf"], in: out)
        #expect(far.status == 1, "\(far)")
        #expect(far.stderr.contains("far.pdf:1:1: error: cannot write far.pdf: it is a symbolic link to 'nowhere/out.pdf', whose folder does not exist"), "\(far)")
        #expect(!FileManager.default.fileExists(atPath: out + "/nowhere"))
    }

    /// In a batch, another input's page must not replace a picture a document shows either:
    /// a.xml showing b.png, beside b.xml, lost the picture to b's page (and a.png changed from
    /// run to run). Refused before anything is written; to another folder, both render.
    @Test func aPictureAnotherInputShowsIsNeverWrittenOver() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try writeRedPicture(out + "/b.png")
        let picture = try Data(contentsOf: URL(fileURLWithPath: out + "/b.png"))
        try "<document><image src=\"b.png\"/></document>".write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try "<document><p>Screen B</p></document>".write(toFile: out + "/b.xml", atomically: true, encoding: .utf8)
        for jobs in ["1", "2"] {
            let result = try typeset(["render", "a.xml", "b.xml", "--format", "png", "--jobs", jobs], in: out)
            #expect(result.status == 2 && result.stderr.contains("is a picture 'a.xml' shows, and 'b.xml' would be written over it"), "\(result)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/b.png")) == picture)
            #expect(files(in: out) == ["a.xml", "b.png", "b.xml"])
        }
        #expect(try typeset(["render", "a.xml", "b.xml", "--format", "png", "--out-dir", "pages"], in: out).status == 0)
        #expect(files(in: out + "/pages") == ["a.png", "b.png"])
        // A later page fails its input; the picture stays.
        try FileManager.default.moveItem(atPath: out + "/b.png", toPath: out + "/c-2.png")
        try "<document><image src=\"c-2.png\"/></document>".write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try "<document height=\"100\"><p>C</p><spacer height=\"200\"/><p>C, page 2</p></document>"
            .write(toFile: out + "/c.xml", atomically: true, encoding: .utf8)
        let later = try typeset(["render", "a.xml", "c.xml", "--format", "png", "--jobs", "1"], in: out)
        #expect(later.status == 1 && later.stderr.contains("page 2 would be written to './c-2.png', a picture 'a.xml' shows"), "\(later)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/c-2.png")) == picture)
        // A picture not there yet fails its document whatever the order (it found the other
        // input's page when that was written first).
        try FileManager.default.removeItem(atPath: out + "/a.png")
        try "<document><image src=\"d.png\"/></document>".write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try "<document><p>D</p></document>".write(toFile: out + "/d.xml", atomically: true, encoding: .utf8)
        for (order, jobs) in [(["d.xml", "a.xml"], "1"), (["a.xml", "d.xml"], "1"), (["d.xml", "a.xml"], "2")] {
            let run = try typeset(["render"] + order + ["--format", "png", "--jobs", jobs], in: out)
            #expect(run.status == 1 && run.stderr.contains("image 'd.png' does not exist"), "\(order) \(jobs): \(run)")
            try FileManager.default.removeItem(atPath: out + "/d.png")
        }
    }

    /// A 20 × 10 red PNG, for a document to show.
    private func writeRedPicture(_ path: String) throws {
        try render(
            pages: [Page(width: 20, height: 10, background: Color(red: 1, green: 0, blue: 0))],
            to: path, options: RenderOptions(format: .png, scale: 1))
    }

    /// A PNG the document shows is one of its inputs too: rendering banner.xml to PNG beside
    /// the banner.png it shows would replace the picture with the mockup of itself.
    @Test func anImageTheDocumentShowsIsNeverWrittenOver() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try writeRedPicture(out + "/banner.png")
        // A PNG under another name, to show that PDF output is checked as well.
        try FileManager.default.copyItem(atPath: out + "/banner.png", toPath: out + "/picture.pdf")
        let picture = try Data(contentsOf: URL(fileURLWithPath: out + "/banner.png"))
        try "<document><image src=\"banner.png\"/><image src=\"picture.pdf\"/><p>Banner mockup</p></document>"
            .write(toFile: out + "/banner.xml", atomically: true, encoding: .utf8)
        // Said at the <image> that shows it: the first at column 11, the second at 36.
        let commands: [(arguments: [String], column: Int)] = [
            (["render", "banner.xml", "--format", "png"], 11),
            (["render", "banner.xml", "-o", "sub/../banner.png"], 11),
            (["render", "banner.xml", "banner.xml", "-o", "banner.png"], 11),
            (["render", "banner.xml", "-o", "picture.pdf"], 36),
            (["sheet", "banner.xml", "-o", "banner.png"], 11),
        ]
        for (arguments, column) in commands {
            let result = try typeset(arguments, in: out)
            #expect(
                result.status == 1 && result.stderr.contains("banner.xml:1:\(column): error: cannot write ")
                    && result.stderr.contains("it is an image the document shows")
                    && !result.stderr.contains("earlier run"),  // (it said to remove the picture)
                "\(arguments): \(result.stderr)")
        }
        for name in ["banner.png", "picture.pdf"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == picture, "\(name)")
        }
        #expect(files(in: out).filter { $0 != "sub" } == ["banner.png", "banner.xml", "picture.pdf"])
        #expect(try typeset(["render", "banner.xml", "--format", "svg"], in: out).status == 0)
        // --format wins over -o's extension (SPEC 5.1), and says so.
        let mismatch = try typeset(["render", "banner.xml", "-o", "mock.pdf", "--format", "svg"], in: out)
        #expect(mismatch.status == 0)
        #expect(mismatch.stderr.contains("warning: writing SVG to 'mock.pdf', whose extension says PDF (--format wins)"))
        #expect(try String(contentsOfFile: out + "/mock.pdf", encoding: .utf8).hasPrefix("<?xml"))
    }

    /// With one output for several inputs (-o), a page or the PDF over a picture an input shows
    /// refuses the output, with that input's error at its <image> (the whole batch failed, unlocated);
    /// so does a sheet over a picture an input shows on a page the sheet does not draw.
    @Test func anOutputOverAPictureIsRefusedWithTheShowingInputsError() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try writeRedPicture(out + "/out-2.png")
        try FileManager.default.copyItem(atPath: out + "/out-2.png", toPath: out + "/sheet.png")
        let picture = try Data(contentsOf: URL(fileURLWithPath: out + "/out-2.png"))
        let three = "<document height=\"60\" margin=\"0\"><p>A</p><p>B</p><p>C</p>"
        try (three + "<image src=\"out-2.png\" width=\"20\" height=\"10\"/></document>")
            .write(toFile: out + "/doc.xml", atomically: true, encoding: .utf8)
        try (three + "<image src=\"sheet.png\" width=\"20\" height=\"10\"/></document>")
            .write(toFile: out + "/later.xml", atomically: true, encoding: .utf8)
        try "<document><p>Other</p></document>".write(toFile: out + "/other.xml", atomically: true, encoding: .utf8)
        let before = files(in: out)
        for arguments in [
            ["render", "other.xml", "doc.xml", "-o", "out.png"],
            ["render", "other.xml", "doc.xml", "-o", "out-2.png", "--format", "pdf"],
        ] {
            let result = try typeset(arguments, in: out)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(
                result.stderr.contains(
                    "doc.xml:1:\(three.count + 1): error: cannot write out-2.png: it is an image the document shows"),
                "\(result)")
            #expect(result.stderr.contains("rendered 0 of 2 inputs"), "\(result)")
            #expect(files(in: out) == before, "\(arguments)")
        }
        // The picture is later in the document than the first page, which alone a cell draws.
        let sheet = try typeset(["sheet", "later.xml", "-o", "sheet.png"], in: out)
        #expect(sheet.status == 1 && sheet.stderr.contains("later.xml:1:\(three.count + 1): error: cannot write sheet.png"), "\(sheet)")
        for name in ["out-2.png", "sheet.png"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == picture, "\(name)")
        }
        // Pages that miss the picture are written.
        #expect(try typeset(["render", "other.xml", "doc.xml", "-o", "out.svg"], in: out).status == 0)
    }

    /// Any name a folder can hold can be written: the hidden temporary beside it took 19 bytes
    /// more, and a name of 237 to 255 bytes failed with "File name too long".
    @Test func anOutputNameOfTheLongestLengthIsWritten() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let input = repositoryRoot + "/Examples/settings-en.xml"
        for name in [String(repeating: "d", count: 251) + ".pdf", String(repeating: "é", count: 125) + ".svg"] {
            #expect(name.utf8.count >= 254)
            let result = try typeset(["render", input, "-o", out + "/" + name])
            #expect(result.status == 0, "\(result)")
            #expect(files(in: out) == [name])
            try FileManager.default.removeItem(atPath: out + "/" + name)
        }
    }

    /// One file given twice is one input however it is spelt, rendered once: `a.xml ./a.xml`
    /// was refused as two inputs writing one output, while `a.xml a.xml` rendered twice, and
    /// without `--out-dir` (each output beside its input, spelt as the input is) so did
    /// `a.xml ./a.xml`, the jobs writing one file at once.
    @Test func oneFileGivenTwiceIsNoCollision() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try "<document><p>x</p></document>".write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: out + "/sub", withIntermediateDirectories: true)
        try "<document><p>y</p></document>".write(toFile: out + "/sub/a.xml", atomically: true, encoding: .utf8)
        for inputs in [["a.xml", "a.xml"], ["a.xml", "./a.xml"], ["a.xml", "sub/../a.xml"]] {
            let run = try typeset(["render"] + inputs + ["--out-dir", "d"], in: out)
            // One input: no "rendered 2 of 2 inputs" line.
            #expect(run.status == 0 && run.stderr.isEmpty, "\(inputs): \(run)")
            let beside = try typeset(["render"] + inputs + [out + "/a.xml", "--jobs", "2"], in: out)
            #expect(beside.status == 0 && beside.stderr.isEmpty, "\(inputs): \(beside)")
        }
        // A path that names no file is not the file its spelling resolves to: it fails, and is
        // reported (`nosuchdir/../a.xml` was taken for `a.xml` and dropped, exit 0).
        let missing = try typeset(["render", "a.xml", "nosuchdir/../a.xml", "--out-dir", "d"], in: out)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("nosuchdir/../a.xml:1:1: error: cannot read the file"), "\(missing)")
        #expect(missing.stderr.contains("rendered 1 of 2 inputs"), "\(missing)")
        // A link to the file, named otherwise, has an output of its own.
        try FileManager.default.createSymbolicLink(atPath: out + "/link.xml", withDestinationPath: "a.xml")
        let linked = try typeset(["render", "a.xml", "link.xml", "--out-dir", "e"], in: out)
        #expect(linked.status == 0 && files(in: out + "/e") == ["a.pdf", "link.pdf"], "\(linked)")
        // A link to it from another folder reads its pictures there: another input, which
        // collides (it was dropped unreported).
        try FileManager.default.createDirectory(atPath: out + "/other", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/other/a.xml", withDestinationPath: "../a.xml")
        let elsewhere = try typeset(["render", "a.xml", "other/a.xml", "--out-dir", "g"], in: out)
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("would both be written to 'g/a.pdf'"), "\(elsewhere)")
        // The file reached through a link to its folder is the same input, writing the same
        // file beside it: rendered once (the two clashed).
        try FileManager.default.createSymbolicLink(atPath: out + "/alias", withDestinationPath: "sub")
        let aliased = try typeset(["render", "sub/a.xml", "alias/a.xml"], in: out)
        #expect(aliased.status == 0 && aliased.stderr.isEmpty && files(in: out + "/sub") == ["a.pdf", "a.xml"], "\(aliased)")
        // Two paths that name no file are two failures, however alike.
        let twoMissing = try typeset(["render", "a.xml", "none.xml", "none.xml", "--out-dir", "h"], in: out)
        #expect(twoMissing.stderr.contains("rendered 1 of 3 inputs"), "\(twoMissing)")
        // Two files of one name still collide.
        let two = try typeset(["render", "a.xml", "sub/a.xml", "--out-dir", "d"], in: out)
        #expect(two.status == 1 && two.stderr.contains("would both be written to 'd/a.pdf'"), "\(two)")
        // What is no markup writes nothing: a folder named as the screen (its pictures) and a
        // screenshot fail on their own, and the markup is rendered (both failed as a clash).
        try FileManager.default.createDirectory(atPath: out + "/shots/a", withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: out + "/shots/a.png"))
        for inputs in [["shots/a", "a.xml", "shots/a.png"], ["shots/a.png", "shots/a", "a.xml"]] {
            let beside = try typeset(["render"] + inputs + ["--out-dir", "p"], in: out)
            #expect(beside.status == 1 && files(in: out + "/p") == ["a.pdf"], "\(inputs): \(beside)")
            #expect(!beside.stderr.contains("would both") && beside.stderr.contains("shots/a.png:1:1: error: the input is a PNG image"), "\(beside)")
            #expect(beside.stderr.contains("rendered 1 of 3 inputs"), "\(beside)")
            try? FileManager.default.removeItem(atPath: out + "/p")
        }
        // Names in other Unicode code points, `café` composed and decomposed (as macOS writes
        // names), are two files with two outputs: Swift's == took them for one, and both failed.
        try "<document><p>1</p></document>".write(toFile: out + "/caf\u{E9}.xml", atomically: true, encoding: .utf8)
        try "<document><p>2</p></document>".write(toFile: out + "/cafe\u{301}.xml", atomically: true, encoding: .utf8)
        let spelled = try typeset(["render", "caf\u{E9}.xml", "cafe\u{301}.xml", "--out-dir", "n"], in: out)
        #expect(spelled.status == 0 && !spelled.stderr.contains("error"), "\(spelled)")
        #expect(files(in: out + "/n").map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            == [Array("cafe\u{301}.pdf".utf8), Array("caf\u{E9}.pdf".utf8)])
        // A folder whose name ends in a prepended mark (U+06DD, one Character with the slash
        // after it): the output goes beside the input, or into --out-dir alone (it went to
        // a folder that did not exist, or took the input's folder into --out-dir).
        try FileManager.default.createDirectory(atPath: out + "/x\u{6DD}", withIntermediateDirectories: true)
        try "<document><p>3</p></document>".write(toFile: out + "/x\u{6DD}/m.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", "x\u{6DD}/m.xml"], in: out).status == 0)
        #expect(try typeset(["render", "x\u{6DD}/m.xml", "--out-dir", "p"], in: out).status == 0)
        #expect(files(in: out + "/x\u{6DD}") == ["m.pdf", "m.xml"] && files(in: out + "/p") == ["m.pdf"])
    }

    /// Paths are split at every slash, whatever stands beside it: a combining mark after it or
    /// a prepended mark before it makes one Character with it, which splitting by Characters
    /// did not find.
    @Test func pathsSplitAtEverySlash() {
        let folder = "x\u{6DD}"  // ARABIC END OF AYAH, a prepended mark
        #expect(Path.lastComponent(folder + "/a.xml") == "a.xml" && Path.folder(folder + "/a.xml") == folder)
        #expect(Path.stem("s/\u{301}a.xml") == "\u{301}a" && Path.folder("s/\u{301}a.xml") == "s")
        #expect(Path.fileExtension("a\u{6DD}.png") == "png" && Path.stem("a\u{6DD}.png") == "a\u{6DD}")
        #expect(Path.lexicallyAbsolute(folder + "/./a.xml", in: "/w") == "/w/" + folder + "/a.xml")
        #expect(OutputFormat.pagePath(for: folder + "/a.png", page: 2) == folder + "/a-2.png")
        #expect(Path.isAbsolute("/\u{301}a") && Path.endsInSlash(folder + "/") && Path.join(folder + "/", "b") == folder + "/b")
        #expect(!Path.same("caf\u{E9}", "cafe\u{301}") && Path.Key("caf\u{E9}") != Path.Key("cafe\u{301}"))
    }

    @Test func pathsResolvedBySpelling() {
        for (path, resolved) in [
            ("a.xml", "/w/a.xml"), ("./a.xml", "/w/a.xml"), ("sub/../a.xml", "/w/a.xml"), ("sub//a.xml", "/w/sub/a.xml"),
            ("/x/./y/../z.xml", "/x/z.xml"), ("../../../a.xml", "/a.xml"), ("sub/", "/w/sub"), ("/", "/"),
        ] {
            #expect(Path.lexicallyAbsolute(path, in: "/w") == resolved, "\(path)")
        }
    }

    /// A sheet's captions: the files without the folders they all share.
    @Test func pathsWithoutTheirCommonFolders() {
        #expect(Path.withoutCommonFolders(["lt/a.xml", "./lt/b.xml", "/w/lt//c.xml"], in: "/w") == ["a.xml", "b.xml", "c.xml"])
        #expect(Path.withoutCommonFolders(["en/a.xml", "ar/a.xml"], in: "/w") == ["en/a.xml", "ar/a.xml"])
        #expect(Path.withoutCommonFolders(["a/b/c.xml", "a/d.xml"], in: "/w") == ["b/c.xml", "d.xml"])
        #expect(Path.withoutCommonFolders(["/deep/folder/one.xml"], in: "/w") == ["one.xml"])
        #expect(Path.withoutCommonFolders([], in: "/w") == [])
        #expect(Path.withoutCommonFolders(["/", "a.xml"], in: "/w") == ["", "w/a.xml"], "the root folder as an input")
        #expect(Path.withoutCommonFolders(["a.xml", "/"], in: "/w") == ["w/a.xml", ""])
    }

    /// A file name that is not UTF-8 is refused, saying so: Swift reads arguments as UTF-8,
    /// such an input "did not exist", and such an output was written under another name.
    @Test func argumentsThatAreNotUTF8AreUsageErrors() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let input = repositoryRoot + "/Examples/settings-en.xml"
        for arguments in [
            "render \"$1\" -o \"$(printf 'out\\351.pdf')\"", "layout \"$(printf 'bad\\377.xml')\"",
            "render \"$1\" --strings \"$(printf 'caf\\351.json')\"", "render \"$1\" \"$(printf -- '--strings=caf\\351.json')\"",
        ] {
            let run = try runProgram("/bin/sh", ["-c", "exec \"$0\" " + arguments, try typesetBinary(), input], in: out)
            #expect(run.status == 2 && run.stderr.contains("is not UTF-8"), "\(arguments): \(run)")
        }
        #expect(files(in: out) == [])
        // An input of a batch fails alone, as a missing one does (one such name in `*.xml`
        // stopped the whole batch, exit 2).
        let batch = try runProgram(
            "/bin/sh", ["-c", "exec \"$0\" render \"$(printf 'bad\\377.xml')\" \"$1\" --out-dir .", try typesetBinary(), input],
            in: out)
        #expect(batch.status == 1, "\(batch)")
        #expect(batch.stderr.contains("cannot read the file 'bad\u{FFFD}.xml': its name is not UTF-8 (U+FFFD stands for what is not)"), "\(batch)")
        #expect(files(in: out) == ["settings-en.pdf"], "\(batch)")
        try FileManager.default.removeItem(atPath: out + "/settings-en.pdf")
        // Nor can `snapshot` read such a file in its folder: said, not "it does not exist".
        let listed = try runProgram("/bin/sh", ["-c", "cp \"$0\" \"$(printf 'caf\\351.xml')\"", input], in: out)
        #expect(listed.status == 0, "\(listed)")
        let snapshot = try typeset(["snapshot", ".", "--update", "--scale", "0.25"], in: out)
        #expect(snapshot.status == 1 && snapshot.stdout.contains(": its name is not UTF-8"), "\(snapshot)")
    }

    /// A document whose later page's name is too long for a folder (`…-2.png`, two bytes more
    /// than the first's) is refused before any page is written: its first page was renamed into
    /// place, and stayed, though the document was reported as failed.
    @Test func aPageNameTooLongFailsItsDocumentBeforeAnyPageIsWritten() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let name = String(repeating: "b", count: 250)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/long-page.xml", toPath: out + "/\(name).xml")
        let result = try typeset(["render", "\(name).xml", "--format", "png", "--scale", "0.25", "--out-dir", "pages"], in: out)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("-2.png: its name is longer than the 255 bytes a file name can have"), "\(result)")
        #expect(files(in: out + "/pages") == [], "no page of a failed document")
    }

    /// The output folders a command makes and writes nothing into (every input failed) are
    /// removed: a failed CI job left `out/screens/` behind, empty.
    @Test func foldersMadeForNothingAreRemoved() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "<document><p>x</document>".write(toFile: folder + "/bad.xml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Examples/settings-en.xml", toPath: folder + "/good.xml")
        for arguments in [["--out-dir", "new/a/b"], ["-o", "new/x/y.pdf"], ["-o", "new/y.png"], ["--out-dir", "new/s", "--format", "svg"]] {
            let run = try typeset(["render", "bad.xml"] + arguments, in: folder)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/new"), "\(arguments)")
        }
        // A folder that was there stays, and so does one something was written into.
        try FileManager.default.createDirectory(atPath: folder + "/kept", withIntermediateDirectories: false)
        #expect(try typeset(["render", "bad.xml", "--out-dir", "kept"], in: folder).status == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/kept"))
        #expect(try typeset(["render", "good.xml", "bad.xml", "--out-dir", "new/ok"], in: folder).status == 1)
        #expect(files(in: folder + "/new/ok") == ["good.pdf"])
    }

    /// No output replaces a font the command reads: `-o` onto one wrote a PDF over it with only
    /// a warning about its extension. (A `--font-dir` font here; the bundled ones are protected
    /// alike, and a test that failed would replace the repository's.) It is a usage error, as
    /// `-o` onto the markup or the catalog is (it was the input's error, exit 1).
    @Test func aFontTheCommandReadsIsNeverWrittenOver() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out + "/fonts", withIntermediateDirectories: true)
        let font = out + "/fonts/Copy.ttf"
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Fonts/NotoSans-Bold.ttf", toPath: font)
        let before = try Data(contentsOf: URL(fileURLWithPath: font))
        let input = repositoryRoot + "/Examples/settings-en.xml"
        for command in ["render", "sheet"] {
            let result = try typeset([command, input, "-o", font, "--format", "pdf", "--font-dir", "fonts"], in: out)
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.contains("'\(font)' is a font this command reads: writing it would replace it"), "\(result)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == before)
        }
        // Nor any font file, read or not: a user's or the system's is read only when a run
        // needs it (`-o ~/.fonts/F.ttf --format pdf` replaced a font the document used).
        for command in ["render", "sheet"] {
            let result = try typeset([command, input, "-o", font, "--format", "pdf"], in: out)
            #expect(result.status == 2 && result.stderr.contains("'\(font)' is a font file: writing it would replace it"), "\(result)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == before)
        }
        // Nor where it is written without `-o` naming it: a page after the first (`Page-2.ttf`)
        // and `diff --out`.
        try FileManager.default.copyItem(atPath: font, toPath: out + "/Page-2.ttf")
        let long = try typeset(["render", repositoryRoot + "/Examples/long-page.xml", "-o", "Page.ttf", "--format", "svg"], in: out)
        #expect(long.status == 1 && long.stderr.contains("it is a font file; writing it would replace it"), "\(long)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/Page-2.ttf")) == before)
        #expect(!FileManager.default.fileExists(atPath: out + "/Page.ttf"), "all pages or none")
        let png = repositoryRoot + "/Tests/Golden/download-row.png"
        let diff = try typeset(["diff", png, png, "--out", font], in: out)
        #expect(diff.status != 0 && diff.stderr.contains("font file"), "\(diff)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: font)) == before)
    }

    /// An output that is a symbolic link to a markup file or string catalog is refused as one
    /// named so is: `out/a.pdf` → `../notes.xml` replaced the notes with a PDF (render, sheet
    /// and `diff --out` alike), where a link to a font was refused.
    @Test func aLinkToMarkupOrACatalogIsNeverWrittenThrough() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let notes = "<document><p>notes</p></document>"
        try notes.write(toFile: out + "/a.xml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: out + "/lk", withIntermediateDirectories: true)
        for (target, link) in [("notes.xml", "lk/a.pdf"), ("c.xcstrings", "sheet.pdf"), ("l.strings", "d.png")] {
            try notes.write(toFile: out + "/" + target, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: out + "/" + link, withDestinationPath: link.hasPrefix("lk/") ? "../" + target : target)
        }
        let png = repositoryRoot + "/Tests/Golden/download-row.png"
        for command in [["render", "a.xml", "--out-dir", "lk"], ["sheet", "a.xml", "-o", "sheet.pdf"], ["diff", png, repositoryRoot + "/Tests/Golden/hig-lists.png", "--out", "d.png"]] {
            let result = try typeset(command, in: out)
            #expect(result.status != 0 && result.stderr.contains("a markup file or string catalog; writing it would replace it"), "\(result)")
        }
        for target in ["notes.xml", "c.xcstrings", "l.strings"] {
            #expect(try String(contentsOfFile: out + "/" + target, encoding: .utf8) == notes, "\(target)")
        }
        // Nor a link to a JSON catalog, nor one to markup not made yet (it made new.xml a PDF).
        try notes.write(toFile: out + "/strings.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out + "/j.pdf", withDestinationPath: "strings.json")
        try FileManager.default.createSymbolicLink(atPath: out + "/n.pdf", withDestinationPath: "new.xml")
        for output in ["j.pdf", "n.pdf"] {
            let result = try typeset(["render", "a.xml", "-o", output], in: out)
            #expect(result.status == 1 && result.stderr.contains("named as a markup file or string catalog") || result.stderr.contains("a markup file or string catalog; writing it"), "\(result)")
        }
        #expect(try String(contentsOfFile: out + "/strings.json", encoding: .utf8) == notes)
        #expect(!FileManager.default.fileExists(atPath: out + "/new.xml"))
        // Nor markup or a catalog whose first bytes look like an output's (by the producer,
        // chunk or comment typeset writes, not by "<svg" or "%PDF-" alone).
        for (name, text) in [("icons.json", #"{"logo": "<svg viewBox='0 0 1 1'/>"}"#), ("m.strings", "%PDF-1.4 x"),
                             ("o.xml", "<document><!-- from <svg> --><p>x</p></document>")] {
            try text.write(toFile: out + "/" + name, atomically: true, encoding: .utf8)
            let refused = try typeset(["render", "a.xml", "--format", "svg", "-o", name], in: out)
            let kept = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            #expect(refused.status == 2 && kept == text, "\(name): \(refused)")
        }
        // An output of typeset's so named is written again (the second run was refused).
        for format in ["png", "pdf", "svg"] {
            for _ in 0..<2 {
                let again = try typeset(["render", "a.xml", "--format", format, "-o", "out.json"], in: out)
                #expect(again.status == 0, "\(format): \(again)")
            }
        }
    }

    /// A damaged bundled font is named, as a damaged `--font-dir` one is: text silently took
    /// another face (all of it bold without NotoSans-Regular.ttf).
    @Test func aDamagedBundledFontIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Fonts") {
            try FileManager.default.copyItem(atPath: repositoryRoot + "/Fonts/" + file, toPath: folder + "/" + file)
        }
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: folder + "/NotoSans-Regular.ttf"))
        // One whose cmap has no subtable too (its cmaps are read only when asked for; the
        // table's header says so).
        let hebrew = try withEmptyCmap([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/NotoSansHebrew-Regular.ttf"))))
        try Data(hebrew).write(to: URL(fileURLWithPath: folder + "/NotoSansHebrew-Regular.ttf"))
        try "<document><p>Hello</p></document>".write(toFile: folder + "/a.xml", atomically: true, encoding: .utf8)
        let run = try runProgram("/usr/bin/env", ["TYPESET_FONT_DIR=" + folder, try typesetBinary(), "layout", "a.xml"], in: folder)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("/NotoSans-Regular.ttf:1:1: warning: not a font file HarfBuzz can read; skipped"), "\(run)")
        #expect(run.stderr.contains("/NotoSansHebrew-Regular.ttf:1:1: warning: a damaged font: its 'cmap' table maps no Unicode character; skipped"), "\(run)")
    }

    @Test func missingGlyphIsAWarningWithItsCodePoint() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try "<document>\n<p>box &#x10FFFD; here</p>\n</document>\n".write(
            toFile: out + "/g.xml", atomically: true, encoding: .utf8)
        let result = try typeset(["render", out + "/g.xml", "-o", out + "/g.pdf"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("g.xml:2:8: warning: no font covers U+10FFFD"), "\(result.stderr)")
    }
}

@Suite struct LayoutCommandTests {
    /// A document that failed has no pages in the JSON, whatever stage it failed at: a markup
    /// error gave none, a row too narrow for its gaps (found in layout) a page.
    @Test func aFailedDocumentHasNoPages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let row = "<document width=\"100\"><row>" + String(repeating: "<label>a</label>", count: 20) + "</row></document>"
        for markup in [row, "<document><p align=\"justify\">a</p></document>"] {
            try markup.write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
            let result = try typeset(["layout", folder + "/doc.xml"])
            #expect(result.status == 1, "\(result)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect((json["pages"] as? [Any])?.isEmpty == true, "\(result.stdout)")
            #expect((json["diagnostics"] as? [[String: Any]])?.first?["severity"] as? String == "error")
        }
    }

    /// Every field `layout` prints is the layout's (SPEC §6), in the order the spec shows, and
    /// `marker` is on list items only.
    @Test func printsTheSpecJSON() throws {
        let path = repositoryRoot + "/Examples/mixed-list.xml"
        let result = try typeset(["layout", path])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        let report = try #require(layoutMarkup(try String(contentsOfFile: path, encoding: .utf8))).report
        let pages = try #require(json["pages"] as? [[String: Any]])
        try #require(pages.count == report.pages.count && !pages.isEmpty)
        /// A printed number: the value rounded to 1/100 pt. A line's and its runs' are their
        /// edges rounded, and a right-aligned line's moved by up to 0.01 pt to end at the
        /// frame's printed right edge: their x within 0.02, their width within 0.01.
        func same(_ printed: Any?, _ value: Double, roundings: Double = 1) -> Bool {
            (printed as? Double).map { abs($0 - value) <= 0.005 * roundings + 1e-9 } ?? false
        }
        var runCount = 0
        var markerCount = 0
        var rightAligned = 0
        for (page, laid) in zip(pages, report.pages) {
            #expect(same(page["width"], laid.width) && same(page["height"], laid.height))
            let blocks = try #require(page["blocks"] as? [[String: Any]])
            try #require(blocks.count == laid.blocks.count)
            for (block, laid) in zip(blocks, laid.blocks) {
                #expect(block["kind"] as? String == laid.kind && block["line"] as? Int == laid.line)
                #expect(block["lang"] as? String == laid.lang && block["direction"] as? String == laid.direction)
                #expect(block["context"] as? String == laid.context && block["align"] as? String == laid.align)
                let frame = try #require(block["frame"] as? [String: Any])
                #expect(same(frame["x"], laid.frame.x) && same(frame["y"], laid.frame.y))
                #expect(same(frame["width"], laid.frame.width) && same(frame["height"], laid.frame.height))
                if let marker = laid.marker {
                    let printed = try #require(block["marker"] as? [String: Any])
                    #expect(printed["text"] as? String == marker.text && same(printed["x"], marker.x) && same(printed["width"], marker.width))
                    markerCount += 1
                } else {
                    #expect(block["marker"] == nil, "a \(laid.kind) has a marker")
                }
                #expect((laid.kind == "item") == (laid.marker != nil))
                let lines = try #require(block["lines"] as? [[String: Any]])
                try #require(lines.count == laid.lines.count)
                for (line, laid) in zip(lines, laid.lines) {
                    #expect(same(line["x"], laid.x, roundings: 4) && same(line["baseline"], laid.baseline) && same(line["width"], laid.width, roundings: 2),
                            "\(line["x"] ?? "") \(laid.x), \(line["baseline"] ?? "") \(laid.baseline), \(line["width"] ?? "") \(laid.width)")
                    let runs = try #require(line["runs"] as? [[String: Any]])
                    try #require(runs.count == laid.runs.count)
                    for (run, laid) in zip(runs, laid.runs) {
                        #expect(run["text"] as? String == laid.text && run["level"] as? Int == laid.level)
                        #expect(run["direction"] as? String == laid.direction && run["script"] as? String == laid.script)
                        #expect(run["font"] as? String == laid.font && same(run["size"], laid.size))
                        #expect(run["face"] as? String == laid.face)
                        #expect(same(run["x"], laid.x, roundings: 4) && same(run["width"], laid.width, roundings: 2) && run["glyphs"] as? Int == laid.glyphs)
                        runCount += 1
                    }
                    // SPEC §6's sums hold as printed: x is the first run's, the width the sum of
                    // the runs', runs meet, and a right-aligned line ends at the frame's edge.
                    let number = { (object: [String: Any], key: String) in object[key] as? Double ?? .nan }
                    if let first = runs.first {
                        #expect(number(line, "x") == number(first, "x"))
                        #expect(abs(runs.reduce(0) { $0 + number($1, "width") } - number(line, "width")) < 1e-6)
                        for (a, b) in zip(runs, runs.dropFirst()) {
                            #expect(abs(number(a, "x") + number(a, "width") - number(b, "x")) < 1e-6)
                        }
                    }
                    if block["align"] as? String == "right" {
                        #expect(abs(number(line, "x") + number(line, "width") - number(frame, "x") - number(frame, "width")) < 1e-6)
                        rightAligned += 1
                    }
                }
            }
        }
        #expect(runCount > 20 && markerCount == 7 && rightAligned > 5, "\(runCount) runs, \(markerCount) markers, \(rightAligned) right")
        // Keys in the spec's order: an item, its first line and run as printed.
        let order = #/\{"kind":"item","line":\d+,"lang":"[^"]+","direction":"(ltr|rtl)","context":"(ltr|rtl)","align":"(left|right|center)","frame":\{"x":[\d.]+,"y":[\d.]+,"width":[\d.]+,"height":[\d.]+\},"marker":\{"text":"[^"]+","x":[\d.]+,"width":[\d.]+\},"lines":\[\{"x":[\d.]+,"baseline":[\d.]+,"width":[\d.]+,"runs":\[\{"text":"[^"]+","level":\d+,"direction":"(ltr|rtl)","script":"[A-Z][a-z]{3}","font":"[^"]+","size":[\d.]+,"x":[\d.]+,"width":[\d.]+,"glyphs":\d+,"face":"[^"]+"\}/#
        #expect(result.stdout.contains(order), "\(result.stdout.prefix(1_000))")
        #expect(result.stdout.hasPrefix(#"{"version":1,"diagnostics":[],"pages":[{"width":"#))
    }

    /// SPEC 5.7: `layout INPUT [render options]`. Those that only change output are checked
    /// and change nothing; -o and --out-dir are refused, as the JSON goes to standard output.
    @Test func takesRendersOptions() throws {
        let input = repositoryRoot + "/Examples/mixed-list.xml"
        let plain = try typeset(["layout", input])
        let withOptions = try typeset(["layout", input, "--format", "png", "--scale", "3", "--jobs", "2"])
        #expect(withOptions.status == 0, "\(withOptions.stderr)")
        #expect(withOptions.stdout == plain.stdout && !plain.stdout.isEmpty)
        for bad in [["--scale", "0"], ["--format", "doc"], ["-o", "x.json"], ["--out-dir", "out"]] {
            let run = try typeset(["layout", input] + bad)
            #expect(run.status == 2 && run.stdout.isEmpty, "\(bad): \(run)")
        }
        #expect(try typeset(["layout", input, "-o", "x.json"]).stderr.contains("redirect it (> x.json)"))
    }

    @Test func parseErrorsAreInTheJSONAndExitOne() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try "<document><para>x</para></document>".write(toFile: out + "/e.xml", atomically: true, encoding: .utf8)
        let result = try typeset(["layout", out + "/e.xml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"severity\":\"error\""))
        #expect(result.stderr.contains("e.xml:1:11: error: unknown element 'para'"), "\(result.stderr)")
    }
}

// MARK: - Fonts damaged on purpose

/// Where a font's table directory records `tag` (the offset of its record).
private func tableRecord(_ font: [UInt8], _ tag: String) throws -> Int {
    let tables = Int(font[4]) << 8 | Int(font[5])
    return try #require((0..<tables).map { 12 + 16 * $0 }.first { font[$0..<$0 + 4].elementsEqual(tag.utf8) })
}

/// The offset and length of a font's table `tag`.
private func table(_ font: [UInt8], _ tag: String) throws -> (offset: Int, length: Int) {
    let record = try tableRecord(font, tag)
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(font[at + $1]) } }
    return (word(record + 8), word(record + 12))
}

/// `font` with a cmap of no subtables: it maps no character.
private func withEmptyCmap(_ font: [UInt8]) throws -> [UInt8] {
    var font = font
    let cmap = try table(font, "cmap").offset
    (font[cmap + 2], font[cmap + 3]) = (0, 0)  // numTables
    return font
}
