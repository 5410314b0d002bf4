// Laid-out paragraphs that repeat. A mockup's title, labels, buttons, list items and list
// markers come back page after page and locale after locale; setting one anew (bidi, items,
// shaping from the run cache, break opportunities, lines) cost about 30,000 instructions in the
// benchmark corpus (issue 8), a cache hit a hash and a copy.

/// What a paragraph's lines depend on: its characters, its spans' ranges and styles (not where
/// they came from, which only warnings use), its direction, width, line height and balance.
struct ParagraphKey: Hashable {
    let scalars: [Unicode.Scalar]
    let spans: [StyledSpan]
    /// Only for an empty paragraph, whose line it sizes.
    let emptyStyle: TextStyle?
    let direction: BidiDirection
    let width: Double
    let lineHeight: Double
    let balance: Double
    /// Hashed once: a miss looks the key up and then stores it.
    private let hash: Int

    init(_ text: ParagraphText, direction: BidiDirection, width: Double, lineHeight: Double, balance: Double) {
        scalars = text.scalars
        spans = text.spans
        emptyStyle = text.spans.isEmpty ? text.emptyStyle : nil
        self.direction = direction
        self.width = width
        self.lineHeight = lineHeight
        self.balance = balance
        var hasher = KeyHasher()
        hasher.combine(scalars.withUnsafeBytes(byteHash))
        // A span's range and its whole style, its strings by `byteHash` (with `Hasher` they cost
        // about 20,000 instructions per corpus document). Left out, keys that differed only in
        // a color or a language collided, and 10,000 labels of one word, each in its own
        // color, took 10 s, looked up along one chain.
        for span in spans {
            let style = span.style
            hasher.combine(span.scalarRange.lowerBound)
            hasher.combine(span.scalarRange.upperBound)
            hasher.combine(style.size)
            hasher.combine(style.weight)
            hasher.combine(style.italic)
            hasher.combine(style.color.red)
            hasher.combine(style.color.green)
            hasher.combine(style.color.blue)
            hasher.combine(style.color.alpha)
            hasher.combine(style.language)
            hasher.combine(style.families.count)
            for family in style.families { hasher.combine(family) }
            hasher.combine(style.digits.map { Int($0.zero.value) } ?? -1)
        }
        // An empty paragraph's style: rare, hashed the usual way.
        hasher.combine(emptyStyle?.hashValue ?? 0)
        switch direction {
        case .ltr: hasher.combine(0)
        case .rtl: hasher.combine(1)
        case .auto: hasher.combine(2)
        }
        hasher.combine(width)
        hasher.combine(lineHeight)
        hasher.combine(balance)
        hash = hasher.finalize()
    }

    static func == (a: ParagraphKey, b: ParagraphKey) -> Bool {
        a.hash == b.hash && a.direction == b.direction && a.width == b.width && a.lineHeight == b.lineHeight
            && a.balance == b.balance && a.scalars == b.scalars && a.emptyStyle == b.emptyStyle
            && a.spans.count == b.spans.count && sameSpans(a.spans, b.spans)
    }

    /// Compared in place: `zip(...).allSatisfy` copied each span, retaining its style's strings.
    private static func sameSpans(_ a: [StyledSpan], _ b: [StyledSpan]) -> Bool {
        for index in a.indices where a[index].scalarRange != b[index].scalarRange || a[index].style != b[index].style {
            return false
        }
        return true
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// A paragraph's lines, without the text they were set from.
struct ParagraphLines: Sendable {
    var displayScalars: [Unicode.Scalar]
    var baseLevel: UInt8
    var lines: [TextLine]
    /// The offsets of characters drawn as a missing-glyph box (no font covers them, or the font
    /// of their cluster lacks them), in order: warned about with the location of the text at
    /// hand, which a repeated paragraph does not share.
    var missing: [Int]
    /// Of those, the characters some font has but not the font of their cluster (a mark stays
    /// with its letter's font), with that font.
    var lacking: [Int: LackingFont] = [:]
    /// The first word wider than a line, broken inside, and its width.
    var brokenWord: (range: Range<Int>, width: Double, hyphenated: Bool, betweenLetters: Bool)?
    /// The line ends inside words broken between their letters, of every such word (SPEC 4.1
    /// counts a word's pieces as one line), and the number of such words.
    var wordCuts = 0
    var brokenWordCount = 0
}

/// Paragraphs of up to `longest` characters, kept until they hold `capacity` characters; then
/// emptied and refilled (as the run cache is).
struct ParagraphCache {
    /// Labels, buttons, titles and list items are short; body paragraphs seldom repeat, and
    /// keeping them would only empty the cache sooner.
    static let longest = 128
    let capacity: Int
    private var entries: [ParagraphKey: ParagraphLines] = [:]
    private var characters = 0
    /// Paragraphs taken from the cache (for tests).
    private(set) var hits = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func lines(for key: ParagraphKey) -> ParagraphLines? {
        guard let found = entries[key] else { return nil }
        hits += 1
        return found
    }

    mutating func store(_ lines: ParagraphLines, for key: ParagraphKey) {
        if characters + key.scalars.count > capacity {
            entries.removeAll(keepingCapacity: true)
            characters = 0
        }
        if entries.updateValue(lines, forKey: key) == nil { characters += key.scalars.count }
    }
}
