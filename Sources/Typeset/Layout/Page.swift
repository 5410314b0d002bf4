// The laid-out page: what Layout/ produces and Render/ draws. Coordinates are points from the
// page's top-left corner, y downwards; nothing here holds a C object.

public struct Page: Sendable {
    public var width: Double
    public var height: Double
    public var background: Color
    /// Drawn in order, which is reading order: a line's glyph runs are in logical order, not
    /// left to right. Tags bracket the items that belong to a structure element (tagged PDF).
    public var items: [PageItem]
    public init(width: Double, height: Double, background: Color = .white, items: [PageItem] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }
}

public enum PageItem: Sendable {
    case glyphs(GlyphRun)
    case rectangle(RectangleItem)
    case rule(RuleItem)
    case image(ImageItem)
    /// Opens a structure element of tagged PDF (`Document` is implicit). Tags nest within each
    /// page. An element a page break splits (a paragraph, a list) ends with `continued` on the
    /// first page and begins with `continued` on the next: it is one element, not two. The
    /// outermost elements are in the order they end, but those with an `order` in its order.
    case beginTag(StructureTag, continued: Bool = false, order: StructureOrder? = nil)
    case endTag(StructureTag, continued: Bool = false)
    /// Another page drawn scaled and clipped inside this one, as vectors (comparison sheets,
    /// SPEC 5.4). Its structure tags are not drawn.
    case subpage(SubpageItem)
}

/// Where an outermost structure element goes among those of a row split between pages: its
/// columns end on different pages, not in their order. The elements of the row that began
/// `pagesBack` pages before the one this is on go in the order of their `index`.
public struct StructureOrder: Sendable, Equatable {
    public var pagesBack: Int
    public var index: Int

    public init(pagesBack: Int, index: Int) {
        self.pagesBack = pagesBack
        self.index = index
    }
}

/// PDF structure elements (ISO 32000-1 §14.8.4 standard structure types).
public enum StructureTag: String, Sendable {
    case h1 = "H1", h2 = "H2", paragraph = "P", list = "L", numberedList = "L (numbered)",
        unmarkedList = "L (no markers)", listItem = "LI", label = "Lbl", listBody = "LBody", figure = "Figure",
        division = "Div"

    /// The structure type it is written as.
    var type: String {
        switch self {
        case .numberedList, .unmarkedList: "L"
        default: rawValue
        }
    }

    /// A list's ListNumbering attribute (§14.8.5.5): how its items are marked.
    var listNumbering: String? {
        switch self {
        case .list: "Disc"
        case .numberedList: "Decimal"
        case .unmarkedList: "None"
        default: nil
        }
    }
}

/// One run of glyphs of one font, size and color, with its text and clusters so that PDF and SVG
/// text extracts with real letters (ToUnicode and /ActualText; SVGText.swift).
public struct GlyphRun: Sendable {
    public var font: FontFace
    /// Point size.
    public var size: Double
    public var color: Color
    /// Glyph ids and absolute positions (baseline origin of each glyph), in visual order.
    public var glyphs: [PositionedGlyph]
    /// The run's characters in logical order, as UTF-8 text, ZWNJ and ZWJ included (Persian
    /// spells most words with a ZWNJ, "می‌خواهم", Sinhala "ශ්‍රී" with a ZWJ: copied without,
    /// a word is another spelling); a PDF's right-to-left text leaves them out
    /// (`PDFPageContent`).
    public var text: String
    /// Cairo-style clusters in glyph order: UTF-8 bytes and glyphs of each cluster.
    public var clusters: [TextCluster]
    /// True for right-to-left runs: clusters map text backwards (CAIRO_TEXT_CLUSTER_FLAG_BACKWARD).
    public var backward: Bool
    /// The advance of the whole run, in points (for SVG's text, which spans it).
    public var width: Double
    /// Where the run starts: the left end of its advance, on its baseline (its first glyph can
    /// stand off it, a vowel mark above the letter a right-to-left run begins with).
    public var originX: Double
    public var baseline: Double
    /// The BCP 47 language of the text (PDF's /Lang, SVG's xml:lang), nil when not known: a
    /// screen reader reads an Arabic paragraph of an English mockup with an Arabic voice.
    public var language: String?
    /// Whether it is left-to-right text in a left-to-right paragraph: the hyphen it shows at a
    /// soft hyphen reads as "-" in a PDF's text (`PDFPageContent`), at the end of a line as
    /// poppler reads it (in right-to-left text, or a right-to-left paragraph, poppler put it
    /// before the word, or joined the word's first half to the wrong word).
    var leftToRightInLeftToRight = false

    /// `originX` and `baseline` are the first glyph's position when not given.
    public init(font: FontFace, size: Double, color: Color, glyphs: [PositionedGlyph], text: String,
                clusters: [TextCluster], backward: Bool, width: Double, language: String? = nil,
                originX: Double? = nil, baseline: Double? = nil) {
        self.font = font
        self.size = size
        self.color = color
        self.glyphs = glyphs
        self.text = text
        self.clusters = clusters
        self.backward = backward
        self.width = width
        self.language = language
        self.originX = originX ?? glyphs.first?.x ?? 0
        self.baseline = baseline ?? glyphs.first?.y ?? 0
    }
}

public struct PositionedGlyph: Sendable, Hashable {
    public var id: UInt32
    public var x: Double
    public var y: Double
    public init(id: UInt32, x: Double, y: Double) {
        self.id = id
        self.x = x
        self.y = y
    }
}

public struct TextCluster: Sendable, Hashable {
    public var utf8Count: Int
    public var glyphCount: Int
    public init(utf8Count: Int, glyphCount: Int) {
        self.utf8Count = utf8Count
        self.glyphCount = glyphCount
    }
}

public struct RectangleItem: Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public var cornerRadius: Double
    public var fill: Color?
    public var stroke: Color?
    /// The radius its corners are drawn with: at most half its width and half its height.
    public var drawnCornerRadius: Double { max(0, min(cornerRadius, width / 2, height / 2)) }
    public init(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double = 0,
                fill: Color? = nil, stroke: Color? = nil) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.cornerRadius = cornerRadius
        self.fill = fill
        self.stroke = stroke
    }
}

/// A straight line (dividers).
public struct RuleItem: Sendable {
    public var x1: Double, y1: Double, x2: Double, y2: Double
    public var thickness: Double
    public var color: Color
    public init(x1: Double, y1: Double, x2: Double, y2: Double, thickness: Double, color: Color) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.thickness = thickness
        self.color = color
    }
}

public struct ImageItem: Sendable {
    /// Absolute path of a PNG file (already checked by the markup stage).
    public var path: String
    public var x: Double, y: Double, width: Double, height: Double
    /// Mirrored horizontally (flip="rtl" in a right-to-left context).
    public var flipped: Bool
    public var alt: String?
    /// The language of `alt` (PDF's /Lang of its Figure, SVG's xml:lang).
    public var language: String?
    /// The <image> element, for errors about its picture (`pictureLocation`).
    public var location: SourceLocation?
    public init(
        path: String, x: Double, y: Double, width: Double, height: Double, flipped: Bool, alt: String?,
        language: String? = nil, location: SourceLocation? = nil
    ) {
        self.path = path
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.flipped = flipped
        self.alt = alt
        self.language = language
        self.location = location
    }
}

/// A page drawn inside another: its top-left corner at (`x`, `y`), every length times `scale`,
/// clipped to its scaled bounds.
public struct SubpageItem: Sendable {
    public var page: Page
    public var x: Double, y: Double
    public var scale: Double
    public init(page: Page, x: Double, y: Double, scale: Double) {
        self.page = page
        self.x = x
        self.y = y
        self.scale = scale
    }
    /// The box the page takes on the page it is drawn on.
    public var width: Double { page.width * scale }
    public var height: Double { page.height * scale }
}

extension GlyphRun {
    /// What is wrong with the run's size or clusters, or nil when they are fine. Both renderers
    /// check before drawing: Cairo would refuse such clusters with a sticky error that silently
    /// drops the rest of the page, and the PDF writer reads text and glyphs by them.
    var problem: String? {
        guard size.isFinite, size > 0 else { return "size \(size) is not a positive number" }
        guard !clusters.isEmpty else { return nil }
        var utf8Count = 0
        var glyphCount = 0
        for (index, cluster) in clusters.enumerated() {
            if cluster.utf8Count < 0 || cluster.glyphCount < 0
                || (cluster.utf8Count == 0 && cluster.glyphCount == 0)
            {
                return "cluster \(index) has \(cluster.utf8Count) bytes and \(cluster.glyphCount) glyphs"
            }
            // Counts of 0 or more: a sum below 0 has passed Int.max (`+=` would trap).
            utf8Count &+= cluster.utf8Count
            glyphCount &+= cluster.glyphCount
            if utf8Count < 0 || glyphCount < 0 { return "the clusters' counts add up to more than \(Int.max)" }
        }
        if utf8Count != text.utf8.count {
            return "clusters cover \(utf8Count) UTF-8 bytes, the text has \(text.utf8.count)"
        }
        if glyphCount != glyphs.count {
            return "clusters cover \(glyphCount) glyphs, the run has \(glyphs.count)"
        }
        return nil
    }
}
