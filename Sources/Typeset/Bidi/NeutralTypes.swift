// UAX #9 N0–N2: resolving paired brackets and other neutral types within one isolating run
// sequence.

extension BidiResolver {
    /// UAX #9 BD16: the deepest nesting of open brackets that is tracked.
    static let maxBracketDepth = 63

    /// UAX #9 N0: paired brackets take the embedding direction, or the direction of the
    /// strong text inside them when the context before agrees.
    func resolveBracketPairs(_ sequence: inout IsolatingRunSequence) {
        guard let scalars else { return }
        let indices = sequence.indices

        // BD16: find the pairs, by canonical equivalence, among characters still of type ON.
        var openers: [(closing: UInt32, position: Int)] = []
        var pairs: [(open: Int, close: Int)] = []
        scan: for k in indices.indices {
            let i = indices[k]
            guard sequence.types[k] == .ON, let bracket = Tables.brackets[scalars[i].value] else { continue }
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
                guard let strong = sequence.types[k].strongDirection else { continue }
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
                    if let strong = sequence.types[k].strongDirection {
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
                sequence.types[k] = resolved
                // Characters originally NSM right after a bracket follow its new type.
                var m = k + 1
                while m < indices.count && originalClasses[indices[m]] == .NSM {
                    sequence.types[m] = resolved
                    m += 1
                }
            }
        }
    }
}

extension BidiClass {
    /// N0 and N1 treat European and Arabic numbers as R.
    fileprivate var strongDirection: BidiClass? {
        switch self {
        case .L: return .L
        case .R, .AL, .EN, .AN: return .R
        default: return nil
        }
    }

    fileprivate var isNeutralOrIsolate: Bool {
        switch self {
        case .B, .S, .WS, .ON, .LRI, .RLI, .FSI, .PDI: return true
        default: return false
        }
    }
}

extension IsolatingRunSequence {
    /// UAX #9 N1–N2: a run of neutrals between strong types of one direction takes that
    /// direction (N1); otherwise the embedding direction (N2).
    mutating func resolveNeutralTypes() {
        let n = types.count
        var k = 0
        var before = sos
        while k < n {
            let type = types[k]
            guard type.isNeutralOrIsolate else {
                before = type.strongDirection ?? before
                k += 1
                continue
            }
            let start = k
            while k < n && types[k].isNeutralOrIsolate { k += 1 }
            let after = k < n ? (types[k].strongDirection ?? eos) : eos
            let resolved = before == after ? before : embeddingDirection
            for m in start..<k { types[m] = resolved }
        }
    }
}
