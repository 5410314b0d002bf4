// UAX #9 W1–W7: resolving weak types within one isolating run sequence.

extension IsolatingRunSequence {
    mutating func resolveWeakTypes() {
        let n = types.count

        // W1: NSM takes the type of the character before it (ON after an isolate initiator or
        // PDI), or sos at the start.
        var previous = sos
        for k in 0..<n {
            if types[k] == .NSM {
                types[k] = previous
            } else {
                previous = types[k]
            }
            if previous == .LRI || previous == .RLI || previous == .FSI || previous == .PDI {
                previous = .ON
            }
        }

        // W2: EN after AL (as the last strong type) becomes AN. W3: AL becomes R.
        var lastStrong = sos
        for k in 0..<n {
            switch types[k] {
            case .L, .R: lastStrong = types[k]
            case .AL:
                lastStrong = .AL
                types[k] = .R
            case .EN where lastStrong == .AL: types[k] = .AN
            default: break
            }
        }

        // W4: a single ES between ENs becomes EN; a single CS between two numbers of one type
        // becomes that type.
        if n >= 3 {
            for k in 1..<(n - 1) {
                let type = types[k]
                guard type == .ES || type == .CS else { continue }
                let before = types[k - 1]
                let after = types[k + 1]
                if before == .EN && after == .EN {
                    types[k] = .EN
                } else if type == .CS && before == .AN && after == .AN {
                    types[k] = .AN
                }
            }
        }

        // W5: a sequence of ETs next to an EN becomes EN.
        var k = 0
        while k < n {
            guard types[k] == .ET else {
                k += 1
                continue
            }
            let start = k
            while k < n && types[k] == .ET { k += 1 }
            let touchesEN = (start > 0 && types[start - 1] == .EN) || (k < n && types[k] == .EN)
            if touchesEN {
                for m in start..<k { types[m] = .EN }
            }
        }

        // W6: remaining separators and terminators become ON.
        for k in 0..<n {
            switch types[k] {
            case .ES, .ET, .CS: types[k] = .ON
            default: break
            }
        }

        // W7: EN after L (as the last strong type, or sos) becomes L.
        lastStrong = sos
        for k in 0..<n {
            switch types[k] {
            case .L, .R: lastStrong = types[k]
            case .EN where lastStrong == .L: types[k] = .L
            default: break
            }
        }
    }
}
