// Filling lines: choosing where a paragraph breaks, from UAX #14 opportunities and shaped
// widths. Greedy and never justified (SPEC §4.4); white space at a line's end hangs.

/// Widths of a paragraph by scalar, from shaped glyphs: each glyph's advance counts at the
/// first scalar of its cluster, so any range that starts and ends at cluster boundaries
/// measures exactly.
struct AdvanceTable {
    /// prefix[i] = total advance of scalars 0..<i.
    private(set) var prefix: [Double]

    init(count: Int, glyphAdvances: [(cluster: Int, advance: Double)]) {
        var advances = [Double](repeating: 0, count: count + 1)
        for glyph in glyphAdvances { advances[glyph.cluster + 1] += glyph.advance }
        self.init(summing: advances)
    }

    /// From the glyphs of a paragraph's shaped runs.
    init(count: Int, runs: [ShapedRun]) {
        var advances = [Double](repeating: 0, count: count + 1)
        var unsafeCuts: [Bool] = []
        for run in runs {
            for glyph in run.glyphs {
                advances[glyph.cluster + 1] += glyph.advance
                if glyph.unsafeToBreak && glyph.cluster > run.range.lowerBound {
                    if unsafeCuts.isEmpty { unsafeCuts = [Bool](repeating: false, count: count + 1) }
                    unsafeCuts[glyph.cluster] = true
                }
            }
        }
        self.init(summing: advances)
        self.runs = runs
        self.unsafeCuts = unsafeCuts
    }

    /// `advances[i + 1]` is the advance of scalar i; `advances[0]` is 0.
    private init(summing advances: [Double]) {
        prefix = advances
        for i in prefix.indices.dropFirst() { prefix[i] += prefix[i - 1] }
    }

    func width(_ range: Range<Int>) -> Double { prefix[range.upperBound] - prefix[range.lowerBound] }

    /// The shaped runs the advances come from (none given: every scalar is a cluster of its own).
    private var runs: [ShapedRun] = []

    /// By offset, whether HarfBuzz marks a cut there inside a run unsafe: the glyphs on either
    /// side change when shaped apart (kerning, joining; `LineEndShaping`). Empty when no cut is.
    private(set) var unsafeCuts: [Bool] = []

    /// For each offset (`0...count`), whether a break there keeps HarfBuzz's clusters whole:
    /// false inside a ligature ("ffi", lam-alef, the "fl" of "Auf&#xAD;lage") or a letter and
    /// marks drawn as one glyph, whose lines would be one with the whole glyph and one without
    /// it. One pass over the glyphs, made only for a paragraph that asks (a word wider than its
    /// line, a soft hyphen).
    func clusterEdges() -> [Bool] {
        let count = prefix.count - 1
        guard !runs.isEmpty else { return [Bool](repeating: true, count: count + 1) }
        var edges = [Bool](repeating: false, count: count + 1)
        edges[0] = true
        edges[count] = true
        for run in runs {
            edges[run.range.lowerBound] = true
            edges[run.range.upperBound] = true
            for glyph in run.glyphs { edges[glyph.cluster] = true }
        }
        return edges
    }
}

enum LineFiller {
    /// True for characters that hang at the end of a line: spaces and line or paragraph
    /// separators do not count toward its width, nor do the bidi controls among them (UAX #9
    /// L1 takes isolate controls with trailing white space; `Hello <ltr><br/>…` ended its line
    /// in "Hello ", LRI, and the space stood 4 pt inside a right-aligned line's edge).
    static func hangs(_ scalar: Unicode.Scalar) -> Bool {
        isWhiteSpace(scalar) || isHiddenControl(scalar)
    }

    /// Spaces and line or paragraph separators.
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.lineBreakClass {
        case .SP, .BK, .CR, .LF, .NL, .ZW: true
        default: scalar.bidiClass == .WS
        }
    }

    /// Whether the soft hyphen at `index` ends no word: it is first, or comes after white
    /// space (bidi controls between passed over). It shows no hyphen (`quick &#xAD;brown`
    /// showed "quick -"), and hangs; one after `<ltr>Donau</ltr>` shows its hyphen.
    static func softHyphenEndsNoWord(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var before = index - 1
        while before >= 0 && isHiddenControl(scalars[before]) { before -= 1 }
        return before < 0 || isWhiteSpace(scalars[before])
    }

    /// The end of `range` without the white space hanging at its end, and without a soft
    /// hyphen that ends no word (`softHyphenEndsNoWord`): the space before it hangs too.
    static func visibleEnd(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound && hangs(scalars, at: end - 1) { end -= 1 }
        return end
    }

    /// Whether `scalars[index]` hangs at a line's end (`visibleEnd`).
    @inline(__always)
    static func hangs(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        return hangs(scalar) || scalar == "\u{AD}" && softHyphenEndsNoWord(scalars, at: index)
    }

    /// What UAX #14 keeps with a soft hyphen before it (LB9: combining marks, bidi controls and
    /// marks, ZWJ): a line that ends at the soft hyphen ends after them, and shows its hyphen.
    static func staysWithSoftHyphen(_ scalar: Unicode.Scalar) -> Bool {
        let kind = scalar.lineBreakClass
        return kind == .CM || kind == .ZWJ
    }

    /// `opportunities` without those inside a glyph cluster, where a line's end would cut a
    /// glyph: HarfBuzz ligates across a soft hyphen (the "fl" of "Auf&#xAD;lage"), and a line
    /// ending there drew the whole ligature, "Aufl-", over a next line of "age"; a flag cut by
    /// markup (`🇩<b>🇪🇯🇵</b>`) left a line of "🇯🇵" with no glyph. A break after white space
    /// moves past its cluster instead: UAX #14 breaks between a space and a mark after it
    /// (LB10), which HarfBuzz draws on the space, and a line starting at the mark lost it; the
    /// space and its mark end the line, and the words stay apart. A mandatory break stays. Also
    /// the paragraph's cluster edges, when they were worked out for it (`lines` takes them).
    static func outsideClusters(
        _ opportunities: [BreakOpportunity], scalars: [Unicode.Scalar], advances: AdvanceTable
    ) -> (opportunities: [BreakOpportunity], edges: [Bool]?) {
        var edges: [Bool]?
        func insideCluster(_ opportunity: BreakOpportunity) -> Bool {
            let offset = opportunity.offset
            // A character with a width of its own starts its cluster: most opportunities are
            // found outside so, without the edges.
            guard !opportunity.isMandatory, offset < scalars.count, advances.width(offset..<offset + 1) == 0,
                !isHiddenControl(scalars[offset])  // an item of its own (Itemizer)
            else { return false }
            if edges == nil { edges = advances.clusterEdges() }
            return edges?[offset] == false
        }
        guard opportunities.contains(where: insideCluster), let known = edges else { return (opportunities, edges) }
        var kept: [BreakOpportunity] = []
        kept.reserveCapacity(opportunities.count)
        for var opportunity in opportunities {
            if insideCluster(opportunity) {
                guard isWhiteSpace(scalars[opportunity.offset - 1]) else { continue }
                while !known[opportunity.offset] { opportunity.offset += 1 }  // known[count] is true
            }
            // One moved onto or past the next (a cluster holding a line feed) takes it in.
            if let last = kept.last, last.offset >= opportunity.offset {
                kept[kept.count - 1].isMandatory = last.isMandatory || opportunity.isMandatory
            } else {
                kept.append(opportunity)
            }
        }
        return (kept, known)
    }

    /// Line ranges covering `scalars`, each at most `width` wide without its hanging white
    /// space, broken at UAX #14 opportunities, or at grapheme boundaries inside a word longer
    /// than the line. `hyphens` gives, by the offset after each soft hyphen, the width of the
    /// hyphen a line ending there shows; `ends`, what shaping a line's cut ends again adds.
    static func lines(
        scalars: [Unicode.Scalar], opportunities: [BreakOpportunity], advances: AdvanceTable, width: Double,
        hyphens: [Int: Double] = [:], edges knownEdges: [Bool]? = nil, ends: LineEndShaping? = nil
    ) -> [Range<Int>] {
        guard !scalars.isEmpty else { return [] }
        var lines: [Range<Int>] = []
        var start = 0
        var lastFit: Int?  // the furthest opportunity that fits on the current line
        var k = 0
        // A little slack absorbs rounding in the sums of advances.
        let limit = width + 0.001
        // `visibleEnd` from the paragraph's start, for the last end asked: the ends asked go
        // forward, and a run of white space with break opportunities in it (" \u{3000}" again
        // and again, which never overflows) was walked back over at each, 10 s for 80,000
        // characters.
        var known = (end: 0, visible: 0)
        func lineWidth(_ start: Int, _ end: Int) -> Double {
            let from = end >= known.end ? known : (end: 0, visible: 0)
            var e = end
            while e > from.end && hangs(scalars, at: e - 1) { e -= 1 }
            known = (end, e == from.end ? from.visible : e)
            let visible = max(start, known.visible)
            let shown = advances.width(start..<visible) + (hyphens.isEmpty ? 0 : hyphens[end] ?? 0)
            return ends?.width(shown, start: start, visibleEnd: visible, limit: limit) ?? shown
        }
        var knownEdges = knownEdges  // `advances.clusterEdges()`, made at the first word cut
        func edges() -> [Bool] {
            if let knownEdges { return knownEdges }
            let edges = advances.clusterEdges()
            knownEdges = edges
            return edges
        }
        while k < opportunities.count {
            let opportunity = opportunities[k]
            let end = opportunity.offset
            if end <= start {
                k += 1
                continue
            }
            if let fit = lastFit, lineWidth(start, end) > limit {
                lines.append(start..<fit)
                start = fit
                lastFit = nil  // look at this opportunity again from the new line's start
                continue
            }
            if lastFit == nil, lineWidth(start, end) > limit {
                // One word is wider than the line: break it between grapheme clusters (not
                // inside a ligature). The rest of the word stays on the line being built (a
                // single cluster wider than the line stays whole and overflows: there is
                // nowhere to break it).
                // (Its last piece ends at this opportunity: room is kept for the hyphen a soft
                // hyphen there shows.)
                // (How far the line of a last piece from a given start reaches, through the
                // words after it: a cut that left them less room made a line more.)
                let hyphen = hyphens.isEmpty ? 0 : hyphens[end] ?? 0
                let wordEnd = visibleEnd(scalars, start..<end)
                let reach: (Int) -> Int = { pieceStart in
                    guard !opportunity.isMandatory else { return end }
                    var (furthest, visible) = (end, wordEnd)
                    for next in opportunities[(k + 1)...] {
                        // (The white space between two ends is walked once.)
                        visible = max(visible, visibleEnd(scalars, furthest..<next.offset))
                        let shown = advances.width(pieceStart..<visible) + (hyphens.isEmpty ? 0 : hyphens[next.offset] ?? 0)
                        guard (ends?.width(shown, start: pieceStart, visibleEnd: visible, limit: limit) ?? shown) <= limit else { break }
                        furthest = next.offset
                        if next.isMandatory { break }
                    }
                    return furthest
                }
                let pieces = splitLongWord(
                    scalars, start..<wordEnd, advances: advances, edges: edges(), width: limit,
                    hyphens: hyphens, endHyphen: hyphen, ends: ends, reach: reach)
                lines += pieces.dropLast()
                start = pieces.last?.lowerBound ?? start
            }
            // The text up to this opportunity fits on the line.
            if opportunity.isMandatory {
                lines.append(start..<end)
                start = end
                lastFit = nil
            } else if known.visible > start || advances.width(start..<end) > 0 {
                // (`known` is this end's: its width was just asked.) A line of nothing to see,
                // and of no width, is none: a soft hyphen that begins a paragraph made an empty
                // first line.
                lastFit = end
            }
            k += 1
        }
        if start < scalars.count { lines.append(start..<scalars.count) }
        return lines
    }

    /// `lines` with UIKit's push-out, part of a label's standard line-break strategy
    /// (`NSParagraphStyle.LineBreakStrategy.pushOut`; `HangulWords` is the other part): the last
    /// line of a paragraph, or of a part of one that a line break ends, that holds one word takes
    /// the last word of the line before it, where the two fit (`fits`, the width of a line from
    /// its start to its end). A word stood alone under a title ("Lumen" under the Hebrew
    /// onboarding title). Only a word after white space moves, once, and each line keeps one.
    static func pushingOut(
        _ lines: [Range<Int>], scalars: [Unicode.Scalar], opportunities: [BreakOpportunity], fits: (Range<Int>) -> Bool
    ) -> [Range<Int>] {
        guard lines.count >= 2 else { return lines }
        var lines = lines
        /// The opportunity at `offset`, if any.
        func opportunity(at offset: Int) -> BreakOpportunity? {
            let k = opportunities.partitionPoint { $0.offset < offset }
            return k < opportunities.count && opportunities[k].offset == offset ? opportunities[k] : nil
        }
        for i in 1..<lines.count {
            let (before, last) = (lines[i - 1], lines[i])
            // The last line of its part, after a line that ends where it may (not a line break's
            // end, nor a cut inside a word).
            guard last.upperBound == scalars.count || opportunity(at: last.upperBound)?.isMandatory == true,
                opportunity(at: before.upperBound)?.isMandatory == false
            else { continue }
            // One word: no opportunity inside what it shows.
            let shown = last.lowerBound..<visibleEnd(scalars, last)
            let inside = opportunities.partitionPoint { $0.offset <= shown.lowerBound }
            guard !shown.isEmpty, inside == opportunities.count || opportunities[inside].offset >= shown.upperBound
            else { continue }
            // The last word of the line before, after white space, with a word before it.
            let end = opportunities.partitionPoint { $0.offset < before.upperBound }
            guard end > 0 else { continue }
            let word = opportunities[end - 1]
            guard !word.isMandatory, word.offset > before.lowerBound, hangs(scalars, at: word.offset - 1),
                visibleEnd(scalars, before.lowerBound..<word.offset) > before.lowerBound,
                fits(word.offset..<last.upperBound)
            else { continue }
            lines[i - 1] = before.lowerBound..<word.offset
            lines[i] = word.offset..<last.upperBound
        }
        return lines
    }

    /// The words of `lines` broken inside (by `splitLongWord`: wider than the line), once for
    /// each line end inside them, in order, with that line end: each from the break
    /// opportunity before it to the one after, without its hanging white space. A break after
    /// a soft hyphen is the author's, though Hebrew's gives no opportunity (LB21a).
    static func brokenWords(
        _ lines: [Range<Int>], scalars: [Unicode.Scalar], opportunities: [BreakOpportunity]
    ) -> [(word: Range<Int>, cut: Int)] {
        var words: [(word: Range<Int>, cut: Int)] = []
        var k = 0  // lines and opportunities both go forward
        for line in lines.dropLast() {
            while k < opportunities.count && opportunities[k].offset < line.upperBound { k += 1 }
            if k < opportunities.count && opportunities[k].offset == line.upperBound { continue }
            if scalars[line.upperBound - 1] == "\u{AD}" { continue }
            let start = k > 0 ? opportunities[k - 1].offset : 0
            // A word cut into many lines is looked at once: its visible end, again for each
            // cut, walked back over the same characters that hang after it (a word of 200,000
            // letters before 20,000 bidi controls took 24 s).
            if let last = words.last, last.word.lowerBound == start {
                words.append((last.word, line.upperBound))
                continue
            }
            let end = k < opportunities.count ? opportunities[k].offset : scalars.count
            words.append((start..<visibleEnd(scalars, start..<end), line.upperBound))
        }
        return words
    }

    /// Whether the grapheme boundary before `scalars[index]` is still inside a syllable, where
    /// a word too wide for its line is not cut: after a vowel written before its consonant in
    /// Thai, Lao, New Tai Lue and Tai Viet (Logical_Order_Exception: "แอปพลิเ|คชัน" left เ at a
    /// line's end, apart from the ค it is read with), and between a virama that joins the next
    /// consonant and that consonant (a conjunct: "स्वास्थ्|य"; UAX #29 15.1's GB9c for
    /// Devanagari, Bengali, Gujarati, Oriya, Telugu and Malayalam, and Myanmar's and Khmer's
    /// stacking signs).
    static func holdsTogether(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, index < scalars.count else { return false }
        if closesSyllable(scalars, at: index) { return true }
        let before = scalars[index - 1]
        switch before.value {
        case 0x0E40...0x0E44, 0x0EC0...0x0EC4, 0x19B5...0x19B7, 0x19BA, 0xAAB5...0xAAB6, 0xAAB9, 0xAABB...0xAABC:
            return true
        default:
            // A virama, or one with a ZWJ after it (a half form: "क्‍ष"), before a consonant.
            let links = before.isSyllableLinker || before == "\u{200D}" && index >= 2 && scalars[index - 2].isSyllableLinker
            return links && scalars[index].generalCategory == .Lo
        }
    }

    /// Whether the grapheme cluster at `index` ends the syllable before it: a vowel written
    /// after its consonant in Thai or Lao (า, ะ, ๅ: "ประสิทธิภ|าพ" began a line with า), or a
    /// consonant a sign makes the last of its syllable (Tamil's pulli, Myanmar's asat, Khmer's
    /// bantoc and toandakhiat, Thai's thanthakhat, Lao's cancellation mark: "சரிபார்|க்கவும்",
    /// "ကျေးဇူးတ|င်ပါသည်", "បោះប|ង់" began lines with a consonant cut from its syllable).
    static func closesSyllable(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        switch scalars[index].value {
        case 0x0E30, 0x0E32, 0x0E45, 0x0EB0, 0x0EB2: return true
        case 0x0B80...0x0BFF, 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF:
            var next = index + 1
            while next < scalars.count, next <= index + 8, FontFallbackCluster.isMark(scalars[next]) {
                switch scalars[next].value {
                case 0x0BCD, 0x103A, 0x17CB, 0x17CD, 0x0E4C, 0x0ECC: return true
                default: next += 1
                }
            }
            return false
        default: return false
        }
    }

    /// Whether a long name or address parts before `scalars[index]`, as the Chicago Manual of
    /// Style breaks a URL: before a period, slash, backslash, underscore, tilde, question mark,
    /// number sign, percent sign, equals sign, ampersand or at sign where the name goes on after it
    /// (not a sentence's "까|?" nor "end|."); after a colon (where "https://" is wider than a
    /// line: "https:" | "//", not "https:/" | "/"), a double slash, an equals sign or an
    /// ampersand; never inside "//". A number parts after its separators, not before
    /// ("₪1,299.|99": ".99" began a line, read as a decimal; "2024/03/|15") (`splitLongWord`'s
    /// seams). And after a ZWNJ, where a Persian compound's parts meet unjoined: a cut two
    /// letters on split the joined "ها" of "برنامه‌ها".
    static func parts(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let before = scalars[index - 1]
        let after = scalars[index]
        if before == "\u{200C}" { return !keepsPunctuation(scalars, at: index) }  // ("…ها‌|؟" began a line with "؟")
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.generalCategory == .Nd }
        func separatesDigits(_ scalar: Unicode.Scalar) -> Bool { [".", ",", "/", ":", "-", "\u{066B}", "\u{066C}"].contains(scalar) }
        if isDigit(before), separatesDigits(after), index + 1 < scalars.count, isDigit(scalars[index + 1]) { return false }
        if separatesDigits(before), isDigit(after), index >= 2, isDigit(scalars[index - 2]) { return true }
        if after == "/" && before == "/" { return false }
        if after == "/" && before == ":" { return true }
        if before == "/" && index >= 2 && scalars[index - 2] == "/" { return true }
        switch after {
        case ".", "/", "\\", "_", "~", "?", "#", "%", "=", "&", "@":
            return index + 1 < scalars.count && isWordCharacter(scalars[index + 1])
        default: return before == ":" || before == "=" || before == "&"
        }
    }

    /// Whether `index` is just after a Hebrew compound's maqaf or hyphen, before a letter or
    /// digit: UAX #14 gives no break there (LB21a), and a word cut anyway is best cut there
    /// ("בתל־אביב־" | "יפו"), which reads as no cut between letters. (Not any hyphen: a phone
    /// number's or "COVID-19"'s cut is between its letters.)
    static func afterCompoundHyphen(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= 2, index < scalars.count, isWordCharacter(scalars[index]) else { return false }
        let hyphen = scalars[index - 1]
        guard hyphen == "\u{05BE}" || hyphen == "-" || hyphen == "\u{2010}" else { return false }
        // The letter before it, past its points ("יָפוֹ־חֵיפָה").
        var letter = index - 2
        while letter > 0, scalars[letter].generalCategory == .Mn { letter -= 1 }
        return scalars[letter].script == .hebrew && isWordCharacter(scalars[letter])
    }

    /// Whether a word too wide for its line is best not cut before `scalars[index]`: UAX #14
    /// never starts a line with closing punctuation, "!" or "?", a separator of a number, a
    /// closing quote, CJK's small kana and iteration marks, a hyphen, or a danda "।" (LB13,
    /// LB16, LB19, LB21, NS), nor cuts an ellipsis "……" (LB22), nor ends a line with opening
    /// punctuation, an opening quote or an acute accent "´" (LB14, LB19, LB21), nor cuts at
    /// either side of a no-break space (LB12, LB12a).
    /// "동의하시겠습니까|?" left "?" alone on a line, "“안녕하세요!|”" began one with ”, and
    /// "い……|。" one with 。 (Korean words are kept whole, `HangulWords`, and reach here at a
    /// label's width). A preference: where no such cut fits, a piece is cut where it fits.
    static func keepsPunctuation(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        // Past the marks that show nothing (an LRM, a ZWNJ): "Internationa‎|!" began a line with "!".
        var at = index
        while at + 1 < scalars.count, [0x200C, 0x200D, 0x200E, 0x200F, 0x061C].contains(scalars[at].value) { at += 1 }
        let after = scalars[at]
        let before = scalars[index - 1]
        // Arabic's decimal and thousands separators (UAX #14's NU, as its digits are): "٥٦٧" |
        // "٫٨٩" read as a decimal.
        if after.value == 0x066B || after.value == 0x066C { return true }
        switch after.lineBreakClass {
        case .CL, .CP, .EX, .IS, .NS, .GL, .HY: return true
        case .BA where after != "\u{AD}": return true  // (a piece may start with a soft hyphen: it shows nothing)
        case .IN where before.lineBreakClass == .IN: return true  // "……" (a line may start with one, JIS X 4051)
        case .QU where !opensQuote(scalars, at: at): return true
        default: break
        }
        switch before.lineBreakClass {
        case .OP, .GL, .BB: return true
        case .QU: return opensQuote(scalars, at: index - 1)
        default: return false
        }
    }

    /// Whether `scalars[index]` stands inside a group of digits: a cut there is taken after one
    /// beside punctuation, which `keepsPunctuation` turns away (`$1,|299.99`, not "$1,29|9.99"
    /// read as 9.99), before any other ("202|4।", not "2024|।").
    static func splitsDigits(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        scalars[index - 1].generalCategory == .Nd && scalars[index].generalCategory == .Nd
    }

    /// Whether the quotation mark at `index` (UAX #14's QU, which opens in one language and
    /// closes in another) opens. A final quote (” ’ ») closes, but after white space or at the
    /// start and before a letter or digit (Swedish's ”Hej”); an initial one (“ ‘ «) opens, but
    /// after text when no letter or digit follows (German's „Hallo!“, "„Datenschutz“-"); one of
    /// either (") opens before a letter or digit that no letter or digit stands before.
    /// (A letter or digit past no-break spaces: French's « … ».)
    static func opensQuote(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var next = index + 1
        while next < scalars.count, next <= index + 2, scalars[next].lineBreakClass == .GL { next += 1 }
        let wordAfter = next < scalars.count && isWordCharacter(scalars[next])
        let before = index > 0 ? scalars[index - 1] : nil
        let freeBefore = before.map { LineFiller.isWhiteSpace($0) || $0.lineBreakClass == .OP || $0.lineBreakClass == .GL } ?? true
        switch scalars[index].generalCategory {
        case .Pf: return freeBefore && wordAfter
        case .Pi: return freeBefore || wordAfter
        default: return wordAfter && !(before.map(isWordCharacter) ?? false)
        }
    }

    /// A letter or a decimal digit.
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.generalCategory {
        case .Lu, .Ll, .Lt, .Lm, .Lo, .Nd: true
        default: false
        }
    }

    /// `range` cut between grapheme clusters, and never inside a glyph cluster (a ligature; by
    /// `edges`, as `AdvanceTable.clusterEdges` gives them), into pieces that fit (each at least
    /// one cluster that shows something; ending where a name or address parts, when that
    /// fills half the line, and where a cut reads better, when that makes no more lines, the
    /// words after it counted by `reach`), a piece that ends after a soft hyphen with the hyphen
    /// it shows (`hyphens`, as `lines` takes them; UAX #14 allows no break after a soft hyphen
    /// in Hebrew, LB21a, so a Hebrew word's pieces can end there). The last piece is what is left, however wide, with room
    /// for `endHyphen`, the hyphen of a soft hyphen at the range's end (only the last piece
    /// shows it: taken off every piece's width, it broke "Donaudam" a letter early). `ends`
    /// adds what shaping a piece's cut ends again changes (the kerning lost at the cut).
    static func splitLongWord(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, advances: AdvanceTable, edges: [Bool], width: Double,
        hyphens: [Int: Double], endHyphen: Double, ends: LineEndShaping? = nil, reach: ((Int) -> Int)? = nil
    ) -> [Range<Int>] {
        /// The piece `start..<end` with `hyphen` after it.
        func pieceWidth(_ start: Int, _ end: Int, hyphen: Double) -> Double {
            let shown = advances.width(start..<end) + hyphen
            return ends?.width(shown, start: start, visibleEnd: end, limit: width) ?? shown
        }
        let clusters = GraphemeBreaker.boundaries(in: scalars, range: range).filter { $0 > range.lowerBound && edges[$0] }
        // Between syllables where it can; a word of none (a run of Thai vowels) between clusters.
        let syllables = clusters.filter { $0 == range.upperBound || !holdsTogether(scalars, at: $0) }
        let boundaries = syllables.count > 1 || clusters.count <= 1 ? syllables : clusters
        /// Whether a piece from `start` may end at `b` where a name or address parts (`parts`),
        /// after a soft hyphen whose hyphen fits, or after a compound's hyphen
        /// (`afterCompoundHyphen`): none of them a cut between letters.
        func isSeam(_ b: Int, from start: Int) -> Bool {
            b < range.upperBound
                && (Self.parts(scalars, at: b) || Self.afterCompoundHyphen(scalars, at: b)
                    || hyphens[b].map { pieceWidth(start, b, hyphen: $0) <= width } ?? false)
        }
        /// The index of the last boundary up to `fit` where a name or address parts (`parts`),
        /// if the piece from `start` to it fills half the line; or after a soft hyphen or a
        /// compound's hyphen (`afterCompoundHyphen`), if it does or the rest of the word fits
        /// after it. A file name in a sheet's caption was cut "settings_privacy_screen.x|ml",
        /// and a Hebrew word (whose soft hyphens UAX #14 gives no break, LB21a) "העירוני" | "ת",
        /// where "העי-" | "רונית" fit. Else `fit`.
        func seam(before fit: Int, from start: Int, in boundaries: [Int]) -> Int {
            var j = fit
            while j >= 0, boundaries[j] > start {
                let b = boundaries[j]
                let halfFilled = advances.width(start..<b) >= width / 2
                guard halfFilled || pieceWidth(b, range.upperBound, hyphen: endHyphen) <= width else { break }
                if b < range.upperBound {
                    if halfFilled, Self.parts(scalars, at: b) { return j }
                    if let hyphen = hyphens[b], pieceWidth(start, b, hyphen: hyphen) <= width { return j }
                    if Self.afterCompoundHyphen(scalars, at: b) { return j }
                }
                j -= 1
            }
            return fit
        }
        /// Whether a piece may end at `boundary` without parting punctuation from its word
        /// (`keepsPunctuation`), unless a name parts there.
        func keepsItsPunctuation(_ boundary: Int) -> Bool {
            boundary == range.upperBound || !keepsPunctuation(scalars, at: boundary) || parts(scalars, at: boundary)
        }
        /// How a cut of a piece from `start` at `b` reads: 0 where a name parts or after a hyphen
        /// (`isSeam`), 1 between letters, 2 inside a group of digits, 3 parting punctuation from
        /// its word.
        func flaw(_ b: Int, from start: Int) -> Int {
            isSeam(b, from: start) ? 0 : !keepsItsPunctuation(b) ? 3 : splitsDigits(scalars, at: b) ? 2 : 1
        }
        /// How many lines the word takes cut from `position` on (`split`), and how far its last
        /// piece's line reaches through the words after it (`reach`, given a piece's start). Only
        /// near the word's end: nil where more than four lines or 128 boundaries are left, or
        /// after 16 counts for one word (each splits the rest), so that the time stays linear.
        var counted: [Int: (lines: Int, reach: Int)] = [:]
        var countsLeft = 16
        func lines(from position: Int) -> (lines: Int, reach: Int)? {
            if let known = counted[position] { return known }
            guard countsLeft > 0, advances.width(position..<range.upperBound) <= 4 * width,
                boundaries.count - boundaries.partitionPoint({ $0 <= position }) <= 128
            else { return nil }
            countsLeft -= 1
            let rest = split(from: position)
            let count = (rest.count, reach?(rest[rest.count - 1].lowerBound) ?? range.upperBound)
            counted[position] = count
            return count
        }
        /// Whether cutting at `better` makes no more lines than at `greedy`: its last line
        /// reaching less far through the words after the word costs a line at most (those
        /// between the two reaches fit on one line).
        func noMoreLines(_ better: Int, than greedy: Int) -> Bool {
            guard let cut = lines(from: better), let other = lines(from: greedy) else { return false }
            return cut.lines + (cut.reach < other.reach ? 1 : 0) <= other.lines
        }
        /// The word cut from `first` on.
        func split(from first: Int) -> [Range<Int>] {
            var pieces: [Range<Int>] = []
            var start = first
            var lastFit: Int?  // the index of the last boundary the piece from `start` fits up to
            var lastKeepingFit: Int?  // the same, of those that keep punctuation with its word
            var lastWholeFit: Int?  // and of those that also keep groups of digits whole
            var k = boundaries.partitionPoint { $0 <= first }
            while k < boundaries.count {
                let boundary = boundaries[k]
                let hyphen = boundary < range.upperBound ? hyphens[boundary] ?? 0 : endHyphen
                if pieceWidth(start, boundary, hyphen: boundary < range.upperBound ? 0 : endHyphen) > width {
                    // The piece ends at the last boundary that fits and keeps punctuation with its
                    // word, else at the last that fits (a piece wider than its line went past its
                    // box), or holds one cluster at least;
                    // a boundary earlier when it would leave a soft hyphen alone at the end (a
                    // line of just "-"), if the piece keeps a cluster.
                    // (One that keeps it only when the piece fills half the line, or the rest of the
                    // word fits after it: an earlier one made more lines, "い | …… | 。".)
                    func worthIt(_ fit: Int?) -> Int? {
                        fit.flatMap { fit in
                            advances.width(start..<boundaries[fit]) >= width / 2
                                || pieceWidth(boundaries[fit], range.upperBound, hyphen: endHyphen) <= width ? fit : nil
                        }
                    }
                    var cut = (worthIt(lastWholeFit) ?? worthIt(lastKeepingFit) ?? lastFit).map {
                        seam(before: $0, from: start, in: boundaries)
                    } ?? k
                    // A cut that reads better, where it makes no more lines: "$1," | "299," |
                    // "999.99", not "$1,29" | "9,999." | "99", and ".support" | "@example", not
                    // ".support@exam" | "ple". Its piece holds two clusters (not "ت" | "@exam")
                    // and a letter or a digit (a phone number's "-" made a line of its own).
                    if cut < k, boundaries[cut] < range.upperBound,
                        let letter = scalars[start..<boundaries[cut]].firstIndex(where: isWordCharacter)
                    {
                        let greedy = flaw(boundaries[cut], from: start)
                        let second = boundaries.partitionPoint { $0 <= start } + 1  // the piece's second cluster's end
                        search: for better in 0..<greedy {
                            var j = cut - 1
                            while j >= second, boundaries[j] > letter {
                                if flaw(boundaries[j], from: start) == better {
                                    if noMoreLines(boundaries[j], than: boundaries[cut]) {
                                        cut = j
                                        break search
                                    }
                                    break
                                }
                                j -= 1
                            }
                        }
                    }
                    if boundaries[cut] == range.upperBound - 1, scalars[range.upperBound - 1] == "\u{AD}", cut > 0,
                        boundaries[cut - 1] > start
                    {
                        cut -= 1
                    }
                    // White space after the cut hangs at the end of the piece (" . PDF" began a line
                    // with a space, "Settings . PDF" cut before it: UAX #14 keeps "." with it, LB13).
                    while boundaries[cut] < range.upperBound, cut + 1 < boundaries.count, isWhiteSpace(scalars[boundaries[cut]]) {
                        cut += 1
                    }
                    guard boundaries[cut] < range.upperBound else { break }
                    pieces.append(start..<boundaries[cut])
                    start = boundaries[cut]
                    (lastFit, lastKeepingFit, lastWholeFit) = (nil, nil, nil)
                    k = cut + 1
                    continue
                }
                // A piece of nothing visible (the LRI an `<ltr>` starts with, alone) would be an
                // empty line: it goes with the cluster after it.
                if pieceWidth(start, boundary, hyphen: hyphen) <= width && advances.width(start..<boundary) > 0 {
                    lastFit = k
                    if keepsItsPunctuation(boundary) {
                        lastKeepingFit = k
                        if boundary == range.upperBound || !splitsDigits(scalars, at: boundary) { lastWholeFit = k }
                    }
                }
                k += 1
            }
            // A soft hyphen still alone (the piece before is one cluster), or with nothing but
            // bidi controls (the end of an `<rtl>` before it), stays with it, which shows the
            // hyphen a little wider than the line: a line of just "-" showed.
            if scalars[range.upperBound - 1] == "\u{AD}", advances.width(start..<range.upperBound) == 0,
                let last = pieces.popLast()
            {
                start = last.lowerBound
            }
            pieces.append(start..<range.upperBound)
            return pieces
        }
        return split(from: range.lowerBound)
    }
}
