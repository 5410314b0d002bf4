// HarfBuzz shaping of one font run, and font metrics in points (SPEC §1 pipeline: shaping;
// NOTES: HarfBuzz and Cairo together).

import CHarfBuzz
import Synchronization

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
    /// The sum of the glyphs' advances, in points.
    public let advance: Double

    public init(face: FontFace, size: Double, rightToLeft: Bool, range: Range<Int>, glyphs: [ShapedGlyph]) {
        self.face = face
        self.size = size
        self.rightToLeft = rightToLeft
        self.range = range
        self.glyphs = glyphs
        self.advance = glyphs.reduce(0) { $0 + $1.advance }
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
/// Words are cached: for a font whose space glyph takes part in no OpenType lookup (all the
/// bundled fonts), a run is shaped word by word (words and spaces split at U+0020), each word's
/// glyphs in font units looked up by its characters, font, direction, script, language and
/// features, so the same word at any size is shaped once. Output is identical to shaping the
/// run whole (tests compare both). Measured on 1,000 pages (see the report in ShapeTests), this
/// halves shaping time; fonts that kern or ligate spaces are always shaped whole.
///
/// Thread safety: `Shaper` is `Sendable`. HarfBuzz fonts are immutable once made and shared;
/// each call takes its own `hb_buffer` from a small pool guarded by a `Mutex`; the word cache is
/// another `Mutex`, taken twice per run (lookups, then insertions), never during shaping.
public final class Shaper: Sendable {
    public static let shared = Shaper()

    private let buffers = Mutex<[HarfBuzzBuffer]>([])
    /// Buffers kept for reuse: one per thread shaping at once is enough.
    private static let pooledBuffers = 16
    private let words = Mutex(WordCache())
    private let wordCacheCapacity: Int
    /// Longer "words" (URLs, long compounds) are shaped directly rather than cached.
    private static let longestCachedWord = 40

    /// - Parameter wordCacheCapacity: words kept before the cache is emptied and refilled
    ///   (about 200 bytes each); 0 turns the cache off.
    public init(wordCacheCapacity: Int = 20_000) {
        self.wordCacheCapacity = wordCacheCapacity
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
    ///   - features: OpenType feature settings in HarfBuzz syntax ("liga=0", "+tnum", "-kern").
    public func shape(
        scalars: [Unicode.Scalar], range: Range<Int>, face: FontFace, size: Double, rightToLeft: Bool,
        script: Script, language: String, features: [String] = []
    ) -> ShapedRun {
        let range = range.clamped(to: 0..<scalars.count)
        guard !range.isEmpty else {
            return ShapedRun(face: face, size: size, rightToLeft: rightToLeft, range: range, glyphs: [])
        }
        let font = HarfBuzzFontCache.shared.font(for: face)
        let request = Request(
            font: font, rightToLeft: rightToLeft, script: script, language: language, features: features)
        let units: [GlyphInFontUnits]
        if wordCacheCapacity > 0 && font.spaceIsContextFree {
            units = shapeByWords(scalars, range, request)
        } else {
            units = shapeInHarfBuzz(scalars, range, request)
        }
        let scale = size / Double(font.unitsPerEm)
        let glyphs = units.map { glyph in
            ShapedGlyph(
                id: glyph.id, cluster: Int(glyph.cluster), advance: Double(glyph.advance) * scale,
                xOffset: Double(glyph.xOffset) * scale, yOffset: Double(glyph.yOffset) * scale,
                unsafeToBreak: glyph.unsafeToBreak)
        }
        return ShapedRun(face: face, size: size, rightToLeft: rightToLeft, range: range, glyphs: glyphs)
    }

    /// What a run is shaped with, apart from its text.
    private struct Request {
        var font: HarfBuzzFont
        var rightToLeft: Bool
        var script: Script
        var language: String
        var features: [String]
    }

    /// Everything but the text that a word's glyphs depend on. The font is named by its
    /// `HarfBuzzFont`, which the process-wide font cache never releases, so the identifier
    /// stays unique.
    private struct WordContext: Hashable {
        var font: ObjectIdentifier
        var rightToLeft: Bool
        var script: Script
        var language: String
        var features: [String]
    }

    /// A word's cache key: its characters and its context, interned as a small number so that
    /// hashing a key hashes little more than the characters.
    private struct WordKey: Hashable {
        var word: [Unicode.Scalar]
        var context: Int
    }

    private struct WordCache {
        var contexts: [WordContext: Int] = [:]
        var glyphs: [WordKey: [GlyphInFontUnits]] = [:]
    }

    /// Splits the run at spaces into pieces; when every piece is cached, assembles the run from
    /// them (equivalent to shaping it whole when the font's space is context-free), else shapes
    /// it whole and caches its pieces. A piece at the run's edge is cached only when its
    /// neighbour outside the run is a space or the paragraph's end.
    private func shapeByWords(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request
    ) -> [GlyphInFontUnits] {
        // Pieces in logical order: maximal stretches of spaces or of other characters.
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        for i in range.dropFirst() where (scalars[i] == " ") != (scalars[i - 1] == " ") {
            pieces.append(start..<i)
            start = i
        }
        pieces.append(start..<range.upperBound)

        // A piece at the run's edge is cacheable only if the text beyond the edge is a space or
        // nothing: elsewhere (a run cut mid-word) HarfBuzz needs the context.
        let context = WordContext(
            font: ObjectIdentifier(request.font), rightToLeft: request.rightToLeft, script: request.script,
            language: request.language, features: request.features)
        let contextID = words.withLock { cache in
            if let known = cache.contexts[context] { return known }
            cache.contexts[context] = cache.contexts.count
            return cache.contexts.count - 1
        }
        let keys: [WordKey?] = pieces.map { piece in
            guard piece.count <= Self.longestCachedWord else { return nil }
            if piece.lowerBound == range.lowerBound && piece.lowerBound > 0 && scalars[piece.lowerBound - 1] != " " {
                return nil
            }
            if piece.upperBound == range.upperBound && piece.upperBound < scalars.count
                && scalars[piece.upperBound] != " "
            {
                return nil
            }
            return WordKey(word: Array(scalars[piece]), context: contextID)
        }
        let cached: [[GlyphInFontUnits]?] = words.withLock { cache in keys.map { $0.flatMap { cache.glyphs[$0] } } }

        guard cached.allSatisfy({ $0 != nil }) else {
            // A miss: shape the run whole (one HarfBuzz call, the reference result) and cache
            // the cacheable pieces' glyphs from it. A piece's glyphs are contiguous because no
            // lookup reaches across a space in this font.
            let glyphs = shapeInHarfBuzz(scalars, range, request)
            var fresh: [(WordKey, [GlyphInFontUnits])] = []
            var first = 0
            while first < glyphs.count {
                let piece = pieceIndex(containing: Int(glyphs[first].cluster), pieces)
                var end = first + 1
                while end < glyphs.count && pieces[piece].contains(Int(glyphs[end].cluster)) { end += 1 }
                if cached[piece] == nil, let key = keys[piece] {
                    let start = Int32(pieces[piece].lowerBound)
                    fresh.append(
                        (
                            key,
                            glyphs[first..<end].map {
                                var g = $0; g.cluster -= start; return g
                            }
                        ))
                }
                first = end
            }
            if !fresh.isEmpty {
                words.withLock { cache in
                    if cache.glyphs.count + fresh.count > wordCacheCapacity {
                        cache.glyphs.removeAll(keepingCapacity: true)
                    }
                    for (key, glyphs) in fresh { cache.glyphs[key] = glyphs }
                }
            }
            return glyphs
        }

        // Every piece cached: lay them out in visual order (pieces left to right, each piece's
        // glyphs already in visual order), clusters back to paragraph offsets.
        var glyphs: [GlyphInFontUnits] = []
        glyphs.reserveCapacity(range.count)
        for i in pieces.indices {
            let piece = request.rightToLeft ? pieces.count - 1 - i : i
            let offset = Int32(pieces[piece].lowerBound)
            for var glyph in cached[piece] ?? [] {
                glyph.cluster += offset
                glyphs.append(glyph)
            }
        }
        return glyphs
    }

    /// The piece holding scalar offset `offset` (pieces are sorted and contiguous).
    private func pieceIndex(containing offset: Int, _ pieces: [Range<Int>]) -> Int {
        var low = 0
        var high = pieces.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if pieces[mid].lowerBound <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// HarfBuzz output for `scalars[range]`, the whole paragraph as context, in font units.
    private func shapeInHarfBuzz(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>, _ request: Request
    ) -> [GlyphInFontUnits] {
        let pooled = takeBuffer()
        defer { giveBack(pooled) }
        let buffer = pooled.buffer
        hb_buffer_clear_contents(buffer)

        scalars.withUnsafeBufferPointer { paragraph in
            // Unicode.Scalar is a UInt32 wrapper: same size, stride and alignment.
            paragraph.withMemoryRebound(to: UInt32.self) { codes in
                hb_buffer_add_codepoints(
                    buffer, codes.baseAddress, Int32(codes.count), UInt32(range.lowerBound), Int32(range.count))
            }
        }
        hb_buffer_set_direction(buffer, request.rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        // Always set: HarfBuzz's guessed language is the process locale, which is not deterministic.
        let language = request.language.isEmpty ? "und" : request.language
        hb_buffer_set_language(buffer, hb_language_from_string(language, -1))
        if request.script.isExplicit {
            hb_buffer_set_script(buffer, hb_script_from_string(request.script.code, -1))
        }
        hb_buffer_guess_segment_properties(buffer)  // fills only the script, when not set

        var settings: [hb_feature_t] = []
        for text in request.features {
            var feature = hb_feature_t()
            if hb_feature_from_string(text, -1, &feature) != 0 { settings.append(feature) }
        }
        hb_shape(request.font.font, buffer, settings, UInt32(settings.count))

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, nil)
        guard let infos, let positions else { return [] }
        var glyphs: [GlyphInFontUnits] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let info = infos[i]
            let position = positions[i]
            glyphs.append(
                GlyphInFontUnits(
                    id: info.codepoint, cluster: Int32(bitPattern: info.cluster), advance: position.x_advance,
                    xOffset: position.x_offset, yOffset: position.y_offset,
                    unsafeToBreak: info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0))
        }
        return glyphs
    }

    /// Vertical metrics of `face` at `size` points.
    public func metrics(face: FontFace, size: Double) -> FontMetrics {
        let font = HarfBuzzFontCache.shared.font(for: face)
        let scale = size / Double(font.unitsPerEm)
        func value(_ tag: hb_ot_metrics_tag_t) -> Double {
            var position: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font.font, tag, &position)
            return Double(position) * scale
        }
        return FontMetrics(
            unitsPerEm: font.unitsPerEm,
            ascent: value(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER),
            descent: value(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER),
            lineGap: value(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP),
            capHeight: value(HB_OT_METRICS_TAG_CAP_HEIGHT),
            xHeight: value(HB_OT_METRICS_TAG_X_HEIGHT))
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

    private func takeBuffer() -> HarfBuzzBuffer {
        buffers.withLock { $0.popLast() } ?? HarfBuzzBuffer()
    }

    private func giveBack(_ buffer: HarfBuzzBuffer) {
        buffers.withLock { pool in
            if pool.count < Self.pooledBuffers { pool.append(buffer) }
        }
    }
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
    init() { buffer = hb_buffer_create() }
    deinit { hb_buffer_destroy(buffer) }
}
