// HIG §4.5 numerals (SPEC 4.5): the digits, separators and percent signs a paragraph shows in
// its spans' numbering systems. Only what is shown changes; bidi reads the digits as written,
// but for those shown as 0-9 (`bidiScalars`).

extension ParagraphLayouter {
    /// The characters around `index` up to white space, no-break spaces included ("15\u{A0}km"
    /// is a number and a unit, as "15 km" is), or a line or paragraph separator.
    static func word(around index: Int, in scalars: [Unicode.Scalar]) -> Range<Int> {
        func separates(_ scalar: Unicode.Scalar) -> Bool {
            let bidi = scalar.bidiClass
            return bidi == .WS || bidi == .B || bidi == .S || scalar.generalCategory == .Zs || scalar == "\u{2028}"
        }
        var start = index
        while start > 0 && !separates(scalars[start - 1]) { start -= 1 }
        var end = index + 1
        while end < scalars.count && !separates(scalars[end]) { end += 1 }
        return start..<end
    }

    /// The characters shown for `text`: its digits in the numbering system of their span, and
    /// the separators and percent signs of those numbers in the system's own symbols (SPEC 4.5);
    /// as written in a span without one. `latn` shows ٢٠٢٦ and ١٬٢٩٩ as 2026 and 1,299.
    /// Only what is shown changes; bidi resolution reads the digits as written, so that numbers
    /// order the same whatever digits they show, but for those shown as 0-9 (`bidiScalars`).
    ///
    /// A keycap's digit (1️⃣: VS16 or U+20E3 after it) is an emoji's, not a number's: kept, as
    /// the emoji font has no other. So are the digits of a word with a left-to-right letter in
    /// it, which are part of a name or a code, not a number (MP3, COVID-19, x86_64, A1B2-C3, a
    /// URL): they read as "MP٣" and were copied so. And, in right-to-left text, or text of a
    /// language whose own digits are not 0-9 (Bengali, Marathi, Burmese), shown in digits
    /// other than 0-9, the number of a name: one right after a word with a capital Latin
    /// letter, only spaces between (a product's or a version's: iPhone 15, iOS 17.2, Wi-Fi 6;
    /// "اشترِ iPhone 15 Pro" showed "iPhone ١٥ Pro"). A unit is no name ("15 km 16 km" is
    /// two distances), nor a currency code ("SAR 25.00"), and in text of a left-to-right language `numerals` is asked for
    /// ("Total 42"), and applies.
    static func displayScalars(_ text: ParagraphText) -> [Unicode.Scalar] {
        var display = text.scalars
        var shown: [NumberingSystem?] = []  // by scalar, once a digit is substituted
        var word = 0..<0  // the word (between white space) of the last digit looked at
        // Whether its digits are a name's or a code's, kept as typed: a word with a Latin
        // letter, a code's group, a call's argument, a tag.
        var wordIsACode = false
        var wordIsNamesNumber = false
        // By a word's start, once asked: what a series' next number or a call's next argument
        // takes from the one before (looked back through each again, a long series was
        // quadratic; cut off after a few, it switched digits partway).
        var namesNumbers: [Int: Bool] = [:]
        var callArguments: [Int: Bool] = [:]
        // Names' numbers kept, and numbers shown after a lower-case Latin word (`Prose`).
        var prose = Prose()
        for span in text.spans {
            guard let system = span.style.digits else { continue }
            // In text whose own digits are not 0-9 (Arabic, Hebrew, or Bengali's, Marathi's,
            // Burmese's: "আপনার iPhone ১৫" was shown), not in English asked for other digits.
            let language = span.style.language
            let keepsLatinNames =
                system != .latn
                && (Language.isRightToLeft(language: language) || Language.defaultNumberingSystem(locale: language) != .latn)
            for i in span.scalarRange {
                guard let digit = system.substitute(display[i]) else { continue }
                let next = i + 1 < display.count ? display[i + 1].value : 0
                if next == 0xFE0F || next == 0x20E3 { continue }
                if !word.contains(i) {
                    word = ParagraphLayouter.word(around: i, in: text.scalars)
                    wordIsACode = text.scalars[word].contains { $0.bidiClass == .L && $0.isAlphabetic }
                        || continuesACode(word, in: text.scalars)
                        || isInACallsBrackets(word, in: text.scalars, known: &callArguments)
                        || isATag(text.scalars[word])
                    wordIsNamesNumber = keepsLatinNames && !wordIsACode
                        && followsAName(word, in: text.scalars, known: &namesNumbers)
                    // (One whose digits are all in this span: another span's digits are its own.)
                    if wordIsNamesNumber, span.scalarRange.contains(word.lowerBound), word.upperBound <= span.scalarRange.upperBound {
                        prose.names.append((word, system))
                    } else if !wordIsACode, followsLowerCaseWord(word, in: text.scalars) {
                        prose.counts.insert(Prose.Count(offset: word.lowerBound, system: system))
                    }
                }
                if wordIsACode || wordIsNamesNumber { continue }
                display[i] = digit
                if shown.isEmpty { shown = Array(repeating: nil, count: display.count) }
                shown[i] = system
            }
        }
        for (word, system) in prose.namesInPhrases(text.scalars) {
            for i in word {
                guard let digit = system.substitute(display[i]) else { continue }
                display[i] = digit
                if shown.isEmpty { shown = Array(repeating: nil, count: display.count) }
                shown[i] = system
            }
        }
        if !shown.isEmpty { substituteNumberSymbols(&display, text.scalars, shown) }
        return display
    }

    /// An English phrase's numbers among right-to-left text: "Step 3 of 5", "Page 2 of 10" (an
    /// untranslated string) showed "Step 3 of ٥", the first number kept as a name's (iPhone 15)
    /// and the second shown as a count. A name's number followed by one lower-case Latin word
    /// and a number shown (as a count) in the same digits is shown in them too; not one farther
    /// away ("iPhone 15 Pro Max with 256 GB" keeps its 15).
    private struct Prose {
        struct Count: Hashable {
            let offset: Int
            let system: NumberingSystem
        }
        var names: [(word: Range<Int>, system: NumberingSystem)] = []
        var counts: Set<Count> = []

        /// The names' numbers that are a phrase's, with the digits they take.
        func namesInPhrases(_ scalars: [Unicode.Scalar]) -> [(word: Range<Int>, system: NumberingSystem)] {
            guard !counts.isEmpty else { return [] }
            func isSpace(_ at: Int) -> Bool { at < scalars.count && isSpaceBetweenWords(scalars[at]) }
            return names.filter { name in
                // One space, a lower-case word ("of"), one space, and the count.
                var at = name.word.upperBound
                guard isSpace(at), at + 1 < scalars.count else { return false }
                let between = ParagraphLayouter.word(around: at + 1, in: scalars)
                guard between.lowerBound == at + 1,
                    scalars[between].allSatisfy({ $0.script == .latin && $0.generalCategory == .Ll })
                else { return false }
                at = between.upperBound
                return isSpace(at) && counts.contains(Count(offset: at + 1, system: name.system))
            }
        }
    }

    /// Whether the word before `word`, spaces between, is of lower-case Latin letters alone:
    /// a sentence's word ("of 5", "with 2"), not a name's.
    private static func followsLowerCaseWord(_ word: Range<Int>, in scalars: [Unicode.Scalar]) -> Bool {
        var end = word.lowerBound
        while end > 0, isSpaceBetweenWords(scalars[end - 1]) { end -= 1 }
        guard end > 0, end < word.lowerBound else { return false }
        let before = ParagraphLayouter.word(around: end - 1, in: scalars)
        let letters = scalars[before].filter { !$0.isDefaultIgnorable }
        return !letters.isEmpty && letters.allSatisfy { $0.script == .latin && $0.generalCategory == .Ll }
    }

    /// Whether `word` is a group of digits in a code written in groups of capitals and digits,
    /// after its first with both, and three groups or more: an IBAN, "SA03 8000 0000 6080 1016
    /// 7519", "GB29 NWBK 6016 1331 9268 19". Its first group kept 0-9 as a word with a letter,
    /// and its others showed ٨٠٠٠ ٠٠٠٠; all are shown as written. (Ten groups each way are
    /// looked at, an IBAN's most: a megabyte of "1 1 1 …" is not looked through for each.)
    private static func continuesACode(_ word: Range<Int>, in scalars: [Unicode.Scalar]) -> Bool {
        /// Whether `word` holds capitals and digits alone, and which, past an opening bracket or
        /// quotation mark before them and punctuation after them ("(SA03", "7519،").
        func group(_ word: Range<Int>) -> (letters: Bool, digits: Bool)? {
            var letters = false
            var digits = false
            var characters = scalars[word].filter { !$0.isDefaultIgnorable }[...]
            while let first = characters.first, [.Ps, .Pi].contains(first.generalCategory) { characters.removeFirst() }
            while let last = characters.last, [.Pe, .Pf, .Po].contains(last.generalCategory) { characters.removeLast() }
            for scalar in characters {
                switch scalar.value {
                case 0x41...0x5A: letters = true
                case 0x30...0x39: digits = true
                default: return nil
                }
            }
            return letters || digits ? (letters, digits) : nil
        }
        func isSpace(_ at: Int) -> Bool { at >= 0 && at < scalars.count && isSpaceBetweenWords(scalars[at]) }
        guard let own = group(word), !own.letters else { return false }
        // The groups one space apart before `word`, nearest first, and after it.
        var before: [(letters: Bool, digits: Bool)] = []
        var edge = word
        while before.count < 10, isSpace(edge.lowerBound - 1), edge.lowerBound >= 2 {
            let previous = ParagraphLayouter.word(around: edge.lowerBound - 2, in: scalars)
            guard previous.upperBound == edge.lowerBound - 1, let kind = group(previous) else { break }
            before.append(kind)
            edge = previous
        }
        var after = 0
        edge = word
        while after < 10, isSpace(edge.upperBound), edge.upperBound + 1 < scalars.count {
            let next = ParagraphLayouter.word(around: edge.upperBound + 1, in: scalars)
            guard next.lowerBound == edge.upperBound + 1, group(next) != nil else { break }
            after += 1
            edge = next
        }
        // The code's first group: the farthest back with letters and digits.
        guard let first = before.lastIndex(where: { $0.letters && $0.digits }) else { return false }
        return first + 1 + after >= 2
    }

    /// Whether `word` is a hashtag or a mention with letters in it ("#عروض_2025", "@متجر24"): a
    /// name, kept as typed ("#عروض_٢٠٢٥" is another tag). Not an order number, "#12345".
    private static func isATag(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        let first = word.first { !$0.isDefaultIgnorable && ![.Ps, .Pi].contains($0.generalCategory) }
        return (first == "#" || first == "@") && word.contains { $0.isAlphabetic }
    }

    /// Whether `word` stands in the brackets of a call written in Latin letters, digits, spaces
    /// and separators alone between: "rgb(255, 87, 51)", "rgba(0, 122, 255, 0.5)". Its first
    /// number kept 0-9 as part of a word with a letter ("rgb(255,"), and the others showed
    /// "٨٧, ٥١", one code in two kinds of digits. The answer for a word asked before (`known`,
    /// by its start) is the answer for what follows it: the look back ends there.
    private static func isInACallsBrackets(
        _ word: Range<Int>, in scalars: [Unicode.Scalar], known: inout [Int: Bool]
    ) -> Bool {
        var at = word.lowerBound
        var answer = false
        look: while at > 0, word.lowerBound - at < 4096 {
            at -= 1
            if let before = known[at] {
                answer = before
                break
            }
            let scalar = scalars[at]
            if scalar == "(" {
                answer = at > 0 && scalars[at - 1].script == .latin && scalars[at - 1].isAlphabetic
                break
            }
            switch scalar {
            case ",", ".", " ", "-", "%": continue
            default: guard NumberingSystem.isDigit(scalar) else { break look }
            }
        }
        known[word.lowerBound] = answer
        return answer
    }

    /// The characters bidi resolution reads (UAX #9): `scalars` as written, but for digits and
    /// number signs shown as European ones (`latn` showing typed ١٠-٢٠ as 10-20), which order
    /// as the European number they read as. Ordered as the Arabic-Indic digits (AN) they were,
    /// the hyphen between two numbers took the right-to-left side (UAX #9 N1), and left-to-right
    /// text read "20-10". Digits shown in another system keep the order of what was typed
    /// (SPEC 4.5); `display` is `displayScalars(_:)`. A "%" shown as the Arabic percent sign
    /// beside Arabic-Indic digits reads as a neutral (ON), as CLDR's Arabic percent sign does with
    /// the ALM it writes after it, and a typed ٦٥٪ does (its digits AN): in right-to-left text it
    /// stands on the number's left, where a typed ٦٥٪ has it (a lone label's "65%" showed ٦٥٪
    /// with the sign on the right, joined to the number as UAX #9 W5 joins it to 65). Not
    /// after left-to-right text (`LeftToRightContext`), where the number is left to right
    /// (W7) and its sign with it, as typed: as a neutral between the number and the
    /// right-to-left side, "total 65%" showed "٪total ٦٥" and an LRM's "‎-3.5%" "٪-٣٫٥".
    static func bidiScalars(_ scalars: [Unicode.Scalar], display: [Unicode.Scalar]) -> [Unicode.Scalar] {
        // The same array when nothing was substituted: compared without reading it.
        guard display != scalars else { return scalars }
        func isArabicIndicDigit(_ at: Int, by step: Int) -> Bool {
            var at = at + step
            while at >= 0, at < display.count, isBidiControlOrMark(display[at]) { at += step }
            return at >= 0 && at < display.count && (0x0660...0x0669).contains(display[at].value)
        }
        var read = scalars
        var leftToRight = LeftToRightContext()
        for i in scalars.indices {
            defer { leftToRight.pass(scalars[i]) }
            guard display[i] != scalars[i] else { continue }
            if display[i].isASCII {
                read[i] = display[i]
            } else if display[i] == "\u{066A}", scalars[i] == "%", isArabicIndicDigit(i, by: -1) || isArabicIndicDigit(i, by: 1),
                !leftToRight.isLeftToRight
            {
                read[i] = "*"  // ON, and no bracket
            }
        }
        return read
    }

    /// Whether the last strong character passed is left to right, the type a European number
    /// after it takes (UAX #9 W7): an isolate passed is a neutral to the text around it, and an
    /// isolate or embedding begun answers by its direction until a strong character in it, as
    /// an embedding ended does after it ("total" in an LRE, then "65%"). Not left to right at the
    /// start, or after a paragraph's end.
    private struct LeftToRightContext {
        private(set) var isLeftToRight = false
        private var outside: [Bool] = []  // around each open isolate
        private var embeddings: [Bool] = []  // each open embedding's or override's direction

        mutating func pass(_ scalar: Unicode.Scalar) {
            switch scalar.bidiClass {
            case .L: isLeftToRight = true
            case .R, .AL: isLeftToRight = false
            case .LRE, .LRO, .RLE, .RLO:
                let leftToRight = scalar.bidiClass == .LRE || scalar.bidiClass == .LRO
                embeddings.append(leftToRight)
                isLeftToRight = leftToRight
            // The text after an embedding starts from the higher level (X10), the embedding's.
            case .PDF: if let closed = embeddings.popLast() { isLeftToRight = closed }
            case .LRI, .RLI, .FSI:
                outside.append(isLeftToRight)
                isLeftToRight = scalar.bidiClass == .LRI
            case .PDI: if let around = outside.popLast() { isLeftToRight = around }
            case .B:
                outside.removeAll()
                embeddings.removeAll()
                isLeftToRight = false
            default: break
            }
        }
    }

    /// Whether the word before `word`, only spaces between (no-break ones too), has a capital
    /// Latin letter and ends in a letter or digit: a name whose number `word` is (iPhone 15).
    /// Not a percentage ("Battery 65%"), nor a number in groups, a phone number's: a word that
    /// begins, past bidi controls and marks (`<ltr>15</ltr>` is one), otherwise than with a
    /// digit, or one followed by another that begins with a digit, no comma between ("Apple
    /// Support +1 (800) 555-0199", or "800 555 0199", showed "+1 (٨٠٠) ٥٥٥-٠١٩٩", "800 ٥٥٥
    /// ٠١٩٩", the first group kept as a name's number). Or a number of a series after one.
    private static func followsAName(
        _ word: Range<Int>, in scalars: [Unicode.Scalar], known: inout [Int: Bool], depth: Int = 0
    ) -> Bool {
        if let answer = known[word.lowerBound] { return answer }
        let answer = isNamesNumber(word, in: scalars, known: &known, depth: depth)
        known[word.lowerBound] = answer
        return answer
    }

    /// `followsAName`, not asked before.
    private static func isNamesNumber(
        _ word: Range<Int>, in scalars: [Unicode.Scalar], known: inout [Int: Bool], depth: Int
    ) -> Bool {
        guard let first = scalars[word].first(where: { !$0.isDefaultIgnorable }), NumberingSystem.isDigit(first) else {
            return false
        }
        // A percentage is an amount, not a name's number: "Battery 65%" showed 65% beside "١ min".
        func isPercent(_ scalar: Unicode.Scalar) -> Bool { scalar == "%" || scalar == "\u{066A}" || scalar == "\u{2030}" }
        if scalars[word].contains(where: isPercent) { return false }
        var next = word.upperBound
        while next < scalars.count, isSpaceBetweenWords(scalars[next]) || scalars[next].isDefaultIgnorable { next += 1 }
        if next < scalars.count, isPercent(scalars[next]) { return false }
        func endsInAComma(_ word: Range<Int>) -> Bool {
            scalars[word].last(where: { !$0.isDefaultIgnorable }).map { $0 == "," || $0 == "\u{060C}" } ?? false
        }
        if next > word.upperBound, next < scalars.count, NumberingSystem.isDigit(scalars[next]), !endsInAComma(word) {
            return false
        }
        var end = word.lowerBound
        while end > 0, isSpaceBetweenWords(scalars[end - 1]) { end -= 1 }
        guard end > 0, end < word.lowerBound else { return false }
        let last = scalars[end - 1]
        // A series of a name's numbers, "iOS 17.2, 17.3", "iPhone 14، 15، 16": the number after
        // one is a name's too (its 15 kept, "16" showed ١٦; the phone number check, above, lets
        // a number followed by a comma go on). The number before was asked before this one
        // (`known`), or is looked at: 64 back at most.
        if last == "," || last == "\u{060C}" {
            let previous = ParagraphLayouter.word(around: end - 1, in: scalars)
            guard previous.upperBound == end, scalars[previous].allSatisfy(isSeriesCharacter) else { return false }
            return known[previous.lowerBound]
                ?? (depth < 64 && followsAName(previous, in: scalars, known: &known, depth: depth + 1))
        }
        guard last.isAlphabetic || NumberingSystem.isDigit(last) else { return false }
        var start = end
        while start > 0, !scalars[start - 1].isWhiteSpace, !isSpaceBetweenWords(scalars[start - 1]) { start -= 1 }
        // (A bracket, a quotation mark or a default ignorable (a bidi control or mark, a ZWSP)
        // before it is not part of it: "(SAR 25.00)", "'SAR 25.00'", `<ltr>SAR 25.00</ltr>`.)
        var code = start
        while code < end, scalars[code].generalCategory == .Ps || scalars[code].generalCategory == .Pi
            || scalars[code] == "\"" || scalars[code] == "'" || scalars[code].isDefaultIgnorable
        {
            code += 1
        }
        if end - code == 3, currencyCodes.contains(String(String.UnicodeScalarView(scalars[code..<end]))) { return false }
        return scalars[start..<end].contains { $0.script == .latin && $0.generalCategory == .Lu }
    }

    /// A digit, a separator of a version or amount, or a list's comma: what a series' number is
    /// made of ("17.2,").
    private static func isSeriesCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", ",", "\u{060C}", "\u{066B}", "\u{066C}": true
        default: NumberingSystem.isDigit(scalar) || scalar.isDefaultIgnorable
        }
    }

    /// Currency codes (ISO 4217): an amount after one is no name's number ("SAR 25.00" kept
    /// 0-9 on a receipt whose "1,299.00 SAR" showed ١٬٢٩٩٫٠٠). Those of the countries whose
    /// languages are written right to left, and the currencies most traded; not those that
    /// are as often a product's or a language's name (PHP 8.2, AMD 7950, CAD 2024, COP 28) or
    /// an English word (TOP 10, ALL, TRY).
    static let currencyCodes: Set<String> = [
        "AED", "AFN", "BHD", "DJF", "DZD", "EGP", "ILS", "INR", "IQD", "IRR", "JOD", "KMF", "KWD", "LBP", "LYD",
        "MAD", "MRU", "OMR", "PKR", "QAR", "SAR", "SDG", "SYP", "TND", "YER",
        "AUD", "BRL", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "JPY", "KRW", "MXN", "NOK", "NZD", "RUB", "SEK",
        "SGD", "USD", "ZAR",
    ]

    /// Separators and percent signs of substituted numbers, as a number formatter writes them:
    /// "12.5" → ١٢٫٥, "1,234.50" → ١٬٢٣٤٫٥٠, "65%" → ٦٥٪, "1.234,50" → ١٬٢٣٤٫٥٠, and back in
    /// `latn`. A number is digits with single separators (". , ٫ ٬") between them; only one
    /// that reads as a formatted value changes, its percent sign with it: at most one decimal
    /// separator, and each group separator before it with three digits after it. Dates
    /// (21.11.2026), addresses (192.168.0.1) and decimal commas (2,50: ٢٬٥٠ would read 250, but
    /// beside a European amount) keep theirs, but for `latn`, which shows any number's Arabic
    /// signs as ". , %". A "%" is looked for past the bidi controls an isolate adds
    /// (`<ltr>65</ltr>%`).
    private static func substituteNumberSymbols(
        _ display: inout [Unicode.Scalar], _ scalars: [Unicode.Scalar], _ shown: [NumberingSystem?]
    ) {
        func isDecimal(_ scalar: Unicode.Scalar) -> Bool { scalar == "." || scalar == "\u{066B}" }
        func isGroup(_ scalar: Unicode.Scalar) -> Bool { scalar == "," || scalar == "\u{066C}" }
        func isSeparator(_ scalar: Unicode.Scalar) -> Bool { isDecimal(scalar) || isGroup(scalar) }
        func isPercent(_ scalar: Unicode.Scalar) -> Bool { scalar == "%" || scalar == "\u{066A}" }
        // The numbers: digits shown in one system, each separator between two of them.
        var numbers: [(range: Range<Int>, system: NumberingSystem, spaced: Bool)] = []
        var start = 0
        while start < scalars.count {
            guard let system = shown[start] else {
                start += 1
                continue
            }
            var end = start + 1
            while end < scalars.count {
                if shown[end] == system {
                    end += 1
                } else if isSeparator(scalars[end]), end + 1 < scalars.count, shown[end + 1] == system {
                    end += 2
                } else {
                    break
                }
            }
            numbers.append((start..<end, system, false))
            start = end
        }
        // A European amount in groups of three after no-break spaces, as French and Russian
        // formatters write it ("1 299,90", U+00A0 or U+202F): one number, its comma a decimal
        // one. Its groups were numbers of their own, "١ ٢٩٩,٩٠": a Latin comma among Arabic digits.
        func isSpaceGroup(_ scalar: Unicode.Scalar) -> Bool { scalar == "\u{A0}" || scalar == "\u{202F}" }
        func isDigits(_ range: Range<Int>) -> Bool { range.allSatisfy { shown[$0] != nil } }
        var merged: [(range: Range<Int>, system: NumberingSystem, spaced: Bool)] = []
        merged.reserveCapacity(numbers.count)
        var n = 0
        while n < numbers.count {
            let system = numbers[n].system
            var k = n
            while k + 1 < numbers.count, system != .latn, numbers[k + 1].system == system,
                k == n ? numbers[k].range.count <= 3 : numbers[k].range.count == 3, isDigits(numbers[k].range),
                numbers[k + 1].range.lowerBound == numbers[k].range.upperBound + 1,
                isSpaceGroup(scalars[numbers[k].range.upperBound])
            {
                k += 1
            }
            let last = numbers[k].range
            if k > n, last.count >= 5, scalars[last.lowerBound + 3] == ",",
                isDigits(last.lowerBound..<last.lowerBound + 3), isDigits(last.lowerBound + 4..<last.upperBound)
            {
                merged.append((numbers[n].range.lowerBound..<last.upperBound, system, true))
                n = k + 1
            } else {
                // (A chain from any of these ends at `k` too, as far from an amount: linear time.)
                merged += numbers[n...k]
                n = k + 1
            }
        }
        numbers = merged
        // A European amount, "1.234,50": dots before one comma, each with three digits after
        // it. Shown in Arabic digits its dots read as zeros (١.٢٣٤,٥٠ is ١٠٢٣٤,٥٠ at a glance);
        // as a formatter writes it, ١٬٢٣٤٫٥٠. (A lone "1.234" or "2,50" could be either: kept,
        // as above, but for a "2,50" beside a European amount, whose comma is a decimal one:
        // "1.234,50 € و 2,50 €" showed ١٬٢٣٤٫٥٠ beside ٢,٥٠.)
        func isEuropean(_ number: Range<Int>, _ system: NumberingSystem) -> Bool {
            let dots = number.filter { scalars[$0] == "." }
            let commas = number.filter { scalars[$0] == "," }
            return system != .latn && hasLatinSeparators(number) && !dots.isEmpty && commas.count == 1
                && dots.allSatisfy { dot in
                    dot < commas[0] && dot + 4 < number.upperBound && (dot + 1...dot + 3).allSatisfy { shown[$0] != nil }
                        && isSeparator(scalars[dot + 4])
                }
        }
        func hasLatinSeparators(_ number: Range<Int>) -> Bool {
            number.allSatisfy { !isSeparator(scalars[$0]) || scalars[$0] == "." || scalars[$0] == "," }
        }
        let writesDecimalCommas = numbers.contains { $0.spaced || isEuropean($0.range, $0.system) }
        for (number, system, spaced) in numbers {
            let end = number.upperBound
            let points = number.filter { isDecimal(scalars[$0]) }
            let point = points.first ?? end
            // A group separator has three digits after it, up to the next separator.
            func groups(_ comma: Int) -> Bool {
                comma < point && comma + 4 <= end && (comma + 1...comma + 3).allSatisfy { shown[$0] != nil }
                    && (comma + 4 == end || isSeparator(scalars[comma + 4]))
            }
            // (Not a comma with three digits after it, as a thousands separator has: "3,000 $"
            // beside "1.234,50 €" is three thousand.)
            let commas = number.filter { scalars[$0] == "," }
            let european = spaced || isEuropean(number, system)
                || writesDecimalCommas && system != .latn && hasLatinSeparators(number) && points.isEmpty
                    && commas.count == 1 && end - commas[0] != 4
            // In 0-9, an Arabic separator or percent sign is always its Latin one, formatted
            // value or not: a typed ٢١٫١١٫٢٠٢٦ showed as 21٫11٫2026.
            if european || system == .latn || points.count <= 1 && number.allSatisfy({ !isGroup(scalars[$0]) || groups($0) }) {
                let symbols = system.symbols
                for i in number where isSeparator(scalars[i]) {
                    display[i] = isDecimal(scalars[i]) != european ? symbols.decimal : symbols.group
                }
                if spaced { for i in number where isSpaceGroup(scalars[i]) { display[i] = symbols.group } }
                var before = number.lowerBound - 1
                while before >= 0, isBidiControlOrMark(scalars[before]) { before -= 1 }
                if before >= 0, isPercent(scalars[before]) { display[before] = symbols.percent }
                // After the number, a space may stand before the sign ("65 %", "65\u{202F}%").
                var after = end
                while after < scalars.count, isBidiControlOrMark(scalars[after]) { after += 1 }
                if after + 1 < scalars.count, isSpaceBetweenWords(scalars[after]) {
                    var sign = after + 1
                    while sign < scalars.count, isBidiControlOrMark(scalars[sign]) { sign += 1 }
                    // (A sign that is a word of its own: not a format's "%2$@".)
                    let next = sign + 1 < scalars.count ? scalars[sign + 1] : " "
                    let ends = next.isWhiteSpace || isBidiControlOrMark(next)
                        || [.Pc, .Pd, .Ps, .Pe, .Pi, .Pf, .Po].contains(next.generalCategory) && next != "%"
                    if sign < scalars.count, isPercent(scalars[sign]), ends { after = sign }
                }
                if after < scalars.count, isPercent(scalars[after]) { display[after] = symbols.percent }
            }
        }
    }

    /// A space between a number and the word beside it: a space, or a no-break one ("15\u{A0}km",
    /// "65\u{202F}%").
    private static func isSpaceBetweenWords(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{A0}" || scalar == "\u{202F}"
    }

    /// The bidi controls: embeddings, overrides and isolates (what `<ltr>`, `<rtl>` and `<bdi>`
    /// add around their text), and the marks LRM, RLM and ALM.
    static func isBidiControlOrMark(_ scalar: Unicode.Scalar) -> Bool { isBidiMark(scalar) || isHiddenControl(scalar) }
}
