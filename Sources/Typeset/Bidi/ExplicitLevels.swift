// UAX #9 BD9 and X1–X10: explicit embedding levels, and the isolating run sequences the later
// rules work on.

/// UAX #9 BD13: a sequence of level runs joined across isolates, resolved as one unit.
struct IsolatingRunSequence {
    /// Offsets in the paragraph, in logical order, without the characters X9 removed.
    var indices: [Int]
    /// The classes of those characters (after X6 overrides), resolved in place by W1–N2: a
    /// copy, so that the rules read neighbours without going through `indices`.
    var types: [BidiClass]
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
                    matchedPDIs.insert(i)
                }
            case .B: open.removeAll()
            default: break
            }
        }
    }

    /// X5c for every FSI of the paragraph at once: the FSIs whose isolate's first strong
    /// character (P2–P3: nested isolates skipped, none past a paragraph separator) is R or AL.
    /// One pass from the end: a scan from each FSI to its PDI made nested FSIs quadratic
    /// (80,000 of them took 85 s).
    func rightToLeftFSIs() -> Set<Int> {
        // One frame per isolate the pass is inside, innermost last, with the first strong
        // character found in it so far (the latest seen, going backwards) and where it is. The
        // isolates of initiators without a PDI run to the end: their frames are open from there.
        var frames: [(rtl: Bool, at: Int)?] = [nil]
        for i in originalClasses.indices where [.LRI, .RLI, .FSI].contains(originalClasses[i]) && matchingPDI[i] == nil {
            frames.append(nil)
        }
        var separator = originalClasses.count  // the nearest B after the position
        var result = Set<Int>()
        for i in originalClasses.indices.reversed() {
            switch originalClasses[i] {
            case .L: frames[frames.count - 1] = (false, i)
            case .R, .AL: frames[frames.count - 1] = (true, i)
            case .PDI where matchedPDIs.contains(i): frames.append(nil)
            case .LRI, .RLI, .FSI:
                guard frames.count > 1 else { break }  // each initiator closes the frame its PDI (or the end) opened
                let first = frames.removeLast()
                if originalClasses[i] == .FSI, let first, first.rtl, first.at < separator { result.insert(i) }
            case .B: separator = i
            default: break
            }
        }
        return result
    }

    /// UAX #9 X1–X9: the explicit levels, overrides applied to `types`, X9 removals marked.
    mutating func resolveExplicitLevels() {
        var stack: [DirectionalStatus] = [DirectionalStatus(level: baseLevel, override: nil, isolate: false)]
        stack.reserveCapacity(Int(BidiResolver.maxDepth) + 2)
        var overflowIsolates = 0
        var overflowEmbeddings = 0
        var validIsolates = 0
        var rightToLeftFSI: Set<Int>?

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
                levels[i] = top.level  // removed by X9

            case .RLI, .LRI, .FSI:  // X5a–X5c
                let top = stack[stack.count - 1]
                levels[i] = top.level
                if let override = top.override { types[i] = override }
                var rtl = type == .RLI
                if type == .FSI {
                    if rightToLeftFSI == nil { rightToLeftFSI = rightToLeftFSIs() }  // at the first FSI
                    rtl = rightToLeftFSI?.contains(i) == true
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
                levels[i] = stack[stack.count - 1].level  // removed by X9

            case .B:  // X8: a paragraph separator ends every embedding, override and isolate.
                levels[i] = baseLevel
                stack.removeSubrange(1...)
                overflowIsolates = 0
                overflowEmbeddings = 0
                validIsolates = 0

            case .BN:  // removed by X9
                levels[i] = stack[stack.count - 1].level

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
        // Level runs over the kept characters, from the first kept character of each to one
        // past its last (removed characters inside are skipped later).
        var runs: [Range<Int>] = []
        var start = -1
        var last = -1
        for i in originalClasses.indices where !originalClasses[i].isRemovedByX9 {
            if start >= 0 && levels[i] != levels[start] {
                runs.append(start..<(last + 1))
                start = i
            }
            if start < 0 { start = i }
            last = i
        }
        if start >= 0 { runs.append(start..<(last + 1)) }

        var sequences: [IsolatingRunSequence] = []
        sequences.reserveCapacity(runs.count)
        for run in runs {
            // A run that starts with a PDI matching an initiator continues an earlier sequence.
            if originalClasses[run.lowerBound] == .PDI, matchedPDIs.contains(run.lowerBound) { continue }
            var pieces = [run]
            // A run ending in an initiator goes on with the run its matching PDI starts.
            while let end = pieces.last?.upperBound, isIsolateInitiator(originalClasses[end - 1]),
                let pdi = matchingPDI[end - 1], let next = levelRun(startingAt: pdi, in: runs)
            {
                pieces.append(next)
            }
            sequences.append(makeSequence(pieces))
        }
        return sequences
    }

    /// The level run that starts at `offset`, if one does (runs are in order: binary search).
    private func levelRun(startingAt offset: Int, in runs: [Range<Int>]) -> Range<Int>? {
        let k = runs.partitionPoint { $0.lowerBound < offset }
        return k < runs.count && runs[k].lowerBound == offset ? runs[k] : nil
    }

    private func isIsolateInitiator(_ type: BidiClass) -> Bool {
        type == .LRI || type == .RLI || type == .FSI
    }

    private func makeSequence(_ runs: [Range<Int>]) -> IsolatingRunSequence {
        var indices: [Int] = []
        indices.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        for run in runs {
            for i in run where !originalClasses[i].isRemovedByX9 { indices.append(i) }
        }
        let first = indices[0]
        let last = indices[indices.count - 1]
        let level = levels[first]
        var before = baseLevel
        var j = first - 1
        while j >= 0 {
            if !originalClasses[j].isRemovedByX9 { before = levels[j]; break }
            j -= 1
        }
        // eos: an isolate initiator at the end (one without a matching PDI, or the sequence
        // would go on) compares with the paragraph level.
        var after = baseLevel
        if !isIsolateInitiator(originalClasses[last]) {
            var k = last + 1
            while k < levels.count {
                if !originalClasses[k].isRemovedByX9 { after = levels[k]; break }
                k += 1
            }
        }
        let sos: BidiClass = max(level, before) & 1 == 0 ? .L : .R
        let eos: BidiClass = max(level, after) & 1 == 0 ? .L : .R
        return IsolatingRunSequence(
            indices: indices, types: indices.map { types[$0] }, level: level, sos: sos, eos: eos)
    }
}
