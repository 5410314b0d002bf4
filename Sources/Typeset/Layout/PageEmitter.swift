// Placed blocks to page items: glyph runs with their text and clusters, shapes, images and the
// tags of the structure, and the layout report's entries (SPEC §6) of one page.

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

    /// Where the page's content area begins and ends: the backgrounds of lists, rows and stacks
    /// stay within them.
    let contentTop: Double
    let contentBottom: Double
    /// Where in `items` each container's background was drawn last (`ContainerBackground.container`):
    /// where its next part meets it. Else the first drawn of its shape that meets it, a
    /// container's that hid it on the blocks before (`ContainerBackground.hides`), by their
    /// fill, x and width, in the order drawn. (Searched one by one, 200 nested stacks with
    /// backgrounds took minutes for a megabyte of text; searched by shape and bottom, 250 nested
    /// stacks of distinct colors, 730 KB, took 35 s, and by shape alone, of one translucent
    /// color, 970 KB, 47 s.)
    private var lastParts: [Int: Int] = [:]
    private var partsByShape: [ShapeKey: [Int]] = [:]
    private struct ShapeKey: Hashable {
        var fill: Color?
        var x: Double, width: Double
        init(_ rectangle: RectangleItem) {
            fill = rectangle.fill
            x = rectangle.x
            width = rectangle.width
        }

        /// Its fields mixed into one word, hashed once: hashed one by one (seven of them, with
        /// the color's), they took a third of the time of 250 nested stacks' backgrounds.
        func hash(into hasher: inout Hasher) {
            var word: UInt64 = 0xCBF2_9CE4_8422_2325
            func mix(_ value: Double) { word = (word ^ (value == 0 ? 0 : value.bitPattern)) &* 0x100_0000_01B3 }
            mix(x)
            mix(width)
            if let fill {
                mix(fill.red)
                mix(fill.green)
                mix(fill.blue)
                mix(fill.alpha)
            }
            hasher.combine(word)
        }
    }
    /// Whether the page's report gets its blocks, their lines and runs (`LayoutOptions.makesReport`).
    let makesReport: Bool

    init(
        width: Double, height: Double, background: Color, margin: Double, makesReport: Bool,
        resuming: Set<OpenStructure> = []
    ) {
        report = ReportPage(width: width, height: height, blocks: [])
        self.makesReport = makesReport
        // A mockup's page holds some 70 items (runs, tags, shapes): grown from one item, the
        // array was copied six times, each item with it.
        items.reserveCapacity(64)
        self.background = background
        contentTop = margin
        contentBottom = height - margin
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

    /// Grows a page that grows to fit its content (no `height`) to the ink of its lines: with
    /// `margin="0"`, the dots under an Arabic label's last line were cut off at the page's foot,
    /// and the marks over a vocalized first line at its top (there, all it holds moves down
    /// by the ink above).
    mutating func growToInk() {
        var top = 0.0
        var bottom = report.height
        for case .glyphs(let run) in items {
            let inks = Shaper.inks(face: run.font, glyphs: run.glyphs.lazy.map(\.id))
            for (glyph, ink) in zip(run.glyphs, inks) {
                guard let ink else { continue }
                top = min(top, glyph.y - ink.top * run.size)
                bottom = max(bottom, glyph.y - ink.bottom * run.size)
            }
        }
        // (In hundredths of a point, as the layout report rounds; not for what rounding left
        // past a background's room for the ink, which is in hundredths too.)
        if top < -1e-6 {
            let down = (-top * 100).rounded(.up) / 100
            items = items.map { $0.moved(dy: down) }
            for i in report.blocks.indices {
                report.blocks[i].frame.y += down
                for k in report.blocks[i].lines.indices { report.blocks[i].lines[k].baseline += down }
            }
            bottom += down
        }
        if bottom > report.height { report.height = min((bottom * 100).rounded(.up) / 100, BlockLayouter.maximumGrowingPageHeight) }
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
        _ block: PlacedBlock, lines: Range<Int>?, dy: Double, order: StructureOrder? = nil, backgrounds: [ContainerBackground]? = nil
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
        // block of a page reached into the margin; a stack's part over the spacers it begins
        // with, left on the page before, reached into the top margin: `FlowBackground`,
        // `Unit.backgrounds`).
        let own = block.backgrounds.reversed().map { var part = $0; part.rectangle.y += dy; return part }
        // Outermost first: the one before, as drawn (merged), and whether one was drawn anew.
        var outer: RectangleItem?
        var drawnAnew = false
        for part in backgrounds ?? own {
            var background = part.rectangle
            let top = max(background.y, contentTop)
            background.height = min(background.y + background.height, contentBottom) - top
            background.y = top
            guard background.height > 0 else { continue }
            // Within the one outside it, opaque and of its color, it shows nothing: left out (drawn
            // anew after that one's earlier part, which an inner card's part had joined, it hid
            // that card's part over this block).
            if let outer, outer.covers(background) { continue }
            // One rectangle where a container's parts meet on the page: two drawn edge to edge
            // let the page show through their antialiased edges (light lines across a card).
            // The part it meets, its bottom within a millionth of a point of this top. (Not
            // once one outside it was drawn anew: joined to its part drawn before that one, it
            // would be under it.)
            func meets(_ index: Int) -> Bool {
                guard case .rectangle(let earlier) = items[index] else { return false }
                return abs(earlier.y + earlier.height - background.y) < 1e-6
            }
            let shape = ShapeKey(background)
            let meeting = drawnAnew ? nil
                : lastParts[part.container].flatMap { meets($0) ? $0 : nil } ?? partsByShape[shape]?.first(where: meets)
            lastParts[part.container] = meeting ?? items.count
            if let meeting, case .rectangle(var earlier) = items[meeting] {
                earlier.height = background.y + background.height - earlier.y
                items[meeting] = .rectangle(earlier)
                outer = earlier
            } else {
                partsByShape[shape, default: []].append(items.count)
                items.append(.rectangle(background))
                outer = background
                drawnAnew = true
            }
        }
        // Where the part of a text block split between pages ends on this one (page coordinates).
        let partBottom = lines.flatMap { lines in block.paragraph.map { bottom(of: block, $0, lines, dy: dy) } }
        // (Whole but cut, its empty lines past the content area: the part ends there too.)
        var cut = false
        if let lines, block.paragraph != nil, let partBottom {
            cut = partBottom < block.lineBottom(lines.upperBound - 1) + dy - 0.001
        }
        if let lines, let paragraph = block.paragraph, let partBottom, !(firstPart && lastPart) || cut {
            // A text block split between pages: its background behind the lines of each part,
            // and the ink over the first and under the last of a part where the block's own
            // room (`inkRoomAbove`, `inkRoomBelow`) is not, into the margin: the dots under
            // Arabic at a page's foot were cut off, and the marks over it at the next one's top.
            let drawn = !block.decorations.isEmpty
            let above = drawn && !firstPart ? paragraph.lines[lines.lowerBound].inkOverflow.above : 0
            let below = drawn && !lastPart && !cut ? paragraph.lines[lines.upperBound - 1].inkOverflow.below : 0
            for case .rectangle(var background) in block.decorations {
                background.y = block.lineTop(lines.lowerBound) + dy - above
                background.height = partBottom + below - background.y
                items.append(.rectangle(background))
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
            if let lines, let partBottom {
                // (The lines' frame, without the room for ink below the last.)
                let top = block.lineOrigins[lines.lowerBound].top + dy
                entry?.frame.y = top
                entry?.frame.height = partBottom - (lastPart && !cut ? block.inkRoomBelow : 0) - top
            }
            if let item, firstPart { begin(.body(item), order: order) }
            if let count = entry?.lines.count { entry?.lines.reserveCapacity(count + range.count) }
            for i in range {
                let line = paragraph.lines[i]
                let origin = block.lineOrigins[i]
                var baseline = origin.top + dy + line.baseline
                // An empty line kept past the content area's end stands at it (`partBottom`).
                if let partBottom, line.showsNothing { baseline = min(baseline, partBottom) }
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
                                width: run.width, glyphs: run.glyphs.count, face: run.face.fullName))
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

    /// Where `lines` of `block`, a part of it on this page, end. A page does not begin with the
    /// empty lines of `<br/><br/>` before text (`Unit.pieces`): they stay at the foot of the page
    /// before, where they draw nothing, and those past the content area are cut off there, as a
    /// break drops a spacer: the part's frame and background end with the content area (a
    /// paragraph of many empty lines reached far past the page, its background into the margin).
    private func bottom(of block: PlacedBlock, _ paragraph: ParagraphLayout, _ lines: Range<Int>, dy: Double) -> Double {
        let bottom = { (i: Int) in block.lineBottom(i) + dy }
        let lastShown = lines.last { !paragraph.lines[$0].showsNothing }
        // (A line taller than a page, cut off at its foot, keeps its height.)
        return min(bottom(lines.upperBound - 1), max(contentBottom, lastShown.map(bottom) ?? 0))
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
        // Where each drawn run starts in the text; the items sorted by it, by swapping them
        // along the cycles of the order (copied out and back, each was retained). (A selection
        // sort took 79% of the time of a line of 51,000 runs: 56 s for 4 MB of "iו".)
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        for k in runs.indices where !runs[k].glyphs.isEmpty { starts.append(runs[k].scalarRange.lowerBound) }
        assert(items.count - first == starts.count)
        // Place k takes the item at order[k].
        let order = starts.indices.sorted { starts[$0] != starts[$1] ? starts[$0] < starts[$1] : $0 < $1 }
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            var k = start
            placed[k] = true
            while order[k] != start {
                items.swapAt(first + k, first + order[k])
                k = order[k]
                placed[k] = true
            }
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

    /// A line run as drawable glyphs, with its text and Cairo clusters. The text is in logical
    /// order, its digits substituted, without what `isLeftOutOfText` leaves out (a soft hyphen
    /// mapped with the letter before it made text extraction read Persian in pieces) but ZWNJ
    /// and ZWJ, which are part of the spelling (`steersLetters`), and an emoji's ZWJs and tags
    /// (`isPartOfEmoji`), drawn as one glyph. Without the marks LRM, RLM and ALM too: mapped
    /// with the letter before them, they put "שלום\u{200F}" in a PDF as "שלו\u{200F}ם", and a
    /// search for the word failed. The layout report's text (SPEC §6 `text`) keeps those marks
    /// and leaves out ZWNJ and ZWJ: `reportText`, nil when it is the run's or no report is made.
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
                        guard steersLetters(scalar) else { continue }
                        reportDiffers = makesReport  // the report leaves ZWNJ and ZWJ out
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
        var glyphRun = GlyphRun(
            font: run.face, size: run.size, color: style.color, glyphs: glyphs, text: text,
            clusters: clusters, backward: run.isRightToLeft, width: run.width, language: style.language,
            originX: originX + run.x, baseline: baseline)
        glyphRun.leftToRightInLeftToRight = paragraph.baseLevel == 0 && !run.isRightToLeft
        return (glyphRun, reportText)
    }
}

extension RectangleItem {
    /// Whether `other`, drawn over it, shows nothing it does not: it is opaque, of `other`'s
    /// fill, square-cornered, and `other` (without a stroke) lies within it.
    func covers(_ other: RectangleItem) -> Bool {
        fill == other.fill && fill?.alpha == 1 && stroke == nil && other.stroke == nil && cornerRadius == 0
            && x <= other.x && x + width >= other.x + other.width && y <= other.y && y + height >= other.y + other.height
    }
}
