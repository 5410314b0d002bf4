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
        var flow = FlowBackgroundCursor(flowBackgrounds, units: units)
        flowBackgrounds = []
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
                width: width, height: height, background: background, margin: margin,
                makesReport: options.makesReport)
            for index in units.indices {
                flow.addBackgrounds(to: &units, at: index)
                for k in units[index].blocks.indices { emitter.emit(units[index].blocks[k], lines: nil, dy: margin) }
                units[index].blocks = []
            }
            emitter.growToInk()
            return ([emitter.page().0], [emitter.report], [])
        }

        let contentHeight = pageHeight - 2 * margin
        // A list item (a block kept whole while it fits a page) right under titles or headings
        // that cannot stand on one page with it goes on between its lines from under them, as
        // a paragraph does: kept whole, it went to the next page and left a heading alone at
        // the foot (at AX2, a page of a title and a heading, 66% blank), or a title alone on a
        // page, its heading gone on with the item.
        for index in units.indices.dropFirst() where units[index - 1].keepsWithNext && units[index - 1].isHeading {
            var first = index - 1
            while first > 0 && units[first - 1].keepsWithNext && units[first - 1].isHeading { first -= 1 }
            let item = units[index]
            guard item.blocks.count == 1, item.blocks[0].breaks == .ifTallerThanPage,
                (item.blocks[0].paragraph?.lines.count ?? 0) > 1,
                item.bottom - units[first].top > contentHeight + 0.001
            else { continue }
            units[index].blocks[0].breaks = .anyLine
        }
        var pages: [Page] = []
        var reports: [ReportPage] = []
        var emitter = PageEmitter(
            width: width, height: pageHeight, background: background, margin: margin,
            makesReport: options.makesReport)
        var y = 0.0  // used height of the current page's content area
        var empty = true
        var onlySpace = true  // the current page holds spacers at most: no content yet
        var lastDrawn = -1  // the last unit with blocks drawn, on this page or one before
        /// The last unit with content on the current page, when it keeps with what follows it
        /// (`keptStart`): its index (nil: it keeps nothing).
        var keeperOnPage: Int?
        var previousBottom = 0.0
        var pageError: Diagnostic?
        var warnings: [Diagnostic] = []

        /// Warns that `unit` (or one of its lines) is `height` tall, more than a page holds.
        /// (`kind`: the element of the unit that is so tall, when it is not the unit itself.)
        func warnCutOff(_ unit: Unit, height: Double, line: Bool, kind: String? = nil, lowered: Bool = false) {
            var what = "this <\(unit.kind)>"
            if let kind, kind != unit.kind {
                what = "\(kind.first.map { "aei".contains($0) } == true ? "an" : "a") <\(kind)> in \(what)"
            }
            if line { what = "a line of \(what)" }
            // In tenths of a point, or hundredths when only a fraction more than the page holds:
            // "22.1 pt tall, more than the 22.09 pt"; rounded up, never below the page's.
            let shown = height - contentHeight >= 1
                ? (height * 10 - 0.001).rounded(.up) / 10 : (height * 100).rounded(.up) / 100
            // (Set lower in its row, it is not as tall as it reaches: `Unit.pieces`.)
            let size = lowered
                ? ", set lower to share the row's first baseline, ends \(format(shown)) pt down, past the"
                : " is \(format(shown)) pt tall, more than the"
            let warning = Diagnostic.warning(
                unit.location,
                "\(what)\(size) \(format((contentHeight * 100).rounded() / 100)) pt "
                    + "between the page's margins: "
                    // Standing at the page's top, it ends in the bottom margin or past the page.
                    + (height > contentHeight + margin + 0.001
                        ? "it is cut off at the bottom of the page" : "it runs into the bottom margin"),
                hint: "make the page taller ('height' or 'device'), its margin smaller, or the content shorter")
            warnings.append(warning)
        }

        /// For a title or a heading, or a row with one (`units[index]`, `Unit.keepsWithNext`),
        /// how much of what follows it must stand on
        /// its page: the gap and the start of a paragraph or a row taller than a page
        /// (`Unit.startHeight`), a block that does not split, or
        /// another heading and what it keeps; spacers and dividers between them go along. Nil
        /// for nothing to keep (the end, or only spacers and dividers before it).
        func keptStart(after index: Int) -> Double? { keptChain(after: index).kept }

        /// `keptStart`, and whether the headings that follow, more than a page, were cut to the
        /// next one (`cut`).
        func keptChain(after index: Int) -> (kept: Double?, cut: Bool) {
            guard units[index].keepsWithNext else { return (nil, false) }
            // Headings keep each other; a header row is kept by a heading before it (a heading
            // above a section's header row stayed alone at the foot), but not by another header
            // row: rows of a heading and a label one after another went on as a chain, and half a
            // page was left empty.
            var kept: Double?  // the headings that follow, and their gaps
            var nextKept: Double?  // the first of them, and the gap
            var separators = 0.0  // the spacers and dividers since, and their gaps
            var i = index
            var keeperIsHeading = units[index].isHeading
            while i + 1 < units.count {
                // Headings (and spacers between them) longer than a page cannot all stand on
                // one: each keeps only the next (twelve headings, each with a spacer after it,
                // went on a page each, as much as a page of the others keeping each one away).
                guard (kept ?? 0) + separators <= contentHeight else { return (nextKept, true) }
                let next = units[i + 1]
                let gap = max(0, next.top - units[i].bottom)
                let height = next.bottom - next.top
                if next.isSeparator {
                    separators += gap + height
                    i += 1
                    continue
                }
                if next.keepsWithNext && (next.isHeading || keeperIsHeading) && height <= contentHeight + 0.001 {
                    kept = (kept ?? 0) + separators + gap + height
                    nextKept = nextKept ?? kept
                    separators = 0
                    keeperIsHeading = next.isHeading
                    i += 1
                    continue
                }
                // A paragraph, or a row taller than a page, starts where it is and goes on where
                // its lines end: the heading keeps with its start (before a row, it was left
                // alone).
                if next.goesOnFromItsStart(contentHeight: contentHeight) {
                    return ((kept ?? 0) + separators + gap + next.startHeight(contentHeight: contentHeight), false)
                }
                // What cannot stand beside it on any page keeps nothing, nor the spacers before
                // it; nor what cannot stand beside the headings and header row it keeps (a
                // heading was left alone at the foot: its header row and the picture after it
                // were more than a page).
                let own = units[index].bottom - units[index].top
                let whole = (kept ?? 0) + separators + gap + height
                return (height <= contentHeight + 0.001 && own + whole <= contentHeight + 0.001 ? whole : kept, false)
            }
            return (kept, false)
        }

        /// How much of what follows a divider (`units[index]`) goes beside it: the spacers and
        /// dividers after it, and the next unit with content as the page would take it (whole,
        /// or its start when it is cut: a row shorter than a page moved on whole, the divider
        /// left at the foot), with what a heading keeps where the two fit on a page (else it
        /// stays without). Past a page's height, no more is looked at. Nil at the end.
        func startAfter(_ index: Int) -> Double? {
            var need = 0.0
            var i = index
            while i + 1 < units.count && need <= contentHeight {
                let next = units[i + 1]
                let gap = max(0, next.top - units[i].bottom)
                let height = next.bottom - next.top
                i += 1
                guard next.isSeparator else {
                    let cut = next.goesOnFromItsStart(contentHeight: contentHeight)
                    let start = cut ? next.startHeight(contentHeight: contentHeight) : height
                    let kept = keptStart(after: i).flatMap { height + $0 <= contentHeight + 0.001 ? $0 : nil } ?? 0
                    return need + gap + start + kept
                }
                need += gap + height
            }
            return i + 1 < units.count ? need : nil
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
                width: width, height: pageHeight, background: background, margin: margin,
                makesReport: options.makesReport, resuming: continuing)
            y = 0
            empty = true
            onlySpace = true
            keeperOnPage = nil
            return true
        }

        /// The room above `units[index]` at a page's top: the spacers that the backgrounds it
        /// begins begin with, their padding (`FlowBackgroundCursor.padding`), left on the page
        /// before or left out at this one's top (a card went on at the next page's top without
        /// its padding), when the unit's start, and what a heading keeps, fits below them.
        func roomAtTop(_ index: Int) -> Double {
            let padding = flow.padding(before: index, in: units, after: lastDrawn)
            guard padding > 0 else { return 0 }
            let start = units[index].startHeight(contentHeight: contentHeight) + (keptStart(after: index) ?? 0)
            return padding + start <= contentHeight + 0.001 ? padding : 0
        }

        var pageEnded = false  // by a spacer left out: what follows starts a page
        allUnits: for index in units.indices {
            flow.addBackgrounds(to: &units, at: index)
            var unit = units[index]
            defer { units[index].blocks = [] }
            var gap = empty ? roomAtTop(index) : max(0, unit.top - previousBottom)
            let height = unit.bottom - unit.top
            previousBottom = unit.bottom
            // A spacer (or a row or stack of spacers, no background) at a page break is left
            // out, as CSS drops space there: one that does not fit at a page's end, and those
            // after it or at the top of a page after the first (the next page started with their
            // space, or was blank). The page that follows starts with the next content, if any
            // comes. One taller than the first page, at its top, is left out and the page goes
            // on (it was a blank page of its own). So is a divider: a page began with a hairline
            // above its first row, the row it went under left on the page before.
            if unit.isSeparator {
                if pageEnded || (empty && !pages.isEmpty) { continue }
                if y + gap + height > contentHeight + 0.001 {
                    if !empty { pageEnded = true }
                    continue
                }
                // Nor does a divider end a page, what follows it going on to the next: it is
                // left out there too (a card that began with one showed its top at a page's
                // foot, its heading at the next page's top; the first page held a hairline alone,
                // the title under it gone on with the picture it keeps).
                if !unit.blocks.isEmpty, let next = startAfter(index), y + gap + height + next > contentHeight + 0.001 {
                    pageEnded = true
                    continue
                }
            }
            if pageEnded {
                pageEnded = false
                guard newPage(for: unit) else { break }
                gap = roomAtTop(index)
            }
            // A title or a heading is not left at the bottom of a page, its section on the next:
            // it goes there too when the start of what follows it would not fit beside it. Not
            // when the heading before it on the page keeps it, in a chain of headings longer than
            // a page, where each keeps only the next, and it stayed for this one (the second went
            // on to the next page, and the first was left alone).
            let keptByBefore = keeperOnPage.map { keeper in
                unit.keepsWithNext && (unit.isHeading || units[keeper].isHeading) && keptChain(after: keeper).cut
            } ?? false
            if !empty, !keptByBefore, y + gap + height <= contentHeight + 0.001, let next = keptStart(after: index),
                y + gap + height + next > contentHeight + 0.001, height + next <= contentHeight + 0.001
            {
                guard newPage(for: unit) else { break }
                gap = roomAtTop(index)
            }
            if y + gap + height <= contentHeight + 0.001 {
                if empty && gap > 0 { flow.reachUp(&unit, by: gap) }  // (room at the top)
                let dy = margin + y + gap - unit.top
                // By index: `for block in` copied each block, retaining its arrays.
                for k in unit.blocks.indices { emitter.emit(unit.blocks[k], lines: nil, dy: dy) }
                y += gap + height
                empty = false
                if !unit.blocks.isEmpty { (onlySpace, lastDrawn) = (false, index) }
                if !unit.isSeparator { keeperOnPage = unit.keepsWithNext ? index : nil }
                continue
            }
            // What fits on a page goes to the next whole. A paragraph starts here and its lines
            // go on where the page ends; so does a row taller than a page, each of its columns
            // where its lines end. A block that is not cut between lines and is taller than a
            // page stands at the top of one: its row starts there too, its columns side by side
            // (the tall button went to the next page, the label beside it stayed on this one).
            // A unit none of whose first lines fit here starts the next page: a row's columns,
            // each begun there at its own first line, lost their shared baseline.
            let startsHere = y + gap + unit.startHeight(contentHeight: contentHeight) <= contentHeight + 0.001
            if !empty && (!unit.goesOnFromItsStart(contentHeight: contentHeight) || !startsHere) {
                guard newPage(for: unit) else { break }
            }
            let firstTop = empty ? roomAtTop(index) : y + gap
            lastDrawn = index
            if empty && firstTop > 0 { flow.reachUp(&unit, by: firstTop) }
            let pieces = unit.pieces(contentHeight: contentHeight, room: contentHeight - firstTop, bottomMargin: margin)
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
                    warnCutOff(unit, height: cut.height, line: cut.line, kind: cut.kind, lowered: cut.lowered)
                    warned = true
                }
            }
            // What follows comes after the space after its blocks, to its end (a card's bottom
            // padding in a column), as its background reaches: it was set over it.
            let after = max(0, unit.bottom - (unit.blocks.map(\.bottom).max() ?? unit.bottom))
            y = pieces.count == 1 ? firstTop + height : min(contentHeight, pieces[pieces.count - 1].height + after)
            empty = false
            keeperOnPage = unit.keepsWithNext ? index : nil
        }
        if let pageError { return ([], [], warnings + [pageError]) }
        pages.append(emitter.page().0)
        reports.append(emitter.report)
        return (pages, reports, warnings)
    }
}

/// The flow's backgrounds (`FlowBackground`) as pagination comes to each unit: those behind it,
/// innermost first, go on its first block after those of its own, as when each was added to
/// every unit it covers as its container ended, in the same order and with the same
/// rectangles, but only while the unit's page is made.
struct FlowBackgroundCursor {
    private let backgrounds: [FlowBackground]
    /// For each unit, the next one with blocks (`units.count` for none).
    private let nextWithBlocks: [Int]
    /// The backgrounds that begin at each unit.
    private let starting: [Int: [Int]]
    /// Each background's first unit that is not left out at a page's top (`Unit.isSeparator`),
    /// where the spacers and dividers it begins with end, and the room those dividers take.
    private let firstContent: [(index: Int, dividers: Double)]
    /// Those behind the current unit, in the order they ended: the innermost first.
    private var active: [Int] = []
    /// Where among the current unit's first block's backgrounds those of `active` that began
    /// before it are (`reachUp`).
    private var begunBefore: [Int] = []

    init(_ backgrounds: [FlowBackground], units: [Unit]) {
        self.backgrounds = backgrounds
        var next = backgrounds.isEmpty ? [] : Array(repeating: units.count, count: units.count)
        var following = units.count
        for index in next.indices.reversed() {
            next[index] = following
            if !units[index].blocks.isEmpty { following = index }
        }
        nextWithBlocks = next
        starting = Dictionary(grouping: backgrounds.indices, by: { backgrounds[$0].units.lowerBound })
        firstContent = backgrounds.map { background in
            var dividers = 0.0
            for index in background.units {
                guard units[index].isSeparator else { return (index, dividers) }
                if !units[index].blocks.isEmpty && index + 1 < units.count { dividers += units[index + 1].top - units[index].top }
            }
            return (background.units.upperBound, dividers)
        }
    }

    /// How far the backgrounds whose content begins with `units[index]` reach above it, over
    /// the spacers they begin with (`FlowBackground`), and not the dividers among them, left out
    /// at a page's top (its title stood at the card's edge); 0 for none, and for a card begun
    /// on a page before, its divider drawn at that page's foot (`lastDrawn`, the last unit with
    /// blocks drawn: the card's top showed on both pages).
    func padding(before index: Int, in units: [Unit], after lastDrawn: Int) -> Double {
        var padding = 0.0
        for background in active
        where firstContent[background].index == index && lastDrawn < backgrounds[background].units.lowerBound {
            let lead = units[index].top - units[backgrounds[background].units.lowerBound].top
            padding = max(padding, lead - firstContent[background].dividers)
        }
        return padding
    }

    /// Called for each unit in turn, before it is looked at.
    mutating func addBackgrounds(to units: inout [Unit], at index: Int) {
        guard !backgrounds.isEmpty else { return }
        begunBefore = []
        active.removeAll { backgrounds[$0].units.upperBound <= index }
        if let begun = starting[index] {
            active += begun
            active.sort()
        }
        guard units[index].hasFlowBackground, !units[index].blocks.isEmpty else { return }
        // (Grown one by one, 250 nested stacks' parts were copied eight times over.)
        units[index].blocks[0].backgrounds.reserveCapacity(units[index].blocks[0].backgrounds.count + active.count)
        for background in active {
            guard let rectangle = backgrounds[background].rectangle(behind: index, nextWithBlocks: nextWithBlocks[index], in: units)
            else { continue }
            let count = units[index].blocks[0].backgrounds.count
            units[index].blocks[0].addBackground(
                ContainerBackground(rectangle: rectangle, blocks: units[index].blocks.count, container: -1 - background))
            if backgrounds[background].units.lowerBound < index && units[index].blocks[0].backgrounds.count > count {
                begunBefore.append(count)
            }
        }
    }

    /// Makes the parts behind `unit` (the current one) of the backgrounds that
    /// began before it reach `room` above it: standing at a page's top with room for the padding
    /// of a card it begins (`padding`), the cards around that one cover the room too (the
    /// padding showed the page there, not the card around it).
    func reachUp(_ unit: inout Unit, by room: Double) {
        let top = unit.top - room
        for at in begunBefore where unit.blocks[0].backgrounds[at].rectangle.y > top {
            unit.blocks[0].backgrounds[at].rectangle.height += unit.blocks[0].backgrounds[at].rectangle.y - top
            unit.blocks[0].backgrounds[at].rectangle.y = top
        }
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
    var cutOff: (height: Double, line: Bool, kind: String, lowered: Bool)?
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
    func pieces(contentHeight: Double, room: Double, bottomMargin: Double = 0) -> [UnitPiece] {
        // Each block as the slices it may be cut between: its lines, or itself. Of a block cut
        // between its lines, also for each line the first at or after it that shows something
        // (its line count if none; a line whose first is another shows nothing, one of
        // `<br/><br/>`): a page looks past the empty lines at its foot at once, not one by one
        // (a paragraph of 200,000 `<br/>` looked through all those left on every page).
        var slices: [[(top: Double, bottom: Double)]] = []
        var nextText: [[Int]] = []
        // And the last line that shows something, whose widow it would be.
        var lastText: [Int?] = []
        for block in blocks {
            guard block.cutsBetweenLines(contentHeight: contentHeight), let paragraph = block.paragraph else {
                slices.append([(block.top, block.bottom)])
                // (A block of one slice is never asked about its lines: no room is made for it.)
                nextText.append([])
                lastText.append(nil)
                continue
            }
            let lines = paragraph.lines
            slices.append(lines.indices.map { i in (block.lineTop(i), block.lineBottom(i)) })
            var firstText = Array(repeating: lines.count, count: lines.count)
            var shown = lines.count
            for k in lines.indices.reversed() {
                if !lines[k].showsNothing { shown = k }
                firstText[k] = shown
            }
            nextText.append(firstText)
            lastText.append(lines.lastIndex { !$0.showsNothing })
        }
        func isBlankLine(_ i: Int, _ k: Int) -> Bool { nextText[i][k] != k }
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
                // No page starts with an empty line (`<br/><br/>`): it stays on this page, where
                // it draws nothing, and a band of nothing no longer opens the next. Nor do those
                // that end the paragraph (`a<br/><br/>…` made pages of nothing).
                var blankEnd = false  // empty lines that end the paragraph kept past the page's end
                if end > start, end < block.count, isBlankLine(i, end) {
                    blankEnd = nextText[i][end] == block.count
                    end = nextText[i][end]
                }
                // A paragraph's last line does not go on alone at the top of a page (a widow):
                // the line before it goes with it, when the two fit on the next page (one of
                // three lines was cut 2 + 1), and an empty line is no company: the text line
                // before it goes too, unless the next page would then begin with empty lines
                // (the rule above). Its last line of text, that is: the empty lines of a
                // paragraph that ends in `<br/><br/>` follow it (its last word opened a page
                // alone). One of two lines does not start on a page that holds only one
                // (`Unit.startHeight`).
                if end == lastText[i], end - start >= 2,
                    block[block.count - 1].bottom - block[end - 1].top <= contentHeight + 0.001
                {
                    var company = end - 1
                    while isBlankLine(i, company), company - start >= 2,
                        block[block.count - 1].bottom - block[company - 1].top <= contentHeight + 0.001
                    {
                        company -= 1
                    }
                    if !isBlankLine(i, company) { end = company }
                }
                // (Or first in its column on this page, though below the column's top: in a row
                // inside a row, aligned to its neighbours' baseline, a button taller than a page
                // waited for the next page while they began on this one.)
                func firstInColumn() -> Bool {
                    start == 0 && !piece.parts.contains { column[$0.block] == column[i] }
                        && !unfinished.contains { $0 < i && column[$0] == column[i] && next[$0] < slices[$0].count }
                }
                // Below another block of its column, a paragraph does not leave its first line
                // alone at the page's foot (an orphan), as in the flow: it begins on the next
                // page, when its first two lines fit on one ("First step 4" ended a column's
                // page, the paragraph going on at the next). Its first two lines of text, past
                // the empty lines of a `<br/>` that begins it.
                if start == 0, end < block.count, let first = nextText[i].first, first < end, first + 1 < block.count,
                    nextText[i][first + 1] == end, block[end].bottom - block[0].top <= contentHeight + 0.001,
                    !firstInColumn()
                {
                    end = 0
                }
                // (Or, on the page a row taller than a page begins at the top of, first in its
                // column and as tall as a page but set lower to share its first baseline with the
                // others: it stays beside them, into the bottom margin. It went to the next page
                // alone, after its neighbours in reading order.)
                let lowered = start == 0 && pieces.isEmpty && block[start].bottom - block[start].top <= contentHeight + 0.001
                    && block[start].bottom - origin <= contentHeight + bottomMargin + 0.001
                if end == start && height >= contentHeight - 0.001
                    && (block[start].top <= origin + 0.001
                        || (block[start].bottom - block[start].top > contentHeight + 0.001 || lowered) && firstInColumn())
                {
                    // Taller than a page and at its top: it stands there alone, cut off.
                    let tall = lowered ? block[start].bottom - origin : block[start].bottom - block[start].top
                    let line = !lowered && blocks[i].breaks != .never && blocks[i].paragraph.map { !$0.lines.isEmpty } ?? false
                    if tall > piece.cutOff?.height ?? 0 { piece.cutOff = (tall, line, blocks[i].report.kind, lowered) }
                    end += 1
                }
                if end > start {
                    // (Not whole with `blankEnd`: its part, which ends with the content area,
                    // shows them at its foot.)
                    let whole = start == 0 && end == block.count && !blankEnd
                    piece.parts.append((i, whole ? nil : start..<end, origin))
                    piece.height = max(piece.height, block[end - 1].bottom - origin)
                    piece.structure.formUnion(blocks[i].structure(continuation: start > 0))
                    next[i] = end
                }
                if end < block.count { rest[column[i]] = min(rest[column[i]], block[end].top) }
            }
            // Nor does a heading end its column's page, the block after it beginning on the
            // next (as in the flow): it goes there too, unless it stands first on this one.
            for c in origins.indices {
                let here = piece.parts.indices.filter { column[piece.parts[$0].block] == c }
                guard let k = here.max(by: { slices[piece.parts[$0].block][0].top < slices[piece.parts[$1].block][0].top })
                else { continue }
                let i = piece.parts[k].block
                let top = slices[i][0].top
                guard piece.parts[k].lines == nil, blocks[i].isHeading,
                    here.contains(where: { slices[piece.parts[$0].block][0].top < top - 0.001 }),
                    !waiting[c].isEmpty || unfinished.contains(where: { column[$0] == c && next[$0] == 0 && slices[$0][0].top > top })
                else { continue }
                piece.parts.remove(at: k)
                next[i] = 0
                rest[c] = min(rest[c], top)
                piece.height = piece.parts.map { part in
                    (part.lines.map { slices[part.block][$0.upperBound - 1] } ?? slices[part.block][slices[part.block].count - 1]).bottom
                        - part.origin
                }.max() ?? 0
            }
            pieces.append(piece)
            unfinished.removeAll { next[$0] == slices[$0].count }
            guard !unfinished.isEmpty || waiting.contains(where: { !$0.isEmpty }) else { break }
            for (c, top) in rest.enumerated() where top < .infinity { origins[c] = top }
        }
        return pieces
    }

    /// Each piece's part of the backgrounds of the unit's lists, rows and stacks, in page
    /// coordinates (`pageTops`: where each piece's content area begins, the first's where the
    /// unit begins): from the container's
    /// top on the page it begins on, or the page's top, to where its blocks end on the page it
    /// ends on (and the space it has after them), or the page's end, as CSS fragments a box.
    /// A row's background goes on as long as one of its columns does (it stopped with its first
    /// column's first block).
    func backgrounds(on pieces: [UnitPiece], pageTops: [Double]) -> [[ContainerBackground]] {
        // Where each block's parts are: on which piece, moved down by how much, how far down.
        var parts = Array(repeating: [(piece: Int, dy: Double, bottom: Double)](), count: blocks.count)
        for (k, piece) in pieces.enumerated() {
            for part in piece.parts {
                let block = blocks[part.block]
                var bottom = block.bottom
                if let lines = part.lines, block.paragraph != nil {
                    bottom = block.lineBottom(lines.upperBound - 1)
                }
                let dy = pageTops[k] - part.origin
                parts[part.block].append((k, dy, bottom + dy))
            }
        }
        var result = Array(repeating: [ContainerBackground](), count: pieces.count)
        for (carrier, block) in blocks.enumerated() {
            for background in block.backgrounds.reversed() {  // outermost first
                let covered = carrier..<min(carrier + background.blocks, blocks.count)
                let its = covered.flatMap { parts[$0] }
                guard let first = its.map(\.piece).min(), let last = its.map(\.piece).max() else { continue }
                let lowest = covered.map { blocks[$0].bottom }.max() ?? block.bottom
                let after = max(0, background.rectangle.y + background.rectangle.height - lowest)
                // (Where this is above its page's content area, `PageEmitter.emit` begins it
                // there: a column of a row whose first page took none of it began in the margin,
                // and a stack's part over the spacers before a first block that splits reaches up.)
                let firstTop = background.rectangle.y + (its.first { $0.piece == first }?.dy ?? 0)
                let lastBottom = (its.filter { $0.piece == last }.map(\.bottom).max() ?? firstTop) + after
                for k in first...last {
                    var part = background
                    let top = k == first ? firstTop : pageTops[k]
                    let bottom = k == last ? lastBottom : .infinity
                    part.rectangle.y = top
                    part.rectangle.height = bottom - top
                    result[k].append(part)
                }
            }
        }
        return result
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
