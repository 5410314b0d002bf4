// Itemizing: a paragraph's text cut into items of one bidi level, script, style and font —
// the units HarfBuzz shapes.

/// One shapeable stretch of a paragraph.
struct TextItem {
    var scalarRange: Range<Int>
    var level: UInt8
    var script: Script
    /// Index into the paragraph's `ParagraphText.spans`.
    var spanIndex: Int
    var face: FontFace
    /// Set larger by the block's RTL balance (SPEC 4.3): Arabic or Hebrew text.
    var isBalanced = false
    var isRightToLeft: Bool { level & 1 == 1 }
}

enum Itemizer {
    /// Scripts per scalar, with Common and Inherited characters taking the script of the
    /// character before them, or after them at the start of the text (UAX #24 practice). A
    /// closing bracket takes the script of its opening one (UAX #24's use of
    /// Bidi_Paired_Bracket, as ICU and HarfBuzz do), and so does what follows it: in
    /// "حفظ (PDF)" both parentheses are Arabic, of one font and one size.
    ///
    /// A common character that only some scripts use (its Script_Extensions: the Arabic comma
    /// and question mark, the tatweel, the Devanagari danda, the ideographic full stop)
    /// takes one of them, when the character before it is of none: the next letter's script,
    /// else the latest one before it ("افتح Settings، ثم" and "هل تستخدم Android؟": the marks
    /// are Arabic, not Latin); where the text has none of them, its neighbour's as before.
    static func resolveScripts(_ scalars: [Unicode.Scalar]) -> [Script] {
        var scripts = scalars.map(\.script)
        var firstExplicit: Script?
        var last: Script?
        // The explicit scripts met so far, the latest last (a text has few): made when first
        // needed, then kept (kept from the start, it cost 6 thousand instructions a corpus
        // document, whose text changes script often and has no character that needs it).
        var recent: [Script]?
        var nextExplicit = 0  // at or after the character being resolved: the next explicit one, or the end
        let pairs = bracketPairs(scalars)
        var nextPair = 0  // the first pair not closed before `i` (pairs are in the order they close)
        for i in scripts.indices {
            if scripts[i].isExplicit {
                if recent != nil && recent?.last != scripts[i] { Self.remember(scripts[i], in: &recent) }
                last = scripts[i]
                if firstExplicit == nil { firstExplicit = scripts[i] }
                continue
            }
            // What follows a closing bracket takes the script before its opening one (which
            // that one took, if it took one).
            while nextPair < pairs.count && pairs[nextPair].close < i { nextPair += 1 }
            if nextPair < pairs.count && pairs[nextPair].close == i, scripts[pairs[nextPair].open].isExplicit {
                last = scripts[pairs[nextPair].open]
            }
            // (None below U+0342: ASCII and Latin-1, most common characters, pass at once.)
            if scripts[i] == .common, scalars[i].value >= 0x342, Tables.scriptExtensions[scalars[i].value] != 0,
                case let extensions = scalars[i].scriptExtensions,
                !(last.map(extensions.contains) ?? false)
            {
                if nextExplicit <= i {
                    nextExplicit = i + 1
                    while nextExplicit < scalars.count && !scripts[nextExplicit].isExplicit { nextExplicit += 1 }
                }
                let next = nextExplicit < scalars.count ? scripts[nextExplicit] : nil
                // A space takes only the next letter's, and only right before it: the narrow
                // no-break space, Latin's and Mongolian's, joins a Mongolian suffix, but between a
                // number's groups ("1 000 GB" in Hebrew after a Latin word) it cut the number in
                // two scripts, looking back to the word or past the digits.
                let space = scalars[i].isWhiteSpace
                var chosen = next.flatMap { extensions.contains($0) && (!space || nextExplicit == i + 1) ? $0 : nil }
                if chosen == nil && !space {
                    if recent == nil {
                        recent = []
                        for j in 0..<i where scalars[j].script.isExplicit && recent?.last != scalars[j].script {
                            Self.remember(scalars[j].script, in: &recent)
                        }
                    }
                    chosen = recent?.last(where: extensions.contains)
                }
                if let chosen {
                    scripts[i] = chosen
                    last = chosen
                    continue
                }
            }
            if let last {
                scripts[i] = last
            } else if scripts[i] == .inherited && i > 0 {
                // Before any letter: a mark, VS16, ZWJ or keycap takes its base's script, so
                // that an emoji sequence (❤️, 1️⃣, 👨‍👩‍👧) is not cut where Inherited meets Common.
                scripts[i] = scripts[i - 1]
            }
        }
        // Leading neutral characters take the first explicit script.
        if let firstExplicit {
            for i in scripts.indices {
                if scalars[i].script.isExplicit { break }
                // (One of some scripts only, not the first letter's, took one of its own.)
                if scripts[i].isExplicit && scripts[i] != firstExplicit { continue }
                scripts[i] = firstExplicit
            }
        }
        for pair in pairs { scripts[pair.close] = scripts[pair.open] }
        return scripts
    }

    /// `script` as the latest of `recent`, the explicit scripts met (`resolveScripts`).
    private static func remember(_ script: Script, in recent: inout [Script]?) {
        recent?.removeAll { $0 == script }
        recent?.append(script)
    }

    /// The bracket pairs of `scalars` (UAX #9 BD16, on the brackets of bidi class ON), in the
    /// order they close.
    static func bracketPairs(_ scalars: [Unicode.Scalar]) -> [(open: Int, close: Int)] {
        var openers: [(closing: UInt32, index: Int)] = []
        var pairs: [(open: Int, close: Int)] = []
        for i in scalars.indices {
            // Brackets are ( ) [ ] { } below U+0F3A (Tibetan's are the next): text of other
            // letters passes without a lookup.
            let value = scalars[i].value
            if value < 0x0F3A && value != 0x28 && value != 0x29 && value != 0x5B && value != 0x5D && value != 0x7B
                && value != 0x7D
            {
                continue
            }
            guard scalars[i].bidiClass == .ON, let bracket = Tables.brackets[value] else { continue }
            if bracket.opening {
                if openers.count < BidiResolver.maxBracketDepth {
                    openers.append((Tables.openingBrackets[bracket.canonical] ?? 0, i))
                }
            } else if let match = openers.lastIndex(where: { $0.closing == bracket.canonical }) {
                pairs.append((openers[match].index, i))
                openers.removeSubrange(match...)
            }
        }
        return pairs
    }

    /// The quotation mark pairs of `scalars`, in the order they close: « and », ‹ and ›, the
    /// curly double quotes (“ ” „, in any of the orders languages use) and the straight ", each
    /// mark closing the nearest open one of its kind. (Single quotes are left out: ’ is also
    /// an apostrophe.)
    static func quotePairs(_ scalars: [Unicode.Scalar]) -> [(open: Int, close: Int)] {
        func kind(_ scalar: Unicode.Scalar) -> Int? {
            switch scalar {
            case "\u{AB}", "\u{BB}": 1
            case "\u{2039}", "\u{203A}": 2
            case "\u{201C}", "\u{201D}", "\u{201E}": 3
            case "\"": 4
            default: nil
            }
        }
        var open: [(kind: Int, index: Int)] = []
        var pairs: [(open: Int, close: Int)] = []
        for i in scalars.indices {
            guard let kind = kind(scalars[i]) else { continue }
            if let match = open.lastIndex(where: { $0.kind == kind }) {
                pairs.append((open[match].index, i))
                open.removeSubrange(match...)
            } else if open.count < BidiResolver.maxBracketDepth {
                open.append((kind, i))
            }
        }
        return pairs
    }

    /// Which characters RTL balancing sets larger (SPEC 4.3): those of Arabic and Hebrew script,
    /// except in a word of Latin letters or digits without an Arabic or Hebrew letter: the digits
    /// and signs of "5G" or "+PRO" take that script from the Arabic before them, and one word is
    /// not set in two sizes. A number is not balanced, in whichever digits it is typed or shown
    /// (0-9, ٠-٩, ۰-۹): "2.5 GB" and "10:30 AM" after Hebrew had their numbers 2 pt larger than
    /// their units, and under `numerals="arab"` a typed ٢٫٥ was 2 pt larger than a 2.5 shown as
    /// the same ٢٫٥. Its signs (٪ ٫) go with it. Words end at white space, and at a hyphen or
    /// maqaf after a letter or digit: Hebrew's "ב-10:30" is a prefix and a time, while the minus
    /// of "-5", "(-5)" or "-PRO" begins its word; a hyphen that is neither (the dash of
    /// "10 - 20") stands between words. A pair of brackets or quotation marks takes the size of
    /// what it encloses: larger around an Arabic or Hebrew letter, else the size of the Latin
    /// letters or digits inside (the brackets of "تنزيل (PDF)" were 2 pt larger than "PDF", the
    /// « of "NEW «جديد»" smaller than its »); one around neither keeps its script's size.
    /// A currency or percent sign that is a word of its own (with punctuation and bidi marks),
    /// next to a number with only spaces between, takes the number's size ("49.90 ₪,", "€ 20",
    /// "50 %", "٥٠ ٪" and the ALM a number formatter writes after it).
    static func balancedScalars(_ scalars: [Unicode.Scalar], scripts: [Script]) -> [Bool] {
        func isHyphen(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "-" || scalar == "\u{05BE}" || scalar == "\u{2010}" || scalar == "\u{2011}"
        }
        // The character before or after `index`, past the bidi controls `<ltr>` and the like add.
        func isLetterOrDigit(from index: Int, by step: Int) -> Bool {
            var at = index + step
            while at >= 0, at < scalars.count, isHiddenControl(scalars[at]) { at += step }
            return at >= 0 && at < scalars.count && (scalars[at].isAlphabetic || NumberingSystem.isDigit(scalars[at]))
        }
        // White space, or a hyphen that does not begin a word: one after a letter or digit, or
        // one before none.
        func endsWord(_ index: Int) -> Bool {
            if scalars[index].isWhiteSpace { return true }
            guard isHyphen(scalars[index]) else { return false }
            return isLetterOrDigit(from: index, by: -1) || !isLetterOrDigit(from: index, by: 1)
        }
        // A currency or percent sign, or several, standing as a word of their own.
        func isSign(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "%", "\u{066A}", "\u{2030}", "\u{2031}", "\u{0609}", "\u{060A}": true
            default: scalar.generalCategory == .Sc
            }
        }
        func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.generalCategory {
            case .Pc, .Pd, .Ps, .Pe, .Pi, .Pf, .Po: true
            default: false
            }
        }
        // Punctuation that stands between words alone; brackets and quotation marks go with
        // what they enclose (below).
        func isSeparating(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.generalCategory {
            case .Pc, .Pd, .Po, .Sm: !scalar.properties.isQuotationMark
            default: false
            }
        }
        var balanced = scripts.map { $0 == .arabic || $0 == .hebrew }
        var separators = Set<Int>()  // where the words of such punctuation alone begin
        var start = 0
        func spaced(_ gap: Range<Int>) -> Bool { scalars[gap].allSatisfy(\.isWhiteSpace) }
        var lastNumber: Range<Int>?  // the word before, when it is one of digits not balanced
        var signs: Range<Int>?  // the last word of signs alone, while no word has come after it
        while start < scalars.count {
            if endsWord(start) {
                start += 1
                continue
            }
            var end = start
            var latin = false  // a Latin letter or a digit
            var rightToLeft = false  // an Arabic or Hebrew letter
            var digit = false
            var sign = false
            var onlySigns = true  // signs, punctuation and bidi marks: "₪,", "(€", "٪" and an ALM
            var separator = true  // dashes, other punctuation, math signs: "—", "|", "·", "/"
            while end < scalars.count, !endsWord(end) {
                let own = scalars[end].script
                let isDigit = NumberingSystem.isDigit(scalars[end])
                digit = digit || isDigit
                latin = latin || own == .latin || isDigit
                rightToLeft = rightToLeft || (own == .arabic || own == .hebrew) && scalars[end].isAlphabetic
                let signHere = isSign(scalars[end])
                sign = sign || signHere
                onlySigns = onlySigns && (signHere || isPunctuation(scalars[end]) || ParagraphLayouter.isBidiControlOrMark(scalars[end]))
                separator = separator && !signHere && (isSeparating(scalars[end]) || ParagraphLayouter.isBidiControlOrMark(scalars[end]))
                end += 1
            }
            if separator { separators.insert(start) }
            // A sign apart from its number by spaces takes the number's size, as one that
            // touches it does: "49.90 ₪" (CLDR's Hebrew amount) had its shekel sign 2 pt
            // larger than its price, so did "€ 20" and "50 %".
            if latin && !rightToLeft {
                for i in start..<end where Tables.brackets[scalars[i].value] == nil { balanced[i] = false }
                if digit {
                    if let before = signs, spaced(before.upperBound..<start) { for i in before { balanced[i] = false } }
                    lastNumber = start..<end
                }
                signs = nil
            } else if onlySigns && sign {
                if let number = lastNumber, spaced(number.upperBound..<start) { for i in start..<end { balanced[i] = false } }
                signs = start..<end
                lastNumber = nil
            } else {
                signs = nil
                lastNumber = nil
            }
            start = end
        }
        let pairs = bracketPairs(scalars) + quotePairs(scalars)
        if !pairs.isEmpty {
            // Letters and digits before each offset, and those of them balanced: what a pair
            // encloses is a subtraction (nested pairs each scanning theirs was quadratic).
            var letters = [Int](repeating: 0, count: scalars.count + 1)
            var larger = [Int](repeating: 0, count: scalars.count + 1)
            for i in scalars.indices {
                let isText = scalars[i].isAlphabetic || NumberingSystem.isDigit(scalars[i])
                letters[i + 1] = letters[i] + (isText ? 1 : 0)
                larger[i + 1] = larger[i] + (isText && balanced[i] ? 1 : 0)
            }
            for pair in pairs where letters[pair.close] > letters[pair.open + 1] {
                let enclosesBalanced = larger[pair.close] > larger[pair.open + 1]
                (balanced[pair.open], balanced[pair.close]) = (enclosesBalanced, enclosesBalanced)
            }
        }
        // What stands between two words (spaces, a hyphen apart from both, and words of
        // punctuation alone, as the dashes of "تنزيل — DOWNLOAD — تنزيل") is balanced between two
        // balanced words only, or at the text's start or end beside one, on its line: by their
        // scripts, which such characters take from the text before them, the first dash there
        // was 2 pt larger than the second; and one balanced beside a balanced word on either
        // side made a line of Latin alone 19 pt tall when it ended the line
        // ("DOWNLOAD —<br/>تنزيل"), as one between "2.5" and "GB" made the line of "٢٫٥ GB". A
        // hyphen that ends a word goes with it, balanced beside a balanced word: the prefix of
        // Hebrew's "ב-10:30" or "ה-USB".
        func isHardBreak(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.lineBreakClass {
            case .BK, .CR, .LF, .NL: true
            default: false
            }
        }
        func isGlued(_ index: Int) -> Bool { isHyphen(scalars[index]) && isLetterOrDigit(from: index, by: -1) }
        var index = 0
        while index < scalars.count {
            if endsWord(index) && isGlued(index) {
                let beside = (index > 0 && balanced[index - 1]) || (index + 1 < scalars.count && balanced[index + 1])
                balanced[index] = balanced[index] && beside
                index += 1
                continue
            }
            var end = index
            while end < scalars.count {
                if endsWord(end) && !isGlued(end) {
                    end += 1
                } else if separators.contains(end) {
                    while end < scalars.count, !endsWord(end) { end += 1 }
                } else {
                    break
                }
            }
            guard end > index else {
                index += 1
                continue
            }
            let before = index > 0 ? balanced[index - 1] : nil
            let after = end < scalars.count ? balanced[end] : nil
            let between: Bool
            if let before, let after {
                between = before && after
            } else {
                // At the text's start or end: not alone on a line of its own.
                between = (before ?? after ?? false) && !scalars[index..<end].contains(where: isHardBreak)
            }
            for i in index..<end { balanced[i] = between }
            index = end
        }
        // And punctuation between the letters of a word, as a dash between Arabic and Latin
        // with no space ("تنزيل—DOWNLOAD—تنزيل" had dashes of 19 and 17 pt), the same way.
        index = 0
        while index < scalars.count {
            guard isSeparating(scalars[index]) && !isSign(scalars[index]) && !endsWord(index) && isLetterOrDigit(from: index, by: -1)
            else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, !endsWord(end),
                isSeparating(scalars[end]) && !isSign(scalars[end]) || isHiddenControl(scalars[end])
            {
                end += 1
            }
            var before = index - 1
            while isHiddenControl(scalars[before]) { before -= 1 }  // (a letter or digit is there)
            if end < scalars.count, scalars[end].isAlphabetic || NumberingSystem.isDigit(scalars[end]) {
                let between = balanced[before] && balanced[end]
                for i in index..<end { balanced[i] = between }
            }
            index = end
        }
        return balanced
    }

    /// Cuts `text` at every change of bidi level, script, style and font, and around bidi
    /// controls. Spans that differ in color alone are not cut apart: a red letter inside an
    /// Arabic word keeps its ligature (lam-alef is obligatory) and its kerning, as in Pango; the
    /// lines cut such an item where its colors change (`ParagraphLayouter.colorPieces`), and
    /// its `spanIndex` is the first span of its group of spans (its font, size and language).
    /// Nor are spans whose text gets the same face (`shapesAlikeInOneFace`): "إل<b>ا</b>ء" in a
    /// button, whose semibold is the bold face too, or an Arabic word in `<i>`, which its font
    /// does not have, kept their lam-alef apart, and "A<span weight="medium">V</span>" lost
    /// its kerning, for nothing drawn otherwise. A letter with its marks (a grapheme cluster)
    /// is one item, in the style of its letter but the marks' colors: a bold shin's dot,
    /// shaped without it in the regular face, stood off the letter (sin's place).
    /// `balancing`: also where Arabic or Hebrew text (SPEC 4.3) begins or ends. That is the
    /// script of the text, not of the digits it shows: `numerals` makes "SALE 50" show
    /// Arabic-Indic digits, of the Arabic script (for their font), but they stay the size that
    /// Latin digits have.
    static func items(
        text: ParagraphText, displayScalars: [Unicode.Scalar], levels: [UInt8], fonts: FontDatabase,
        balancing: Bool = false, missing: inout [Int]
    ) -> [TextItem] {
        let scripts = resolveScripts(displayScalars)
        let balanced = balancing
            ? balancedScalars(text.scalars, scripts: displayScalars == text.scalars ? scripts : resolveScripts(text.scalars))
            : nil
        var items: [TextItem] = []
        // Where the grapheme clusters end, found only where a span ends inside one.
        var clusterBounds: [Int]?
        func clusterEnd(from offset: Int) -> Int {
            guard offset > 0, offset < displayScalars.count,
                GraphemeBreaker.isBoundary(between: displayScalars[offset - 1], and: displayScalars[offset]) != true
            else { return offset }
            if clusterBounds == nil { clusterBounds = GraphemeBreaker.boundaries(in: displayScalars) }
            let bounds = clusterBounds!
            return bounds[bounds.partitionPoint { $0 < offset }]
        }
        var done = 0  // the text before is in items
        var spanIndex = 0
        while spanIndex < text.spans.count {
            let span = text.spans[spanIndex]
            var last = spanIndex
            while last + 1 < text.spans.count && shapesAlike(text.spans[last + 1].style, span.style) { last += 1 }
            defer { spanIndex = last + 1 }
            let spanEnd = clusterEnd(from: text.spans[last].scalarRange.upperBound)
            var start = max(span.scalarRange.lowerBound, done)
            done = max(done, spanEnd)
            while start < spanEnd {
                // A bidi control (from <ltr>, <rtl>, <bdi> or the text) is an item by itself: it
                // is never shown, and the words beside it then end their runs, so that the
                // word cache can take them (see WordCache.swift).
                var end = start + 1
                while end < spanEnd && levels[end] == levels[start]
                    && scripts[end] == scripts[start] && balanced?[end] == balanced?[start]
                    && !isHiddenControl(displayScalars[end])
                    && !isHiddenControl(displayScalars[start])
                {
                    end += 1
                }
                let style = span.style
                for run in fonts.itemize(
                    scalars: displayScalars, range: start..<end, families: style.families,
                    weight: style.weight, italic: style.italic, script: scripts[start])
                {
                    let item = TextItem(
                        scalarRange: run.range, level: levels[start], script: scripts[start],
                        spanIndex: spanIndex, face: run.face, isBalanced: balanced?[start] ?? false)
                    missing.append(contentsOf: run.missing)
                    if let before = items.last, before.scalarRange.upperBound == item.scalarRange.lowerBound,
                        before.spanIndex != item.spanIndex, before.face == item.face, before.level == item.level,
                        before.script == item.script, before.isBalanced == item.isBalanced,
                        !isHiddenControl(displayScalars[before.scalarRange.lowerBound]),
                        !isHiddenControl(displayScalars[item.scalarRange.lowerBound]),
                        shapesAlikeInOneFace(text.spans[before.spanIndex].style, span.style)
                    {
                        items[items.count - 1].scalarRange = before.scalarRange.lowerBound..<item.scalarRange.upperBound
                    } else {
                        items.append(item)
                    }
                }
                start = end
            }
        }
        return items
    }

    /// Whether text in these styles is shaped alike: they differ in color alone.
    static func shapesAlike(_ a: TextStyle, _ b: TextStyle) -> Bool {
        var b = b
        b.color = a.color
        return a == b
    }

    /// Whether text in these styles is shaped alike where it gets the same face: they differ
    /// at most in color and in what chooses the face (families, weight, italic).
    static func shapesAlikeInOneFace(_ a: TextStyle, _ b: TextStyle) -> Bool {
        var b = b
        b.color = a.color
        b.families = a.families
        b.weight = a.weight
        b.italic = a.italic
        return a == b
    }
}
