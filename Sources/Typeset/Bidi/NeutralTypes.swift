// UAX #9 N0–N2: resolving paired brackets and other neutral types within one isolating run
// sequence.

extension BidiResolver {
    /// UAX #9 BD16: the deepest nesting of open brackets that is tracked.
    static let maxBracketDepth = 63

    /// UAX #9 N0: paired brackets take the embedding direction, or the direction of the
    /// strong text inside them when the context before agrees.
    mutating func resolveBracketPairs(_ sequence: inout IsolatingRunSequence) {
        guard let scalars else { return }
        let indices = sequence.indices

        // BD16: find the pairs, by canonical equivalence, among characters still of type ON.
        var openers: [(closing: UInt32, position: Int)] = []
        var pairs: [(open: Int, close: Int)] = []
        scan: for k in indices.indices {
            let i = indices[k]
            guard types[i] == .ON, let bracket = Tables.brackets[scalars[i].value] else { continue }
            if bracket.opening {
                if openers.count == BidiResolver.maxBracketDepth { break scan }
                openers.append((Tables.openingBrackets[bracket.canonical] ?? 0, k))
            } else if let match = openers.lastIndex(where: { $0.closing == bracket.canonical }) {
                pairs.append((openers[match].position, k))
                openers.removeSubrange(match...)
            }
        }
        guard !pairs.isEmpty else { return }
        pairs.sort { $0.open < $1.open }

        let embedding = sequence.embeddingDirection
        for pair in pairs {
            var foundEmbedding = false
            var foundOpposite = false
            for k in (pair.open + 1)..<pair.close {
                guard let strong = strongDirection(types[indices[k]]) else { continue }
                if strong == embedding {
                    foundEmbedding = true
                    break
                }
                foundOpposite = true
            }
            let resolved: BidiClass
            if foundEmbedding {
                resolved = embedding  // N0 b
            } else if foundOpposite {
                // N0 c: the first strong type before the opening bracket, or sos.
                var context = sequence.sos
                var k = pair.open - 1
                while k >= 0 {
                    if let strong = strongDirection(types[indices[k]]) {
                        context = strong
                        break
                    }
                    k -= 1
                }
                resolved = context == embedding ? embedding : context
            } else {
                continue  // N0 d: no strong type inside
            }
            for k in [pair.open, pair.close] {
                types[indices[k]] = resolved
                // Characters originally NSM right after a bracket follow its new type.
                var m = k + 1
                while m < indices.count && originalClasses[indices[m]] == .NSM {
                    types[indices[m]] = resolved
                    m += 1
                }
            }
        }
    }

    /// N0 and N1 treat European and Arabic numbers as R.
    private func strongDirection(_ type: BidiClass) -> BidiClass? {
        switch type {
        case .L: return .L
        case .R, .AL, .EN, .AN: return .R
        default: return nil
        }
    }

    private func isNeutralOrIsolate(_ type: BidiClass) -> Bool {
        switch type {
        case .B, .S, .WS, .ON, .LRI, .RLI, .FSI, .PDI: return true
        default: return false
        }
    }

    /// UAX #9 N1–N2: a run of neutrals between strong types of one direction takes that
    /// direction (N1); otherwise the embedding direction (N2).
    mutating func resolveNeutralTypes(_ sequence: inout IsolatingRunSequence) {
        let indices = sequence.indices
        let n = indices.count
        var k = 0
        var before = sequence.sos
        while k < n {
            let type = types[indices[k]]
            guard isNeutralOrIsolate(type) else {
                before = strongDirection(type) ?? before
                k += 1
                continue
            }
            let start = k
            while k < n && isNeutralOrIsolate(types[indices[k]]) { k += 1 }
            let after = k < n ? (strongDirection(types[indices[k]]) ?? sequence.eos) : sequence.eos
            let resolved = before == after ? before : sequence.embeddingDirection
            for m in start..<k { types[indices[m]] = resolved }
        }
    }
}
