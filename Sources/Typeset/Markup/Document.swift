// The parsed markup (SPEC §2): immutable values that later stages read. Attributes the markup
// leaves out are nil here; the stages apply the defaults below and the inheritance of SPEC §4.

/// A parsed, validated `<document>`.
public struct Document: Sendable, Hashable {
    /// SPEC §2 defaults of the `<document>` attributes.
    public static let defaultLanguage = "en"
    public static let defaultDirection = DirectionSetting.auto
    public static let defaultWidth: Double = 390
    public static let defaultMargin: Double = 16
    public static let defaultFontSize: Double = 17
    public static let defaultLineHeight: Double = 1.3
    public static let defaultRTLBalance: Double = 2
    public static let defaultBackground = Color.white
    public static let defaultColor = Color.black

    /// `lang`: a well-formed BCP 47 tag as written.
    public var lang: String?
    /// `dir`: the context (interface) direction.
    public var dir: DirectionSetting?
    /// `width`, `height` in points, as written; see `pageWidth` and `pageHeight`.
    public var width: Double?
    public var height: Double?
    public var device: DevicePreset?
    public var margin: Double?
    /// `font`: family names in the order to try them (quotes and spaces around names removed).
    public var fontFamilies: [String]?
    /// Where `font` was written, for the warning about a family no font has.
    public var fontLocation: SourceLocation?
    public var fontSize: Double?
    public var lineHeight: Double?
    public var numerals: NumeralSetting?
    public var rtlBalance: Double?
    public var background: Color?
    public var color: Color?
    public var blocks: [Block]
    /// The `<document>` start tag.
    public var location: SourceLocation
    /// The absolute folder of the document, against which image sources were resolved.
    public var directory: String
    /// The bytes it was parsed from, for warnings that point into its text.
    public var source: MarkupSource?

    public init(
        lang: String? = nil, dir: DirectionSetting? = nil, width: Double? = nil, height: Double? = nil,
        device: DevicePreset? = nil, margin: Double? = nil, fontFamilies: [String]? = nil,
        fontSize: Double? = nil, lineHeight: Double? = nil, numerals: NumeralSetting? = nil,
        rtlBalance: Double? = nil, background: Color? = nil, color: Color? = nil, blocks: [Block] = [],
        location: SourceLocation, directory: String
    ) {
        self.lang = lang
        self.dir = dir
        self.width = width
        self.height = height
        self.device = device
        self.margin = margin
        self.fontFamilies = fontFamilies
        self.fontSize = fontSize
        self.lineHeight = lineHeight
        self.numerals = numerals
        self.rtlBalance = rtlBalance
        self.background = background
        self.color = color
        self.blocks = blocks
        self.location = location
        self.directory = directory
    }

    /// The page width: `width`, else the device's, else 390.
    public var pageWidth: Double { width ?? device?.width ?? Document.defaultWidth }
    /// The page height: `height`, else the device's; nil when the page grows to fit its content.
    public var pageHeight: Double? { height ?? device?.height }
}

/// `dir`: `ltr`, `rtl` or `auto` (from `lang`, else the first strong character; SPEC §4).
public enum DirectionSetting: String, Sendable, Hashable, CaseIterable {
    case ltr, rtl, auto
}

/// `align` (SPEC §4.1, §4.4).
///
/// `start`/`end` follow the context direction, `left`/`right` are physical, `natural` applies the
/// paragraph-language rule. There is deliberately no `justify`.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
    case natural, start, end, center, left, right
}

/// `weight`, with the CSS numeric weight for font matching.
public enum FontWeight: String, Sendable, Hashable, CaseIterable {
    case thin, light, regular, medium, semibold, bold

    public var numericValue: Int {
        switch self {
        case .thin: 100
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        }
    }
}

/// `numerals`: a digit set, or `auto` for the locale's default (`Language.defaultNumberingSystem`).
public enum NumeralSetting: String, Sendable, Hashable, CaseIterable {
    case latn, arab, arabext, beng, deva, mymr, tibt, olck, cakm, auto

    /// The digits to show for text in `locale`.
    public func numberingSystem(locale: String) -> NumberingSystem {
        NumberingSystem(rawValue: rawValue) ?? Language.defaultNumberingSystem(locale: locale)
    }
}

/// `device`: page sizes in points from the iOS screen sizes (SPEC §2).
public enum DevicePreset: String, Sendable, Hashable, CaseIterable {
    case iphoneSE = "iphone-se"
    case iphone8 = "iphone-8"
    case iphone8Plus = "iphone-8-plus"
    case iphoneXS = "iphone-xs"
    case iphoneXR = "iphone-xr"
    case iphoneXSMax = "iphone-xs-max"
    case ipadMini = "ipad-mini"
    case ipad = "ipad"
    case ipadPro10Point5 = "ipad-pro-10.5"
    case ipadPro12Point9 = "ipad-pro-12.9"

    public var width: Double { size.width }
    public var height: Double { size.height }

    private var size: (width: Double, height: Double) {
        switch self {
        case .iphoneSE: (320, 568)
        case .iphone8: (375, 667)
        case .iphone8Plus: (414, 736)
        case .iphoneXS: (375, 812)
        case .iphoneXR, .iphoneXSMax: (414, 896)
        case .ipadMini, .ipad: (768, 1024)
        case .ipadPro10Point5: (834, 1112)
        case .ipadPro12Point9: (1024, 1366)
        }
    }
}

// MARK: - Blocks

/// A block element with its common attributes.
public struct Block: Sendable, Hashable {
    public var kind: BlockKind
    public var style: BlockStyle
    /// `key`: a string-catalog key (SPEC §5.2); the block's own text is the fallback.
    public var key: String?
    /// The start tag.
    public var location: SourceLocation

    public init(kind: BlockKind, style: BlockStyle = BlockStyle(), key: String? = nil, location: SourceLocation) {
        self.kind = kind
        self.style = style
        self.key = key
        self.location = location
    }

    /// The element name, as the layout JSON's `kind` reports it (`p`, `item`, `row`, ...).
    public var elementName: String {
        switch kind {
        case .text(let role, _): role.rawValue
        case .list: "list"
        case .row: "row"
        case .stack: "stack"
        case .image: "image"
        case .divider: "divider"
        case .spacer: "spacer"
        }
    }
}

public enum BlockKind: Sendable, Hashable {
    /// title, heading, p, label, caption, button, or a list's item.
    case text(TextRole, [Inline])
    case list(ListBlock)
    /// Children side by side in equal widths, the first at the start side of the context.
    case row([Block])
    /// Children one above the other.
    case stack([Block])
    case image(ImageBlock)
    case divider
    /// `height` in points; nil when not given (`Block.defaultSpacerHeight`).
    case spacer(height: Double?)
}

extension Document {
    /// The PNGs the document shows (absolute, symbolic links resolved), in document order.
    public var imagePaths: [String] { images.map(\.path) }

    /// Where the document shows the picture at `path` (symbolic links resolved): its first
    /// <image> of it.
    public func imageLocation(_ path: String) -> SourceLocation? {
        guard let real = Path.realPath(path) else { return nil }
        return images.first { Path.realPath($0.path) == real }?.location
    }

    /// Where the document's first element with a `key` is; nil when none has one.
    public var firstKeyLocation: SourceLocation? {
        var found: SourceLocation?
        visitBlocks { block in
            if block.key != nil { found = block.location }
            return found == nil
        }
        return found
    }

    /// The PNGs the document shows and their <image> elements, in document order.
    private var images: [(path: String, location: SourceLocation)] {
        var images: [(path: String, location: SourceLocation)] = []
        visitBlocks { block in
            if case .image(let image) = block.kind { images.append((image.path, block.location)) }
            return true
        }
        return images
    }

    /// Calls `visit` with every block, those in rows, stacks and lists too, in document order,
    /// until it returns false.
    private func visitBlocks(_ visit: (Block) -> Bool) {
        func walk(_ blocks: [Block]) -> Bool {
            for block in blocks {
                guard visit(block) else { return false }
                let inner: [Block] =
                    switch block.kind {
                    case .row(let children), .stack(let children): children
                    case .list(let list): list.items
                    default: []
                    }
                guard walk(inner) else { return false }
            }
            return true
        }
        _ = walk(blocks)
    }
}

extension Block {
    /// The height of a `<spacer>` without `height` (SPEC §2 is silent; one body line's worth).
    public static let defaultSpacerHeight: Double = 16
    /// Space between the children of a `row` (SPEC §2).
    public static let rowSpacing: Double = 8
    /// The smallest size of a button (SPEC §2, HIG hit targets).
    public static let minimumButtonSize: Double = 44
}

/// The element of a text block, with the default style SPEC §2 gives it.
public enum TextRole: String, Sendable, Hashable, CaseIterable {
    case title, heading
    case paragraph = "p"
    case label, caption, button, item

    /// Point size at a Dynamic Type size (`textSize`: its body size, 14 … 53, 17 for Large) in
    /// a document whose body is `documentSize`: the size iOS gives the element's text style at
    /// that size (SPEC §5.3: every style scales with the body), scaled as the document's body is
    /// to 17. A title is Large Title, a heading Title 2 and a caption Caption 1; the rest are
    /// body text. iOS grows titles less than body text (Large Title 60 pt at AX5, where the body
    /// is 53): scaled as the body, a title was 106 pt there, and broke "Privacy" in two.
    public func defaultSize(textSize: Double = Document.defaultFontSize, documentSize: Double = Document.defaultFontSize) -> Double {
        let scale = documentSize / Document.defaultFontSize
        let sizes: [Double]
        switch self {
        case .title: sizes = [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .heading: sizes = [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .caption: sizes = [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .paragraph, .label, .button, .item: return textSize * scale
        }
        // Between two of the body sizes, in proportion; past the ends, as the body grows.
        let bodies = TextRole.bodySizes
        guard textSize > bodies[0] else { return sizes[0] * textSize / bodies[0] * scale }
        guard let upper = bodies.firstIndex(where: { $0 >= textSize }) else {
            return sizes[sizes.count - 1] * textSize / bodies[bodies.count - 1] * scale
        }
        let fraction = (textSize - bodies[upper - 1]) / (bodies[upper] - bodies[upper - 1])
        return (sizes[upper - 1] + fraction * (sizes[upper] - sizes[upper - 1])) * scale
    }

    /// How the element's text grows at `textSize` against Large, as `UIFontMetrics(forTextStyle:)`
    /// scales a custom size: a size in the markup and the RTL balance grow so. (Grown as the
    /// body, a `<title size="34">`, the default title's size, was 106 pt at AX5 against the
    /// default's 60, and a `<caption size="12">` smaller than the default caption.)
    public func scale(textSize: Double) -> Double { defaultSize(textSize: textSize) / defaultSize() }

    /// The Dynamic Type sizes and their body sizes (SPEC §5.3), which `defaultSize`'s tables
    /// follow (iOS's text styles at each).
    public static let dynamicTypeSizes: [(name: String, body: Double)] = [
        ("xSmall", 14), ("Small", 15), ("Medium", 16), ("Large", 17), ("xLarge", 19), ("xxLarge", 21),
        ("xxxLarge", 23), ("AX1", 28), ("AX2", 33), ("AX3", 40), ("AX4", 47), ("AX5", 53),
    ]
    private static let bodySizes = dynamicTypeSizes.map(\.body)

    public var defaultWeight: FontWeight {
        switch self {
        case .title, .heading: .bold
        case .button: .semibold
        case .paragraph, .label, .caption, .item: .regular
        }
    }

    public var defaultAlignment: TextAlignment { self == .button ? .center : .natural }

    /// SPEC §4.3: only these are RTL-balanced next to all-caps Latin.
    public var isBalanced: Bool { self == .title || self == .heading || self == .label || self == .button }
}

/// `<list>`: each item is a `Block` of kind `.text(.item, _)`, or a nested `.list` that belongs to
/// the item before it.
public struct ListBlock: Sendable, Hashable {
    /// `type`; nil means `ListBlock.defaultMarker`.
    public var marker: ListMarker?
    public var items: [Block]

    public static let defaultMarker = ListMarker.bullet

    public init(marker: ListMarker? = nil, items: [Block]) {
        self.marker = marker
        self.items = items
    }
}

public enum ListMarker: String, Sendable, Hashable, CaseIterable {
    case bullet, number, none
}

/// `<image>`: a checked PNG inside the document's folder or an asset folder.
public struct ImageBlock: Sendable, Hashable {
    /// `src` as written.
    public var source: String
    /// The absolute path of the PNG, symlinks resolved.
    public var path: String
    /// Size in pixels, from the PNG's IHDR chunk.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// `width`, `height` in points as written; see `size`.
    public var width: Double?
    public var height: Double?
    /// `flip`; nil means `ImageFlip.never`.
    public var flip: ImageFlip?
    public var alt: String?

    public init(
        source: String, path: String, pixelWidth: Int, pixelHeight: Int, width: Double? = nil,
        height: Double? = nil, flip: ImageFlip? = nil, alt: String? = nil
    ) {
        self.source = source
        self.path = path
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.width = width
        self.height = height
        self.flip = flip
        self.alt = alt
    }

    /// The size in points: the attributes given, the other side in the PNG's aspect ratio, or
    /// one point per pixel when neither is given, or per two or three for a file named as iOS
    /// names its images at those scales (`icon@2x.png`, `icon@3x~iphone.png`: `nameScale`).
    public var size: (width: Double, height: Double) {
        let aspect = Double(pixelWidth) / Double(pixelHeight)
        switch (width, height) {
        case (let width?, let height?): return (width, height)
        case (let width?, nil): return (width, width / aspect)
        case (nil, let height?): return (height * aspect, height)
        case (nil, nil):
            let scale = Double(nameScale)
            return (Double(pixelWidth) / scale, Double(pixelHeight) / scale)
        }
    }

    /// The scale the file's name gives as UIKit reads it: 2 for `name@2x.png`, 3 for
    /// `name@3x.png` or `name@3x~ipad.png`; 1 otherwise.
    public var nameScale: Int {
        var name = Substring(Path.lastComponent(source))
        if let dot = name.lastIndex(of: ".") { name = name[..<dot] }
        for device in ["~iphone", "~ipad", "~mac", "~tv", "~watch", "~vision"] where name.lowercased().hasSuffix(device) {
            name = name.dropLast(device.count)
        }
        if name.hasSuffix("@2x") { return 2 }
        if name.hasSuffix("@3x") { return 3 }
        return 1
    }
}

/// `flip`: images are never mirrored, except `rtl` in a right-to-left context (SPEC §4.6).
public enum ImageFlip: String, Sendable, Hashable, CaseIterable {
    case never, rtl
}

/// The common block attributes; nil when not written (inherit or use the role's default).
public struct BlockStyle: Sendable, Hashable {
    public var lang: String?
    public var dir: DirectionSetting?
    public var align: TextAlignment?
    /// `size` in points.
    public var size: Double?
    public var weight: FontWeight?
    /// `line-height` as a multiple of the largest size on a line.
    public var lineHeight: Double?
    public var color: Color?
    public var background: Color?

    public init(
        lang: String? = nil, dir: DirectionSetting? = nil, align: TextAlignment? = nil,
        size: Double? = nil, weight: FontWeight? = nil, lineHeight: Double? = nil,
        color: Color? = nil, background: Color? = nil
    ) {
        self.lang = lang
        self.dir = dir
        self.align = align
        self.size = size
        self.weight = weight
        self.lineHeight = lineHeight
        self.color = color
        self.background = background
    }
}

// MARK: - Inline content

/// A piece of a text block's content.
///
/// White space is already collapsed as in HTML: each run of XML white space is one space, none at
/// the start or end of a block or around `<br/>`.
public struct Inline: Sendable, Hashable {
    public var kind: InlineKind
    public var location: SourceLocation

    public init(kind: InlineKind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

public enum InlineKind: Sendable, Hashable {
    case text(String)
    /// `<br/>`.
    case lineBreak
    /// `<b>` (style.weight = bold), `<i>` (style.italic = true) or `<span>` (its attributes).
    case span(SpanElement, InlineStyle, [Inline])
    /// `<ltr>`, `<rtl>`, `<bdi>`: directional isolates.
    case isolate(IsolateKind, [Inline])
}

public enum SpanElement: String, Sendable, Hashable, CaseIterable {
    case b, i, span
}

/// The isolate an element stands for (UAX #9): LRI, RLI or FSI, each closed by PDI.
public enum IsolateKind: String, Sendable, Hashable, CaseIterable {
    case ltr, rtl, bdi

    public var initiator: Unicode.Scalar {
        switch self {
        case .ltr: "\u{2066}"
        case .rtl: "\u{2067}"
        case .bdi: "\u{2068}"
        }
    }
    public static let terminator: Unicode.Scalar = "\u{2069}"
}

/// Inline attributes; nil when not written (inherit from the enclosing span or block).
public struct InlineStyle: Sendable, Hashable {
    public var lang: String?
    public var dir: DirectionSetting?
    public var size: Double?
    public var weight: FontWeight?
    /// true inside `<i>`.
    public var italic: Bool?
    public var color: Color?
    public var numerals: NumeralSetting?

    public init(
        lang: String? = nil, dir: DirectionSetting? = nil, size: Double? = nil,
        weight: FontWeight? = nil, italic: Bool? = nil, color: Color? = nil,
        numerals: NumeralSetting? = nil
    ) {
        self.lang = lang
        self.dir = dir
        self.size = size
        self.weight = weight
        self.italic = italic
        self.color = color
        self.numerals = numerals
    }

    /// This style with every attribute `inner` sets replacing this one's.
    public func overridden(by inner: InlineStyle) -> InlineStyle {
        InlineStyle(
            lang: inner.lang ?? lang, dir: inner.dir ?? dir, size: inner.size ?? size,
            weight: inner.weight ?? weight, italic: inner.italic ?? italic,
            color: inner.color ?? color, numerals: inner.numerals ?? numerals)
    }
}

/// A stretch of text with one cascaded style: what `Inline.styledText` flattens a tree into.
public struct StyledText: Sendable, Hashable {
    public var text: String
    public var style: InlineStyle
    public var location: SourceLocation

    public init(text: String, style: InlineStyle, location: SourceLocation) {
        self.text = text
        self.style = style
        self.location = location
    }
}

extension Array where Element == Inline {
    /// The content as a flat list of styled text in logical order.
    ///
    /// Each piece has the style cascaded from its enclosing spans (innermost wins). Isolates
    /// become LRI/RLI/FSI … PDI characters, as does a `<span dir>` (`auto` → FSI, as HTML
    /// isolates a `dir` on inline elements), and `<br/>` becomes U+2028 LINE SEPARATOR, a
    /// mandatory break (UAX #14 BK), which layout takes for the end of a bidi paragraph as a
    /// browser takes a `<br>` (`BidiParagraph.init(breakingAtLineEnds:direction:)`). Adjacent
    /// pieces are not merged.
    public func styledText() -> [StyledText] {
        var output: [StyledText] = []
        Inline.flatten(self, style: InlineStyle(), into: &output)
        return output
    }
}

extension Inline {
    /// Recursion is bounded by the markup's nesting limit (256).
    fileprivate static func flatten(_ inlines: [Inline], style: InlineStyle, into output: inout [StyledText]) {
        for inline in inlines {
            switch inline.kind {
            case .text(let text):
                output.append(StyledText(text: text, style: style, location: inline.location))
            case .lineBreak:
                output.append(StyledText(text: "\u{2028}", style: style, location: inline.location))
            case .span(_, let spanStyle, let children):
                let inner = style.overridden(by: spanStyle)
                let isolate: IsolateKind? =
                    switch spanStyle.dir {
                    case .ltr: .ltr
                    case .rtl: .rtl
                    case .auto: .bdi
                    case nil: nil
                    }
                if let isolate {
                    isolated(isolate, children, style: style, inner: inner, location: inline.location, into: &output)
                } else {
                    flatten(children, style: inner, into: &output)
                }
            case .isolate(let kind, let children):
                isolated(kind, children, style: style, inner: style, location: inline.location, into: &output)
            }
        }
    }

    /// `children` between `kind`'s initiator and PDI; an isolate of no text is left out, as
    /// an empty element is (`<ltr></ltr>` after the last `<br/>` made a third, empty line, and
    /// a two-line paragraph took §4.1's alignment of three), and so is one of `<br/>`s only.
    private static func isolated(
        _ kind: IsolateKind, _ children: [Inline], style: InlineStyle, inner: InlineStyle, location: SourceLocation,
        into output: inout [StyledText]
    ) {
        let start = output.count
        output.append(StyledText(text: String(kind.initiator), style: style, location: location))
        flatten(children, style: inner, into: &output)
        // The isolate closes before the `<br/>`s it ends with: its PDI alone after the last one
        // made that empty line too (`two<ltr>three<br/></ltr>`). So it does before the line
        // ends its text ends with (`three&#xA;`, a CR by then, or U+2028 typed after "three").
        var end = output.count
        if end > start + 1, output[end - 1].text.unicodeScalars.last?.endsLine == true {
            let scalars = Array(output[end - 1].text.unicodeScalars)
            var cut = scalars.count
            while cut > 0, scalars[cut - 1].endsLine { cut -= 1 }
            var breaks = output[end - 1]
            breaks.text = String(String.UnicodeScalarView(scalars[cut...]))
            output[end - 1].text = String(String.UnicodeScalarView(scalars[..<cut]))
            output.append(breaks)  // (`end` stays: the breaks are past it)
        }
        while end > start + 1, output[end - 1].text.unicodeScalars.allSatisfy(\.endsLine) { end -= 1 }
        guard end > start + 1 else {
            output.remove(at: start)  // no text: no isolate (its breaks, if any, stay)
            return
        }
        // Its PDI also closes the isolates its text opened and left open (a stray LRI).
        let unclosed = containIsolateControls(in: &output, start + 1..<end)
        let terminators = String(repeating: String(IsolateKind.terminator), count: unclosed + 1)
        output.insert(StyledText(text: terminators, style: style, location: location), at: end)
    }

    /// Keeps an element's text inside its isolate whatever isolate controls the text holds: a
    /// PDI there that would end the element's isolate (it matches none of the text's own
    /// initiators) gets an LRI of its own just before it, an empty isolate, which the bidi rules
    /// treat as the neutral an unmatched PDI is (UAX #9 X6a, W1, N1). Returns how many of the
    /// text's initiators are still open at its end, for the element's PDI to close with its own.
    /// (`<rtl>&#x2069;abc</rtl>` set "abc" outside the isolate, and `<rtl>שלום&#x2066;x</rtl>`
    /// kept the rest of the paragraph inside it.) The LRI goes into the text piece, whose
    /// characters after it are then located at the piece's start in warnings.
    private static func containIsolateControls(in output: inout [StyledText], _ range: Range<Int>) -> Int {
        var open = 0
        for index in range {
            // U+2066...U+2069 are E2 81 A6...A9 in UTF-8: most text has no E2 byte at all.
            guard output[index].text.utf8.contains(0xE2) else { continue }
            var contained = String.UnicodeScalarView()
            var changed = false
            for scalar in output[index].text.unicodeScalars {
                switch scalar.value {
                case 0x2066...0x2068:
                    open += 1
                case 0x2069 where open > 0:
                    open -= 1
                case 0x2069:
                    contained.append(IsolateKind.ltr.initiator)
                    changed = true
                default:
                    break
                }
                contained.append(scalar)
            }
            if changed { output[index].text = String(contained) }
        }
        return open
    }
}
