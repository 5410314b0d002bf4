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
/// Thread safety: `Shaper` is `Sendable`. HarfBuzz fonts are immutable once made and shared;
/// each call takes its own `hb_buffer` from a small pool guarded by a `Locked`.
public final class Shaper: Sendable {
    public static let shared = Shaper()

    private let buffers = Locked<[HarfBuzzBuffer]>([])
    /// Buffers kept for reuse: one per thread shaping at once is enough.
    private static let pooledBuffers = 16

    public init() {}

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
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        // Always set: HarfBuzz's guessed language is the process locale, which is not deterministic.
        hb_buffer_set_language(buffer, hb_language_from_string(language.isEmpty ? "und" : language, -1))
        if script.isExplicit {
            hb_buffer_set_script(buffer, hb_script_from_string(script.code, -1))
        }
        hb_buffer_guess_segment_properties(buffer)  // fills only the script, when not set

        var settings: [hb_feature_t] = []
        for text in features {
            var feature = hb_feature_t()
            if hb_feature_from_string(text, -1, &feature) != 0 { settings.append(feature) }
        }
        hb_shape(font.font, buffer, settings, UInt32(settings.count))

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, nil)
        let scale = size / Double(font.unitsPerEm)
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        if let infos, let positions {
            for i in 0..<Int(count) {
                let info = infos[i]
                let position = positions[i]
                glyphs.append(
                    ShapedGlyph(
                        id: info.codepoint, cluster: Int(info.cluster),
                        advance: Double(position.x_advance) * scale,
                        xOffset: Double(position.x_offset) * scale, yOffset: Double(position.y_offset) * scale,
                        unsafeToBreak: info.mask & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0))
            }
        }
        return ShapedRun(face: face, size: size, rightToLeft: rightToLeft, range: range, glyphs: glyphs)
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

/// Owns one `hb_buffer_t`.
///
/// `@unchecked Sendable`: a buffer is used by one thread at a time; `Shaper` takes it out of its
/// pool under the lock and puts it back when the call is done.
final class HarfBuzzBuffer: @unchecked Sendable {
    let buffer: OpaquePointer  // hb_buffer_t *
    init() { buffer = hb_buffer_create() }
    deinit { hb_buffer_destroy(buffer) }
}
