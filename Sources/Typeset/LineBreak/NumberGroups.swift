// A number written in groups stays on one line where it fits: a phone number ("+1 (555)
// 010-2030", "03 555 0199") or a price in groups ("1 299 000"). UAX #14 breaks at the spaces
// between the groups (LB18), so "טלפון: <ltr>+1 (555) 010-2030</ltr>" wrapped after "(555)"
// though the whole number fit on the next line, and the reader met half a number at the end of
// one line and its other half at the start of the next. One wider than its line still breaks
// at its spaces.

enum NumberGroups {
    /// `opportunities` without those inside a number in groups that `fits` on a line: digits
    /// (any script's), with single spaces, no-break spaces, hyphens, dots and brackets between
    /// them, seven digits or more, beginning with "+", "(" or a digit and ending with a digit or
    /// ")" (what `HIGRules.reorderedNumbers` calls a number).
    static func keepingWhole(
        _ opportunities: [BreakOpportunity], in scalars: [Unicode.Scalar], fits: (Range<Int>) -> Bool
    ) -> [BreakOpportunity] {
        var kept: [Range<Int>] = []
        var start = 0
        while start < scalars.count {
            let first = scalars[start]
            guard first == "+" || first == "(" || NumberingSystem.isDigit(first) else {
                start += 1
                continue
            }
            // The stretch, and its last digit or ")" (what it ends with).
            var end = start
            var last = start
            var digits = 0
            while end < scalars.count {
                let scalar = scalars[end]
                if NumberingSystem.isDigit(scalar) {
                    digits += 1
                    last = end
                } else if scalar == ")" {
                    last = end
                } else if scalar == " " || scalar == "\u{A0}" {
                    // One space between groups, not two, and none after a "+".
                    guard end > start, scalars[end - 1] != " ", scalars[end - 1] != "\u{A0}", scalars[end - 1] != "+" else { break }
                } else if !(scalar == "-" || scalar == "\u{2011}" || scalar == "." || scalar == "(" || scalar == "+") {
                    break
                }
                end += 1
            }
            let number = start..<(last + 1)
            if digits >= 7, number.count > 1, fits(number) { kept.append(number) }
            start = max(end, start + 1)
        }
        guard !kept.isEmpty else { return opportunities }
        var next = 0
        return opportunities.filter { opportunity in
            guard !opportunity.isMandatory else { return true }
            while next < kept.count, kept[next].upperBound <= opportunity.offset { next += 1 }
            return !(next < kept.count && kept[next].lowerBound < opportunity.offset)
        }
    }
}
