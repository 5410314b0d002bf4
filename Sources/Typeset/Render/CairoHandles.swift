// Owners of Cairo objects (surfaces, contexts, in-memory output streams), used by Render/,
// Diff/ and Markup/PNGFile.swift (which decodes a picture as the page will draw it); callers
// see Swift values only.
import CCairo
import Glibc

/// Cairo's font work, one thread at a time: Cairo 1.16 takes its scaled-font locks in
/// different orders in `cairo_show_glyphs` and `cairo_scaled_font_destroy`, and two threads
/// drawing many sizes (thousands, a glyph cache's worth) deadlocked there, a PNG render
/// hanging in a third to a half of its runs. Held where a scaled font is made, used for a
/// glyph Cairo has not drawn yet, or let go of; glyphs drawn from our own cache
/// (`RasterGlyphs`) need no Cairo font. Not taken again inside: no font of ours is let go of
/// in a `held` body.
enum CairoFontLock {
    private static let lock = Locked(())

    static func held<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock { _ in try body() }
    }
}

/// Owns one `cairo_surface_t` reference.
final class CairoSurface {
    let pointer: OpaquePointer

    /// Takes over a reference returned by a `cairo_*_surface_create*` call. Cairo never returns
    /// NULL: failures come back as an error surface, which `check` reports.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        cairo_surface_destroy(pointer)
    }

    /// An image surface decoded from a PNG in memory (a bitmap glyph's); nil if Cairo cannot
    /// read it.
    convenience init?(png: [UInt8]) {
        guard let surface = PNGFile.cairoSurface(decoding: png) else { return nil }
        self.init(taking: surface)
        guard cairo_surface_status(pointer) == CAIRO_STATUS_SUCCESS else { return nil }
    }

    /// An image surface decoded from the PNG file at `path` by Cairo (libpng); throws
    /// `RenderError.image` with Cairo's reason if it cannot read it.
    convenience init(decodingPNGAt path: String) throws {
        self.init(taking: cairo_image_surface_create_from_png(path))
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.image(path: path, reason: cairoMessage(status))
        }
    }

    /// Throws if the surface is in an error state (errors are sticky: they stay once set).
    func check(_ context: @autoclosure () -> String) throws {
        let status = cairo_surface_status(pointer)
        if status != CAIRO_STATUS_SUCCESS {
            throw RenderError.cairo(status: cairoMessage(status), context: context())
        }
    }
}

/// Memory for the pixels of PNG pages, reused from page to page and between the jobs of a batch.
/// `cairo_image_surface_create` clears a new image (5.3 MB for a 780 × 1688 page, by memset),
/// which the page's background then paints over again: a pixel buffer taken from here is not
/// cleared, as the page's background covers every pixel (`PageDrawer.draw` paints it with
/// `CAIRO_OPERATOR_SOURCE`, the same pixels as painting it over transparent ones).
final class PixelMemory: @unchecked Sendable {
    // @unchecked: `idle` is a `Locked`; a buffer is used by one render at a time.
    static let shared = PixelMemory()
    /// Larger images are made by Cairo, on memory of their own (a 14,400 pt page at 2 pixels per
    /// point takes 3.3 GB).
    private static let largestKept = 64 << 20
    /// At most this many are kept (one per job of a batch on most machines).
    private static let mostKept = 4
    private let idle = Locked<[UnsafeMutableRawBufferPointer]>([])

    /// An image surface of `width` × `height` ARGB32 pixels on memory of this pool, not cleared
    /// (`body` paints every pixel over with the operator SOURCE first), passed to `body`; the
    /// memory returns to the pool when `body` is done with it.
    func withImageSurface<Result>(
        width: Int, height: Int, _ body: (CairoSurface) throws -> Result
    ) throws -> Result {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride > 0 else { throw RenderError.invalidInput("an image \(width) pixels wide is too wide") }
        let size = stride * height
        guard size <= Self.largestKept else {
            // Cairo's own memory, cleared, whose failure to allocate is an error surface.
            return try body(
                CairoSurface(taking: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))))
        }
        let memory = try take(size)
        // The memory is used again only if no one else holds the surface when `body` is done (a
        // context drawing on it holds a reference); otherwise it is left as it is, never freed.
        var released = false
        defer { if released { give(memory) } }
        return try Self.draw(on: memory, width: width, height: height, stride: stride, released: &released, body)
    }

    /// The surface is made and destroyed here, before its memory can go back to the pool.
    private static func draw<Result>(
        on memory: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int, released: inout Bool,
        _ body: (CairoSurface) throws -> Result
    ) throws -> Result {
        let surface = CairoSurface(
            taking: cairo_image_surface_create_for_data(
                memory.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width),
                Int32(height), Int32(stride)))
        defer { released = cairo_surface_get_reference_count(surface.pointer) == 1 }
        return try body(surface)
    }

    private func take(_ size: Int) throws -> UnsafeMutableRawBufferPointer {
        let reused = idle.withLock { buffers -> UnsafeMutableRawBufferPointer? in
            guard let index = buffers.firstIndex(where: { $0.count == size }) else { return nil }
            return buffers.remove(at: index)
        }
        return try reused ?? Self.allocate(size)
    }

    private func give(_ buffer: UnsafeMutableRawBufferPointer) {
        let dropped = idle.withLock { buffers -> UnsafeMutableRawBufferPointer? in
            buffers.append(buffer)
            return buffers.count > Self.mostKept ? buffers.removeFirst() : nil
        }
        if let dropped { free(dropped.baseAddress) }
    }

    /// Transparent huge pages: the kernel's 2 MiB pages.
    private static let hugePage = 2 << 20

    /// `size` bytes (freed with `free`), from 2 MiB on in huge pages where the kernel gives them
    /// (its `madvise` mode, Debian's default): a 780 × 1688 page's 5.3 MB are then three page
    /// faults instead of 1,290 (a process rendering one page to PNG took 18.8 ms, now 15.8), and
    /// the passes that draw and encode it miss the TLB less. Smaller images keep small pages:
    /// one byte touched would clear a whole huge page. Throws when the memory is not there.
    private static func allocate(_ size: Int) throws -> UnsafeMutableRawBufferPointer {
        let base: UnsafeMutableRawPointer?
        if size >= hugePage {
            let rounded = (size + hugePage - 1) / hugePage * hugePage
            base = aligned_alloc(hugePage, rounded)
            if let base { _ = madvise(base, rounded, MADV_HUGEPAGE) }
        } else {
            base = malloc(max(size, 1))
        }
        guard let base else { throw RenderError.invalidInput("out of memory: \(size) bytes for the pixels of a page") }
        return UnsafeMutableRawBufferPointer(start: base, count: size)
    }
}

/// Owns one `cairo_t`.
final class CairoContext {
    let pointer: OpaquePointer

    init(surface: CairoSurface) {
        pointer = cairo_create(surface.pointer)
    }

    deinit {
        cairo_destroy(pointer)
    }

    /// Throws if drawing has failed; Cairo silently drops everything drawn after an error.
    func check(_ context: @autoclosure () -> String) throws {
        let status = cairo_status(pointer)
        if status != CAIRO_STATUS_SUCCESS {
            throw RenderError.cairo(status: cairoMessage(status), context: context())
        }
    }
}

/// Collects the bytes `cairo_surface_write_to_png_stream` writes, so that output reaches the disk
/// only through an atomic write.
final class ByteSink {
    var bytes: [UInt8] = []

    /// The closure pointer to pass with `ByteSink.write`; valid while `self` is alive.
    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        if let data, length > 0 {
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        }
        return CAIRO_STATUS_SUCCESS
    }
}

/// Cairo's own description of a status ("invalid clusters", "file not found", ...).
func cairoMessage(_ status: cairo_status_t) -> String {
    guard let text = cairo_status_to_string(status) else { return "status \(status.rawValue)" }
    return String(cString: text)
}

/// Encodes an image surface as PNG bytes: ARGB32 images with `PNGEncoder` (the same pixels as
/// Cairo's writer, several times faster), others (and opaque ones too wide for it) with Cairo's
/// writer; with a pHYs chunk when `pixelsPerPoint` is given.
func pngBytes(of surface: CairoSurface, pixelsPerPoint: Double? = nil, context: @autoclosure () -> String) throws
    -> [UInt8]
{
    cairo_surface_flush(surface.pointer)
    try surface.check(context())
    let image = surface.pointer
    if cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(image) {
        let (width, height) = (Int(cairo_image_surface_get_width(image)), Int(cairo_image_surface_get_height(image)))
        let stride = Int(cairo_image_surface_get_stride(image))
        if let png = PNGEncoder.encodeOpaque(pixels: data, width: width, height: height, stride: stride, pixelsPerPoint: pixelsPerPoint)
            ?? (PNGEncoder.mayBeTranslucent(pixels: data, width: width, height: height, stride: stride)
                ? PNGEncoder.encodeTranslucent(pixels: data, width: width, height: height, stride: stride, pixelsPerPoint: pixelsPerPoint)
                : nil)
        {
            return png
        }
    }
    let png = try cairoPNGBytes(of: surface, context: context())
    return PNGEncoder.marked(png, resolution: pixelsPerPoint.map(PNGEncoder.resolution(pixelsPerPoint:)))
}

/// Encodes an image surface as PNG bytes with Cairo's own writer (libpng).
func cairoPNGBytes(of surface: CairoSurface, context: @autoclosure () -> String) throws -> [UInt8] {
    cairo_surface_flush(surface.pointer)
    try surface.check(context())
    let sink = ByteSink()
    let status = withExtendedLifetime(sink) {
        cairo_surface_write_to_png_stream(surface.pointer, ByteSink.write, sink.closure)
    }
    if status != CAIRO_STATUS_SUCCESS {
        throw RenderError.cairo(status: cairoMessage(status), context: context())
    }
    return sink.bytes
}
