// The whole pipeline for one document: parsed markup → styles → paragraphs → blocks → pages,
// with the layout report of SPEC §6. Rendering the pages is Render/'s job.

import FoundationEssentials

/// Options that change layout without changing the markup (SPEC §5.1–5.3).
public struct LayoutOptions: Sendable {
    /// `--locale`: sets the document's language unless the document pins it.
    public var locale: String?
    /// `--text-size`: the Dynamic Type body size in points; every style scales with it.
    public var bodySize: Double?
    /// `--strings`: the string catalog, nil when none was given. Its strings are looked up in
    /// the locale's language, or without a locale in the document's (SPEC 5.2).
    public var catalog: StringCatalog?
    /// `--strings` named a catalog that cannot be read (this path; the command prints its error
    /// once): a document that uses a key fails, saying so where it does; the others are laid
    /// out, as the other inputs of a batch are when one fails.
    public var unreadableCatalog: String?
    /// Whether the layout makes the report of SPEC §6 (`typeset layout`'s JSON); without it the
    /// report has the diagnostics and the pages' sizes, no blocks. The commands that draw pages
    /// do without (its lines and runs alone were 1.2% of the instructions of a PDF render).
    public var makesReport: Bool
    /// Whether a key looked up without a catalog is warned about, once a document; not where
    /// the caller says it once for all (a sheet: it was said once a cell's locale, 354 lines
    /// for 60 inputs, burying the one error).
    public var warnsOfNoCatalog = true

    public init(locale: String? = nil, bodySize: Double? = nil, catalog: StringCatalog? = nil, makesReport: Bool = true) {
        self.locale = locale
        self.bodySize = bodySize
        self.catalog = catalog
        self.makesReport = makesReport
    }
}

/// A document laid out: pages to render and the report `typeset layout` prints (without its
/// blocks unless `LayoutOptions.makesReport`).
public struct LayoutResult: Sendable {
    public var pages: [Page]
    public var report: LayoutReport
    public var diagnostics: Diagnostics
    /// The text of the first title, else of the first heading, for the PDF metadata; nil when
    /// neither has any.
    public var title: String?
    /// The document's language.
    public var language: String
    /// The body size the document was set in: its `font-size` scaled by the text size.
    public var bodySize: Double
}

/// Lays out documents. Thread-safe: one typesetter serves a parallel batch, sharing its font
/// and shaping caches.
public final class Typesetter: Sendable {
    let paragraphs: ParagraphLayouter

    /// - Parameter fontDirectories: extra font folders (`--font-dir`), searched before the
    ///   system fonts.
    public init(fontDirectories: [String] = []) {
        let fonts = FontDatabase(extraDirectories: fontDirectories)
        paragraphs = ParagraphLayouter(fonts: fonts, shaper: Shaper())
    }

    /// The files of the font folders that give no font, and why (`FontDatabase.unusableFiles`).
    public var unusableFontFiles: [(path: String, reason: String)] { paragraphs.fonts.unusableFiles }

    /// The font files of the bundled and extra folders (`FontDatabase.fontFiles`).
    public var fontFiles: [String] { paragraphs.fonts.fontFiles }

    /// Why the bundled fonts are not there (`FontDatabase.bundledFontsProblem`).
    public var bundledFontsProblem: String? { paragraphs.fonts.bundledFontsProblem }
    /// The folder the bundled fonts are looked for in, if any.
    public var bundledFontDirectory: String? { paragraphs.fonts.bundledDirectory }

    public func layout(_ document: Document, options: LayoutOptions = LayoutOptions()) -> LayoutResult {
        var layouter = BlockLayouter(document: document, options: options, paragraphs: paragraphs)
        return layouter.run()
    }
}
