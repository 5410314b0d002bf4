// UAX #9 L1–L2: the levels of one line and its visual order.

extension BidiParagraph {
    /// The levels of the line `range` after UAX #9 L1: segment and paragraph separators, and
    /// white space and isolate formatting characters before them or at the line's end, return
    /// to the paragraph level. Characters X9 removed count as white space here.
    public func lineLevels(_ range: Range<Int>) -> [UInt8] {
        var result = Array(levels[range])
        var trailing = true  // in a run of white space that reaches a separator or the line end
        var i = range.upperBound - 1
        while i >= range.lowerBound {
            switch originalClasses[i] {
            case .S, .B:
                result[i - range.lowerBound] = baseLevel
                trailing = true
            case .WS, .LRI, .RLI, .FSI, .PDI:
                if trailing { result[i - range.lowerBound] = baseLevel }
            default:
                if originalClasses[i].isRemovedByX9 {
                    if trailing { result[i - range.lowerBound] = baseLevel }
                } else {
                    trailing = false
                }
            }
            i -= 1
        }
        return result
    }

    /// The line `range` as runs of one level, in visual order from left to right (UAX #9 L2).
    /// `hyphenated`: the line ends in a soft hyphen shown as a hyphen, which belongs to the word
    /// it breaks and keeps its level from before L1, the level of the character before it (X9
    /// removed it), as browsers and Pango show it: L1 would give it the paragraph's, and an
    /// English word broken in an Arabic line read "-inter". So do the characters X9 removed
    /// just before it (a ZWNJ), which would otherwise part the hyphen from its word.
    public func visualRuns(_ range: Range<Int>, hyphenated: Bool = false) -> [BidiRun] {
        guard !range.isEmpty else { return [] }
        var lineLevels = lineLevels(range)
        if hyphenated {
            var k = range.upperBound - 1
            repeat {
                lineLevels[k - range.lowerBound] = levels[k]
                k -= 1
            } while k >= range.lowerBound && originalClasses[k].isRemovedByX9
        }
        var runs: [BidiRun] = []
        var start = 0
        for k in 1...lineLevels.count where k == lineLevels.count || lineLevels[k] != lineLevels[start] {
            runs.append(BidiRun(
                scalarRange: (range.lowerBound + start)..<(range.lowerBound + k), level: lineLevels[start]))
            start = k
        }
        if runs.count > 1 { BidiParagraph.reverseByLevel(&runs, levels: runs.map { $0.level }) }
        return runs
    }

    /// The logical offsets of the line's characters in visual order, left to right (L2).
    public func visualOrder(_ range: Range<Int>) -> [Int] {
        var order = Array(range)
        BidiParagraph.reverseByLevel(&order, levels: lineLevels(range))
        return order
    }

    /// UAX #9 L2: from the highest level down to the lowest odd level, reverses every
    /// contiguous sequence of elements at that level or higher.
    static func reverseByLevel<T>(_ items: inout [T], levels: [UInt8]) {
        guard let highest = levels.max() else { return }
        let lowestOdd = (levels.min() ?? 0) | 1
        guard highest >= lowestOdd else { return }
        var levels = levels
        var level = highest
        while level >= lowestOdd {
            var k = 0
            while k < items.count {
                guard levels[k] >= level else {
                    k += 1
                    continue
                }
                let start = k
                while k < items.count && levels[k] >= level { k += 1 }
                items[start..<k].reverse()
                levels[start..<k].reverse()
            }
            level -= 1
        }
    }
}
