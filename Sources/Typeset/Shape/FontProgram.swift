// What a PDF needs of a font file to embed it (Render/PDFFonts.swift): its PostScript name,
// metrics and glyph advances in font units, and a subset holding only the glyphs drawn, glyph
// ids kept so that content streams can use HarfBuzz's ids as CIDs (TrueTypeSubsetter for
// TrueType outlines, hb-subset for CFF).

import CHarfBuzz

/// A color bitmap glyph (an emoji of Noto Color Emoji) and where it stands, in font units from
/// the glyph's origin, y up.
struct BitmapGlyph: Sendable {
    var png: [UInt8]
    var x: Int, top: Int, width: Int, height: Int
    var unitsPerEm: Int

    /// Its box in points, y down, for a glyph whose origin is at (`originX`, `originY`) at `size`.
    func frame(originX: Double, originY: Double, size: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let scale = size / Double(unitsPerEm)
        return (originX + Double(x) * scale, originY - Double(top) * scale, Double(width) * scale, Double(height) * scale)
    }
}

/// A font file as a PDF embeds it. Read-only and safe to use from several threads (HarfBuzz
/// faces and fonts are immutable; `hb_subset_or_fail` makes its own objects).
struct FontProgram: @unchecked Sendable {
    private let font: HarfBuzzFont
    let unitsPerEm: Int
    /// 0 when the file could not be read.
    let glyphCount: Int
    /// TrueType outlines (a glyf table); else CFF.
    let isTrueType: Bool
    /// Color bitmaps (CBDT, sbix), as Noto Color Emoji: a PDF viewer cannot draw them (nor
    /// the empty outlines an sbix font may have beside them), so a PDF gets Type 3 fonts whose
    /// glyphs draw the PNGs (`bitmap(_:)`), and SVG and PNG pages draw the PNGs as images.
    let isBitmap: Bool
    /// PostScript name (name ID 6), with only the characters a PDF name and a font name allow.
    let postScriptName: String
    let ascender: Int, descender: Int, capHeight: Int
    /// head.xMin, yMin, xMax, yMax.
    let boundingBox: (Int, Int, Int, Int)
    /// post.italicAngle in degrees.
    let italicAngle: Double
    /// A CID-keyed CFF font's CID of each glyph (`CFFCharset`), read once per process (nil for
    /// any other): Noto Sans CJK's charset was read for every document's PDF.
    private let cids: [UInt32]?

    /// The program of `face`, made once per process: every document's writer (PDF, SVG and PNG
    /// pages) asks for it, and making it reads names, metrics and tables, about 190 thousand
    /// instructions a corpus page to SVG when each writer made its own.
    static func of(_ face: FontFace) -> FontProgram {
        if let known = made.withLock({ $0[face] }) { return known }
        let program = FontProgram(face)
        return made.withLock { cache in
            if let existing = cache[face] { return existing }
            cache[face] = program
            return program
        }
    }

    /// By face: the PostScript name falls back on the family's.
    private static let made = Locked<[FontFace: FontProgram]>([:])

    private init(_ face: FontFace) {
        let font = HarfBuzzFontCache.shared.font(for: face)
        self.font = font
        unitsPerEm = font.unitsPerEm
        glyphCount = font.isUsable ? Int(hb_face_get_glyph_count(font.face)) : 0
        isTrueType = font.tableLength("glyf") > 0
        isBitmap = hb_ot_color_has_png(font.face) != 0
        let name = font.name(hb_ot_name_id_t(HB_OT_NAME_ID_POSTSCRIPT_NAME)) ?? face.family
        let allowed = name.unicodeScalars.filter { $0.isASCII && ($0.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        postScriptName = allowed.isEmpty ? "Font" : String(String.UnicodeScalarView(allowed))
        // As layout reads them (`Shaper.metrics`): HarfBuzz's fallbacks for a font without them.
        func metric(_ tag: hb_ot_metrics_tag_t) -> Int {
            var position: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font.font, tag, &position)
            return Int(position)
        }
        ascender = metric(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER)
        descender = metric(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER)
        capHeight = metric(HB_OT_METRICS_TAG_CAP_HEIGHT)
        let head = font.tableBytes("head")
        boundingBox = (Self.int16(head, 36), Self.int16(head, 38), Self.int16(head, 40), Self.int16(head, 42))
        let post = font.tableBytes("post")
        italicAngle = post.count >= 8 ? Double(Self.int16(post, 4)) + Double(Int(post[6]) << 8 | Int(post[7])) / 65536 : 0
        let glyphs = glyphCount
        cids = isTrueType ? nil : font.withTable("CFF ") { CFFCharset.cids(of: $0, glyphCount: glyphs) }
    }

    private static func int16(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes.count >= offset + 2 ? Int(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))) : 0
    }

    /// The PNG of a bitmap glyph (the font's largest strike) and where it stands (HarfBuzz's
    /// extents of the bitmap); nil without one.
    func bitmap(_ glyph: UInt32) -> BitmapGlyph? {
        let blob = hb_ot_color_glyph_reference_png(font.font, glyph)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        var extents = hb_glyph_extents_t()
        guard let data = hb_blob_get_data(blob, &length), length > 0,
            hb_font_get_glyph_extents(font.font, glyph, &extents) != 0, extents.width > 0, extents.height < 0
        else { return nil }
        let png = [UInt8](UnsafeRawBufferPointer(start: data, count: Int(length)))
        return BitmapGlyph(
            png: png, x: Int(extents.x_bearing), top: Int(extents.y_bearing), width: Int(extents.width),
            height: Int(-extents.height), unitsPerEm: unitsPerEm)
    }

    /// The outline of `glyph` in font units, y up, as HarfBuzz draws it (TrueType's quadratic
    /// curves and CFF's cubic ones, every contour closed); empty for a glyph without one (a
    /// space, a bitmap font's glyph). SVG pages draw glyphs from it (Render/SVGWriter.swift).
    func outline(_ glyph: UInt32) -> [OutlineSegment] {
        var segments: [OutlineSegment] = []
        withUnsafeMutablePointer(to: &segments) { hb_font_get_glyph_shape(font.font, glyph, outlineFunctions, $0) }
        return segments
    }

    /// The font's own glyph for `scalar` (its cmap), nil when it has none.
    func nominalGlyph(_ scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font.font, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// The horizontal advance of `glyph` in font units.
    func advance(_ glyph: UInt32) -> Int {
        Int(hb_font_get_glyph_h_advance(font.font, glyph))
    }

    /// The font file with only `glyphs` (and the glyphs they are built from) drawn; every other
    /// glyph id stays, empty. Layout tables are dropped: a PDF needs none. A CFF font that
    /// hb-subset cannot subset whole (a `maxp` that counts fewer glyphs than its CFF table:
    /// hb-subset left the CFF table out, and the PDF's text was no font poppler could make) is
    /// the whole font. A CID-keyed CFF font whose glyphs drawn have their ids for CIDs (Noto
    /// Sans CJK's) holds only them, renumbered: a PDF finds them by CID (`CFFCharset`).
    /// A TrueType font's `shifted` glyphs follow its own (`TrueTypeSubsetter.subset`); a CFF
    /// font has none. Nil when the font cannot be subset.
    func subset(glyphs: [UInt32], shifted: [TrueTypeSubsetter.Shift] = []) -> (bytes: [UInt8], bareCFF: Bool)? {
        if isTrueType {
            return font.withTable("glyf") { glyf in
                font.withTable("loca") { loca in
                    TrueTypeSubsetter.subset(glyphs: glyphs, shifted: shifted, glyf: glyf, loca: loca) { tag in
                        let bytes = font.tableBytes(tag)
                        return bytes.isEmpty ? nil : bytes
                    }
                }
            }.map { ($0, false) }
        }
        let kept = Set([0] + glyphs).sorted()
        // A CID-keyed font whose glyphs have their ids for CIDs: renumbered, each keeps its CID,
        // its id as before (hb-subset adds a few it reaches from them).
        if let cids, kept.allSatisfy({ Int($0) < cids.count && cids[Int($0)] == $0 }),
            case .made(let bytes, let subsetCIDs?) = cffSubset(kept, retainingIDs: false),
            subsetCIDs.allSatisfy({ Int($0) < cids.count && cids[Int($0)] == $0 })
        {
            return (bytes, true)
        }
        switch cffSubset(kept, retainingIDs: true) {
        case .made(let bytes, _): return (bytes, false)
        case .outlinesLeftOut: return wholeFont().map { ($0, false) }
        case .failed: return nil
        }
    }

    private enum CFFSubset {
        /// The file, and the CID of each of its glyphs (nil: kept in place, or not CID-keyed).
        case made([UInt8], cids: [UInt32]?)
        case outlinesLeftOut, failed
    }

    /// hb-subset's subset of `glyphs`, their ids kept (the glyphs between them empty) or
    /// renumbered.
    private func cffSubset(_ glyphs: [UInt32], retainingIDs: Bool) -> CFFSubset {
        guard let input = hb_subset_input_create_or_fail() else { return .failed }
        defer { hb_subset_input_destroy(input) }
        let glyphSet = hb_subset_input_glyph_set(input)
        for glyph in glyphs { hb_set_add(glyphSet, glyph) }
        hb_subset_input_set_flags(
            input, (retainingIDs ? HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue : 0) | HB_SUBSET_FLAGS_NO_HINTING.rawValue)
        let drop = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
        for table in ["GSUB", "GPOS", "GDEF", "morx", "kerx", "kern", "BASE", "JSTF", "MATH", "DSIG"] {
            hb_set_add(drop, HarfBuzzFont.tag(table))
        }
        guard let subset = hb_subset_or_fail(font.face, input) else { return .failed }
        defer { hb_face_destroy(subset) }
        func withTable<Result>(_ tag: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            let table = hb_face_reference_table(subset, HarfBuzzFont.tag(tag))
            defer { hb_blob_destroy(table) }
            var length: UInt32 = 0
            return body(UnsafeRawBufferPointer(start: hb_blob_get_data(table, &length), count: Int(length)))
        }
        let outlines = ["CFF ", "CFF2"].filter { font.tableLength($0) > 0 }
        guard outlines.allSatisfy({ withTable($0) { !$0.isEmpty } }) else { return .outlinesLeftOut }
        guard !retainingIDs else { return Self.bytes(of: hb_face_reference_blob(subset)).map { .made($0, cids: nil) } ?? .failed }
        // Renumbered: the bare CFF table (a PDF's CIDFontType0C), which poppler reads glyphs of
        // by CID (in an OpenType file it drew none).
        let cids = withTable("CFF ") { CFFCharset.cids(of: $0, glyphCount: Int(hb_face_get_glyph_count(subset))) }
        return .made(withTable("CFF ") { [UInt8]($0) }, cids: cids)
    }

    /// The font's tables as an OpenType file of its own (one face of a collection too).
    private func wholeFont() -> [UInt8]? {
        guard let builder = hb_face_builder_create() else { return nil }
        defer { hb_face_destroy(builder) }
        var tags = [hb_tag_t](repeating: 0, count: 64)
        var start: UInt32 = 0
        while true {
            var count = UInt32(tags.count)
            let total = hb_face_get_table_tags(font.face, start, &count, &tags)
            for tag in tags[..<Int(count)] {
                let table = hb_face_reference_table(font.face, tag)
                defer { hb_blob_destroy(table) }
                guard hb_face_builder_add_table(builder, tag, table) != 0 else { return nil }
            }
            start += count
            if count == 0 || start >= total { break }
        }
        return Self.bytes(of: hb_face_reference_blob(builder))
    }

    /// A copy of `blob`'s bytes (nil when it has none), and the blob released.
    private static func bytes(of blob: OpaquePointer?) -> [UInt8]? {
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }
}

/// One step of a glyph's outline (`FontProgram.outline(_:)`), in font units.
enum OutlineSegment: Equatable, Sendable {
    case move(x: Float, y: Float)
    case line(x: Float, y: Float)
    case quadratic(controlX: Float, controlY: Float, x: Float, y: Float)
    case cubic(control1X: Float, control1Y: Float, control2X: Float, control2Y: Float, x: Float, y: Float)
    case close
}

/// HarfBuzz's drawing callbacks, each appending its segment to the `[OutlineSegment]` that the
/// draw data points to. Immutable once made, so shared by every thread.
nonisolated(unsafe) private let outlineFunctions: OpaquePointer = {
    let functions = hb_draw_funcs_create()!
    hb_draw_funcs_set_move_to_func(functions, { _, data, _, x, y, _ in append(data, .move(x: x, y: y)) }, nil, nil)
    hb_draw_funcs_set_line_to_func(functions, { _, data, _, x, y, _ in append(data, .line(x: x, y: y)) }, nil, nil)
    hb_draw_funcs_set_quadratic_to_func(
        functions, { _, data, _, cx, cy, x, y, _ in append(data, .quadratic(controlX: cx, controlY: cy, x: x, y: y)) },
        nil, nil)
    hb_draw_funcs_set_cubic_to_func(
        functions,
        { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            append(data, .cubic(control1X: c1x, control1Y: c1y, control2X: c2x, control2Y: c2y, x: x, y: y))
        }, nil, nil)
    hb_draw_funcs_set_close_path_func(functions, { _, data, _, _ in append(data, .close) }, nil, nil)
    hb_draw_funcs_make_immutable(functions)
    return functions
}()

private func append(_ data: UnsafeMutableRawPointer?, _ segment: OutlineSegment) {
    data.unsafelyUnwrapped.assumingMemoryBound(to: [OutlineSegment].self).pointee.append(segment)
}
