// Blocks on pages (SPEC §2, §4): resolves each block's style and directions, lays out its
// paragraph, applies the HIG rules, stacks blocks into a galley and cuts the galley into pages.

/// The inherited state a block is laid out in.
struct BlockContext {
    var rightToLeft: Bool
    var language: String
    /// Whether `language` was given (the document's `lang`, `--locale`, a container's `lang`),
    /// not the default.
    var languageIsDeclared = false
    /// Whether `language` is `--locale`'s, no `lang` in the markup above the block.
    var languageIsLocale = false
    /// Left edge and width available, in points from the page's left edge.
    var x: Double
    var width: Double
    /// The list the block is an item of, and its direction.
    var listRightToLeft: Bool?
    /// True when a sibling title/heading/label/button in the same row has all-caps Latin (4.3:
    /// direct children of one row only, not the contents of a stack or list in it).
    var rowHasAllCaps = false
    /// True when the row holding the block has already warned that its buttons are too narrow.
    var narrowButtonsReported = false
    /// The `align`, `size`, `weight`, `line-height` and `color` of the lists, rows and stacks
    /// around the block, nearest first: what the block does not set, it takes from them.
    var inherited = BlockStyle()
    /// True for the children of a list: its items and nested lists.
    var inList = false
    /// How many rows and lists the block is in: what narrows it, for the hints of warnings.
    var rowDepth = 0
    var listDepth = 0
}

/// A laid-out leaf block at galley coordinates (y from the top of the first page's content).
struct PlacedBlock {
    var report: ReportBlock
    var paragraph: ParagraphLayout?
    /// Line boxes: left x and top y of each line, parallel to `paragraph.lines`.
    var lineOrigins: [(x: Double, top: Double)] = []
    var marker: (paragraph: ParagraphLayout, x: Double, top: Double)?
    /// The backgrounds of the lists, rows and stacks that begin with it, innermost first (each
    /// container adds its own after those inside it): drawn first of all, outermost first, each
    /// page's part of them (`PageEmitter.emit`, `Unit.backgrounds`).
    var backgrounds: [ContainerBackground] = []
    /// Drawn before the text (button shapes, backgrounds), and other content (images, rules).
    var decorations: [PageItem] = []
    var tag: StructureTag?
    /// The lists a list item is in, outermost first, and for a nested list the item it follows
    /// (a nested list is tagged inside that item's LBody; one that follows no item, inside an
    /// item of its own). Items of one list share its L.
    var enclosing: [OpenStructure] = []
    /// A list item's own number among all items, for its LI and LBody.
    var itemKey: Int?
    var top: Double
    var bottom: Double
    /// Whether a lone text block may be split between pages at its lines.
    var breaks: PageBreaks
    /// Room above the first line and below the last, in the block, for their ink: a text
    /// block's own background holds the marks over vocalized Arabic and the dots under it
    /// (`BlockLayouter.layoutText`).
    var inkRoomAbove = 0.0
    var inkRoomBelow = 0.0
    /// How far its ink reaches past its top and its bottom, once asked (`inkReach`: each
    /// container with a background around it asks), or once its own background made room.
    var inkPast: (top: Double, bottom: Double)?
    /// For a block in a row, the row's child it is in (of the outermost row): the column that
    /// goes on by itself when the row is split between pages.
    var column = 0
}

/// A list's, row's or stack's `background`, carried by the first block it is behind.
struct ContainerBackground {
    var rectangle: RectangleItem
    /// How many blocks it is behind, from the one that carries it (a row's: its columns').
    var blocks: Int
    /// The room at its top and foot for the ink over its blocks' first lines and under their
    /// last (`BlockLayouter.addBackground`).
    var inkRoomAbove = 0.0
    var inkRoomBelow = 0.0
    /// Which container's it is (`BlockLayouter.containerCount`; a list's or stack's of the flow,
    /// -1 - its index in `flowBackgrounds`): where its parts meet on a page, they are one
    /// rectangle (`PageEmitter`).
    var container = 0

    /// Whether, drawn over `other`, it leaves nothing of it to see: opaque, on the same area,
    /// and of its color, so that the page's backgrounds of that color, merged (`PageEmitter`),
    /// cover what they did without it. (Of another color, the outer one's part beside the inner
    /// one would end where the inner one begins, and the page show between them.)
    func hides(_ other: ContainerBackground) -> Bool {
        let (a, b) = (rectangle, other.rectangle)
        return blocks == other.blocks && a.fill?.alpha == 1 && a.fill == b.fill && a.stroke == nil
            && a.cornerRadius == b.cornerRadius && a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
    }
}

/// A `background` of a list or stack of the flow, whose children are `units` (pages break
/// between them): behind each unit with blocks and the gap after it, to the next one's top (the
/// last to the container's end, spacers after it too), so that its children stand on one area
/// and each page has its part (a paragraph split between pages, behind each part's lines and
/// the gap after the last). The part behind its first unit with blocks reaches up over the
/// spacers before it, its padding (a card's top spacer was left bare). At a page's top, where
/// those spacers were left on the page before or left out, the unit keeps room for them above
/// it (`paginate`'s `roomAtTop`); a page's part of a background never begins above its content
/// area (`PageEmitter.emit`, `Unit.backgrounds`).
struct FlowBackground {
    var units: Range<Int>
    /// The first of `units` with blocks (`units.upperBound` for none).
    var firstWithBlocks: Int
    var x: Double
    var width: Double
    var fill: Color

    /// Its part behind `units[index]`, whose next unit with blocks is `units[nextWithBlocks]`
    /// (`units.count` for none); nil when that has no height.
    func rectangle(behind index: Int, nextWithBlocks next: Int, in units: [Unit]) -> RectangleItem? {
        let top = index == firstWithBlocks ? units[self.units.lowerBound].top : units[index].top
        let bottom = next < self.units.upperBound ? units[next].top : units[self.units.upperBound - 1].bottom
        guard bottom > top else { return nil }
        return RectangleItem(x: x, y: top, width: width, height: bottom - top, fill: fill)
    }
}

/// A structure element that stays open from one block to the next: a list, an item of one, or
/// the item's body (ISO 32000-1 §14.8.4.3.3).
enum OpenStructure: Hashable {
    case list(Int, ListMarker), item(Int), body(Int)

    var tag: StructureTag {
        switch self {
        case .list(_, .number): .numberedList
        case .list(_, .none): .unmarkedList
        case .list: .list
        case .item: .listItem
        case .body: .listBody
        }
    }
}

extension PlacedBlock {
    /// Where its first line's baseline is, for text.
    var firstBaseline: Double? {
        guard let line = paragraph?.lines.first, let origin = lineOrigins.first else { return nil }
        return origin.top + line.baseline
    }

    /// Adds the background of a container around those it has (`backgrounds`) unless the
    /// last of them, a container's just inside, opaque, of its color and on the same area, hides
    /// it: 250 stacks with one background, one inside the other, gave each of 80,000
    /// paragraphs 250 of them (2.6 GB, 20 s).
    mutating func addBackground(_ background: ContainerBackground) {
        if let inner = backgrounds.last, inner.hides(background) { return }
        // (Appended: inserted first, each of 200 nested stacks moved the others, per paragraph.)
        backgrounds.append(background)
    }

    mutating func move(down dy: Double) {
        top += dy
        bottom += dy
        report.frame.y += dy
        for i in lineOrigins.indices { lineOrigins[i].top += dy }
        marker?.top += dy
        for i in backgrounds.indices { backgrounds[i].rectangle.y += dy }
        decorations = decorations.map { $0.moved(dy: dy) }
    }

    /// A band: a row's or stack's background around spacers alone, a block of its own
    /// (`BlockLayouter.addBackground`), which has no text and shares no baseline.
    var isBand: Bool { paragraph == nil && decorations.isEmpty }

    /// A title or a heading (`Unit.isHeading`).
    var isHeading: Bool { report.kind == "title" || report.kind == "heading" }

    /// The top of the line box of line `i`, and of the room for its ink above the first.
    func lineTop(_ i: Int) -> Double {
        lineOrigins[i].top - (i == 0 ? inkRoomAbove : 0)
    }

    /// The bottom of the line box of line `i`, and of the room for its ink below the last.
    func lineBottom(_ i: Int) -> Double {
        guard let lines = paragraph?.lines else { return bottom }
        return lineOrigins[i].top + lines[i].height + (i == lines.count - 1 ? inkRoomBelow : 0)
    }

    /// How far up and down its ink reaches: its top and bottom, or its first line's ink above
    /// the one and its last line's below the other (a container's background makes room for
    /// them, `BlockLayouter.addBackground`).
    mutating func inkReach() -> (top: Double, bottom: Double) {
        if let inkPast { return (top - inkPast.top, bottom + inkPast.bottom) }
        var past = (top: 0.0, bottom: 0.0)
        if let paragraph, let ink = paragraph.edgeInk, let last = paragraph.lines.last, let upper = lineOrigins.first,
            let lower = lineOrigins.last
        {
            past = (max(0, top - (upper.top - ink.above)), max(0, lower.top + last.height + ink.below - bottom))
        }
        inkPast = past
        return (top - past.top, bottom + past.bottom)
    }

    /// Its own background (a text block's) or the outermost container's it carries, and its
    /// room for ink over and under the text.
    private var ownBackground: (rectangle: RectangleItem, above: Double, below: Double)? {
        if let background = backgrounds.last { return (background.rectangle, background.inkRoomAbove, background.inkRoomBelow) }
        guard paragraph != nil, case .rectangle(let shape)? = decorations.first else { return nil }
        return (shape, inkRoomAbove, inkRoomBelow)
    }

    /// Widens that background by `up` over its top and `down` under its foot: more room for ink.
    private mutating func widenOwnBackground(up: Double, down: Double) {
        if let last = backgrounds.indices.last {
            backgrounds[last].rectangle.y -= up
            backgrounds[last].rectangle.height += up + down
            backgrounds[last].inkRoomAbove += up
            backgrounds[last].inkRoomBelow += down
        } else if case .rectangle(var shape)? = decorations.first {
            shape.y -= up
            shape.height += up + down
            decorations[0] = .rectangle(shape)
            (inkRoomAbove, inkRoomBelow) = (inkRoomAbove + up, inkRoomBelow + down)
            (top, bottom) = (top - up, bottom + down)
            inkPast = nil
        }
    }

    /// The backgrounds of a row's children (`placed[i]` for each of `carriers`), which began at
    /// the row's `top` and may have moved down since to share its first baseline, with their
    /// room for ink: those that ended together without the room, or within the room below of one
    /// another, end together with it, and those that the room over another's text moved down
    /// begin at the row's top again. The room one card makes for the marks over its Arabic
    /// letters and the dots under them, the others make too: a row of cards came out ragged by
    /// 7 pt, and one balanced by 4.3 (its Arabic 2 pt larger) by 3 pt. (A card moved down by
    /// larger type beside it still stands lower, as it did.)
    static func evenInkRooms(of carriers: [Int], top: Double, in placed: inout [PlacedBlock]) {
        guard carriers.count > 1 else { return }
        let owns = carriers.compactMap { i in placed[i].ownBackground.map { (index: i, background: $0) } }
        let roomAbove = owns.map(\.background.above).max() ?? 0
        let near = max(0.01, owns.map(\.background.below).max() ?? 0)
        // How far each goes up to the row's top, and where it ended without the room and that move.
        let ups = owns.map { max(0, min($0.background.rectangle.y - top, roomAbove - $0.background.above)) }
        let plain = owns.indices.map { k in
            let own = owns[k].background
            return own.rectangle.y + own.rectangle.height - own.below - own.above - ups[k]
        }
        let order = owns.indices.sorted { plain[$0] < plain[$1] }
        var together = Array(owns.indices)  // each one's group: the first of it in `order`
        for (k, i) in order.enumerated().dropFirst() where plain[i] - plain[order[k - 1]] < near {
            together[i] = together[order[k - 1]]
        }
        var lowest: [Int: Double] = [:]
        for k in owns.indices {
            let bottom = owns[k].background.rectangle.y + owns[k].background.rectangle.height
            lowest[together[k]] = max(lowest[together[k]] ?? bottom, bottom)
        }
        for k in owns.indices {
            let own = owns[k].background
            let down = max(0, (lowest[together[k]] ?? 0) - (own.rectangle.y + own.rectangle.height))
            if ups[k] > 0 || down > 0 { placed[owns[k].index].widenOwnBackground(up: ups[k], down: down) }
        }
    }

    /// Makes a button (its rectangle the first decoration) reach down to `bottom`, its text
    /// still centered in it.
    mutating func stretchButton(to newBottom: Double) {
        let grow = newBottom - bottom
        guard grow > 0, case .rectangle(var shape)? = decorations.first else { return }
        shape.height += grow
        decorations[0] = .rectangle(shape)
        for i in lineOrigins.indices { lineOrigins[i].top += grow / 2 }
        report.frame.y += grow / 2
        bottom = newBottom
        inkPast = nil
    }

    /// The open elements the block's content goes in: those it is in, and, when its content
    /// goes on from a page before (`continuation`), a list item's own LI and LBody.
    func structure(continuation: Bool) -> [OpenStructure] {
        guard continuation, let key = itemKey else { return enclosing }
        return enclosing + [.item(key), .body(key)]
    }
}

/// Where pagination may split a text block between its lines.
enum PageBreaks {
    /// Never (buttons, images, rules): a block taller than a page is cut off at its bottom.
    case never
    /// Only when the block alone is taller than a page: list items, titles and headings keep
    /// together otherwise.
    case ifTallerThanPage
    /// At whichever line the page ends (paragraphs and the other text blocks).
    case anyLine
}

/// Blocks that move to a new page together (a row, an item, a block of the flow).
struct Unit {
    var blocks: [PlacedBlock]
    var top: Double
    var bottom: Double
    /// The element the unit was made from, and its name (for diagnostics about its page).
    var location: SourceLocation
    var kind: String
    /// A title or a heading, or a row of one with labels, buttons or images beside it (a
    /// section's header: "New Apps" and its "See All" button): not left at a page's foot
    /// without the start of what follows it. (A row with a paragraph beside its heading is a
    /// term and its description, content, as a spec sheet's rows are.)
    var keepsWithNext = false
    /// Whether a list or stack of the flow draws its background behind it (`FlowBackground`,
    /// added to its first block when its page comes).
    var hasFlowBackground = false
    /// How far below its bottom its blocks' ink reaches, once asked (`inkBottom`).
    var inkBelowBottom: Double?

    /// A title or a heading.
    var isHeading: Bool { kind == "title" || kind == "heading" }

    /// Moves it and its blocks down by `dy`.
    mutating func move(down dy: Double) {
        top += dy
        bottom += dy
        for i in blocks.indices { blocks[i].move(down: dy) }
    }

    /// How far down its blocks' ink reaches (`PlacedBlock.inkReach`), kept once asked: each
    /// list or stack with a background around it asks (250 nested ones, of 20,000 paragraphs,
    /// asked each block 250 times).
    mutating func inkBottom() -> Double {
        if let inkBelowBottom { return bottom + inkBelowBottom }
        var lowest = bottom
        for j in blocks.indices { lowest = max(lowest, blocks[j].inkReach().bottom) }
        inkBelowBottom = lowest - bottom
        return lowest
    }

    /// A spacer (or a row or stack of nothing else, without a background), a divider, or a
    /// paragraph of empty lines alone (`<br/>`s, no background: it opened a page with a band of
    /// nothing): left out at a page break.
    var isSeparator: Bool {
        if blocks.isEmpty || kind == "divider" { return true }
        guard blocks.count == 1, let paragraph = blocks[0].paragraph else { return false }
        return blocks[0].decorations.isEmpty && blocks[0].backgrounds.isEmpty && !hasFlowBackground && blocks[0].marker == nil
            && paragraph.lines.allSatisfy(\.showsNothing)
    }

    /// The last of a paragraph's first lines that pagination leaves at a page's bottom, at
    /// the least: its second when its first two fit on a page, so that no paragraph's first
    /// line stands alone at a page's foot (an orphan: CSS's `orphans: 2`; "This" ended a page,
    /// the paragraph going on over four more), and a paragraph of two lines goes on to the
    /// next page whole rather than leave its last line alone there; all three of three, which
    /// the widow rule would otherwise cut 1 + 2; else its first. Lines of text, that is: the
    /// empty lines of a `<br/>` before them come with them, and those between them and after
    /// them count for nothing (`Unit.pieces`). Nil for no lines.
    static func widowFreeStart(_ paragraph: ParagraphLayout, contentHeight: Double) -> Int? {
        guard !paragraph.lines.isEmpty else { return nil }
        let lines = paragraph.lines
        let text = lines.indices.filter { !lines[$0].showsNothing }
        guard !text.isEmpty else {
            return lines.count >= 2 && lines[0].height + lines[1].height <= contentHeight + 0.001 ? 1 : 0
        }
        func height(through k: Int) -> Double { lines[...k].reduce(0) { $0 + $1.height } }
        if text.count == 3, height(through: lines.count - 1) <= contentHeight + 0.001 { return text[2] }
        return text.count >= 2 && height(through: text[1]) <= contentHeight + 0.001 ? text[1] : text[0]
    }

    /// Whether one of the unit's blocks is not cut between lines and is taller than a page: it
    /// stands at the top of one, cut off, and its row starts there too.
    func standsAtATop(contentHeight: Double) -> Bool {
        blocks.contains { !$0.cutsBetweenLines(contentHeight: contentHeight) && $0.bottom - $0.top > contentHeight + 0.001 }
    }

    /// How far down from the unit's top its start reaches: in each column (a row's), the first
    /// lines of its first block that a page may end after (`widowFreeStart`: both of two), or
    /// all of that block when it is not cut between lines. Pagination starts a unit on a page
    /// only if that much fits there: a row's columns that did not all begin on a page began on
    /// the next each at its own first line, and lost their shared baseline; and a column of
    /// two lines was cut one and one.
    ///
    /// A column's start is its first block and the blocks beside it (a row in the column, set
    /// at the first block's first line): counted by the first alone, a row in a row began on a
    /// page where only one of its columns' first lines fit, the others went to the next page,
    /// off their shared baseline, and a label of two lines was cut one and one. A column that
    /// begins with a heading begins with the block after it too, as the flow keeps a heading
    /// with its section (the paragraph under it, on the next page, left it alone at the foot).
    func startHeight(contentHeight: Double) -> Double {
        var firsts: [Int: PlacedBlock] = [:]
        for block in blocks where firsts[block.column].map({ block.top < $0.top }) ?? true { firsts[block.column] = block }
        // Where a block's start ends: its first lines that a page may end after, or all of it.
        func startBottom(_ block: PlacedBlock) -> Double {
            guard block.cutsBetweenLines(contentHeight: contentHeight), let paragraph = block.paragraph,
                let line = Unit.widowFreeStart(paragraph, contentHeight: contentHeight)
            else { return block.bottom }
            return block.lineBottom(line)
        }
        // The block after a column's first heading (its top), when the two fit on a page: else
        // the heading keeps nothing, as in the flow (the row waited for a page that never came).
        var afterHeadings: [Int: (top: Double, bottom: Double)] = [:]
        for block in blocks {
            guard let first = firsts[block.column], first.isHeading,
                block.top >= first.bottom - 0.001, afterHeadings[block.column].map({ block.top < $0.top }) ?? true
            else { continue }
            afterHeadings[block.column] = (block.top, startBottom(block))
        }
        for (column, after) in afterHeadings where after.bottom - (firsts[column]?.top ?? top) > contentHeight + 0.001 {
            afterHeadings[column] = nil
        }
        let starting = blocks.filter { block in
            guard let first = firsts[block.column] else { return false }
            let firstLine = first.paragraph?.lines.first.flatMap { line in first.lineOrigins.first.map { $0.top + line.height } }
                ?? first.bottom
            return block.top < firstLine - 0.001 || block.top == first.top || block.top == afterHeadings[block.column]?.top
        }
        return (starting.map(startBottom).max() ?? bottom) - top
    }

    /// Whether a page where it begins takes only its start (`startHeight`), the rest going on
    /// at the next: a paragraph that may split, or a row taller than a page; else it goes whole,
    /// or stands alone at a page's top (`standsAtATop`).
    func goesOnFromItsStart(contentHeight: Double) -> Bool {
        splittableParagraph(contentHeight: contentHeight) != nil
            || bottom - top > contentHeight + 0.001 && !standsAtATop(contentHeight: contentHeight)
    }

    /// The lines of the unit's one text block (`blocks[0]`), when pagination may split it
    /// between them on pages whose content area is `contentHeight` tall.
    func splittableParagraph(contentHeight: Double) -> ParagraphLayout? {
        guard blocks.count == 1, let paragraph = blocks[0].paragraph else { return nil }
        switch blocks[0].breaks {
        case .never: return nil
        case .ifTallerThanPage: return bottom - top > contentHeight + 0.001 ? paragraph : nil
        case .anyLine: return paragraph
        }
    }
}

struct BlockLayouter {
    let document: Document
    let options: LayoutOptions
    let paragraphs: ParagraphLayouter

    var diagnostics = Diagnostics()
    /// The characters drawn as boxes so far, and where their warnings are in `diagnostics`.
    private var missingCharacters = MissingCharacterWarnings()
    /// Finds characters in the document's source, for warnings; made when one needs it.
    private var sourceLocator: MarkupSource.Locator?
    var units: [Unit] = []
    /// The backgrounds of the flow's lists and stacks, in the order they end (inner ones first).
    var flowBackgrounds: [FlowBackground] = []
    /// The containers with a background of their own so far, in the flow's units' blocks.
    private var containerCount = 0
    private var cursor = 0.0
    private var nextStructureKey = 0
    private var title: String?
    private var firstHeading: String?
    /// A title with text has come (a blank one is left out of the PDF's structure and title).
    private var hasTitleText = false
    /// A lower bound of the content height the units so far put on pages: each page holds at
    /// most its content height of it (see `countTowardPageLimit`).
    private var pagedHeight = 0.0
    /// True once the units laid out are sure to exceed a page limit: the rest is not laid out
    /// (pagination reports the limit at the same element either way), so that a huge input
    /// fails fast and in bounded memory.
    private var pastPageLimit = false
    /// Whether content was left out for it: a growing page's height is then only a lower bound.
    private(set) var stoppedAtPageLimit = false
    /// The lines the document may still set (`maximumLineCount`); below 0, layout has stopped
    /// with an error (and `pastPageLimit` stops the flow).
    private var linesLeft = BlockLayouter.maximumLineCount
    /// Whether the document has said that the catalog has no strings in its language.
    private var reportedNoStrings = false
    /// Whether any element has a `key`: one a document without any ignores `--locale` in.
    private var hasKeys = false
    /// Whether the document has said that its keys cannot be looked up (`unreadableCatalog`).
    private var reportedUnreadableCatalog = false
    /// Keys whose broken catalog entry has been reported: once per document.
    private var reportedProblems: Set<String> = []
    /// The catalog's key each key it lacks was likely meant to be (`LocalizedStrings.nearestKey`),
    /// looked for once a key and for `nearestKeysSought` keys a document at most: each looks
    /// through every key of the catalog.
    private var nearestKeys: [String: String?] = [:]
    private static let nearestKeysSought = 20

    private mutating func nearestKey(to key: String, in strings: LocalizedStrings) -> String? {
        if let known = nearestKeys[key] { return known }
        guard nearestKeys.count < Self.nearestKeysSought else { return nil }
        let found = strings.nearestKey(to: key)
        nearestKeys[key] = .some(found)
        return found
    }
    /// The UTF-8 bytes of the catalog strings shown so far (`maximumCatalogBytes`).
    private var catalogBytesShown = 0
    /// The most catalog text a document may show, as much as the largest markup holds: each
    /// `key` shows its string again, and 512 references of 9 KB to a 100 KB string took 4.5 GB
    /// and 14 s, past the input limit that bounds a document's memory.
    static let maximumCatalogBytes = MarkupParser.maximumInputBytes

    // Document-wide settings (SPEC §2 defaults).
    private let language: String
    /// The catalog's strings in the locale's language, else the document's (SPEC 5.2).
    private let strings: LocalizedStrings?
    private let bodySize: Double
    /// The document's `font-size`, and the Dynamic Type size's body size (`--text-size`).
    private let documentSize: Double
    private let textSize: Double
    /// How the body grows at `textSize` against Large. The elements' own sizes follow iOS's text
    /// styles (`defaultSize`), and sizes in the markup and the RTL balance grow as their
    /// element's style does (`TextRole.scale`).
    private let sizeScale: Double
    private let lineHeight: Double
    /// The document's `numerals`; without one, digits show as written (SPEC 4.5).
    private let numerals: NumeralSetting?
    private let balance: Double
    private let families: [String]
    let color: Color
    let margin: Double

    /// Space between consecutive blocks.
    static let blockSpacing: Double = 8
    /// Button padding around its text (the rectangle is at least 44 × 44 pt).
    static let buttonPaddingX: Double = 8
    static let buttonPaddingY: Double = 8
    /// The least room between a button's edges and the ink of its text, which may reach into
    /// its padding (the marks over vocalized Arabic, the dots under it at large text sizes).
    static let buttonInkClearance: Double = 2
    static let buttonRadius: Double = 10
    static let buttonFill = Color(red: 0, green: 122 / 255, blue: 1)
    static let dividerColor = Color(red: 198 / 255, green: 198 / 255, blue: 200 / 255)
    /// Gap between a list's widest marker and its items' text, at body size (at the Large
    /// text size: the other sizes scale it).
    static let markerGap: Double = 9
    /// Indent of nested lists on the start side, at least.
    static let bulletIndent: Double = 20

    init(document: Document, options: LayoutOptions, paragraphs: ParagraphLayouter) {
        self.document = document
        self.options = options
        self.paragraphs = paragraphs
        language = Language.refined(document.lang, by: options.locale) ?? Document.defaultLanguage
        // A document for an iPhone or iPad shows its catalog's variations for that device.
        let device = document.device.flatMap { preset in
            StringCatalog.deviceNames.first { preset.rawValue.hasPrefix($0) }
        }
        strings = options.catalog?.strings(locale: options.locale ?? language, device: device)
        documentSize = document.fontSize ?? Document.defaultFontSize
        textSize = options.bodySize ?? Document.defaultFontSize
        sizeScale = textSize / Document.defaultFontSize
        bodySize = documentSize * sizeScale
        lineHeight = document.lineHeight ?? Document.defaultLineHeight
        numerals = document.numerals
        // Digits of its own that typeset does not show: 0-9, said (N'Ko's showed 0-9 unsaid).
        if numerals == .auto, let digits = Language.unshownDefaultDigits(locale: language) {
            diagnostics.report(.warning(
                document.location,
                "numerals=\"auto\" shows 0-9 in '\(language)': its own digits ('\(digits)') are not among those typeset shows",
                hint: "typeset shows \(NumberingSystem.namesShown)"))
        }
        balance = document.rtlBalance ?? Document.defaultRTLBalance
        // The families found, each once: one not found sets nothing, nor does one named again
        // (in any case), and every run's fonts are looked up through the list (a `font` of
        // 10,000 unknown families took 34 s, a warning each that quoted the whole list).
        let named = document.fontFamilies ?? []
        var seen = Set<String>()
        var missing: [String] = []
        families = named.filter { family in
            guard seen.insert(FontDatabase.familyKey(family)).inserted else { return false }
            if paragraphs.fonts.hasFamily(family) { return true }
            missing.append(family)
            return false
        }
        if !missing.isEmpty {
            diagnostics.report(.warning(
                document.fontLocation ?? document.location,
                Self.missingFamiliesMessage(missing, named: named)))
        }
        // A variable font's weights are not set (its default instance is): said, or its bold
        // titles and buttons came out regular without a word.
        for family in families {
            guard let weights = paragraphs.fonts.variableWeights(of: family) else { continue }
            diagnostics.report(.warning(
                document.fontLocation ?? document.location,
                "font family '\(family)' is a variable font (weights \(weights.least) to \(weights.most)); typeset sets "
                    + "it at its default weight, \(weights.default), whatever weight its text asks for",
                hint: "give its static fonts of the other weights with --font-dir"))
        }
        color = document.color ?? Document.defaultColor
        margin = document.margin ?? Document.defaultMargin
    }

    mutating func run() -> LayoutResult {
        let rtl: Bool
        switch document.dir ?? Document.defaultDirection {
        case .ltr: rtl = false
        case .rtl: rtl = true
        case .auto: rtl = Language.isRightToLeft(language: language)
        }
        let context = BlockContext(
            rightToLeft: rtl, language: language, languageIsDeclared: document.lang != nil || options.locale != nil,
            languageIsLocale: document.lang == nil && options.locale != nil,
            x: margin, width: document.pageWidth - 2 * margin)
        for block in document.blocks { layoutFlow(block, context) }
        // A page with nothing on it is said to be blank (`<document/>` rendered one, unsaid).
        if document.blocks.isEmpty {
            diagnostics.report(.warning(
                document.location, "the document has no blocks: its page is blank",
                hint: "put a title, p, label, button, list or other block inside <document>"))
        }
        // A document in a language of its own and without keys is the same in every locale:
        // a sheet's columns captioned "en" and "ar" showed the same Hebrew, unsaid.
        if let locale = options.locale, let pinned = document.lang, !hasKeys, !Language.sameLanguageAndScript(locale, pinned) {
            diagnostics.report(.warning(
                document.location,
                "the document's lang=\"\(pinned)\" is kept, and no element has a key: locale '\(locale)' changes nothing in it",
                hint: "leave lang out for --locale to set it, or give the text keys of a string catalog"))
        }
        // With keys, the locale's strings are shown in the pinned language's interface: an
        // English mockup (`lang="en"`) rendered for Arabic was not mirrored, unsaid.
        if let locale = options.locale, let pinned = document.lang, hasKeys, document.dir == nil,
            Language.isRightToLeft(language: locale) != Language.isRightToLeft(language: pinned)
        {
            let direction = Language.isRightToLeft(language: pinned) ? "right-to-left" : "left-to-right"
            diagnostics.report(.warning(
                document.location,
                "the document's lang=\"\(pinned)\" is kept: locale '\(locale)''s strings are laid out in its \(direction) interface",
                hint: "leave lang out for --locale to set it"))
        }
        missingCharacters.finish(in: &diagnostics)
        let (pages, reportPages, pageDiagnostics) = linesLeft < 0 ? ([], [], []) : paginate()
        for diagnostic in pageDiagnostics { diagnostics.report(diagnostic) }
        let report = LayoutReport(diagnostics: diagnostics.items, pages: reportPages)
        let documentTitle = [title, firstHeading].lazy.compactMap { $0 }.first { BlockLayouter.hasText($0.unicodeScalars) }
        return LayoutResult(
            pages: pages, report: report, diagnostics: diagnostics, title: documentTitle, language: language,
            bodySize: bodySize)
    }

    /// The language of a catalog's text, `text`, shown in a block of `language`: the catalog's
    /// when it is another language (a screen reader read the English fallback of a Hebrew
    /// mockup with a Hebrew voice, and the Hebrew strings of a document pinned to English with
    /// an English one), else the block's (`ar-EG` for the catalog's `ar`). But the block's when
    /// the text's letters are all of the block language's direction and none of the catalog's,
    /// which they belie: a file of strings that names no language, taken for `--locale ar`'s,
    /// tagged the English "Version 3.1 of 2024" of a `lang="en"` label Arabic and showed
    /// "Version ٣٫١ of ٢٠٢٤"; an untranslated "עברית" of a language picker, in a label of
    /// `lang="he"`, was the source language's English; a brand kept in English in an `ar`
    /// entry was Arabic.
    /// Every letter counts, in isolates too (the question is which letters the text is in, not
    /// how they are ordered: an Arabic string isolated in an English one was English); and
    /// right-to-left letters must be of the block language's script (Hebrew in a label of
    /// `lang="ar"` is no Arabic, and took its digits).
    private func textLanguage(_ shown: String?, in language: String, text: String) -> String {
        guard let shown, !Language.sameLanguageAndScript(shown, language) else { return language }
        let rightToLeft = Language.isRightToLeft(language: language)
        guard rightToLeft != Language.isRightToLeft(language: shown) else { return shown }
        let script = rightToLeft ? Language.rightToLeftScript(of: language) : nil  // nil: any of its direction
        var hasLetter = false
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            switch scalar.bidiClass {
            case .L: if rightToLeft { return shown }
            // (A letter of several scripts, Arabic's tatweel, is any of them.)
            case .R, .AL:
                guard rightToLeft else { return shown }
                if let script, scalar.script != script, scalar.script != .common, scalar.script != .inherited { return shown }
            default: continue
            }
            hasLetter = true
        }
        return hasLetter ? language : shown
    }

    /// A `lang` of the markup, refined by `--locale` where that is a finer form of it
    /// (`Language.refined`): an element's `lang="ar"` in a document of `lang="ar"` under
    /// `--locale ar-MA` is ar-MA's too, with its digits.
    private func markupLanguage(_ lang: String?) -> String? {
        lang.map { Language.refined($0, by: options.locale) ?? $0 }
    }

    /// The language of a keyed element's own text, `text`, shown where the catalog has none for
    /// its key: the catalog's source language, when the element's language is only the
    /// locale's (no `lang` in the markup says what its own text is in) and the text's letters
    /// are of that language's direction, all of them. An English fallback in a mockup under
    /// `--locale ar` was tagged Arabic and read "every night at ٢:٠٠"; but Arabic text of an
    /// Arabic mockup is no English (nor English text of an `ar.lproj` file's catalog Arabic).
    /// Without a catalog the own text is the markup's, in the markup's language: `--locale ar`
    /// without `--strings` showed an English mockup's "every night at ٢:٠٠" all the same.
    /// And where the two are written in different scripts, when some letter of it is of the
    /// source language's and none of the locale's alone: Marathi own text under `--locale mr`
    /// is no English ("रोज रात्री 2:00" lost its २:००), nor Hindi under `bn`; "5 μs" in English,
    /// or "Wi-Fi" in Russian, is that language's.
    private func ownTextLanguage(_ block: Block, _ context: BlockContext, text: String) -> String? {
        let source = strings.map { $0.sourceLanguage.map { Language.canonical(tag: $0) } } ?? Document.defaultLanguage
        guard block.key != nil, block.style.lang == nil, context.languageIsLocale, let source,
            !Language.sameLanguageAndScript(source, context.language)
        else { return nil }
        let scalars = Array(text.unicodeScalars)
        let words = Self.wordDirections(scalars)
        let rightToLeft = Language.isRightToLeft(language: source)
        let (own, other) = rightToLeft ? (words.rightToLeft, words.leftToRight) : (words.leftToRight, words.rightToLeft)
        guard own > 0 && other == 0 else { return nil }
        guard let writing = Language.writingScript(of: source), let locale = Language.writingScript(of: context.language),
            locale != writing
        else { return source }
        var ofSource = false
        for scalar in scalars where scalar.isAlphabetic && scalar.script.isExplicit {
            if Language.isLetter(of: scalar.script, in: writing) {
                ofSource = true
            } else if Language.isLetter(of: scalar.script, in: locale) {
                return nil
            }
        }
        return ofSource ? source : nil
    }

    /// Whether `scalars` hold more than white space and characters that show nothing (a
    /// zero-width space, a bidi mark or isolate, a soft hyphen).
    static func hasText<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> Bool {
        scalars.contains { !$0.isWhiteSpace && !$0.isDefaultIgnorable }
    }

    // MARK: - The flow

    /// Lays out a block of the vertical flow: stacks and lists open into their children, so
    /// that pages can break between them.
    private mutating func layoutFlow(_ block: Block, _ context: BlockContext) {
        guard !pastPageLimit else {
            stoppedAtPageLimit = true
            return
        }
        switch block.kind {
        case .stack(let children):
            let inner = containerContext(block, context)
            let start = units.count
            for child in children { layoutFlow(child, inner) }
            addBackground(block, context, units: start)
        case .list(let list):
            layoutList(block, list, context)
        default:
            let top = nextTop()
            var blocks: [PlacedBlock] = []
            let bottom = layoutBlock(block, context, top: top, into: &blocks)
            // A row of nothing (`<row/>`, or of empty stacks) takes no room, as an empty stack
            // or list takes none: it took the gap between blocks.
            if case .row = block.kind, blocks.isEmpty, bottom == top { return }
            appendUnit(blocks, top: top, bottom: bottom, block: block)
        }
    }

    private mutating func nextTop() -> Double {
        units.isEmpty ? 0 : cursor + BlockLayouter.blockSpacing
    }

    private mutating func appendUnit(_ blocks: [PlacedBlock], top: Double, bottom: Double, block: Block) {
        var unit = Unit(blocks: blocks, top: top, bottom: bottom, location: block.location, kind: block.elementName)
        if case .row(let children) = block.kind {
            let header = ["title", "heading", "label", "button", "caption", "image", "divider", "spacer"]
            unit.keepsWithNext = children.contains { $0.elementName == "title" || $0.elementName == "heading" }
                && children.allSatisfy { header.contains($0.elementName) }
        } else {
            unit.keepsWithNext = unit.isHeading
        }
        units.append(unit)
        cursor = bottom
        countTowardPageLimit(units[units.count - 1])
    }

    /// Pagination puts at most a page's content height of units on each page, counting a unit
    /// (or a line of a paragraph that may split) taller than that as that height, since it
    /// stands alone, and as nothing what may be left out at a page break: a separator (a
    /// spacer, a divider, a paragraph of empty lines alone: `Unit.isSeparator`) and a split
    /// paragraph's empty lines. So the sum of those heights over the content height is a lower
    /// bound of the page count; past the limit, layout stops. (Counted, 13,000 empty `<p/>`
    /// on a small page passed it and stopped the layout, while pagination left them out at
    /// the breaks and set one page: the rest of the document was lost, unsaid.) A page without
    /// `height` grows: past its limit, likewise.
    private mutating func countTowardPageLimit(_ unit: Unit) {
        guard let pageHeight = document.pageHeight else {
            pastPageLimit = 2 * margin + cursor > BlockLayouter.maximumGrowingPageHeight
            return
        }
        guard !unit.isSeparator else { return }
        let content = pageHeight - 2 * margin
        if let paragraph = unit.splittableParagraph(contentHeight: content) {
            pagedHeight += paragraph.lines.reduce(0) { $0 + ($1.showsNothing ? 0 : min($1.height, content)) }
        } else {
            pagedHeight += min(unit.bottom - unit.top, content)
        }
        pastPageLimit = pagedHeight > Double(BlockLayouter.maximumPageCount + 1) * content * 1.001
    }

    /// Says once, at `block`, that its text or marker would set more lines than a document may
    /// (`maximumLineCount`), and stops the layout.
    private mutating func stopAtLineLimit(_ block: Block, _ what: String) {
        guard linesLeft >= 0 else { return }
        diagnostics.report(.error(
            block.location,
            "this <\(block.elementName)>'s \(what) would take the document past \(BlockLayouter.grouped(BlockLayouter.maximumLineCount)) lines",
            hint: what == "marker"
                ? "split the document into several files, or its lists into fewer items"
                : "split the document into several files, or make the text shorter or its box wider: "
                    + "in a box narrower than a letter, every letter takes a line"))
        linesLeft = -1
        pastPageLimit = true
    }

    /// The context a list, row or stack gives its children: its `dir` and `lang`, and the text
    /// style its children inherit.
    private func containerContext(_ block: Block, _ context: BlockContext) -> BlockContext {
        var inner = context
        inner.rowHasAllCaps = false  // a row sets it again for its own children
        if let lang = markupLanguage(block.style.lang) {
            inner.language = lang
            inner.languageIsDeclared = true
            inner.languageIsLocale = false
        }
        let own = block.style
        inner.inherited = BlockStyle(
            align: own.align ?? context.inherited.align, size: own.size ?? context.inherited.size,
            weight: own.weight ?? context.inherited.weight, lineHeight: own.lineHeight ?? context.inherited.lineHeight,
            color: own.color ?? context.inherited.color)
        // 4.2: a list's items take its start side, whatever `align` the stacks and rows around
        // it have; only an `align` on the list, on a list it is nested in, or on the item itself
        // says otherwise.
        if case .list = block.kind {
            if !context.inList { inner.inherited.align = own.align }
            inner.inList = true
            inner.listDepth += 1
        } else {
            inner.inList = false
        }
        switch block.style.dir {
        case .ltr?: inner.rightToLeft = false
        case .rtl?: inner.rightToLeft = true
        case .auto?: inner.rightToLeft = block.style.lang.flatMap { Language.declaredRightToLeft(language: $0) } ?? context.rightToLeft
        case nil: break
        }
        return inner
    }

    /// Lays out any block at `top`; returns its bottom. Rows place their children side by side.
    private mutating func layoutBlock(
        _ block: Block, _ context: BlockContext, top: Double, into placed: inout [PlacedBlock]
    ) -> Double {
        switch block.kind {
        case .text(let role, let inlines):
            return layoutText(block, role, inlines, context, top: top, into: &placed)
        case .row(let children):
            return layoutRow(block, children, context, top: top, into: &placed)
        case .stack(let children):
            let inner = containerContext(block, context)
            let first = placed.count
            var y = top
            for (i, child) in children.enumerated() {
                y = layoutBlock(child, inner, top: i == 0 ? y : y + BlockLayouter.blockSpacing, into: &placed)
            }
            return addBackground(block, context, top: top, bottom: y, to: &placed, from: first)
        case .list(let list):
            return layoutListItems(block, list, context, top: top, into: &placed)
        case .image(let image):
            return layoutImage(block, image, context, top: top, into: &placed)
        case .divider:
            var entry = leaf(block, context, frame: ReportRect(x: context.x, y: top, width: context.width, height: 1))
            entry.decorations = [.rule(RuleItem(x1: context.x, y1: top + 0.5, x2: context.x + context.width, y2: top + 0.5,
                                                thickness: 1, color: style(of: block, context).color ?? BlockLayouter.dividerColor))]
            placed.append(entry)
            return top + 1
        case .spacer(let height):
            return top + (height ?? Block.defaultSpacerHeight)
        }
    }

    /// What a block too narrow for its text or its tap target can do: only what narrows it.
    private static func narrowHint(_ context: BlockContext, first: String?) -> String {
        var ways = first.map { [$0] } ?? []
        if context.rowDepth > 0 { ways.append("give its row fewer children") }
        if context.listDepth > 1 { ways.append("nest its list less deeply") }
        ways.append("make the page wider")
        return ways.count == 1 ? ways[0] : ways.dropLast().joined(separator: ", ") + ", or " + ways[ways.count - 1]
    }

    /// "W pt wide, under the 44 pt that a tap target needs (Apple HIG)", W rounded down.
    private static func underTapTarget(_ width: Double) -> String {
        "\(format((width * 10).rounded(.down) / 10)) pt wide, under the \(format(Block.minimumButtonSize)) pt "
            + "that a tap target needs (Apple HIG)"
    }

    /// The direction a block's `dir` (ltr, rtl), else its `lang`, declares (SPEC §4); nil for
    /// none, or for `dir="auto"`, which asks the text.
    private func declaredRightToLeft(_ style: BlockStyle) -> Bool? {
        switch style.dir {
        case .ltr?: false
        case .rtl?: true
        case .auto?: nil
        case nil: style.lang.flatMap { Language.declaredRightToLeft(language: $0) }
        }
    }

    /// The first `<b>`, `<i>`, `<span>`, `<ltr>`, `<rtl>` or `<bdi>` among `inlines`: its name and where it is.
    private static func firstInlineElement(_ inlines: [Inline]) -> (name: String, location: SourceLocation)? {
        for inline in inlines {
            switch inline.kind {
            case .span(let element, _, _): return (element.rawValue, inline.location)
            case .isolate(let kind, _): return (kind.rawValue, inline.location)
            case .text, .lineBreak: continue
            }
        }
        return nil
    }

    /// Of the words of `scalars` outside isolates (cut at white space) that have letters, how
    /// many begin in right-to-left ones (R, AL), how many have left-to-right ones (L), and how
    /// many there are (a word of both that begins in right-to-left letters counts in each); and
    /// whether it reads as a product's name before right-to-left text: it ends in a
    /// right-to-left word, its left-to-right words all have a capital and one a digit or a
    /// capital after a small letter or two capitals ("Ultra 2", "iPhone", "macOS", "USB"), or
    /// none is a function word ("Apple Pay Later", not "Signed In As": `functionWords`), and
    /// no colon or comma stands between them and the right-to-left text (a key and its value, a
    /// list). `unquoted`: the right-to-left words and all words outside quotation marks
    /// (`quotations`), when every right-to-left word is inside them, two words or more are
    /// outside and no colon stands right before the first ('Translate "شكرا جزيلا" to English' is
    /// English that quotes Arabic; 'Device Name: "האייפון של דני"' is a key and its Hebrew
    /// value); else all of them. `linked`: an English function word typed in small letters
    /// stands right before or after a right-to-left word ("then" in "Open الإعدادات then
    /// الخصوصية"; not "of" in "Call of Duty זמין").
    private static func wordDirections(_ scalars: [Unicode.Scalar])
        -> (rightToLeft: Int, leftToRight: Int, all: Int, nameFirst: Bool, linked: Bool,
            unquoted: (rightToLeft: Int, all: Int))
    {
        var rightToLeft = 0, leftToRight = 0, all = 0
        var unquoted = (rightToLeft: 0, all: 0)
        let quotations = Self.quotations(scalars)
        var nextQuotation = 0  // the first of `quotations` not ended before the scalar looked at
        var wordQuoted = false  // a letter of the word was
        var endsRightToLeft = false
        var capitalised = true  // every left-to-right word has a capital
        var productLike = false  // one has a digit, "iPhone"'s or "USB"'s capitals
        var phrased = false  // one is an English function word ("In", "As", "To")
        var letters = ""  // the word's left-to-right letters, while it has no others
        var listed = false  // a colon or a comma
        var word = (rightToLeft: false, leftToRight: false, capitals: 0, digit: false, camel: false)
        var previousLower = false
        var linked = false
        var previous: (rightToLeft: Bool, linking: Bool) = (false, false)  // the word before
        func endWord() {
            if word.rightToLeft { rightToLeft += 1 }
            if word.leftToRight { leftToRight += 1 }
            if word.rightToLeft || word.leftToRight {
                all += 1
                if !wordQuoted {
                    unquoted.all += 1
                    if word.rightToLeft { unquoted.rightToLeft += 1 }
                }
                endsRightToLeft = word.rightToLeft && !word.leftToRight
                var linking = false
                if word.leftToRight && !word.rightToLeft {
                    if word.capitals == 0 { capitalised = false }
                    if word.digit || word.camel || word.capitals >= 2 { productLike = true }
                    if Self.functionWords.contains(letters.lowercased()) {
                        phrased = true
                        linking = word.capitals == 0
                    }
                }
                let rightToLeftWord = word.rightToLeft && !word.leftToRight
                if linking && previous.rightToLeft || rightToLeftWord && previous.linking { linked = true }
                previous = (rightToLeftWord, linking)
            } else if word.digit {
                productLike = true  // a model number of its own ("Ultra 2")
            }
            word = (false, false, 0, false, false)
            letters = ""
            previousLower = false
            wordQuoted = false
        }
        var isolates = 0
        for (at, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x2066...0x2068: isolates += 1
            case 0x2069: isolates = max(0, isolates - 1)
            default:
                guard isolates == 0 else { continue }
                // (Before the right-to-left text: "Apple Watch Ultra 2 מחובר, 80%" is its name first.)
                if scalar == ":" || scalar == "," || scalar == "\u{060C}", rightToLeft == 0, !word.rightToLeft {
                    listed = true
                }
                while nextQuotation < quotations.count, quotations[nextQuotation].upperBound <= at { nextQuotation += 1 }
                let quoted = nextQuotation < quotations.count && quotations[nextQuotation].contains(at)
                switch scalar.bidiClass {
                case .R, .AL:
                    // A word that begins in Latin letters is not one of right-to-left letters for
                    // the share: a URL, a file's or an address's name with a Hebrew part in it
                    // ("https://he.wikipedia.org/wiki/ירושלים", "Invoice_חשבונית.pdf") was set
                    // right to left, its parts reordered; "ו-App" begins in Hebrew.
                    if !word.leftToRight { word.rightToLeft = true }
                    wordQuoted = wordQuoted || quoted
                case .L:
                    word.leftToRight = true
                    if letters.utf8.count < 8 { letters.unicodeScalars.append(scalar) }
                    wordQuoted = wordQuoted || quoted
                    let category = scalar.generalCategory
                    if category == .Lu || category == .Lt {
                        word.capitals += 1
                        word.camel = word.camel || previousLower
                    }
                    previousLower = category == .Ll
                case .EN, .AN: word.digit = true
                case .WS, .B, .S: endWord()
                default: break
                }
            }
        }
        endWord()
        let nameFirst = endsRightToLeft && capitalised && (productLike || !phrased) && !listed && leftToRight <= 4
        // (Not a key and its quoted value, the colon the last letter, digit or colon before the
        // quotation: "Device Name: "האייפון של דני"", also past an RLM, a bracket or an emoji;
        // but a colon in "10:30" or after "Tip" elsewhere.)
        let keyed = quotations.first.map { first in
            scalars[..<(first.lowerBound - 1)].last { $0 == ":" || $0 == "\u{FF1A}" || $0.properties.isAlphabetic || NumberingSystem.isDigit($0) }
                .map { $0 == ":" || $0 == "\u{FF1A}" } ?? false
        } ?? false
        let quotesAll = unquoted.rightToLeft == 0 && rightToLeft > 0 && unquoted.all >= 2 && !keyed
        return (rightToLeft, leftToRight, all, nameFirst, linked, quotesAll ? unquoted : (rightToLeft, all))
    }

    /// Words that make capitalized English a phrase rather than a name ("Signed In As",
    /// "Welcome Back To The App"; "Apple Pay Later" has none).
    private static let functionWords: Set<String> = [
        "a", "about", "after", "all", "an", "and", "any", "are", "as", "at", "back", "be", "been", "before", "but",
        "by", "each", "for", "from", "has", "have", "her", "here", "his", "if", "in", "into", "is", "it", "its",
        "me", "more", "my", "no", "not", "now", "of", "off", "on", "or", "our", "out", "over", "per", "please",
        "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
        "up", "us", "via", "was", "we", "were", "will", "with", "yes", "you", "your",
    ]

    /// The stretches of `scalars` inside quotation marks, outermost, when the marks outside
    /// isolates open and close in order (nested "…«…»…" too: paired in the order they came,
    /// "«" closed the first '"'); none when one is left open (a stray '"' took the rest of a
    /// Hebrew sentence for a quotation). '"' and "״" (gershayim) open and close, "«" and "»"
    /// close each other (»…« in Danish) and "»" itself (Finnish »…»), as "‹" and "›" do, "“"
    /// closes "„" (German) and otherwise opens, "”" closes "“", "„" (Hebrew, Polish: „…”) or "”"
    /// (Swedish: ”…”); "‘" closes "‚" and otherwise opens, "’" closes "‘" or "‚" and is otherwise
    /// an apostrophe, "'" opens at a word's start and closes an open "'". A mark between two
    /// letters of one script is none (a gershayim, צה"ל, צה״ל, ש”ח, "don't"), nor is '"' or "'"
    /// after a digit unless it closes one (an inch or a foot, 27"; but "תמונה 1").
    static func quotations(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var open: [(mark: UInt32, at: Int)] = []
        var stretches: [Range<Int>] = []
        var isolates = 0
        for (at, scalar) in scalars.enumerated() {
            let mark = scalar.value
            switch mark {
            case 0x2066...0x2068: isolates += 1
            case 0x2069: isolates = max(0, isolates - 1)
            case 0x22, 0x27, 0xAB, 0xBB, 0x5F4, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E, 0x2039, 0x203A:
                guard isolates == 0 else { continue }
                if at > 0, at + 1 < scalars.count, scalars[at - 1].properties.isAlphabetic,
                    scalars[at + 1].properties.isAlphabetic, scalars[at - 1].script == scalars[at + 1].script
                {
                    continue
                }
                let top = open.last?.mark
                // ('"' after a digit closes an open '"', "תמונה 1"; else it is an inch's sign, as
                // "'" is a foot's.)
                if mark == 0x22 || mark == 0x27, top != mark, at > 0, NumberingSystem.isDigit(scalars[at - 1]) {
                    continue
                }
                let closes =
                    switch mark {
                    case 0x22, 0x27, 0x5F4: top == mark
                    case 0xAB: top == 0xBB
                    case 0xBB: top == 0xAB || top == 0xBB
                    case 0x2039: top == 0x203A
                    case 0x203A: top == 0x2039 || top == 0x203A
                    case 0x2018: top == 0x201A
                    case 0x2019: top == 0x2018 || top == 0x201A
                    case 0x201C: top == 0x201E
                    case 0x201D: top == 0x201C || top == 0x201D || top == 0x201E
                    default: false
                    }
                // An apostrophe closes only a quotation it may end: "’" that closes none is one
                // ("the users’ files"), and "'" opens one only at a word's start.
                if !closes, mark == 0x2019 || mark == 0x27 && !((at == 0 || scalars[at - 1].bidiClass == .WS)
                    && at + 1 < scalars.count && scalars[at + 1].bidiClass != .WS)
                {
                    continue
                }
                if closes, let opening = open.popLast() {
                    if open.isEmpty { stretches.append(opening.at + 1..<at) }
                } else {
                    open.append((mark, at))
                }
            default: break
            }
        }
        return open.isEmpty ? stretches : []
    }

    /// An image, divider or the like. Its own direction (SPEC §4) is the one it declares, else
    /// the context's: it has no text to take one from.
    private func leaf(_ block: Block, _ context: BlockContext, frame: ReportRect) -> PlacedBlock {
        let ownRTL = declaredRightToLeft(block.style) ?? context.rightToLeft
        let report = ReportBlock(
            kind: block.elementName, line: block.location.line, lang: markupLanguage(block.style.lang) ?? context.language,
            direction: ownRTL ? "rtl" : "ltr", context: context.rightToLeft ? "rtl" : "ltr",
            align: context.rightToLeft ? "right" : "left",
            frame: frame, marker: nil, lines: [])
        return PlacedBlock(report: report, top: frame.y, bottom: frame.y + frame.height, breaks: .never)
    }

    // MARK: - Rows (SPEC 4.6)

    private mutating func layoutRow(
        _ block: Block, _ children: [Block], _ context: BlockContext, top: Double, into placed: inout [PlacedBlock]
    ) -> Double {
        guard !children.isEmpty else { return top }
        var inner = containerContext(block, context)
        inner.rowDepth += 1
        let count = Double(children.count)
        let gaps = BlockLayouter.rowSpacing(children.count)
        let column = (context.width - gaps) / count
        guard column > 0 else {
            // The gaps alone are as wide as the row: the children would overlap off the page.
            let has = format((context.width * 10).rounded(.down) / 10)
            let gap = "the \(format(Block.rowSpacing)) pt gap\(children.count == 2 ? "" : "s") between them"
            diagnostics.report(.error(
                block.location,
                "a 'row' of \(children.count) children needs "
                    // (As wide as the gaps, it "needs 8 pt … and has 8 pt".)
                    + (context.width < gaps
                        ? "\(format(gaps)) pt for \(gap), and has \(has) pt"
                        : "more than \(format(gaps)) pt: \(gap) take\(children.count == 2 ? "s" : "") all of its \(has) pt"),
                hint: "put fewer children in the row, or some of them in a 'stack'"))
            return top
        }
        // 4.3: all-caps Latin in one title/heading/label/button balances its siblings.
        inner.rowHasAllCaps = children.contains { child in
            guard case .text(let role, let inlines) = child.kind, role.isBalanced else { return false }
            return HIGRules.hasAllCapsLatin(Array(textContent(child, inlines).unicodeScalars))
        }
        // One warning for a row of too many buttons, rather than one per button.
        let buttons = children.count { if case .text(.button, _) = $0.kind { true } else { false } }
        if buttons > 0 && column < Block.minimumButtonSize - 0.005 {
            diagnostics.report(.warning(
                block.location,
                "the \(buttons == 1 ? "button" : "\(buttons) buttons") of this row of \(children.count) "
                    + "\(buttons == 1 ? "is" : "are") \(BlockLayouter.underTapTarget(column))",
                hint: "give the row fewer children, or make the page wider"))
            inner.narrowButtonsReported = true
        }
        var bottom = top
        let rowStart = placed.count
        var buttonBlocks: [Int] = []  // where the row's buttons are in `placed`
        var imageBlocks: [Int] = []  // and its images and dividers
        var groups: [Range<Int>] = []  // and its other text blocks, stacks, rows and lists
        var groupEnds: [Double] = []  // and where each of those ends (past its blocks: a spacer, room for ink)
        var backed: [Int] = []  // and those of its children with a background of their own
        for (i, child) in children.enumerated() {
            // The first child stands at the start side of the row's direction.
            let offset = Double(i) * (column + Block.rowSpacing)
            inner.x = inner.rightToLeft ? context.x + context.width - offset - column : context.x + offset
            inner.width = column
            let first = placed.count
            let childBottom = layoutBlock(child, inner, top: top, into: &placed)
            bottom = max(bottom, childBottom)
            for j in first..<placed.count { placed[j].column = i }  // an outer row sets it again
            switch child.kind {
            case .image where placed.count == first + 1: imageBlocks.append(first)
            case .divider where placed.count == first + 1: imageBlocks.append(first)
            case .image, .divider, .spacer: break
            case .text(.button, _) where placed.count == first + 1: buttonBlocks.append(first)
            default:
                guard placed.count > first else { break }
                groups.append(first..<placed.count)
                groupEnds.append(childBottom)
                // (Not a band, nor bands alone: a card's room for the ink of its Arabic made a
                // 20 pt bar beside it 24.8 pt tall.)
                let bands = placed[first...].allSatisfy(\.isBand)
                if child.style.background != nil && !bands { backed.append(first) }
            }
        }
        // Buttons side by side are as tall as the tallest of them, as a stack view that fills
        // its row makes them: one that wraps to two lines no longer stands out below the others.
        if let tallest = buttonBlocks.map({ placed[$0].bottom }).max() {
            for i in buttonBlocks { placed[i].stretchButton(to: tallest) }
        }
        // Text side by side shares its first baseline, as a label beside its value or its
        // button does in iOS (a stack view aligned by first baseline): top-aligned, one of larger
        // type (a balanced one, 4.3) sat lower than its sibling, and a label 11 pt above the
        // title of the button beside it. The buttons move together, keeping one height. A
        // stack, row or list goes by its first block's first baseline, as a nested stack view
        // does, when that block is text, and moves whole. A band above it is passed over (a
        // 4 pt bar atop a card put its label 5 pt higher than the one beside it).
        let leads = groups.map { group in group.first { !placed[$0].isBand } ?? group.lowerBound }
        let lowestButton = buttonBlocks.compactMap { placed[$0].firstBaseline }.max()
        let lowestGroup = leads.compactMap { placed[$0].firstBaseline }.max()
        if let lowest = [lowestButton, lowestGroup].compactMap({ $0 }).max() {
            for (k, (group, end)) in zip(groups, groupEnds).enumerated() {
                guard let baseline = placed[leads[k]].firstBaseline, lowest - baseline > 0.001 else { continue }
                for i in group { placed[i].move(down: lowest - baseline) }
                bottom = max(bottom, end + lowest - baseline)
            }
            if let lowestButton, lowest - lowestButton > 0.001 {
                for i in buttonBlocks {
                    placed[i].move(down: lowest - lowestButton)
                    bottom = max(bottom, placed[i].bottom)
                }
            }
        }
        // An image beside text stands centered on the text's first line, where that lowers it,
        // as an icon beside its label does in a stack view (at the row's top, a 12 pt arrow
        // stood 5 pt above the middle of the label's line); so does a divider, the rules of a
        // "—— or ——" separator (they ran along the row's top, above the word). A taller one
        // too, where the line was moved down to a button's title: only those less tall than
        // the line were, and a 24 pt icon stood 11 pt above its label beside a 44 pt button
        // (a 22 pt one centered). One taller than its centered place stays at the row's top.
        let lines = (buttonBlocks + leads).compactMap { index -> (top: Double, height: Double)? in
            guard let line = placed[index].paragraph?.lines.first, let origin = placed[index].lineOrigins.first else { return nil }
            return (origin.top, line.height)
        }
        // (The tallest line, the highest of those: whichever child it is in, one place.)
        if let line = lines.max(by: { $0.height < $1.height || $0.height == $1.height && $0.top > $1.top }) {
            for i in imageBlocks {
                let down = line.top + line.height / 2 - (placed[i].top + placed[i].bottom) / 2
                guard down > 0.001 else { continue }
                placed[i].move(down: down)
                bottom = max(bottom, placed[i].bottom)
            }
        }
        PlacedBlock.evenInkRooms(of: backed, top: top, in: &placed)
        return addBackground(block, context, top: top, bottom: bottom, to: &placed, from: rowStart)
    }

    // MARK: - Backgrounds of lists, rows and stacks

    /// The room for ink over and under text `whole` tall (its first line `first`, its last
    /// `last`) that a page holds: what does not fit between its margins is given up, the room
    /// over it first (a badge on a page as tall as its line had its text pushed off the page).
    /// Text that may be split between pages (`splits`), or is taller than a page, keeps the
    /// room its first and last lines fit with (a paragraph a point less tall than the page,
    /// begun halfway down one and split, lost its room).
    private func fitting(
        _ room: (above: Double, below: Double), whole: Double, first: Double, last: Double, splits: Bool = false
    ) -> (above: Double, below: Double) {
        guard let pageHeight = document.pageHeight else { return room }
        let content = pageHeight - 2 * margin
        if whole + room.above + room.below <= content + 0.001 { return room }
        if splits || whole > content + 0.001 {
            return (min(room.above, max(0, content - first)), min(room.below, max(0, content - last)))
        }
        let below = min(room.below, content - whole)
        return (min(room.above, content - whole - below), below)
    }

    /// A list's, row's or stack's `background` (SPEC §2: a common block attribute), behind its
    /// children from its top to `bottom` and across its width: carried by the first of its
    /// blocks, `placed[first]`, and drawn first of all (before a nested container's, which was
    /// added first), with that block, or on each page of a unit cut between pages with the
    /// page's first part (`Unit.backgrounds`). It holds the ink of the blocks in it, which SPEC
    /// §2's line box does not (white Arabic on a dark card lost the dots under its last line):
    /// they move down by the ink over their first lines, and it reaches down to the ink under
    /// their last. Returns its bottom: `bottom`, or lower for that.
    private mutating func addBackground(
        _ block: Block, _ context: BlockContext, top: Double, bottom: Double, to placed: inout [PlacedBlock], from first: Int
    ) -> Double {
        guard let color = block.style.background, bottom > top else { return bottom }
        // Of spacers only, it is a band of its color (a placeholder, a bar): carried by a block
        // of its own, which pagination keeps (it drew nothing).
        if first == placed.count {
            let frame = ReportRect(x: context.x, y: top, width: context.width, height: bottom - top)
            placed.append(leaf(block, context, frame: frame))
        }
        // Room for the ink over its first lines and under its last, as much as a page holds:
        // its blocks move down by the first.
        var highest = top
        var lowest = bottom
        for i in first..<placed.count {
            let reach = placed[i].inkReach()
            (highest, lowest) = (min(highest, reach.top), max(lowest, reach.bottom))
        }
        let room = fitting((top - highest, lowest - bottom), whole: bottom - top, first: bottom - top, last: bottom - top)
        if room.above > 0 {
            for i in first..<placed.count { placed[i].move(down: room.above) }
        }
        let end = bottom + room.above + room.below
        let rectangle = RectangleItem(x: context.x, y: top, width: context.width, height: end - top, fill: color)
        containerCount += 1
        placed[first].addBackground(ContainerBackground(
            rectangle: rectangle, blocks: placed.count - first, inkRoomAbove: room.above, inkRoomBelow: room.below,
            container: containerCount))
        return end
    }

    /// The same for a list or stack of the flow, whose children are the units from `start`
    /// (pages break between them): kept once (`FlowBackground`), and drawn behind each unit
    /// and the gap after it as its page comes. (Added to each unit's first block here, 250
    /// stacks one inside the other, each of its own color, gave each of 80,000 paragraphs 250
    /// rectangles: 4.3 GB for 1 MB of markup.)
    private mutating func addBackground(_ block: Block, _ context: BlockContext, units start: Int) {
        guard let color = block.style.background, start < units.count else { return }
        // Room for the ink over the first lines of its first unit with blocks, where its
        // blocks begin (`FlowBackground`): that unit's blocks move down, and the units after it.
        let firstWithBlocks = units[start...].firstIndex(where: { !$0.blocks.isEmpty })
        if firstWithBlocks == nil, cursor > units[start].top {
            // Of spacers only: one block, as in a row (a page break left it out, and drew none).
            let top = units[start].top
            var band: [PlacedBlock] = []
            let bottom = addBackground(block, context, top: top, bottom: cursor, to: &band, from: 0)
            units.removeSubrange(start...)
            appendUnit(band, top: top, bottom: bottom, block: block)
            return
        }
        if let first = firstWithBlocks {
            var highest = units[first].top
            for j in units[first].blocks.indices { highest = min(highest, units[first].blocks[j].inkReach().top) }
            let height = units[first].bottom - units[first].top
            let down = fitting((units[first].top - highest, 0), whole: height, first: height, last: height).above
            if down > 0 {
                for i in first..<units.count { units[i].move(down: down) }
                units[first].top -= down
                cursor += down
            }
        }
        // And for the ink under its last lines, as a spacer (left out at a page's foot).
        var lowest = cursor
        for i in start..<units.count { lowest = max(lowest, units[i].inkBottom()) }
        if lowest > cursor { appendUnit([], top: cursor, bottom: lowest, block: block) }
        let background = FlowBackground(
            units: start..<units.count, firstWithBlocks: firstWithBlocks ?? units.count, x: context.x, width: context.width, fill: color)
        var next = units.count
        for index in background.units.reversed() where !units[index].blocks.isEmpty {
            if background.rectangle(behind: index, nextWithBlocks: next, in: units) != nil {
                units[index].hasFlowBackground = true
            }
            next = index
        }
        flowBackgrounds.append(background)
    }

    /// One warning for the families of `font` (`named`) that are nowhere to be found: the first
    /// few by name, and the attribute quoted, shortened when long.
    static func missingFamiliesMessage(_ missing: [String], named: [String]) -> String {
        let shown = missing.prefix(3).map { "'\($0)'" }
        let names =
            missing.count == 1 ? "font family \(shown[0])"
            : missing.count <= 3 ? "font families \(shown.dropLast().joined(separator: ", ")) and \(shown.last!)"
            : "font families \(shown.joined(separator: ", ")) and \(missing.count - 3) more"
        var list = named.joined(separator: ", ")
        if list.count > 120 { list = String(list.prefix(119)) + "…" }
        // (With no family found, "the next family" was one that is not there.)
        // A set: compared pair by pair, a list of many unknown families took minutes.
        let lowercasedMissing = Set(missing.lazy.map { $0.lowercased() })
        let anyFound = named.contains { !lowercasedMissing.contains($0.lowercased()) }
        return "\(names) not found (not bundled, in a --font-dir folder or installed); "
            + (anyFound ? "text falls back to the next family in font=\"\(list)\", then the bundled fonts" : "text takes the bundled fonts")
    }

    static func rowSpacing(_ count: Int) -> Double { Block.rowSpacing * Double(max(0, count - 1)) }

    // MARK: - Lists (SPEC 4.2)

    /// `inside`: the lists this one is nested in, and the item of each it is in (`host`).
    private mutating func layoutList(
        _ block: Block, _ list: ListBlock, _ context: BlockContext, inside: [OpenStructure] = []
    ) {
        // Each item is its own unit so that pages break between items.
        let inner = containerContext(block, context)
        let markers = listMarkers(list, inner, nested: !inside.isEmpty)
        guard hasRoom(block, inner, markers: markers.width) else { return }
        let start = units.count
        defer { addBackground(block, context, units: start) }
        let path = inside + [.list(newKey(), list.marker ?? ListBlock.defaultMarker)]
        var number = 0
        var previous: Int?  // the last item's key
        for item in list.items {
            if pastPageLimit {
                stoppedAtPageLimit = true
                break
            }
            if case .list(let nested) = item.kind {
                layoutList(item, nested, indented(inner, by: markers.width, for: item), inside: path + host(after: &previous))
                continue
            }
            let top = nextTop()
            var blocks: [PlacedBlock] = []
            let bottom = layoutItem(item, number: number, markers: markers, inner, top: top, into: &blocks, in: path)
            previous = blocks.first?.itemKey
            number += 1
            appendUnit(blocks, top: top, bottom: bottom, block: item)
        }
    }

    /// A new number for a list or a list item's structure.
    private mutating func newKey() -> Int {
        defer { nextStructureKey += 1 }
        return nextStructureKey
    }

    /// Where a nested list goes: in the LBody of the item before it, or, for a list that comes
    /// before any item, of an item of its own with no label (an L holds only LIs), which
    /// becomes `previous` for a list that follows it.
    private mutating func host(after previous: inout Int?) -> [OpenStructure] {
        let key = previous ?? newKey()
        previous = key
        return [.item(key), .body(key)]
    }

    /// Lists inside rows and stacks' rows: the same, inside one unit.
    private mutating func layoutListItems(
        _ block: Block, _ list: ListBlock, _ context: BlockContext, top: Double, into placed: inout [PlacedBlock],
        inside: [OpenStructure] = []
    ) -> Double {
        let inner = containerContext(block, context)
        let markers = listMarkers(list, inner, nested: !inside.isEmpty)
        guard hasRoom(block, inner, markers: markers.width) else { return top }
        let path = inside + [.list(newKey(), list.marker ?? ListBlock.defaultMarker)]
        let first = placed.count
        var y = top
        var number = 0
        var previous: Int?  // the last item's key
        for (index, item) in list.items.enumerated() {
            let itemTop = index == 0 ? y : y + BlockLayouter.blockSpacing
            if case .list(let nested) = item.kind {
                y = layoutListItems(
                    item, nested, indented(inner, by: markers.width, for: item), top: itemTop, into: &placed,
                    inside: path + host(after: &previous))
                continue
            }
            let first = placed.count
            y = layoutItem(item, number: number, markers: markers, inner, top: itemTop, into: &placed, in: path)
            previous = first < placed.count ? placed[first].itemKey : nil
            number += 1
        }
        return addBackground(block, context, top: top, bottom: y, to: &placed, from: first)
    }

    /// Whether the list has width left for its items' text beside their markers; an error when
    /// not, as for a row with no room for its children (a list nested 19 deep in a phone's
    /// width was placed off the page, or its markers over its text).
    private mutating func hasRoom(_ block: Block, _ context: BlockContext, markers: Double) -> Bool {
        guard context.width - markers <= 0 else { return true }
        let list = context.listDepth > 1 ? "a 'list' nested \(context.listDepth) deep" : "a 'list'"
        let left = format((max(0, context.width) * 10).rounded(.down) / 10)
        diagnostics.report(.error(
            block.location,
            "\(list) has \(left) pt left, and its markers take \(format((markers * 10).rounded(.up) / 10)) pt of it, "
                + "leaving its items no room",
            hint: BlockLayouter.narrowHint(context, first: nil)))
        return false
    }

    /// 4.2: nested lists are indented on the start side of the list's direction; `nested`, one
    /// of the other direction, on its own start side as well, as HTML indents it (its markers
    /// stood at the margin, as a list of the first level's).
    private func indented(_ context: BlockContext, by indent: Double, for nested: Block) -> BlockContext {
        var inner = context
        inner.width = context.width - indent  // a list left with none is an error (`hasRoom`)
        if !context.rightToLeft { inner.x = context.x + indent }
        if containerContext(nested, context).rightToLeft != context.rightToLeft {
            inner.width -= indent
            if context.rightToLeft { inner.x += indent }
        }
        return inner
    }

    /// Marker texts and the width reserved for them on the list's start side: room for the
    /// widest marker in the style of the list's largest item, at least what a body-size list
    /// gets, so that a marker never reaches into its item's text.
    /// (`nested`: a list in another. One without markers is still a level in, as wide as
    /// bullets at its size: its items stood where their parent item's text does, the
    /// hierarchy lost; HTML indents `list-style: none` too.)
    private mutating func listMarkers(_ list: ListBlock, _ context: BlockContext, nested: Bool = false) -> ListMarkers {
        let system = numerals?.numberingSystem(locale: context.language) ?? .latn
        let items = list.items.filter { if case .list = $0.kind { false } else { true } }
        let texts: [String]
        switch list.marker ?? ListBlock.defaultMarker {
        case .bullet:
            texts = Array(repeating: "•", count: items.count)
        case .none:
            var bullets = list
            bullets.marker = .bullet
            return ListMarkers(
                texts: Array(repeating: "", count: items.count), width: nested ? listMarkers(bullets, context).width : 0)
        case .number:
            texts = (1...max(1, items.count)).map { n in
                String(String.UnicodeScalarView(String(n).unicodeScalars.map { system.substitute($0) ?? $0 })) + "."
            }
        }
        var width = BlockLayouter.bulletIndent
        // Room for the widest marker, measured in the digits shown. Arabic-Indic digits differ
        // in width ("١." is 9.3 pt, "٣." 14.5, "١٠." 14.3): the widest marker is found from the
        // width of each character, then measured.
        let largest = items.compactMap { item -> TextStyle? in
            guard case .text(let role, _) = item.kind else { return nil }
            return baseStyle(style(of: item, context), role, context)
        }.max { $0.size < $1.size }
        if var style = largest, !texts.isEmpty {
            style.size = max(style.size, bodySize)  // at least what a body-size list gets
            func measure(_ text: String) -> Double {
                let marker = paragraphs.layout(markerText(text, style, context), direction: .ltr, width: 1e6, lineHeight: 1)
                return marker.lines.first?.width ?? 0
            }
            var characters: [Unicode.Scalar: Double] = [:]
            for scalar in Set(texts.joined().unicodeScalars) { characters[scalar] = measure(String(scalar)) }
            func estimate(_ text: String) -> Double { text.unicodeScalars.reduce(0) { $0 + characters[$1, default: 0] } }
            let widest = texts.max { estimate($0) < estimate($1) } ?? ""
            // The gap grows with Dynamic Type, as an app's scaled metrics do: at AX5 a fixed 9 pt
            // was a sixth of an em, "1.عنصر" nearly touching.
            let gap = BlockLayouter.markerGap * sizeScale * style.size / bodySize
            width = max(width, measure(widest) + gap)
            // Numbers end where the widest does, their periods in a column ("9." under "10."),
            // as lists are set in HTML, Pages and Notes; they stood flush with the margin.
            if list.marker == .number { return ListMarkers(texts: texts, width: width, end: width - gap) }
        }
        return ListMarkers(texts: texts, width: width)
    }

    /// A list's markers: their texts, the room they take beside the items (gap included), and
    /// for numbers, where they end, from the list's start side (nil: they start there).
    struct ListMarkers {
        var texts: [String]
        var width: Double
        var end: Double?
    }

    /// A list marker in its item's style (not that of the item's first words), with the
    /// document's numerals for the list's language.
    private func markerText(_ marker: String, _ itemStyle: TextStyle, _ context: BlockContext) -> ParagraphText {
        var style = itemStyle
        style.digits = numerals?.numberingSystem(locale: context.language)
        style.language = context.language
        var text = ParagraphText()
        text.append(marker, style: style, location: nil)
        return text
    }

    private mutating func layoutItem(
        _ item: Block, number index: Int, markers: ListMarkers, _ context: BlockContext,
        top: Double, into placed: inout [PlacedBlock], in list: [OpenStructure]
    ) -> Double {
        guard case .text(let role, let inlines) = item.kind else {
            return layoutBlock(item, context, top: top, into: &placed)
        }
        var inner = context
        inner.listRightToLeft = context.rightToLeft
        inner.width = context.width - markers.width
        if !context.rightToLeft { inner.x = context.x + markers.width }
        let first = placed.count
        let bottom = layoutText(item, role, inlines, inner, top: top, into: &placed)
        guard first < placed.count else { return bottom }
        // The item's background is behind its marker too, as a highlighted row's is (it ended
        // at the text, its number on the page's color).
        if let index = placed[first].decorations.firstIndex(where: { if case .rectangle = $0 { true } else { false } }),
            case .rectangle(var background) = placed[first].decorations[index], style(of: item, inner).background != nil
        {
            background.x = context.x
            background.width = context.width
            placed[first].decorations[index] = .rectangle(background)
        }
        placed[first].enclosing = list
        placed[first].itemKey = newKey()
        let text = index < markers.texts.count ? markers.texts[index] : ""
        if !text.isEmpty, let firstLine = placed[first].paragraph?.lines.first {
            let styled = markerText(text, baseStyle(style(of: item, inner), role, inner), context)
            let marker = paragraphs.layout(styled, direction: context.rightToLeft ? .rtl : .ltr,
                                           width: markers.width, lineHeight: firstLine.height / firstLine.largestSize)
            // A marker is a line too: 300,000 empty numbered items in each of two lists took
            // 2 GB, their markers not counted.
            if marker.lines.count > linesLeft { stopAtLineLimit(item, "marker") } else { linesLeft -= marker.lines.count }
            let markerWidth = marker.lines.first?.width ?? 0
            // The marker stands on the list's start side, outside the text frame: from the start
            // edge, or for numbers ending at `markers.end`.
            let start = markers.end.map { max(0, $0 - markerWidth) } ?? 0
            let x = context.rightToLeft ? context.x + context.width - start - markerWidth : context.x + start
            // (On the first line's baseline, where the room for ink over it put it.)
            let lineTop = placed[first].lineOrigins.first?.top ?? top
            let markerTop = lineTop + firstLine.baseline - (marker.lines.first?.baseline ?? 0)
            placed[first].marker = (marker, x, markerTop)
            placed[first].report.marker = ReportMarker(text: text, x: x, width: markerWidth)
        }
        return bottom
    }

    // MARK: - Text blocks (SPEC 4.1, 4.3)

    /// The catalog's string for the block's key (SPEC 5.2), with a warning when it has none
    /// (`instead` is what shows then, when `hasOwnText`; else the key), or none in the locale's
    /// own language. Its text comes in pieces, each format specifier one (`FormatSpecifiers`).
    private mutating func localizedString(_ block: Block, instead: String, hasOwnText: Bool, isText: Bool = true)
        -> (pieces: [FormatSpecifiers.Shown], language: String?)?
    {
        guard let key = block.key else { return nil }
        hasKeys = true
        if let catalog = options.unreadableCatalog {
            if !reportedUnreadableCatalog {
                reportedUnreadableCatalog = true
                diagnostics.report(.error(
                    block.location, "key '\(key)' cannot be looked up: the string catalog '\(catalog)' cannot be read (its error is given first)"))
            }
            return nil
        }
        guard let strings else {
            // `--locale` without `--strings`: an Arabic screen of English fallback text, unsaid.
            // Without either, an element with a key and no text of its own (a blank button) is
            // said too; one with its own text is a mockup whose keys are notes for later, and
            // an image without an alt is said to have none.
            if !reportedNoStrings && options.warnsOfNoCatalog && (options.locale != nil || !hasOwnText && isText) {
                reportedNoStrings = true
                diagnostics.report(.warning(
                    block.location,
                    "key '\(key)' is not looked up: no string catalog was given"
                        + (options.locale.map { " for locale '\($0)'" } ?? "")
                        + "; elements show their own text, or their key when they have none",
                    hint: "give the catalog with --strings FILE"))
            }
            // As a key the catalog lacks: shown where there is nothing else to show, but for an
            // image's alt, which a screen reader would read out as a word.
            return hasOwnText || !isText ? nil : ([FormatSpecifiers.Shown(text: key, isSpecifier: false)], nil)
        }
        let entry = strings.lookUp(key)
        if let problem = entry?.problem {
            // The entry is broken: the documents that use it fail, each saying so once, at the
            // entry (where to mend it), and where it is first used.
            if reportedProblems.insert(key).inserted {
                var said = problem
                said.hint = "key '\(key)' is used at \(block.location)"
                diagnostics.report(said)
            }
            return nil
        }
        // A catalog with nothing in the document's language (`--locale` says so at the catalog).
        if entry != nil && !strings.hasLocale && options.locale == nil && !reportedNoStrings, let catalog = options.catalog {
            diagnostics.report(.warning(
                document.location,
                "the catalog has no strings for the document's language '\(language)' (it has "
                    + "\(catalog.writtenLanguages)); keys show the source language's text"))
            reportedNoStrings = true
        }
        guard let found = entry else {
            // Without text of its own, the key shows, as an app shows a key its strings lack
            // (the warning said the own text "is used" of a blank label); but not as an image's
            // alt, which a screen reader would read out as a word (it is said to have none).
            diagnostics.report(.warning(
                block.location,
                "no string for key '\(key)' in the catalog; "
                    + (hasOwnText ? "\(instead) is used" : isText ? "the key is shown" : "the image has no alt"),
                hint: nearestKey(to: key, in: strings).map { "did you mean '\($0)'?" }))
            // In the element's language unless it reads as the source language (the caller's
            // `ownTextLanguage`): the catalog does not say which language its keys are in (the
            // source language of an `ar.lproj` file is Arabic, and "Sign in!" read "!Sign in").
            return hasOwnText || !isText ? nil : ([FormatSpecifiers.Shown(text: key, isSpecifier: false)], nil)
        }
        // An image's alt is not a key that reads as an identifier ("hero.alt", "heroAlt", "x";
        // a word of three small letters or more, "sunset", may be its text), where the catalog
        // has no text for it: a screen reader would read it out (said to have none).
        if !isText && !hasOwnText && found.isKey && LocalizedStrings.LookedUp.prefersOwnText(found.text)
            && !(found.text.count >= 3 && found.text.allSatisfy({ $0.isLetter && $0.isLowercase }))
        {
            return nil
        }
        if let fallback = found.fallback, let locale = strings.locale {
            let shown =
                !found.isKey
                ? "its '\(fallback)' text is shown"
                : "it has no '\(fallback)' text either; "
                    + (found.shown(hasOwnText: hasOwnText) == nil ? "\(instead) is used" : "its key, the source text, is shown")
            diagnostics.report(.warning(
                block.location, "key '\(key)' is not translated to '\(locale)' in the catalog; \(shown)"))
        } else if found.fromBase, let locale = strings.locale {
            diagnostics.report(.warning(
                block.location, "key '\(key)' is not translated to '\(locale)' in the catalog; its Base.lproj text is shown"))
        } else if found.isKey && isText && !hasOwnText && LocalizedStrings.LookedUp.prefersOwnText(found.text) {
            // In the source language too, where the key itself shows and reads as an identifier
            // (its `en` form not written yet): the English mockup showed "welcome.title" as its
            // title, unsaid. (A key that is text is the source text Xcode extracted from code;
            // an element's own text stands for the one to write.)
            diagnostics.report(.warning(
                block.location,
                "key '\(key)' has no text in the catalog, not even in its source language"
                    + (strings.sourceLanguage.map { " '\(Language.canonical(tag: $0))'" } ?? "") + "; the key is shown"))
        }
        guard var text = found.shown(hasOwnText: hasOwnText) else { return nil }
        // SwiftUI's automatic grammar agreement: its text shown as written, said (its markup
        // was drawn, "^[2 large pizza](inflect: true)", broken inside "(inflect: true)").
        if let (plain, inflected) = CatalogMarkdown.withoutInflection(text) {
            text = plain
            diagnostics.report(.warning(
                block.location,
                "the string of key '\(key)' asks SwiftUI to make '\(SheetLayouter.shortened(inflected, to: 48))' "
                    + "agree in number and gender (^[…](inflect: true)); it is shown as written"))
        }
        let shownBefore = catalogBytesShown
        catalogBytesShown += text.utf8.count
        if catalogBytesShown > Self.maximumCatalogBytes {
            // Said once, where the strings pass the limit; the document fails.
            guard shownBefore <= Self.maximumCatalogBytes else { return nil }
            diagnostics.report(.error(
                block.location,
                "the catalog's strings this document shows add up to more than "
                    + "\(Self.maximumCatalogBytes / 1024 / 1024) MiB, the most a document may hold (key '\(key)' passes it)"))
            return nil
        }
        if text.isEmpty {
            // As the app shows it (blank), but seldom meant: a translation pasted empty, say.
            // Named by the language it came from (ar-SA shows ar's: "the 'ar-SA' text" was none).
            let language = found.language ?? found.fallback
            let whose = language.map { language in
                "the '\(language)' text" + (strings.locale.map { $0 == language ? "" : " (shown for '\($0)')" } ?? "")
            } ?? "the text"
            diagnostics.report(.warning(
                block.location, "\(whose) of key '\(key)' in the catalog is empty; nothing is shown"))
        }
        if let markdown = CatalogMarkdown.firstSpan(in: text) {
            let sample = SheetLayouter.shortened(markdown, to: 48)
            diagnostics.report(.warning(
                block.location,
                "the string of key '\(key)' has Markdown ('\(sample)'), which SwiftUI's Text renders; it is shown as it is written",
                hint: "UIKit shows Markdown as it is written too; for a SwiftUI screen's mockup, style the part in the markup (<b>, <span color=…>) without the key"))
        }
        // A format string: the app fills its specifiers, and shows "%%" as "%".
        let specifiers = FormatSpecifiers.find(in: text)
        // The language the text is in: the locale's, else its table's or fallback's (an
        // untranslated key, a key with no text but itself, or the only language of a catalog
        // without the locale: an Arabic text was tagged English under `--locale en`).
        let language: String? =
            switch (found.language ?? found.fallback, strings.locale) {
            case (let table?, let locale?) where !Language.sameLanguageAndScript(table, locale): table
            case (let table, let locale): locale ?? table
            }
        guard !specifiers.isEmpty else { return ([FormatSpecifiers.Shown(text: text, isSpecifier: false)], language) }
        let undefined = specifiers.filter { $0.contains("#@") }
        if !undefined.isEmpty {
            diagnostics.report(.warning(
                block.location,
                "the string of key '\(key)' uses substitutions the catalog does not define "
                    + "(\(undefined.joined(separator: ", "))); they are shown as they are"))
        }
        if undefined.count < specifiers.count {
            diagnostics.report(.warning(
                block.location,
                "the string of key '\(key)' has format specifiers that a mockup has no values for "
                    + "(\(specifiers.filter { !$0.contains("#@") }.joined(separator: ", "))); they are shown as they are"))
        }
        let stray = FormatSpecifiers.strayPercents(in: text)
        if let first = stray.first {
            let which = stray.count == 1 ? "a '%' that begins" : "\(stray.count) '%'s that begin"
            diagnostics.report(.warning(
                block.location,
                "the string of key '\(key)' is a format string with \(which) no specifier (the first in '\(first)'): "
                    + "the app's String(format:) reads \(stray.count == 1 ? "it" : "each") with what follows; "
                    + "write '%%' for a percent sign"))
        }
        return (FormatSpecifiers.pieces(text), language)  // as `shownPieces`, its specifiers known
    }

    /// The text the block shows, as `localizedString` chooses it (without its warnings): the
    /// catalog's string for its key (SPEC 5.2), formatted when it is a format string (the key
    /// itself when its entry has no text), or the key when the catalog lacks it and the block
    /// has no text of its own; else its own text.
    private func textContent(_ block: Block, _ inlines: [Inline]) -> String {
        let own = inlines.styledText().map(\.text).joined()
        guard let key = block.key, options.unreadableCatalog == nil else { return own }
        // Without a catalog, or without the key in it, an element of no text of its own shows
        // its key (`localizedString`).
        guard let strings, let entry = strings.lookUp(key) else { return inlines.isEmpty ? key : own }
        guard let text = entry.shown(hasOwnText: !inlines.isEmpty) else { return own }
        return FormatSpecifiers.joined(FormatSpecifiers.shownPieces(text))
    }

    /// A block's style with what it does not set taken from its lists, rows and stacks, as CSS
    /// inherits: only where the element has no default of its own. A title keeps its size and
    /// weight, a caption its size, a button its centering, weight and white text.
    private func style(of block: Block, _ context: BlockContext) -> BlockStyle {
        var style = block.style
        let inherited = context.inherited
        var role: TextRole?
        if case .text(let textRole, _) = block.kind { role = textRole }
        if role != .button {
            style.align = style.align ?? inherited.align
            style.color = style.color ?? inherited.color
        }
        if role.map({ $0.defaultSize() == Document.defaultFontSize }) ?? true { style.size = style.size ?? inherited.size }
        if role.map({ $0.defaultWeight == .regular }) ?? true { style.weight = style.weight ?? inherited.weight }
        style.lineHeight = style.lineHeight ?? inherited.lineHeight
        return style
    }

    /// The style of a text block's own text (its `style(of:)`), before its inline elements change it.
    private func baseStyle(_ style: BlockStyle, _ role: TextRole, _ context: BlockContext) -> TextStyle {
        let language = markupLanguage(style.lang) ?? context.language
        return TextStyle(
            families: families, weight: (style.weight ?? role.defaultWeight).numericValue, italic: false,
            size: style.size.map { $0 * role.scale(textSize: textSize) } ?? role.defaultSize(textSize: textSize, documentSize: documentSize),
            color: style.color ?? (role == .button ? buttonTextColor(on: style.background, context) : color), language: language,
            digits: numerals?.numberingSystem(locale: language))
    }

    /// A button's title without a `color`: white, as on iOS's filled button, unless its
    /// `background` is too light for white (below 3:1, WCAG's least for large text and
    /// controls); then the text color around it where it is readable there (4.5:1, WCAG's
    /// for text), else black ("Cancel" on `#F2F2F7` was white, unreadable).
    private func buttonTextColor(on background: Color?, _ context: BlockContext) -> Color {
        guard let background else { return .white }
        let seen = background.over(document.background ?? Document.defaultBackground)
        guard Color.contrast(.white, seen) < 3 else { return .white }
        let around = (context.inherited.color ?? color).over(seen)
        return Color.contrast(around, seen) >= 4.5 ? around : .black
    }

    private mutating func layoutText(
        _ block: Block, _ role: TextRole, _ inlines: [Inline], _ context: BlockContext, top: Double,
        into placed: inout [PlacedBlock]
    ) -> Double {
        let style = style(of: block, context)
        let blockLineHeight = style.lineHeight ?? lineHeight
        var base = baseStyle(style, role, context)
        let language = base.language
        let roleScale = role.scale(textSize: textSize)  // of the markup's sizes and the balance

        let localizedText = localizedString(block, instead: "the element's own text", hasOwnText: !inlines.isEmpty)
        // The language of a catalog's text, or of the element's own text shown instead, when not the element's.
        var localizedLanguage =
            localizedText == nil && block.key != nil
            ? ownTextLanguage(block, context, text: inlines.styledText().map(\.text).joined()) : nil
        if let localizedLanguage {
            base.language = localizedLanguage
            base.digits = numerals?.numberingSystem(locale: localizedLanguage)
        }
        var text = ParagraphText(emptyStyle: base)
        var localized = false  // a catalog's text, even an empty one, replaces the element's own
        if let (pieces, shownLanguage) = localizedText {
            // The element's own text is only a fallback: its inline elements, a colored "link"
            // or a bold word, are not shown, which is said (they were dropped without a word).
            if let first = Self.firstInlineElement(inlines) {
                diagnostics.report(.warning(
                    first.location,
                    "the catalog's string for key '\(block.key ?? "")' replaces this element's own text, and with it this <\(first.name)> and its style",
                    hint: "a catalog's string is shown in the element's own style; give the styled part an element of its own"))
            }
            var style = base
            // A key the catalog lacks, shown as its text, is in the source language where it
            // reads as that, as an element's own text is (`ownTextLanguage`): "Cancel" was
            // tagged Arabic under `--locale ar`.
            let shownText = pieces.filter { !$0.isSpecifier }.map(\.text).joined()
            style.language = textLanguage(
                shownLanguage ?? ownTextLanguage(block, context, text: shownText), in: base.language, text: shownText)
            if style.language != base.language {
                localizedLanguage = style.language
                // `numerals="auto"` takes the shown text's locale, as a `lang` in markup does:
                // an English fallback in an Arabic document showed "Version ٣٫١".
                style.digits = numerals?.numberingSystem(locale: style.language)
            }
            for piece in pieces {
                if piece.isSpecifier {
                    // Kept whole, and its digits are the specifier's, not a number's: `%1$@`
                    // showed "٪١$@" in Arabic digits.
                    var specifierStyle = style
                    specifierStyle.digits = nil
                    text.append(FormatSpecifiers.held(piece.text), style: specifierStyle, location: block.location)
                } else {
                    // A tab shows as the space it is in markup (whose white space collapses); a
                    // font has no glyph for it.
                    text.append(piece.text.contains("\t") ? piece.text.replacing("\t", with: " ") : piece.text,
                                style: style, location: block.location)
                }
            }
            localized = true
        }
        if !localized {
            for piece in inlines.styledText() {
                var s = base
                let inline = piece.style
                if let w = inline.weight { s.weight = w.numericValue }
                if let italic = inline.italic { s.italic = italic }
                if let pieceSize = inline.size { s.size = pieceSize * roleScale }
                if let c = inline.color { s.color = c }
                if let lang = markupLanguage(inline.lang) { s.language = lang }
                if let n = inline.numerals ?? (inline.lang != nil ? numerals : nil) {
                    s.digits = n.numberingSystem(locale: s.language)
                }
                text.append(piece.text, style: s, location: piece.location)
            }
        }
        // The PDF's /Title, as the page's text reads (`PageEmitter.glyphRun`): without what it
        // leaves out (isolates, soft hyphens) but ZWNJ, ZWJ and an emoji's, its digits as shown
        // (SPEC 4.5), a `<br/>` or other line end a space (they were the digits written and a
        // U+2028). The first title's text, else the first heading's.
        if role == .title && title == nil || role == .heading && firstHeading == nil {
            let scalars = ParagraphLayouter.displayScalars(text)
            var shown = String.UnicodeScalarView()
            for i in scalars.indices
            where !isLeftOutOfText(scalars[i]) || steersLetters(scalars[i]) || isPartOfEmoji(scalars, at: i, in: scalars.indices) {
                shown.append(scalars[i].endsLine ? " " : scalars[i])
            }
            // (A `<br/>` at its end is no space of it.)
            let trimmed = shown.last?.isWhiteSpace == true || shown.first?.isWhiteSpace == true
                ? String(shown).trimmingWhitespace() : String(shown)
            if role == .title { title = trimmed } else { firstHeading = trimmed }
        }
        if role == .title && !hasTitleText { hasTitleText = BlockLayouter.hasText(text.scalars) }

        // Own direction (SPEC §4): dir, else lang, else the first strong character, else the
        // context. The lang is the shown text's: a catalog's Arabic text in an element of
        // lang="en" is right to left, an English fallback in one of lang="he" left to right.
        // A right-to-left lang the element inherits (the document's, the locale's, a
        // container's) gives the direction of a text a third or more of whose words are in
        // right-to-left letters: Hebrew that starts with a Latin word ("Wi-Fi: רשת ביתית",
        // "Lumen Pro מגבה…", "12.5 GB מתוך 50 GB") is right to left in a Hebrew document, as the
        // HIG aligns a paragraph by its language (the first strong letter set it left to right,
        // and a reader met the value before its key), while "Tap حفظ to keep your changes." keeps
        // its first strong letter's, and so does any text under a left-to-right lang (a Hebrew
        // sentence with "iPhone" in it, in an English document). A catalog's text whose
        // letters are all of the other direction is not taken for its language either: the
        // English kept in an `ar` entry (a brand, a legal line) was set right to left in an
        // element of lang="en", its final period at its left. (Letters in isolates, a format
        // specifier's or a `<bdi>`'s, are not counted; digits and emoji are of no direction.)
        var declaringStyle = style
        let strong = BidiParagraph.firstStrong(
            text.scalars.lazy.map { $0.bidiClass }, from: 0, to: text.scalars.count, pastParagraphEnds: true)
        let firstStrong = strong?.level
        let shownLanguage = localizedLanguage ?? (context.languageIsDeclared ? language : nil)
        // A text whose first strong character (UAX #9 P2) is an LRM asks for left to right, as
        // one whose first is an RLM asks for right to left: its text's, not its language's.
        let marked = strong.map { text.scalars[$0.index] == "\u{200E}" } ?? false
        if style.dir == nil, !marked, localizedLanguage != nil || style.lang == nil, let shownLanguage {
            let rightToLeft = Language.isRightToLeft(language: shownLanguage)
            // A catalog's text is in its language where it has letters of that language's
            // direction, whether the element names a language or not: "Amazon Prime Video זמין."
            // was left to right, and right to left in an element of lang="en", whose own text
            // is not shown.
            if style.lang != nil || localized || localizedLanguage != nil {
                let words = Self.wordDirections(text.scalars)
                let own = rightToLeft ? words.rightToLeft > 0 : words.leftToRight > 0
                let other = rightToLeft ? words.leftToRight > 0 : words.rightToLeft > 0
                declaringStyle.lang = other && !own ? nil : shownLanguage
            } else if rightToLeft && firstStrong == 0 {  // (counted only where it decides)
                // A third of its words (`unquoted`); or a product's name before the right-to-left
                // text it ends in: "Apple Watch Ultra 2 מחובר." (one Hebrew word in four) was left
                // to right, while "Welcome Back To The App, דני", "Signed In As محمد" and "Current
                // Display Language: العربية" are English.
                // But not an English sentence that names right-to-left words, as many words of
                // its own as theirs and an English function word beside one of them: "Open
                // الإعدادات then الخصوصية" and "Go to الإعدادات" read left to right ("Call of
                // Duty זמין להורדה" is a name before Hebrew).
                let words = Self.wordDirections(text.scalars)
                let english = words.linked && words.all - words.rightToLeft >= words.rightToLeft
                if 3 * words.unquoted.rightToLeft >= words.unquoted.all && !english || words.nameFirst {
                    declaringStyle.lang = shownLanguage
                }
            }
        }
        let ownRTL = declaredRightToLeft(declaringStyle) ?? firstStrong.map { $0 == 1 } ?? context.rightToLeft

        // 4.3: balancing, only in titles, headings, labels and buttons.
        var blockBalance = 0.0
        if role.isBalanced && HIGRules.hasArabicOrHebrew(text.scalars)
            && (context.rowHasAllCaps || HIGRules.hasAllCapsLatin(text.scalars))
        {
            // Text sizes scale the balancing with the text it balances (SPEC 4.3, 5.3).
            blockBalance = balance * roleScale
        }

        let isButton = role == .button
        let padX = isButton ? BlockLayouter.buttonPaddingX : 0
        let frameWidth = max(1, context.width - 2 * padX)
        guard linesLeft >= 0,
            let paragraph = paragraphs.layout(
                text, direction: ownRTL ? .rtl : .ltr, width: frameWidth, lineHeight: blockLineHeight,
                balance: blockBalance, atMost: linesLeft)
        else {
            stopAtLineLimit(block, "text")
            return top
        }
        linesLeft -= paragraph.lines.count
        if !paragraph.missing.isEmpty {
            if sourceLocator == nil, let source = document.source { sourceLocator = MarkupSource.Locator(source) }
            for character in paragraph.missingCharacters(source: sourceLocator) {
                missingCharacters.note(character, in: &diagnostics)
            }
        }
        let numbers = HIGRules.reorderedNumbers(paragraph)
        if !numbers.isEmpty, sourceLocator == nil, let source = document.source { sourceLocator = MarkupSource.Locator(source) }
        // Each where it is typed (or at its element, in a catalog's text).
        let numberLocations = numbers.isEmpty ? [] : paragraph.sourceLocations(of: numbers.map(\.offset), source: sourceLocator)
        for (number, location) in zip(numbers, numberLocations) {
            let moved = number.signOnly ? "moves its '\(number.number.first ?? "+")' to its other end" : "reorders its groups"
            diagnostics.report(.warning(
                location ?? block.location,
                "the number '\(number.number)' is not isolated: the right-to-left text around it \(moved)",
                hint: "wrap it in <ltr>…</ltr>, or in a catalog's string between U+2066 and U+2069"))
        }
        // Nothing is lost silently: a box narrower than a piece of its text that cannot break (a
        // row of too many children, a list nested too deep) lets the text overflow it. The
        // warnings give the box's own width (its text is laid out in 1 pt at least), and a
        // button's width inside its padding too ("167.5 pt wide, narrower than the word
        // (162 pt)" read as a contradiction).
        func boxWidth() -> String {
            func tenths(_ width: Double) -> String { format((max(0, width) * 10).rounded(.down) / 10) }
            guard padX > 0 else { return "\(tenths(context.width)) pt wide" }
            return "\(tenths(context.width)) pt wide (\(tenths(context.width - 2 * padX)) pt inside its padding)"
        }
        // (A loop: `lines.lazy.map(\.width).max()` copied each line, retaining its arrays.)
        var widest = 0.0
        for index in paragraph.lines.indices { widest = max(widest, paragraph.lines[index].width) }
        if !paragraph.lines.isEmpty, widest > frameWidth + 0.5 {
            diagnostics.report(.warning(
                block.location,
                "this <\(block.elementName)> is \(boxWidth()), narrower than "
                    + "a piece of its text that cannot break (\(format(widest.rounded(.up))) pt): the text overflows its box",
                hint: BlockLayouter.narrowHint(context, first: "make the text shorter")))
        } else if let broken = paragraph.brokenWord {
            // Or one of its words is broken between letters, as UIKit does: a text size or a
            // translation that no longer fits.
            // (Without the bidi controls of its isolates, with the ZWNJs and ZWJs of its spelling.)
            var word = String(String.UnicodeScalarView(text.scalars[broken.range].filter { !$0.isDefaultIgnorable || steersLetters($0) }))
            // With the hyphen of the soft hyphen it ends at, which made it too wide.
            if broken.hyphenated { word += "-" }
            if word.count > 40 { word = word.prefix(39) + "…" }
            let others = paragraph.brokenWordCount - 1
            diagnostics.report(.warning(
                block.location,
                "this <\(block.elementName)> is \(boxWidth()), narrower than "
                    + "the word '\(word)' (\(format(broken.width.rounded(.up))) pt): it is broken "
                    + (broken.betweenLetters ? "between its letters" : "at its separators")
                    + (others > 0 ? ", and so \(others == 1 ? "is 1 other word" : "are \(others) other words")" : ""),
                hint: BlockLayouter.narrowHint(context, first: "make the text shorter")))
        }

        let breaks: PageBreaks =
            switch role {
            case .button: .never
            case .item, .title, .heading: .ifTallerThanPage
            default: .anyLine
            }
        let textHeight = paragraph.height
        var frameTop = top
        var blockBottom = top + textHeight
        var inkRoom = (above: 0.0, below: 0.0)
        var inkPast: (top: Double, bottom: Double)?  // what of the ink that room does not hold
        var decorations: [PageItem] = []
        if isButton {
            var height = max(Block.minimumButtonSize, textHeight + 2 * BlockLayouter.buttonPaddingY)
            var above = (height - textHeight) / 2
            // Its padding holds the ink of its text, grown where it does not (as much as a page
            // holds), `buttonInkClearance` inside its edges: the lower dot of a Pashto "ې" fell
            // 6 pt under a button at AX3, white on the page's white, and read as another letter.
            // By as much at both edges, so that its text stays centered, and on the baseline
            // of the buttons beside it, which a row stretches to it and centers in turn.
            if let ink = paragraph.edgeInk {
                let clearance = BlockLayouter.buttonInkClearance
                let past = max(0, ink.above + clearance - above, ink.below + clearance - above)
                // (A button is never split: the page holds it whole or not at all; what room a
                // page of fixed height has goes to both edges alike.)
                let room = fitting((past, past), whole: height, first: height, last: height)
                let grow = min(past, (room.above + room.below) / 2)
                above += grow
                height += 2 * grow
                // (Measured once: what it holds is not asked of its lines again, `inkReach`.)
                inkPast = (max(0, ink.above - above), max(0, ink.below - (height - textHeight - above)))
            }
            frameTop = top + above
            blockBottom = top + height
            // A button keeps to its slot: widened to 44 pt, the buttons of a crowded row
            // overlapped one another and the last one crossed the margin.
            if context.width < Block.minimumButtonSize - 0.005 && !context.narrowButtonsReported {
                diagnostics.report(.warning(
                    block.location,
                    "this <button> is \(BlockLayouter.underTapTarget(context.width))",
                    hint: BlockLayouter.narrowHint(context, first: nil)))
            }
            decorations.append(.rectangle(RectangleItem(
                x: context.x, y: top, width: context.width, height: height,
                cornerRadius: BlockLayouter.buttonRadius, fill: style.background ?? BlockLayouter.buttonFill)))
        } else if let background = style.background {
            // Down to the ink of its last line: white Arabic on a dark label lost the dots
            // under its letters, drawn on the page's white below the line box (SPEC §2).
            // And its text down from the top, by the marks over its first line.
            if let ink = paragraph.edgeInk, let firstLine = paragraph.lines.first, let lastLine = paragraph.lines.last {
                inkRoom = fitting(
                    ink, whole: textHeight, first: firstLine.height, last: lastLine.height,
                    splits: breaks == .anyLine && paragraph.lines.count > 1)
                inkPast = (ink.above - inkRoom.above, ink.below - inkRoom.below)
            }
            frameTop += inkRoom.above
            blockBottom += inkRoom.above + inkRoom.below
            decorations.append(.rectangle(RectangleItem(
                x: context.x, y: top, width: context.width, height: blockBottom - top, fill: background)))
        }

        // SPEC 4.1 counts a paragraph's lines; the pieces of a word broken between its letters
        // are one of them (at AX5, "Bluetooth" in a Hebrew row was cut in three, counted as a
        // paragraph of three lines and set left aligned, away from its row's start side), of
        // every such word ("Bluetooth Notifications" was, whose first word alone was counted).
        // Lines of text: the empty lines of "<br/><br/>" are not (two lines of Hebrew with a
        // blank line after them were set as a paragraph of three, by their own language).
        let lineCount = paragraph.lines.count { !$0.showsNothing } - paragraph.wordCuts
        let side: Side
        if let listRTL = context.listRightToLeft {
            side = HIGRules.listItemAlignment(style.align, listRightToLeft: listRTL, lineCount: lineCount, ownRightToLeft: ownRTL)
        } else {
            side = HIGRules.alignment(style.align ?? role.defaultAlignment, lineCount: lineCount,
                                      ownRightToLeft: ownRTL, contextRightToLeft: context.rightToLeft)
        }
        let frame = ReportRect(x: context.x + padX, y: frameTop, width: frameWidth, height: textHeight)
        var origins: [(x: Double, top: Double)] = []
        var y = frameTop
        for line in paragraph.lines {
            let x: Double
            switch side {
            case .left: x = frame.x
            case .right: x = frame.x + frame.width - line.width
            case .center: x = frame.x + (frame.width - line.width) / 2
            }
            origins.append((x, y))
            y += line.height
        }
        let report = ReportBlock(
            kind: role.rawValue, line: block.location.line, lang: localizedLanguage ?? language,
            direction: ownRTL ? "rtl" : "ltr",
            context: (context.listRightToLeft ?? context.rightToLeft) ? "rtl" : "ltr", align: side.rawValue,
            frame: frame, marker: nil, lines: [])
        let tag: StructureTag
        switch role {
        case .title: tag = .h1
        // Headings are one level under the title, and the top level before one (PDF/UA wants
        // the first heading to be H1: a document without a title began at H2).
        case .heading: tag = hasTitleText ? .h2 : .h1
        case .item: tag = .listItem
        default: tag = .paragraph
        }
        placed.append(PlacedBlock(
            report: report, paragraph: paragraph, lineOrigins: origins, decorations: decorations, tag: tag,
            top: top, bottom: blockBottom, breaks: breaks, inkRoomAbove: inkRoom.above, inkRoomBelow: inkRoom.below,
            inkPast: inkPast))
        return blockBottom
    }

    // MARK: - Images (SPEC 4.6)

    private mutating func layoutImage(
        _ block: Block, _ image: ImageBlock, _ context: BlockContext, top: Double, into placed: inout [PlacedBlock]
    ) -> Double {
        var (width, height) = image.size
        if width > context.width {  // scaled down to fit, keeping its aspect ratio
            height *= context.width / width
            width = context.width
            // Said where the markup gives its size (a `width` of 1000 and `height` of 10 were
            // shown 358 × 3.58 without a word); a picture at its pixels' size fits silently.
            if image.width != nil || image.height != nil {
                let given = image.width != nil ? "is" : "would be, at the height given,"
                diagnostics.report(.warning(
                    block.location,
                    "this <image> \(given) \(format(image.size.width.rounded(.up))) pt wide, more than the "
                        + "\(format((context.width * 10).rounded(.down) / 10)) pt it has: it is shown "
                        + "\(format((width * 10).rounded() / 10)) × \(format((height * 10).rounded() / 10)) pt, its shape kept",
                    hint: BlockLayouter.narrowHint(context, first: "give it a smaller width")))
            }
        }
        // `align` places the image as it would a line of text (natural and start: the context's
        // start side).
        let side = HIGRules.alignment(
            style(of: block, context).align ?? .natural, lineCount: 1, ownRightToLeft: context.rightToLeft,
            contextRightToLeft: context.rightToLeft)
        let x = switch side {
        case .left: context.x
        case .right: context.x + context.width - width
        case .center: context.x + (context.width - width) / 2
        }
        var entry = leaf(block, context, frame: ReportRect(x: x, y: top, width: width, height: height))
        entry.report.align = side.rawValue
        let flipped = image.flip == .rtl && context.rightToLeft
        // An image's text is its `alt`: a `key` takes it from the string catalog (SPEC 5.2).
        let localized = localizedString(block, instead: "the image's own alt", hasOwnText: image.alt != nil, isText: false)
        let given = localized.map { FormatSpecifiers.joined($0.pieces) } ?? image.alt
        // Only white space, or characters that show nothing (a zero-width space, a mark), is
        // none: it was a Figure whose /Alt and aria-label said "   ". "" says the picture is
        // decoration.
        let blank = given.map { !$0.isEmpty && !Self.hasText($0.unicodeScalars) } == true
        let alt = blank ? nil : given
        // The PDF's Figure and the SVG's picture have no text to read then: a screen reader
        // says "graphic", and nothing said so (PDF/UA needs one, HTML's validators ask for it).
        // Said here, once its key is looked up (an image whose catalog gave it one was told it
        // had none; one whose key had no catalog was not).
        if alt == nil && options.unreadableCatalog == nil {
            diagnostics.report(.warning(
                block.location,
                "this <image> has \(blank ? "an 'alt' of only white space or invisible characters" : "no 'alt'"): a screen reader has nothing to say of it",
                hint: block.key == nil
                    ? "describe it with alt=\"…\", or write alt=\"\" if it is decoration"
                    : options.catalog == nil
                        ? "describe it with alt=\"…\", or give the catalog of its key with --strings"
                        : "describe it with alt=\"…\", or give its key '\(block.key ?? "")' a text the catalog shows here"))
        }
        let shown = localized == nil ? ownTextLanguage(block, context, text: image.alt ?? "") : localized?.language
        let language = textLanguage(shown, in: markupLanguage(style(of: block, context).lang) ?? context.language, text: alt ?? "")
        entry.decorations = [.image(ImageItem(path: image.path, x: x, y: top, width: width, height: height,
                                              flipped: flipped, alt: alt, language: language,
                                              location: block.location))]
        // alt="" says the picture is decoration: no Figure, an artifact (PDF/UA-1 7.3).
        entry.tag = alt == "" ? nil : .figure
        placed.append(entry)
        return top + height
    }
}
