// The HIG's right-to-left rules (SPEC §4) as pure decisions: directions, alignment, list
// alignment and RTL balancing. BlockLayouter applies them; nothing here measures text.

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

    /// 4.3: Latin text that is all capitals: at least two Latin letters and no lower-case one.
    static func hasAllCapsLatin(_ scalars: [Unicode.Scalar]) -> Bool {
        var letters = 0
        for scalar in scalars where scalar.script == .latin {
            switch scalar.generalCategory {
            case .Lu: letters += 1
            case .Ll, .Lt, .Lm, .Lo: return false
            default: break
            }
        }
        return letters >= 2
    }

    /// 4.3: text that balancing enlarges: Arabic or Hebrew letters.
    static func hasArabicOrHebrew(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.contains { $0.script == .arabic || $0.script == .hebrew }
    }
}
