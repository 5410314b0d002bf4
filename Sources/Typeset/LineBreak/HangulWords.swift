// Korean keeps its words whole: a line breaks at the spaces between Korean words, not between
// two syllables of one, as an iPhone's labels do (UIKit's standard line break strategy holds
// NSParagraphStyle's hangulWordPriority) and the web's `word-break: keep-all`. UAX #14's
// default algorithm breaks between any two Hangul syllables (LB31), so "동의하시겠습니까?"
// wrapped as "동의하시겠습니|까?" where the device wraps before the word. A word wider than its
// line is still cut between its syllables (`LineFiller.splitLongWord`), with a warning.

enum HangulWords {
    /// `opportunities` without those between two Hangul syllables or jamo (Line_Break H2, H3,
    /// JL, JV, JT).
    static func keepingWordsWhole(_ opportunities: [BreakOpportunity], in scalars: [Unicode.Scalar]) -> [BreakOpportunity] {
        opportunities.filter { opportunity in
            let offset = opportunity.offset
            guard !opportunity.isMandatory, offset > 0, offset < scalars.count else { return true }
            return !(isHangul(scalars[offset - 1]) && isHangul(scalars[offset]))
        }
    }

    static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.lineBreakClass {
        case .H2, .H3, .JL, .JV, .JT: return true
        default: return false
        }
    }
}
