// UAX #9 BD9 and X1–X10: explicit embedding levels, and the isolating run sequences the later
// rules work on.

/// UAX #9 BD13: a sequence of level runs joined across isolates, resolved as one unit.
struct IsolatingRunSequence {
    /// Offsets in the paragraph, in logical order, without the characters X9 removed.
    var indices: [Int]
    /// The sequence's embedding level.
    var level: UInt8
    /// X10: start-of-sequence and end-of-sequence types (L or R).
    var sos: BidiClass
    var eos: BidiClass
    /// The embedding direction (L for even levels, R for odd).
    var embeddingDirection: BidiClass { level & 1 == 0 ? .L : .R }
}

/// One entry of the directional status stack (X1).
private struct DirectionalStatus {
    var level: UInt8
    var override: BidiClass?  // L or R under LRO/RLO
    var isolate: Bool
}

extension BidiResolver {
    /// UAX #9 BD9: matches each isolate initiator with its PDI, stopping at a paragraph separator.
    mutating func findMatchingIsolates() {
        var open: [Int] = []
        for i in originalClasses.indices {
            switch originalClasses[i] {
            case .LRI, .RLI, .FSI: open.append(i)
            case .PDI:
                if let initiator = open.popLast() {
                    matchingPDI[initiator] = i
                    matchingInitiator[i] = initiator
                }
            case .B: open.removeAll()
            default: break
            }
        }
    }

    /// UAX #9 X1–X9: the explicit levels, overrides applied to `types`, X9 removals marked.
    mutating func resolveExplicitLevels() {
        var stack: [DirectionalStatus] = [DirectionalStatus(level: baseLevel, override: nil, isolate: false)]
        stack.reserveCapacity(Int(BidiResolver.maxDepth) + 2)
        var overflowIsolates = 0
        var overflowEmbeddings = 0
        var validIsolates = 0

        func nextLevel(_ level: UInt8, odd: Bool) -> UInt8 {
            odd ? (level + 1) | 1 : (level + 2) & ~1
        }

        for i in originalClasses.indices {
            let type = originalClasses[i]
            switch type {
            case .RLE, .LRE, .RLO, .LRO:  // X2–X5
                let top = stack[stack.count - 1]
                let level = nextLevel(top.level, odd: type == .RLE || type == .RLO)
                if level <= BidiResolver.maxDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    let override: BidiClass? = type == .RLO ? .R : type == .LRO ? .L : nil
                    stack.append(DirectionalStatus(level: level, override: override, isolate: false))
                } else if overflowIsolates == 0 {
                    overflowEmbeddings += 1
                }
                levels[i] = top.level
                removed[i] = true  // X9

            case .RLI, .LRI, .FSI:  // X5a–X5c
                let top = stack[stack.count - 1]
                levels[i] = top.level
                if let override = top.override { types[i] = override }
                var rtl = type == .RLI
                if type == .FSI {
                    let end = matchingPDI[i] ?? originalClasses.count
                    rtl = BidiParagraph.firstStrongLevel(originalClasses, from: i + 1, to: end) == 1
                }
                let level = nextLevel(top.level, odd: rtl)
                if level <= BidiResolver.maxDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    validIsolates += 1
                    stack.append(DirectionalStatus(level: level, override: nil, isolate: true))
                } else {
                    overflowIsolates += 1
                }

            case .PDI:  // X6a
                if overflowIsolates > 0 {
                    overflowIsolates -= 1
                } else if validIsolates > 0 {
                    overflowEmbeddings = 0
                    while !stack[stack.count - 1].isolate { stack.removeLast() }
                    stack.removeLast()
                    validIsolates -= 1
                }
                let top = stack[stack.count - 1]
                levels[i] = top.level
                if let override = top.override { types[i] = override }

            case .PDF:  // X7
                if overflowIsolates > 0 {
                } else if overflowEmbeddings > 0 {
                    overflowEmbeddings -= 1
                } else if !stack[stack.count - 1].isolate && stack.count >= 2 {
                    stack.removeLast()
                }
                levels[i] = stack[stack.count - 1].level
                removed[i] = true  // X9

            case .B:  // X8: a paragraph separator ends every embedding, override and isolate.
                levels[i] = baseLevel
                stack.removeSubrange(1...)
                overflowIsolates = 0
                overflowEmbeddings = 0
                validIsolates = 0

            case .BN:  // X9
                levels[i] = stack[stack.count - 1].level
                removed[i] = true

            default:  // X6
                let top = stack[stack.count - 1]
                levels[i] = top.level
                if let override = top.override { types[i] = override }
            }
        }
    }

    /// UAX #9 X10 (BD13): level runs of the characters X9 kept, joined into isolating run
    /// sequences, each with its sos and eos.
    func isolatingRunSequences() -> [IsolatingRunSequence] {
        // Level runs over the kept characters.
        var runs: [[Int]] = []
        var current: [Int] = []
        var currentLevel: UInt8 = 0
        for i in originalClasses.indices where !removed[i] {
            if current.isEmpty || levels[i] == currentLevel {
                current.append(i)
            } else {
                runs.append(current)
                current = [i]
            }
            currentLevel = levels[i]
        }
        if !current.isEmpty { runs.append(current) }

        // The run each character starts (-1: none), so that a matching PDI finds its run.
        var runStartingAt = [Int](repeating: -1, count: originalClasses.count)
        for (r, run) in runs.enumerated() { runStartingAt[run[0]] = r }

        var sequences: [IsolatingRunSequence] = []
        for run in runs {
            // A run that starts with a PDI matching an initiator continues an earlier sequence.
            if originalClasses[run[0]] == .PDI, matchingInitiator[run[0]] != nil { continue }
            var indices = run
            while let last = indices.last, isIsolateInitiator(originalClasses[last]),
                let pdi = matchingPDI[last], runStartingAt[pdi] >= 0
            {
                indices += runs[runStartingAt[pdi]]
            }
            sequences.append(makeSequence(indices))
        }
        return sequences
    }

    private func isIsolateInitiator(_ type: BidiClass) -> Bool {
        type == .LRI || type == .RLI || type == .FSI
    }

    private func makeSequence(_ indices: [Int]) -> IsolatingRunSequence {
        let first = indices[0]
        let last = indices[indices.count - 1]
        let level = levels[first]
        var before = baseLevel
        var j = first - 1
        while j >= 0 {
            if !removed[j] { before = levels[j]; break }
            j -= 1
        }
        // eos: an isolate initiator at the end (one without a matching PDI, or the sequence
        // would go on) compares with the paragraph level.
        var after = baseLevel
        if !isIsolateInitiator(originalClasses[last]) {
            var k = last + 1
            while k < levels.count {
                if !removed[k] { after = levels[k]; break }
                k += 1
            }
        }
        let sos: BidiClass = max(level, before) & 1 == 0 ? .L : .R
        let eos: BidiClass = max(level, after) & 1 == 0 ? .L : .R
        return IsolatingRunSequence(indices: indices, level: level, sos: sos, eos: eos)
    }
}
