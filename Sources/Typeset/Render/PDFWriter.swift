// Tagged PDF written directly (ISO 32000-1), one page at a time: each page's content stream,
// page object and structure elements go to the file as soon as the page is added, so memory
// stays flat however many pages there are. What is kept until the end is small: an offset per
// object, a reference per page, the glyphs each font used, the top level of the structure tree.
//
// Why not Cairo's PDF surface: it records every page and replays it on cairo_show_page,
// formats every number through snprintf and keeps the whole structure tree until it finishes —
// over half the time of a render to PDF and memory that grows with the pages (issue 8). It also
// cannot write /Lang, /Alt or /DisplayDocTitle, which needed a second pass over its output.
// (SVG is written directly too, by SVGWriter; PNG is drawn by Cairo, PageDrawer.)
//
// Layout: every page's content starts with `1 0 0 -1 0 H cm`, so the content stream uses the
// layout's coordinates (points from the top-left, y down); text matrices flip back.

import Glibc

/// One PDF written page by page to a temporary file beside `path`, which `finish()` renames
/// over `path`. The same pages and options give byte-identical files; when `finish()` throws,
/// or the writer is dropped unfinished (after `add` threw, say), no output file has been created
/// or changed and no temporary file is left. Used from one thread at a time.
public final class PDFWriter {
    /// All the writer's state is one value, which the methods that write a page mutate in place.
    /// As stored properties of this class, each access paid a run-time exclusivity check
    /// (`swift_beginAccess`, several per glyph run): 29 thousand instructions a corpus document.
    private var document: PDFDocumentWriter

    /// Starts a PDF at `path`; `options.format` is taken to be `.pdf`.
    public init(path: String, options: RenderOptions) throws {
        document = try PDFDocumentWriter(path: path, options: options)
    }

    /// Writes `pages` as the next pages of the PDF. A document's pages go in together and in
    /// order: an element one page ends with `continued` must be begun again by the next
    /// (`unbalancedTags` otherwise), so a page of a split paragraph cannot be written alone.
    public func add(_ pages: [Page]) throws { try document.add(pages) }

    /// Ends the PDF and renames it into place; returns its path. Throws `RenderError.noPages`
    /// when no page was added.
    @discardableResult
    public func finish() throws -> [String] { try document.finish() }
}

/// What `PDFWriter` does.
private struct PDFDocumentWriter: ~Copyable {
    let options: RenderOptions
    let objects: PDFObjectWriter
    private let pagesRoot: Int, structureRoot: Int, documentElement: Int
    // Kept for every page until the end: object numbers as 32 bits (a PDF of 10,000 pages has
    // a few hundred thousand objects).
    private var pageObjects = BlockArray<UInt32>()
    /// Per page (its /StructParents), the object listing the element of each marked-content id.
    private var parentTreeArrays = BlockArray<UInt32>()
    /// Structure elements begun and not yet ended, innermost last.
    private var openElements: [OpenElement] = []
    /// How many of the innermost open elements were just ended with `continued`: they go on on
    /// the next page, which begins them again (with `continued`).
    private var suspended = 0
    /// Elements ended with `continued` and followed by something else (the page's end, or the
    /// next column of a row split between pages): taken off `openElements` with their kids, in
    /// the order the next page begins them again.
    private var parked: [ParkedElements] = []
    /// How many of `parked` the pages before ended: this page must begin each of them again.
    private var carried = 0
    /// The kids of the open elements on this page, outermost first: one array for all, not one
    /// each (those of pages before, of an element that goes on, are its `kidsBefore`).
    private var openKids: [Kid] = []
    /// The children of the Document element: 4 bytes each, for they add up over 10,000 pages
    /// (85,000 of them; an array that doubles kept room for up to twice as many).
    private var documentKids = BlockArray<UInt32>()
    /// The last of them, those of a row split between pages (`OpenElement.order`), in the
    /// order they ended: they go to `documentKids` in the row's order when any other element
    /// ends, or the document does. (Each put before those it comes before as it ended took a
    /// search back and a move of the ones after: quadratic in a row over many pages.)
    private var rowKids: [(order: RowPlace, object: UInt32)] = []

    /// Fonts, images and transparency states, shared by every page (one /Resources dictionary).
    private let resources: PDFResources

    // The page being written.
    private var pageObject = 0
    /// Elements of the page's marked-content ids, in id order.
    private var markedElements: [Int] = []
    /// What the open marked-content sequence belongs to: an element object, 0 for an artifact,
    /// nil when none is open.
    private var openMarked: Int?
    /// The /Lang of the open marked-content sequence, nil for the document's language.
    private var openLanguage: String?
    /// The room of the last page's content stream, and of the last small object's body: a
    /// fresh buffer per page and per structure element took more time than writing their bytes.
    private var pageBytes = ByteBuffer(capacity: 16 * 1024)
    private var objectBytes = ByteBuffer(capacity: 1024)

    init(path: String, options: RenderOptions) throws {
        self.options = options
        do {
            objects = PDFObjectWriter(file: try TemporaryFile(beside: path))
        } catch {
            throw RenderError.write(path: error.path, reason: error.reason)
        }
        // The header, and a comment of bytes over 127 that marks the file as binary (§7.5.2).
        objects.file.append(Array("%PDF-1.7\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        pagesRoot = objects.reserve()
        resources = PDFResources(objects: objects)
        structureRoot = objects.reserve()
        documentElement = objects.reserve()
    }

    mutating func add(_ pages: [Page]) throws {
        try refuseOverwritingImages(of: pages, with: [objects.file.path])
        for page in pages {
            guard page.width.isFinite, page.height.isFinite, page.width > 0, page.height > 0 else {
                throw RenderError.invalidInput(
                    "page \(pageObjects.count + 1) is \(page.width) × \(page.height) pt: sizes must be positive")
            }
            try write(page)
        }
    }

    mutating func finish() throws -> [String] {
        do {
            return try finishDocument()
        } catch {
            objects.file.discard()
            throw error
        }
    }

    // MARK: - Pages

    private mutating func write(_ page: Page) throws {
        let pageNumber = pageObjects.count + 1
        pageObject = objects.reserve()
        pageObjects.append(UInt32(pageObject))
        markedElements = []
        openMarked = nil
        park()
        carried = parked.count
        var content = PDFPageContent(resources: resources, bytes: ByteBuffer.take(&pageBytes))
        defer { pageBytes = ByteBuffer.take(&content.bytes) }
        content.bytes.append("1 0 0 -1 0 ")
        content.bytes.number(page.height)
        content.bytes.append("cm\n")
        if page.background.alpha > 0 {
            mark(0, in: &content)
            content.fillBox(width: page.width, height: page.height, color: page.background)
        }
        // By index: `enumerated()` copied each item, retaining what it holds.
        for index in page.items.indices {
            switch page.items[index] {
            case .beginTag(let tag, let continued, let order):
                if continued {
                    try resume(tag, page: pageNumber)
                } else {
                    try settle(page: pageNumber)
                    begin(tag, order: order.map { (pageNumber - $0.pagesBack, $0.index) }, in: &content)
                }
            case .endTag(let tag, let continued):
                if continued {
                    try suspend(tag, page: pageNumber, in: &content)
                } else {
                    try settle(page: pageNumber)
                    try end(tag, page: pageNumber, in: &content)
                }
            case .subpage(let subpage):
                try settle(page: pageNumber)
                try write(subpage, page: pageNumber, item: index + 1, depth: 1, in: &content)
            default:
                try settle(page: pageNumber)
                try draw(page.items[index], page: pageNumber, item: index + 1, in: &content)
            }
        }
        closeMarked(in: &content)
        if carried > 0 { throw notResumed(page: pageNumber, "which does not begin it again") }

        let contents = try objects.stream(dictionary: "", content.bytes, fast: true)
        var body = ByteBuffer.take(&objectBytes)
        defer { objectBytes = ByteBuffer.take(&body) }
        body.append("[ ")
        for element in markedElements { body.reference(element) }
        body.append("]")
        let parents = objects.reserve()
        objects.object(parents, body)
        parentTreeArrays.append(UInt32(parents))

        body.removeAll()
        body.append("<< /Type /Page /Parent ")
        body.reference(pagesRoot)
        body.append("/MediaBox [ 0 0 ")
        body.number(page.width)
        body.number(page.height)
        body.append("] /Resources ")
        body.reference(resources.object)
        body.append("/Contents ")
        body.reference(contents)
        body.append("/StructParents ")
        body.integer(parentTreeArrays.count - 1)
        body.append("/Tabs /S >>")
        objects.object(pageObject, body)
    }

    /// Draws a run or picture as part of the open element, and a shape (a button's, a block's
    /// background, a rule) as decoration: an artifact, as is a picture with alt="" (PDF/UA-1
    /// 7.1: a P held its button's rounded rectangle).
    private mutating func draw(_ item: PageItem, page: Int, item index: Int, in content: inout PDFPageContent) throws {
        switch item {
        case .glyphs(let run):
            mark(openElements.last?.object ?? 0, language: run.language, in: &content)
            try content.draw(run, page: page, item: index)
        case .image(let image):
            mark(image.alt == "" ? 0 : openElements.last?.object ?? 0, language: image.language, in: &content)
            noteAlternateText(image.alt)
            try content.draw(item, page: page, item: index)
        default:
            mark(0, in: &content)
            try content.draw(item, page: page, item: index)
        }
    }

    /// A page drawn in the page (a comparison sheet's cell or caption), `depth` pages deep: its
    /// elements go inside the open one as the page's own do (a sheet's mockups were artifacts,
    /// and screen readers and tagged-text export had only its captions). An element that goes
    /// on to the next page of the cell's document, which the sheet does not show, ends with it.
    private mutating func write(
        _ subpage: SubpageItem, page: Int, item: Int, depth: Int, in content: inout PDFPageContent
    ) throws {
        try subpage.check(page: page, item: item, depth: depth)
        closeMarked(in: &content)
        content.beginSubpage(subpage)
        if subpage.page.background.alpha > 0 {
            mark(0, in: &content)
            content.fillBox(width: subpage.page.width, height: subpage.page.height, color: subpage.page.background)
        }
        let outside = openElements.count
        for inner in subpage.page.items {
            switch inner {
            case .beginTag(let tag, _, _):
                begin(tag, order: nil, in: &content)
            case .endTag(let tag, _):
                guard openElements.count > outside else {
                    throw RenderError.unbalancedTags(
                        page: page, reason: "\(tag.rawValue) ends in item \(item), a page in the page that did not begin it")
                }
                try end(tag, page: page, in: &content)
            case .subpage(let nested):
                try write(nested, page: page, item: item, depth: depth + 1, in: &content)
            default:
                try draw(inner, page: page, item: item, in: &content)
            }
        }
        while openElements.count > outside { try end(openElements[openElements.count - 1].tag, page: page, in: &content) }
        closeMarked(in: &content)
        content.endSubpage()
    }

    /// Puts what is drawn next in a marked-content sequence of `element` (0: an artifact, not
    /// part of the document's text). Text in another language than the document's gets a
    /// sequence with its /Lang (ISO 32000-1 §14.9.2); what has no language joins the open one.
    private mutating func mark(_ element: Int, language: String? = nil, in content: inout PDFPageContent) {
        let own = element == 0 || language == options.language ? nil : language
        if language != nil, element != 0, let index = openElements.indices.last, openElements[index].object == element {
            openElements[index].languages.add(.one(own))
        }
        if openMarked == element && (language == nil || own == openLanguage) { return }
        closeMarked(in: &content)
        openMarked = element
        openLanguage = own
        // Only the innermost open element is marked (`element` is always it), so its kids are
        // the last of `openKids`.
        guard element != 0, let index = openElements.indices.last, openElements[index].object == element else {
            content.bytes.append("/Artifact BMC\n")
            return
        }
        let id = markedElements.count
        markedElements.append(element)
        openKids.append(.content(page: pageObject, id: id))
        if openElements[index].page == nil { openElements[index].page = pageObject }
        content.bytes.append("/")
        content.bytes.append(string: openElements[index].tag.type)
        content.bytes.append(" << /MCID ")
        content.bytes.integer(id)
        if let own {
            content.bytes.append("/Lang ")
            content.bytes.text(own)
        }
        content.bytes.append(">> BDC\n")
    }

    private mutating func closeMarked(in content: inout PDFPageContent) {
        if openMarked != nil { content.bytes.append("EMC\n") }
        openMarked = nil
        openLanguage = nil
    }

    // MARK: - Structure tree

    /// For an element of a row split between pages (`StructureOrder`): the page the row begins
    /// on, and the element's place in the row. Elements of split rows go in this order.
    private typealias RowPlace = (page: Int, index: Int)

    private struct OpenElement {
        var tag: StructureTag
        var object: Int
        var parent: Int
        /// The page of its first content.
        var page: Int?
        /// Where its kids on this page start in `openKids`.
        var firstKid: Int
        /// Its kids on the pages before, for an element that goes on over pages: those of a page
        /// are moved here when it ends (copying all of them to and fro each page was quadratic
        /// in a list of many pages).
        var kidsBefore: [Kid] = []
        var alternateText: String?
        var order: RowPlace?
        /// The languages of its text, its kids' included: its /Lang when all of it is in one
        /// other than the document's (where a reader looks for it, and the only place an
        /// /Alt's can be). A kid's text counts: /Lang goes down the tree, and an English item
        /// of a list inside a Hebrew item's LBody was read as Hebrew.
        var languages = TextLanguages.none
        var language: String? { if case .one(let own) = languages { own } else { nil } }
    }

    /// The languages of an element's text so far: none yet, one (nil: the document's), or
    /// several, when neither it nor the elements around it have a /Lang.
    private enum TextLanguages {
        case none, one(String?), several

        /// Takes in `other`'s.
        mutating func add(_ other: TextLanguages) {
            switch (self, other) {
            case (_, .none): break
            case (.none, _): self = other
            case (.one(let a), .one(let b)) where a == b: break
            default: self = .several
            }
        }
    }

    private enum Kid {
        case content(page: Int, id: Int)
        case element(Int)
    }

    private mutating func begin(_ tag: StructureTag, order: RowPlace?, in content: inout PDFPageContent) {
        closeMarked(in: &content)
        let parent = openElements.last?.object ?? documentElement
        openElements.append(
            OpenElement(tag: tag, object: objects.reserve(), parent: parent, firstKid: openKids.count, order: order))
    }

    private mutating func end(_ tag: StructureTag, page: Int, in content: inout PDFPageContent) throws {
        try StructureTagBalance.checkEnd(tag, innermost: openElements.last?.tag, page: page)
        closeMarked(in: &content)
        let element = openElements.removeLast()
        guard element.firstKid < openKids.count || !element.kidsBefore.isEmpty || element.alternateText != nil else {
            // Nothing in it (an empty <p>, a translation left empty): left out of the tree, where
            // a screen reader announced a blank. Its reserved object is null.
            objects.object(element.object) { $0.append("null") }
            return
        }
        var body = ByteBuffer.take(&objectBytes)
        defer { objectBytes = ByteBuffer.take(&body) }
        body.append("<< /Type /StructElem /S /")
        body.append(string: element.tag.type)
        if let numbering = element.tag.listNumbering {
            body.append(" /A << /O /List /ListNumbering /")
            body.append(string: numbering)
            body.append(" >>")
        }
        body.append(" /P ")
        body.reference(element.parent)
        if let page = element.page {
            body.append("/Pg ")
            body.reference(page)
        }
        if let text = element.alternateText {
            body.append("/Alt ")
            body.text(text)
        }
        if let language = element.language {
            body.append("/Lang ")
            body.text(language)
        }
        body.append("/K [ ")
        func write(_ kid: Kid) {
            switch kid {
            case .element(let object):
                body.reference(object)
            case .content(let page, let id) where page == element.page:
                body.integer(id)
            case .content(let page, let id):
                body.append("<< /Type /MCR /Pg ")
                body.reference(page)
                body.append("/MCID ")
                body.integer(id)
                body.append(">> ")
            }
        }
        for kid in element.kidsBefore { write(kid) }
        for kid in openKids[element.firstKid...] { write(kid) }
        body.append("] >>")
        objects.object(element.object, body)
        openKids.removeSubrange(element.firstKid...)
        if openElements.isEmpty {
            // An element of a split row goes before those of the row that come after it and ended
            // first, on the pages its column goes on to.
            if let order = element.order {
                rowKids.append((order, UInt32(element.object)))
            } else {
                placeRowKids()
                documentKids.append(UInt32(element.object))
            }
        } else {
            openKids.append(.element(element.object))
            openElements[openElements.count - 1].languages.add(element.languages)
        }
    }

    /// The elements of a row split between pages, in the row's order (those of one place in the
    /// order as they ended: a stable sort).
    private mutating func placeRowKids() {
        guard !rowKids.isEmpty else { return }
        let sorted = rowKids.indices.sorted { a, b in
            let (x, y) = (rowKids[a].order, rowKids[b].order)
            return (x.page, x.index, a) < (y.page, y.index, b)
        }
        for kid in sorted { documentKids.append(rowKids[kid].object) }
        rowKids.removeAll(keepingCapacity: true)
    }

    /// The next of the innermost open elements ends on this page and goes on on the next.
    private mutating func suspend(_ tag: StructureTag, page: Int, in content: inout PDFPageContent) throws {
        let index = openElements.count - 1 - suspended
        guard index >= 0, openElements[index].tag == tag else {
            let open = index >= 0 ? "while \(openElements[index].tag.rawValue) is open" : "but never begun"
            throw RenderError.unbalancedTags(page: page, reason: "\(tag.rawValue) goes on on the next page \(open)")
        }
        closeMarked(in: &content)
        suspended += 1
    }

    /// Before anything but an element going on: the elements just ended with `continued` are
    /// parked, and an element from the page before that is begun again must be whole again.
    private mutating func settle(page: Int) throws {
        park()
        if carried > 0, parked[0].resumed > 0 { throw notResumed(page: page, "but something comes first") }
    }

    /// The next element carried from the page before, which this page does not begin again.
    private func notResumed(page: Int, _ why: String) -> RenderError {
        let chain = parked[0]
        return .unbalancedTags(
            page: page, reason: "\(chain.elements[chain.resumed].tag.rawValue) goes on from the previous page, \(why)")
    }

    /// Elements ended with `continued` and the elements inside them, with the kids they have so
    /// far (`kidsBefore`).
    private struct ParkedElements {
        var elements: [OpenElement]
        /// How many of `elements` the next page has begun again.
        var resumed = 0
    }

    /// Takes the elements just ended with `continued` off the open ones, until the next page
    /// begins them again.
    private mutating func park() {
        guard suspended > 0 else { return }
        let first = openElements.count - suspended
        let firstKid = openElements[first].firstKid
        // Each element's kids on this page, up to where the next one's start.
        for i in first..<openElements.count {
            let end = i + 1 < openElements.count ? openElements[i + 1].firstKid : openKids.count
            openElements[i].kidsBefore.append(contentsOf: openKids[openElements[i].firstKid..<end])
        }
        parked.append(ParkedElements(elements: Array(openElements[first...])))
        openElements.removeSubrange(first...)
        openKids.removeSubrange(firstKid...)
        suspended = 0
    }

    /// The next element a page before ended with `continued` goes on here, inside the open
    /// element it was in.
    private mutating func resume(_ tag: StructureTag, page: Int) throws {
        park()
        guard carried > 0, parked[0].elements[parked[0].resumed].tag == tag,
            parked[0].elements[parked[0].resumed].parent == openElements.last?.object ?? documentElement
        else {
            throw RenderError.unbalancedTags(
                page: page, reason: "\(tag.rawValue) goes on from the previous page, which did not end it so")
        }
        let resumed = parked[0].resumed
        var element = parked[0].elements[resumed]
        parked[0].elements[resumed].kidsBefore = []  // the element's own, not shared: appended to in place
        element.firstKid = openKids.count
        openElements.append(element)
        parked[0].resumed += 1
        if parked[0].resumed == parked[0].elements.count {
            parked.removeFirst()
            carried -= 1
        }
    }

    /// The alt text of an image, for the innermost open Figure that has none yet (a figure's
    /// alt text is that of its first image).
    private mutating func noteAlternateText(_ text: String?) {
        guard let text, let index = openElements.lastIndex(where: { $0.tag == .figure }),
            openElements[index].alternateText == nil
        else { return }
        openElements[index].alternateText = text
    }

    // MARK: - The end

    private mutating func finishDocument() throws -> [String] {
        guard !pageObjects.isEmpty else { throw RenderError.noPages }
        try StructureTagBalance.checkClosed(
            innermost: (openElements.last ?? parked.first?.elements.first)?.tag, pageCount: pageObjects.count)
        placeRowKids()
        try resources.write()

        objects.object(pagesRoot) { body in
            body.append("<< /Type /Pages /Count ")
            body.integer(pageObjects.count)
            body.append("/Kids [ ")
            for page in pageObjects {
                body.reference(Int(page))
                objects.flush(&body)
            }
            body.append("] >>")
        }

        let parentTree = objects.reserve()
        objects.object(parentTree) { body in
            body.append("<< /Nums [ ")
            for (key, array) in parentTreeArrays.enumerated() {
                body.integer(key)
                body.reference(Int(array))
                objects.flush(&body)
            }
            body.append("] >>")
        }

        var body = ByteBuffer()
        body.append("<< /Type /StructTreeRoot /K ")
        body.reference(documentElement)
        body.append("/ParentTree ")
        body.reference(parentTree)
        body.append("/ParentTreeNextKey ")
        body.integer(parentTreeArrays.count)
        body.append(">>")
        objects.object(structureRoot, body)

        objects.object(documentElement) { body in
            body.append("<< /Type /StructElem /S /Document /P ")
            body.reference(structureRoot)
            body.append("/K [ ")
            for kid in documentKids {
                body.reference(Int(kid))
                objects.flush(&body)
            }
            body.append("] >>")
        }

        let catalog = objects.reserve()
        body = ByteBuffer()
        body.append("<< /Type /Catalog /Pages ")
        body.reference(pagesRoot)
        body.append("/StructTreeRoot ")
        body.reference(structureRoot)
        body.append("/MarkInfo << /Marked true >> ")
        if let language = options.language {
            body.append("/Lang ")
            body.text(language)
        }
        if options.title != nil { body.append("/ViewerPreferences << /DisplayDocTitle true >> ") }
        body.append(">>")
        objects.object(catalog, body)

        let info = objects.reserve()
        body = ByteBuffer()
        body.append("<< /Producer (typeset) ")
        if let title = options.title {
            body.append("/Title ")
            body.text(title)
        }
        body.append(">>")
        objects.object(info, body)

        try objects.finish(root: catalog, info: info)
        do {
            try objects.file.commit()
        } catch {
            throw RenderError.write(path: error.path, reason: error.reason)
        }
        return [objects.file.path]
    }
}

/// Numbered objects written in order to a temporary file, with the offsets the
/// cross-reference table needs.
final class PDFObjectWriter {
    let file: TemporaryFile
    /// Offset of each object by number (`ObjectOffsets`); object 0 is the free-list head.
    private let offsets = ObjectOffsets()

    init(file: TemporaryFile) { self.file = file }

    /// A number for an object written later.
    func reserve() -> Int { offsets.reserve() }

    /// Writes object `number` whose body `write` appends to a buffer, which `flush(_:)` empties
    /// into the file whenever it holds 64 KB (long arrays: page lists, the parent tree).
    func object(_ number: Int, _ write: (inout ByteBuffer) -> Void) {
        begin(number)
        var body = ByteBuffer(capacity: Self.blockSize + 64)
        write(&body)
        body.withBytes { file.append($0) }
        file.append("\nendobj\n")
    }

    /// Writes `body` out if it holds a block's worth, and empties it.
    func flush(_ body: inout ByteBuffer) {
        guard body.count >= Self.blockSize else { return }
        body.withBytes { file.append($0) }
        body.removeAll()
    }

    private static let blockSize = 64 * 1024

    /// Writes object `number` with `body` (a dictionary, array, ...).
    func object(_ number: Int, _ body: borrowing ByteBuffer) {
        begin(number)
        body.withBytes { file.append($0) }
        file.append("\nendobj\n")
    }

    /// Writes object `number` as a stream of `data` (already encoded as `dictionary` says).
    func object(_ number: Int, dictionary: String, stream data: [UInt8]) {
        begin(number)
        file.append(Array("<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8))
        file.append(data)
        file.append("\nendstream\nendobj\n")
    }

    /// Content streams: compressed fast, most of a PDF's bytes and time.
    private let fast = PDFDeflater(level: 1, windowBits: 13, memoryLevel: 6)
    /// Fonts, images, CMaps: written once.
    private let thorough = PDFDeflater(level: 6)

    /// A new stream object of `data` compressed (`fast`: for content streams); returns its number.
    func stream(dictionary: String, _ data: [UInt8], fast: Bool = false) throws -> Int {
        try data.withUnsafeBytes { try stream(dictionary: dictionary, $0, fast: fast) }
    }

    func stream(dictionary: String, _ data: borrowing ByteBuffer, fast: Bool = false) throws -> Int {
        try data.withBytes { try stream(dictionary: dictionary, $0, fast: fast) }
    }

    private func stream(dictionary: String, _ data: UnsafeRawBufferPointer, fast: Bool) throws -> Int {
        guard let compressed = (fast ? self.fast : thorough).compress(data) else {
            throw RenderError.invalidInput("zlib could not compress a stream of \(data.count) bytes")
        }
        let number = reserve()
        object(number, dictionary: dictionary + " /Filter /FlateDecode", stream: compressed)
        return number
    }

    /// The room of the last object header. (Private, and each access is one statement that
    /// calls nothing else here, so none can overlap another: it goes without the run-time
    /// exclusivity check, SE-0176, which cost more than writing the header.)
    @exclusivity(unchecked) private var headerBytes = ByteBuffer(capacity: 64)

    private func begin(_ number: Int) {
        offsets.set(number, file.count)
        var header = ByteBuffer.take(&headerBytes)
        header.digits(number)
        header.append(" 0 obj\n")
        header.withBytes { file.append($0) }
        headerBytes = header
    }

    /// The cross-reference table and trailer, written a block at a time (a 10,000-page PDF has
    /// hundreds of thousands of 20-byte entries). Throws for a file its ten-digit offsets
    /// cannot address (10 GB).
    func finish(root: Int, info: Int) throws {
        let start = file.count
        guard start < 10_000_000_000 else {
            throw RenderError.write(path: file.path, reason: "a PDF of \(start) bytes is more than its cross-reference table can address")
        }
        var table = ByteBuffer(capacity: Self.blockSize + 64)
        table.append("xref\n0 ")
        table.integer(offsets.count)
        table.append("\n0000000000 65535 f \n")
        try offsets.forEach(from: 1) { offset in
            table.paddedDigits(offset, width: 10)
            table.append(" 00000 n \n")
            flush(&table)
        }
        table.append("trailer\n<< /Size ")
        table.integer(offsets.count)
        table.append("/Root ")
        table.reference(root)
        table.append("/Info ")
        table.reference(info)
        table.append(">>\nstartxref\n")
        table.digits(start)
        table.append("\n%%EOF\n")
        table.withBytes { file.append($0) }
    }
}

/// The offset of each object of a PDF by number, 5 bytes each (the cross-reference table has
/// ten digits), in blocks of 16,384. A block all of whose objects are written goes to an
/// unlinked temporary file and is read back for the table: a 10,000-page PDF has 265,000
/// objects, whose offsets (1.3 MB) grew the memory of a render with its pages. A block with an
/// object still to write (the Document element's, the page tree's, a list's that goes on over
/// pages) stays, and all of them do where no temporary file can be made or written.
final class ObjectOffsets {
    private static let perBlock = 16384
    private static let blockBytes = 5 * perBlock
    // Private, and no access to one of these overlaps another (none calls out while it lasts):
    // they go without the run-time exclusivity check (SE-0176), which cost more than writing
    // an object's header (3 accesses per object).
    /// Nil: in the file, at `index × blockBytes`.
    @exclusivity(unchecked) private var blocks: [[UInt8]?] = []
    /// For each block, its objects reserved and not yet written.
    @exclusivity(unchecked) private var unwritten: [Int] = []
    @exclusivity(unchecked) private(set) var count = 0
    /// The temporary file: -1 before it is needed, -2 when none could be made.
    @exclusivity(unchecked) private var side: Int32 = -1

    init() {
        _ = reserve()  // object 0, the free-list head: never written
        unwritten[0] = 0
    }

    deinit { if side >= 0 { close(side) } }

    /// O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`, a macro Swift does not import) on Linux.
    private static let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY

    func reserve() -> Int {
        if count % Self.perBlock == 0 {
            // The block before is full: out, if all of it is written.
            if let last = blocks.indices.last, unwritten[last] == 0 { putAway(last) }
            blocks.append([UInt8](repeating: 0, count: Self.blockBytes))
            unwritten.append(0)
        }
        unwritten[count / Self.perBlock] += 1
        count += 1
        return count - 1
    }

    /// Object `number`, reserved and not yet written, is at `offset`.
    func set(_ number: Int, _ offset: Int) {
        let block = number / Self.perBlock
        let at = number % Self.perBlock * 5
        blocks[block]!.withUnsafeMutableBufferPointer { bytes in
            for k in 0..<5 { bytes[at + k] = UInt8(truncatingIfNeeded: offset >> (8 * k)) }
        }
        unwritten[block] -= 1
        if unwritten[block] == 0 && block + 1 < blocks.count { putAway(block) }
    }

    /// Calls `body` with each offset from object `first` on, in order. Throws when a block put
    /// away cannot be read back.
    func forEach(from first: Int, _ body: (Int) -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Self.blockBytes)
        var number = first
        while number < count {
            let block = number / Self.perBlock
            let bytes: [UInt8]
            if let kept = blocks[block] {
                bytes = kept
            } else {
                let read = buffer.withUnsafeMutableBytes { pread(side, $0.baseAddress, Self.blockBytes, off_t(block * Self.blockBytes)) }
                guard read == Self.blockBytes else {
                    throw RenderError.write(path: "a temporary file", reason: String(cString: strerror(errno)))
                }
                bytes = buffer
            }
            let end = min(count, (block + 1) * Self.perBlock)
            for n in number..<end {
                let at = n % Self.perBlock * 5
                var offset = 0
                for k in 0..<5 { offset |= Int(bytes[at + k]) << (8 * k) }
                body(offset)
            }
            number = end
        }
    }

    /// Writes block `index` to the temporary file and lets it go (kept when that fails).
    private func putAway(_ index: Int) {
        if side == -1 {
            // (Unlinked from the start: nothing to remove, whatever ends the process.)
            let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            side = open(folder, ObjectOffsets.temporaryFile | O_RDWR | O_CLOEXEC, 0o600)
            if side < 0 { side = -2 }
        }
        guard side >= 0, let bytes = blocks[index] else { return }
        let written = bytes.withUnsafeBytes { pwrite(side, $0.baseAddress, Self.blockBytes, off_t(index * Self.blockBytes)) }
        if written == Self.blockBytes { blocks[index] = nil }
    }
}

/// An array that grows a fixed-size block at a time: no element is ever copied, and no more
/// than one block is unused.
struct BlockArray<Element>: RandomAccessCollection {
    private static var blockSize: Int { 16384 }
    private var blocks: [[Element]] = []
    private(set) var count = 0

    init() {}
    init(_ first: Element) { append(first) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    mutating func append(_ element: Element) {
        if count % Self.blockSize == 0 {
            blocks.append([])
            blocks[blocks.count - 1].reserveCapacity(Self.blockSize)
        }
        blocks[blocks.count - 1].append(element)
        count += 1
    }

    subscript(index: Int) -> Element {
        get { blocks[index / Self.blockSize][index % Self.blockSize] }
        set { blocks[index / Self.blockSize][index % Self.blockSize] = newValue }
    }
}
