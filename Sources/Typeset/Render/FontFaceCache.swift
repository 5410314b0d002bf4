// Cairo font faces for `FontFace` keys, each on its own FreeType face (never HarfBuzz's: NOTES,
// "HarfBuzz and Cairo together"), created once per process and shared by every render.
//
// Thread safety, the choice made here: a batch renders pages on several threads at once.
// - FreeType: an `FT_Library` must not create or free faces on two threads at once, and an
//   `FT_Face` must be used by one thread at a time. So every cached face gets its *own*
//   `FT_Library`; nothing FreeType is shared between two faces.
// - Cairo: `cairo_ft_font_face_create_for_ft_face` faces are reference counted atomically, and
//   cairo-ft takes a per-face mutex around every use of the `FT_Face` (glyph loading, PDF
//   subsetting), so one Cairo face may be drawn with from any number of `cairo_t`s on different
//   threads; each `cairo_t` and surface stays on the thread of its render.
// - The cache itself is a `Locked`; faces are opened while holding it (a few milliseconds, once).
// - Lifetime: the FreeType objects are attached to the Cairo face as user data and freed by
//   Cairo's destroy callback, i.e. only once Cairo's own font caches have let go of the face.
// `RenderTests` renders the same pages on several threads and checks the bytes match.
import CCairo

/// Owns one `FT_Library` and one `FT_Face` opened from a `FontFace`.
final class FreeTypeFace {
    let library: FT_Library
    let face: FT_Face

    convenience init(_ font: FontFace) throws {
        try self.init(path: font.path, index: font.index)
    }

    init(path: String, index: Int) throws {
        var library: FT_Library?
        var error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            throw RenderError.font(path: path, reason: "FreeType did not start (error \(error))")
        }
        var face: FT_Face?
        error = FT_New_Face(library, path, FT_Long(index), &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw RenderError.font(path: path, reason: FreeTypeFace.describe(error, index: index))
        }
        self.library = library
        self.face = face
    }

    /// Whether FreeType reads `glyph` (as Cairo and poppler read it), its outline's points
    /// within 16 em of its origin. A byte changed in a glyph's flags read its points' x as
    /// 374 em: FreeType loads it, but its rasterizer overflows.
    func loads(glyph: UInt32) -> Bool {
        guard FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { return false }
        let slot = face.pointee.glyph.pointee
        guard slot.format == FT_GLYPH_FORMAT_OUTLINE, let points = slot.outline.points else { return true }
        let limit = 16 * FT_Pos(face.pointee.units_per_EM)
        for i in 0..<Int(slot.outline.n_points) where abs(points[i].x) > limit || abs(points[i].y) > limit { return false }
        return true
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The glyph the font's cmap gives a scalar; 0 (.notdef) when it has none.
    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// The unhinted horizontal advance of a glyph, in points at `size`.
    func advance(glyph: UInt32, size: Double) -> Double {
        guard FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE)) == 0 else { return 0 }
        let advanceInFontUnits = Double(face.pointee.glyph.pointee.advance.x)
        return advanceInFontUnits * size / Double(face.pointee.units_per_EM)
    }

    private static func describe(_ error: FT_Error, index: Int) -> String {
        switch error {
        case 0x01: return "cannot open the file"
        case 0x06: return "no face \(index) in the file"
        default:
            guard let message = typeset_freetype_error_message(error) else { return "FreeType error \(error)" }
            return "FreeType: " + String(cString: message)
        }
    }
}

/// The glyphs of a font of the user's (`--font-dir`) that FreeType cannot read (`loads`), each asked
/// once, on a FreeType face of its own under a lock. HarfBuzz shapes with such a glyph as with
/// any (its outline is not read), and then a PNG failed with "error occurred in libfreetype"
/// (or "out of memory"), failing the other pages of a sheet with it, while the PDF and SVG
/// silently drew nothing there.
final class GlyphOutlineCheck: Sendable {
    private let path: String
    private let index: Int
    /// The face, once opened (nil if it cannot be: every glyph passes, the font's own error is
    /// said where it is drawn); by glyph, 0 not asked yet, 1 read, 2 damaged.
    private let state = Locked<(face: FreeTypeFace??, known: [UInt8])>((nil, []))

    init(path: String, index: Int) {
        self.path = path
        self.index = index
    }

    func isDamaged(_ glyph: UInt32) -> Bool {
        state.withLock { state in
            let at = Int(glyph)
            if at < state.known.count, state.known[at] != 0 { return state.known[at] == 2 }
            if state.face == nil { state.face = .some(try? FreeTypeFace(path: path, index: index)) }
            guard let face = state.face ?? nil else { return false }
            if at >= state.known.count { state.known += [UInt8](repeating: 0, count: at + 1 - state.known.count) }
            let damaged = !face.loads(glyph: glyph)
            state.known[at] = damaged ? 2 : 1
            return damaged
        }
    }
}

/// Owns one reference to a Cairo FreeType font face. Sendable because Cairo font faces are
/// thread-safe reference-counted objects that lock their `FT_Face` (see the file comment).
final class CairoFontFace: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The font has color glyphs (FreeType's FT_FACE_FLAG_COLOR), which Cairo draws otherwise.
    let hasColorGlyphs: Bool

    init(_ font: FontFace) throws {
        let freeType = try FreeTypeFace(font)
        hasColorGlyphs = freeType.face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        // No hinting: glyph outlines stay as designed at every size and scale, and PNG output
        // does not depend on the hinting settings of the machine.
        guard let face = cairo_ft_font_face_create_for_ft_face(freeType.face, Int32(FT_LOAD_NO_HINTING))
        else {
            throw RenderError.font(path: font.path, reason: "Cairo could not create a font face")
        }
        let status = cairo_font_face_status(face)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            throw RenderError.font(path: font.path, reason: cairoMessage(status))
        }
        let owner = Unmanaged.passRetained(freeType).toOpaque()
        let attached = cairo_font_face_set_user_data(face, freeTypeFaceKey, owner, releaseFreeTypeFace)
        guard attached == CAIRO_STATUS_SUCCESS else {
            // Cairo's documented order: the Cairo face first, then the FreeType face.
            cairo_font_face_destroy(face)
            Unmanaged<FreeTypeFace>.fromOpaque(owner).release()
            throw RenderError.font(path: font.path, reason: cairoMessage(attached))
        }
        pointer = face
    }

    deinit {
        CairoFontLock.held { cairo_font_face_destroy(pointer) }
    }
}

/// The address Cairo uses to tell user data apart; only its identity matters. Written by no one.
nonisolated(unsafe) private let freeTypeFaceKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// Cairo's destroy callback for the `FreeTypeFace` attached to a font face.
private let releaseFreeTypeFace: cairo_destroy_func_t = { owner in
    guard let owner else { return }
    Unmanaged<FreeTypeFace>.fromOpaque(owner).release()
}

/// The process-wide cache of Cairo font faces.
final class CairoFontCache: Sendable {
    static let shared = CairoFontCache()

    private let faces = Locked<[FontFace: CairoFontFace]>([:])

    /// The Cairo face for `font`, opened on first use. Failures are not cached.
    func face(for font: FontFace) throws -> CairoFontFace {
        try faces.withLock { faces in
            if let face = faces[font] { return face }
            let face = try CairoFontFace(font)
            faces[font] = face
            return face
        }
    }
}

/// The glyph id `font`'s cmap gives `scalar` (0 when it has none). For tests and tools that need
/// glyph ids without HarfBuzz; opens its own FreeType face.
func glyphIndex(face font: FontFace, scalar: Unicode.Scalar) throws -> UInt32 {
    try FreeTypeFace(font).glyphIndex(scalar)
}
