// Extended grapheme cluster boundaries: UAX #29 section 3.1.1 (Unicode 15.0), rules GB1–GB999.
//
// Line breaking uses them to split a word that is longer than a line without tearing a
// character apart, and font fallback to give each character with its marks one font. One
// pass; GB11 and GB12/GB13 carry their state forward.

/// Finds extended grapheme cluster boundaries with the default rules of UAX #29 (Unicode 15.0).
public enum GraphemeBreaker {
    /// Boundaries of the extended grapheme clusters of `scalars`: offsets in `0...count`, in
    /// increasing order, both ends included. Each cluster runs from one boundary to the next.
    /// Empty text has no boundaries (GB1 and GB2 apply only to text that is not empty).
    public static func boundaries(in scalars: [Unicode.Scalar]) -> [Int] {
        boundaries(in: scalars, range: 0..<scalars.count)
    }

    /// Boundaries of the extended grapheme clusters of `scalars[range]`, as offsets in `scalars`
    /// (from `range.lowerBound` to `range.upperBound`, both included; none for an empty range).
    /// The text outside the range is not looked at: it is as if `range` were the whole text.
    public static func boundaries(in scalars: [Unicode.Scalar], range: Range<Int>) -> [Int] {
        guard !range.isEmpty else { return [] }
        let first = scalars[range.lowerBound]
        // UAX #29 GB1: sot ÷ Any
        var boundaries = [range.lowerBound]
        var previous = first.graphemeClusterBreak
        // GB11: after `\p{Extended_Pictographic} Extend*`, and after its ZWJ.
        var pictographicSequence = first.isExtendedPictographic ? PictographicSequence.base : .none
        // GB12, GB13: whether the run of regional indicators before the position is odd.
        var regionalIndicatorRunIsOdd = previous == .regionalIndicator

        for index in range.lowerBound + 1..<range.upperBound {
            let scalar = scalars[index]
            let next = scalar.graphemeClusterBreak
            if isBoundary(
                between: previous, and: next, nextIsPictographic: scalar.isExtendedPictographic,
                pictographicSequence: pictographicSequence,
                regionalIndicatorRunIsOdd: regionalIndicatorRunIsOdd)
            {
                boundaries.append(index)
            }

            if scalar.isExtendedPictographic {
                pictographicSequence = .base
            } else if next == .extend && pictographicSequence == .base {
                pictographicSequence = .base
            } else if next == .zwj && pictographicSequence == .base {
                pictographicSequence = .joiner
            } else {
                pictographicSequence = .none
            }
            regionalIndicatorRunIsOdd = next == .regionalIndicator && !regionalIndicatorRunIsOdd
            previous = next
        }
        // UAX #29 GB2: Any ÷ eot
        boundaries.append(range.upperBound)
        return boundaries
    }

    /// Whether a cluster boundary lies between `previous` and `next` whatever text comes before
    /// them: nil where GB11 or GB12/GB13 would look further back (a pictograph after a ZWJ, a
    /// regional indicator after one).
    public static func isBoundary(between previous: Unicode.Scalar, and next: Unicode.Scalar) -> Bool? {
        let before = previous.graphemeClusterBreak
        let after = next.graphemeClusterBreak
        if (before == .zwj && next.isExtendedPictographic) || (before == .regionalIndicator && after == .regionalIndicator) {
            return nil
        }
        return isBoundary(
            between: before, and: after, nextIsPictographic: next.isExtendedPictographic,
            pictographicSequence: .none, regionalIndicatorRunIsOdd: false)
    }

    /// GB11's view of the text before a position.
    private enum PictographicSequence {
        case none
        /// After `\p{Extended_Pictographic} Extend*`.
        case base
        /// After `\p{Extended_Pictographic} Extend* ZWJ`.
        case joiner
    }

    private static func isBoundary(
        between previous: GraphemeClusterBreak, and next: GraphemeClusterBreak,
        nextIsPictographic: Bool, pictographicSequence: PictographicSequence,
        regionalIndicatorRunIsOdd: Bool
    ) -> Bool {
        switch (previous, next) {
        // UAX #29 GB3: CR × LF
        case (.cr, .lf): return false
        // UAX #29 GB4: (Control | CR | LF) ÷
        case (.control, _), (.cr, _), (.lf, _): return true
        // UAX #29 GB5: ÷ (Control | CR | LF)
        case (_, .control), (_, .cr), (_, .lf): return true
        // UAX #29 GB6: L × (L | V | LV | LVT)
        case (.l, .l), (.l, .v), (.l, .lv), (.l, .lvt): return false
        // UAX #29 GB7: (LV | V) × (V | T)
        case (.lv, .v), (.lv, .t), (.v, .v), (.v, .t): return false
        // UAX #29 GB8: (LVT | T) × T
        case (.lvt, .t), (.t, .t): return false
        // UAX #29 GB9: × (Extend | ZWJ)
        case (_, .extend), (_, .zwj): return false
        // UAX #29 GB9a: × SpacingMark
        case (_, .spacingMark): return false
        // UAX #29 GB9b: Prepend ×
        case (.prepend, _): return false
        // UAX #29 GB11: \p{Extended_Pictographic} Extend* ZWJ × \p{Extended_Pictographic}
        case (.zwj, _) where nextIsPictographic && pictographicSequence == .joiner: return false
        // UAX #29 GB12, GB13: no break inside a pair of regional indicators.
        case (.regionalIndicator, .regionalIndicator) where regionalIndicatorRunIsOdd: return false
        // UAX #29 GB999: Any ÷ Any
        default: return true
        }
    }
}
