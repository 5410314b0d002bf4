// UAX #9, the Unicode Bidirectional Algorithm (Unicode 15.0): resolved levels of a paragraph and
// the visual runs of its lines. The rules live in the files named after the spec's sections:
// ExplicitLevels.swift (P2–P3, X1–X10), WeakTypes.swift (W1–W7), NeutralTypes.swift (N0–N2),
// and Reordering.swift (I1–I2 are here; L1–L2 there).

/// The base direction a paragraph is laid out in.
public enum BidiDirection: String, Sendable {
    case ltr, rtl
    /// From the first strong character (UAX #9 P2–P3), left to right if there is none.
    case auto
}

/// A stretch of a line with one embedding level, in visual order (`BidiParagraph.visualRuns`).
public struct BidiRun: Hashable, Sendable {
    /// Scalar offsets in the paragraph, logical order.
    public var scalarRange: Range<Int>
    public var level: UInt8
    public var isRightToLeft: Bool { level & 1 == 1 }
}

/// A paragraph's resolved embedding levels (UAX #9 P2–I2). Lines are taken from it by range.
public struct BidiParagraph: Sendable {
    /// The paragraph embedding level: 0 left to right, 1 right to left.
    public let baseLevel: UInt8
    /// The resolved level of each scalar. Characters removed by X9 (embedding controls, BN)
    /// carry the level of the character before them, or the paragraph level at the start.
    public private(set) var levels: [UInt8]
    /// Original bidi classes, needed by L1 for each line.
    let originalClasses: [BidiClass]

    /// True for characters removed by X9: embedding and override controls, PDF and BN.
    func isRemoved(_ offset: Int) -> Bool { originalClasses[offset].isRemovedByX9 }

    /// Resolves the levels of `scalars`, one paragraph of text.
    public init(scalars: [Unicode.Scalar], direction: BidiDirection) {
        self.init(classes: scalars.map { $0.bidiClass }, scalars: scalars, direction: direction)
    }

    /// Resolves the levels of a block's text, where each character that ends a line (a
    /// `<br/>`'s U+2028, U+2029, a catalog string's new line: `Unicode.Scalar.endsLine`) ends a bidi
    /// paragraph, as a forced break does in a browser (CSS Writing Modes 4 §2.4, HTML's `br`)
    /// and a new line in an iOS label. The text between two of them is resolved as a paragraph
    /// of its own, at the block's level (HL1: not by its own first strong letter), and the
    /// isolates open where it begins (`<ltr>`, `<rtl>`, `<bdi>`, a `dir` span) are opened again
    /// before it, as CSS closes and reopens an inline box's around the break (§2.4.5); a
    /// first-strong isolate in the direction all its text gives it (HTML's `dir="auto"` reads
    /// the whole element). Embeddings and overrides, which markup does not make, end there, as
    /// UAX #9 X8 has a paragraph's end close them. Read as the white space UAX #9 makes it, a
    /// `<br/>` left the neutrals after it to the text before it: "عربي abc<br/>, def" put the
    /// comma after "def", on the left, in a right-to-left block. Without such a character,
    /// this is `init(scalars:direction:)`.
    public init(breakingAtLineEnds scalars: [Unicode.Scalar], direction: BidiDirection) {
        var classes = scalars.map { $0.bidiClass }
        guard BidiParagraph.hasParagraphEnds(scalars) else {
            self.init(classes: classes, scalars: scalars, direction: direction)
            return
        }
        // The block's level, where its first strong letter gives it, and each FSI's (X5c) are
        // read past the line ends, as HTML's `dir="auto"` reads a whole element: the resolver's
        // one pass over the FSIs (`rightToLeftFSIs`) is given them as white space.
        let base: UInt8
        switch direction {
        case .ltr: base = 0
        case .rtl: base = 1
        case .auto: base = BidiParagraph.firstStrongLevel(classes, from: 0, to: classes.count, pastParagraphEnds: true) ?? 0
        }
        if classes.contains(.FSI) {
            var whole = BidiResolver(classes: classes.map { $0 == .B ? .WS : $0 }, scalars: nil, baseLevel: base)
            whole.findMatchingIsolates()
            let rightToLeft = whole.rightToLeftFSIs()
            for i in classes.indices where classes[i] == .FSI { classes[i] = rightToLeft.contains(i) ? .RLI : .LRI }
        }

        let fixed: BidiDirection = base == 1 ? .rtl : .ltr
        var levels: [UInt8] = []
        levels.reserveCapacity(scalars.count)
        var open = OpenIsolates(base: base)
        var start = 0
        while start < scalars.count {
            var end = start
            while end < scalars.count && !scalars[end].endsLine { end += 1 }
            if end < scalars.count {
                classes[end] = .B
                end += 1
            }
            let reopened = open.offsets
            let stretch = BidiParagraph(
                classes: reopened.map { classes[$0] } + classes[start..<end],
                scalars: reopened.map { scalars[$0] } + scalars[start..<end], direction: fixed)
            levels += stretch.levels[reopened.count...]
            open.follow(classes, start..<end)
            start = end
        }
        self.init(baseLevel: base, levels: levels, originalClasses: classes)
    }

    /// Whether any of `scalars` ends a line: nearly never, and every paragraph is asked.
    static func hasParagraphEnds(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.withUnsafeBufferPointer { buffer in
            for scalar in buffer where scalar.endsLine { return true }
            return false
        }
    }

    /// The isolates open where a stretch of text begins, for `init(breakingAtLineEnds:)` to
    /// open again: UAX #9 X1–X8 as far as which initiators stay open, their levels and the
    /// deepest level (125) included. An isolate past that depth opens nothing but is counted,
    /// so that its PDI closes nothing else (X6a); at most 256 of them are carried past a
    /// break.
    private struct OpenIsolates {
        let base: UInt8
        /// Initiators within the deepest level: offset, level, isolate or not.
        var stack: [(offset: Int, level: UInt8, isolate: Bool)] = []
        /// The isolates past the deepest level, and the number of embeddings and overrides.
        var overflowIsolates: [Int] = []
        var overflowEmbeddings = 0

        init(base: UInt8) { self.base = base }

        /// The initiators to open again, in text order: the isolates within the deepest level,
        /// then those past it (each newer than any within it).
        var offsets: [Int] { stack.filter(\.isolate).map(\.offset) + overflowIsolates.prefix(256) }

        /// Follows `classes[range]`, a stretch that ends a paragraph: X8 closes its embeddings
        /// and overrides, and the isolates open are opened again, at the levels that leaves.
        mutating func follow(_ classes: [BidiClass], _ range: Range<Int>) {
            for i in range { follow(classes[i], at: i) }
            let reopened = offsets
            stack = []
            overflowIsolates = []
            overflowEmbeddings = 0
            for offset in reopened { follow(classes[offset], at: offset) }
        }

        private mutating func follow(_ type: BidiClass, at offset: Int) {
            switch type {
            case .LRE, .RLE, .LRO, .RLO, .LRI, .RLI:  // (FSIs are LRIs or RLIs by now)
                let isolate = type == .LRI || type == .RLI
                let current = stack.last?.level ?? base
                let level = type == .RLE || type == .RLO || type == .RLI ? (current + 1) | 1 : (current + 2) & ~1
                if level <= BidiResolver.maxDepth && overflowIsolates.isEmpty && overflowEmbeddings == 0 {
                    stack.append((offset, level, isolate))
                } else if isolate {
                    overflowIsolates.append(offset)
                } else if overflowIsolates.isEmpty {
                    overflowEmbeddings += 1
                }
            case .PDI:
                if !overflowIsolates.isEmpty {
                    overflowIsolates.removeLast()
                } else if let isolate = stack.lastIndex(where: \.isolate) {
                    overflowEmbeddings = 0
                    stack.removeSubrange(isolate...)
                }
            case .PDF:
                if !overflowIsolates.isEmpty {
                    break
                } else if overflowEmbeddings > 0 {
                    overflowEmbeddings -= 1
                } else if let last = stack.last, !last.isolate {
                    stack.removeLast()
                }
            default:
                break
            }
        }
    }

    private init(baseLevel: UInt8, levels: [UInt8], originalClasses: [BidiClass]) {
        self.baseLevel = baseLevel
        self.levels = levels
        self.originalClasses = originalClasses
    }

    /// Resolves levels from bidi classes; `scalars` (same length) are needed only for the
    /// bracket pairs of N0, and BidiTest.txt gives classes alone.
    init(classes: [BidiClass], scalars: [Unicode.Scalar]?, direction: BidiDirection) {
        let base: UInt8
        switch direction {
        case .ltr: base = 0
        case .rtl: base = 1
        case .auto: base = BidiParagraph.firstStrongLevel(classes, from: 0, to: classes.count) ?? 0
        }
        baseLevel = base
        originalClasses = classes
        if !classes.contains(where: { BidiParagraph.canLeaveBaseLevel($0, base: base) }) {
            // Left to right: every strong character is L and so is sos, so W7 turns EN into L
            // and N1–N2 make every neutral L (an all-Latin paragraph). Right to left: every
            // strong character is R or AL and so is sos, no rule makes a character L or a
            // number, and N0–N2 make every neutral R (Arabic or Hebrew without digits or Latin).
            // Either way the whole paragraph stays at its own level.
            levels = [UInt8](repeating: base, count: classes.count)
            return
        }
        var resolver = BidiResolver(classes: classes, scalars: scalars, baseLevel: base)
        resolver.resolve()
        levels = resolver.levels
    }

    /// SPEC 4.5, where it parts from UAX #9 (which `typeset conformance` tests as it is): the
    /// digits of a number are never reversed. Only an override (RLO) leaves a number right to
    /// left (I1–I2 raise every other one at an odd level to an even one), and "a RLO 123 abc PDF"
    /// showed "cba 321": each number an override reversed is raised one level, and reads left to
    /// right inside it. A number is its digits (`isDigit`: European and Arabic ones, and the
    /// digits of left-to-right scripts, १२३, whose class is L), the separators between them and
    /// the signs beside them ("12.5%", "-5", "+972", "2024-05-12"), and the marks and format characters in and
    /// after it (a keycap's VS16 and U+20E3, which were left in another run, parting the emoji;
    /// a word joiner or soft hyphen, which ended the number, and its pieces were reversed).
    func keepingNumbersInOrder(isDigit: (Int) -> Bool) -> BidiParagraph {
        guard originalClasses.contains(.RLO) else { return self }
        var kept = self
        var i = 0
        while i < levels.count {
            guard levels[i] & 1 == 1, isDigit(i) else {
                i += 1
                continue
            }
            let level = levels[i]
            func at(_ j: Int, _ classes: Set<BidiClass>) -> Bool {
                j >= 0 && j < levels.count && levels[j] == level && classes.contains(originalClasses[j])
            }
            func digit(_ j: Int) -> Bool { j < levels.count && levels[j] == level && isDigit(j) }
            var start = i
            while at(start - 1, [.ET]) { start -= 1 }
            // A sign, "-5" or "+972", when nothing of a word stands before it ("abc-5" is not,
            // nor "בְּ-5" after its marks, nor "ab\u{AD}-5").
            var before = start - 2
            while at(before, [.NSM, .BN]) { before -= 1 }
            if at(start - 1, [.ES]), !at(before, [.L, .R, .AL, .EN, .AN]) {
                start -= 1
                while at(start - 1, [.ET]) { start -= 1 }
            }
            var end = i + 1
            while end < levels.count {
                if digit(end) || at(end, [.ET, .NSM, .BN]) {
                    end += 1
                } else if at(end, [.CS, .ES]), digit(end + 1) {
                    end += 2
                } else {
                    break
                }
            }
            for j in start..<end { kept.levels[j] = level + 1 }
            i = end
        }
        return kept
    }

    /// Classes that can give a character a level other than the paragraph's: letters of the
    /// other direction, European numbers in a right-to-left paragraph, Arabic numbers and
    /// explicit formatting characters.
    private static func canLeaveBaseLevel(_ type: BidiClass, base: UInt8) -> Bool {
        switch type {
        case .AN, .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: return true
        case .R, .AL: return base == 0
        case .L, .EN: return base == 1
        default: return false
        }
    }

    /// UAX #9 P2–P3: the level given by the first L, R or AL in `start..<end`, skipping
    /// characters between an isolate initiator and its matching PDI; nil if there is none.
    /// `pastParagraphEnds`: read on past a paragraph separator (B), as a block whose line ends
    /// end bidi paragraphs (`init(breakingAtLineEnds:)`) takes its direction from all its text.
    static func firstStrongLevel<Classes: RandomAccessCollection<BidiClass>>(
        _ classes: Classes, from start: Int, to end: Int, pastParagraphEnds: Bool = false
    ) -> UInt8? where Classes.Index == Int {
        firstStrong(classes, from: start, to: end, pastParagraphEnds: pastParagraphEnds)?.level
    }

    /// Where `firstStrongLevel` finds its strong character, and the level.
    static func firstStrong<Classes: RandomAccessCollection<BidiClass>>(
        _ classes: Classes, from start: Int, to end: Int, pastParagraphEnds: Bool = false
    ) -> (index: Int, level: UInt8)? where Classes.Index == Int {
        var isolateDepth = 0
        var i = start
        while i < end {
            switch classes[i] {
            case .L where isolateDepth == 0: return (i, 0)
            case .R where isolateDepth == 0, .AL where isolateDepth == 0: return (i, 1)
            case .LRI, .RLI, .FSI: isolateDepth += 1
            case .PDI where isolateDepth > 0: isolateDepth -= 1
            case .B where !pastParagraphEnds: return nil  // P2 looks no further than the paragraph's end
            default: break
            }
            i += 1
        }
        return nil
    }
}

/// The working state of one paragraph's resolution (X1–I2); discarded afterwards.
struct BidiResolver {
    /// UAX #9 BD2: the deepest embedding level.
    static let maxDepth: UInt8 = 125

    let originalClasses: [BidiClass]
    let scalars: [Unicode.Scalar]?
    let baseLevel: UInt8
    /// Classes after X6 overrides; the W and N rules work on a copy per isolating run sequence.
    var types: [BidiClass]
    var levels: [UInt8]
    /// BD9: the offset of each isolate initiator's matching PDI (isolates are rare: empty).
    var matchingPDI: [Int: Int] = [:]
    /// The PDIs that match an initiator.
    var matchedPDIs: Set<Int> = []

    init(classes: [BidiClass], scalars: [Unicode.Scalar]?, baseLevel: UInt8) {
        originalClasses = classes
        self.scalars = scalars
        self.baseLevel = baseLevel
        types = classes
        levels = [UInt8](repeating: baseLevel, count: classes.count)
    }

    mutating func resolve() {
        // Without explicit formatting characters (the common case), X1–X8 leave every level at
        // the paragraph level and override nothing.
        if originalClasses.contains(where: { $0.isExplicitFormatting }) {
            findMatchingIsolates()
            resolveExplicitLevels()
        }
        // Each sequence is changed in place in the array: a copy would share its types and copy
        // them again at the first change.
        var sequences = isolatingRunSequences()
        for k in sequences.indices {
            sequences[k].resolveWeakTypes()
            resolveBracketPairs(&sequences[k])
            sequences[k].resolveNeutralTypes()
            resolveImplicitLevels(sequences[k])
        }
        // Removed characters take the level of the character before them (their level does
        // not matter to the algorithm; this keeps runs whole when lines are reordered).
        var previous = baseLevel
        for i in levels.indices {
            if originalClasses[i].isRemovedByX9 { levels[i] = previous } else { previous = levels[i] }
        }
    }

    /// UAX #9 I1–I2: levels from the resolved types.
    mutating func resolveImplicitLevels(_ sequence: IsolatingRunSequence) {
        for (i, type) in zip(sequence.indices, sequence.types) {
            let level = levels[i]
            if level & 1 == 0 {
                if type == .R { levels[i] = level + 1 }  // I1
                else if type == .AN || type == .EN { levels[i] = level + 2 }
            } else if type == .L || type == .EN || type == .AN {
                levels[i] = level + 1  // I2
            }
        }
    }
}

/// Explicit bidi formatting characters take part in bidi resolution but are never shown, nor
/// given as text (SPEC §6: run text is without them). The bidi classes LRE, LRO, RLE, RLO, PDF,
/// LRI, RLI, FSI and PDI (`BidiClass.isExplicitFormatting`) have these nine characters only
/// (Unicode 15.0), compared directly since this is asked of every glyph and character of every
/// line (what `<ltr>`, `<rtl>` and `<bdi>` add around their text).
@inline(__always)
func isHiddenControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}

/// The marks LRM, RLM and ALM: strong characters that show nothing (UAX #9 does not remove
/// them, as it does the controls).
@inline(__always)
func isBidiMark(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value == 0x061C || scalar.value &- 0x200E < 2
}

extension BidiClass {
    /// The embedding, override and isolate controls and their terminators (UAX #9 X2–X7).
    var isExplicitFormatting: Bool {
        switch self {
        case .LRE, .RLE, .LRO, .RLO, .PDF, .LRI, .RLI, .FSI, .PDI: return true
        default: return false
        }
    }

    /// UAX #9 X9: embedding and override controls, PDF and BN take no part in the later rules.
    var isRemovedByX9: Bool {
        switch self {
        case .RLE, .LRE, .RLO, .LRO, .PDF, .BN: return true
        default: return false
        }
    }
}
