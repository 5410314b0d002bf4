// Glyph runs on PNG pages, composited by pixman the way Cairo composites them, with a glyph
// cache of the drawing thread's own.
//
// Why: Cairo 1.16's image compositor (`composite_glyphs` in cairo-image-compositor.c) draws
// every call's glyphs holding one process-wide mutex, around one process-wide pixman glyph
// cache, for the whole of pixman's compositing. With `--jobs 2` the two threads of a PNG batch
// took turns there: 4,000 to 5,000 futex waits (and as many sleeps of a core) per 1,000 pages.
//
// What Cairo does with `cairo_show_glyphs` on an image surface, and the same here (Cairo
// 1.16.0: cairo-gstate.c, cairo-composite-rectangles.c, cairo-scaled-font.c,
// cairo-traps-compositor.c, cairo-image-compositor.c, cairo-image-source.c):
// - glyph positions go to device space through the CTM (`cairo_matrix_transform_point`), then
//   each is rounded to a whole pixel, floor(x + 0.5);
// - each glyph's device box is its ink extents at the font's device scale, in 24.8 fixed point;
//   the glyphs "overlap" when a glyph's box meets the box of all the glyphs before it (one glyph
//   never does);
// - overlapping glyphs are added into an A8 mask the size of their box rounded out to pixels,
//   and the color is composited through it once (`pixman_composite_glyphs`); otherwise each glyph
//   is composited on its own (`pixman_composite_glyphs_no_mask`); OVER in both;
// - the color is a pixman solid fill of 16-bit premultiplied channels, d × 65535 + 0.5
//   truncated;
// - glyph images are those Cairo rasterizes for the font at that scale: here each is drawn once
//   with Cairo on an A8 image at a whole-pixel origin, which gives its pixels exactly, and cut
//   to its nonzero pixels (pixels of 0 change nothing in either compositing).
// A run goes to PageDrawer as before when any of this cannot be matched: inside a sheet's subpages
// or on a page that is not whole pixels (Cairo then clips), a font with color glyphs, a glyph
// origin or ink outside the image, a font beyond `PageDrawer.largestGlyphImage` (then filled
// as outlines), a glyph whose image did not fit where it was drawn.
// `PerformanceTests.directGlyphsAreCairosPixels` compares the pixels with Cairo's.
import CCairo

/// Glyph images and metrics for raster pages, kept for the life of the process and lent to one
/// drawer at a time, so that no two threads share them.
final class RasterGlyphs {
    private static let idle = Locked<[RasterGlyphs]>([])

    /// nil only when memory runs out (the drawer then leaves every run to Cairo).
    static func borrow() -> RasterGlyphs? {
        idle.withLock { $0.popLast() } ?? RasterGlyphs()
    }

    static func giveBack(_ glyphs: RasterGlyphs) {
        idle.withLock { $0.append(glyphs) }
    }

    /// pixman's glyph cache, keyed by a font's `id` and a glyph's id + 1. pixman bounds it by
    /// count (16,384 glyphs), not by size; `cachedBytes` counts the bytes of the images put into
    /// it, and past `cacheBudget` it is made anew (a glyph let go of is drawn again when shown
    /// again).
    private var cache: OpaquePointer
    private var cachedBytes = 0
    static let cacheBudget = 64 << 20
    /// The fonts drawn so far, up to `fontLimit` (then they start again: a document of
    /// thousands of text sizes kept a Cairo font for each).
    private var fonts: [FontKey: Font] = [:]
    private var fontsMade = 0
    static let fontLimit = 1024
    /// pixman solid fills by color.
    private var sources: [Color: OpaquePointer] = [:]
    /// The inked glyphs of the run at hand, for pixman; kept to reuse its memory.
    private var placed: [pixman_glyph_t] = []

    private init?() {
        guard let cache = pixman_glyph_cache_create() else { return nil }
        self.cache = cache
    }

    /// Lets go of every glyph image, and of the fonts too when there are `fontLimit` of them.
    /// Called with the cache thawed. False when memory runs out for a new cache.
    private func makeRoom() -> Bool {
        guard cachedBytes > Self.cacheBudget || fonts.count >= Self.fontLimit else { return true }
        guard let fresh = pixman_glyph_cache_create() else { return false }
        pixman_glyph_cache_destroy(cache)
        cache = fresh
        cachedBytes = 0
        if fonts.count >= Self.fontLimit { fonts = [:] }
        return true
    }

    /// The page's pixels as pixman sees them, for the runs drawn here. Made by `target(for:)`.
    struct Target {
        fileprivate let image: OpaquePointer
        fileprivate let width: Int32
        fileprivate let height: Int32
        /// User space to device space (the context's CTM, a pure scale).
        fileprivate let matrix: cairo_matrix_t
    }

    /// A target for the runs drawn at the top level of a page on `surface` (an ARGB32 image)
    /// through `cr`, when the page covers it in whole pixels, so that Cairo's clip to the page
    /// is no clip at all; nil otherwise. Release it with `end(_:)` when the page is drawn.
    func target(for surface: OpaquePointer, context cr: OpaquePointer, pageWidth: Double, pageHeight: Double)
        -> Target?
    {
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
            let data = cairo_image_surface_get_data(surface)
        else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        let width = cairo_image_surface_get_width(surface)
        let height = cairo_image_surface_get_height(surface)
        guard matrix.xy == 0, matrix.yx == 0, matrix.x0 == 0, matrix.y0 == 0,
            pageWidth * matrix.xx == Double(width), pageHeight * matrix.yy == Double(height)
        else { return nil }
        cairo_surface_flush(surface)
        guard
            let image = pixman_image_create_bits(
                PIXMAN_a8r8g8b8, width, height, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                cairo_image_surface_get_stride(surface))
        else { return nil }
        return Target(image: image, width: width, height: height, matrix: matrix)
    }

    /// Lets go of `target`; Cairo is told its surface has changed.
    func end(_ target: Target, surface: OpaquePointer) {
        pixman_image_unref(target.image)
        cairo_surface_mark_dirty(surface)
    }

    /// Draws `run` with `face` on `target` as `cairo_show_glyphs` would; false, having
    /// drawn nothing, when it cannot (see the file comment): the caller draws it with Cairo.
    func draw(_ run: GlyphRun, face: CairoFontFace, on target: Target) -> Bool {
        // Cairo's `max_scale`: the largest of the font's device sizes (the CTM is a pure scale).
        guard !face.hasColorGlyphs, PageDrawer.deviceSize(run.size, target.matrix) <= PageDrawer.largestGlyphImage,
            makeRoom(), let font = font(for: run, face: face, matrix: target.matrix)
        else { return false }

        // Where each glyph goes, and whether any overlaps the ones before it
        // (`_cairo_scaled_font_glyph_device_extents`). The cache is frozen: no glyph image
        // found for this run is let go before it is drawn.
        pixman_glyph_cache_freeze(cache)
        defer { pixman_glyph_cache_thaw(cache) }
        var box = (x1: Int64(Int32.max), y1: Int64(Int32.max), x2: Int64(Int32.min), y2: Int64(Int32.min))
        var overlap = false
        placed.removeAll(keepingCapacity: true)
        let width = Double(target.width), height = Double(target.height)
        var matrix = target.matrix
        for positioned in run.glyphs {
            var x = positioned.x, y = positioned.y
            cairo_matrix_transform_point(&matrix, &x, &y)
            guard x >= 0, x <= width, y >= 0, y <= height else { return false }
            let pixelX = Int32((x + 0.5).rounded(.down)), pixelY = Int32((y + 0.5).rounded(.down))
            guard let glyph = glyph(positioned.id, of: font), glyph.usable else { return false }
            let x1 = Int64(pixelX) << 8 + Int64(glyph.x1), x2 = Int64(pixelX) << 8 + Int64(glyph.x2)
            let y1 = Int64(pixelY) << 8 + Int64(glyph.y1), y2 = Int64(pixelY) << 8 + Int64(glyph.y2)
            if !overlap && x1 != x2 && y1 != y2 {
                overlap = x2 > box.x1 && x1 < box.x2 && y2 > box.y1 && y1 < box.y2
            }
            box = (min(box.x1, x1), min(box.y1, y1), max(box.x2, x2), max(box.y2, y2))
            if glyph.inked {
                guard let image = image(positioned.id, of: font) else { return false }
                placed.append(pixman_glyph_t(x: pixelX, y: pixelY, glyph: image))
            }
        }
        if run.glyphs.count == 1 { overlap = false }
        // The box rounded out to pixels (a single glyph's box is taken as it is, empty or not).
        let left = box.x1 >> 8, top = box.y1 >> 8, right = -((-box.x2) >> 8), bottom = -((-box.y2) >> 8)
        guard run.glyphs.count == 1 || box.x1 < box.x2 else { return true }  // no ink: nothing drawn
        guard left < right, top < bottom else { return true }
        guard left >= 0, top >= 0, right <= Int64(target.width), bottom <= Int64(target.height) else { return false }

        let shorts = Self.shorts(run.color)
        guard shorts.alpha != 0 else { return true }  // Cairo draws nothing in a clear color
        guard let source = source(for: run.color, shorts: shorts) else { return false }
        guard !placed.isEmpty else { return true }
        if overlap {
            let format = pixman_glyph_get_mask_format(cache, Int32(placed.count), placed)
            pixman_composite_glyphs(
                PIXMAN_OP_OVER, source, target.image, format, Int32(left), Int32(top), Int32(left), Int32(top),
                Int32(left), Int32(top), Int32(right - left), Int32(bottom - top), cache, Int32(placed.count), placed)
        } else {
            pixman_composite_glyphs_no_mask(
                PIXMAN_OP_OVER, source, target.image, 0, 0, 0, 0, cache, Int32(placed.count), placed)
        }
        return true
    }

    // MARK: - Fonts

    private struct FontKey: Hashable {
        var face: FontFace
        var size: Double
        var scaleX: Double
        var scaleY: Double
    }

    private final class Font {
        /// pixman's key for the font: small, nonzero, never reused.
        let id: Int
        let key: FontKey
        let face: CairoFontFace
        /// The font at its device size with no CTM: its user-space glyph extents are the page
        /// font's device-space boxes, computed the same way.
        let device: OpaquePointer
        var glyphs: [UInt32: Glyph] = [:]

        init(id: Int, key: FontKey, face: CairoFontFace, device: OpaquePointer) {
            (self.id, self.key, self.face, self.device) = (id, key, face, device)
        }

        deinit { CairoFontLock.held { cairo_scaled_font_destroy(device) } }
    }

    private func font(for run: GlyphRun, face: CairoFontFace, matrix: cairo_matrix_t) -> Font? {
        let key = FontKey(face: run.font, size: run.size, scaleX: matrix.xx, scaleY: matrix.yy)
        if let font = fonts[key] { return font }
        return CairoFontLock.held { newFont(key, face: face, size: run.size, matrix: matrix) }
    }

    private func newFont(_ key: FontKey, face: CairoFontFace, size: Double, matrix: cairo_matrix_t) -> Font? {
        // The page font's options: ours merged with the image surface's (`PageDrawer`).
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        PageDrawer.setFontOptions(cr)
        cairo_set_font_face(cr, face.pointer)
        cairo_set_font_size(cr, size)
        var linear = matrix
        cairo_set_matrix(cr, &linear)
        guard let pageFont = cairo_get_scaled_font(cr), let options = cairo_font_options_create() else { return nil }
        defer { cairo_font_options_destroy(options) }
        cairo_scaled_font_get_font_options(pageFont, options)
        // `scaled_font->scale`: the font matrix times the CTM without its translation.
        var fontMatrix = cairo_matrix_t(), scale = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(pageFont, &fontMatrix)
        cairo_matrix_multiply(&scale, &fontMatrix, &linear)
        cairo_matrix_init_identity(&identity)
        guard let device = cairo_scaled_font_create(face.pointer, &scale, &identity, options) else { return nil }
        guard cairo_scaled_font_status(device) == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(device)
            return nil
        }
        fontsMade += 1
        let font = Font(id: fontsMade, key: key, face: face, device: device)
        fonts[key] = font
        return font
    }

    // MARK: - Glyphs

    private struct Glyph {
        /// The device box from the glyph origin, 24.8 fixed point.
        var x1: Int32, y1: Int32, x2: Int32, y2: Int32
        /// It has nonzero pixels.
        var inked: Bool
        /// Its image was found whole where it was drawn.
        var usable: Bool
    }

    /// A glyph's box, and whether it can be drawn here; its image goes into pixman's cache.
    /// Called with the cache frozen.
    private func glyph(_ id: UInt32, of font: Font) -> Glyph? {
        if let glyph = font.glyphs[id] { return glyph }
        return CairoFontLock.held { newGlyph(id, of: font) }
    }

    private func newGlyph(_ id: UInt32, of font: Font) -> Glyph? {
        var extents = cairo_text_extents_t()
        var one = cairo_glyph_t(index: UInt(id), x: 0, y: 0)
        cairo_scaled_font_glyph_extents(font.device, &one, 1, &extents)
        guard cairo_scaled_font_status(font.device) == CAIRO_STATUS_SUCCESS else { return nil }
        var glyph = Glyph(
            x1: Self.fixed(extents.x_bearing), y1: Self.fixed(extents.y_bearing),
            x2: Self.fixed(extents.x_bearing + extents.width), y2: Self.fixed(extents.y_bearing + extents.height),
            inked: false, usable: false)
        if let image = rasterize(id, of: font, box: glyph) {
            glyph.usable = true
            glyph.inked = image.pixels != nil
            if let pixels = image.pixels { _ = insert(id, of: font, pixels, origin: image.origin) }
        }
        font.glyphs[id] = glyph
        return glyph
    }

    /// pixman's image of a glyph that has one, drawn again if pixman has let go of it.
    /// Called with the cache frozen.
    private func image(_ id: UInt32, of font: Font) -> UnsafeRawPointer? {
        let keys = Self.keys(id, of: font)
        if let image = pixman_glyph_cache_lookup(cache, keys.font, keys.glyph) { return image }
        guard let box = font.glyphs[id], let image = CairoFontLock.held({ rasterize(id, of: font, box: box) }),
            let pixels = image.pixels
        else { return nil }
        return insert(id, of: font, pixels, origin: image.origin)
    }

    /// Puts a copy of `pixels` into pixman's cache, and lets go of `pixels`. Called with the
    /// cache frozen.
    private func insert(_ id: UInt32, of font: Font, _ pixels: OpaquePointer, origin: (x: Int32, y: Int32))
        -> UnsafeRawPointer?
    {
        defer { pixman_image_unref(pixels) }
        cachedBytes += Int(pixman_image_get_stride(pixels)) * Int(pixman_image_get_height(pixels))
        let keys = Self.keys(id, of: font)
        return pixman_glyph_cache_insert(cache, keys.font, keys.glyph, origin.x, origin.y, pixels)
    }

    /// pixman's keys for a glyph: its font's `id`, and its id + 1 (neither is ever null).
    private static func keys(_ id: UInt32, of font: Font) -> (font: UnsafeMutableRawPointer?, glyph: UnsafeMutableRawPointer?) {
        (UnsafeMutableRawPointer(bitPattern: font.id), UnsafeMutableRawPointer(bitPattern: UInt(id) + 1))
    }

    /// Draws glyph `id` with Cairo, as the page would, on an A8 image with a margin of 2 pixels
    /// around its box and its origin on a whole pixel. Returns its nonzero pixels (nil for none)
    /// with the origin's place in them; nil when the image did not fit (a pixel in the margin's
    /// outer ring) or Cairo failed.
    private func rasterize(_ id: UInt32, of font: Font, box: Glyph)
        -> (pixels: OpaquePointer?, origin: (x: Int32, y: Int32))?
    {
        let margin: Int32 = 2
        let left = (box.x1 >> 8) - margin, top = (box.y1 >> 8) - margin
        let right = -((-box.x2) >> 8) + margin, bottom = -((-box.y2) >> 8) + margin
        let width = right - left, height = bottom - top
        guard width > 0, height > 0, width <= 4096, height <= 4096,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height)
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        PageDrawer.setFontOptions(cr)
        cairo_set_font_face(cr, font.face.pointer)
        cairo_set_font_size(cr, font.key.size)
        // The page's scale, with the glyph's origin on a whole pixel.
        var matrix = cairo_matrix_t(
            xx: font.key.scaleX, yx: 0, xy: 0, yy: font.key.scaleY, x0: Double(-left), y0: Double(-top))
        cairo_set_matrix(cr, &matrix)
        var glyph = cairo_glyph_t(index: UInt(id), x: 0, y: 0)
        cairo_show_glyphs(cr, &glyph, 1)
        cairo_surface_flush(surface)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var inkLeft = width, inkTop = height, inkRight: Int32 = 0, inkBottom: Int32 = 0
        for y in 0..<height {
            let row = data + Int(y) * stride
            for x in 0..<width where row[Int(x)] != 0 {
                if x == 0 || y == 0 || x == width - 1 || y == height - 1 { return nil }
                inkLeft = min(inkLeft, x)
                inkRight = max(inkRight, x + 1)
                inkTop = min(inkTop, y)
                inkBottom = max(inkBottom, y + 1)
            }
        }
        let origin = (x: -left - inkLeft, y: -top - inkTop)
        guard inkLeft < inkRight else { return (nil, origin) }
        // The nonzero pixels, copied out of the surface.
        guard
            let whole = pixman_image_create_bits(
                PIXMAN_a8, width, height, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                Int32(stride))
        else { return nil }
        defer { pixman_image_unref(whole) }
        guard let pixels = pixman_image_create_bits(PIXMAN_a8, inkRight - inkLeft, inkBottom - inkTop, nil, 0)
        else { return nil }
        pixman_image_composite32(
            PIXMAN_OP_SRC, whole, nil, pixels, inkLeft, inkTop, 0, 0, 0, 0, inkRight - inkLeft, inkBottom - inkTop)
        return (pixels, origin)
    }

    // MARK: - Color

    /// Cairo's 16-bit premultiplied channels of a color set with `cairo_set_source_rgba`.
    private static func shorts(_ color: Color) -> pixman_color_t {
        func clamped(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        func short(_ value: Double) -> UInt16 { UInt16(value * 65535.0 + 0.5) }
        let alpha = clamped(color.alpha)
        return pixman_color_t(
            red: short(clamped(color.red) * alpha), green: short(clamped(color.green) * alpha),
            blue: short(clamped(color.blue) * alpha), alpha: short(alpha))
    }

    private func source(for color: Color, shorts: pixman_color_t) -> OpaquePointer? {
        if let source = sources[color] { return source }
        var shorts = shorts
        guard let source = pixman_image_create_solid_fill(&shorts) else { return nil }
        sources[color] = source
        return source
    }

    // MARK: - Fixed point

    /// `_cairo_fixed_from_double`: 24.8 fixed point, rounded to nearest (ties to even).
    private static func fixed(_ value: Double) -> Int32 {
        Int32(truncatingIfNeeded: (value + Double(1 << 44) * 1.5).bitPattern)
    }
}
