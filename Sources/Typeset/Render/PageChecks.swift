// What the writers check of the pages they draw, the same way: glyph runs and pages inside pages
// that can be drawn (PDF, SVG, PNG), and structure tags that balance across the pages of a
// render (SVG and PNG count them here; PDFWriter keeps its own open elements and asks the same
// questions).

/// A writer of SVG or PNG pages (SVGWriter, PageDrawer) as `render` hands out pages: one writer
/// per thread, pages in order, and the tags checked after the last page.
protocol PageWriting: AnyObject, SendableMetatype {
    /// Throws unless every tag begun has been ended; call after the last page.
    func checkTagsClosed(pageCount: Int) throws
}

/// The structure tags begun and not yet ended, innermost last.
struct StructureTagBalance {
    private(set) var open: [StructureTag] = []

    mutating func begin(_ tag: StructureTag) {
        open.append(tag)
    }

    /// Ends `tag`, which must be the innermost open one. `page` counts from 1.
    mutating func end(_ tag: StructureTag, page: Int) throws {
        try Self.checkEnd(tag, innermost: open.last, page: page)
        open.removeLast()
    }

    /// Throws unless every tag begun has been ended.
    func checkClosed(pageCount: Int) throws {
        try Self.checkClosed(innermost: open.last, pageCount: pageCount)
    }

    /// Throws unless `tag` can end on page `page` while `innermost` is the innermost open tag
    /// (PDFWriter keeps its open elements itself and asks the same).
    static func checkEnd(_ tag: StructureTag, innermost: StructureTag?, page: Int) throws {
        guard let innermost else {
            throw RenderError.unbalancedTags(page: page, reason: "\(tag.rawValue) ended but never begun")
        }
        guard innermost == tag else {
            throw RenderError.unbalancedTags(
                page: page, reason: "\(tag.rawValue) ended while \(innermost.rawValue) is open")
        }
    }

    /// Throws if `innermost` is still open after the last page.
    static func checkClosed(innermost: StructureTag?, pageCount: Int) throws {
        if let innermost {
            throw RenderError.unbalancedTags(page: pageCount, reason: "\(innermost.rawValue) is never ended")
        }
    }
}

extension GlyphRun {
    /// Throws if the run was found wrong when it was made (`problem`), item `item` of page `page`.
    @inline(__always)
    func checkMade(page: Int, item: Int) throws {
        if let problem {
            throw RenderError.invalidGlyphRun(page: page, item: item, reason: problem)
        }
    }

    /// Throws unless each glyph is one of the `count` of its font (PDF and SVG, which write glyph
    /// ids themselves).
    @inline(__always)
    func checkGlyphs(fontGlyphCount count: Int, page: Int, item: Int) throws {
        for glyph in glyphs where Int(glyph.id) >= count {
            throw RenderError.invalidGlyphRun(
                page: page, item: item, reason: "glyph \(glyph.id) is not in \(font) (\(count) glyphs)")
        }
    }
}

extension SubpageItem {
    /// Pages inside pages deeper than this are refused (a sheet nests one level).
    static let maximumDepth = 8

    /// Throws unless this page, `depth` pages deep in item `item` of page `page`, can be drawn:
    /// not too deep, with a finite position and scale and a positive size.
    func check(page: Int, item: Int, depth: Int) throws {
        guard depth <= Self.maximumDepth else {
            throw RenderError.invalidInput("item \(item) of page \(page) nests pages deeper than \(Self.maximumDepth) levels")
        }
        guard scale.isFinite, scale > 0, x.isFinite, y.isFinite,
            self.page.width.isFinite, self.page.height.isFinite, self.page.width > 0, self.page.height > 0
        else {
            throw RenderError.invalidInput(
                "item \(item) of page \(page) is a page of \(self.page.width) × \(self.page.height) pt at scale \(scale)")
        }
    }
}
