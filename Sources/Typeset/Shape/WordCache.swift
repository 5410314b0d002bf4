// Shaped words that repeat (issue 8): a run none of whose words is new is put together from the
// words' glyphs instead of being shaped again.
//
// Why this is exact: cut a run after a space (U+0020) and the two sides shape as they did
// together, when the font has no GSUB or GPOS lookup that reads the space glyph (then no
// substitution, ligature, kerning or mark attachment reaches across it) and no legacy `kern` or
// AAT table, and since a space is non-joining (Arabic letters do not join across it). Such a
// word's glyphs depend on its characters, font, direction, script, language and features only,
// whatever surrounds it. Browsers cache words on the same condition (Firefox's
// `gfxFont::CheckForFeaturesInvolvingSpace`, Chromium's word shape cache).
//
// Words are learned from runs HarfBuzz shaped whole: shaping each word by itself costs far more
// on text not seen before (one HarfBuzz call per word; +70% on one real document when tried),
// while cutting a shaped run into words costs a hash and a copy each. A run is looked up word by
// word. When it lacks words in one or two stretches (a number, a name in a sentence seen
// before), only those stretches go to HarfBuzz, each cut at word ends on both sides, so shaped
// as the whole run would shape them; else the whole run goes.

import CHarfBuzz

/// The words a run can be cut into: after every space that a character starting a new grapheme
/// cluster follows (a mark or joiner after a space belongs to it). Offsets index `scalars`.
struct RunWords {
    let scalars: [Unicode.Scalar]
    let range: Range<Int>

    /// Whether the run's own ends are word ends: the text beyond each is nothing or a space, so
    /// HarfBuzz's context there cannot matter (see the top of the file).
    var hasWordEnds: Bool {
        let start = range.lowerBound
        let end = range.upperBound
        let startIsFree = start == 0 || scalars[start - 1] == " " || scalars[start] == " "
        let endIsFree = end == scalars.count || scalars[end] == " " || scalars[end - 1] == " "
        return startIsFree && endIsFree
    }

    /// Calls `body` with each word's range, in logical order, until it returns false; false if
    /// it did.
    @inline(__always)
    func forEach(_ body: (Range<Int>) -> Bool) -> Bool {
        var start = range.lowerBound
        var i = start + 1
        while i < range.upperBound {
            if scalars[i - 1] == " " && scalars[i] != " " && Self.startsCluster(scalars[i]) {
                guard body(start..<i) else { return false }
                start = i
            }
            i += 1
        }
        return body(start..<range.upperBound)
    }

    @inline(__always)
    static func startsCluster(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x300 || (scalar.graphemeClusterBreak == .other && !scalar.isDefaultIgnorable)
    }
}

/// Shaped words in font units, clusters relative to the word's start, glyphs in HarfBuzz's output
/// order (right-to-left words reversed). Characters and glyphs are kept in two flat arrays and
/// words index them, found through an open-addressing table: learning or finding a word
/// allocates nothing. Emptied when it holds `capacity` glyphs, like the run cache. Not
/// thread-safe: `Shaper` keeps it behind a `Locked`.
struct WordCache {
    /// What a word is shaped with, apart from its characters: font, direction, script, language
    /// and features.
    typealias Setting = Shaper.Request

    private struct Word {
        var hash: Int
        var setting: Int32
        var textStart: Int32
        var textCount: Int32
        var glyphStart: Int32
        var glyphCount: Int32
    }

    private var settings: [Setting] = []
    private var words: [Word] = []
    private var text: [Unicode.Scalar] = []
    private var glyphs: [GlyphInFontUnits] = []
    /// Indices into `words` + 1 (0: empty), at `hash & (slots.count - 1)` or the next free one;
    /// at most half full.
    private var slots: [Int32]
    let capacity: Int
    private var scratch: [(start: Int32, word: Word)] = []
    /// Runs put together (for tests: that the cache is used at all).
    private(set) var runsPutTogether = 0
    /// Of those, runs whose new words HarfBuzz shaped by themselves (Shaper counts them).
    var runsWithNewWordsShaped = 0

    init(capacity: Int) {
        self.capacity = capacity
        slots = [Int32](repeating: 0, count: 1024)
        // Its glyphs at their most (a run longer than that is the exception): grown by doubling,
        // the array took 32,768 glyphs' room (786 KB) for 20,000, and memory grew with the
        // number of documents until about the 4,000th.
        glyphs.reserveCapacity(capacity)
    }

    /// The index of `setting` among those seen (few: one per font, direction, script and language).
    private mutating func index(of setting: Setting) -> Int32 {
        if let known = settings.firstIndex(of: setting) { return Int32(known) }
        settings.append(setting)
        return Int32(settings.count - 1)
    }

    /// FNV-1a over the characters and the setting: cheap, and good enough for a table half full at most.
    private static func hash(_ scalars: UnsafeBufferPointer<Unicode.Scalar>, _ word: Range<Int>, _ setting: Int32)
        -> Int
    {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(setting)
        for i in word {
            hash = (hash ^ UInt64(scalars[i].value)) &* 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The slot of the word, or of the free slot where it goes.
    private func slot(_ scalars: UnsafeBufferPointer<Unicode.Scalar>, _ word: Range<Int>, _ setting: Int32, _ hash: Int)
        -> (slot: Int, found: Word?)
    {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let candidate = words[Int(slots[slot]) - 1]
            if candidate.hash == hash, candidate.setting == setting, Int(candidate.textCount) == word.count,
                text[Int(candidate.textStart)...].prefix(word.count).elementsEqual(scalars[word])
            {
                return (slot, candidate)
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// What the cache holds of a run: all its words, put together, or the stretches of words it
    /// lacks.
    enum Lookup {
        /// The run's glyphs, clusters relative to the run's start.
        case glyphs([GlyphInFontUnits])
        /// The ranges (in `scalars`) of consecutive words not known, in logical order; each starts
        /// and ends at a word end.
        case missing([Range<Int>])
    }

    /// The run put together from known words, or the words it lacks.
    mutating func lookUp(_ run: RunWords, _ setting: Setting) -> Lookup {
        guard capacity > 0, !words.isEmpty else { return .missing([run.range]) }
        let settingIndex = index(of: setting)
        // The words found, with their offsets in the run: a scratch array kept from run to run.
        var found: [(start: Int32, word: Word)] = []
        swap(&found, &scratch)  // unique, so cleared in place
        found.removeAll(keepingCapacity: true)
        defer { swap(&found, &scratch) }
        var missing: [Range<Int>] = []
        var count = 0
        run.scalars.withUnsafeBufferPointer { scalars in
            _ = run.forEach { word in
                if let known = slot(scalars, word, settingIndex, Self.hash(scalars, word, settingIndex)).found {
                    found.append((Int32(word.lowerBound - run.range.lowerBound), known))
                    count += Int(known.glyphCount)
                } else if let last = missing.last, last.upperBound == word.lowerBound {
                    missing[missing.count - 1] = last.lowerBound..<word.upperBound
                } else {
                    missing.append(word)
                }
                return true
            }
        }
        guard missing.isEmpty else { return .missing(missing) }
        runsPutTogether += 1
        var result: [GlyphInFontUnits] = []
        result.reserveCapacity(count)
        // HarfBuzz gives a right-to-left run's glyphs reversed: its last word's first.
        for k in found.indices {
            let (start, word) = setting.rightToLeft ? found[found.count - 1 - k] : found[k]
            for i in Int(word.glyphStart)..<Int(word.glyphStart + word.glyphCount) {
                var glyph = glyphs[i]
                glyph.cluster += start
                result.append(glyph)
            }
        }
        return .glyphs(result)
    }

    /// Learns the words of a run (or of a stretch of a run's words) HarfBuzz shaped whole
    /// (`shaped`, clusters relative to the run's start). Nothing is learned when a word's
    /// glyphs are not a block of their own: clusters out of order, or HarfBuzz saying a cut at
    /// a word's start would change the glyphs.
    mutating func learn(_ run: RunWords, _ shaped: [GlyphInFontUnits], _ setting: Setting) {
        guard shaped.count <= capacity else { return }
        let rightToLeft = setting.rightToLeft
        let base = run.range.lowerBound
        // Logical order: a right-to-left run's glyphs from the last.
        func glyph(_ k: Int) -> GlyphInFontUnits { shaped[rightToLeft ? shaped.count - 1 - k : k] }
        for k in shaped.indices.dropFirst() where glyph(k).cluster < glyph(k - 1).cluster { return }
        // The logical index after the glyphs of `word`, whose first glyph is at `start`.
        func end(of word: Range<Int>, from start: Int) -> Int {
            var end = start
            while end < shaped.count && Int(glyph(end).cluster) + base < word.upperBound { end += 1 }
            return end
        }
        var next = 0  // logical index of the first glyph not yet taken
        let cutsCleanly = run.forEach { word in
            let start = next
            next = end(of: word, from: start)
            return start < next && Int(glyph(start).cluster) + base == word.lowerBound
                && (start == 0 || !glyph(start).unsafeToBreak)
        }
        guard cutsCleanly, next == shaped.count else { return }
        if glyphs.count + shaped.count > capacity { removeAll() }

        let settingIndex = index(of: setting)
        next = 0
        run.scalars.withUnsafeBufferPointer { scalars in
            _ = run.forEach { word in
                let start = next
                next = end(of: word, from: start)
                if 2 * (words.count + 1) > slots.count { growTable() }  // at most half full
                let hash = Self.hash(scalars, word, settingIndex)
                let (slot, known) = slot(scalars, word, settingIndex, hash)
                guard known == nil else { return true }
                // The word's glyphs in output order, as HarfBuzz gives them for the word alone.
                let block = rightToLeft ? (shaped.count - next)..<(shaped.count - start) : start..<next
                let shift = Int32(word.lowerBound - base)
                words.append(
                    Word(
                        hash: hash, setting: settingIndex, textStart: Int32(text.count), textCount: Int32(word.count),
                        glyphStart: Int32(glyphs.count), glyphCount: Int32(block.count)))
                text.append(contentsOf: scalars[word])
                for i in block {
                    var glyph = shaped[i]
                    glyph.cluster -= shift
                    glyphs.append(glyph)
                }
                slots[slot] = Int32(words.count)
                return true
            }
        }
    }

    /// Twice the slots, the words placed again.
    private mutating func growTable() {
        slots = [Int32](repeating: 0, count: 2 * slots.count)
        let mask = slots.count - 1
        for (index, word) in words.enumerated() {
            var slot = word.hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    private mutating func removeAll() {
        words.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        glyphs.removeAll(keepingCapacity: true)
        settings.removeAll(keepingCapacity: true)
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
}

extension HarfBuzzFont {
    /// Whether the font's layout can reach across a space (see the top of the file): a GSUB or
    /// GPOS lookup whose glyphs (before, input, after or output) include the space glyph, a
    /// legacy `kern` table or AAT tables, or no space glyph at all.
    var layoutReadsSpace: Bool {
        var space: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, 0x20, &space) != 0 else { return true }
        // HarfBuzz applies these itself, with no lookups to look into.
        if ["kern", "kerx", "morx", "mort"].contains(where: { tableLength($0) > 0 }) { return true }

        let sets = (0..<4).map { _ in hb_set_create() }
        defer { sets.forEach { hb_set_destroy($0) } }
        // Every lookup of the table, whether a feature uses it or not: a superset of those
        // applied, found without going through the script and feature lists.
        for table in [Self.tag("GSUB"), Self.tag("GPOS")] {
            for lookup in 0..<hb_ot_layout_table_get_lookup_count(face, table) {
                sets.forEach { hb_set_clear($0) }
                hb_ot_layout_lookup_collect_glyphs(face, table, lookup, sets[0], sets[1], sets[2], sets[3])
                if sets.contains(where: { hb_set_has($0, space) != 0 }) { return true }
            }
        }
        return false
    }
}
