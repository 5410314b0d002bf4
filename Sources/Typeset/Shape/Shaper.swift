// HarfBuzz shaping of one font run, and font metrics in points (SPEC §1 pipeline: shaping;
// NOTES: HarfBuzz and Cairo together).

import CHarfBuzz

/// One glyph of a shaped run. Positions are in points, y up as HarfBuzz gives them.
public struct ShapedGlyph: Hashable, Sendable {
    /// Glyph id in the run's font (0 is .notdef).
    public var id: UInt32
    /// Scalar offset in the paragraph of the first character this glyph belongs to.
    public var cluster: Int
    /// Horizontal advance in points.
    public var advance: Double
    public var xOffset: Double
    public var yOffset: Double
    /// HarfBuzz's UNSAFE_TO_BREAK: breaking the text at the start of this glyph's cluster and
    /// shaping the two sides apart would give different glyphs, so reshape after such a break.
    public var unsafeToBreak: Bool

    /// The id HarfBuzz gives a default-ignorable character it hides (ZWNJ, ZWJ, LRM, a soft
    /// hyphen, a variation selector the font has no variant for), with no advance: no glyph of
    /// any font. By default HarfBuzz draws the space glyph there, which a PDF's text then reads
    /// as a space: Persian, with a ZWNJ in most words, came out of a PDF in pieces. The lines
    /// leave these out (`ParagraphLayouter.shownGlyphs`).
    public static let invisible: UInt32 = 0xFFFF_FFFF
    public var isInvisible: Bool { id == ShapedGlyph.invisible }

    public init(id: UInt32, cluster: Int, advance: Double, xOffset: Double, yOffset: Double, unsafeToBreak: Bool) {
        self.id = id
        self.cluster = cluster
        self.advance = advance
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.unsafeToBreak = unsafeToBreak
    }
}

/// A run shaped in one face, size and direction.
public struct ShapedRun: Hashable, Sendable {
    public let face: FontFace
    /// Point size.
    public let size: Double
    public let rightToLeft: Bool
    /// Scalar offsets in the paragraph.
    public let range: Range<Int>
    /// Glyphs in visual order (HarfBuzz output order: right to left runs come out reversed, so
    /// the first glyph of an RTL run is its last character's).
    public let glyphs: [ShapedGlyph]
    /// The sum of the glyphs' advances, in points (summed when asked: layout reads the glyphs).
    public var advance: Double { glyphs.reduce(0) { $0 + $1.advance } }

    public init(face: FontFace, size: Double, rightToLeft: Bool, range: Range<Int>, glyphs: [ShapedGlyph]) {
        self.face = face
        self.size = size
        self.rightToLeft = rightToLeft
        self.range = range
        self.glyphs = glyphs
    }
}

/// Vertical metrics of a face at a size, in points, y up (descent is negative).
public struct FontMetrics: Hashable, Sendable {
    public var unitsPerEm: Int
    /// Horizontal ascender and descender as HarfBuzz reads them (OS/2 typo metrics when the
    /// font asks for them, else hhea).
    public var ascent: Double
    public var descent: Double
    public var lineGap: Double
    /// OS/2 sCapHeight and sxHeight (Noto Sans Hebrew's x-height is Latin's: measure glyphs).
    public var capHeight: Double
    public var xHeight: Double
}

/// A glyph's ink box in points, y up: `yBearing` is the top, `height` is negative.
public struct GlyphExtents: Hashable, Sendable {
    public var xBearing: Double
    public var yBearing: Double
    public var width: Double
    public var height: Double
}

/// Shapes text with HarfBuzz. One immutable `hb_font` per font file and face index is cached
/// for the life of the process (fonts are scaled to their units per em and results converted
/// with the point size, so one font serves every size).
///
/// Shaped runs are cached in font units, keyed by everything HarfBuzz's output depends on: the
/// run's characters, the paragraph context HarfBuzz reads around it, font, direction, script,
/// language and features. The same run at another size (a sheet's text sizes), in another page
/// or reshaped by the line breaker costs a hash and a copy. A run not seen before whose words all
/// were is put together from them (WordCache.swift): words are learned from runs HarfBuzz
/// shaped whole, since shaping each word apart lost on text not seen (+70% on one real document).
///
/// Thread safety: `Shaper` is `Sendable`. HarfBuzz fonts are immutable once made and shared;
/// each call takes its own `hb_buffer` from a small pool guarded by a `Locked`; the run cache is
/// another `Locked`, never held while shaping.
public final class Shaper: Sendable {
    /// For tests and library users: a `Typesetter` makes its own.
    public static let shared = Shaper()

    private let buffers = Locked<[HarfBuzzBuffer]>([])
    /// Buffers kept for reuse: one per thread shaping at once is enough.
    private static let pooledBuffers = 16
    private let runs = Locked(RunCache())
    private let runCacheCapacity: Int
    private let words: Locked<WordCache>
    private let wordCacheCapacity: Int
    /// Code points HarfBuzz keeps as context on each side of the item
    /// (`HB_BUFFER_CONTEXT_LENGTH` in hb-buffer.hh, 5 since HarfBuzz 0.9).
    private static let harfBuzzContextLength = 5

    /// - Parameter runCacheCapacity: glyphs kept in the run cache (24 bytes each, plus the
    ///   keys' characters) before it is emptied and refilled; 0 turns it off. The default,
    ///   50,000 (1.2 MB of glyphs), holds about twenty pages of text: the sizes of one document
    ///   in a sheet, and the labels and buttons pages repeat. (250,000 took 6 MB more in a
    ///   1,000-page render of the benchmark corpus, issue 8.)
    ///   - wordCacheCapacity: glyphs kept in the word cache (WordCache.swift), which puts runs
    ///     together from words seen before; 0 turns it off. The default, 20,000 (about 0.5 MB),
    ///     holds the benchmark corpus's vocabulary (1,300 words) with room for numbers that
    ///     rarely repeat; 50,000 took 2 MB more for 10,000 pages, with no fewer instructions.
    public init(runCacheCapacity: Int = 50_000, wordCacheCapacity: Int = 20_000) {
        self.runCacheCapacity = runCacheCapacity
        self.wordCacheCapacity = wordCacheCapacity
        words = Locked(WordCache(capacity: wordCacheCapacity))
    }

    /// Shapes `scalars[range]` in `face`.
    ///
    /// The whole paragraph is handed to HarfBuzz as context (`hb_buffer_add_codepoints` with the
    /// item's offset and length), so that Arabic letters join across run boundaries (a run
    /// ending in a font or style change mid-word keeps its medial forms).
    ///
    /// - Parameters:
    ///   - scalars: the whole paragraph in logical order; clusters index it.
    ///   - range: the run to shape: one bidi level, script and face (HarfBuzz does no bidi).
    ///   - size: point size.
    ///   - rightToLeft: the run's direction (odd bidi level).
    ///   - script: the run's script; Common/Inherited/Unknown let HarfBuzz guess from the text.
    ///   - language: BCP 47 tag ("ar", "he", "en"); "" means undetermined.
    ///   - features: OpenType feature settings in HarfBuzz syntax ("liga=0", "+tnum", "-kern");
    ///     strings HarfBuzz cannot parse are ignored.
    ///   - characterClusters: a cluster per character, but for ligatures
    ///     (`HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS`): a mark is not its letter's cluster,
    ///     so that the two can be drawn apart (in two colors). The glyphs are the same.
    public func shape(
        scalars: [Unicode.Scalar], range: Range<Int>, face: FontFace, size: Double, rightToLeft: Bool,
        script: Script, language: String, features: [String] = [], characterClusters: Bool = false
    ) -> ShapedRun {
        let range = range.clamped(to: 0..<scalars.count)
        guard !range.isEmpty else {
            return ShapedRun(face: face, size: size, rightToLeft: rightToLeft, range: range, glyphs: [])
        }
        let font = HarfBuzzFontCache.shared.font(for: face)
        let request = Request(
            font: font, rightToLeft: rightToLeft, script: script, language: language, features: features,
            characterClusters: characterClusters)
        let units: [GlyphInFontUnits]
        if runCacheCapacity > 0 {
            let contextStart = max(0, range.lowerBound - Self.harfBuzzContextLength)
            let contextEnd = min(scalars.count, range.upperBound + Self.harfBuzzContextLength)
            let context = contextStart..<contextEnd
            let key = RunKey(
                text: Array(scalars[context]), runStart: range.lowerBound - context.lowerBound,
                runEnd: range.upperBound - context.lowerBound, request: request)
            if let cached = runs.withLock({ $0.runs[key] }) {
                units = cached
            } else {
                units = shapeAnew(scalars, range, request)
                runs.withLock { cache in
                    if cache.glyphCount + units.count > runCacheCapacity {
                        cache.runs.removeAll(keepingCapacity: true)
                        cache.glyphCount = 0
                    }
                    if cache.runs.updateValue(units, forKey: key) == nil { cache.glyphCount += units.count }
                }
            }
        } else {
            units = shapeAnew(scalars, range, request)
        }
        let scale = size / Double(font.unitsPerEm)
        let glyphs = units.map { glyph in
            ShapedGlyph(
                id: glyph.id, cluster: range.lowerBound + Int(glyph.cluster), advance: Double(glyph.advance) * scale,
                xOffset: Double(glyph.xOffset) * scale, yOffset: Double(glyph.yOffset) * scale,
                unsafeToBreak: glyph.unsafeToBreak)
        }
        return ShapedRun(face: face, size: size, rightToLeft: rightToLeft, range: range, glyphs: glyphs)
    }

    /// A run the run cache does not hold: from known words, else by HarfBuzz. Both see the
    /// language the font shapes (`HarfBuzzFont.shapingLanguage`), asked here rather than for
    /// every run, where the run cache's key keeps the language as written.
    private func shapeAnew(_ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request) -> [GlyphInFontUnits] {
        var request = request
        request.language = request.font.shapingLanguage(request.language, script: request.script)
        // (The word cache holds a letter and its marks as one cluster.)
        if request.characterClusters { return shapeInHarfBuzz(scalars, range, request) }
        return shapeFromWords(scalars, range, request) ?? shapeInHarfBuzz(scalars, range, request)
    }

    /// What a run is shaped with, apart from its text. Equal requests name the same font object,
    /// which the process-wide font cache never releases, so its identifier stays unique.
    struct Request: Hashable {
        var font: HarfBuzzFont
        var rightToLeft: Bool
        var script: Script
        var language: String
        var features: [String]
        var characterClusters = false

        static func == (a: Request, b: Request) -> Bool {
            a.font === b.font && a.rightToLeft == b.rightToLeft && a.script == b.script && a.language == b.language
                && a.features == b.features && a.characterClusters == b.characterClusters
        }

        func hash(into hasher: inout Hasher) {
            var key = KeyHasher()
            combine(into: &key)
            hasher.combine(key.finalize())
        }

        /// What `==` compares.
        func combine(into hasher: inout KeyHasher) {
            hasher.combine(UInt64(UInt(bitPattern: ObjectIdentifier(font))))
            hasher.combine(rightToLeft)
            hasher.combine(Int(script.index))
            hasher.combine(language)
            hasher.combine(features.count)
            for feature in features { hasher.combine(feature) }
            hasher.combine(characterClusters)
        }
    }

    /// A run's cache key: its text with context, and its request.
    private struct RunKey: Hashable {
        /// The run with the context HarfBuzz reads on each side.
        let text: [Unicode.Scalar]
        /// Where the run starts and ends in `text`.
        let runStart: Int
        let runEnd: Int
        let request: Request
        /// Hashed once: a miss looks the key up and then stores it.
        private let hash: Int

        init(text: [Unicode.Scalar], runStart: Int, runEnd: Int, request: Request) {
            self.text = text
            self.runStart = runStart
            self.runEnd = runEnd
            self.request = request
            var hasher = KeyHasher()
            // The characters' bytes hashed at once (`byteHash`): combining them one by one cost
            // more than the rest of a cache hit.
            hasher.combine(text.withUnsafeBytes(byteHash))
            hasher.combine(runStart)
            hasher.combine(runEnd)
            request.combine(into: &hasher)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private struct RunCache {
        /// Glyphs with clusters relative to the run's start.
        var runs: [RunKey: [GlyphInFontUnits]] = [:]
        var glyphCount = 0
    }

    /// How many runs were put together from the word cache (for tests).
    var runsPutTogetherFromWords: Int { words.withLock { $0.runsPutTogether } }
    /// How many of those had only their new words shaped (for tests).
    var runsWithNewWordsShaped: Int { words.withLock { $0.runsWithNewWordsShaped } }

    /// The run put together from words shaped before, or else shaped by HarfBuzz and its words
    /// learned; nil when its font or ends do not allow cutting it into words (WordCache.swift).
    private func shapeFromWords(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request
    ) -> [GlyphInFontUnits]? {
        let runWords = RunWords(scalars: scalars, range: range)
        guard wordCacheCapacity > 0, request.script.isExplicit, runWords.hasWordEnds, request.font.cutsIntoWords()
        else { return nil }
        switch words.withLock({ $0.lookUp(runWords, request) }) {
        case .glyphs(let known):
            return known
        case .missing(let stretches) where stretches.count <= 2 && stretches != [range]:
            // Only the words not known are shaped. Learning them can empty a full cache, or
            // refuse a stretch HarfBuzz did not cut cleanly: then the run is shaped whole.
            for stretch in stretches {
                let shaped = shapeInHarfBuzz(scalars, stretch, request)
                words.withLock { $0.learn(RunWords(scalars: scalars, range: stretch), shaped, request) }
            }
            let lookup = words.withLock { cache in
                let lookup = cache.lookUp(runWords, request)
                if case .glyphs = lookup { cache.runsWithNewWordsShaped += 1 }
                return lookup
            }
            if case .glyphs(let known) = lookup { return known }
        case .missing:
            break
        }
        let shaped = shapeInHarfBuzz(scalars, range, request)
        words.withLock { $0.learn(runWords, shaped, request) }
        return shaped
    }

    /// Sequences of combining marks longer than this are shaped in pieces: HarfBuzz's time grows
    /// with the square of a mark sequence's length (a letter with 80,000 accents took 32 s, with
    /// 160,000 over a minute), and no script stacks more than a few on one letter. So are chains
    /// of consonants joined by a virama or a stacking sign (Myanmar's "က္က္…", Khmer's
    /// "ក្ក្…"): 100,000 such pairs took 28 s, and 70,000 stopped the process on one of
    /// HarfBuzz's assertions; no conjunct has more than a few.
    static let longestMarkSequence = 256

    /// HarfBuzz output for `scalars[range]`, the whole paragraph as context, in font units, with
    /// clusters relative to the run's start. A longer mark sequence than `longestMarkSequence` is
    /// cut, each piece shaped on its own, and the marks after a cut keep the cluster of the
    /// letter they are on, as HarfBuzz gives them when it shapes them together.
    private func shapeInHarfBuzz(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request
    ) -> [GlyphInFontUnits] {
        // (Most runs are shorter than that: they are not looked through.)
        guard range.count > Self.longestMarkSequence else { return shapePiece(scalars, range, request) }
        var cuts: [(at: Int, sequenceEnd: Int)] = []
        var marks = 0  // in the sequence so far, since its last cut
        for index in range {
            // A mark, or a consonant a virama joins to the one before, goes on the sequence. A
            // character HarfBuzz looks through for a mark's letter (a ZWSP, an LRM, a soft
            // hyphen) neither adds to it nor ends it: 33,000 pairs of a ZWSP and a qamats took
            // minutes, then stopped the process on HarfBuzz's assertion.
            let isMark = FontFallbackCluster.isMark(scalars[index])
            // (Nor does it carry the letter's cluster past it: HarfBuzz begins a cluster there,
            // and one cluster of all the marks after a cut made each ZWSP's break walk to its end.)
            if !isMark && scalars[index].isDefaultIgnorable { continue }
            guard isMark || index > range.lowerBound && scalars[index - 1].isSyllableLinker else {
                marks = 0
                continue
            }
            marks += 1
            if marks > Self.longestMarkSequence {
                cuts.append((index, index))
                marks = 1
            }
            if isMark, let last = cuts.last, last.sequenceEnd == index { cuts[cuts.count - 1].sequenceEnd = index + 1 }
        }
        guard !cuts.isEmpty else { return shapePiece(scalars, range, request) }
        let starts = [range.lowerBound] + cuts.map(\.at)
        var pieces: [[GlyphInFontUnits]] = []
        var letterCluster: Int32 = 0  // the cluster of the letter a piece's first marks are on
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : range.upperBound
            var piece = shapePiece(scalars, start..<end, request)
            let offset = Int32(start - range.lowerBound)
            let sequenceEnd = number > 0 ? Int32(cuts[number - 1].sequenceEnd - range.lowerBound) : 0
            for index in piece.indices {
                piece[index].cluster += offset
                // (A cluster a character: the marks are their own.)
                if piece[index].cluster < sequenceEnd && !request.characterClusters { piece[index].cluster = letterCluster }
            }
            letterCluster = piece.map(\.cluster).max() ?? letterCluster
            pieces.append(piece)
        }
        // HarfBuzz gives glyphs in visual order: a right-to-left run's pieces from the last.
        return Array((request.rightToLeft ? pieces.reversed() : pieces).joined())
    }

    /// The paragraph as HarfBuzz is to read it for `range`, when not as it is: a soft hyphen
    /// after a Latin, Greek or Cyrillic letter as a ZWNJ, which no ligature crosses. HarfBuzz
    /// passes over a soft hyphen (a default ignorable) and ligated the "fi" of
    /// "Kauf&#xAD;interesse": one glyph, inside which no line may end, so the hyphen its author
    /// put there was never taken. Kerning crosses both alike, and German sets no ligature
    /// across the seam of a compound. (Arabic letters join across a soft hyphen, and a ZWNJ
    /// after an Indic virama shows it: theirs stay.)
    ///
    /// What is given is `range` with the context HarfBuzz keeps on each side (five characters),
    /// and where `range` is in it: a copy of the whole paragraph for each piece made a paragraph
    /// of 64,000 words with soft hyphens take 5.5 s instead of 0.8.
    static func withLigatureBreaks(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> ([Unicode.Scalar], Range<Int>)? {
        var shaped: [Unicode.Scalar]?
        let window = max(0, range.lowerBound - contextLength)..<min(scalars.count, range.upperBound + contextLength)
        for i in range where scalars[i] == "\u{AD}" && followsLigatingLetter(scalars, i) {
            if shaped == nil { shaped = Array(scalars[window]) }
            shaped?[i - window.lowerBound] = "\u{200C}"
        }
        return shaped.map { ($0, range.lowerBound - window.lowerBound..<range.upperBound - window.lowerBound) }
    }

    /// HarfBuzz's context on each side of a buffer's text (HB_BUFFER_CONTEXT_LENGTH), with room.
    private static let contextLength = 8

    /// Whether the letter before `scalars[index]`, past marks and format characters (an LRM, a
    /// variation selector: at most eight), is a Latin, Greek or Cyrillic one.
    private static func followsLigatingLetter(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
        var before = index - 1
        while before >= 0, before >= index - 8 {
            let scalar = scalars[before]
            switch scalar.generalCategory {
            case .Mn, .Mc, .Me, .Cf: before -= 1
            default: return ligatingScripts.contains(scalar.script)
            }
        }
        return false
    }

    private static let ligatingScripts: Set<Script> = [.latin, Script(code: "Grek") ?? .latin, Script(code: "Cyrl") ?? .latin]

    /// HarfBuzz output for `scalars[range]`, the whole paragraph as context, in font units, with
    /// clusters relative to the start of `range`.
    private func shapePiece(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request
    ) -> [GlyphInFontUnits] {
        let pooled = takeBuffer()
        defer { giveBack(pooled) }
        let buffer = pooled.buffer
        hb_buffer_clear_contents(buffer)

        let (text, item) = Self.withLigatureBreaks(scalars, range) ?? (scalars, range)
        text.withUnsafeBufferPointer { paragraph in
            // Unicode.Scalar is a UInt32 wrapper: same size, stride and alignment.
            paragraph.withMemoryRebound(to: UInt32.self) { codes in
                hb_buffer_add_codepoints(
                    buffer, codes.baseAddress, Int32(codes.count), UInt32(item.lowerBound), Int32(item.count))
            }
        }
        hb_buffer_set_direction(buffer, request.rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        // Set every time: the buffers are pooled, and clearing one keeps its cluster level.
        hb_buffer_set_cluster_level(
            buffer,
            request.characterClusters ? HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS : HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        // Always set: HarfBuzz's guessed language is the process locale, which is not deterministic.
        hb_buffer_set_language(buffer, HarfBuzzLanguage.of(request.language))
        if request.script.isExplicit {
            hb_buffer_set_script(buffer, request.script.code.withCString { hb_script_from_string($0, -1) })
        }
        hb_buffer_guess_segment_properties(buffer)  // fills only the script, when not set

        var settings: [hb_feature_t] = []
        // Syriac's Abbreviation Mark (U+070F) stretched over its word (`stch`): HarfBuzz 6.0
        // gave the letters after it offsets on top of their advances, and they were drawn apart,
        // over the next word and off the page, outside the line the layout measured. Off, each
        // letter is drawn with its own piece of the overline, and the word stays whole.
        if hb_buffer_get_script(buffer) == HB_SCRIPT_SYRIAC {
            settings.append(hb_feature_t(tag: hb_tag_from_string("stch", 4), value: 0, start: 0, end: UInt32.max))
        }
        for text in request.features {
            var feature = hb_feature_t()
            if text.withCString({ hb_feature_from_string($0, -1, &feature) }) != 0 { settings.append(feature) }
        }
        hb_shape(request.font.font, buffer, settings, UInt32(settings.count))

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, nil)
        guard let infos, let positions else { return [] }
        var glyphs: [GlyphInFontUnits] = []
        glyphs.reserveCapacity(Int(count))
        let glyphCount = request.font.glyphCount
        for i in 0..<Int(count) {
            let info = infos[i]
            let position = positions[i]
            var glyph = GlyphInFontUnits(
                id: info.codepoint, cluster: Int32(bitPattern: info.cluster) - Int32(item.lowerBound),
                advance: position.x_advance,
                xOffset: position.x_offset, yOffset: position.y_offset,
                unsafeToBreak: info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0)
            // A glyph the font does not have (a damaged cmap or substitution gives one past its
            // glyphs) is .notdef, with its advance: a box, warned about, in every format (the
            // PDF and SVG writers refused the run, PNG drew nothing, and then a box of no width
            // over the next letter). The invisible glyph of a default ignorable is none of them.
            // So is a glyph of the user's font whose outline FreeType cannot read (Cairo failed
            // the page, PDF and SVG viewers drew nothing).
            if info.codepoint >= glyphCount && info.codepoint != ShapedGlyph.invisible || request.font.isDamaged(info.codepoint) {
                glyph.id = 0
                glyph.advance = hb_font_get_glyph_h_advance(request.font.font, 0)
                (glyph.xOffset, glyph.yOffset) = (0, 0)
            }
            glyphs.append(glyph)
        }
        return glyphs
    }

    /// Vertical metrics of `face` at `size` points.
    public func metrics(face: FontFace, size: Double) -> FontMetrics {
        let em = emMetrics.withLock { $0[face] } ?? measure(face)
        return FontMetrics(
            unitsPerEm: em.unitsPerEm, ascent: em.ascent * size, descent: em.descent * size,
            lineGap: em.lineGap * size, capHeight: em.capHeight * size, xHeight: em.xHeight * size)
    }

    /// Metrics at 1 pt, cached by face: HarfBuzz's lookups cost more than the rest of a short
    /// paragraph's layout, and every paragraph asks for its first family's.
    private let emMetrics = Locked<[FontFace: FontMetrics]>([:])

    private func measure(_ face: FontFace) -> FontMetrics {
        let font = HarfBuzzFontCache.shared.font(for: face)
        let scale = 1 / Double(font.unitsPerEm)
        func value(_ tag: hb_ot_metrics_tag_t) -> Double {
            var position: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font.font, tag, &position)
            return Double(position) * scale
        }
        let em = FontMetrics(
            unitsPerEm: font.unitsPerEm,
            ascent: value(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER),
            descent: value(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER),
            lineGap: value(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP),
            capHeight: value(HB_OT_METRICS_TAG_CAP_HEIGHT),
            xHeight: value(HB_OT_METRICS_TAG_X_HEIGHT))
        emMetrics.withLock { $0[face] = em }
        return em
    }

    /// The ink box of glyph `id` of `face` at `size` points; nil for a glyph the font lacks.
    public func glyphExtents(face: FontFace, size: Double, glyph id: UInt32) -> GlyphExtents? {
        let font = HarfBuzzFontCache.shared.font(for: face)
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font.font, id, &extents) != 0 else { return nil }
        let scale = size / Double(font.unitsPerEm)
        return GlyphExtents(
            xBearing: Double(extents.x_bearing) * scale, yBearing: Double(extents.y_bearing) * scale,
            width: Double(extents.width) * scale, height: Double(extents.height) * scale)
    }

    /// The top and bottom of the ink of each of `glyphs` of `face` in em, y up; nil for a glyph
    /// without ink (a space) or one the font lacks. Kept for the process, by face and then by
    /// glyph (the face hashed once a run): asked for the runs of a page that grows to fit them
    /// (`PageEmitter.growToInk`) and for the first and last lines of text on a background
    /// (`TextLine.inkOverflow`).
    static func inks(face: FontFace, glyphs: some Sequence<UInt32>) -> [GlyphInk?] {
        var missing: [UInt32] = []
        var found: [GlyphInk??] = inkCache.withLock { faces in
            let known = faces[face] ?? [:]
            return glyphs.map { id in
                let ink = known[id]
                if ink == nil { missing.append(id) }
                return ink
            }
        }
        guard !missing.isEmpty else { return found.map { $0 ?? nil } }
        var made: [UInt32: GlyphInk?] = [:]
        for id in missing {
            made[id] = shared.glyphExtents(face: face, size: 1, glyph: id).flatMap { extents in
                extents.height == 0 ? nil : GlyphInk(top: extents.yBearing, bottom: extents.yBearing + extents.height)
            }
        }
        inkCache.withLock { $0[face, default: [:]].merge(made) { old, _ in old } }
        for (k, id) in glyphs.enumerated() where found[k] == nil { found[k] = made[id] }
        return found.map { $0 ?? nil }
    }

    private static let inkCache = Locked<[FontFace: [UInt32: GlyphInk?]]>([:])

    private func takeBuffer() -> HarfBuzzBuffer {
        buffers.withLock { $0.popLast() } ?? HarfBuzzBuffer()
    }

    private func giveBack(_ buffer: HarfBuzzBuffer) {
        buffers.withLock { pool in
            if pool.count < Self.pooledBuffers { pool.append(buffer) }
        }
    }
}

/// How far up and down a glyph's ink reaches from its baseline, in em, y up.
struct GlyphInk {
    var top: Double
    var bottom: Double
}

/// A HarfBuzz glyph in font units (the fonts' scale), before conversion to points.
struct GlyphInFontUnits: Hashable, Sendable {
    var id: UInt32
    var cluster: Int32
    var advance: Int32
    var xOffset: Int32
    var yOffset: Int32
    var unsafeToBreak: Bool
}

/// Owns one `hb_buffer_t`.
///
/// `@unchecked Sendable`: a buffer is used by one thread at a time; `Shaper` takes it out of its
/// pool under the lock and puts it back when the call is done.
final class HarfBuzzBuffer: @unchecked Sendable {
    let buffer: OpaquePointer  // hb_buffer_t *
    init() {
        buffer = hb_buffer_create()
        hb_buffer_set_invisible_glyph(buffer, ShapedGlyph.invisible)
    }
    deinit { hb_buffer_destroy(buffer) }
}
