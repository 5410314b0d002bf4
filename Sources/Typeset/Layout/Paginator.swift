// Cutting the galley into pages (SPEC §2): a page without `height` grows to fit; otherwise
// blocks that do not fit continue on a new page, a paragraph splits between its lines, and so
// does a list item taller than a page, or a row: each of its columns goes on where its lines
// end. What still does not fit (a button or an image taller than a page, a line taller than
// one) is cut off at the page's bottom, with a warning.

extension BlockLayouter {
    /// More pages than this are an error (at the element that would start the next page): a
    /// mockup has a few pages, and a runaway input must not write a million.
    static let maximumPageCount = 10_000
    /// More lines than this are an error (at the element that would set the line past it): a
    /// line costs several hundred bytes until its page is drawn, and a row of 30 columns
    /// narrower than a letter set a line per letter, 4 million for 4 MiB of text, and took
    /// 3.6 GB (a memory limit aborted the process, and the other inputs of its batch). A
    /// 10,000-page document of body text sets about 380,000.
    static let maximumLineCount = 1_000_000
    /// A page that grows to fit its content may be at most this tall (PDF's largest page, the
    /// largest `height` the markup accepts).
    static let maximumGrowingPageHeight = MarkupParser.maximumLength

    /// `count` with its thousands apart, as the README writes the limits: 1,000,000.
    static func grouped(_ count: Int) -> String {
        var digits = String(count)
        var at = digits.count - 3
        while at > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: at))
            at -= 3
        }
        return digits
    }

    /// The pages, their report, and warnings of content cut off; or no pages, and the error
    /// that stopped pagination last among the diagnostics. The units are used up: each is let
    /// go once its pages have it (a long document's shaped lines and its pages were all held
    /// at once, twice the memory).
    mutating func paginate() -> ([Page], [ReportPage], [Diagnostic]) {
        var units = self.units
        self.units = []
        let width = document.pageWidth
        let background = document.background ?? Document.defaultBackground
        guard let pageHeight = document.pageHeight else {
            let height = 2 * margin + (units.last?.bottom ?? 0)
            guard height <= BlockLayouter.maximumGrowingPageHeight else {
                let error = Diagnostic.error(
                    document.location,
                    "the page would be \(stoppedAtPageLimit ? "at least " : "")\(format(height.rounded(.up))) pt tall; "
                        + "a page can be at most "
                        + "\(format(BlockLayouter.maximumGrowingPageHeight)) pt (200 inches, PDF's largest)",
                    hint: "give the document a 'height' or a 'device' so that the content continues on further pages")
                return ([], [], [error])
            }
            // No margin and nothing of any height: no page to draw (PDF, SVG and PNG all need
            // one at least a point tall, as `height` does).
            guard height > 0 else {
                let error = Diagnostic.error(
                    document.location, "the page would be 0 pt tall: it grows to fit its content, which has no height",
                    hint: "give the document a 'height', a 'device', a 'margin' or some content")
                return ([], [], [error])
            }
            var emitter = PageEmitter(
                width: width, height: height, background: background, contentBottom: height - margin,
                makesReport: options.makesReport)
            for index in units.indices {
                for k in units[index].blocks.indices { emitter.emit(units[index].blocks[k], lines: nil, dy: margin) }
                units[index].blocks = []
            }
            return ([emitter.page().0], [emitter.report], [])
        }

        let contentHeight = pageHeight - 2 * margin
        var pages: [Page] = []
        var reports: [ReportPage] = []
        var emitter = PageEmitter(
            width: width, height: pageHeight, background: background, contentBottom: pageHeight - margin,
            makesReport: options.makesReport)
        var y = 0.0  // used height of the current page's content area
        var empty = true
        var onlySpace = true  // the current page holds spacers at most: no content yet
        var previousBottom = 0.0
        var pageError: Diagnostic?
        var warnings: [Diagnostic] = []

        /// Warns that `unit` (or one of its lines) is `height` tall, more than a page holds.
        /// (`kind`: the element of the unit that is so tall, when it is not the unit itself.)
        func warnCutOff(_ unit: Unit, height: Double, line: Bool, kind: String? = nil) {
            var what = "this <\(unit.kind)>"
            if let kind, kind != unit.kind {
                what = "\(kind.first.map { "aei".contains($0) } == true ? "an" : "a") <\(kind)> in \(what)"
            }
            if line { what = "a line of \(what)" }
            // In tenths of a point, or hundredths when only a fraction more than the page holds:
            // "22.1 pt tall, more than the 22.09 pt"; rounded up, never below the page's.
            let shown = height - contentHeight >= 1
                ? (height * 10 - 0.001).rounded(.up) / 10 : (height * 100).rounded(.up) / 100
            let warning = Diagnostic.warning(
                unit.location,
                "\(what) is \(format(shown)) pt tall, more than the \(format((contentHeight * 100).rounded() / 100)) pt "
                    + "between the page's margins: it is cut off at the bottom of the page",
                hint: "make the page taller ('height' or 'device'), its margin smaller, or the content shorter")
            warnings.append(warning)
        }

        /// For a title or a heading (`units[index]`), how much of what follows it must stand on
        /// its page: the gap and the start of a paragraph or a row taller than a page
        /// (`Unit.startHeight`), a block that does not split, or
        /// another heading and what it keeps; spacers and dividers between them go along. Nil
        /// for nothing to keep (the end, or only spacers and dividers before it).
        func keptStart(after index: Int) -> Double? {
            func isHeading(_ unit: Unit) -> Bool { unit.kind == "title" || unit.kind == "heading" }
            func isSeparator(_ unit: Unit) -> Bool { unit.blocks.isEmpty || unit.kind == "divider" }
            var kept: Double?  // the headings that follow, and their gaps
            var separators = 0.0  // the spacers and dividers since, and their gaps
            var i = index
            while isHeading(units[i]) || (i > index && isSeparator(units[i])), i + 1 < units.count,
                (kept ?? 0) + separators <= contentHeight
            {
                let next = units[i + 1]
                let gap = max(0, next.top - units[i].bottom)
                let height = next.bottom - next.top
                if isSeparator(next) {
                    separators += gap + height
                    i += 1
                    continue
                }
                if isHeading(next) && height <= contentHeight + 0.001 {
                    kept = (kept ?? 0) + separators + gap + height
                    separators = 0
                    i += 1
                    continue
                }
                // A paragraph, or a row taller than a page, starts where it is and goes on where
                // its lines end: the heading keeps with its start (before a row, it was left
                // alone).
                if next.splittableParagraph(contentHeight: contentHeight) != nil
                    || height > contentHeight + 0.001 && !next.standsAtATop(contentHeight: contentHeight)
                {
                    return (kept ?? 0) + separators + gap + next.startHeight(contentHeight: contentHeight)
                }
                // What cannot stand beside it on any page keeps nothing, nor the spacers before it.
                return height <= contentHeight + 0.001 ? (kept ?? 0) + separators + gap + height : kept
            }
            return kept
        }

        /// Starts a new page for the content of `unit`, or returns false at the page limit.
        func newPage(for unit: Unit) -> Bool {
            newPage(for: unit, holding: Set(unit.blocks.first?.structure(continuation: false) ?? []))
        }

        /// Starts a new page whose blocks are in the structure elements `next`, or returns false
        /// at the page limit.
        func newPage(for unit: Unit, holding next: Set<OpenStructure>) -> Bool {
            // A page of spacers only is no page: they stand at the break, and are left out
            // (`<spacer height="160"/><p>One</p>` on a page of 180 pt made a blank page, and
            // a taller spacer, left out at once, none).
            if onlySpace {
                y = 0
                empty = true
                return true
            }
            guard pages.count + 1 < BlockLayouter.maximumPageCount else {
                pageError = .error(
                    unit.location,
                    "this element's content would reach page \(pages.count + 2); a document can have at most "
                        + "\(BlockLayouter.grouped(BlockLayouter.maximumPageCount)) pages",
                    hint: "split the document into several files")
                return false
            }
            let (page, continuing) = emitter.page(before: next)
            pages.append(page)
            reports.append(emitter.report)
            emitter = PageEmitter(
                width: width, height: pageHeight, background: background, contentBottom: pageHeight - margin,
                makesReport: options.makesReport, resuming: continuing)
            y = 0
            empty = true
            onlySpace = true
            return true
        }

        var pageEnded = false  // by a spacer left out: what follows starts a page
        allUnits: for index in units.indices {
            let unit = units[index]
            defer { units[index].blocks = [] }
            var gap = empty ? 0 : max(0, unit.top - previousBottom)
            let height = unit.bottom - unit.top
            previousBottom = unit.bottom
            // A spacer (or an empty row or stack) at a page break is left out, as CSS drops
            // space there: one that does not fit at a page's end, and those after it or at the
            // top of a page after the first (the next page started with their space, or was
            // blank). The page that follows starts with the next content, if any comes. One
            // taller than the first page, at its top, is left out and the page goes on (it was a
            // blank page of its own).
            if unit.blocks.isEmpty {
                if pageEnded || (empty && !pages.isEmpty) { continue }
                if y + gap + height > contentHeight + 0.001 {
                    if !empty { pageEnded = true }
                    continue
                }
            }
            if pageEnded {
                pageEnded = false
                guard newPage(for: unit) else { break }
                gap = 0
            }
            // A title or a heading is not left at the bottom of a page, its section on the next:
            // it goes there too when the start of what follows it would not fit beside it.
            if !empty, y + gap + height <= contentHeight + 0.001, let next = keptStart(after: index),
                y + gap + height + next > contentHeight + 0.001, height + next <= contentHeight + 0.001
            {
                guard newPage(for: unit) else { break }
                gap = 0
            }
            if y + gap + height <= contentHeight + 0.001 {
                let dy = margin + y + gap - unit.top
                // By index: `for block in` copied each block, retaining its arrays.
                for k in unit.blocks.indices { emitter.emit(unit.blocks[k], lines: nil, dy: dy) }
                y += gap + height
                empty = false
                if !unit.blocks.isEmpty { onlySpace = false }
                continue
            }
            // What fits on a page goes to the next whole. A paragraph starts here and its lines
            // go on where the page ends; so does a row taller than a page, each of its columns
            // where its lines end. A block that is not cut between lines and is taller than a
            // page stands at the top of one: its row starts there too, its columns side by side
            // (the tall button went to the next page, the label beside it stayed on this one).
            let splits = unit.splittableParagraph(contentHeight: contentHeight) != nil
            let standsAtATop = unit.standsAtATop(contentHeight: contentHeight)
            // A unit none of whose first lines fit here starts the next page: a row's columns,
            // each begun there at its own first line, lost their shared baseline.
            let startsHere = y + gap + unit.startHeight(contentHeight: contentHeight) <= contentHeight + 0.001
            if !empty && (!splits && (height <= contentHeight + 0.001 || standsAtATop) || !startsHere) {
                guard newPage(for: unit) else { break }
            }
            let firstTop = empty ? 0 : y + gap
            let pieces = unit.pieces(contentHeight: contentHeight, room: contentHeight - firstTop)
            let pageTops = pieces.indices.map { margin + ($0 == 0 ? firstTop : 0) }
            let backgrounds =
                pieces.count > 1 && unit.blocks.contains(where: { !$0.backgrounds.isEmpty })
                ? unit.backgrounds(on: pieces, pageTops: pageTops) : nil
            var warned = false
            for (index, piece) in pieces.enumerated() {
                if index > 0 {
                    guard newPage(for: unit, holding: piece.structure) else { break allUnits }
                }
                emitter.continuing = index + 1 < pieces.count ? pieces[index + 1].structure : []
                if !piece.parts.isEmpty { onlySpace = false }
                for (n, part) in piece.parts.enumerated() {
                    // A row's columns end on different pages: their structure elements go in order.
                    let inOrder = pieces.count > 1 && unit.blocks.count > 1
                    let order = inOrder ? StructureOrder(pagesBack: index, index: part.block) : nil
                    let dy = pageTops[index] - part.origin
                    emitter.emit(
                        unit.blocks[part.block], lines: part.lines, dy: dy, order: order,
                        backgrounds: backgrounds.map { n == 0 ? $0[index] : [] })
                }
                if let cut = piece.cutOff, !warned {
                    warnCutOff(unit, height: cut.height, line: cut.line, kind: cut.kind)
                    warned = true
                }
            }
            y = pieces.count == 1 ? firstTop + height : pieces[pieces.count - 1].height
            empty = false
        }
        if let pageError { return ([], [], warnings + [pageError]) }
        pages.append(emitter.page().0)
        reports.append(emitter.report)
        return (pages, reports, warnings)
    }
}

extension PlacedBlock {
    /// Whether the block goes on from page to page between its lines (text that may break,
    /// and a list item only when it is taller than a page), rather than whole.
    func cutsBetweenLines(contentHeight: Double) -> Bool {
        let keptTogether = breaks == .ifTallerThanPage && bottom - top <= contentHeight + 0.001
        return breaks != .never && !keptTogether && !(paragraph?.lines.isEmpty ?? true)
    }
}

/// One page's share of a unit cut between pages (`Unit.pieces`).
struct UnitPiece {
    /// The unit's blocks on the page, in order: some of the lines of a text block, or a whole
    /// block (`lines` nil), and the unit's y that comes at the top of the page's content area.
    var parts: [(block: Int, lines: Range<Int>?, origin: Double)] = []
    /// How far down the page the parts reach.
    var height = 0.0
    /// The structure elements the parts are in: those the page before ends with `continued`.
    var structure: Set<OpenStructure> = []
    /// A line or a block taller than a page, standing at its top and cut off at its bottom.
    var cutOff: (height: Double, line: Bool, kind: String)?
}

extension Unit {
    /// The unit cut into pieces, the first at most `room` tall and the others `contentHeight`,
    /// for a paragraph (or a list item taller than a page) that does not fit, or a row taller
    /// than a page. Its columns (a paragraph's one) go on independently: each
    /// takes the lines (of text blocks that may split) or the whole blocks that end within the
    /// page, and goes on at the top of the next page with the first line or block left. No line
    /// is cut in two; only what is taller than a page is, standing at a page's top. A column is
    /// a child of the row (`PlacedBlock.column`). Blocks side by side within one (a row in it)
    /// each end where their own lines do: each that goes on starts again at the page's top, and
    /// what comes after them in the column follows the one that went on from highest up. A list
    /// item shorter than a page is not split.
    func pieces(contentHeight: Double, room: Double) -> [UnitPiece] {
        /// Whether line `k` of block `i` (cut between its lines) shows nothing: one of
        /// `<br/><br/>`.
        func isBlankLine(_ i: Int, _ k: Int) -> Bool {
            guard let lines = blocks[i].paragraph?.lines, k < lines.count else { return false }
            return lines[k].runs.allSatisfy { $0.glyphs.isEmpty }
        }
        // Each block as the slices it may be cut between: its lines, or itself.
        let slices: [[(top: Double, bottom: Double)]] = blocks.map { block in
            guard block.cutsBetweenLines(contentHeight: contentHeight), let paragraph = block.paragraph else {
                return [(block.top, block.bottom)]
            }
            return paragraph.lines.indices.map { i in
                (block.lineOrigins[i].top, block.lineOrigins[i].top + paragraph.lines[i].height)
            }
        }
        let column = blocks.map(\.column)
        var next = Array(repeating: 0, count: blocks.count)  // each block's first slice not placed
        // Each column's y at the top of the page: the first page starts the whole unit at its top.
        var origins = Array(repeating: top, count: (column.max() ?? 0) + 1)
        var pieces: [UnitPiece] = []
        // The blocks a page looks at: those begun and not finished, and those that begin on
        // it. The others wait in their column by their top (looking at every unfinished block
        // on every page was quadratic in a row over many pages).
        var unfinished: [Int] = []
        var waiting = Array(repeating: [Int](), count: origins.count)
        for i in blocks.indices { waiting[column[i]].append(i) }
        for c in waiting.indices {
            waiting[c].sort { (slices[$0][0].top, $0) < (slices[$1][0].top, $1) }
            waiting[c].reverse()  // the next to begin last
        }
        // Past the page limit pagination stops: no more pieces than it can place.
        while pieces.count <= BlockLayouter.maximumPageCount {
            var piece = UnitPiece()
            let height = pieces.isEmpty ? room : contentHeight
            var rest = Array(repeating: Double.infinity, count: origins.count)  // per column, its first slice left
            let begun = unfinished.count
            for c in waiting.indices {
                while let i = waiting[c].last, slices[i][0].top < origins[c] + height {
                    unfinished.append(waiting[c].removeLast())
                }
                if let i = waiting[c].last { rest[c] = slices[i][0].top }
            }
            if unfinished.count > begun { unfinished.sort() }
            for i in unfinished {
                let block = slices[i]
                let start = next[i]
                // A block going on from the page before starts at the top, though another one
                // beside it in its column goes on from higher up (lines of another size).
                let origin = start > 0 ? block[start].top : origins[column[i]]
                // (One going on is on this page whatever its height: on a page less tall than
                // the spacing of doubles at its top, `top < top + height` never held, and empty
                // pages repeated up to the page limit.)
                guard start > 0 || block[start].top < origin + height else {  // not on this page yet
                    rest[column[i]] = min(rest[column[i]], block[start].top)
                    continue
                }
                var end = start
                while end < block.count && block[end].bottom <= origin + height + 0.001 { end += 1 }
                // No page starts with an empty line (`<br/><br/>`) followed by text: it stays on
                // this page, where it draws nothing, and a band of nothing no longer opens the next.
                if end > start, end < block.count - 1, isBlankLine(i, end) {
                    var after = end
                    while after < block.count - 1 && isBlankLine(i, after) { after += 1 }
                    if !isBlankLine(i, after) { end = after }
                }
                // A paragraph's last line does not go on alone at the top of a page (a widow):
                // the line before it goes with it, when the two fit on the next page (one of
                // three lines was cut 2 + 1), and an empty line is no company: the text line
                // before it goes too. One of two lines does not start on a page that holds
                // only one (`Unit.startHeight`).
                if end == block.count - 1 && end - start >= 2 && block[end].bottom - block[end - 1].top <= contentHeight + 0.001 {
                    end -= 1
                    while isBlankLine(i, end), end - start >= 2, block[block.count - 1].bottom - block[end - 1].top <= contentHeight + 0.001 {
                        end -= 1
                    }
                }
                // (Or first in its column on this page, though below the column's top: in a row
                // inside a row, aligned to its neighbours' baseline, a button taller than a page
                // waited for the next page while they began on this one.)
                func firstInColumn() -> Bool {
                    start == 0 && !piece.parts.contains { column[$0.block] == column[i] }
                        && !unfinished.contains { $0 < i && column[$0] == column[i] && next[$0] < slices[$0].count }
                }
                if end == start && height >= contentHeight - 0.001
                    && (block[start].top <= origin + 0.001
                        || block[start].bottom - block[start].top > contentHeight + 0.001 && firstInColumn())
                {
                    // Taller than a page and at its top: it stands there alone, cut off.
                    let tall = block[start].bottom - block[start].top
                    let line = blocks[i].breaks != .never && blocks[i].paragraph.map { !$0.lines.isEmpty } ?? false
                    if tall > piece.cutOff?.height ?? 0 { piece.cutOff = (tall, line, blocks[i].report.kind) }
                    end += 1
                }
                if end > start {
                    let whole = start == 0 && end == block.count
                    piece.parts.append((i, whole ? nil : start..<end, origin))
                    piece.height = max(piece.height, block[end - 1].bottom - origin)
                    piece.structure.formUnion(blocks[i].structure(continuation: start > 0))
                    next[i] = end
                }
                if end < block.count { rest[column[i]] = min(rest[column[i]], block[end].top) }
            }
            pieces.append(piece)
            unfinished.removeAll { next[$0] == slices[$0].count }
            guard !unfinished.isEmpty || waiting.contains(where: { !$0.isEmpty }) else { break }
            for (c, top) in rest.enumerated() where top < .infinity { origins[c] = top }
        }
        return pieces
    }

    /// Each piece's part of the backgrounds of the unit's lists, rows and stacks, in page
    /// coordinates (`pageTops`: where each piece's content area begins): from the container's
    /// top on the page it begins on, or the page's top, to where its blocks end on the page it
    /// ends on (and the space it has after them), or the page's end, as CSS fragments a box.
    /// A row's background goes on as long as one of its columns does (it stopped with its first
    /// column's first block).
    func backgrounds(on pieces: [UnitPiece], pageTops: [Double]) -> [[RectangleItem]] {
        // Where each block's parts are: on which piece, moved down by how much, how far down.
        var parts = Array(repeating: [(piece: Int, dy: Double, bottom: Double)](), count: blocks.count)
        for (k, piece) in pieces.enumerated() {
            for part in piece.parts {
                let block = blocks[part.block]
                var bottom = block.bottom
                if let lines = part.lines, let paragraph = block.paragraph {
                    bottom = block.lineOrigins[lines.upperBound - 1].top + paragraph.lines[lines.upperBound - 1].height
                }
                let dy = pageTops[k] - part.origin
                parts[part.block].append((k, dy, bottom + dy))
            }
        }
        var result = Array(repeating: [RectangleItem](), count: pieces.count)
        for (carrier, block) in blocks.enumerated() {
            for background in block.backgrounds {
                let covered = carrier..<min(carrier + background.blocks, blocks.count)
                let its = covered.flatMap { parts[$0] }
                guard let first = its.map(\.piece).min(), let last = its.map(\.piece).max() else { continue }
                let lowest = covered.map { blocks[$0].bottom }.max() ?? block.bottom
                let after = max(0, background.rectangle.y + background.rectangle.height - lowest)
                // Not above its page's content area: a column of a row whose first page took
                // none of it begins at the next page's top, away from the others (it began in the margin).
                let firstTop = max(pageTops[first], background.rectangle.y + (its.first { $0.piece == first }?.dy ?? 0))
                let lastBottom = (its.filter { $0.piece == last }.map(\.bottom).max() ?? firstTop) + after
                for k in first...last {
                    var rectangle = background.rectangle
                    let top = k == first ? firstTop : pageTops[k]
                    let bottom = k == last ? lastBottom : .infinity
                    rectangle.y = top
                    rectangle.height = bottom - top
                    result[k].append(rectangle)
                }
            }
        }
        return result
    }
}

/// Turns placed blocks into page items and report entries for one page.
struct PageEmitter {
    var items: [PageItem] = []
    var report: ReportPage
    let background: Color
    /// Lists and list items left open by the blocks so far, outermost first: the next block
    /// closes those it is not in.
    private var open: [OpenStructure] = []
    /// Those the page before ended with `continued`: begun again with `continued`.
    private var resuming: Set<OpenStructure>
    /// Those that go on on the next page: closed with `continued` when a block that is not in
    /// them comes first (the columns of a row split between pages, one after the other).
    var continuing: Set<OpenStructure> = []
    /// Those ended with `continued` so far.
    private var suspended: Set<OpenStructure> = []

    /// Where the page's content area ends: the backgrounds of lists, rows and stacks stop there.
    let contentBottom: Double
    /// Where in `items` the backgrounds of lists, rows and stacks are.
    private var containerBackgrounds: [Int] = []
    /// Whether the page's report gets its blocks, their lines and runs (`LayoutOptions.makesReport`).
    let makesReport: Bool

    init(
        width: Double, height: Double, background: Color, contentBottom: Double, makesReport: Bool,
        resuming: Set<OpenStructure> = []
    ) {
        report = ReportPage(width: width, height: height, blocks: [])
        self.makesReport = makesReport
        // A mockup's page holds some 70 items (runs, tags, shapes): grown from one item, the
        // array was copied six times, each item with it.
        items.reserveCapacity(64)
        self.background = background
        self.contentBottom = contentBottom
        self.resuming = resuming
    }

    /// The page, with every element still open ended. Those that `next` (the structure of what
    /// the next page holds) goes on in end with `continued` and are returned: the next page's
    /// emitter begins them again.
    mutating func page(before next: Set<OpenStructure> = []) -> (Page, Set<OpenStructure>) {
        continuing = next
        close(downTo: 0)
        // A page of a few items does not keep the room reserved for more (a long document's
        // pages are all held until drawn).
        if items.capacity >= 2 * items.count + 32 { items = Array(items) }
        return (Page(width: report.width, height: report.height, background: background, items: items), suspended)
    }

    /// Closes the innermost open elements down to `count` of them, with `continued` those that
    /// go on on the next page (an element's lists and item go on when it does).
    private mutating func close(downTo count: Int) {
        while open.count > count {
            let element = open.removeLast()
            let goesOn = continuing.contains(element)
            if goesOn { suspended.insert(element) }
            items.append(.endTag(element.tag, continued: goesOn))
        }
    }

    private mutating func begin(_ element: OpenStructure, order: StructureOrder?) {
        items.append(.beginTag(element.tag, continued: resuming.remove(element) != nil, order: order))
        open.append(element)
    }

    /// Emits `block` (only `lines` of it, if given) moved down by `dy`; `order` places its
    /// structure elements when it is part of a row split between pages. `backgrounds`, in the
    /// page's coordinates, replace those of the containers it begins (`Unit.backgrounds`).
    mutating func emit(
        _ block: PlacedBlock, lines: Range<Int>?, dy: Double, order: StructureOrder? = nil, backgrounds: [RectangleItem]? = nil
    ) {
        let firstPart = lines.map { $0.lowerBound == 0 } ?? true
        let lastPart = lines.map { $0.upperBound == block.paragraph?.lines.count } ?? true
        // Close what the block is not in, open what it is in and is not open.
        let wanted = block.structure(continuation: !firstPart)
        let kept = zip(open, wanted).prefix { $0 == $1 }.count
        close(downTo: kept)
        for element in wanted[kept...] { begin(element, order: order) }

        var entry = makesReport ? block.report : nil
        entry?.frame.y += dy
        // A list item's LI and LBody stay open for a list nested in it; other blocks' tags
        // close with the block, or go on on the next page.
        let item = block.itemKey
        if let item {
            if firstPart { begin(.item(item), order: order) }
        } else if let tag = block.tag {
            items.append(.beginTag(tag, continued: !firstPart, order: order))
        }
        // The backgrounds of the lists, rows and stacks it begins (the page's part of those of a
        // unit cut between pages, given), never past the content area (the gap after the last
        // block of a page reached into the margin).
        let own = block.backgrounds.map { var r = $0.rectangle; r.y += dy; return r }
        for var background in backgrounds ?? own {
            background.height = min(background.y + background.height, contentBottom) - background.y
            guard background.height > 0 else { continue }
            // One rectangle where a container's parts meet on the page: two drawn edge to edge
            // let the page show through their antialiased edges (light lines across a card).
            let meeting = containerBackgrounds.first { index in
                guard case .rectangle(let earlier) = items[index] else { return false }
                return earlier.fill == background.fill && earlier.x == background.x && earlier.width == background.width
                    && abs(earlier.y + earlier.height - background.y) < 1e-6
            }
            if let meeting, case .rectangle(var earlier) = items[meeting] {
                earlier.height = background.y + background.height - earlier.y
                items[meeting] = .rectangle(earlier)
            } else {
                containerBackgrounds.append(items.count)
                items.append(.rectangle(background))
            }
        }
        if let lines, let paragraph = block.paragraph, !(firstPart && lastPart) {
            // A text block split between pages: its background behind the lines of each part.
            for case .rectangle(var background) in block.decorations {
                background.y = block.lineOrigins[lines.lowerBound].top
                background.height = paragraph.lines[lines].reduce(0) { $0 + $1.height }
                items.append(PageItem.rectangle(background).moved(dy: dy))
            }
        } else if firstPart {
            for decoration in block.decorations { items.append(decoration.moved(dy: dy)) }
        }
        if let marker = block.marker, firstPart, let line = marker.paragraph.lines.first {
            if item != nil { items.append(.beginTag(.label)) }
            let baseline = marker.top + dy + line.baseline
            let first = items.count
            for k in line.runs.indices {
                items.append(.glyphs(glyphRun(line.runs[k], marker.paragraph, originX: marker.x, baseline: baseline).run))
            }
            putInLogicalOrder(line.runs, from: first)
            if item != nil { items.append(.endTag(.label)) }
        } else if lines != nil && !firstPart {
            entry?.marker = nil
        }
        if let paragraph = block.paragraph {
            let range = lines ?? 0..<paragraph.lines.count
            if let lines {
                let top = block.lineOrigins[lines.lowerBound].top
                entry?.frame.y = top + dy
                entry?.frame.height = paragraph.lines[lines].reduce(0) { $0 + $1.height }
            }
            if let item, firstPart { begin(.body(item), order: order) }
            if let count = entry?.lines.count { entry?.lines.reserveCapacity(count + range.count) }
            for i in range {
                let line = paragraph.lines[i]
                let origin = block.lineOrigins[i]
                let baseline = origin.top + dy + line.baseline
                var reportRuns: [ReportRun] = []
                if makesReport { reportRuns.reserveCapacity(line.runs.count) }
                let first = items.count
                for k in line.runs.indices {  // by index: `for run in` copied each run, retaining its arrays
                    let run = line.runs[k]
                    let (glyphs, reportText) = glyphRun(run, paragraph, originX: origin.x, baseline: baseline)
                    if makesReport {
                        reportRuns.append(
                            ReportRun(
                                text: reportText ?? glyphs.text, level: Int(run.level),
                                direction: run.isRightToLeft ? "rtl" : "ltr",
                                script: run.script.code, font: run.face.family, size: run.size, x: origin.x + run.x,
                                width: run.width, glyphs: run.glyphs.count))
                    }
                    if !run.glyphs.isEmpty { items.append(.glyphs(glyphs)) }  // the last use: moved, not copied
                }
                putInLogicalOrder(line.runs, from: first)
                if let space = line.hangingSpace {
                    items.append(.glyphs(hangingRun(space, paragraph, line: line, originX: origin.x, baseline: baseline)))
                }
                entry?.lines.append(ReportLine(x: origin.x, baseline: baseline, width: line.width, runs: reportRuns))
            }
        }
        if item == nil, let tag = block.tag { items.append(.endTag(tag, continued: !lastPart)) }
        if let entry { report.blocks.append(entry) }
    }

    /// Puts the glyph runs of one line, `items[first...]` (those of `runs` that have glyphs, in
    /// visual order), in logical order: the order of a PDF's content and of its tags is the order
    /// its text is read, copied and spoken in, and an SVG's text is searched and selected in
    /// document order. An Arabic line with "Photon X2" in it would otherwise read from its last
    /// word. The report keeps the visual order (§6); drawing does not depend on the order.
    private mutating func putInLogicalOrder(_ runs: [LineRun], from first: Int) {
        var previous = -1
        var inOrder = true
        for k in runs.indices where !runs[k].glyphs.isEmpty {
            if runs[k].scalarRange.lowerBound < previous { inOrder = false }
            previous = runs[k].scalarRange.lowerBound
        }
        guard !inOrder else { return }  // most lines: one run, or left-to-right runs
        // Where each drawn run starts in the text, sorted with the items by swapping them (a
        // line has a few runs): the items were copied out and back, each retained.
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        for k in runs.indices where !runs[k].glyphs.isEmpty { starts.append(runs[k].scalarRange.lowerBound) }
        assert(items.count - first == starts.count)
        for k in starts.indices {
            var smallest = k
            for j in k + 1..<starts.count where starts[j] < starts[smallest] { smallest = j }
            guard smallest != k else { continue }
            starts.swapAt(k, smallest)
            items.swapAt(first + k, first + smallest)
        }
    }

    /// The space hanging at the end of `line`, drawn where a space shows nothing: past the line's
    /// end on the paragraph's side (the right in a left-to-right paragraph, the left in a
    /// right-to-left one), last in reading order. Its text is the line's word space.
    private func hangingRun(
        _ space: HangingSpace, _ paragraph: ParagraphLayout, line: TextLine, originX: Double, baseline: Double
    ) -> GlyphRun {
        let rightToLeft = paragraph.baseLevel & 1 == 1
        let x = rightToLeft ? originX - space.glyph.advance : originX + line.width
        let style = paragraph.text.spans[space.spanIndex].style
        return GlyphRun(
            font: space.face, size: space.size, color: style.color,
            glyphs: [PositionedGlyph(id: space.glyph.id, x: x, y: baseline)], text: " ",
            clusters: [TextCluster(utf8Count: 1, glyphCount: 1)], backward: rightToLeft, width: space.glyph.advance,
            language: style.language)
    }

    /// A line run as drawable glyphs, with its text and Cairo clusters (SPEC §6 `text`: logical
    /// order, digits substituted, without the characters UAX #9 X9 removes: `isLeftOutOfText`).
    /// The text of a PDF or SVG is the report's: a ZWNJ, ZWJ or soft hyphen in it made text
    /// extraction read Persian in pieces (the letter before it mapped to two characters, which
    /// pdftotext reverses in right-to-left text), as Pango's PDFs leave them out too. So are the
    /// marks LRM, RLM and ALM, which the report keeps (X9 does not remove them; `reportText`,
    /// nil when it is the run's or no report is made): mapped with the letter before them, they put "שלום\u{200F}" in
    /// a PDF as "שלו\u{200F}ם", and a search for the word failed. A ZWJ between emoji and an
    /// emoji's tags are kept: part of the emoji, drawn as one glyph.
    private func glyphRun(
        _ run: LineRun, _ paragraph: ParagraphLayout, originX: Double, baseline: Double
    ) -> (run: GlyphRun, reportText: String?) {
        var glyphs: [PositionedGlyph] = []
        glyphs.reserveCapacity(run.glyphs.count)
        var pen = originX + run.x
        for g in run.glyphs {
            glyphs.append(PositionedGlyph(id: g.id, x: pen + g.xOffset, y: baseline - g.yOffset))
            pen += g.advance
        }
        let scalars = paragraph.displayScalars
        let lower = run.scalarRange.lowerBound
        let upper = run.scalarRange.upperBound
        // One pass over the run's characters writes its UTF-8 and the offset in it of each
        // character (`offsets[i - lower]`; the last is the length), so that a cluster's count
        // of bytes is a subtraction. (Counted character by character for each cluster, and once
        // more for the text, this took 10 thousand instructions more a corpus document.)
        var text = ""
        var reportDiffers = false
        var clusters: [TextCluster] = []
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: run.scalarRange.count + 1) { offsets in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * run.scalarRange.count) { utf8 in
                var count = 0
                for i in run.scalarRange {
                    offsets[i - lower] = Int32(count)
                    let scalar = scalars[i]
                    if isLeftOutOfText(scalar) && !isPartOfEmoji(scalars, at: i, in: lower..<upper) {
                        // ZWNJ and ZWJ stay (`GlyphRun.text`); the report leaves them out.
                        guard scalar.value &- 0x200C < 2 else { continue }
                        reportDiffers = makesReport
                    }
                    if isBidiMark(scalar) {
                        reportDiffers = makesReport  // the report keeps them (`reportText`)
                        continue
                    }
                    UTF8.encode(scalar) { byte in
                        utf8[count] = byte
                        count += 1
                    }
                }
                offsets[upper - lower] = Int32(count)
                text = String(decoding: UnsafeBufferPointer(rebasing: utf8[..<count]), as: UTF8.self)
            }
            // Clusters lie in the run; clamped all the same, for the offsets are not bounds-checked.
            func offset(_ i: Int) -> Int { Int(offsets[min(max(i, lower), upper) - lower]) }
            func utf8Count(_ range: Range<Int>) -> Int { offset(range.upperBound) - offset(range.lowerBound) }

            // Groups of glyphs sharing a cluster, in glyph order; each takes the text from its
            // cluster to the next cluster in logical order (backwards for right-to-left runs).
            // Gathered on the stack and made an array at once: appended one by one, each paid a
            // uniqueness check.
            withUnsafeTemporaryAllocation(of: TextCluster.self, capacity: run.glyphs.count) { found in
                var count = 0
                var previous: Int?  // the cluster of the group before
                var first = run.glyphs.startIndex
                while first < run.glyphs.endIndex {
                    let cluster = run.glyphs[first].cluster
                    var end = first + 1
                    while end < run.glyphs.endIndex && run.glyphs[end].cluster == cluster { end += 1 }
                    let next = end < run.glyphs.endIndex ? run.glyphs[end].cluster : nil
                    let range: Range<Int>
                    if run.isRightToLeft {
                        let start = next == nil ? lower : cluster
                        range = start..<max(start, previous ?? upper)
                    } else {
                        let start = previous == nil ? lower : cluster
                        range = start..<max(start, next ?? upper)
                    }
                    found.initializeElement(at: count, to: TextCluster(utf8Count: utf8Count(range), glyphCount: end - first))
                    count += 1
                    previous = cluster
                    first = end
                }
                // Cairo reads clusters in text order; BACKWARD means they take glyphs from the end.
                let gathered = UnsafeBufferPointer(rebasing: found[..<count])
                clusters = run.isRightToLeft ? Array(gathered.reversed()) : Array(gathered)
            }
        }
        var reportText: String?
        if reportDiffers {
            var kept = String.UnicodeScalarView()
            for i in run.scalarRange where !isLeftOutOfText(scalars[i]) || isPartOfEmoji(scalars, at: i, in: lower..<upper) {
                kept.append(scalars[i])
            }
            reportText = String(kept)
        }
        let style = paragraph.text.spans[run.spanIndex].style
        let glyphRun = GlyphRun(
            font: run.face, size: run.size, color: style.color, glyphs: glyphs, text: text,
            clusters: clusters, backward: run.isRightToLeft, width: run.width, language: style.language,
            originX: originX + run.x, baseline: baseline)
        return (glyphRun, reportText)
    }
}

extension PageItem {
    /// The item moved down by `dy` points.
    func moved(dy: Double) -> PageItem {
        switch self {
        case .rectangle(var r):
            r.y += dy
            return .rectangle(r)
        case .rule(var r):
            r.y1 += dy
            r.y2 += dy
            return .rule(r)
        case .image(var i):
            i.y += dy
            return .image(i)
        case .glyphs(var g):
            for k in g.glyphs.indices { g.glyphs[k].y += dy }
            g.baseline += dy
            return .glyphs(g)
        case .subpage(var s):
            s.y += dy
            return .subpage(s)
        case .beginTag, .endTag:
            return self
        }
    }
}

/// What a run's text leaves out (SPEC §6): the characters UAX #9 X9 removes (embeddings,
/// overrides, PDF and the boundary neutrals: ZWJ, ZWNJ, ZWSP, soft hyphen, ...), and also the
/// isolate controls, which X9 keeps: most are the ones `<ltr>`, `<rtl>`, `<bdi>` and `dir` add,
/// not characters of the text, and in a PDF's text they would be copied with it.
@inline(__always)
func isLeftOutOfText(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    // Printable ASCII and U+00AE to U+180D (Latin, Greek, Cyrillic, Hebrew, Arabic, ...) hold
    // none: most text is answered by two comparisons.
    if value &- 0x20 < 0x5F || value &- 0xAE < 0x1760 { return false }
    return isHiddenControl(scalar) || isBoundaryNeutral(scalar)
}

/// Whether `scalars[index]`, though `isLeftOutOfText`, is part of an emoji drawn as one glyph
/// and kept in the text, within `range`: a ZWJ that joins emoji (an Extended_Pictographic
/// follows it; a copied 👨‍👩‍👧 was three people without it), or a tag character of an emoji
/// tag sequence (UTS #51 ED-14a: 🏴 and the tags that make it Scotland's flag copied as a black
/// flag), its emoji before it, with a VS16 or a skin tone. A tag looks back over at most 32
/// characters for its emoji, so that a paragraph of tags takes linear time.
@inline(__always)
func isPartOfEmoji(_ scalars: [Unicode.Scalar], at index: Int, in range: Range<Int>) -> Bool {
    let value = scalars[index].value
    if value == 0x200D { return index + 1 < range.upperBound && scalars[index + 1].isExtendedPictographic }
    guard value &- 0xE0020 <= 0x5F else { return false }  // U+E0020 ... U+E007F
    var i = index - 1
    while i >= range.lowerBound, index - i <= 32 {
        let before = scalars[i].value
        // Tags but the cancel tag, VS16, the skin tones U+1F3FB ... U+1F3FF.
        guard before &- 0xE0020 < 0x5F || before == 0xFE0F || before &- 0x1F3FB < 5 else { break }
        i -= 1
    }
    return i >= range.lowerBound && index - i <= 32 && scalars[i].isExtendedPictographic
}

/// Bidi class BN, with the table looked up only in the ranges that hold BN characters
/// (Unicode 15.0; a test checks every code point): letters of every script are answered by a
/// few comparisons.
@inline(__always)
func isBoundaryNeutral(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    let mayBe =
        value < 0xAD
        ? value < 0x20 || value >= 0x7F
        : value == 0xAD || value == 0x180E || (0x200B...0x206F).contains(value) || value >= 0xFDD0
    return mayBe && scalar.bidiClass == .BN
}
