// Markup → Document (SPEC §2, §4.4): reads the XML tree and checks every element, attribute and
// value, collecting as many errors as it can in one pass.

import FoundationEssentials
import Glibc

/// Parses `typeset` markup into a `Document`.
///
/// XML errors are fatal: parsing stops at the first one. Errors in elements and attributes are
/// collected (an element with an error is skipped, an attribute with an error is left unset) so
/// that one run reports every problem. The document is returned only when there is no error.
public enum MarkupParser {
    /// What kind of file `head` (its first twelve bytes or more) begins, when it is an image or
    /// a PDF: "a PNG image", "a PDF"; nil for anything else. Told apart from markup, they were
    /// "not valid UTF-8 (save the file as UTF-8)", the advice misleading (`render screens/*`,
    /// pictures beside the markup).
    public static func binaryKind(of head: some Collection<UInt8>) -> String? {
        guard let first = head.first, first != UInt8(ascii: "<") else { return nil }  // (markup, nearly always)
        if head.starts(with: "RIFF".utf8) && head.dropFirst(8).starts(with: "WEBP".utf8) { return "a WebP image" }
        return binaryKinds.first { head.starts(with: $0.signature) }?.name
    }

    private static let binaryKinds: [(signature: [UInt8], name: String)] = [
        (PNGFile.signature, "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"), (Array("GIF8".utf8), "a GIF image"),
        ([0x49, 0x49, 0x2A, 0x00], "a TIFF image"), ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF image"), (Array("%PDF-".utf8), "a PDF"),
    ]

    /// Inputs larger than this are refused (see `XMLReader.maximumInputBytes`).
    public static let maximumInputBytes = XMLReader.maximumInputBytes
    /// Elements nested deeper than this are refused (SPEC §2).
    public static let maximumDepth = XMLReader.maximumDepth
    /// PNGs wider or taller than this many pixels are refused: a mockup never needs them and
    /// decoding one would take gigabytes.
    public static let maximumImageSide = 16384
    /// PNGs of more pixels than this are refused: 64 MiB decoded (4 bytes a pixel), 4096 × 4096
    /// or a 3× screenshot of any phone or tablet.
    public static let maximumImagePixels = 16_777_216
    /// A document's images, each file once, may hold this many pixels together, what one PNG
    /// page may (8192 × 8192): each is decoded, and written into a PDF or SVG, anew. (Sixty-four
    /// different 4096 × 4096 PNGs of 65 KB each, within every other limit, took over a minute
    /// to a PDF.)
    public static let maximumDocumentImagePixels = 67_108_864
    /// PNG files larger than this are refused (the file is read whole to check its chunks).
    public static let maximumImageBytes = 64 * 1024 * 1024
    /// The largest page side and image size in points: PDF's largest page (200 inches).
    public static let maximumLength: Double = 14400
    /// The largest text size in points: larger than any page could hold a line of.
    public static let maximumTextSize: Double = 1000
    /// The smallest text size in points. (A size of 0.0001 was set as 0: a PDF's singular text
    /// matrix, whose words pdftotext read backwards, and nothing drawn.)
    public static let minimumTextSize: Double = 1
    /// The largest `line-height` multiple; larger values are usually points written by mistake.
    public static let maximumLineHeight: Double = 10
    /// Errors a file gets before the rest of it is passed over: a file of a million unknown
    /// elements gave a million errors in 24 s, 235 MB of JSON.
    public static let maximumErrors = 1000

    /// Parses markup given as UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents (a byte-order mark and CRLF line ends are fine).
    ///   - file: the file's path, used in every `SourceLocation`; image sources are resolved
    ///     against its folder (relative paths against the current directory).
    ///   - assetDirectories: further folders images may come from (`--assets DIR`).
    /// - Returns: the document, or nil when there is any error; and every diagnostic found.
    public static func parse(bytes: [UInt8], file: String, assetDirectories: [String] = [])
        -> (document: Document?, diagnostics: Diagnostics)
    {
        var diagnostics = Diagnostics()
        let root: XMLElement
        do {
            root = try XMLReader.read(bytes, file: file)
        } catch {
            diagnostics.report(error)
            return (nil, diagnostics)
        }
        var converter = MarkupConverter(file: file, assetDirectories: assetDirectories)
        var document = converter.document(root)
        document?.source = MarkupSource(bytes)
        // An element's attributes are checked in the order of the code, not of the input: the
        // first errors of the file are kept, those past the limit are not.
        converter.diagnostics.sortByLocation()
        let stopped = converter.diagnostics.keepErrors(upTo: maximumErrors) || converter.stoppedEarly
        if stopped, let last = converter.diagnostics.items.last {
            converter.diagnostics.report(
                .error(
                    last.location,
                    "stopped after \(converter.diagnostics.errorCount) errors; the rest of the file is not checked"))
        }
        return (converter.diagnostics.hasErrors ? nil : document, converter.diagnostics)
    }

    /// Reads the markup file at `path` and parses it; a file that cannot be read, or is larger
    /// than `maximumInputBytes`, is an error at line 1, column 1.
    public static func parse(path: String, assetDirectories: [String] = [])
        -> (document: Document?, diagnostics: Diagnostics)
    {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let bytes: [UInt8]
        do {
            bytes = try readRegularFile(path, limit: maximumInputBytes)
        } catch {
            var diagnostics = Diagnostics()
            if case .tooLarge(let size) = error {
                diagnostics.report(
                    .error(start, "the input is \(size) bytes; the limit is \(maximumInputBytes) bytes (\(maximumInputBytes >> 20) MiB)"))
            } else {
                diagnostics.report(.error(start, "cannot read the file '\(path)': \(error.reason)"))
            }
            return (nil, diagnostics)
        }
        return parse(bytes: bytes, file: path, assetDirectories: assetDirectories)
    }

    /// The files the markup at `path` names as its images (`src`, against its folder), read
    /// from its tags alone: for a document that fails, which has no `Document.imagePaths`.
    /// None when it cannot be read as XML.
    public static func imageFiles(of path: String) -> [String] {
        guard let bytes = try? readRegularFile(path, limit: maximumInputBytes),
            let root = try? XMLReader.read(bytes, file: path)
        else { return [] }
        let folder = MarkupConverter.parent(of: Path.normalized(path, relativeTo: Path.currentDirectory()))
        var files: [String] = []
        var elements = [root]
        while let element = elements.popLast() {
            if element.name == "image", let source = element.attributes.first(where: { $0.name == "src" })?.value {
                files.append(Path.normalized(source, relativeTo: folder))
            }
            for case .element(let child) in element.children { elements.append(child) }
        }
        return files
    }
}

// MARK: - Vocabulary

enum MarkupNames {
    static let document = "document"
    static let textBlockNames = ["title", "heading", "p", "label", "caption", "button"]
    static let otherBlockNames = ["list", "row", "stack", "image", "divider", "spacer"]
    static let inlineNames = ["b", "i", "span", "ltr", "rtl", "bdi", "br"]
    static let blocks = Set(textBlockNames + otherBlockNames)
    static let inlines = Set(inlineNames)
    /// The elements that hold nothing (`checkEmpty`), written `<br/>`.
    static let empty: Set<String> = ["br", "image", "divider", "spacer"]
    static let all = blocks.union(inlines).union([document, "item"]).sorted()
    /// For messages: "title, heading, p, ... or spacer", "b, i, ... or br".
    static let blockList = listPhrase(textBlockNames + otherBlockNames)
    static let inlineList = listPhrase(inlineNames)

    static let documentAttributes = [
        "lang", "dir", "width", "height", "device", "margin", "font", "font-size", "line-height",
        "numerals", "rtl-balance", "background", "color",
    ]
    static let commonBlockAttributes = [
        "lang", "dir", "align", "size", "weight", "line-height", "color", "background", "key",
    ]
    static let spanAttributes = ["lang", "dir", "size", "weight", "color", "numerals"]

    static let listAttributes = commonBlockAttributes + ["type"]
    static let imageAttributes = commonBlockAttributes + ["src", "width", "height", "flip", "alt"]
    static let spacerAttributes = commonBlockAttributes + ["height"]

    static func attributes(of element: String) -> [String] {
        switch element {
        case document: documentAttributes
        case "list": listAttributes
        case "image": imageAttributes
        case "spacer": spacerAttributes
        case "span": spanAttributes
        case _ where inlines.contains(element): []
        default: commonBlockAttributes
        }
    }

    /// Names from HTML, SwiftUI and word processors, with the element that does their job.
    static let htmlAliases = [
        "img": "image", "strong": "b", "em": "i", "ul": "list", "ol": "list", "li": "item",
        "hr": "divider", "h1": "title", "h2": "heading", "h3": "heading", "h4": "heading", "h5": "heading",
        "h6": "heading", "div": "stack", "section": "stack", "vstack": "stack", "hstack": "row",
        "body": "document", "html": "document", "bold": "b", "italic": "i", "paragraph": "p", "text": "label",
        "small": "caption", "footnote": "caption", "header": "heading", "subtitle": "heading", "figure": "image",
        "picture": "image", "separator": "divider", "rule": "divider", "space": "spacer", "btn": "button",
    ]

    /// Values of `align` that ask for full justification (CSS, word processors' and toolkits'
    /// names: `force-justify`, `NSTextAlignmentJustified`, Word's `lowKashida` and
    /// `thaiDistribute`, GTK's `fill`, Android's `inter_word`), refused by SPEC §4.4 with its
    /// reason, in any case and with any dashes, underscores or spaces. One that starts with a
    /// side is not one: "left-justified" is typesetters' flush left, told the values there are
    /// ("justify-left", justified with its last line at the left, is one).
    static func isJustification(_ value: String) -> Bool {
        let word = String(value.lowercased().unicodeScalars.filter { !"-_ ".unicodeScalars.contains($0) })
        if ["left", "right", "center", "centre", "start", "end"].contains(where: word.hasPrefix) { return false }
        return word.contains("justif") || word.contains("kashida") || word.contains("distribute")
            || ["full", "fill", "block", "both", "interword", "intercharacter", "interideograph"].contains(word)
    }
}

/// The closest name to `name` among `candidates` by edit distance, if it is close enough to be
/// a likely typo (an edit for every three letters, one at least, and at least one character
/// kept: a one-letter name is no typo of 'b'; with two edits for up to five letters, `<sup>`
/// was asked about 'p', `<table>` about 'title' and flip="ltr" about 'rtl'). Of equally close
/// names, the one sharing the longest beginning wins: 'iphone-x' is 'iphone-xs', not 'iphone-8'.
public func closestName(to name: String, among candidates: [String]) -> String? {
    let lowered = name.lowercased()
    let length = lowered.count
    let allowed = max(1, length / 3)
    var best: (name: String, distance: Int, prefix: Int)?
    // (A candidate longer or shorter by more than the edits allowed is none: measuring a
    // name of megabytes against each took seconds, the distance's time their product.)
    for candidate in candidates where abs(candidate.count - length) <= allowed {
        let distance = editDistance(lowered, candidate)
        let prefix = zip(lowered, candidate).prefix { $0 == $1 }.count
        if let best, distance > best.distance || (distance == best.distance && prefix <= best.prefix) { continue }
        best = (candidate, distance, prefix)
    }
    guard let best, best.distance <= allowed, best.distance < length else { return nil }
    return best.name
}

/// Edit distance in Characters: insertions, deletions, substitutions and swaps of two
/// neighbours, each one edit (optimal string alignment), since a swap is a common typo:
/// "titel" is one edit from "title" and two from "item".
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}

/// "a, b or c".
func listPhrase(_ items: [String], conjunction: String = "or") -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + (items.last ?? "")
}

// MARK: - Conversion

/// Walks the XML tree once.
///
/// Recursion follows element nesting, which the reader caps at 256.
struct MarkupConverter {
    var diagnostics = Diagnostics()
    /// The document's folder, absolute and lexically normalized.
    let directory: String
    /// Folders images may come from, lexically normalized.
    let imageRoots: [String]
    /// The same with symlinks resolved: asked of the file system at the first image (most
    /// documents have none, and a batch parses thousands).
    private var resolvedImageRoots: [String]?
    /// The pixels of the document's images so far, each file once (`maximumDocumentImagePixels`).
    private var imagePixels = 0
    private var countedImages: Set<String> = []
    /// `differentlySpelled` of each missing image's path, asked once (it lists folders: a
    /// thousand `<image src="café.png">` in a folder of 20,000 files took 6.5 s).
    private var spellingHints: [String: String?] = [:]

    init(file: String, assetDirectories: [String]) {
        let currentDirectory = Path.currentDirectory()
        let absoluteFile = Path.normalized(file, relativeTo: currentDirectory)
        let directory = MarkupConverter.parent(of: absoluteFile)
        self.directory = directory
        imageRoots =
            [directory] + assetDirectories.map { Path.normalized($0, relativeTo: currentDirectory) }
    }

    private mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.report(.error(location, message, hint: hint))
    }

    /// Whether the file has given `MarkupParser.maximumErrors`: the loops over children stop,
    /// and `stoppedEarly` says whether one had more to check.
    var tooManyErrors: Bool { diagnostics.errorCount >= MarkupParser.maximumErrors }
    private(set) var stoppedEarly = false

    /// Whether to pass over the rest of an element's children (after too many errors).
    private mutating func stopsHere() -> Bool {
        if tooManyErrors { stoppedEarly = true }
        return stoppedEarly
    }

    // MARK: Document

    mutating func document(_ element: XMLElement) -> Document? {
        guard element.name == MarkupNames.document else {
            // A misspelt or capitalised `document` is asked about, not told to wrap itself.
            let hint =
                element.name.lowercased() == MarkupNames.document ? "element names are case-sensitive: write <document>"
                : closestName(to: element.name, among: [MarkupNames.document]) != nil ? "did you mean 'document'?"
                : "wrap the content in <document>...</document>"
            error(element.location, "the root element must be 'document', not '\(element.name)'", hint: hint)
            return nil
        }
        let attributes = attributeValues(of: element)
        var document = Document(location: element.location, directory: directory)
        document.lang = attributes.language("lang", &diagnostics)
        document.dir = attributes.keyword("dir", DirectionSetting.self, &diagnostics)
        document.width = attributes.number(
            "width", minimum: .positive, maximum: MarkupParser.maximumLength, &diagnostics)
        document.height = attributes.number(
            "height", minimum: .positive, maximum: MarkupParser.maximumLength, &diagnostics)
        document.device = attributes.keyword(
            "device", DevicePreset.self, what: "one of the device presets", &diagnostics)
        document.margin = attributes.number(
            "margin", minimum: .zero, maximum: MarkupParser.maximumLength, &diagnostics)
        document.fontFamilies = attributes.fontFamilies("font", &diagnostics)
        document.fontLocation = attributes.location(of: "font")
        document.fontSize = attributes.number(
            "font-size", minimum: .atLeast(MarkupParser.minimumTextSize), maximum: MarkupParser.maximumTextSize, &diagnostics)
        document.lineHeight = attributes.number(
            "line-height", minimum: .positive, maximum: MarkupParser.maximumLineHeight,
            what: "a multiple of the font size", &diagnostics)
        document.numerals = attributes.keyword("numerals", NumeralSetting.self, &diagnostics)
        document.rtlBalance = attributes.number(
            "rtl-balance", minimum: .zero, maximum: MarkupParser.maximumTextSize, &diagnostics)
        document.background = attributes.color("background", &diagnostics)
        document.color = attributes.color("color", &diagnostics)
        if let device = document.device {
            for (name, length) in [("width", document.width), ("height", document.height)] {
                guard length != nil, let location = attributes.location(of: name) else { continue }
                diagnostics.report(
                    .warning(
                        location, "'\(name)' overrides the \(name) of device '\(device.rawValue)'",
                        hint: "leave out '\(name)' to use the device's"))
            }
        }
        checkRoomForText(document, attributes)
        document.blocks = blocks(in: element)
        return document
    }

    /// A margin must leave some of the page for text: across, a point at least, the narrowest
    /// box text is set in (32.0000001 pt inside 16 pt margins was taken, with a warning for each
    /// block); down, anything (each line then stands at the top of a page of its own, cut off,
    /// with a warning).
    private mutating func checkRoomForText(_ document: Document, _ attributes: AttributeValues) {
        let margin = document.margin ?? Document.defaultMargin
        // Across, what it needs; down, more than nothing.
        let sides: [(name: String, length: Double?, needs: Double?)] = [
            ("width", document.pageWidth, 1), ("height", document.pageHeight, nil),
        ]
        for (name, length, needs) in sides {
            guard let length else { continue }
            let room = length - 2 * margin
            guard needs.map({ room < $0 }) ?? (room <= 0) else { continue }
            let lacking = needs.map { "less than \(format($0)) pt" } ?? "none"
            // The page size is what was given, or one that no margin leaves room in: say so, not
            // that the margin is wrong (a margin of 0 was told to be "at most 0").
            let tooSmall = needs.map { length < $0 } ?? false
            if document.margin == nil || tooSmall, let location = attributes.location(of: name) {
                let enough = needs.map { "at least \(format(((2 * margin + $0) * 100).rounded(.up) / 100))" } ?? "more than \(format(2 * margin))"
                let margins = document.margin == nil ? "the default \(format(margin)) pt margins" : "\(format(margin)) pt margins"
                error(
                    location,
                    "attribute '\(name)' accepts a length in points that leaves room for text: a page "
                        + "\(format(length)) pt in \(name) has \(lacking) inside \(margins)",
                    hint: "make it \(enough)" + (tooSmall ? "" : ", or set a smaller margin"))
                continue
            }
            let location =
                attributes.location(of: "margin") ?? attributes.location(of: name)
                ?? attributes.location(of: "device") ?? document.location
            error(
                location,
                "attribute 'margin' accepts a length in points that leaves room for text: a margin of "
                    + "\(format(margin)) pt on each side of a page \(format(length)) pt in \(name) leaves \(lacking)",
                // Down to hundredths: "at most 15.504999999999999" for a page 32.01 pt wide, and 15.505 was refused.
                hint: needs.map { "use a margin of at most \(format((max(0, (length - $0) / 2) * 100).rounded(.down) / 100))" }
                    ?? "use a margin smaller than \(format(length / 2))")
        }
    }

    // MARK: Blocks

    /// For text where only blocks may stand: what its first character is, when it shows
    /// nothing (a no-break space in an indent, a byte-order mark where two files were joined),
    /// and the place the error names looked blank.
    private static func unseen(_ text: XMLText) -> String {
        guard let first = text.value.unicodeScalars.first(where: { !MarkupSource.isWhiteSpace($0.value) }), showsNothing(first)
        else { return "" }
        return ": it begins with U+\(hexCodePoint(first.value)), which shows as nothing"
    }

    /// The children of `document`, `row` or `stack`: blocks only.
    private mutating func blocks(in parent: XMLElement) -> [Block] {
        var blocks: [Block] = []
        for child in parent.children {
            if stopsHere() { break }
            switch child {
            case .text(let text):
                if let location = text.contentLocation {
                    error(
                        location, "text is not allowed directly inside '\(parent.name)'" + Self.unseen(text),
                        hint: "put it in a <p> or <label>")
                }
            case .element(let element):
                if MarkupNames.blocks.contains(element.name) {
                    if let block = block(element) { blocks.append(block) }
                } else if element.name == "item" {
                    error(
                        element.location, "'item' is only allowed inside 'list', not inside '\(parent.name)'",
                        hint: "wrap the items in <list>")
                } else {
                    misplacedOrUnknown(
                        element, in: parent.name, expected: "block elements: \(MarkupNames.blockList)",
                        valid: MarkupNames.textBlockNames + MarkupNames.otherBlockNames)
                }
            }
        }
        return blocks
    }

    /// `valid`: the names allowed where `element` is, among which a misspelt one is guessed
    /// (`<spn>` among blocks was asked "did you mean 'span'?", an inline element not allowed
    /// there), before the others.
    private mutating func misplacedOrUnknown(_ element: XMLElement, in parent: String, expected: String, valid: [String]) {
        let name = element.name
        if name == MarkupNames.document {
            error(element.location, "'document' is only allowed as the root element")
        } else if MarkupNames.inlines.contains(name) {
            error(
                element.location,
                "'\(name)' is an inline element: it is allowed only inside title, heading, p, label, "
                    + "caption, button or item, not inside '\(parent)'")
        } else if MarkupNames.blocks.contains(name) || name == "item" {
            // A list in an item, as HTML nests lists, is one after the item in the list.
            let nested = name == "list" && parent == "item"
            error(
                element.location, "'\(name)' is a block element and is not allowed inside '\(parent)'",
                hint: nested
                    ? "a nested list follows its item, inside the outer list: <list><item>…</item><list>…</list></list>"
                    : "'\(parent)' accepts \(expected)")
        } else {
            // An HTML name's own element only where that is allowed (`<small>` in a <p> was
            // asked about 'caption', a block); a spelling is guessed among the names allowed here.
            let alias = MarkupNames.htmlAliases[name.lowercased()].flatMap { valid.contains($0) ? $0 : nil }
            let suggestion =
                alias ?? closestName(to: name, among: valid)
                // A misspelled alias, for an element allowed here: `<paragraf>` got only the list of
                // every block. (An edit for every four letters: `<code>` is not `<body>`.)
                ?? (name.count < 5 ? nil : MarkupNames.htmlAliases.keys.sorted().first { alias in
                    abs(alias.count - name.count) <= name.count / 4 && editDistance(name.lowercased(), alias) <= name.count / 4
                        && valid.contains(MarkupNames.htmlAliases[alias] ?? "")
                }.flatMap { MarkupNames.htmlAliases[$0] })
            // A misspelt element not allowed here is named with where it goes (`<spn>` among
            // blocks is a span, to put in a text block; it was asked about 'p', two edits away),
            // and so is an HTML name's own element among blocks (`<li>` in a document is an
            // item, not an 'i'; inside text, `<small>` is no caption).
            let blockAlias = valid.contains("span") ? nil : MarkupNames.htmlAliases[name.lowercased()]
            let elsewhere = suggestion == nil ? blockAlias ?? closestName(to: name, among: MarkupNames.all) : nil
            error(
                element.location, "unknown element '\(name)'",
                hint: suggestion.map { "did you mean '\($0)'?" }
                    ?? elsewhere.map { "did you mean '\($0)'? It is not allowed inside '\(parent)', which accepts \(expected)" }
                    ?? "'\(parent)' accepts \(expected)")
        }
    }

    private mutating func block(_ element: XMLElement) -> Block? {
        let attributes = attributeValues(of: element)
        let style = blockStyle(attributes)
        let key = attributes.key(&diagnostics)
        let kind: BlockKind?
        switch element.name {
        case "list":
            let marker = attributes.keyword("type", ListMarker.self, &diagnostics)
            kind = .list(ListBlock(marker: marker, items: listItems(element, align: style.align)))
        case "row":
            kind = .row(blocks(in: element))
        case "stack":
            kind = .stack(blocks(in: element))
        case "image":
            kind = image(element, attributes)
            checkEmpty(element)
        case "divider":
            kind = .divider
            checkEmpty(element)
        case "spacer":
            kind = .spacer(
                height: attributes.number(
                    "height", minimum: .zero, maximum: MarkupParser.maximumLength, &diagnostics))
            checkEmpty(element)
        default:
            guard let role = TextRole(rawValue: element.name) else { return nil }
            kind = .text(role, textContent(element))
        }
        guard let kind else { return nil }
        warnAboutAttributesWithoutEffect(element.name, attributes)
        return Block(kind: kind, style: style, key: key, location: element.location)
    }

    /// Common block attributes that mean nothing on some elements (SPEC §2 lists them for all):
    /// accepted, since they are valid, but not silently. Lists, rows and stacks pass `align`,
    /// `size`, `weight`, `line-height` and `color` on to their children and draw their
    /// `background` behind them; an image's `key` localizes its `alt`.
    static let attributesWithoutEffect: [String: [String]] = [
        "image": ["size", "weight", "line-height", "color", "background"],
        "divider": ["align", "size", "weight", "line-height", "background", "key"],
        "spacer": ["lang", "dir", "align", "size", "weight", "line-height", "color", "background", "key"],
        "list": ["key"],
        "row": ["key"],
        "stack": ["key"],
    ]

    private mutating func warnAboutAttributesWithoutEffect(_ element: String, _ attributes: AttributeValues) {
        guard !attributes.attributes.isEmpty else { return }  // most elements have none
        for name in MarkupConverter.attributesWithoutEffect[element] ?? [] {
            guard let location = attributes.location(of: name) else { continue }
            diagnostics.report(
                .warning(location, "'\(name)' has no effect on '\(element)'", hint: "leave it out"))
        }
    }

    private mutating func blockStyle(_ attributes: AttributeValues) -> BlockStyle {
        BlockStyle(
            lang: attributes.language("lang", &diagnostics),
            dir: attributes.keyword("dir", DirectionSetting.self, &diagnostics),
            align: attributes.alignment("align", &diagnostics),
            size: attributes.number(
                "size", minimum: .atLeast(MarkupParser.minimumTextSize), maximum: MarkupParser.maximumTextSize, &diagnostics),
            weight: attributes.keyword("weight", FontWeight.self, &diagnostics),
            lineHeight: attributes.number(
                "line-height", minimum: .positive, maximum: MarkupParser.maximumLineHeight,
                what: "a multiple of the font size", &diagnostics),
            color: attributes.color("color", &diagnostics),
            background: attributes.color("background", &diagnostics))
    }

    private mutating func listItems(_ list: XMLElement, align listAlign: TextAlignment?) -> [Block] {
        var items: [Block] = []
        var aligned: [(align: TextAlignment, location: SourceLocation)] = []  // items with an `align` of their own
        for child in list.children {
            if stopsHere() { break }
            switch child {
            case .text(let text):
                if let location = text.contentLocation {
                    error(
                        location, "text is not allowed directly inside 'list'" + Self.unseen(text),
                        hint: "put it in an <item>")
                }
            case .element(let element) where element.name == "item":
                let attributes = attributeValues(of: element)
                let style = blockStyle(attributes)
                let key = attributes.key(&diagnostics)
                if let align = style.align, let location = attributes.location(of: "align") {
                    aligned.append((align, location))
                }
                items.append(
                    Block(
                        kind: .text(.item, textContent(element)), style: style, key: key,
                        location: element.location))
            case .element(let element) where element.name == "list":
                // A nested list belongs to the item before it (SPEC 4.2: indented on the start side).
                if let nested = block(element) { items.append(nested) }
            case .element(let element):
                if MarkupNames.blocks.contains(element.name) || MarkupNames.inlines.contains(element.name) {
                    error(
                        element.location,
                        "'list' can only contain 'item' and nested 'list' elements, not '\(element.name)'",
                        // An item holds text: a row or stack wrapped in one was refused in turn.
                        hint: element.name == "br" ? "put it in an <item>, or leave it out"
                            : TextRole(rawValue: element.name) != nil || MarkupNames.inlines.contains(element.name)
                            ? "wrap its text in <item>" : "put it before or after the list")
                } else {
                    misplacedOrUnknown(element, in: "list", expected: "only 'item' elements", valid: ["item", "list"])
                }
            }
        }
        // Set, but said: the items of a list share one alignment (SPEC 4.2), and one item's own
        // put it apart from the others without a word. (Not when every item has the same.)
        func natural(_ align: TextAlignment?) -> TextAlignment { align ?? .natural }
        let textItems = items.filter { if case .text = $0.kind { true } else { false } }
        if Set(textItems.map { natural($0.style.align ?? listAlign) }).count > 1 {
            for (align, location) in aligned where natural(align) != natural(listAlign) {
                diagnostics.report(.warning(
                    location, "'align' on an item sets it apart from the other items of its list, which share one alignment",
                    hint: "put 'align' on the list"))
            }
        }
        return items
    }

    /// `image`, `divider` and `spacer` hold nothing.
    private mutating func checkEmpty(_ element: XMLElement) {
        for child in element.children {
            if stopsHere() { break }
            switch child {
            case .text(let text):
                guard let location = text.contentLocation else { continue }
                error(location, "'\(element.name)' takes no content")
            case .element(let inner):
                error(inner.location, "'\(element.name)' takes no content, found '\(inner.name)'")
            }
            return
        }
    }

    // MARK: Inline content

    /// HTML-style white-space collapsing across a whole text block.
    ///
    /// A run of XML white space is one space, dropped at the block's start and end and around a
    /// line break (`br`, a new line written as a reference, U+2028, U+2029, U+0085). The space
    /// is where its run begins, with that text's style, as in HTML: "Total " of `<span
    /// size="40">Total </span>$5` ends with a 40 pt space (the $5's text had it). A space at
    /// either end of an isolate's text goes outside it (`MovedSpaces`).
    private struct WhiteSpaceState {
        var pendingSpace = false
        var atLineStart = true
        /// The last character written is a space, which ended its text: it stays only if more
        /// text follows on the line (`dropSpace`), and the white space after it adds none.
        var spaceEnds = false
        /// On return from `inlines(in:)`: a line ended after such a space, which is before the
        /// element's inlines, in its parent's: the parent removes it.
        var spaceToDrop = false
    }

    private mutating func textContent(_ element: XMLElement) -> [Inline] {
        var state = WhiteSpaceState()
        var content = inlines(in: element, &state)
        if state.spaceEnds { _ = Self.dropSpace(atEnd: true, of: &content) }
        return content
    }

    /// Removes the space that ends (`atEnd`) or begins the text of `inlines`, inside spans and
    /// isolates too: whether there was one, or nil when they hold no text (nor a line break,
    /// where text ends and begins), and the space is beyond them.
    private static func dropSpace(atEnd: Bool, of inlines: inout [Inline]) -> Bool? {
        var index = atEnd ? inlines.count - 1 : 0
        while inlines.indices.contains(index) {
            defer { index += atEnd ? -1 : 1 }
            switch inlines[index].kind {
            case .text(let text):
                guard (atEnd ? text.utf8.last : text.utf8.first) == 0x20 else { return false }
                // The space's byte alone: as a Character, the space took the combining mark after
                // it (" \u{301}x" at an isolate's start lost its accent, as collapsing keeps it).
                let kept = String(decoding: atEnd ? text.utf8.dropLast() : text.utf8.dropFirst(), as: UTF8.self)
                if kept.isEmpty { inlines.remove(at: index) } else { inlines[index].kind = .text(kept) }
                return true
            case .span(let element, let style, var children):
                guard let found = dropSpace(atEnd: atEnd, of: &children) else { continue }
                if found { inlines[index].kind = .span(element, style, children) }
                return found
            case .isolate(let kind, var children):
                guard let found = dropSpace(atEnd: atEnd, of: &children) else { continue }
                if found { inlines[index].kind = .isolate(kind, children) }
                return found
            case .lineBreak:
                return false
            }
        }
        return nil
    }

    /// At a line's end: a space that ended the text before goes. True when it is before `output`.
    private static func endLine(_ output: inout [Inline], _ state: inout WhiteSpaceState) -> Bool {
        let before = state.spaceEnds && dropSpace(atEnd: true, of: &output) == nil
        state = WhiteSpaceState()
        return before
    }

    private mutating func inlines(in parent: XMLElement, _ state: inout WhiteSpaceState) -> [Inline] {
        var output: [Inline] = []
        var spaceBefore = false  // a line ended after a space that is before `output`
        for child in parent.children {
            if stopsHere() { break }
            switch child {
            case .text(let text):
                // White space is ASCII, so the UTF-8 bytes can be collapsed one by one, straight
                // into the string's storage, as long as the text (each space stands for a byte).
                var value = text.value
                var spaces = state  // a local: through `inout`, every byte stored it back
                var lineEndAfterSpace = false
                let collapsed = value.withUTF8 { bytes in
                    String(unsafeUninitializedCapacity: bytes.count) { output in
                        var count = 0
                        var k = 0
                        while k < bytes.count {
                            let byte = bytes[k]
                            k += 1
                            if byte <= 0x20, byte == 0x20 || byte == 0x09 || byte == 0x0A {
                                if !spaces.atLineStart, !spaces.spaceEnds { spaces.pendingSpace = true }
                                continue
                            }
                            // A line end, as a `br` is, with no space on either side (" two" began
                            // a line): `Unicode.Scalar.endsLine` in UTF-8, but for the new line
                            // typed in the file, which is white space: a new line from a reference
                            // (`&#xA;`, `&#xD;`, a CR by now), U+2028 (what `br` becomes), U+2029
                            // and U+0085 typed in the text. (VT and FF are not XML characters.)
                            let lineEnd = byte == 0x0D ? 1
                                : byte == 0xE2 && k + 1 < bytes.count && bytes[k] == 0x80 && bytes[k + 1] & 0xFE == 0xA8 ? 3
                                : byte == 0xC2 && k < bytes.count && bytes[k] == 0x85 ? 2 : 0
                            if lineEnd > 0 {
                                for j in 0..<lineEnd { output[count + j] = bytes[k - 1 + j] }
                                count += lineEnd
                                k += lineEnd - 1
                                lineEndAfterSpace = lineEndAfterSpace || spaces.spaceEnds
                                spaces = WhiteSpaceState()
                                continue
                            }
                            if spaces.pendingSpace {
                                output[count] = 0x20
                                count += 1
                            }
                            output[count] = byte
                            count += 1
                            spaces = WhiteSpaceState(atLineStart: false)
                        }
                        if spaces.pendingSpace {
                            output[count] = 0x20
                            count += 1
                            spaces = WhiteSpaceState(atLineStart: false, spaceEnds: true)
                        }
                        return count
                    }
                }
                // (A line end only after a space before this text's first character.)
                if lineEndAfterSpace && Self.dropSpace(atEnd: true, of: &output) == nil { spaceBefore = true }
                state = spaces
                if !collapsed.isEmpty {
                    output.append(Inline(kind: .text(collapsed), location: text.contentLocation ?? text.location))
                }
            case .element(let element):
                guard MarkupNames.inlines.contains(element.name) else {
                    misplacedOrUnknown(
                        element, in: parent.name, expected: "text and inline elements: \(MarkupNames.inlineList)",
                        valid: MarkupNames.inlineNames)
                    continue
                }
                if element.name == "br" {
                    _ = attributeValues(of: element)
                    checkEmpty(element)
                    if Self.endLine(&output, &state) { spaceBefore = true }
                    output.append(Inline(kind: .lineBreak, location: element.location))
                    continue
                }
                let (content, moved) = inline(element, &state)
                if state.spaceToDrop {
                    state.spaceToDrop = false
                    if Self.dropSpace(atEnd: true, of: &output) == nil { spaceBefore = true }
                }
                if moved.first, let space = moved.space {
                    if case .text(let previous) = output.last?.kind, case .text = space.kind {
                        output[output.count - 1].kind = .text(previous + " ")
                    } else {
                        output.append(space)
                    }
                }
                output.append(content)
                if moved.last, let space = moved.space {  // (it ends the text: a line's end drops it)
                    output.append(space)
                    state = WhiteSpaceState(atLineStart: false, spaceEnds: true)
                }
            }
        }
        state.spaceToDrop = spaceBefore
        return output
    }

    /// The spaces at the ends of an isolate's text go outside it, out of its direction: one
    /// that begins it (`مرحبا<ltr> Wi-Fi</ltr>`, where inside it stood on the isolate's far
    /// side and "Wi-Fi" touched "مرحبا") before it, one that ends it (`<ltr>+1 555 </ltr>`)
    /// after it. `space` is what they are: a space in the style of a `dir` span but its
    /// direction (`<span dir="ltr" size="40">Total </span>` ends with a 40 pt space).
    private struct MovedSpaces {
        var first = false
        var last = false
        var space: Inline?
    }

    /// The element's inline, and the spaces taken out of an isolate's ends.
    private mutating func inline(_ element: XMLElement, _ state: inout WhiteSpaceState) -> (Inline, MovedSpaces) {
        let attributes = attributeValues(of: element)
        switch element.name {
        case "b", "i":
            let bold = element.name == "b"
            let style = bold ? InlineStyle(weight: .bold) : InlineStyle(italic: true)
            return (Inline(kind: .span(bold ? .b : .i, style, inlines(in: element, &state)), location: element.location), MovedSpaces())
        case "span":
            let style = InlineStyle(
                lang: attributes.language("lang", &diagnostics),
                dir: attributes.keyword("dir", DirectionSetting.self, &diagnostics),
                size: attributes.number(
                    "size", minimum: .atLeast(MarkupParser.minimumTextSize), maximum: MarkupParser.maximumTextSize, &diagnostics),
                weight: attributes.keyword("weight", FontWeight.self, &diagnostics),
                color: attributes.color("color", &diagnostics),
                numerals: attributes.keyword("numerals", NumeralSetting.self, &diagnostics))
            var children = inlines(in: element, &state)
            var moved = MovedSpaces()
            if style.dir != nil {  // (an isolate too)
                var outside = style
                outside.dir = nil
                moved = Self.moveSpacesOut(of: &children, &state, style: outside, location: element.location)
            }
            return (Inline(kind: .span(.span, style, children), location: element.location), moved)
        default:
            let isolate = IsolateKind(rawValue: element.name) ?? .bdi
            var children = inlines(in: element, &state)
            let moved = Self.moveSpacesOut(of: &children, &state, style: InlineStyle(), location: element.location)
            return (Inline(kind: .isolate(isolate, children), location: element.location), moved)
        }
    }

    private static func moveSpacesOut(
        of children: inout [Inline], _ state: inout WhiteSpaceState, style: InlineStyle, location: SourceLocation
    ) -> MovedSpaces {
        var moved = MovedSpaces()
        moved.last = state.spaceEnds && dropSpace(atEnd: true, of: &children) == true
        if moved.last { state.spaceEnds = false }
        moved.first = dropSpace(atEnd: false, of: &children) == true
        if moved.first || moved.last {
            let space = Inline(kind: .text(" "), location: location)
            moved.space = style == InlineStyle() ? space : Inline(kind: .span(.span, style, [space]), location: location)
        }
        return moved
    }

    // MARK: Images

    private mutating func image(_ element: XMLElement, _ attributes: AttributeValues) -> BlockKind? {
        let width = attributes.number(
            "width", minimum: .positive, maximum: MarkupParser.maximumLength, &diagnostics)
        let height = attributes.number(
            "height", minimum: .positive, maximum: MarkupParser.maximumLength, &diagnostics)
        let flip = attributes.keyword("flip", ImageFlip.self, &diagnostics)
        let alt = attributes.string("alt")
        guard let source = attributes.string("src"), let location = attributes.location(of: "src") else {
            error(element.location, "'image' needs a 'src' attribute: the path of a PNG file")
            return nil
        }
        guard let (path, pixelWidth, pixelHeight) = checkedPNG(source, at: location) else { return nil }
        if countedImages.insert(path).inserted {
            let before = imagePixels
            imagePixels += pixelWidth * pixelHeight
            if imagePixels > MarkupParser.maximumDocumentImagePixels {
                if before <= MarkupParser.maximumDocumentImagePixels {  // (said once)
                    error(
                        location,
                        "with '\(source)', the images of this document hold more than "
                            + "\(BlockLayouter.grouped(MarkupParser.maximumDocumentImagePixels)) pixels together (8192 × 8192)",
                        hint: "use smaller images: a mockup shows them a few hundred points wide")
                }
                return nil
            }
        }
        // (An image without `alt` is warned about where its key, if any, is looked up: `BlockLayouter`.)
        return .image(
            ImageBlock(
                source: source, path: path, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                width: width, height: height, flip: flip, alt: alt))
    }

    /// A hint for a file not found at `path` (absolute) that is there with names on the way in
    /// other code points ("café.png" with its é decomposed, as macOS writes names, where the
    /// markup has it composed) or in other letter case ("Logo.png" for "logo.png": a Mac's disk
    /// takes one for the other, and a document that worked there failed on a Linux CI runner).
    /// File names on Linux are bytes, and the message named the very file the user could see.
    /// (Each folder on the way is listed only when a name is missing from it.)
    static func differentlySpelled(_ path: String) -> String? {
        var folder = ""
        var start: String?  // the folder of the first name spelled otherwise on the way
        var otherCase = false
        var otherCodePoints = false
        for component in Path.components(path) {
            var next = folder + "/" + component
            if access(next, F_OK) != 0 {
                let entries = listing(folder.isEmpty ? "/" : folder)
                // (Swift's == compares canonical equivalence; the scalars tell the spellings apart.)
                let otherPoints = entries.first {
                    $0 == component && !$0.unicodeScalars.elementsEqual(component.unicodeScalars)
                }
                if let twin = otherPoints {
                    otherCodePoints = true
                    next = folder + "/" + twin
                } else if let twin = entries.first(where: { $0.lowercased() == component.lowercased() }) {
                    otherCase = true
                    next = folder + "/" + twin
                } else {
                    return nil
                }
                if start == nil { start = folder }
            }
            folder = next
        }
        // Said only when the file is there so spelled (a folder so spelled without it is no
        // help), as it is spelled from the first name that differs on (each that does).
        guard let start else { return nil }
        let how = [
            otherCase ? "in other letter case (a Mac's disk takes one for the other, Linux's does not)" : nil,
            otherCodePoints ? "in other Unicode code points (composed or decomposed, as macOS writes names)" : nil,
        ].compactMap { $0 }.joined(separator: " and ")
        return "'\(start.isEmpty ? "/" : start)' has '\(folder.dropFirst(start.count + 1))', the same path \(how); "
            + "rename it or write 'src' as it is named"
    }

    /// The names in `folder`, listed again only when it changed (its modification time): a
    /// batch of 300 documents missing one image in a folder of 6,000 files listed it for each,
    /// 0.43 s against 0.08. At most 64 folders are kept.
    private static func listing(_ folder: String) -> [String] {
        guard let version = FileVersion(path: folder, folder: true) else { return [] }
        if let known = listings.withLock({ $0[folder] }), known.version == version { return known.names }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        listings.withLock { known in
            if known.count >= 64 { known.removeAll() }
            known[folder] = (version, names)
        }
        return names
    }
    private static let listings = Locked<[String: (version: FileVersion, names: [String])]>([:])

    /// Resolves `source` against the document's folder, keeps it inside the allowed folders
    /// (first by its written path, so that `..` cannot probe outside, then with symlinks
    /// resolved) and checks the PNG (`PNGFile.check`, once per version of the file).
    private mutating func checkedPNG(_ source: String, at location: SourceLocation) -> (String, Int, Int)? {
        guard !source.isEmpty else {
            error(location, "attribute 'src' accepts the path of a PNG file, not ''")
            return nil
        }
        // A path that ends in '/' names a folder, whatever file its name has (it showed `a.png`).
        guard !Path.endsInSlash(source) else {
            error(location, "image '\(source)' ends in '/', which names a folder; 'src' takes a PNG file")
            return nil
        }
        // A web address is no file ("https://example.com/logo.png" was looked for as the
        // folder "https:").
        if let colon = source.firstIndex(of: ":"), source[..<colon].count > 1,
            source[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "+" || $0 == "-" || $0 == ".") }),
            source[colon...].hasPrefix("://")
        {
            error(
                location, "image '\(source)' is an address; 'src' takes the path of a PNG file",
                hint: "download the image next to the document and give its file name")
            return nil
        }
        let escapeHint = "keep images inside the document's folder, or allow another folder with --assets DIR"
        var lexical = Path.normalized(source, relativeTo: directory)
        guard imageRoots.contains(where: { MarkupConverter.isInside(lexical, $0) }) else {
            error(location, "image '\(source)' is outside the document's folder", hint: escapeHint)
            return nil
        }
        // A relative path the document's folder does not have is looked for in each asset
        // folder in turn (`src="logo.png"` with `--assets shared` was not found in `shared`).
        var found = Path.realPath(lexical)
        if found == nil, !source.hasPrefix("/") {
            for root in imageRoots.dropFirst() {
                let candidate = Path.normalized(source, relativeTo: root)
                if MarkupConverter.isInside(candidate, root), let real = Path.realPath(candidate) {
                    (lexical, found) = (candidate, real)
                    break
                }
            }
        }
        guard let resolved = found else {
            var status = stat()
            let isLink = lstat(lexical, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
            if !isLink && spellingHints[lexical] == nil { spellingHints[lexical] = Self.differentlySpelled(lexical) }
            // (A link to nothing, or in a loop, was said not to exist.)
            error(
                location, "image '\(source)' \(isLink ? "is a symbolic link that leads to no file" : "does not exist") (looked for \(lexical))",
                hint: isLink ? nil : spellingHints[lexical] ?? nil)
            return nil
        }
        let resolvedRoots = resolvedImageRoots ?? imageRoots.map { Path.realPath($0) ?? $0 }
        resolvedImageRoots = resolvedRoots
        guard resolvedRoots.contains(where: { MarkupConverter.isInside(resolved, $0) }) else {
            error(
                location, "image '\(source)' is outside the document's folder (through a symbolic link)",
                hint: escapeHint)
            return nil
        }
        let version = FileVersion(path: resolved)
        let checked: Result<PNGFile.Size, PNGProblem>
        if let version, let known = PNGFile.checked.withLock({ $0[version] }) {
            checked = known
        } else {
            let limit = MarkupParser.maximumImageBytes
            let bytes: [UInt8]
            do {
                bytes = try readRegularFile(resolved, limit: limit)
            } catch let problem {
                let message =
                    switch problem {
                    case .tooLarge: "image '\(source)' is larger than \(limit / (1024 * 1024)) MiB"
                    case .unreadable(let why?): "image '\(source)' is not a readable file (\(why))"
                    default: "image '\(source)' is not a readable file"
                    }
                error(location, message)
                return nil
            }
            let result = PNGFile.size(of: bytes)
            checked = version.map { PNGFile.remember($0, result) } ?? result
        }
        switch checked {
        case .success(let size):
            return (resolved, size.width, size.height)
        case .failure(let problem):
            let hint = problem.message.hasPrefix("not a PNG") ? "'src' accepts PNG images only" : nil
            error(location, "image '\(source)' is \(problem.message)", hint: hint)
            return nil
        }
    }

    // MARK: Paths

    static func parent(of path: String) -> String {
        // By byte: a search by Character made a string of each one it passed.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    // MARK: Attributes

    /// CSS's and other usual names of attributes the markup names otherwise, with the names they
    /// mean (the first an element accepts is suggested): too far from them to be suggested as
    /// typos are ("font-size" is five edits from "size", "language" four from "lang").
    static let otherNames: [String: [String]] = [
        "font-size": ["size"], "font-weight": ["weight"], "text-align": ["align"], "background-color": ["background"],
        "direction": ["dir"], "font-family": ["font"], "language": ["lang"], "xml:lang": ["lang"], "fontsize": ["size", "font-size"],
        "fontweight": ["weight"], "textalign": ["align"], "lineheight": ["line-height"], "size": ["font-size"],
    ]

    /// Checks the attribute names of `element` and returns the known ones.
    private mutating func attributeValues(of element: XMLElement) -> AttributeValues {
        var values = AttributeValues()
        guard !element.attributes.isEmpty else { return values }  // most elements have none
        let accepted = MarkupNames.attributes(of: element.name)
        for attribute in element.attributes {
            if accepted.contains(attribute.name) {
                values.attributes.append(attribute)
                continue
            }
            if stopsHere() { continue }  // known attributes are still read (an image's `src`)
            let hint: String
            // An attribute of a few other elements is named as such, before a spelling is
            // guessed: `<divider height>` was asked "did you mean 'weight'?". (One that most
            // blocks take is not listed: the element's own attributes say more.)
            let owners = MarkupNames.all.filter { MarkupNames.attributes(of: $0).contains(attribute.name) }
            if attribute.name.lowercased() == "text-size" {
                // (It was asked "did you mean 'font-size'?", the body's size in points.)
                hint = "a text size (Large, AX1, …) is chosen with the --text-size option, not in the markup"
            } else if let suggestion = Self.otherNames[attribute.name.lowercased()]?.first(where: accepted.contains) {
                hint = "did you mean '\(suggestion)'?"
            } else if (1...3).contains(owners.count) {
                hint = "it is an attribute of \(listPhrase(owners.map { "'\($0)'" }, conjunction: "and")), not of '\(element.name)'"
            } else if owners.count > 3 && !accepted.isEmpty {
                // A block attribute where blocks' are not taken (`<document weight>` was asked
                // "did you mean 'height'?").
                // Named by text blocks that use it (`key` on a stack has no effect).
                let examples = ["p", "label", "title", "button"].filter(owners.contains)
                let named = (examples.count >= 2 ? Array(examples.prefix(2)) : Array(owners.prefix(2))).map { "'\($0)'" }
                hint = "it is an attribute of blocks such as \(listPhrase(named, conjunction: "and")), not of '\(element.name)'"
            } else if let suggestion = closestName(to: attribute.name, among: accepted) {
                hint = "did you mean '\(suggestion)'?"
            } else if accepted.isEmpty {
                hint = "'\(element.name)' takes no attributes"
            } else {
                hint = "'\(element.name)' accepts \(listPhrase(accepted))"
            }
            error(attribute.location, "unknown attribute '\(attribute.name)' on '\(element.name)'", hint: hint)
        }
        return values
    }
}

/// The known attributes of one element, read into typed values.
///
/// Each reader reports a value it cannot accept, naming the attribute and what it accepts, and
/// returns nil.
struct AttributeValues {
    /// In the order written, each name once (the reader refuses duplicates). A list: an element
    /// has a few, mostly none, and each of a block's dozen readers looks its name up, which in a
    /// dictionary meant hashing it.
    var attributes: [XMLAttribute] = []

    private func named(_ name: String) -> XMLAttribute? {
        for attribute in attributes where attribute.name == name { return attribute }
        return nil
    }

    func location(of name: String) -> SourceLocation? { named(name)?.location }

    func string(_ name: String) -> String? { named(name)?.value }

    private func trimmed(_ name: String) -> (String, XMLAttribute)? {
        guard let attribute = named(name) else { return nil }
        return (AttributeValues.trimmingWhitespace(attribute.value), attribute)
    }

    /// `value` without leading and trailing white space, at once for the usual value that starts
    /// and ends with a printable ASCII character.
    static func trimmingWhitespace(_ value: String) -> String {
        let isPrintableASCII = { (byte: UInt8?) in byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if isPrintableASCII(value.utf8.first) && isPrintableASCII(value.utf8.last) { return value }
        return value.trimmingWhitespace()
    }

    private func reject(
        _ attribute: XMLAttribute, accepts: String, _ diagnostics: inout Diagnostics, hint: String? = nil
    ) {
        diagnostics.report(
            .error(
                attribute.location,
                "attribute '\(attribute.name)' accepts \(accepts), not '\(attribute.value)'", hint: hint))
    }

    enum Minimum { case zero, positive, atLeast(Double) }

    /// A plain decimal number (`12`, `12.5`, `.5`), within the given bounds.
    func number(
        _ name: String, minimum: Minimum, maximum: Double, what: String = "a length in points",
        _ diagnostics: inout Diagnostics
    ) -> Double? {
        guard let (text, attribute) = trimmed(name) else { return nil }
        func accepts() -> String {
            let bound = switch minimum {
            case .zero: "0 or more"
            case .positive: "greater than 0"
            case .atLeast(let least): "at least \(format(least))"
            }
            return "\(what), \(bound) and at most \(format(maximum))"
        }
        guard let value = AttributeValues.parseDecimal(text) else {
            // An example in the range (`line-height` takes at most 10: '16' was suggested).
            let example = maximum >= 16 ? "'16' or '1.5'" : "'1.5'"
            reject(attribute, accepts: accepts(), &diagnostics, hint: "write a plain number such as \(example)")
            return nil
        }
        let tooSmall = switch minimum {
        case .zero: value < 0
        case .positive: value <= 0
        case .atLeast(let least): value < least
        }
        guard !tooSmall, value <= maximum else {
            reject(attribute, accepts: accepts(), &diagnostics)
            return nil
        }
        return value
    }

    /// `-?digits[.digits]` or `-?.digits`: no exponents, no units, no inf or nan.
    static func parseDecimal(_ text: String) -> Double? {
        var integer: UInt64 = 0  // the digits without the point, while they are few
        var digits = 0
        var decimals = 0
        var sawPoint = false
        var lastPartIsEmpty = true
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0:
                continue
            case UInt8(ascii: "."):
                guard !sawPoint else { return nil }
                sawPoint = true
                lastPartIsEmpty = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits < 15 { integer = integer * 10 + UInt64(byte - UInt8(ascii: "0")) }
                digits += 1
                if sawPoint { decimals += 1 }
                lastPartIsEmpty = false
            default:
                return nil
            }
        }
        guard !lastPartIsEmpty else { return nil }
        // Up to 15 digits and 10^15 are exact doubles, so one division rounds as `Double(text)`
        // does (correctly); longer numbers are left to it.
        guard digits <= 15 else { return Double(text) }
        let magnitude = Double(integer) / Self.powersOfTen[decimals]
        return text.utf8.first == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    func keyword<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Value.Type, what: String? = nil, _ diagnostics: inout Diagnostics
    ) -> Value? where Value.RawValue == String {
        guard let (text, attribute) = trimmed(name) else { return nil }
        if let value = Value(rawValue: text) { return value }
        let names = Value.allCases.map(\.rawValue)
        let accepts = (what.map { $0 + " " } ?? "") + listPhrase(names)
        let synonym = Self.keywordSynonyms[name]?[text.lowercased()]
        let hint = (synonym ?? closestName(to: text, among: names)).map { "did you mean '\($0)'?" }
        reject(attribute, accepts: accepts, &diagnostics, hint: hint)
        return nil
    }

    /// Other tools' names for keywords (CSS's, HTML's), by the keyword they mean where one of an
    /// attribute's is: `weight="700"`, `type="disc"` and `dir="right"` were told only what is
    /// accepted, no edit being close enough to suggest one.
    /// By attribute (`flip="right"` is no direction).
    static let keywordSynonyms: [String: [String: String]] = [
        "weight": [
            "100": "thin", "200": "thin", "extralight": "thin", "ultralight": "thin", "hairline": "thin",
            "300": "light", "400": "regular", "normal": "regular", "book": "regular", "500": "medium",
            "600": "semibold", "demibold": "semibold", "700": "bold", "800": "bold", "900": "bold",
            "extrabold": "bold", "heavy": "bold", "black": "bold",
        ],
        "type": [
            "disc": "bullet", "circle": "bullet", "square": "bullet", "bullets": "bullet", "unordered": "bullet",
            "decimal": "number", "numbered": "number", "ordered": "number", "numbers": "number",
        ],
        "dir": ["right": "rtl", "right-to-left": "rtl", "left": "ltr", "left-to-right": "ltr"],
        // UIKit's and SwiftUI's names; the digits' names (the README's "Eastern Arabic digits").
        "align": ["leading": "start", "trailing": "end", "centre": "center", "middle": "center"],
        "numerals": [
            "eastern": "arab", "eastern-arabic": "arab", "arabic-indic": "arab", "arabic": "arab", "hindi": "arab",
            "persian": "arabext", "farsi": "arabext", "urdu": "arabext", "extended": "arabext", "western": "latn",
            "latin": "latn", "european": "latn", "ascii": "latn", "bengali": "beng", "devanagari": "deva",
            "burmese": "mymr", "myanmar": "mymr", "tibetan": "tibt", "native": "auto", "default": "auto",
        ],
    ]

    /// CSS's basic color names and their values.
    static let colorNames: [String: String] = [
        "black": "#000000", "white": "#FFFFFF", "red": "#FF0000", "green": "#008000", "blue": "#0000FF",
        "yellow": "#FFFF00", "orange": "#FFA500", "purple": "#800080", "gray": "#808080", "grey": "#808080",
        "silver": "#C0C0C0", "transparent": "#00000000",
    ]

    /// `align`, refusing full justification with the reason SPEC §4.4 gives.
    func alignment(_ name: String, _ diagnostics: inout Diagnostics) -> TextAlignment? {
        guard let (text, attribute) = trimmed(name) else { return nil }
        if MarkupNames.isJustification(text) {
            diagnostics.report(
                .error(
                    attribute.location,
                    "attribute 'align' does not accept '\(attribute.value)': text is never fully justified: "
                        + "evenly spread words form rivers and make text hard to read",
                    hint: "use align=\"natural\""))
            return nil
        }
        return keyword(name, TextAlignment.self, &diagnostics)
    }

    func color(_ name: String, _ diagnostics: inout Diagnostics) -> Color? {
        guard let (text, attribute) = trimmed(name) else { return nil }
        if let color = Color(hex: text) { return color }
        // A CSS color name is told its value (`color="red"` was told only the form), and so is
        // CSS's short form, "#F00".
        var hint = Self.colorNames[text.lowercased()].map { "write '\($0)' for \(text.lowercased())" }
        let digits = text.dropFirst()
        if text.hasPrefix("#"), digits.count == 3 || digits.count == 4, digits.allSatisfy(\.isHexDigit) {
            hint = "write '#\(String(digits.flatMap { [$0, $0] }).uppercased())' for \(text)"
        }
        reject(attribute, accepts: "a color as #RRGGBB or #RRGGBBAA (hexadecimal)", &diagnostics, hint: hint)
        return nil
    }

    func language(_ name: String, _ diagnostics: inout Diagnostics) -> String? {
        guard let (text, attribute) = trimmed(name) else { return nil }
        if Language.isWellFormed(tag: text) {
            // In the case BCP 47 recommends, as `--locale` is: `AR-eg` is `ar-EG` in the JSON,
            // the PDF and the SVG (a script comparing tags saw two spellings of one language),
            // and `iw` is `he`.
            guard let problem = Language.unassignedLanguageProblem(tag: text) else {
                // (A bare current language in lower case, as most are, is so already.)
                let isBare = text.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) && Language.deprecatedCodes[text] == nil
                    && Language.twoLetterCodes[text] == nil
                // Digits of a `-u-nu-` extension typeset does not show: numerals="auto" shows
                // the language's usual ones (`--locale` refuses them; a `lang` is still the
                // language it names).
                if let digits = Language.unshownDigits(of: text) {
                    diagnostics.report(.warning(
                        attribute.location,
                        "'\(text)' asks for the digits '\(digits)', which typeset does not show: "
                            + "numerals=\"auto\" shows the language's usual ones instead",
                        hint: "typeset shows \(NumberingSystem.namesShown)"))
                }
                return isBare ? text : Language.canonical(tag: text)
            }
            reject(attribute, accepts: "a BCP 47 language tag such as 'en', 'ar' or 'he-IL'", &diagnostics, hint: problem)
            return nil
        }
        let hint =
            text.contains("_") && Language.isWellFormed(tag: text.replacing("_", with: "-"))
            ? "BCP 47 separates subtags with '-': '\(text.replacing("_", with: "-"))'" : nil
        reject(attribute, accepts: "a BCP 47 language tag such as 'en', 'ar' or 'he-IL'", &diagnostics, hint: hint)
        return nil
    }

    /// `font`: comma-separated family names, optionally quoted; as in CSS, a comma inside
    /// quotes is part of the name.
    func fontFamilies(_ name: String, _ diagnostics: inout Diagnostics) -> [String]? {
        guard let attribute = named(name) else { return nil }
        var pieces: [Substring] = []
        var start = attribute.value.startIndex
        var quote: Character?
        var atStart = true  // only white space since the last comma: a quote there opens a name
        for index in attribute.value.indices {
            let character = attribute.value[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "," {
                pieces.append(attribute.value[start..<index])
                start = attribute.value.index(after: index)
                atStart = true
            } else if atStart && (character == "\"" || character == "'") {
                quote = character
                atStart = false
            } else if !character.isWhitespace {
                atStart = false
            }
        }
        pieces.append(attribute.value[start...])
        let families = pieces.map {
            $0.trimming { $0.isWhitespace }.trimming { $0 == "\"" || $0 == "'" }
        }
        guard families.allSatisfy({ !$0.isEmpty }) else {
            reject(
                attribute, accepts: "comma-separated font family names such as 'Noto Sans, Noto Sans Arabic'",
                &diagnostics)
            return nil
        }
        return families
    }

    /// `key`: any non-empty string-catalog key.
    func key(_ diagnostics: inout Diagnostics) -> String? {
        guard let attribute = named("key") else { return nil }
        guard !attribute.value.isEmpty else {
            reject(attribute, accepts: "a non-empty string-catalog key", &diagnostics)
            return nil
        }
        return attribute.value
    }
}
