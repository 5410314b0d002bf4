// The HarfBuzz objects behind a font file (SPEC §3): owners of hb_face/hb_font, the cmap
// coverage and the name/OS-2 facts FontDatabase needs. Nothing here leaves Shape/.

import CHarfBuzz

/// A font file and face index: what the HarfBuzz objects depend on (a `FontFace` adds the names).
struct FontFileKey: Hashable, Sendable {
    let path: String
    let index: Int
    /// The path's hash, computed once (a face's key takes the face's): the font cache is looked
    /// up for every run shaped, and hashing the path each time cost more than the rest.
    private let pathHash: Int

    init(path: String, index: Int) {
        self.init(path: path, index: index, pathHash: path.hashValue)
    }

    init(path: String, index: Int, pathHash: Int) {
        self.path = path
        self.index = index
        self.pathHash = pathHash
    }

    static func == (a: FontFileKey, b: FontFileKey) -> Bool { a.index == b.index && a.path == b.path }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pathHash)
        hasher.combine(index)
    }
}

/// Owns one `hb_face_t` and one immutable `hb_font_t` made from a blob of the file, never from an
/// `FT_Face` (NOTES: cairo-ft resizes shared FT_Faces and hb-ft then caches wrong advances).
///
/// `@unchecked Sendable`: both objects are made immutable before the initializer returns, and
/// HarfBuzz documents immutable faces and fonts as safe to use from several threads at once.
final class HarfBuzzFont: @unchecked Sendable {
    let face: OpaquePointer  // hb_face_t *
    let font: OpaquePointer  // hb_font_t *
    let unitsPerEm: Int
    /// False when the file could not be read or holds no glyphs; shaping then gives .notdef.
    let isUsable: Bool
    /// The number of glyphs (maxp): a glyph id past it is a damaged cmap's or GSUB's.
    let glyphCount: UInt32

    /// How a damaged font's glyph for `scalar` (its cmap's) is damaged: past `glyphCount`, or
    /// an outline that cannot be drawn (`isDamaged`); nil when it is not.
    func glyphDamage(_ scalar: Unicode.Scalar) -> GlyphDamage? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 else { return nil }
        return glyph >= glyphCount ? .pastGlyphs : isDamaged(glyph) ? .outline : nil
    }

    enum GlyphDamage {
        /// The cmap maps the character past the font's glyphs.
        case pastGlyphs
        /// The glyph's outline cannot be drawn.
        case outline
    }

    /// For a font of the user's, the glyphs whose outlines FreeType cannot read; nil for the
    /// bundled and the system's fonts, whose every glyph is taken as read.
    let outlineCheck: GlyphOutlineCheck?

    /// Whether `glyph` is one of the font's own whose outline cannot be read (`outlineCheck`).
    @inline(__always)
    func isDamaged(_ glyph: UInt32) -> Bool {
        guard let outlineCheck, glyph < glyphCount else { return false }
        return outlineCheck.isDamaged(glyph)
    }

    /// Runs shaped by HarfBuzz so far, and then whether runs in this font can be cut into words
    /// (`cutsIntoWords`).
    private let words = Locked<(shaped: Int, apart: Bool?)>((0, nil))

    init(path: String, index: Int, checkingGlyphs: Bool = false) {
        outlineCheck = checkingGlyphs ? GlyphOutlineCheck(path: path, index: index) : nil
        // hb_blob_create_from_file (not _or_fail) returns the empty blob on error, so a missing
        // file degrades to an empty face instead of a crash.
        let blob = hb_blob_create_from_file(path)
        face = hb_face_create(blob, UInt32(max(0, index)))
        hb_blob_destroy(blob)  // the face holds its own reference
        hb_face_make_immutable(face)
        let upem = Int(hb_face_get_upem(face))
        unitsPerEm = upem > 0 ? upem : 1000
        glyphCount = hb_face_get_glyph_count(face)
        isUsable = glyphCount > 0
        font = hb_font_create(face)
        // Scale = units per em: positions come out in font units, exact for every static
        // TrueType/OpenType font (their metrics and GPOS values are integers in font units), and
        // points are `units * size / unitsPerEm`, linear in the size by construction.
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(font)
    }

    /// Whether runs in this font can be cut after a space and their words reused (WordCache.swift),
    /// asked before each run is shaped. Decided at the 17th run: the check reads every lookup
    /// of the font (1.2 million instructions for the three bundled fonts of a corpus page),
    /// more than a short document gains from words.
    func cutsIntoWords() -> Bool {
        words.withLock { state in
            if let apart = state.apart { return apart }
            state.shaped += 1
            guard state.shaped > 16 else { return false }
            let apart = isUsable && !layoutReadsSpace
            state.apart = apart
            return apart
        }
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    /// The languages runs in this font are shaped with, by script and language asked for
    /// (`shapingLanguage`): the first few in a list, looked through in a few instructions under
    /// the lock (a document has two or three; hashed, the key cost 750 instructions a run), the
    /// rest hashed.
    private let shapingLanguages = Locked<(first: [(script: UInt8, language: String, chosen: String)], rest: [LanguageKey: String])>(([], [:]))

    private struct LanguageKey: Hashable {
        let script: UInt8
        let language: String
        func hash(into hasher: inout Hasher) {
            var key = KeyHasher()
            key.combine(Int(script))
            key.combine(language)
            hasher.combine(key.finalize())
        }
    }

    /// The language a run in `script` and `language` is shaped with: `language` where the
    /// font's GSUB or GPOS has a language system for it (Serbian's or Romanian's letter forms,
    /// Urdu's digits), else "" (undetermined), which HarfBuzz shapes the same: the default
    /// language system. HarfBuzz makes a shape plan for each language and looks it up along a
    /// list of the font's plans, and the word cache lists what it shapes with: given every
    /// tag as written, 17,576 three-letter tags took 28 s. Now the font's language systems
    /// bound them. A script HarfBuzz guesses from the text (Common) keeps its language.
    func shapingLanguage(_ language: String, script: Script) -> String {
        guard script.isExplicit, !language.isEmpty else { return language }
        let known = shapingLanguages.withLock { languages -> String? in
            for i in languages.first.indices where languages.first[i].script == script.index && languages.first[i].language == language {
                return languages.first[i].chosen
            }
            return languages.first.count < 8 ? nil : languages.rest[LanguageKey(script: script.index, language: language)]
        }
        if let known { return known }
        let chosen = hasLanguageSystem(language, script: script) ? language : ""
        shapingLanguages.withLock { languages in
            // Another thread may have found it meanwhile.
            guard !languages.first.contains(where: { $0.script == script.index && $0.language == language }) else { return }
            if languages.first.count < 8 {
                languages.first.append((script.index, language, chosen))
            } else {
                languages.rest[LanguageKey(script: script.index, language: language)] = chosen
            }
        }
        return chosen
    }

    /// Whether GSUB or GPOS has a language system for `language` under the script HarfBuzz
    /// chooses for `script` (as `hb_ot_map_builder_t` chooses them).
    private func hasLanguageSystem(_ language: String, script: Script) -> Bool {
        let hbScript = script.code.withCString { hb_script_from_string($0, -1) }
        let hbLanguage = HarfBuzzLanguage.of(language)
        var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
        var languageTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_LANGUAGE))
        var scriptCount = UInt32(scriptTags.count)
        var languageCount = UInt32(languageTags.count)
        hb_ot_tags_from_script_and_language(
            hbScript, hbLanguage, &scriptCount, &scriptTags, &languageCount, &languageTags)
        guard languageCount > 0 else { return false }
        for table in [Self.tag("GSUB"), Self.tag("GPOS")] {
            var scriptIndex: UInt32 = 0
            var chosenScript: hb_tag_t = 0
            _ = hb_ot_layout_table_select_script(face, table, scriptCount, &scriptTags, &scriptIndex, &chosenScript)
            var languageIndex: UInt32 = 0
            if hb_ot_layout_script_select_language(face, table, scriptIndex, languageCount, &languageTags, &languageIndex) != 0 {
                return true
            }
        }
        return false
    }

    /// Whether the font has color glyphs: bitmaps (CBDT, sbix) or layers (COLR), as emoji fonts do.
    var hasColorGlyphs: Bool { hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0 }

    /// The cmap's code points (read once per file: FontDatabase caches the result).
    func collectCoverage() -> FontCoverage {
        let set = hb_set_create()
        defer { hb_set_destroy(set) }
        hb_face_collect_unicodes(face, set)
        var ranges: [ClosedRange<UInt32>] = []
        var first = UInt32.max  // HB_SET_VALUE_INVALID starts the iteration
        var last = UInt32.max
        while hb_set_next_range(set, &first, &last) != 0 {
            ranges.append(first...last)
        }
        return FontCoverage(ranges: ranges)
    }

    /// The name table entry `nameID` in English (HarfBuzz falls back to "en" itself).
    func name(_ nameID: hb_ot_name_id_t) -> String? {
        let language = hb_language_from_string("en", -1)
        var length = hb_ot_name_get_utf8(face, nameID, language, nil, nil)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        length += 1
        _ = hb_ot_name_get_utf8(face, nameID, language, &length, &buffer)
        let bytes = buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// Family name: the typographic family (name ID 16) if any, else the legacy family (ID 1).
    var familyName: String? {
        name(hb_ot_name_id_t(HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY)) ?? legacyFamilyName
    }
    /// The legacy family name (ID 1), e.g. "Noto Sans Light" where ID 16 says "Noto Sans".
    var legacyFamilyName: String? { name(hb_ot_name_id_t(HB_OT_NAME_ID_FONT_FAMILY)) }

    /// Full name, style and width included ("DejaVu Sans Condensed Bold"; name ID 4).
    var fullName: String? { name(hb_ot_name_id_t(HB_OT_NAME_ID_FULL_NAME)) }

    /// CSS weight and italic flag from OS/2 (usWeightClass, fsSelection ITALIC/OBLIQUE), else
    /// from head.macStyle. A face whose fsSelection says BOLD with a weight of 400 or less is
    /// 700: Debian's Noto Nastaliq Urdu Bold says 400, tied with the Regular, and took its place
    /// (it sorts first), every Urdu text bold.
    var style: (weight: Int, italic: Bool) {
        let os2 = tableBytes("OS/2")
        if os2.count >= 64 {
            var weight = Int(os2[4]) << 8 | Int(os2[5])
            if weight >= 1 && weight <= 9 { weight *= 100 }  // some old fonts use 1-9
            if weight < 1 || weight > 1000 { weight = 400 }
            let selection = Int(os2[62]) << 8 | Int(os2[63])
            if selection & 0x0020 != 0 && weight <= 400 { weight = 700 }
            return (weight, selection & 0x0201 != 0)
        }
        let head = tableBytes("head")
        if head.count >= 46 {
            let macStyle = Int(head[44]) << 8 | Int(head[45])
            return (macStyle & 1 != 0 ? 700 : 400, macStyle & 2 != 0)
        }
        return (400, false)
    }

    /// The weight axis of a variable font (fvar's `wght`): its default, least and most weight.
    var weightAxis: (default: Int, least: Int, most: Int)? {
        var axis = hb_ot_var_axis_info_t()
        guard hb_ot_var_find_axis_info(face, Self.tag("wght"), &axis) != 0, axis.min_value < axis.max_value else { return nil }
        return (Int(axis.default_value.rounded()), Int(axis.min_value.rounded()), Int(axis.max_value.rounded()))
    }

    /// An OpenType tag ("OS/2") as HarfBuzz's 32-bit value.
    static func tag(_ text: String) -> UInt32 {
        text.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// Calls `body` with a table's bytes in place (empty when the font has none).
    func withTable<Result>(_ table: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let blob = hb_face_reference_table(face, Self.tag(table))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: data, count: Int(length)))
    }

    /// Whether the cmap has a subtable HarfBuzz maps characters by: Unicode (platform 0),
    /// Windows Unicode or symbol (3, 1/10/0). One of Mac Roman (1, 0) alone, or of none, maps none.
    var hasUnicodeCmap: Bool {
        withTable("cmap") { cmap in
            guard cmap.count >= 4 else { return false }
            let count = Int(TrueTypeSubsetter.uint16(cmap, 2))
            return (0..<count).contains { k in
                let record = 4 + 8 * k
                guard record + 4 <= cmap.count else { return false }
                let platform = TrueTypeSubsetter.uint16(cmap, record), encoding = TrueTypeSubsetter.uint16(cmap, record + 2)
                return platform == 0 || platform == 3 && (encoding == 0 || encoding == 1 || encoding == 10)
            }
        }
    }

    /// The length of a table, 0 when the font has none.
    func tableLength(_ table: String) -> Int { withTable(table) { $0.count } }

    /// A copy of a table's bytes (empty when the font has none).
    func tableBytes(_ table: String) -> [UInt8] { withTable(table) { [UInt8]($0) } }

    /// Why FreeType or the PDF writer cannot use the font though HarfBuzz reads it, or nil
    /// (HarfBuzz shapes regardless, so such a font would be chosen and then fail, or draw
    /// nothing, in every render that uses it):
    /// - a table FreeType needs to open it is missing. (An Apple bitmap font's `bhed` in place
    ///   of `head` counts as missing: FreeType reads it, but HarfBuzz takes its units per em
    ///   from `head` alone, and laid its glyphs out twice as wide as they are.)
    /// - its units per em are outside OpenType's 16 to 16384: 0 failed every PNG ("broken
    ///   table") and made poppler refuse the PDF's font, while HarfBuzz took 1000;
    /// - its `cmap` has no subtable HarfBuzz maps characters by (`hasUnicodeCmap`);
    /// - its `loca` points most glyphs outside `glyf`: every glyph drew nothing (with
    ///   `checkingOutlines`).
    func damage(checkingOutlines: Bool = true) -> String? {
        let glyfLength = tableLength("glyf")
        let needed = ["cmap", "head", "hhea", "hmtx", "maxp"] + (glyfLength > 0 ? ["loca"] : [])
        if let missing = needed.first(where: { tableLength($0) == 0 }) { return "it has no '\(missing)' table" }
        let head = tableBytes("head")
        guard head.count >= 54 else { return "its 'head' table is cut short" }
        let unitsPerEm = Int(TrueTypeSubsetter.uint16(head, 18))
        guard (16...16384).contains(unitsPerEm) else { return "its units per em (\(unitsPerEm)) are not 16 to 16384" }
        // Its advances: hb-subset left such a font's `hhea` and `hmtx` out of the PDF (poppler
        // drew another font), and FreeType drew every glyph at one place.
        let glyphCount = withTable("maxp") { Int(TrueTypeSubsetter.uint16($0, 4)) }
        let metrics = withTable("hhea") { hhea -> Int? in
            hhea.count >= 36 && TrueTypeSubsetter.uint16(hhea, 0) == 1 ? Int(TrueTypeSubsetter.uint16(hhea, 34)) : nil
        }
        guard let metrics, metrics >= 1, tableLength("hmtx") >= 4 * min(metrics, glyphCount) else {
            return "its 'hhea' table is damaged or does not match its advances ('hmtx')"
        }
        // Read from the table's header, for every font (reading the mappings took a one-page
        // process 2.4% more instructions for the bundled fonts alone): a font HarfBuzz would
        // map no character of was found for its family, and its text silently took other fonts.
        guard hasUnicodeCmap else { return "its 'cmap' table maps no Unicode character" }
        guard glyfLength > 0, checkingOutlines else { return nil }
        let long = TrueTypeSubsetter.uint16(head, 50) == 1  // indexToLocFormat
        let outside = withTable("loca") { loca -> Int in
            // The offsets it has (FreeType reads a `loca` short of some as it is).
            let count = min(glyphCount + 1, loca.count / (long ? 4 : 2))
            return (0..<count).count { TrueTypeSubsetter.outlineOffset(loca, $0, long: long) > glyfLength }
        }
        // Most, not any: a sloppy font whose last offsets overshoot is still drawn.
        return outside > glyphCount / 2 ? "its 'loca' table points outside its outlines ('glyf')" : nil
    }
}

/// The code points a font's cmap maps: a bitmap for the BMP and sorted ranges beyond it.
struct FontCoverage: Sendable {
    private var bmp = [UInt64](repeating: 0, count: 0x10000 / 64)
    private var supplementary: [ClosedRange<UInt32>] = []

    /// Whether it maps no character.
    let isEmpty: Bool

    init(ranges: [ClosedRange<UInt32>]) {
        isEmpty = ranges.isEmpty
        for range in ranges {
            if range.lowerBound < 0x10000 {
                for scalar in range.lowerBound...min(range.upperBound, 0xFFFF) {
                    bmp[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
                }
            }
            if range.upperBound >= 0x10000 {
                supplementary.append(max(range.lowerBound, 0x10000)...range.upperBound)
            }
        }
    }

    @inline(__always)
    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 0x10000 { return bmp[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0 }
        let low = supplementary.partitionPoint { $0.upperBound < scalar }
        return low < supplementary.count && supplementary[low].contains(scalar)
    }
}

/// The process-wide cache of HarfBuzz fonts for shaping and metrics, one per file and face
/// index, never released (`Shaper`'s run cache names fonts by identity). Guarded by a `Locked`; a
/// font is created outside the lock and the first one stored wins, so a slow file never blocks
/// lookups of loaded ones. (FontDatabase reads names and cmaps with temporary fonts instead.)
final class HarfBuzzFontCache: Sendable {
    static let shared = HarfBuzzFontCache()
    private let fonts = Locked<[FontFileKey: HarfBuzzFont]>([:])
    /// The fonts whose glyphs are checked (`HarfBuzzFont.outlineCheck`): the user's.
    private let checked = Locked<Set<FontFileKey>>([])

    /// Has the glyphs of `faces` checked when they are shaped: the user's fonts (`--font-dir`).
    func checkGlyphs(of faces: [FontFace]) {
        checked.withLock { $0.formUnion(faces.map(\.fileKey)) }
    }

    private func font(_ key: FontFileKey) -> HarfBuzzFont {
        if let font = fonts.withLock({ $0[key] }) { return font }
        let created = HarfBuzzFont(path: key.path, index: key.index, checkingGlyphs: checked.withLock { $0.contains(key) })
        return fonts.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = created
            return created
        }
    }

    func font(for face: FontFace) -> HarfBuzzFont { font(face.fileKey) }
}

/// Number of faces in a font file (1 for .ttf/.otf, more for collections), 0 if unreadable.
func harfBuzzFaceCount(path: String) -> Int {
    guard let blob = hb_blob_create_from_file_or_fail(path) else { return 0 }
    defer { hb_blob_destroy(blob) }
    return Int(hb_face_count(blob))
}
