// UAX #9 W1–W7: resolving weak types within one isolating run sequence.

extension BidiResolver {
    mutating func resolveWeakTypes(_ sequence: inout IsolatingRunSequence) {
        let indices = sequence.indices
        let n = indices.count

        // W1: NSM takes the type of the character before it (ON after an isolate initiator or
        // PDI), or sos at the start.
        var previous = sequence.sos
        for i in indices {
            if types[i] == .NSM {
                types[i] = previous
            } else {
                previous = types[i]
            }
            if previous == .LRI || previous == .RLI || previous == .FSI || previous == .PDI {
                previous = .ON
            }
        }

        // W2: EN after AL (as the last strong type) becomes AN. W3: AL becomes R.
        var lastStrong = sequence.sos
        for i in indices {
            switch types[i] {
            case .L, .R: lastStrong = types[i]
            case .AL:
                lastStrong = .AL
                types[i] = .R
            case .EN where lastStrong == .AL: types[i] = .AN
            default: break
            }
        }

        // W4: a single ES between ENs becomes EN; a single CS between two numbers of one type
        // becomes that type.
        if n >= 3 {
            for k in 1..<(n - 1) {
                let type = types[indices[k]]
                guard type == .ES || type == .CS else { continue }
                let before = types[indices[k - 1]]
                let after = types[indices[k + 1]]
                if before == .EN && after == .EN {
                    types[indices[k]] = .EN
                } else if type == .CS && before == .AN && after == .AN {
                    types[indices[k]] = .AN
                }
            }
        }

        // W5: a sequence of ETs next to an EN becomes EN.
        var k = 0
        while k < n {
            guard types[indices[k]] == .ET else {
                k += 1
                continue
            }
            let start = k
            while k < n && types[indices[k]] == .ET { k += 1 }
            let touchesEN = (start > 0 && types[indices[start - 1]] == .EN)
                || (k < n && types[indices[k]] == .EN)
            if touchesEN {
                for m in start..<k { types[indices[m]] = .EN }
            }
        }

        // W6: remaining separators and terminators become ON.
        for i in indices {
            switch types[i] {
            case .ES, .ET, .CS: types[i] = .ON
            default: break
            }
        }

        // W7: EN after L (as the last strong type, or sos) becomes L.
        lastStrong = sequence.sos
        for i in indices {
            switch types[i] {
            case .L, .R: lastStrong = types[i]
            case .EN where lastStrong == .L: types[i] = .L
            default: break
            }
        }
    }
}
