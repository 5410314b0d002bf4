// Unit tests of the text stages between bidi and blocks: script resolution, line filling and
// the paragraph driver.
import Testing

@testable import Typeset

@Suite struct ItemizerTests {
    @Test func commonCharactersTakeTheirNeighboursScript() {
        let scalars = Array("(مرحبا) 123, hello!".unicodeScalars)
        let scripts = Itemizer.resolveScripts(scalars).map(\.code)
        #expect(scripts[0] == "Arab", "a leading bracket takes the first explicit script")
        #expect(scripts[6] == "Arab" && scripts[8] == "Arab", "digits after Arabic stay Arabic")
        #expect(scripts[13] == "Latn" && scripts.last == "Latn")
    }

    @Test func pairedBracketsShareAScript() {
        // "حفظ (PDF) x": the closing parenthesis takes its opening one's script, not Latin's,
        // and so does what follows it until the next letter.
        let scripts = Itemizer.resolveScripts(Array("حفظ (PDF). x [a{ب]".unicodeScalars)).map(\.code)
        #expect(scripts[4] == "Arab" && scripts[8] == "Arab" && scripts[9] == "Arab", "\(scripts)")
        #expect(scripts[11] == "Latn")
        // Pairs nest, and a closing bracket with no opening one takes the script before it.
        #expect(scripts[13] == "Latn" && scripts[15] == "Latn" && scripts[17] == "Latn", "\(scripts)")
        #expect(Itemizer.resolveScripts(Array("x) حفظ)".unicodeScalars)).map(\.code) == ["Latn", "Latn", "Latn", "Arab", "Arab", "Arab", "Arab"])
    }

    /// A common character only some scripts use (Script_Extensions) takes one of them: the
    /// Arabic comma after "Settings" was Latin in the layout JSON, of Noto Sans Arabic.
    @Test func charactersOfSomeScriptsTakeOneOfThem() {
        func scripts(_ text: String) -> [String] { Itemizer.resolveScripts(Array(text.unicodeScalars)).map(\.code) }
        #expect(scripts("افتح Settings، ثم")[13...] == ["Arab", "Arab", "Arab", "Arab"])
        // At the end, the latest of its scripts before it; the space after it follows it.
        #expect(scripts("هل Android؟").last == "Arab")
        // Where the text has none of its scripts, its neighbour's.
        #expect(scripts("Android؟ x") == Array(repeating: "Latn", count: 10))
        // The danda and the ideographic full stop after Latin; plain digits, commas and marks
        // (an Arabic mark is inherited: it stays with its letter) keep their neighbour's.
        #expect(scripts("ok। क") == ["Latn", "Latn", "Deva", "Deva", "Deva"])
        #expect(scripts("Hi。世") == ["Latn", "Latn", "Hani", "Hani"])
        #expect(scripts("ab 12, c\u{064B}") == Array(repeating: "Latn", count: 9))
        // Not a space: the narrow no-break space (Latin's and Mongolian's) between a number's
        // groups keeps the number in one script.
        #expect(Set(scripts("ב-iPhone המחיר 1\u{202F}000 ש")[15...]) == ["Hebr"])
        // But it joins the Mongolian suffix it stands before, whose shape it chooses.
        #expect(scripts("中文\u{202F}ᠤᠨ") == ["Hani", "Hani", "Mong", "Mong", "Mong"])
        #expect(Set(scripts("נותרו 1\u{202F}000 GB")[..<12]) == ["Hebr"])
        // Leading, and of the first letter's script or not.
        #expect(scripts("، ثم") == ["Arab", "Arab", "Arab", "Arab"])
        #expect(scripts("، hello") == Array(repeating: "Latn", count: 7))
        #expect(scripts("ثم x ، hello")[5...] == ["Arab", "Arab", "Latn", "Latn", "Latn", "Latn", "Latn"])
        // Many of them after letters of none of their scripts: one pass (linear).
        let long = String(repeating: "a؟", count: 50_000)
        #expect(scripts(long).count == 100_000)
    }

    @Test func neutralOnlyTextStaysCommon() {
        #expect(Itemizer.resolveScripts(Array("123 ...".unicodeScalars)).allSatisfy { $0 == .common })
    }
}

@Suite struct LineFillerTests {
    /// Every scalar 10 pt wide.
    func fill(_ text: String, width: Double) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let advances = AdvanceTable(count: scalars.count, glyphAdvances: scalars.indices.map { ($0, 10) })
        let lines = LineFiller.lines(scalars: scalars, opportunities: LineBreaker.opportunities(in: scalars),
                                     advances: advances, width: width)
        return lines.map { String(String.UnicodeScalarView(scalars[$0])) }
    }

    /// A word cut because it is wider than the line is cut where it reads better (a number
    /// after its separators) only where that makes no more lines, the next word's counted: it
    /// fits after "99", not after "999.99". Every scalar 10 wide.
    @Test func aBetterCutCountsTheNextWordsLine() {
        #expect(fill("$1,299,999.99 due", width: 65) == ["$1,29", "9,999.", "99 due"])
        #expect(fill("$1,299,999.99 total", width: 65) == ["$1,", "299,", "999.99 ", "total"])
    }

    @Test func fillsGreedilyWithHangingSpaces() {
        // "aaa bbb" is 70 pt, but the space at a line end hangs: "aaa " fits in 30 pt.
        #expect(fill("aaa bbb ccc", width: 70) == ["aaa bbb ", "ccc"])
        #expect(fill("aaa bbb ccc", width: 30) == ["aaa ", "bbb ", "ccc"])
        #expect(fill("aaa   bbb", width: 30) == ["aaa   ", "bbb"])
    }

    /// A run of white space with break opportunities inside it hangs whole, however long (its
    /// visible end was walked back to at each opportunity: 80,000 characters took 10 s), and
    /// lines filled from the remembered visible end are those the greedy rule with
    /// `visibleEnd` gives, on random text of hanging characters, soft hyphens and letters.
    @Test func hangingRunsAreWalkedOnce() {
        let pairs = String(repeating: " \u{3000}", count: 5000)
        #expect(fill("aa" + pairs + "bb", width: 30) == ["aa" + pairs, "bb"])
        let alphabet: [Unicode.Scalar] = ["a", "b", " ", "\u{3000}", "\u{AD}", "\u{2066}", "\u{2069}", "\u{2003}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 1...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let advances = AdvanceTable(count: scalars.count, glyphAdvances: scalars.indices.map { ($0, 10) })
            let opportunities = LineBreaker.opportunities(in: scalars)
            let width = Double(Int.random(in: 1...8, using: &generator) * 10)
            let lines = LineFiller.lines(scalars: scalars, opportunities: opportunities, advances: advances, width: width)
            let text = String(String.UnicodeScalarView(scalars)).debugDescription
            #expect(lines.first?.lowerBound == 0 && lines.last?.upperBound == scalars.count, "\(text)")
            // Each line that ends at an opportunity before the last line fits, and the next
            // opportunity would not have (words cut inside are `splitLongWord`'s).
            for (line, next) in zip(lines, lines.dropFirst()) where opportunities.contains(where: { $0.offset == line.upperBound }) {
                let shown = advances.width(line.lowerBound..<LineFiller.visibleEnd(scalars, line))
                #expect(shown <= width + 0.001, "\(text) \(lines)")
                guard !opportunities.contains(where: { $0.offset == line.upperBound && $0.isMandatory }),
                    let further = opportunities.first(where: { $0.offset > line.upperBound && $0.offset <= next.upperBound })
                else { continue }
                let wider = advances.width(line.lowerBound..<LineFiller.visibleEnd(scalars, line.lowerBound..<further.offset))
                #expect(wider > width + 0.001, "\(text) \(lines)")
            }
        }
    }

    /// A line of nothing to see is none: a soft hyphen that begins a paragraph (it shows no
    /// hyphen and hangs) made an empty first line at a narrow width.
    @Test func noLineOfNothingVisible() {
        // Every scalar 10 pt wide but the soft hyphen, of none (as HarfBuzz shapes it).
        func fill(_ text: String, width: Double) -> [String] {
            let scalars = Array(text.unicodeScalars)
            let advances = AdvanceTable(count: scalars.count, glyphAdvances: scalars.indices.map { ($0, scalars[$0] == "\u{AD}" ? 0 : 10) })
            let lines = LineFiller.lines(scalars: scalars, opportunities: LineBreaker.opportunities(in: scalars),
                                         advances: advances, width: width)
            return lines.map { String(String.UnicodeScalarView(scalars[$0])) }
        }
        #expect(fill("\u{AD}abc def", width: 30) == ["\u{AD}abc ", "def"])
        #expect(fill("\u{AD}abcdef", width: 30) == ["\u{AD}abc", "def"])
        #expect(fill("a\n\nb", width: 30) == ["a\n", "\n", "b"], "an empty line of a mandatory break stays")
    }

    @Test func mandatoryBreaks() {
        #expect(fill("a\u{2028}b", width: 1000) == ["a\u{2028}", "b"])
        #expect(fill("a\nb\n", width: 1000) == ["a\n", "b\n"])
    }

    @Test func longWordsBreakAtGraphemeBoundaries() {
        #expect(fill("abcdefgh xy", width: 30) == ["abc", "def", "gh ", "xy"])
        // A base letter and its combining mark never part.
        let lines = fill("e\u{301}e\u{301}e\u{301}e\u{301}", width: 25)
        #expect(lines.allSatisfy { $0.unicodeScalars.first?.value != 0x301 })
        #expect(lines.joined() == "e\u{301}e\u{301}e\u{301}e\u{301}")
    }

    @Test func aClusterWiderThanTheLineStandsAlone() {
        #expect(fill("ab", width: 5) == ["a", "b"])
    }

    /// A line that ends at a soft hyphen must also hold the hyphen it shows there.
    @Test func aBreakAtASoftHyphenCountsItsHyphen() {
        let scalars = Array("aaa\u{AD}bbb".unicodeScalars)  // the soft hyphen itself is 0 wide
        var widths = scalars.indices.map { ($0, 10.0) }
        widths[3].1 = 0
        let advances = AdvanceTable(count: scalars.count, glyphAdvances: widths)
        func fill(width: Double, hyphen: Double) -> [Int] {
            LineFiller.lines(
                scalars: scalars, opportunities: LineBreaker.opportunities(in: scalars), advances: advances,
                width: width, hyphens: [4: hyphen]
            ).map(\.upperBound)
        }
        #expect(fill(width: 40, hyphen: 5) == [4, 7], "aaa- (35 pt) fits in 40")
        #expect(fill(width: 32, hyphen: 5) == [2, 4, 7], "aaa- (35 pt) does not fit in 32: aa | a- | bbb")
        #expect(fill(width: 100, hyphen: 5) == [7], "no break, no hyphen")
    }

    /// Only the last piece of a word cut between its letters shows the hyphen of a soft hyphen
    /// at its end: the others have the whole line (every piece was measured a hyphen narrower,
    /// and "Donaudampfschiff" broke a letter early). A soft hyphen left alone stays with the
    /// piece before it: a line of just "-" showed in a narrow box.
    @Test func onlyTheLastPieceOfACutWordHoldsItsHyphen() {
        func split(_ text: String, width: Double, hyphen: Double) -> [Range<Int>] {
            let scalars = Array(text.unicodeScalars)
            let widths = scalars.indices.map { ($0, scalars[$0] == "\u{AD}" ? 0.0 : 10.0) }
            let advances = AdvanceTable(count: scalars.count, glyphAdvances: widths)
            return LineFiller.splitLongWord(
                scalars, 0..<scalars.count, advances: advances, edges: advances.clusterEdges(), width: width,
                hyphens: [scalars.count: hyphen], endHyphen: hyphen)
        }
        #expect(split("abcdefgh\u{AD}", width: 40, hyphen: 5) == [0..<4, 4..<7, 7..<9], "abcd | efg | h- (it was abc | def | gh-)")
        #expect(split("ab\u{AD}", width: 14, hyphen: 5) == [0..<1, 1..<3], "a | b- (it was a | b | -)")
        #expect(split("a\u{AD}", width: 12, hyphen: 5) == [0..<2], "a- overflows: a piece keeps a letter")
    }

    /// `text` cut as a word wider than `width` (`LineFiller.splitLongWord`), every scalar 10 wide.
    private func split(_ text: String, width: Double) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let advances = AdvanceTable(count: scalars.count, glyphAdvances: scalars.indices.map { ($0, 10.0) })
        return LineFiller.splitLongWord(
            scalars, 0..<scalars.count, advances: advances, edges: advances.clusterEdges(), width: width,
            hyphens: [:], endHyphen: 0
        ).map { String(String.UnicodeScalarView(scalars[$0])) }
    }

    /// A name or address wider than its line is cut where it parts (before a period, slash or
    /// underscore, after a colon), when the piece before fills half the line or the cut makes no
    /// more lines: a sheet's caption cut a file name "settings_privacy_screen.x|ml", and an
    /// address was cut ".support@exam" | "ple" where ".support" | "@example" took as many lines.
    /// Every scalar 10 wide.
    @Test func aLongNameIsCutWhereItParts() {
        #expect(split("privacy_screen.xml", width: 160) == ["privacy_screen", ".xml"], "not privacy_screen.x | ml")
        #expect(split("privacy_screen.xml", width: 120) == ["privacy", "_screen.xml"])
        #expect(split("https://example.com/a", width: 100) == ["https://", "example", ".com/a"], "after //, not inside it")
        #expect(split("https://example.com/a", width: 70) == ["https:", "//examp", "le.com", "/a"], "after the colon where https:// is too wide, not https:/ | /")
        #expect(split("ab.cdefghijkl", width: 100) == ["ab.cdefghi", "jkl"], "a seam that leaves less than half the line and adds a line is passed")
        #expect(split("ab.cdefghijk", width: 100) == ["ab", ".cdefghijk"], "one that adds none is taken")
        #expect(split("ab.cdefghijklmnopqrstu", width: 100) == ["ab", ".cdefghijk", "lmnopqrstu"], "not ab.cdefghi | jklmnopqrs | tu")
    }

    /// A word cut between its letters keeps its punctuation (UAX #14: no line starts with
    /// closing punctuation, "!" or "?", a closing quote or CJK's "。", none ends with an opening
    /// one, an ellipsis stays whole): "동의하시겠습니까|?" left "?" alone on a line. A number is
    /// cut after its separator ("₪1,299.|99": ".99" read as a decimal), not inside a group of
    /// digits ("$1,29|9.99"). Only where the piece fills half the line or the cut makes no more
    /// lines. Every scalar 10 wide.
    @Test func aCutWordKeepsItsPunctuation() {
        #expect(split("동의하시겠습니까?", width: 80) == ["동의하시겠습니", "까?"], "not 동의하시겠습니까 | ?")
        #expect(split("“안녕하세요!”", width: 60) == ["“안녕하세", "요!”"], "not “안녕하세요! | ”")
        #expect(split("(abcdef)", width: 40) == ["(abc", "def)"], "not ( | abcd")
        #expect(split("い……。", width: 30) == ["い", "……。"], "not い…… | 。")
        #expect(split("₪1,299.99", width: 70) == ["₪1,299.", "99"], "not ₪1,299 | .99")
        #expect(split("$1,299,999.99", width: 65) == ["$1,", "299,", "999.99"], "not $1,29 | 9,999. | 99: as many lines")
        #expect(split("1,234567890", width: 80) == ["1,234567", "890"], "inside the group where 1, | 23456789 | 0 takes a line more")
        #expect(split("١٢٣٤٥٦٧٫٨٩", width: 70) == ["١٢٣٤٥٦", "٧٫٨٩"], "Arabic's decimal separator does not begin a line: not ١٢٣٤٥٦٧ | ٫٨٩")
        #expect(split("١٬٢٣٤٬٥٦٧", width: 60) == ["١٬٢٣٤٬", "٥٦٧"], "nor its thousands separator")
        #expect(split("2024/03/15", width: 80) == ["2024/03/", "15"])
        // A name still parts before its period or question mark, where it goes on.
        #expect(split("privacy_screen.xml", width: 160) == ["privacy_screen", ".xml"])
        #expect(split("example.com/search?q=1", width: 190) == ["example.com/search", "?q=1"])
        // All punctuation, or nowhere else to cut: between clusters as before.
        #expect(split("!!!!!!", width: 40) == ["!!!!", "!!"])
        // A preference, never past the box: where no such cut fits, where it fits ("까?" was
        // 23.7 pt in a box of 20, "((((((((((ab" 60 pt in one of 20).
        for (text, width) in [("동의하시겠습니까?", 10.0), ("Loading...", 30), ("((((((((((ab", 20), ("ダウンロード……。", 20)] {
            let pieces = split(text, width: width)
            #expect(pieces.allSatisfy { Double($0.unicodeScalars.count) * 10 <= width } && pieces.joined() == text, "\(text): \(pieces)")
        }
        // Quotes open or close by what stands beside them: German closes with “, French sets
        // its « » apart with no-break spaces, which stay with them.
        let german = split("„Datenschutz“-Einstellungen", width: 140)
        #expect(german.dropFirst().allSatisfy { !$0.hasPrefix("“") } && german.first?.hasPrefix("„D") == true, "\(german)")
        let french = split("«\u{A0}Confidentialité\u{A0}».", width: 160)
        #expect(french == ["«\u{A0}Confidentialit", "é\u{A0}»."], "\(french)")
        #expect(LineFiller.opensQuote(Array("a “b".unicodeScalars), at: 2) && !LineFiller.opensQuote(Array("b“-".unicodeScalars), at: 1))
        // Chinese closes with ” after its "！" or "。", before the next sentence's first character.
        #expect(!LineFiller.opensQuote(Array("好！”然".unicodeScalars), at: 2) && LineFiller.opensQuote(Array("：“你".unicodeScalars), at: 1))
        #expect(LineFiller.opensQuote(Array(" ”Hej".unicodeScalars), at: 1), "Swedish opens with ”")
        #expect(split("$1,299.99", width: 60) == ["$1,", "299.99"], "not $1,29 | 9.99")
        #expect(split("192.168.100.254", width: 40) == ["192.", "168.", "100.", "254"])
        #expect(split("2024।", width: 40) == ["202", "4।"], "not 2024 | ।")
    }

    /// A word cut between its letters is never cut inside a syllable: after a Thai vowel written
    /// before its consonant ("แอปพลิเ|คชัน" left เ at the line's end), nor inside a conjunct
    /// ("स्वास्थ्|य"). Every scalar 10 wide.
    @Test func aCutWordKeepsItsSyllables() {
        // แ อ ป พ ลิ เ ค ชั น: graphemes of 1 or 2 scalars.
        #expect(split("แอปพลิเคชัน", width: 60) == ["แอปพลิ", "เคชัน"], "not แอปพลิเ | คชัน")
        #expect(split("โปรไฟล์", width: 40) == ["โปร", "ไฟล์"], "not โปรไ | ฟล์")
        #expect(split("स्वास्थ्य", width: 80) == ["स्वा", "स्थ्य"], "not स्वास्थ् | य")
        #expect(split("abcdef", width: 40) == ["abcd", "ef"])
        #expect(LineFiller.holdsTogether(Array("क्\u{200D}ष".unicodeScalars), at: 3), "a half form")
        // Nor before what ends the syllable before it: a vowel written after its consonant, or
        // a consonant a sign makes the last of its syllable.
        #expect(split("ประสิทธิภาพ", width: 90) == ["ประสิทธิ", "ภาพ"], "not ประสิทธิภ | าพ")
        #expect(split("சரிபார்க்கவும்", width: 70) == ["சரி", "பார்க்க", "வும்"], "not சரிபார் | க்கவும்")
        #expect(LineFiller.holdsTogether(Array("တင်".unicodeScalars), at: 1), "Myanmar's asat")
        #expect(LineFiller.holdsTogether(Array("បង់".unicodeScalars), at: 1), "Khmer's bantoc")
        #expect(!LineFiller.holdsTogether(Array("បោះបង់".unicodeScalars), at: 3), "between syllables")
        // A word of no syllable boundary (prefixed vowels alone) is still cut between clusters.
        #expect(split("เเเเเเ", width: 40) == ["เเเเ", "เเ"])
        // The word's end stays a cut point, whatever is before it.
        #expect(split("abcक्", width: 30) == ["abc", "क्"])
        #expect(!LineFiller.holdsTogether(Array("a".unicodeScalars), at: 1) && !LineFiller.holdsTogether([], at: 0))
    }

    /// Hebrew allows no break after a soft hyphen (UAX #14 LB21a): a word too long for the line
    /// is cut between its clusters, and a piece that ends after a soft hyphen holds the hyphen
    /// it shows there. It was measured without it and ran past the line's end.
    @Test func aLongWordCutAfterASoftHyphenCountsItsHyphen() {
        let scalars = Array("אבג\u{AD}דהו".unicodeScalars)
        var widths = scalars.indices.map { ($0, 10.0) }
        widths[3].1 = 0
        let advances = AdvanceTable(count: scalars.count, glyphAdvances: widths)
        #expect(LineBreaker.opportunities(in: scalars).map(\.offset) == [7], "no break after the soft hyphen")
        func fill(width: Double) -> [Int] {
            LineFiller.lines(
                scalars: scalars, opportunities: LineBreaker.opportunities(in: scalars), advances: advances,
                width: width, hyphens: [4: 5]
            ).map(\.upperBound)
        }
        #expect(fill(width: 35) == [4, 7], "אבג- is 35 pt")
        #expect(fill(width: 32) == [3, 7], "אבג- is 35 pt: the cut goes before the soft hyphen (it was [4, 7])")
    }
}

@Suite struct ParagraphLayouterTests {
    let layouter = sharedTypesetter.paragraphs

    func text(_ string: String, size: Double = 17) -> ParagraphText {
        var text = ParagraphText()
        text.append(string.unicodeScalars, style: TextStyle(size: size), location: nil)
        return text
    }

    @Test func lineHeightIsAMultipleOfTheLargestSize() {
        let layout = layouter.layout(text("Hello مرحبا שלום"), direction: .ltr, width: 1000, lineHeight: 1.3)
        #expect(layout.lines.count == 1)
        #expect(abs(layout.lines[0].height - 22.1) < 0.001, "whatever the scripts' own ascent and descent")
        let balanced = layouter.layout(text("OK مرحبا"), direction: .ltr, width: 1000, lineHeight: 1.3, balance: 2)
        #expect(abs(balanced.lines[0].height - 19 * 1.3) < 0.001)
    }

    @Test func arabicJoinsAcrossTheWholeWord() {
        // Shaped together, the letters take joining forms: the word is narrower than its
        // letters shaped one by one in isolated forms.
        let word = layouter.layout(text("مرحبا"), direction: .rtl, width: 1000, lineHeight: 1.3)
        let isolated = "مرحبا".unicodeScalars.map {
            layouter.layout(text(String($0)), direction: .rtl, width: 1000, lineHeight: 1.3).lines[0].width
        }.reduce(0, +)
        #expect(word.lines[0].width < isolated)
        #expect(word.lines[0].runs.count == 1 && word.lines[0].runs[0].isRightToLeft)
    }

    @Test func runsAreInVisualOrder() {
        let layout = layouter.layout(text("abc שלום def"), direction: .ltr, width: 1000, lineHeight: 1.3)
        let runs = layout.lines[0].runs
        let levels = runs.map(\.level).reduce(into: [UInt8]()) { if $0.last != $1 { $0.append($1) } }
        #expect(levels == [0, 1, 0])
        // Left to right by content: "abc " from the paragraph's start, the Hebrew word (one run
        // of its four letters), " def" to its end.
        #expect(runs.first?.scalarRange.lowerBound == 0 && runs.last?.scalarRange.upperBound == 12)
        #expect(runs.filter(\.isRightToLeft).map(\.scalarRange) == [4..<8])
        #expect(runs.map(\.scalarRange.lowerBound) == runs.map(\.scalarRange.lowerBound).sorted())
    }

    /// SPEC §6: a run is a maximal stretch of one style, so tags of the same style side by side
    /// make one run, shaped as one: `<b>سل</b><b>ام</b>` keeps the lam-alef ligature of `<b>سلام</b>`.
    @Test func adjacentTagsOfOneStyleMakeOneRun() throws {
        let latin = try #require(blocks("<document><p>abc<b>de</b><b>fg</b> <i>h</i><i>i</i></p></document>").first)
        #expect(latin.lines[0].runs.map(\.text) == ["abc", "defg", " ", "hi"])
        let split = try #require(blocks("<document lang=\"ar\"><p><b>سل</b><b>ام</b></p></document>").first)
        let whole = try #require(blocks("<document lang=\"ar\"><p><b>سلام</b></p></document>").first)
        #expect(split.lines[0].runs.map(\.text) == ["سلام"])
        #expect(split.lines[0].runs.map(\.glyphs) == whole.lines[0].runs.map(\.glyphs))
        #expect(whole.lines[0].runs.map(\.glyphs) == [3], "س, the lam-alef ligature, م")
        // A different style still cuts the run.
        let colored = try #require(blocks("<document><p>ab<span color=\"#FF0000\">cd</span></p></document>").first)
        #expect(colored.lines[0].runs.map(\.text) == ["ab", "cd"])
    }

    /// White space before the isolate a line ends in hangs as at any line end (UAX #9 L1 takes
    /// isolate controls with it): `Hello <ltr><br/>…` stood a space inside the right edge. And a
    /// soft hyphen after a space ends no word: it shows no hyphen, and the space hangs.
    @Test func whiteSpaceBeforeAnIsolateOrASoftHyphenHangs() throws {
        let labels = blocks(
            """
            <document width="300"><label align="right">Hello <ltr><br/>world</ltr></label>
            <label align="right">Hello<br/>world</label><p>quick &#xAD;brown</p><p>quick</p></document>
            """)
        try #require(labels.count == 4 && labels.allSatisfy { !$0.lines.isEmpty })
        #expect(labels[0].lines[0].width == labels[1].lines[0].width && labels[0].lines[0].x == labels[1].lines[0].x)
        let shy = blocks(#"<document width="80" margin="0"><p>quick &#xAD;brown</p><p>quick</p></document>"#)
        try #require(shy.count == 2 && shy.allSatisfy { !$0.lines.isEmpty })
        #expect(shy[0].lines.count == 2 && shy[0].lines[0].width == shy[1].lines[0].width, "\(shy[0].lines.map(\.width))")
        // One after an isolate, or at an isolate's end, ends a word: it shows its hyphen, as
        // without the isolate (it showed none).
        let isolated = blocks(
            """
            <document width="140"><p>Word Donau&#xAD;dampfschiffahrt</p><p>Word <ltr>Donau</ltr>&#xAD;dampfschiffahrt</p>
            <p>Word <ltr>Donau&#xAD;</ltr>dampfschiffahrt</p></document>
            """)
        #expect(isolated.count == 3 && isolated.allSatisfy { abs($0.lines[0].width - isolated[0].lines[0].width) < 0.01 }, "\(isolated.map { $0.lines[0].width })")
    }

    /// Nor do bidi controls that leave the level as it was (an empty embedding or isolate, a PDF
    /// past the depth limit) cut a run (they were items of their own, and 'mn' and 'op' two
    /// runs); right to left, the later text comes first, as without them.
    @Test func controlsThatChangeNoLevelCutNoRun() throws {
        let latin = try #require(
            blocks("<document><p>mn&#x202B;&#x202C;op qr&#x2066;&#x2069;st</p></document>").first)
        #expect(latin.lines[0].runs.map(\.text) == ["mnop qrst"])
        let plain = try #require(blocks("<document lang=\"he\"><p>שלום עולם גדול</p></document>").first)
        for controls in ["&#x202B;&#x202C;", "&#x2067;&#x2069;"] {
            let hebrew = try #require(blocks("<document lang=\"he\"><p>שלום \(controls)עולם גדול</p></document>").first)
            #expect(hebrew.lines[0].runs.map(\.text) == ["שלום עולם גדול"], "\(controls)")
            #expect(hebrew.lines[0].runs.map(\.x) == plain.lines[0].runs.map(\.x), "\(controls)")
        }
        // The glyphs, drawn, in the same order as without the controls.
        let shown = layouter.layout(text("שלום \u{2067}\u{2069}עולם"), direction: .rtl, width: 1000, lineHeight: 1.3)
        let bare = layouter.layout(text("שלום עולם"), direction: .rtl, width: 1000, lineHeight: 1.3)
        #expect(shown.lines[0].runs.count == 1)
        #expect(shown.lines[0].runs[0].glyphs.map(\.id) == bare.lines[0].runs[0].glyphs.map(\.id))
    }

    /// A line broken at a soft hyphen (U+00AD) shows a hyphen there: the font's "-" in place of
    /// the soft hyphen's invisible glyph, counted in the line's width. Elsewhere it shows nothing.
    @Test func aLineBrokenAtASoftHyphenShowsAHyphen() throws {
        let word = "Donau\u{AD}dampf\u{AD}schiff\u{AD}fahrts"
        let layout = layouter.layout(text(word), direction: .ltr, width: 118, lineHeight: 1.3)
        let hyphenLine = layouter.layout(text("Donau-dampf"), direction: .ltr, width: 1000, lineHeight: 1.3)
        let hyphen = try #require(hyphenLine.lines[0].runs[0].glyphs.first { $0.cluster == 5 })
        let unbroken = layouter.layout(text(word), direction: .ltr, width: 1000, lineHeight: 1.3)
        #expect(unbroken.lines.count == 1)
        #expect(!unbroken.lines[0].runs.flatMap(\.glyphs).contains { $0.id == hyphen.id }, "no break, no hyphen")

        #expect(layout.lines.map(\.scalarRange) == [0..<12, 12..<25], "Donau-dampf- | schifffahrts")
        let first = layout.lines[0].runs.flatMap(\.glyphs)
        #expect(first.last?.id == hyphen.id && first.last?.cluster == 11)
        #expect(first.filter { $0.id == hyphen.id }.count == 1, "the soft hyphen inside the line shows nothing")
        let plain = layouter.layout(text("Donaudampf"), direction: .ltr, width: 1000, lineHeight: 1.3)
        #expect(abs(layout.lines[0].width - (plain.lines[0].width + hyphen.advance)) < 0.001)
        #expect(layout.lines[0].width <= 118)
        #expect(!layout.lines[1].runs.flatMap(\.glyphs).contains { $0.id == hyphen.id }, "the last line has none")
    }

    /// A line whose end or start cuts a kerned pair or a joined word is shaped again, and is
    /// measured so: "AV" cut from "AV&#xAD;AT" loses the kern of V before A, and its line stood
    /// up to 1.2 pt past the width. Every line of more than one glyph fits, at every width, in
    /// Latin, Arabic and Hebrew.
    @Test func aLineCutInsideAKernedPairOrAJoinedWordFits() {
        let texts: [(String, BidiDirection)] = [
            ("Ef\u{AD}fekt AV\u{AD}AT\u{AD}LT\u{AD}AY AV\u{AD}AT Ta\u{AD}Va\u{AD}Wa\u{AD}To T.\u{AD}V.\u{AD}A", .ltr),
            ("AVATAYToAVATAYToAVATAYTo LTAVYA", .ltr),
            ("المعلوماتالمعلوماتالمعلومات مستشفى", .rtl),
            ("ירושליםירושליםירושלים שלום", .rtl),
        ]
        var lines = 0
        for (string, direction) in texts {
            for width in stride(from: 30.0, through: 160, by: 0.5) {
                let layout = layouter.layout(text(string), direction: direction, width: width, lineHeight: 1.3)
                for line in layout.lines where line.runs.reduce(0, { $0 + $1.glyphs.count }) > 1 {
                    lines += 1
                    #expect(line.width <= width + 0.001, "\(string) at \(width): \(line.scalarRange) is \(line.width)")
                }
            }
        }
        #expect(lines > 3000)
    }

    /// A word of joined letters has no safe cut: each of its possible line ends is measured in
    /// a few clusters around it, not by shaping the line from its start again for each (23 s
    /// for a word of 20,000 Arabic letters in a wide box). Most ends are too far from the
    /// line's limit to be measured at all; a model word of zero-width clusters, one in 100 of
    /// them 10 pt wide, has a hundred near it in each line. Its pieces, shaped alone, are 1 pt
    /// wider at each cut end; the work is counted in scalars shaped again.
    @Test func cutsInAWordWithoutSafeCutsAreMeasuredNearThem() throws {
        let face = try #require(
            layouter.layout(text("x"), direction: .ltr, width: 100, lineHeight: 1).lines.first?.runs.first?.face)
        let count = 4000
        let scalars = [Unicode.Scalar](repeating: "\u{628}", count: count)
        func advance(_ offset: Int) -> Int { offset % 100 == 0 ? 10 : 0 }
        func glyphs(_ range: Range<Int>, cutWider: Bool) -> [ShapedGlyph] {
            range.map { offset in
                let cut = cutWider && (offset == range.lowerBound && offset > 0 || offset == range.upperBound - 1 && range.upperBound < count)
                return ShapedGlyph(
                    id: 1, cluster: offset, advance: Double(advance(offset) + (cut ? 1 : 0)), xOffset: 0, yOffset: 0,
                    unsafeToBreak: offset > 0)
            }
        }
        let run = ShapedRun(face: face, size: 10, rightToLeft: false, range: 0..<count, glyphs: glyphs(0..<count, cutWider: false))
        let item = TextItem(scalarRange: 0..<count, level: 0, script: .latin, spanIndex: 0, face: face)
        let advances = AdvanceTable(count: count, runs: [run])
        var shaped = 0
        let ends = try #require(LineEndShaping(items: [item], advances: advances, edges: nil, largestSize: 10) { _, range in
            shaped += range.count
            return glyphs(range, cutWider: true)
        })
        // At 91.5 pt, a line of 9 wide clusters (92 pt drawn) no longer fits; at 95 pt it does,
        // and every end after its 9th is measured.
        for width in [91.5, 95] {
            let lines = LineFiller.lines(
                scalars: scalars, opportunities: LineBreaker.opportunities(in: scalars), advances: advances,
                width: width, ends: ends)
            #expect(lines.first?.lowerBound == 0 && lines.last?.upperBound == count && lines.count >= 4)
            for line in lines {
                let drawn = line.reduce(0) { $0 + advance($1) } + (line.lowerBound > 0 ? 1 : 0) + (line.upperBound < count ? 1 : 0)
                #expect(Double(drawn) <= width, "\(line) is \(drawn) pt")
            }
        }
        #expect(shaped < 40 * count, "\(shaped) scalars shaped again")
    }

    /// A soft hyphen that ends the paragraph shows no hyphen, and keeps no room for one:
    /// "Kaffee&#xAD;" (50.93 pt) broke as "Kaffe" and "e" in a box 51 pt wide.
    @Test func aSoftHyphenAtTheEndKeepsNoRoomForAHyphen() {
        let layout = layouter.layout(text("Kaffee\u{AD}"), direction: .ltr, width: 51, lineHeight: 1.3)
        #expect(layout.lines.map(\.scalarRange) == [0..<7])
    }

    @Test func trailingSpaceHangsOutsideTheWidth() {
        let withSpace = layouter.layout(text("word "), direction: .ltr, width: 1000, lineHeight: 1.3)
        let without = layouter.layout(text("word"), direction: .ltr, width: 1000, lineHeight: 1.3)
        #expect(abs(withSpace.lines[0].width - without.lines[0].width) < 0.001)
    }

    @Test("a repeated paragraph is taken from the cache, set as it would be anew")
    func paragraphCacheEquivalence() {
        let fresh = ParagraphLayouter(fonts: layouter.fonts, shaper: Shaper(), paragraphCacheCapacity: 0)
        // Small: also exercises emptying.
        let cached = ParagraphLayouter(fonts: layouter.fonts, shaper: Shaper(), paragraphCacheCapacity: 100)
        func styled(_ pieces: [(String, TextStyle)], line: Int) -> ParagraphText {
            var text = ParagraphText()
            for (string, style) in pieces {
                text.append(string, style: style, location: SourceLocation(file: "t.xml", line: line, column: 1))
            }
            return text
        }
        let arabic = TextStyle(size: 19, language: "ar", digits: .arab)
        let bold = TextStyle(weight: 700, size: 17, color: Color(red: 1, green: 0, blue: 0))
        let texts: [[(String, TextStyle)]] = [
            [("Save", TextStyle())],
            [("Save", bold)],  // the same characters in another style
            [("إلغاء", arabic)],
            [("OK ", bold), ("مرحبا 123 שלום", TextStyle(language: "he"))],
            [("Call +44 20 7946 0958 now, \u{10FFFD} ", TextStyle()), ("bold", bold)],
            [(String(repeating: "مرحبا بالعالم ", count: 10), arabic)],  // longer than the cache takes
        ]
        var reused = 0
        var longChecked = 0
        for pieces in texts {
            for (direction, width, balance) in [(BidiDirection.ltr, 1000.0, 0.0), (.rtl, 60, 0), (.rtl, 1000, 0), (.rtl, 1000, 2)] {
                for line in 1...3 {  // the second and third time from the cache, from other lines
                    let text = styled(pieces, line: line)
                    let a = fresh.layout(text, direction: direction, width: width, lineHeight: 1.3, balance: balance)
                    let b = cached.layout(text, direction: direction, width: width, lineHeight: 1.3, balance: balance)
                    #expect(a.lines == b.lines && a.displayScalars == b.displayScalars && a.baseLevel == b.baseLevel,
                            "\(pieces.map(\.0)) \(direction) \(width)")
                    // Warnings name the text at hand, not the one first set.
                    let warnings = b.missingCharacters(source: nil)
                    #expect(a.missingCharacters(source: nil) == warnings)
                    #expect(warnings.allSatisfy { $0.location.line == line })
                    #expect(b.text.sources.map(\.location) == text.sources.map(\.location))
                }
                let count = cached.paragraphsReused
                if pieces[0].0.unicodeScalars.count > ParagraphCache.longest {
                    #expect(count == reused, "a long paragraph is not kept")
                    longChecked += 1
                } else {
                    #expect(count == reused + 2)
                }
                reused = count
            }
        }
        #expect(fresh.paragraphsReused == 0)
        #expect(longChecked == 4, "the paragraph too long for the cache was tried in each direction and width")
        // The missing-glyph warning is among those compared.
        #expect(fresh.layout(styled(texts[4], line: 1), direction: .ltr, width: 1000, lineHeight: 1.3)
            .missingCharacters(source: nil).count == 1)
    }

    @Test func wrapsWithinTheWidth() {
        let layout = layouter.layout(text(String(repeating: "مرحبا بالعالم ", count: 20)), direction: .rtl, width: 200, lineHeight: 1.3)
        #expect(layout.lines.count > 3)
        #expect(layout.lines.allSatisfy { $0.width <= 200.001 })
    }
}
