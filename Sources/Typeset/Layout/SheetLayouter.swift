// Comparison sheets (SPEC 5.4): a grid of laid-out pages, one row per input and one column per
// locale × text size, each cell the real page drawn as vectors (a subpage item) scaled to fit and
// captioned with its file, locale and size. Grids too large for one sheet page continue on
// further pages, rows first, then groups of columns.

/// One cell of a comparison sheet: the first page of a document laid out in one locale and text
/// size, or the error that kept it from being laid out.
public struct SheetCell: Sendable {
    /// The input as the user named it.
    public var file: String
    /// The language the cell was laid out in (the locale, else the document's own).
    public var locale: String
    /// The text size category and its body size, as the caption shows them ("Large (17 pt)").
    public var textSize: String
    /// The document's first page; nil when it failed.
    public var page: Page?
    /// How many pages the document has (only the first is shown).
    public var pageCount: Int
    /// Why the cell has no page: the first error, as `LINE:COLUMN: message`.
    public var error: String?

    public init(file: String, locale: String, textSize: String, page: Page?, pageCount: Int = 1, error: String? = nil) {
        self.file = file
        self.locale = locale
        self.textSize = textSize
        self.page = page
        self.pageCount = pageCount
        self.error = error
    }
}

/// The geometry of a sheet, in points.
public struct SheetOptions: Sendable {
    /// The width of a cell when the sheet page has room for it, for pages of
    /// `referencePageWidth`. A sheet of wider pages, up to `widestReferencePage`, has cells
    /// wider in proportion: an iPad's 1024 pt page in 180 pt was shown at 0.18, its body text
    /// 3 pt, smaller than the caption under it.
    public var cellWidth: Double = 180
    /// Cells never get narrower than this (for pages of `referencePageWidth`, in proportion for
    /// wider ones); columns that do not fit go to further pages.
    public var minimumCellWidth: Double = 96
    /// The page width `cellWidth` and `minimumCellWidth` are for: a phone's.
    public var referencePageWidth: Double = 390
    /// Pages wider than this (an iPad Pro's, on its side) widen cells no further: they are
    /// scaled down to fit, as a page wider than a phone's was.
    public var widestReferencePage: Double = 1366
    /// A page is scaled to at most this many cell widths tall (long pages get smaller).
    public var maximumCellAspect: Double = 2.5
    /// Sheet pages grow to fit their cells up to these sizes.
    public var maximumPageWidth: Double = 1440
    public var maximumPageHeight: Double = 1440
    public var margin: Double = 24
    public var columnGap: Double = 16
    public var rowGap: Double = 20
    /// Columns that stay together on one sheet page where a page holds them (`typeset sheet`:
    /// one locale's text sizes; a page of 15 columns of five locales broke within the third).
    public var columnGroup: Int = 1
    /// Space between a cell's page and its caption.
    public var captionGap: Double = 6
    public var captionSize: Double = 9
    public var background = Color.white
    public var captionColor = Color(red: 0.24, green: 0.24, blue: 0.26)
    public var errorColor = Color(red: 0.8, green: 0.1, blue: 0.1)
    public var errorFill = Color(red: 1, green: 0.94, blue: 0.94)
    public var frameColor = Color(red: 0.78, green: 0.78, blue: 0.8)

    public init() {}
}

/// Lays out comparison sheets.
public struct SheetLayouter {
    let typesetter: Typesetter
    let options: SheetOptions

    public init(typesetter: Typesetter, options: SheetOptions = SheetOptions()) {
        self.typesetter = typesetter
        self.options = options
    }

    /// The sheet pages for `rows` of cells (a shorter row leaves its last columns empty). Captions are laid
    /// out by `typesetter`, through the same pipeline as the documents, so that file names in
    /// any script come out right.
    public func layout(rows: [[SheetCell]]) -> [Page] {
        let columnCount = rows.map(\.count).max() ?? 0
        guard columnCount > 0 else { return [] }
        let widestPage = rows.joined().compactMap { $0.page?.width }.max() ?? options.referencePageWidth
        let (cellWidth, columnsPerPage) = columnGeometry(columnCount, widestPage: widestPage)

        // Every cell's caption, page scale and the height its row needs.
        struct PlacedCell {
            var cell: SheetCell
            var scale: Double
            var caption: Page
            var errorText: Page?
        }
        let maximumCellHeight = cellWidth * options.maximumCellAspect
        var placedRows: [[PlacedCell]] = []
        var pageAreaHeights: [Double] = []  // per row: the tallest scaled page
        var captionHeights: [Double] = []
        for row in rows {
            var placed: [PlacedCell] = []
            var pageArea = 0.0
            var captionHeight = 0.0
            for cell in row {
                var scale = 1.0
                var errorText: Page?
                if let page = cell.page {
                    // To fit its cell, never larger than on a sheet of its own (a phone's
                    // beside an iPad's filled a cell of the iPad's, at 1.26).
                    let aloneCell = preferredCellWidth(widestPage: page.width)
                    let alone = min(aloneCell / page.width, aloneCell * options.maximumCellAspect / page.height)
                    scale = min(cellWidth / page.width, maximumCellHeight / page.height, alone)
                } else {
                    let text = captionPage(
                        [
                            .text(
                                "error: " + Self.shortened(cell.error ?? "the document could not be laid out", to: 400))
                        ],
                        width: cellWidth - 12, color: options.errorColor, background: options.errorFill)
                    errorText = text
                    pageArea = max(pageArea, text.height + 12, cellWidth * 0.5)
                }
                let caption = captionPage(captionInlines(cell), width: cellWidth, color: options.captionColor)
                captionHeight = max(captionHeight, caption.height)
                placed.append(PlacedCell(cell: cell, scale: scale, caption: caption, errorText: errorText))
            }
            // One scale for a row's pages of one width, the smallest: a page that grows with its
            // text was shrunk more at a larger text size, and AX5's text looked smaller than AX2's.
            var rowScales: [Double: Double] = [:]
            for cell in placed {
                guard let page = cell.cell.page else { continue }
                rowScales[page.width] = min(rowScales[page.width] ?? cell.scale, cell.scale)
            }
            for index in placed.indices {
                guard let page = placed[index].cell.page, let scale = rowScales[page.width] else { continue }
                placed[index].scale = scale
                pageArea = max(pageArea, page.height * scale)
            }
            placedRows.append(placed)
            pageAreaHeights.append(pageArea)
            captionHeights.append(captionHeight)
        }

        // Rows in chunks that fit the page height (a row taller than a page stands alone).
        let rowHeights = zip(pageAreaHeights, captionHeights).map { $0 + options.captionGap + $1 }
        var chunks: [Range<Int>] = []
        var start = 0
        var used = 0.0
        for (index, height) in rowHeights.enumerated() {
            let needed = (index == start ? 0 : options.rowGap) + height
            if index > start && 2 * options.margin + used + needed > options.maximumPageHeight {
                chunks.append(start..<index)
                start = index
                used = height
            } else {
                used += needed
            }
        }
        chunks.append(start..<rowHeights.count)
        // Each page as tall as its rows (a last page of one short row was as tall as the first
        // page, 70% of it blank).
        func pageHeight(_ chunk: Range<Int>) -> Double {
            let rows: Double = chunk.map { rowHeights[$0] }.reduce(0, +)
            return 2 * options.margin + rows + options.rowGap * Double(chunk.count - 1)
        }

        var pages: [Page] = []
        for firstColumn in stride(from: 0, to: columnCount, by: columnsPerPage) {
            let columns = firstColumn..<min(columnCount, firstColumn + columnsPerPage)
            let columnsWidth: Double = Double(columns.count) * cellWidth
            let gapsWidth: Double = options.columnGap * Double(columns.count - 1)
            let pageWidth: Double = 2 * options.margin + columnsWidth + gapsWidth
            for chunk in chunks {
                var items: [PageItem] = []
                var y = options.margin
                for rowIndex in chunk {
                    let pageArea = pageAreaHeights[rowIndex]
                    for column in columns where column < placedRows[rowIndex].count {
                        let placed = placedRows[rowIndex][column]
                        let x = options.margin + Double(column - firstColumn) * (cellWidth + options.columnGap)
                        // A cell's page and caption are one part of the PDF's structure; its
                        // frame, drawn after, is not (nothing overlaps it).
                        items.append(.beginTag(.division))
                        var frame: RectangleItem?
                        if let page = placed.cell.page {
                            let width = page.width * placed.scale
                            let height = page.height * placed.scale
                            let left = x + (cellWidth - width) / 2
                            items.append(.subpage(SubpageItem(page: page, x: left, y: y, scale: placed.scale)))
                            frame = RectangleItem(
                                x: left - 0.25, y: y - 0.25, width: width + 0.5, height: height + 0.5,
                                stroke: options.frameColor)
                        } else if let text = placed.errorText {
                            items.append(
                                .rectangle(
                                    RectangleItem(
                                        x: x, y: y, width: cellWidth, height: pageArea, cornerRadius: 4,
                                        fill: options.errorFill, stroke: options.errorColor)))
                            items.append(.subpage(SubpageItem(page: text, x: x + 6, y: y + 6, scale: 1)))
                        }
                        // The error text and the caption are laid out pages whose paragraphs are
                        // their P (wrapped in one more, a P held a P).
                        items.append(
                            .subpage(
                                SubpageItem(
                                    page: placed.caption, x: x, y: y + pageArea + options.captionGap, scale: 1)))
                        items.append(.endTag(.division))
                        if let frame { items.append(.rectangle(frame)) }
                    }
                    y += rowHeights[rowIndex] + options.rowGap
                }
                pages.append(
                    Page(width: pageWidth, height: pageHeight(chunk), background: options.background, items: items))
            }
        }
        return pages
    }

    /// The width of a cell for pages up to `widestPage` wide, when the sheet page has room.
    func preferredCellWidth(widestPage: Double) -> Double {
        let wider = max(1, min(widestPage, options.widestReferencePage) / options.referencePageWidth)
        return min(options.cellWidth * wider, options.maximumPageWidth - 2 * options.margin)
    }

    /// The cell width and how many columns go on a sheet page, for pages up to `widestPage`
    /// wide: as many as fit, shared evenly by the sheet pages they need (13 columns went 12
    /// and 1, a last page of one narrow column; they go 7 and 6, at the preferred width), in
    /// whole `columnGroup`s where a page holds one and no more pages are needed (15 columns in
    /// groups of 3 go 9 and 6, not 8 and 7; 35 in groups of 5 still go on 3 pages, not 4).
    func columnGeometry(_ columnCount: Int, widestPage: Double) -> (cellWidth: Double, columnsPerPage: Int) {
        let room = options.maximumPageWidth - 2 * options.margin + options.columnGap
        let preferred = preferredCellWidth(widestPage: widestPage)
        let minimum = min(options.minimumCellWidth * preferred / options.cellWidth, preferred)
        let fitting = Int(room / (preferred + options.columnGap))
        if columnCount <= fitting { return (preferred, columnCount) }
        let most = min(columnCount, max(1, Int(room / (minimum + options.columnGap))))
        // Shared out as units: groups where a page holds one and that takes no more pages,
        // else single columns.
        func share(_ unit: Int) -> (pages: Int, columns: Int) {
            let units = columnCount / unit
            let pages = (units + most / unit - 1) / (most / unit)
            return (pages, (units + pages - 1) / pages * unit)
        }
        let group = options.columnGroup
        let single = share(1)
        let grouped = (1...most).contains(group) && columnCount % group == 0 ? share(group) : single
        let columns = grouped.pages <= single.pages ? grouped.columns : single.columns
        return (columns <= fitting ? preferred : room / Double(columns) - options.columnGap, columns)
    }

    /// File name (bold, in a left-to-right isolate: a path reads as it was typed, "מסך_3.xml"
    /// read "xml.3_מסך" in one of its own direction, and cannot reorder the rest), then locale,
    /// size and, for longer documents, which page is shown.
    private func captionInlines(_ cell: SheetCell) -> [InlineKind] {
        var second = "\(cell.locale) · \(cell.textSize)"
        if cell.pageCount > 1 { second += " · page 1 of \(cell.pageCount)" }
        return [
            .span(.b, InlineStyle(weight: .bold), [inline(.isolate(.ltr, [inline(.text(cell.file))]))]),
            .lineBreak,
            .isolate(.ltr, [inline(.text(second))]),
        ]
    }

    private func inline(_ kind: InlineKind) -> Inline {
        Inline(kind: kind, location: Self.location)
    }

    private static let location = SourceLocation(file: "<sheet>", line: 1, column: 1)

    /// A centered caption laid out as a small document of its own, as tall as its text.
    private func captionPage(_ content: [InlineKind], width: Double, color: Color, background: Color? = nil) -> Page {
        let block = Block(
            kind: .text(.caption, content.map(inline)),
            style: BlockStyle(align: .center, size: options.captionSize, color: color),
            location: Self.location)
        let document = Document(
            lang: "en", dir: .ltr, width: width, margin: 0, fontSize: options.captionSize, lineHeight: 1.3,
            background: background ?? options.background, color: color, blocks: [block], location: Self.location,
            directory: "/")
        let result = typesetter.layout(document)
        return result.pages.first ?? Page(width: width, height: options.captionSize * 1.3)
    }

    /// `text` cut to at most `limit` characters, with an ellipsis when cut.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
