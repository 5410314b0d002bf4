// A phone number stays on one line where it fits ("+1 (555) 010-2030"). UAX #14 breaks at the
// spaces between its groups (LB18), so "טלפון: <ltr>+1 (555) 010-2030</ltr>" wrapped after
// "(555)" though the whole number fit on the next line, and the reader met half a number at
// the end of one line and its other half at the start of the next. One wider than its line
// still breaks at its spaces. So does an amount in thousands ("12 345 678", "€1 299 000").
// Numbers side by side that are not one (years, scores, room numbers: "1999 2000 2001", "101
// 102 103") are not taken for one: only an isolated number (`<ltr>…</ltr>`, as SPEC 4.5 asks
// of phone numbers and codes), one that begins with "+", or thousands whose first group has
// fewer than three digits or a currency sign before it. The numbers found here are also those
// whose order right-to-left text may change (`HIGRules.reorderedNumbers`).

enum NumberGroups {
    /// A number in groups: digits with single spaces, no-break spaces, hyphens,
    /// dots and brackets between them, beginning with "+", "(" or a digit and ending with a
    /// digit or ")".
    struct Number {
        /// From its "+", "(" or first digit to its last digit or ")".
        var range: Range<Int>
        var digits = 0
        /// The digits in each group between spaces.
        var groups: [Int] = [0]
        /// Anything but digits and spaces.
        var otherSigns = false

        /// Whether it is thousands: groups of three after a first of one or two digits, or of
        /// three after a currency sign or "№" ("12 345", "€123 456"; "101 102 103" is not).
        func isThousands(in scalars: [Unicode.Scalar]) -> Bool {
            let start = range.lowerBound
            let currency = start > 0 && (scalars[start - 1].generalCategory == .Sc || scalars[start - 1] == "\u{2116}")
            return !otherSigns && groups.count > 1 && groups.dropFirst().allSatisfy { $0 == 3 }
                && ((1...2).contains(groups[0]) || currency && groups[0] == 3)
        }
    }

    /// The numbers in groups of `scalars` with two groups or more, or signs between digits. A
    /// separator is one only between parts (a full stop that ends a sentence, "1999. 2000
    /// people", ends a number; a hyphen may stand between spaces, "050 - 123 - 4567"), and a ")"
    /// only after its "(" ("(Visa •••• 4242) 120 ₪" is two numbers).
    static func numbers(in scalars: [Unicode.Scalar]) -> [Number] {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\u{A0}" }
        func isDigit(_ at: Int) -> Bool { at < scalars.count && NumberingSystem.isDigit(scalars[at]) }
        func isHyphen(_ at: Int) -> Bool { at < scalars.count && (scalars[at] == "-" || scalars[at] == "\u{2011}") }
        var numbers: [Number] = []
        var start = 0
        while start < scalars.count {
            let first = scalars[start]
            // Not inside a time, a date or a decimal either: "14:30 120 ₪" is no "30 120", nor
            // "12/05 120.00" "05 120.00" (but after "0199/", "050 123 4567" is a number).
            guard first == "+" && isDigit(start + 1) || first == "(" || NumberingSystem.isDigit(first),
                start == 0 || !NumberingSystem.isDigit(scalars[start - 1]) && scalars[start - 1] != "+"
                    && !(start >= 2 && isDigit(start - 2) && Self.isInnerSeparator(at: start - 1, in: scalars))
            else {
                start += 1
                continue
            }
            var end = start
            var last = start
            var open = 0  // brackets opened and not closed
            while end < scalars.count {
                let scalar = scalars[end]
                if NumberingSystem.isDigit(scalar) {
                    last = end
                } else if scalar == ")" {
                    guard open > 0 else { break }
                    open -= 1
                    last = end
                } else if isSpace(scalar) {
                    // One space between groups, before a digit, "(" or "+", or a hyphen between spaces.
                    guard end > start, !isSpace(scalars[end - 1]), scalars[end - 1] != "+", end + 1 < scalars.count,
                        isDigit(end + 1) || scalars[end + 1] == "("
                            || isHyphen(end + 1) && end + 2 < scalars.count && isSpace(scalars[end + 2]) && isDigit(end + 3)
                    else { break }
                } else if scalar == "-" || scalar == "\u{2011}" || scalar == "." || scalar == "(" || scalar == "+" {
                    // Joining parts: a digit or "(" after it (a space, then a digit, after a
                    // hyphen with a space before it).
                    guard scalar == "(" || end == start || isDigit(end + 1) || end + 1 < scalars.count && scalars[end + 1] == "("
                        || isHyphen(end) && isSpace(scalars[end - 1]) && end + 1 < scalars.count && isSpace(scalars[end + 1])
                            && isDigit(end + 2)
                    else { break }
                    if scalar == "(" { open += 1 }
                } else {
                    break
                }
                end += 1
            }
            // What it took past its last digit or ")" is not its: "12 (a". Nor is a "(" it does
            // not close, with what follows it: "189.84 (+2.31%)" and "4.8 (12345 reviews)" are
            // two numbers each (what follows is looked through again, and a number that begins
            // with such a "(" begins after it: "(+1 800 555 0199, toll free)"). Nor the hour of
            // a time after it: "2024-05-12 14:30".
            var kept = start..<(last + 1)
            if open > 0 {
                var depth = 0
                var firstOpen = kept.upperBound
                for at in kept.reversed() {
                    if scalars[at] == ")" { depth += 1 } else if scalars[at] == "(" {
                        if depth == 0 { firstOpen = at } else { depth -= 1 }
                    }
                }
                kept = start..<firstOpen
            }
            if kept.upperBound + 1 < scalars.count, scalars[kept.upperBound] == ":", isDigit(kept.upperBound + 1),
                let space = kept.lastIndex(where: { isSpace(scalars[$0]) }), kept.upperBound - space <= 3
            {
                kept = start..<space
            }
            // Back to its last digit or ")".
            var upper = kept.upperBound
            while upper > start, !NumberingSystem.isDigit(scalars[upper - 1]) && scalars[upper - 1] != ")" { upper -= 1 }
            let number = Self.measured(start..<upper, in: scalars)
            if number.digits > 0, number.groups.count > 1 || number.otherSigns { numbers.append(number) }
            start = kept.upperBound < last + 1 ? max(upper, start + 1) : max(end, start + 1)
        }
        return numbers
    }

    /// Whether the sign at `at`, after a digit, joins the digits of a time (":"), or of a date
    /// or a decimal ("/", ".", ",", "٫", "٬") when one or two digits follow it: a number does
    /// not begin just after it.
    static func isInnerSeparator(at: Int, in scalars: [Unicode.Scalar]) -> Bool {
        switch scalars[at] {
        case ":": return true
        case "/", ".", ",", "\u{66B}", "\u{66C}":
            var end = at + 1
            while end < scalars.count, NumberingSystem.isDigit(scalars[end]) { end += 1 }
            return (1...2).contains(end - at - 1)
        default: return false
        }
    }

    /// The number over `range`: its digits, its groups between spaces and whether it has
    /// other signs.
    static func measured(_ range: Range<Int>, in scalars: [Unicode.Scalar]) -> Number {
        var number = Number(range: range)
        for at in range {
            let scalar = scalars[at]
            if NumberingSystem.isDigit(scalar) {
                number.digits += 1
                number.groups[number.groups.count - 1] += 1
            } else if scalar == " " || scalar == "\u{A0}" {
                number.groups.append(0)
            } else {
                number.otherSigns = true
            }
        }
        while number.groups.count > 1, number.groups.last == 0 { number.groups.removeLast() }
        return number
    }

    /// `opportunities` without those inside a number in groups (`numbers(in:)`) whose
    /// unbreakable stretch (the number with what UAX #14 keeps with it: a bracket, a full stop
    /// after it) `fits` on a line: one of seven digits or more that is isolated, begins with
    /// "+" (or "(+"), or is thousands: groups of three after a first of one or two digits, or of
    /// three after a currency sign or "№".
    static func keepingWhole(
        _ opportunities: [BreakOpportunity], in scalars: [Unicode.Scalar], fits: (Range<Int>) -> Bool
    ) -> [BreakOpportunity] {
        let numbers = numbers(in: scalars).filter { found in
            let start = found.range.lowerBound
            let end = found.range.upperBound
            let first = scalars[start]
            let isolated = start > 0 && (0x2066...0x2068).contains(scalars[start - 1].value)
                && end < scalars.count && scalars[end] == "\u{2069}"
            let international = first == "+" || first == "(" && start + 1 < scalars.count && scalars[start + 1] == "+"
            return found.digits >= 7 && (isolated || international || found.isThousands(in: scalars))
        }.map(\.range)
        guard !numbers.isEmpty else { return opportunities }
        // Each kept whole where what cannot be broken around it fits: from the break before it
        // to the one after it, its spaces at the end left out (they hang at a line's end).
        let offsets = opportunities.map(\.offset)
        var kept: [Range<Int>] = []
        for number in numbers {
            let firstAfterStart = offsets.partitionPoint { $0 <= number.lowerBound }
            let before = firstAfterStart > 0 ? offsets[firstAfterStart - 1] : 0
            let end = offsets.partitionPoint { $0 < number.upperBound }
            var after = end < offsets.count ? offsets[end] : scalars.count
            while after > number.upperBound, scalars[after - 1].isWhiteSpace { after -= 1 }
            if fits(before..<after) { kept.append(number) }
        }
        var next = 0
        return opportunities.filter { opportunity in
            guard !opportunity.isMandatory else { return true }
            while next < kept.count, kept[next].upperBound <= opportunity.offset { next += 1 }
            return !(next < kept.count && kept[next].lowerBound < opportunity.offset)
        }
    }
}
