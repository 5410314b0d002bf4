// Owners of Cairo objects (surfaces, contexts, in-memory output streams). Nothing here leaves
// Render/ and Diff/: callers see Swift values only.
import CCairo

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

    /// Throws if the surface is in an error state (errors are sticky: they stay once set).
    func check(_ context: @autoclosure () -> String) throws {
        let status = cairo_surface_status(pointer)
        if status != CAIRO_STATUS_SUCCESS {
            throw RenderError.cairo(status: cairoMessage(status), context: context())
        }
    }

    /// Finishes the surface (writes out PDF/SVG) and reports any error that surfaced then, such
    /// as badly nested PDF tags.
    func finish(_ context: @autoclosure () -> String) throws {
        cairo_surface_finish(pointer)
        try check(context())
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

/// Collects the bytes a Cairo stream surface or `cairo_surface_write_to_png_stream` writes, so
/// that output reaches the disk only through an atomic write.
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

/// Encodes an image surface as PNG bytes: opaque ARGB32 images with `PNGEncoder` (the same
/// pixels as Cairo's writer, several times faster), others with Cairo's writer.
func pngBytes(of surface: CairoSurface, context: @autoclosure () -> String) throws -> [UInt8] {
    cairo_surface_flush(surface.pointer)
    try surface.check(context())
    let image = surface.pointer
    if cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(image),
        let png = PNGEncoder.encodeOpaque(
            pixels: data, width: Int(cairo_image_surface_get_width(image)),
            height: Int(cairo_image_surface_get_height(image)), stride: Int(cairo_image_surface_get_stride(image)))
    {
        return png
    }
    return try cairoPNGBytes(of: surface, context: context())
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
