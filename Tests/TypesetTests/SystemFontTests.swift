import Foundation
import Testing

@testable import Typeset

/// Emoji and scripts the bundled fonts lack, from the system's fonts (an audit of scripts beyond
/// English, Arabic and Hebrew). `make test` installs fonts-noto-core and fonts-noto-color-emoji.
@Suite struct SystemFontTests {
    static let noto = "/usr/share/fonts/truetype/noto/"

    func requireFont(_ file: String) throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.noto + file),
            "\(file) is missing: make test installs fonts-noto-core and fonts-noto-color-emoji")
    }

    /// A face whose OS/2 says bold (fsSelection) with the weight of a regular one is bold:
    /// Debian's Noto Nastaliq Urdu Bold says 400, and took the Regular's place (all Urdu text
    /// bold, titles no bolder than the rest).
    @Test func aBoldFaceThatSaysWeight400IsBold() throws {
        try requireFont("NotoNastaliqUrdu-Bold.ttf")
        let result = try #require(layoutMarkup(
            #"<document lang="ur" font="Noto Nastaliq Urdu"><p>یہ ایک پیراگراف ہے</p><title>ترتیبات</title></document>"#))
        let faces = result.report.pages[0].blocks.map { $0.lines[0].runs[0].face }
        #expect(faces == ["Noto Nastaliq Urdu Regular", "Noto Nastaliq Urdu Bold"], "\(faces)")
    }

    /// An emoji sequence (skin tone, VS16, keycap, flag) is one cluster in the color font, not
    /// a black glyph of the bundled Symbols 2 and a box; a lone emoji is in color too (it was
    /// DejaVu's black one); the spaces between emoji keep the text font (Noto Color Emoji's
    /// space is as wide as an emoji); VS15 asks for text.
    @Test func emojiTakeTheColorFontWhole() throws {
        try requireFont("NotoColorEmoji.ttf")
        let result = try #require(layoutMarkup("<document><p>Like 👍🏽 it ❤️ 1️⃣ 🇫🇷 🇩🇪 😀 ❤\u{FE0E}</p></document>"))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        let emoji = runs.filter { $0.font == "Noto Color Emoji" }
        #expect(emoji.map(\.text) == ["👍🏽", "❤️", "1️⃣", "🇫🇷", "🇩🇪", "😀"], "\(runs.map { ($0.text, $0.font) })")
        #expect(emoji.map(\.glyphs) == [1, 1, 1, 1, 1, 1])
        let spaces = runs.filter { $0.text == " " }
        #expect(spaces.count == 4 && spaces.allSatisfy { $0.font == "Noto Sans" && $0.width < 5 }, "\(spaces)")
        // The last space went with the text heart, from the bundled Symbols 2.
        #expect(runs.last?.text == " ❤\u{FE0E}" && runs.last?.font == "Noto Sans Symbols2", "\(runs.map { ($0.text, $0.font) })")
    }

    /// Thai breaks between its words, which no space separates (ICU's dictionary,
    /// DictionaryBreaks.swift): a sentence wider than its line was broken between letters,
    /// "ไม่มีก|ารเว้น", with a warning that the word was too wide.
    @Test func thaiBreaksBetweenWords() throws {
        try requireFont("NotoSansThai-Regular.ttf")
        let text = "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ สวัสดีครับ"
        let result = try #require(layoutMarkup("<document lang=\"th\" width=\"200\"><p>\(text)</p></document>"))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let lines = result.report.pages[0].blocks[0].lines.map { $0.runs.map(\.text).joined() }
        #expect(lines == ["ภาษาไทยเป็นภาษาที่ไม่มี", "การเว้นวรรคระหว่างคำ", "สวัสดีครับ"], "\(lines)")
        #expect(result.report.pages[0].blocks[0].lines.allSatisfy { $0.runs.allSatisfy { $0.font == "Noto Sans Thai" } })
    }

    /// Syriac's Abbreviation Mark (U+070F) leaves its word whole: HarfBuzz 6.0's `stch` gave
    /// the letters after it offsets on top of their advances, and they were drawn apart, over
    /// the next word and off the page (x = -31.6 on a page 200 pt wide). Each glyph's origin
    /// stays within the run the layout measured.
    @Test func syriacAbbreviationMarkKeepsItsWordWhole() throws {
        try requireFont("NotoSansSyriac-Regular.ttf")
        let result = try #require(layoutMarkup(
            "<document lang=\"syr\" width=\"200\" font-size=\"40\"><label>ܫ܏ܢܬܐ</label><label>܏ܫܢܬܐ</label></document>"))
        let runs = result.pages[0].items.compactMap { item -> GlyphRun? in if case .glyphs(let run) = item { run } else { nil } }
        #expect(runs.count == 2 && runs.allSatisfy { $0.font.family == "Noto Sans Syriac" }, "\(runs.map(\.font.family))")
        for run in runs {
            let xs = run.glyphs.map(\.x)
            #expect(xs.allSatisfy { $0 >= run.originX - 0.5 && $0 <= run.originX + run.width + 0.5 }, "\(run.originX) \(run.width) \(xs)")
        }
    }

    /// A script's letters take the font named for it: Noto Sans Grantha, before Noto Sans Tamil
    /// in path order, has some Tamil letters and digits too, and took ப, வ and the digits out
    /// of Tamil words, in regular weight among bold letters.
    @Test func tamilTakesTheTamilFont() throws {
        try requireFont("NotoSansTamil-Bold.ttf")
        try requireFont("NotoSansGrantha-Regular.ttf")
        let result = try #require(layoutMarkup(
            "<document lang=\"ta\" width=\"300\"><title>பதிவிறக்கம் வரவேற்பு</title><p>ப வ ௧௨௩ ௰</p></document>"))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let runs = result.pages[0].items.compactMap { item -> GlyphRun? in if case .glyphs(let run) = item { run } else { nil } }
        #expect(!runs.isEmpty && runs.allSatisfy { $0.font.family == "Noto Sans Tamil" }, "\(runs.map { ($0.text, $0.font.family) })")
        #expect(runs.first?.font.weight == 700, "the title is bold")
        // A Common character takes the font named for the run's script: Hindi's ॥ came from
        // Noto Sans Bengali, first in path order.
        let hindi = try #require(layoutMarkup("<document lang=\"hi\"><p>नमस्ते ॥ दुनिया</p></document>"))
        #expect(hindi.report.pages[0].blocks[0].lines.flatMap(\.runs).map(\.font) == ["Noto Sans Devanagari"])
    }

    /// A flag cut by markup (`🇩<b>🇪🇯🇵</b>`) is one cluster, shaped whole in the style of its
    /// start: shaped apart, HarfBuzz paired 🇪 with 🇯, the line between 🇪 and 🇯 showed both
    /// glyphs and left a line of "🇯🇵" with none. Two flags, each on a line of its own.
    @Test func aFlagCutByMarkupLeavesNoLineWithoutGlyphs() throws {
        try requireFont("NotoColorEmoji.ttf")
        let result = try #require(layoutMarkup(
            #"<document width="60" margin="4"><label size="30">🇩<b>🇪🇯🇵</b></label></document>"#))
        let lines = try #require(result.report.pages[0].blocks.first).lines
        #expect(lines.map { $0.runs.map { ($0.text, $0.glyphs) } }.description == #"[[("🇩🇪", 1)], [("🇯🇵", 1)]]"#,
                "\(lines.map { $0.runs.map { ($0.text, $0.glyphs) } })")
    }

    /// Without a letter in the paragraph (a button of one emoji), VS16, ZWJ and the keycap mark
    /// (Inherited) were cut from their emoji (Common): a black heart, "1" and a box, three
    /// people for a family. A text-default pictograph with a skin tone or a ZWJ is an emoji.
    @Test func emojiAloneStayWhole() throws {
        try requireFont("NotoColorEmoji.ttf")
        let result = try #require(layoutMarkup("""
            <document><row><button>❤️</button><button>1️⃣</button></row><label>🏳️‍🌈</label>
            <p>👨‍👩‍👧</p><p>☝🏽 🕵‍♂</p></document>
            """))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let runs = result.report.pages[0].blocks.flatMap { $0.lines.flatMap(\.runs) }.filter { $0.text != " " }
        // The ZWJs inside an emoji are part of its text: pasted without them, a family is three.
        #expect(
            runs.map(\.text) == ["❤️", "1️⃣", "🏳️\u{200D}🌈", "👨\u{200D}👩\u{200D}👧", "☝🏽", "🕵\u{200D}♂"],
            "\(runs.map(\.text))")
        #expect(runs.allSatisfy { $0.font == "Noto Color Emoji" && $0.glyphs == 1 }, "\(runs.map { ($0.text, $0.font, $0.glyphs) })")
    }

    /// A skin tone after a space or a letter is a swatch (UTS #51 §2.4), as in an emoji picker's
    /// row of tones: it was the space's or letter's cluster (UAX #29 counts it as Extend) and a
    /// box in Noto Sans. After an emoji it still joins the emoji.
    @Test func aLoneSkinToneIsASwatch() throws {
        try requireFont("NotoColorEmoji.ttf")
        let result = try #require(layoutMarkup("<document><p>Tones 🏻🏼🏽 A🏾 and 👍🏿</p></document>"))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        #expect(runs.filter { $0.font == "Noto Color Emoji" }.map(\.text) == ["🏻🏼🏽", "🏾", "👍🏿"], "\(runs.map { ($0.text, $0.font) })")
        #expect(runs.filter { $0.font == "Noto Sans" }.map(\.text) == ["Tones ", " A", " and "], "\(runs.map { ($0.text, $0.font) })")
    }

    /// `numerals` changes the digits of numbers, not a keycap's: ١️⃣ is no emoji (a box and a
    /// warning).
    @Test func keycapsKeepTheirDigits() throws {
        try requireFont("NotoColorEmoji.ttf")
        let result = try #require(layoutMarkup("<document lang=\"ar\" numerals=\"arab\"><p>اضغط 1️⃣ أو 2\u{20E3} 34</p></document>"))
        #expect(result.diagnostics.items.isEmpty, "\(result.diagnostics.items)")
        let runs = result.report.pages[0].blocks[0].lines.flatMap(\.runs)
        #expect(Set(runs.filter { $0.font == "Noto Color Emoji" }.map(\.text)) == ["1️⃣", "2\u{20E3}"], "\(runs.map { ($0.text, $0.font) })")
        #expect(runs.contains { $0.text == "٣٤" })
    }

    /// A PDF viewer cannot draw Noto Color Emoji's glyphs (bitmaps, no outlines): the emoji were
    /// blank in the PDF. They are glyphs of a Type 3 font now, each drawing its PNG where the PNG
    /// output draws it, and extract as the emoji in reading order. In SVG they are the font's
    /// own PNGs (136 × 128), not bitmaps of their size in points that blurred when zoomed.
    @Test func emojiAreDrawnInPDFsAndSVGs() throws {
        try requireFont("NotoColorEmoji.ttf")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/emoji.xml"
        try "<document width=\"200\" height=\"90\"><p>A 😀 B 👍🏽</p><p>Like 👍🏽 it</p></document>".write(
            toFile: input, atomically: true, encoding: .utf8)
        #expect(try typeset(["render", input, "-o", folder + "/emoji.pdf"]).status == 0)
        #expect(try typeset(["render", input, "--scale", "2", "-o", folder + "/emoji.png"]).status == 0)
        let check = try runProgram("/usr/bin/qpdf", ["--check", folder + "/emoji.pdf"])
        #expect(check.status == 0, "\(check.stdout)")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/emoji.pdf", "-"]).stdout
        // (pdftotext drops the spaces between emoji and letters at times, as it did with the
        // emoji as invisible text of a font of their own: its heuristics, not the PDF's text.)
        #expect(text.filter { !$0.isWhitespace } == "A😀B👍🏽Like👍🏽it", "\(text)")
        // Every font embedded: Noto Sans, and the Type 3 font of the emoji.
        let fonts = try runProgram("/usr/bin/pdffonts", [folder + "/emoji.pdf"]).stdout.split(separator: "\n").dropFirst(2)
        #expect(fonts.count == 2 && fonts.contains { $0.contains("Type 3") }, "\(fonts)")
        #expect(fonts.allSatisfy { $0.split(separator: " ").filter { !$0.isEmpty }.suffix(5).first == "yes" }, "\(fonts)")
        let drawn = try runProgram("/usr/bin/pdftoppm", ["-r", "144", "-png", folder + "/emoji.pdf", folder + "/drawn"])
        #expect(drawn.status == 0 && drawn.stderr.isEmpty, "\(drawn.stderr)")
        // The colored pixels (the emoji: the text is black) where the PNG has them.
        func colored(_ image: PixelImage) -> (count: Int, box: [Int]) {
            var count = 0
            var box = [Int.max, Int.max, Int.min, Int.min]
            for y in 0..<image.height {
                for x in 0..<image.width {
                    guard let p = image.pixel(x: x, y: y),
                        Int(max(p.red, p.green, p.blue)) - Int(min(p.red, p.green, p.blue)) > 60 else { continue }
                    count += 1
                    box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
                }
            }
            return (count, box)
        }
        let fromPNG = colored(try PixelImage(contentsOf: folder + "/emoji.png"))
        #expect(fromPNG.count > 500)
        #expect(try typeset(["render", input, "-o", folder + "/emoji.svg"]).status == 0)
        let svg = try String(contentsOfFile: folder + "/emoji.svg", encoding: .utf8)
        let svgImages = svg.components(separatedBy: "<image ").dropFirst().map { $0.prefix { $0 != ">" } }
        #expect(svgImages.count == 2 && svgImages.allSatisfy { $0.contains(#"width="136" height="128""#) }, "\(svgImages)")
        #expect(try runProgram("/usr/bin/rsvg-convert", ["-w", "400", folder + "/emoji.svg", "-o", folder + "/svg.png"]).status == 0)
        for drawn in ["drawn-1.png", "svg.png"] {
            let found = colored(try PixelImage(contentsOf: folder + "/" + drawn))
            #expect(abs(found.count - fromPNG.count) < fromPNG.count / 10, "\(drawn): \(found) \(fromPNG)")
            #expect(zip(found.box, fromPNG.box).allSatisfy { abs($0 - $1) <= 2 }, "\(drawn): \(found.box) \(fromPNG.box)")
        }
    }

    /// A Type 3 font has 255 glyphs: 300 emoji take two, each extracted as itself. Each glyph
    /// fills its image's frame with no opacity: PDFium (Chrome's reader) reads no text of a
    /// glyph that draws nothing (it copied "I typeset done" of "I ❤️ typeset 👍🏽 done"), and
    /// the fill shows nowhere (a heart drawn in PDF has no dark pixel).
    @Test func manyEmojiTakeSeveralType3Fonts() throws {
        try requireFont("NotoColorEmoji.ttf")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // (Not the skin tones: alone after a space they are marks of the space, UAX #29.)
        let emoji = (0x1F300...0x1F6FF).filter { !(0x1F3FB...0x1F3FF).contains($0) }.compactMap(Unicode.Scalar.init)
            .filter(\.isEmojiPresentation).prefix(300).map(String.init)
        try #require(emoji.count == 300)
        let input = folder + "/many.xml"
        try "<document width=\"390\"><p>\(emoji.joined(separator: " "))</p></document>".write(
            toFile: input, atomically: true, encoding: .utf8)
        let render = try typeset(["render", input, "-o", folder + "/many.pdf"])
        #expect(render.status == 0 && render.stderr.isEmpty, "\(render.stderr)")
        #expect(try runProgram("/usr/bin/qpdf", ["--check", folder + "/many.pdf"]).status == 0)
        let fonts = try runProgram("/usr/bin/pdffonts", [folder + "/many.pdf"]).stdout
        #expect(fonts.components(separatedBy: "Type 3").count - 1 == 2, "\(fonts)")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/many.pdf", "-"]).stdout
        #expect(text.filter { !$0.isWhitespace } == emoji.joined())
        let expanded = try runProgram("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", folder + "/many.pdf", folder + "/qdf.pdf"])
        #expect(expanded.status == 0, "\(expanded.stderr)")
        let objects = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/qdf.pdf")), as: UTF8.self)
        #expect(objects.components(separatedBy: " 0 d0 /Hidden gs ").count - 1 == 300)
        // (Each Type 3 font's resources: qpdf writes `/Hidden << /ca 0 >>` a key a line.)
        let hidden = objects.components(separatedBy: "/Hidden <<").dropFirst()
        #expect(hidden.count == 2 && hidden.allSatisfy { $0.drop { $0.isWhitespace }.hasPrefix("/ca 0\n") }, "\(hidden.map { $0.prefix(20) })")
        try "<document width=\"60\" height=\"40\"><p>❤️</p></document>".write(toFile: folder + "/heart.xml", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", folder + "/heart.xml", "-o", folder + "/heart.pdf"]).status == 0)
        #expect(try runProgram("/usr/bin/pdftoppm", ["-r", "144", "-png", folder + "/heart.pdf", folder + "/heart"]).status == 0)
        let pixels = try PixelImage(contentsOf: folder + "/heart-1.png").allPixels()
        #expect(pixels.filter { max($0.red, $0.green, $0.blue) < 100 }.isEmpty && pixels.contains { $0.red > 150 && $0.green < 100 })
    }

    /// An emoji takes its run's opacity in SVG and PNG as in PDF (they drew it opaque).
    @Test func emojiTakeTheirRunsOpacity() throws {
        try requireFont("NotoColorEmoji.ttf")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        /// The most saturated pixel of the emoji drawn at `alpha` (hex), from PDF, SVG and PNG.
        func saturation(_ alpha: String) throws -> [Int] {
            let input = folder + "/a\(alpha).xml"
            try "<document width=\"60\" height=\"40\"><p color=\"#000000\(alpha)\">😀</p></document>".write(
                toFile: input, atomically: true, encoding: .utf8)
            #expect(try typeset(["render", input, "-o", folder + "/a\(alpha).pdf"]).status == 0)
            #expect(try typeset(["render", input, "-o", folder + "/a\(alpha).svg"]).status == 0)
            #expect(try runProgram("/usr/bin/pdftoppm", ["-r", "144", "-png", folder + "/a\(alpha).pdf", folder + "/p\(alpha)"]).status == 0)
            #expect(try runProgram("/usr/bin/rsvg-convert", ["-w", "120", folder + "/a\(alpha).svg", "-o", folder + "/s\(alpha).png"]).status == 0)
            #expect(try typeset(["render", input, "--scale", "2", "-o", folder + "/r\(alpha).png"]).status == 0)
            return try ["/p\(alpha)-1.png", "/s\(alpha).png", "/r\(alpha).png"].map { file in
                try PixelImage(contentsOf: folder + file).allPixels().map { Int(max($0.red, $0.green, $0.blue)) - Int(min($0.red, $0.green, $0.blue)) }.max() ?? 0
            }
        }
        let opaque = try saturation("FF"), quarter = try saturation("40"), none = try saturation("00")
        #expect(opaque.allSatisfy { $0 > 150 } && none == [0, 0, 0], "\(opaque) \(none)")
        #expect(zip(quarter, opaque).allSatisfy { $0 < $1 / 2 && $0 > $1 / 8 }, "\(quarter) \(opaque)")
    }

    /// A cluster whose letter no font of the document has takes a family that has its marks
    /// too, when one does: ranked first, Noto Sans Armenian has the letter but no U+0301 (a box).
    @Test func fallbackKeepsALettersMarks() throws {
        try requireFont("NotoSansArmenian-Regular.ttf")
        let text = Array("Ձ\u{301}\u{301}".unicodeScalars)
        let runs = FontDatabase.shared.itemize(
            scalars: text, range: 0..<3, families: [], weight: 400, italic: false, script: Script(code: "Armn")!)
        #expect(runs.count == 1 && runs.allSatisfy { $0.missing.isEmpty }, "\(runs)")
        #expect(runs.allSatisfy { FontDatabase.shared.covers($0.face, "\u{301}") && FontDatabase.shared.covers($0.face, "Ձ") })
    }

    /// `--font-dir` adds fonts: a style its family lacks there comes from the installed family
    /// of that name (one face given hid the installed bold and italic); a style it has, from
    /// the folder.
    @Test func aFontDirFamilyTakesTheInstalledStylesItLacks() throws {
        try requireFont("NotoSerif-Bold.ttf")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Self.noto + "NotoSerif-Regular.ttf", toPath: folder + "/NotoSerif-Regular.ttf")
        let database = FontDatabase(extraDirectories: [folder])
        func face(_ weight: Int, italic: Bool = false) -> String? {
            database.primaryFace(families: ["Noto Serif"], weight: weight, italic: italic, script: Script(code: "Latn") ?? .common)?.path
        }
        #expect(face(400) == folder + "/NotoSerif-Regular.ttf")
        #expect(face(700) == Self.noto + "NotoSerif-Bold.ttf")
        #expect(face(400, italic: true) == Self.noto + "NotoSerif-Italic.ttf")
        // A nearby weight is the folder's (medium takes regular, as the folder alone gave).
        #expect(face(500) == folder + "/NotoSerif-Regular.ttf")
    }

    /// CSS's generic 'serif' and 'monospace' take an installed family of theirs.
    @Test func genericFamiliesTakeInstalledFamilies() throws {
        try requireFont("NotoSerif-Regular.ttf")
        #expect(FontDatabase.shared.face(family: "serif", weight: 400, italic: false)?.family == "Noto Serif")
        #expect(FontDatabase.shared.hasFamily("SANS-SERIF") && !FontDatabase.shared.hasFamily("cursive"))
        let mono = FontDatabase.shared.face(family: "monospace", weight: 400, italic: false)?.family
        #expect(mono == nil || mono?.contains("Mono") == true, "\(mono ?? "-")")
    }

    /// So does one that fallback reaches, named nowhere: a folder's regular Georgian drew bold
    /// Georgian regular, where the installed family has its bold.
    @Test func aFontDirFamilyReachedByFallbackTakesTheInstalledStylesItLacks() throws {
        try requireFont("NotoSansGeorgian-Bold.ttf")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: Self.noto + "NotoSansGeorgian-Regular.ttf", toPath: folder + "/NotoSansGeorgian-Regular.ttf")
        let database = FontDatabase(extraDirectories: [folder])
        let text = Array("გამარჯობა".unicodeScalars)
        func faces(_ weight: Int) -> [String] {
            database.itemize(
                scalars: text, range: 0..<text.count, families: [], weight: weight, italic: false,
                script: Script(code: "Geor") ?? .common
            ).map(\.face.path)
        }
        #expect(faces(700) == [Self.noto + "NotoSansGeorgian-Bold.ttf"])
        #expect(faces(400) == [folder + "/NotoSansGeorgian-Regular.ttf"])
    }

    /// Fallback among system fonts tries the bundled fonts' design first: Noto Sans Thai, not
    /// Noto Looped Thai (first by path), whose tone marks sink into the vowels above.
    @Test func systemFallbackPrefersTheBundledDesign() throws {
        func face(_ family: String) -> FontFace { FontFace(path: "/f/\(family)", family: family, weight: 400, italic: false) }
        let faces = ["DejaVu Serif", "Noto Looped Thai", "DejaVu Sans", "Noto Sans Thai", "Noto Serif Thai", "Noto Sans"]
        #expect(FontDatabase.ranked(faces.map(face)).map(\.family)
            == ["Noto Sans Thai", "Noto Sans", "DejaVu Sans", "DejaVu Serif", "Noto Looped Thai", "Noto Serif Thai"])
        try requireFont("NotoLoopedThai-Regular.ttf")
        try requireFont("NotoSansThai-Regular.ttf")
        let runs = try #require(blocks("<document lang=\"th\"><p>ที่ ซึ่ง เรื่อง</p></document>").first).lines.flatMap(\.runs)
        #expect(runs.map(\.font) == ["Noto Sans Thai"], "\(runs.map { ($0.text, $0.font) })")
    }
}
