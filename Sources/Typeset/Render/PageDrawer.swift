// Draws laid-out pages (Layout/Page.swift) on a Cairo image surface for PNG: background, glyph
// runs, rectangles, rules and images; structure tags are checked for balance (PDFWriter writes
// them into PDFs). The surfaces are made in Renderer.swift. Glyph runs go to RasterGlyphs.swift
// where it can draw Cairo's pixels without Cairo's lock. (SVG pages: SVGWriter.swift.)
import CCairo

/// Draws the pages of one render, in order, on one thread. Keeps the state that spans pages:
/// open structure tags and the images already decoded.
final class PageDrawer: PageWriting {
    private let fonts: CairoFontCache
    private(set) var tags = StructureTagBalance()
    /// Each image file decoded once per drawer (one per thread of a render), while the decoded
    /// images fit `imageBudget`: a document of many large pictures held every one decoded to
    /// the end (128 of 4000 × 4000 pixels: 7.8 GB). Past it the pictures drawn longest ago make
    /// room, and are decoded again if shown again.
    private var images: [String: (surface: CairoSurface, bytes: Int, lastUse: Int)] = [:]
    private var imageBytes = 0
    private var imageUses = 0
    static let imageBudget = 512 << 20
    /// Bitmap fonts (nil: the font has outlines) and their glyphs' images, drawn as images at
    /// their own resolution and the run's opacity, as PDFs draw them (Cairo's image surface drew
    /// them opaque whatever the run's color).
    private var bitmapFonts: [FontFace: FontProgram?] = [:]
    private var glyphImages: [FontFace: [UInt32: (image: CairoSurface, glyph: BitmapGlyph)?]] = [:]
    /// The face of the previous run: runs mostly repeat it, and the shared cache takes a lock.
    private var lastFace: (font: FontFace, face: CairoFontFace)?
    /// Glyphs composited without Cairo's process-wide glyph lock (borrowed for the life of the
    /// drawer), and the page being drawn, when its runs can be drawn that way.
    private let rasterGlyphs: RasterGlyphs?
    private var rasterTarget: RasterGlyphs.Target?
    /// Runs drawn through `RasterGlyphs` so far (the others went to Cairo).
    private(set) var runsDrawnDirectly = 0

    /// `directGlyphs: false` leaves every run to Cairo (tests compare the two).
    init(fonts: CairoFontCache = .shared, directGlyphs: Bool = true) {
        self.fonts = fonts
        rasterGlyphs = directGlyphs ? RasterGlyphs.borrow() : nil
    }

    deinit {
        if let rasterGlyphs { RasterGlyphs.giveBack(rasterGlyphs) }
    }

    /// Draws one page on `context`, whose user space is in points from the page's top-left.
    /// `pageNumber` counts from 1 and is used in error messages.
    func draw(_ page: Page, pageNumber: Int, on context: CairoContext) throws {
        let cr = context.pointer
        Self.setFontOptions(cr)
        cairo_reset_clip(cr)
        set(page.background, on: cr)
        // The background replaces whatever the pixels were (the same pixels as painted over
        // transparent ones), so the image's memory is reused uncleared (`PixelMemory`). It
        // covers every pixel: a page rounded up to whole pixels has no half-transparent edge.
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        // Nothing else is drawn outside the page.
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, page.width, page.height)
        cairo_clip(cr)
        try context.check("painting the background of page \(pageNumber)")

        let surface = cairo_get_target(cr)
        if let rasterGlyphs, let surface {
            rasterTarget = rasterGlyphs.target(
                for: surface, context: cr, pageWidth: page.width, pageHeight: page.height)
        }
        defer {
            if let rasterGlyphs, let target = rasterTarget, let surface { rasterGlyphs.end(target, surface: surface) }
            rasterTarget = nil
        }
        for (index, item) in page.items.enumerated() {
            let itemNumber = index + 1
            try draw(item, on: context, page: pageNumber, item: itemNumber, depth: 0)
            try context.check("drawing item \(itemNumber) of page \(pageNumber)")
        }
    }

    /// Draws one item; `depth` counts the subpages it is inside, whose tags are not drawn.
    private func draw(_ item: PageItem, on context: CairoContext, page: Int, item itemNumber: Int, depth: Int) throws {
        let cr = context.pointer
        switch item {
        case .glyphs(let run):
            try draw(run, on: cr, page: page, item: itemNumber, topLevel: depth == 0)
        case .rectangle(let rectangle):
            draw(rectangle, on: cr)
        case .rule(let rule):
            draw(rule, on: cr)
        case .image(let image):
            try draw(image, on: cr)
        case .beginTag(let tag, _, _):
            if depth == 0 { tags.begin(tag) }
        case .endTag(let tag, _):
            if depth == 0 { try tags.end(tag, page: page) }
        case .subpage(let subpage):
            try draw(subpage, on: context, page: page, item: itemNumber, depth: depth + 1)
        }
    }

    /// A page inside this one: translated, scaled and clipped to its box, background first.
    private func draw(_ subpage: SubpageItem, on context: CairoContext, page: Int, item: Int, depth: Int) throws {
        try subpage.check(page: page, item: item, depth: depth)
        let inner = subpage.page
        let cr = context.pointer
        cairo_save(cr)
        cairo_translate(cr, subpage.x, subpage.y)
        cairo_scale(cr, subpage.scale, subpage.scale)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, inner.width, inner.height)
        cairo_clip(cr)
        set(inner.background, on: cr)
        cairo_paint(cr)
        defer { cairo_restore(cr) }
        for innerItem in inner.items {
            try draw(innerItem, on: context, page: page, item: item, depth: depth)
        }
    }

    /// Throws unless every tag begun has been ended; call after the last page.
    func checkTagsClosed(pageCount: Int) throws {
        try tags.checkClosed(pageCount: pageCount)
    }

    // MARK: - Items

    /// `topLevel`: not inside a subpage, which Cairo clips.
    private func draw(_ run: GlyphRun, on cr: OpaquePointer, page: Int, item: Int, topLevel: Bool) throws {
        guard !run.glyphs.isEmpty else { return }
        try run.checkMade(page: page, item: item)
        let face: CairoFontFace
        if let last = lastFace, last.font == run.font {
            face = last.face
        } else {
            face = try fonts.face(for: run.font)
            lastFace = (run.font, face)
        }
        if topLevel, let rasterGlyphs, let target = rasterTarget, rasterGlyphs.draw(run, face: face, on: target) {
            runsDrawnDirectly += 1
            return
        }
        if let program = bitmapFont(run.font) {
            drawBitmaps(run, program, on: cr)
            return
        }
        let glyphs = run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: $0.x, y: $0.y) }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        let outlines = !face.hasColorGlyphs && Self.deviceSize(run.size, matrix) > Self.largestGlyphImage
        // The scaled font is made, used and let go of (by the restore) under `CairoFontLock`.
        CairoFontLock.held {
            cairo_save(cr)
            cairo_set_font_face(cr, face.pointer)  // the context keeps its own reference
            cairo_set_font_size(cr, run.size)
            set(run.color, on: cr)
            // Glyphs only: an image surface keeps no text, and Cairo refuses text with
            // noncharacters (U+FDD0, U+FFFF, ...) as invalid UTF-8, which XML and catalogs allow.
            if outlines {
                cairo_new_path(cr)
                cairo_glyph_path(cr, glyphs, Int32(glyphs.count))
                cairo_fill(cr)
            } else {
                cairo_show_glyphs(cr, glyphs, Int32(glyphs.count))
            }
            cairo_restore(cr)
        }
    }

    /// The largest text, in device pixels per em, drawn from glyph images; larger text is filled
    /// as outlines, as Cairo itself fills text above 10,240 pixels. Cairo keeps the images of up
    /// to 16,384 glyphs (512 pages of 32) in its fonts, the 256 fonts let go of last included,
    /// whatever their size: 100 sizes of the alphabet at 200–1,000 pt drawn at 2× held 3.6 GB.
    /// Interface text stays far below it (a 34 pt title at 3× is 102 pixels).
    static let largestGlyphImage = 256.0

    /// Cairo's `max_scale` of a font of `size` points under the CTM `matrix`: its largest
    /// device size.
    static func deviceSize(_ size: Double, _ matrix: cairo_matrix_t) -> Double {
        size * max(abs(matrix.xx) + abs(matrix.xy), abs(matrix.yx) + abs(matrix.yy))
    }

    private func bitmapFont(_ face: FontFace) -> FontProgram? {
        if let known = bitmapFonts[face] { return known }
        let program = FontProgram.of(face)
        bitmapFonts[face] = program.isBitmap ? program : nil
        return program.isBitmap ? program : nil
    }

    /// Each glyph of a bitmap font's run as its image, where the glyph's bitmap stands (as the
    /// PDF draws it), at the run's opacity; a glyph without one is left out.
    private func drawBitmaps(_ run: GlyphRun, _ program: FontProgram, on cr: OpaquePointer) {
        for glyph in run.glyphs {
            let known = glyphImages[run.font]?[glyph.id]
            let entry = known ?? program.bitmap(glyph.id).flatMap { bitmap -> (image: CairoSurface, glyph: BitmapGlyph)? in
                guard let image = CairoSurface(png: bitmap.png) else { return nil }
                var drawn = bitmap
                drawn.png = []  // decoded into the surface
                return (image, drawn)
            }
            if known == nil { glyphImages[run.font, default: [:]][glyph.id] = .some(entry) }
            guard let entry else { continue }
            let frame = entry.glyph.frame(originX: glyph.x, originY: glyph.y, size: run.size)
            let pixelWidth = Double(cairo_image_surface_get_width(entry.image.pointer))
            let pixelHeight = Double(cairo_image_surface_get_height(entry.image.pointer))
            cairo_save(cr)
            cairo_translate(cr, frame.x, frame.y)
            cairo_scale(cr, frame.width / pixelWidth, frame.height / pixelHeight)
            cairo_set_source_surface(cr, entry.image.pointer, 0, 0)
            cairo_new_path(cr)
            cairo_rectangle(cr, 0, 0, pixelWidth, pixelHeight)
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, run.color.alpha)
            cairo_restore(cr)
        }
    }

    /// A rectangle (a button, a background, a sheet's cell frame) has its edges on whole
    /// pixels, as dividers do: at fractional ones its top and bottom rows were partly covered,
    /// pale (a button's 24% and 44% at 1×), and a cell's 1 pt frame smeared over three rows at
    /// 2×. A frame's line is whole pixels wide, its edges between pixels.
    private func draw(_ rectangle: RectangleItem, on cr: OpaquePointer) {
        guard rectangle.fill != nil || rectangle.stroke != nil else { return }
        // A device pixel in user space (pages are only moved and scaled).
        var (pixelWidth, pixelHeight) = (1.0, 1.0)
        cairo_device_to_user_distance(cr, &pixelWidth, &pixelHeight)
        (pixelWidth, pixelHeight) = (abs(pixelWidth), abs(pixelHeight))
        if let fill = rectangle.fill {
            cairo_new_path(cr)
            addOnPixels(rectangle, shift: 0, pixel: (pixelWidth, pixelHeight), on: cr)
            set(fill, on: cr)
            cairo_fill(cr)
        }
        if let stroke = rectangle.stroke {
            // A point's width in whole pixels; an odd line's middle is a pixel's middle.
            let pixels = max(1, (1 / pixelWidth).rounded())
            cairo_new_path(cr)
            addOnPixels(rectangle, shift: pixels.truncatingRemainder(dividingBy: 2) == 1 ? 0.5 : 0, pixel: (pixelWidth, pixelHeight), on: cr)
            set(stroke, on: cr)
            cairo_set_line_width(cr, pixels * pixelWidth)
            cairo_stroke(cr)
        }
        cairo_new_path(cr)
    }

    /// Adds `rectangle`'s path with its edges on whole device pixels, plus `shift` (half a
    /// pixel: the middles of pixels); what is thinner than a `pixel` stays one, not none.
    private func addOnPixels(_ rectangle: RectangleItem, shift: Double, pixel: (width: Double, height: Double), on cr: OpaquePointer) {
        var (left, top) = Self.onPixels(rectangle.x, rectangle.y, shift: shift, on: cr)
        var (right, bottom) = Self.onPixels(rectangle.x + rectangle.width, rectangle.y + rectangle.height, shift: shift, on: cr)
        if rectangle.width > 0 && right == left { right = left + pixel.width }
        if rectangle.height > 0 && bottom == top { bottom = top + pixel.height }
        addRoundedRectangle(
            cr, x: min(left, right), y: min(top, bottom), width: abs(right - left), height: abs(bottom - top),
            radius: min(rectangle.drawnCornerRadius, abs(right - left) / 2, abs(bottom - top) / 2))
    }

    /// The point `(x, y)` moved to the nearest corner of device pixels (or, `shift` 0.5, the
    /// nearest middle of one), in user space.
    private static func onPixels(_ x: Double, _ y: Double, shift: Double = 0, on cr: OpaquePointer) -> (x: Double, y: Double) {
        var (x, y) = (x, y)
        cairo_user_to_device(cr, &x, &y)
        (x, y) = ((x - shift).rounded() + shift, (y - shift).rounded() + shift)
        cairo_device_to_user(cr, &x, &y)
        return (x, y)
    }

    private func addRoundedRectangle(
        _ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double
    ) {
        guard radius > 0 else {
            cairo_rectangle(cr, x, y, width, height)
            return
        }
        let quarter = Double.pi / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - radius, y + radius, radius, -quarter, 0)
        cairo_arc(cr, x + width - radius, y + height - radius, radius, 0, quarter)
        cairo_arc(cr, x + radius, y + height - radius, radius, quarter, 2 * quarter)
        cairo_arc(cr, x + radius, y + radius, radius, 2 * quarter, 3 * quarter)
        cairo_close_path(cr)
    }

    /// A horizontal rule (a divider) lies on whole rows of pixels, as iOS draws its separators:
    /// on fractional ones (46.1 pt) a 1 pt rule was smeared over three rows at 2× and four at 3×,
    /// each divider of a list differently. Its thickness is rounded to whole pixels, one at least.
    private func draw(_ rule: RuleItem, on cr: OpaquePointer) {
        guard rule.thickness > 0 else { return }
        var (y1, y2, thickness) = (rule.y1, rule.y2, rule.thickness)
        if rule.y1 == rule.y2 {
            // (Pages are only moved and scaled: y does not depend on x.)
            var (x, top, bottom) = (rule.x1, rule.y1 - thickness / 2, rule.y1 + thickness / 2)
            var x2 = x
            cairo_user_to_device(cr, &x, &top)
            cairo_user_to_device(cr, &x2, &bottom)
            let rows = max(1, abs(bottom - top).rounded())
            top = ((top + bottom - rows) / 2).rounded()
            bottom = top + rows
            cairo_device_to_user(cr, &x, &top)
            cairo_device_to_user(cr, &x2, &bottom)
            (y1, y2, thickness) = ((top + bottom) / 2, (top + bottom) / 2, abs(bottom - top))
        }
        cairo_new_path(cr)
        cairo_move_to(cr, rule.x1, y1)
        cairo_line_to(cr, rule.x2, y2)
        cairo_set_line_width(cr, thickness)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        set(rule.color, on: cr)
        cairo_stroke(cr)
    }

    private func draw(_ item: ImageItem, on cr: OpaquePointer) throws {
        var image = try loadImage(item.path)
        var pixelWidth = Double(cairo_image_surface_get_width(image.pointer))
        var pixelHeight = Double(cairo_image_surface_get_height(image.pointer))
        guard pixelWidth > 0, pixelHeight > 0, item.width > 0, item.height > 0 else { return }
        // Shrunk more than Cairo's filter reads (it averages at most 16 pixels a side: a
        // picture drawn 40 times smaller came out as moiré; shrunk more than pixman's fixed-point
        // transforms hold, 16,384 pixels drawn 0.2 pt wide failed, "out of memory"), it is
        // shrunk first, in steps of at most 16 times, each at the origin: to a whole number of
        // times the pixels it covers, which the last drawing averages whole (stripes shrunk
        // 40 times to 2.5 times their cover came out in bands); a thousandth of a pixel shows
        // nothing.
        var (deviceWidth, deviceHeight) = (item.width, item.height)
        cairo_user_to_device_distance(cr, &deviceWidth, &deviceHeight)
        (deviceWidth, deviceHeight) = (abs(deviceWidth), abs(deviceHeight))
        guard deviceWidth > 0.001, deviceHeight > 0.001 else { return }
        func stepSize(_ pixels: Double, _ device: Double) -> Double {
            let times = (pixels / device / Self.largestShrink).rounded(.up)
            let size = times <= Self.largestShrink ? device * max(times, 1) : pixels / Self.largestShrink
            return min(pixels, max(1, size.rounded(.up)))
        }
        while pixelWidth / deviceWidth > Self.largestShrink || pixelHeight / deviceHeight > Self.largestShrink {
            let (width, height) = (stepSize(pixelWidth, deviceWidth), stepSize(pixelHeight, deviceHeight))
            guard width < pixelWidth || height < pixelHeight else { break }
            let small = CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
            let step = CairoContext(surface: small)
            cairo_scale(step.pointer, width / pixelWidth, height / pixelHeight)
            cairo_set_source_surface(step.pointer, image.pointer, 0, 0)
            cairo_pattern_set_extend(cairo_get_source(step.pointer), CAIRO_EXTEND_PAD)
            cairo_paint(step.pointer)
            try step.check("shrinking the image \(item.path)")
            (image, pixelWidth, pixelHeight) = (small, width, height)
        }
        cairo_save(cr)
        // At a whole pixel, as text and dividers are: an @2x icon drawn at 2× is then its own
        // pixels (below a caption, at 76.6 pt, it was resampled, its 2-pixel strokes spread
        // over three rows, and moved from sharp to blurred as the text above it changed).
        let (originX, originY) = Self.onPixels(item.flipped ? item.x + item.width : item.x, item.y, on: cr)
        // Mirroring: draw from the box's right edge with a negative horizontal scale.
        cairo_translate(cr, originX, originY)
        cairo_scale(cr, (item.flipped ? -1 : 1) * item.width / pixelWidth, item.height / pixelHeight)
        cairo_set_source_surface(cr, image.pointer, 0, 0)
        // Padded at the edges instead of fading into transparency.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, pixelWidth, pixelHeight)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// The most an image is shrunk in one drawing: Cairo's good filter averages at most 16
    /// pixels a side (pixman's 16.16 transforms hold 32,767, offsets included).
    private static let largestShrink = 16.0

    private func loadImage(_ path: String) throws -> CairoSurface {
        imageUses += 1
        if let cached = images[path] {
            images[path]?.lastUse = imageUses
            return cached.surface
        }
        let image = try CairoSurface(decodingPNGAt: path)
        let bytes = Int(cairo_image_surface_get_stride(image.pointer)) * Int(cairo_image_surface_get_height(image.pointer))
        // (Clearing the whole cache when full decoded a set of pictures just past the budget,
        // shown on every page, again on every page.)
        while imageBytes + bytes > Self.imageBudget, let oldest = images.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            imageBytes -= oldest.value.bytes
            images[oldest.key] = nil
        }
        images[path] = (image, bytes, imageUses)
        imageBytes += bytes
        return image
    }

    // MARK: - State

    private func set(_ color: Color, on cr: OpaquePointer) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// Fixed font options, so that raster output does not depend on the machine's settings.
    static func setFontOptions(_ cr: OpaquePointer) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
    }
}
