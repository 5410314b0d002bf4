// Korean keeps its words whole: a line breaks at the spaces between Korean words, not between
// two syllables of one, as an iPhone's labels do (UIKit's standard line break strategy holds
// NSParagraphStyle's hangulWordPriority) and the web's `word-break: keep-all`. UAX #14's
// default algorithm breaks between any two Hangul syllables (LB31), so "동의하시겠습니까?"
// wrapped as "동의하시겠습니|까?" where the device wraps before the word. A word wider than its
// line is still cut between its syllables (`LineFiller.splitLongWord`), with a warning.

enum HangulWords {
    /// `opportunities` without those inside a word that holds Hangul (what lies between white
    /// space): next to a Hangul syllable or jamo (Line_Break H2, H3, JL, JV, JT), or between two
    /// letters or digits (AL, HL, NU, AI), so that "동의하시겠습니까", "iPhone에서" and "2026년에"
    /// stay whole. Ideographs keep their breaks between them: Chinese and Japanese, written
    /// without spaces, hold a Korean word among them ("句子한국어这个") and break as before.
    static func keepingWordsWhole(_ opportunities: [BreakOpportunity], in scalars: [Unicode.Scalar]) -> [BreakOpportunity] {
        // Whether the word of each scalar holds Hangul, found word by word.
        var inKoreanWord = [Bool](repeating: false, count: scalars.count)
        var start = 0
        while start < scalars.count {
            var end = start
            var hasHangul = false
            while end < scalars.count && !scalars[end].isWhiteSpace {
                hasHangul = hasHangul || isHangul(scalars[end])
                end += 1
            }
            if hasHangul { for i in start..<end { inKoreanWord[i] = true } }
            start = end + 1
        }
        return opportunities.filter { opportunity in
            let offset = opportunity.offset
            guard !opportunity.isMandatory, offset > 0, offset < scalars.count, inKoreanWord[offset - 1],
                inKoreanWord[offset]
            else { return true }
            let (before, after) = (scalars[offset - 1], scalars[offset])
            let hangulSide = isHangul(before) && (isHangul(after) || isLetterOrDigit(after))
                || isHangul(after) && isLetterOrDigit(before)
            return !(hangulSide || isLetterOrDigit(before) && isLetterOrDigit(after))
        }
    }

    static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.lineBreakClass {
        case .H2, .H3, .JL, .JV, .JT: return true
        default: return false
        }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.lineBreakClass {
        case .AL, .HL, .NU, .AI: return true
        default: return false
        }
    }
}
