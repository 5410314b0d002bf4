// The HIG's right-to-left rules (SPEC §4) as pure decisions: alignment, list alignment and what
// RTL balancing asks of the text. BlockLayouter applies them, and works out the context and own
// directions they take (`declaredRightToLeft`); nothing here measures text.

enum Side: String {
    case left, right, center
}

enum HIGRules {
    /// 4.1: the physical alignment of a block of `lineCount` lines.
    static func alignment(
        _ align: TextAlignment, lineCount: Int, ownRightToLeft: Bool, contextRightToLeft: Bool
    ) -> Side {
        switch align {
        case .natural:
            // Three or more lines read as a paragraph of their own language; shorter blocks
            // follow the interface.
            let rtl = lineCount >= 3 ? ownRightToLeft : contextRightToLeft
            return rtl ? .right : .left
        case .start: return contextRightToLeft ? .right : .left
        case .end: return contextRightToLeft ? .left : .right
        case .left: return .left
        case .right: return .right
        case .center: return .center
        }
    }

    /// 4.2: every item of a list is aligned to the start side of the list's direction,
    /// whatever its script or length (an explicit `align` on the item still wins).
    static func listItemAlignment(_ align: TextAlignment?, listRightToLeft: Bool, lineCount: Int, ownRightToLeft: Bool) -> Side {
        guard let align, align != .natural else { return listRightToLeft ? .right : .left }
        return alignment(align, lineCount: lineCount, ownRightToLeft: ownRightToLeft, contextRightToLeft: listRightToLeft)
    }

    /// 4.3: Latin text that is all capitals: a stretch of Latin with at least two letters and
    /// no lower-case one. Letters of other scripts end a stretch; spaces, digits and
    /// punctuation do not. So "ملفات PDF من iCloud" has all-caps "PDF" beside the Arabic, while
    /// "iPhone 15 PRO" is one stretch with lower-case letters.
    static func hasAllCapsLatin(_ scalars: [Unicode.Scalar]) -> Bool {
        var letters = 0
        var lowerCase = false
        for scalar in scalars {
            let category = scalar.generalCategory
            let isLetter = category == .Lu || category == .Ll || category == .Lt || category == .Lm || category == .Lo
            guard isLetter else { continue }
            if scalar.script == .latin {
                if category == .Lu { letters += 1 } else { lowerCase = true }
            } else {
                if letters >= 2 && !lowerCase { return true }
                letters = 0
                lowerCase = false
            }
        }
        return letters >= 2 && !lowerCase
    }

    /// A number right-to-left text reorders: the offset it starts at, as typed, and whether
    /// only its sign is moved.
    typealias ReorderedNumber = (offset: Int, number: String, signOnly: Bool)

    /// 4.5: the numbers in groups (`NumberGroups.numbers(in:)`) that read as one (`readsAsOne`:
    /// a phone number, "+1 (800) 555-0199", "03 555 0199"; a price in groups, "1 299 000", or
    /// one with decimals or its currency sign, "1 299,90 ₪" (`spacedAmountEnd`); a date,
    /// "12-05-24"), and masked numbers ("•••• 4242", `maskedNumbers`), whose groups the
    /// text around them reorders: any character of one from
    /// its first digit (or its "+") to its last is at an odd bidi level. Not isolated in right-to-left text, numbers act
    /// as right to left for the neutrals between them (UAX #9 N1): "+1 (800) 555-0199" showed
    /// "555-0199 (800) 1+". In an isolate (`<ltr>`, U+2066 … U+2069) one keeps its order, and
    /// so does one UAX #9 keeps whole: "(4839201)", "(2024-05-12)", "050-123-4567". Each with
    /// the offset it starts at, as typed, and whether only its sign is moved (to its other end,
    /// "+972-3-123-4567" shown as "972-3-123-4567+": its groups keep their order; `movedSigns`).
    static func reorderedNumbers(_ paragraph: ParagraphLayout) -> [ReorderedNumber] {
        // Only right-to-left text reorders: a paragraph without any is not looked through.
        guard paragraph.lines.contains(where: { $0.runs.contains { $0.level & 1 == 1 } }) else { return [] }
        let scalars = paragraph.text.scalars
        let lines = paragraph.lines
        // A masked number, shown by its last digits, is one number too: "•••• 4242" showed
        // "4242 ••••", unsaid.
        let maskedRanges = maskedNumbers(scalars)
        let masked = maskedRanges.compactMap { range -> ReorderedNumber? in
            guard isReordered(range, lines) else { return nil }
            return (range.lowerBound, String(String.UnicodeScalarView(scalars[range])), false)
        }
        let grouped = NumberGroups.numbers(in: scalars).compactMap { number -> ReorderedNumber? in
            // (A masked number's digits and the price after them are no number: "•••• 4242 120 ₪".)
            let after = maskedRanges.partitionPoint { $0.upperBound <= number.range.lowerBound }
            guard after == maskedRanges.count || !maskedRanges[after].overlaps(number.range) else { return nil }
            let amountEnd = spacedAmountEnd(number, scalars)
            guard amountEnd != nil || readsAsOne(number, scalars),
                let firstDigit = number.range.first(where: { NumberingSystem.isDigit(scalars[$0]) }),
                let lastDigit = amountEnd.map({ $0 - 1 }) ?? number.range.last(where: { NumberingSystem.isDigit(scalars[$0]) })
            else { return nil }
            let opens = scalars[number.range.lowerBound] == "+" || scalars[number.range.lowerBound] == "("
            let plus = scalars[number.range.lowerBound] == "+" ? number.range.lowerBound : nil
            let groups = isReordered(firstDigit..<lastDigit + 1, lines)
            guard groups || plus.map({ isReordered($0..<$0 + 1, lines) }) == true else { return nil }
            let quoted = (opens ? number.range.lowerBound : firstDigit)...lastDigit
            return (quoted.lowerBound, String(String.UnicodeScalarView(scalars[quoted])), !groups)
        }
        // A sign that begins a number warned of, or stands right before one, is said with it
        // ("+972 3 555 0199", "(+972) 3 555 0199", "-1 299,90 ₪": once each).
        let said = grouped.map { $0.offset..<($0.offset + $0.number.unicodeScalars.count) }
        let signed = movedSigns(paragraph.text, lines).filter { sign in
            let next = said.partitionPoint { $0.upperBound <= sign.offset }
            return !(next < said.count && said[next].lowerBound <= sign.offset + 2)
        }
        return masked.isEmpty && signed.isEmpty ? grouped : (grouped + masked + signed).sorted { $0.offset < $1.offset }
    }

    /// Numbers in Hebrew text whose "-" or "+" right-to-left text moves to their other end:
    /// "-5°" shown "5°-", "+3.5%" shown "3.5%+" (Hebrew's number formats write a left-to-right
    /// mark before the sign so that it stays on the left). A sign begins a word (after a space,
    /// a "(" or nothing) and a Western digit follows it; the nearest letter, before it or else
    /// after it, is Hebrew (with no letter, the text's language is). Not in Arabic, whose signs
    /// stand on the right of Eastern Arabic digits. Each quoted from its sign to its last digit.
    private static func movedSigns(_ text: ParagraphText, _ lines: [TextLine]) -> [ReorderedNumber] {
        let scalars = text.scalars
        var found: [ReorderedNumber] = []
        func isWesternDigit(_ at: Int) -> Bool { at < scalars.count && ("0"..."9").contains(scalars[at]) }
        // The last letter before the sign at hand, looked for only as far as signs are found
        // (one pass in all), and the first letter of all.
        var lastLetter: Int?
        var looked = 0
        lazy var firstLetter = scalars.firstIndex { $0.properties.isAlphabetic }
        for at in scalars.indices {
            guard scalars[at] == "-" || scalars[at] == "+" || scalars[at] == "\u{2212}", isWesternDigit(at + 1),
                at == 0 || scalars[at - 1].properties.isWhitespace || scalars[at - 1] == "(",
                isReordered(at..<at + 1, lines)
            else { continue }
            // The number, and what it is set among.
            var end = at + 1
            while end < scalars.count, isWesternDigit(end) || (scalars[end] == "." || scalars[end] == ",") && isWesternDigit(end + 1) {
                end += 1
            }
            while looked < at {
                if scalars[looked].properties.isAlphabetic { lastLetter = looked }
                looked += 1
            }
            // Without a letter ("-5°" alone in a title): by its language.
            if let letter = lastLetter ?? firstLetter {
                guard scalars[letter].script == .hebrew else { continue }
            } else {
                let span = text.spans.partitionPoint { $0.scalarRange.upperBound <= at }
                guard span < text.spans.count, Language.writingScript(of: text.spans[span].style.language) == "hebr" else {
                    continue
                }
            }
            found.append((at, String(String.UnicodeScalarView(scalars[at..<end])), true))
        }
        return found
    }

    /// Whether a run at an odd level meets `checked`, on the lines it is on. (Found by a binary
    /// search: looking through every line for each number was quadratic, a minute for 1 MB of
    /// Hebrew with phone numbers.)
    private static func isReordered(_ checked: Range<Int>, _ lines: [TextLine]) -> Bool {
        var line = lines.partitionPoint { $0.scalarRange.upperBound <= checked.lowerBound }
        while line < lines.count, lines[line].scalarRange.lowerBound < checked.upperBound {
            let odd = lines[line].runs.contains { $0.level & 1 == 1 && $0.scalarRange.overlaps(checked) }
            if odd { return true }
            line += 1
        }
        return false
    }

    /// Masked numbers: groups of two or more of one mask sign (•, ●, *, ∗, ·) between single
    /// spaces, then a space or none and two digits or more ("•••• 4242", "**** **** **** 4242",
    /// "••••4242"): a card
    /// or account number shown by its last digits. Each from its first sign to its last digit;
    /// found in one pass.
    static func maskedNumbers(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        func isMask(_ at: Int) -> Bool {
            guard at < scalars.count else { return false }
            switch scalars[at] {  // (an array literal here was made for every character looked at)
            case "\u{2022}", "\u{25CF}", "*", "\u{2217}", "\u{00B7}": return true
            default: return false
            }
        }
        func isDigit(_ at: Int) -> Bool { at < scalars.count && NumberingSystem.isDigit(scalars[at]) }
        var found: [Range<Int>] = []
        var start = 0
        while start < scalars.count {
            // A first group begins after no letter, digit or mask sign ("a** 12" is none).
            guard isMask(start), start == 0 || !(scalars[start - 1].properties.isAlphabetic || isMask(start - 1)
                || isDigit(start - 1))
            else {
                start += 1
                continue
            }
            var at = start
            var matched = false
            while true {
                let groupStart = at
                while isMask(at) && scalars[at] == scalars[groupStart] { at += 1 }  // one sign per group
                guard at - groupStart >= 2, at < scalars.count else { break }
                // Its digits after a space, or right after the signs ("••••4242").
                let spaced = scalars[at] == " " || scalars[at] == "\u{A0}"
                guard spaced || isDigit(at) else { break }
                let digitsStart = spaced ? at + 1 : at
                if isDigit(digitsStart) {
                    var end = digitsStart
                    while isDigit(end) { end += 1 }
                    // Two digits or more, and the number ends there.
                    if end - digitsStart >= 2 && !(end < scalars.count && scalars[end].properties.isAlphabetic) {
                        found.append(start..<end)
                        matched = true
                        at = end
                    }
                    break
                }
                guard isMask(at + 1) else { break }
                at += 1
            }
            start = matched ? at : max(at, start + 1)
        }
        return found
    }

    /// Whether a number in groups reads as one number, so that right-to-left text reordering
    /// its groups reverses it: one of seven digits or more (a phone number), but years side by
    /// side or a range of them, rising ("1879 - 1955", "2020-2024", "2023 2024": a range reads
    /// from right to left in Arabic; '<ltr>' would reverse it); or three
    /// parts or more joined by hyphens alone, four digits or more in all, one part of two (a
    /// date, "12-05-24", which showed "24-05-12"; not a formation, "4-4-2" or "4-2-3-1", nor a
    /// count, "3 - 2 - 1"). Two numbers joined by a hyphen, "10-20", are a range, and numbers
    /// between spaces of fewer than seven digits are not taken for one ("15 128 GB" is two).
    /// Numbers with dots between their digits are one number of seven digits or more ("+1
    /// 555.010.2030"), but not with a date among their parts: a date is one number to UAX #9,
    /// and a date and a time, or a range of dates, read in order from right to left
    /// ("21.11.2026 14:30", "01.12.2026 - 15.12.2026", as with slashes).
    private static func readsAsOne(_ number: NumberGroups.Number, _ scalars: [Unicode.Scalar]) -> Bool {
        if !number.otherSigns {
            // Numbers between single spaces that count up or down by one are a list ("36 37 38
            // 39 40", "2024 2023 2022", "101 102"), which reads right to left in right-to-left
            // text as it should; groups of three otherwise are a code ("482 917").
            if isList(number, scalars) { return false }
            if number.groups.count >= 2 && number.groups.allSatisfy({ $0 == 3 }) { return true }
        }
        // Each part between hyphens and spaces, and whether only hyphens join them.
        var parts: [(digits: Int, value: UInt32)] = [(0, 0)]
        var hyphensAlone = true
        var hyphen = false
        // The current part's pieces between dots; whether a dot was met, and a date.
        var pieces: [(digits: Int, value: UInt32)] = [(0, 0)]
        var dotted = false
        var date = false
        var dottedParts = 0
        func endPart() {
            date = date || isDate(pieces)
            if pieces.count > 1 { dottedParts += 1 }
            pieces = [(0, 0)]
        }
        for scalar in scalars[number.range] {
            if let digit = NumberingSystem.digitValue(scalar) {
                parts[parts.count - 1].digits += 1
                parts[parts.count - 1].value = min(parts[parts.count - 1].value * 10 + digit, 100_000)  // (a phone number's 12 digits overflowed: a crash)
                pieces[pieces.count - 1].digits += 1
                pieces[pieces.count - 1].value = min(pieces[pieces.count - 1].value * 10 + digit, 100_000)
            } else if scalar == "-" || scalar == "\u{2011}" || scalar == " " || scalar == "\u{A0}" {
                if scalar == " " || scalar == "\u{A0}" { hyphensAlone = false } else { hyphen = true }
                if parts[parts.count - 1].digits > 0 { parts.append((0, 0)) }
                endPart()
            } else if scalar == "(" || scalar == ")" {
                hyphensAlone = false  // (brackets around a range: "(1299 - 1922)")
            } else if scalar == "." {
                dotted = true
                pieces.append((0, 0))
            } else {
                return number.digits >= 7
            }
        }
        endPart()
        // (Two parts with dots joined by a hyphen are a range: "9.00 - 17.00", "1.000 - 2.000".)
        if dotted { return !date && !(hyphen && parts.count == 2 && dottedParts == 2) && number.digits >= 7 }
        if number.digits >= 7 {
            // (A range of two, with a hyphen, of years or amounts, "1879 - 1955", "2081-2100",
            // "2000-2500"; side by side, of this century or the last: "2123 2456" is a phone
            // number in Hong Kong. A Kuwaiti one, "2241-2588", reads as a range.)
            let span: ClosedRange<UInt32> = parts.count == 2 && hyphen ? 1000...2999 : 1900...2099
            let years = parts.allSatisfy { $0.digits == 4 && span.contains($0.value) }
                && zip(parts, parts.dropFirst()).allSatisfy { $0.value < $1.value }
            return !years
        }
        return hyphensAlone && parts.count >= 3 && number.digits >= 4 && parts.contains { $0.digits >= 2 }
    }

    /// Whether a number between single spaces is a list of numbers (`readsAsOne`): two or
    /// more that count up or down by one, none beginning with 0 ("36 37 38 39 40", "2024 2023
    /// 2022", "101 102"; an account's "123 456 789" or "12 34 56 78" is one number, and a phone
    /// number's "03 555 0199" begins with 0).
    private static func isList(_ number: NumberGroups.Number, _ scalars: [Unicode.Scalar]) -> Bool {
        let groups = number.groups
        guard groups.count >= 2, !groups.contains(0), scalars[number.range.lowerBound] != "+" else { return false }
        var values: [Int] = []
        var value = 0
        var leadingZero = false
        var fresh = true
        for scalar in scalars[number.range] {
            if let digit = NumberingSystem.digitValue(scalar) {
                if fresh && digit == 0 { leadingZero = true }
                fresh = false
                value = min(value * 10 + Int(digit), 1_000_000_000)
            } else {
                values.append(value)
                value = 0
                fresh = true
            }
        }
        values.append(value)
        guard !leadingZero else { return false }
        let pairs = zip(values, values.dropFirst())
        return pairs.allSatisfy { $0 + 1 == $1 } || pairs.allSatisfy { $0 == $1 + 1 }
    }

    /// Currency written in letters after an amount: Hebrew's shekel, Arabic and Persian
    /// abbreviations and names (a sign, ₪ or ر.س's neighbours, is `.currencySymbol`).
    private static let currencyWords: [[Unicode.Scalar]] = [
        "ש״ח", "ש\"ח", "שקל", "שקלים", "ر.س", "د.إ", "د.ك", "ج.م", "ر.ع", "ر.ق", "د.ب", "ل.ل",
        "ريال", "ريالاً", "درهم", "دينار", "جنيه", "ليرة", "دولار", "يورو", "ریال", "تومان",
    ].map { Array($0.unicodeScalars) }

    /// A price in thousands between single spaces, a first group of one to three digits and
    /// then groups of three, with decimals, a currency sign or word beside it, or ending in
    /// "000": "1 299,90 ₪", "₪ 12 500", "1 299.90", "12 500 ש״ח", "10 000" (right-to-left text
    /// showed "299,90 1"). Its end, decimals included; nil for anything else: without any of
    /// these, "15 128 GB" is two numbers (`readsAsOne`).
    static func spacedAmountEnd(_ number: NumberGroups.Number, _ scalars: [Unicode.Scalar]) -> Int? {
        func isDigit(_ at: Int) -> Bool { at < scalars.count && NumberingSystem.isDigit(scalars[at]) }
        func digits(from at: Int) -> Int {
            var end = at
            while isDigit(end) { end += 1 }
            return end - at
        }
        func isSpace(_ at: Int) -> Bool { at >= 0 && at < scalars.count && (scalars[at] == " " || scalars[at] == "\u{A0}") }
        func isCurrency(_ at: Int) -> Bool { at >= 0 && at < scalars.count && scalars[at].generalCategory == .Sc }
        let start = number.range.lowerBound
        guard (1...3).contains(digits(from: start)) else { return nil }
        var end = start + digits(from: start)
        var groups = 1
        while isSpace(end) && digits(from: end + 1) == 3 {
            end += 4
            groups += 1
        }
        func isDecimalPoint(_ at: Int) -> Bool {
            at + 1 < scalars.count && (scalars[at] == "," || scalars[at] == "." || scalars[at] == "\u{66B}") && isDigit(at + 1)
        }
        let groupsEnd = end
        let decimals = isDecimalPoint(end)
        if decimals { end += 1 + digits(from: end + 1) }
        // The whole number in groups, and no more of one after it ("1 299.90.1").
        guard groups > 1, end >= number.range.upperBound, !isDecimalPoint(end) else { return nil }
        let round = scalars[(groupsEnd - 3)..<groupsEnd].allSatisfy { NumberingSystem.digitValue($0) == 0 }
        func isCurrencyWord(_ at: Int) -> Bool {
            Self.currencyWords.contains { word in
                at + word.count <= scalars.count && scalars[at..<at + word.count].elementsEqual(word)
                    && !(at + word.count < scalars.count && scalars[at + word.count].properties.isAlphabetic)
            }
        }
        let currency = isCurrency(start - 1) || isSpace(start - 1) && isCurrency(start - 2)
            || isCurrency(end) || isSpace(end) && (isCurrency(end + 1) || isCurrencyWord(end + 1))
        return decimals || currency || round ? end : nil
    }

    /// Whether pieces joined by dots are a date: day, month and year (21.11.2026, 1.5.26) or
    /// year, month and day (2026.11.21), by their digits and values (a Belgian phone number's
    /// "12.34.56" is none).
    private static func isDate(_ pieces: [(digits: Int, value: UInt32)]) -> Bool {
        guard pieces.count == 3 else { return false }
        func isDay(_ piece: (digits: Int, value: UInt32)) -> Bool { (1...2).contains(piece.digits) && (1...31).contains(piece.value) }
        func isMonth(_ piece: (digits: Int, value: UInt32)) -> Bool { (1...2).contains(piece.digits) && (1...12).contains(piece.value) }
        return isDay(pieces[0]) && isMonth(pieces[1]) && (pieces[2].digits == 2 || pieces[2].digits == 4)
            || pieces[0].digits == 4 && isMonth(pieces[1]) && isDay(pieces[2])
    }

    /// 4.3: text that balancing enlarges: Arabic or Hebrew letters.
    static func hasArabicOrHebrew(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.contains { $0.script == .arabic || $0.script == .hebrew }
    }
}
