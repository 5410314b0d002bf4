// Line breaks inside the words of scripts written without spaces between words: Thai, Lao,
// Khmer, Myanmar, Tai Tham, Tai Viet and others, whose letters and marks are Line_Break SA.
// UAX #14's default algorithm resolves SA to AL (LB1), so a run of them breaks only at its
// spaces, and a sentence wider than its line was broken between letters with a warning
// ("ภาษาไทยเป็นภาษาที่ไม่มีก|ารเว้น": the word การ cut after its first letter). UAX #14 leaves
// these runs to a dictionary; ICU's line break iterator has one for each script. `LineBreaker`
// stays the default algorithm, which LineBreakTest.txt checks (its SA cases take LB1).
//
// ICU is the toolchain's own copy (`_FoundationICU`, which FoundationInternationalization is
// built on; linked into the release binary with its data, about 30 MB). Its C functions are
// renamed with a `swift_` prefix (urename.h), and Swift imports them by that name.

import _FoundationICU

enum DictionaryBreaks {
    /// `opportunities`, LineBreaker's for `scalars`, with the word boundaries ICU finds inside
    /// each run of SA characters, in increasing order of offset. Text without such a run (one
    /// comparison a character for text below U+0E00) comes back as it was.
    static func adding(to opportunities: [BreakOpportunity], in scalars: [Unicode.Scalar]) -> [BreakOpportunity] {
        var found: [Int] = []
        var iterator = iterators.withLock { $0.popLast() }
        defer { if let iterator { iterators.withLock { $0.append(iterator) } } }
        var index = 0
        while index < scalars.count {
            guard isSouthEastAsian(scalars[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count && isSouthEastAsian(scalars[index]) { index += 1 }
            guard index - start > 1 else { continue }
            found += wordStarts(in: scalars[start..<index], iterator: &iterator)
        }
        guard !found.isEmpty else { return opportunities }
        // Both in increasing order: merged, a boundary UAX #14 already allows kept once.
        var merged: [BreakOpportunity] = []
        merged.reserveCapacity(opportunities.count + found.count)
        var next = 0
        for opportunity in opportunities {
            while next < found.count && found[next] <= opportunity.offset {
                if found[next] < opportunity.offset {
                    merged.append(BreakOpportunity(offset: found[next], isMandatory: false))
                }
                next += 1
            }
            merged.append(opportunity)
        }
        return merged
    }

    /// Iterators opened before, each given the next paragraph's text: opening one looks up
    /// ICU's rules and makes its caches anew. As many as paragraphs were set at once (`--jobs`).
    private static let iterators = Locked<[OpaquePointer]>([])

    /// Whether text in `script` may hold SA characters (all of them are in these nine scripts,
    /// Unicode 15.0): a paragraph none of whose items is in one is not looked through.
    static func writesWordsWithoutSpaces(_ script: Script) -> Bool { dictionaryScripts[Int(script.index)] }

    private static let dictionaryScripts: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for code in ["Thai", "Laoo", "Mymr", "Khmr", "Tale", "Talu", "Lana", "Tavt", "Ahom"] {
            if let script = Script(code: code) { table[Int(script.index)] = true }
        }
        return table
    }()

    /// Whether `scalar` is Line_Break SA. The blocks that hold SA characters lie in
    /// U+0E00..U+1AAF, U+A9E0..U+AADF and U+11700..U+1174F (Unicode 15.0).
    @inline(__always)
    static func isSouthEastAsian(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0xE00 else { return false }
        guard value < 0x1AB0 || value &- 0xA9E0 < 0x100 || value &- 0x11700 < 0x50 else { return false }
        return scalar.lineBreakClass == .SA
    }

    /// The offsets in the text of the words after the first in `run` (a run of SA characters),
    /// as ICU's line break iterator finds them; none if ICU fails. `iterator` is opened when
    /// there is none yet, else given the run's text.
    private static func wordStarts(in run: ArraySlice<Unicode.Scalar>, iterator: inout OpaquePointer?) -> [Int] {
        var utf16: [UInt16] = []
        // The scalar that starts at each UTF-16 offset (Ahom's letters take two units).
        var scalarAt: [Int] = []
        utf16.reserveCapacity(run.count)
        scalarAt.reserveCapacity(run.count + 1)
        for (i, scalar) in zip(run.indices, run) {
            for unit in UTF16.encode(scalar)! {
                utf16.append(unit)
                scalarAt.append(i)
            }
        }
        scalarAt.append(run.endIndex)
        var status = U_ZERO_ERROR
        return utf16.withUnsafeBufferPointer { text -> [Int] in
            if let iterator {
                swift_ubrk_setText(iterator, text.baseAddress, Int32(text.count), &status)
            } else {
                iterator = swift_ubrk_open(UBRK_LINE, "", text.baseAddress, Int32(text.count), &status)
            }
            guard status.rawValue <= U_ZERO_ERROR.rawValue, let iterator else { return [] }
            var starts: [Int] = []
            var boundary = swift_ubrk_following(iterator, 0)
            while boundary != UBRK_DONE && Int(boundary) < text.count {
                starts.append(scalarAt[Int(boundary)])
                boundary = swift_ubrk_next(iterator)
            }
            return starts
        }
    }
}
