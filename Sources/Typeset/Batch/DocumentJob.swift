// One input read, parsed and laid out, as the command line's render, layout, snapshot and diff
// take it (they render the layout themselves; a sheet lays out each cell in its own locale).

import FoundationEssentials

/// What went into laying out one input, shared by every input of a batch.
public struct JobSettings: Sendable {
    public var assetDirectories: [String]
    public var layout: LayoutOptions
    /// The scale of the PNG pages to be drawn, if any: a page too large for one is the
    /// document's error, at its root element, found before anything is drawn.
    public var pngScale: Double?
    public init(assetDirectories: [String] = [], layout: LayoutOptions = LayoutOptions(), pngScale: Double? = nil) {
        self.assetDirectories = assetDirectories
        self.layout = layout
        self.pngScale = pngScale
    }
}

/// The outcome of one input: its diagnostics, and its layout unless it had errors.
public struct DocumentOutcome: Sendable {
    public var input: String
    public var diagnostics: Diagnostics
    public var layout: LayoutResult?
    public var failed: Bool { layout == nil || diagnostics.hasErrors }
}

extension Typesetter {
    /// Parses and lays out the markup file at `path`. Errors leave `layout` nil.
    public func layoutFile(_ path: String, settings: JobSettings) -> DocumentOutcome {
        let parsed = MarkupParser.parse(path: path, assetDirectories: settings.assetDirectories)
        var diagnostics = parsed.diagnostics
        guard let document = parsed.document, !diagnostics.hasErrors else {
            return DocumentOutcome(input: path, diagnostics: diagnostics, layout: nil)
        }
        let result = layout(document, options: settings.layout)
        diagnostics.append(contentsOf: result.diagnostics)
        if let scale = settings.pngScale,
            let problem = result.pages.indices.lazy.compactMap({
                pngSizeProblem(result.pages[$0], pageNumber: $0 + 1, scale: scale)
            }).first
        {
            diagnostics.report(.error(document.location, problem))
        }
        return DocumentOutcome(input: path, diagnostics: diagnostics, layout: result)
    }
}
