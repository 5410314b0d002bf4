// Errors of the rendering stage (SPEC §5: every failure is reported, never a partial file).

/// Why a render failed. Nothing is written when a render throws.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// There was nothing to render.
    case noPages
    /// A page or option value Cairo cannot use (zero or negative size, too many pixels, ...).
    case invalidInput(String)
    /// Cairo reported an error; `context` says what was being done (page, item).
    case cairo(status: String, context: String)
    /// A font file that FreeType cannot open, or whose glyphs cannot be copied into a PDF.
    case font(path: String, reason: String)
    /// An image file could not be read as PNG.
    case image(path: String, reason: String)
    /// A glyph run whose clusters do not add up to its text and glyphs.
    case invalidGlyphRun(page: Int, item: Int, reason: String)
    /// `beginTag`/`endTag` items that do not nest.
    case unbalancedTags(page: Int, reason: String)
    /// The output file could not be written.
    case write(path: String, reason: String)

    public var description: String {
        switch self {
        case .noPages:
            return "nothing to render: no pages"
        case .invalidInput(let reason):
            return reason
        case .cairo(let status, let context):
            return "Cairo error while \(context): \(status)"
        case .font(let path, let reason):
            return "cannot use font \(path): \(reason)"
        case .image(let path, let reason):
            return "cannot read image \(path): \(reason)"
        case .invalidGlyphRun(let page, let item, let reason):
            return "page \(page), item \(item): invalid glyph run: \(reason)"
        case .unbalancedTags(let page, let reason):
            return "page \(page): structure tags do not nest: \(reason)"
        case .write(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
