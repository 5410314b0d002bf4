// Line break opportunities: UAX #14 (Unicode 15.0), the default algorithm, rules LB1–LB31.
//
// One pass over the paragraph decides each pair of adjacent scalars in rule order. What the
// rules need to know beyond the pair (the class before a run of spaces for LB8 and LB14–LB17,
// the base a combining sequence belongs to for LB9, the base before that for LB21a, the parity
// of a run of regional indicators for LB30a, whether a number is open for LB25) is carried
// forward, so the text is never searched backwards; only LB25's `(PR | PO) × (OP | HY) NU`
// looks ahead, past the one combining sequence of the OP or HY. The work is linear in the
// length of the text.
//
// LB25 is the regular-expression form of UAX #14 section 8.2, example 7, which is what
// LineBreakTest.txt is made with:
//
//     (PR | PO) × (OP | HY)? NU
//     (OP | HY) × NU
//     NU × (NU | SY | IS)
//     NU (NU | SY | IS)* × (NU | SY | IS | CL | CP)
//     NU (NU | SY | IS)* (CL | CP)? × (PR | PO)

/// A position between two scalars where a line may end, or must end.
public struct BreakOpportunity: Hashable, Sendable {
    /// The index of the scalar the break comes before, `1...count`: a break at `count` is the
    /// end of the text.
    public var offset: Int
    /// True for a hard line break: after BK, CR, LF, NL (UAX #14 LB4, LB5) and at the end of the
    /// text (LB3). False for a place where a line may be broken when it does not fit.
    public var isMandatory: Bool

    public init(offset: Int, isMandatory: Bool) {
        self.offset = offset
        self.isMandatory = isMandatory
    }
}

/// Finds line break opportunities with the default algorithm of UAX #14 (Unicode 15.0).
public enum LineBreaker {
    /// Break opportunities of a paragraph: `offset` is the index of the scalar a break comes
    /// before (1...count); the end of text is a mandatory break (LB3).
    ///
    /// The opportunities come in increasing order of `offset`; empty text has none. Breaks
    /// after a line terminator (BK, CR not followed by LF, LF, NL) are mandatory.
    public static func opportunities(in scalars: [Unicode.Scalar]) -> [BreakOpportunity] {
        guard !scalars.isEmpty else { return [] }
        return bmpProperties.withUnsafeBufferPointer { table in
            scalars.withUnsafeBufferPointer { text in
                findOpportunities(in: text, table: table)
            }
        }
    }

    // MARK: - The rules

    /// What the rules say about the position between two scalars.
    private enum Decision {
        case prohibited, allowed, mandatory
    }

    /// LB25 (tailored): where the text stands in a number `NU (NU | SY | IS)* (CL | CP)?`.
    private enum NumberState {
        /// Not in a number.
        case none
        /// After `NU (NU | SY | IS)*`: digits and separators continue it.
        case digits
        /// After `NU (NU | SY | IS)* (CL | CP)`: only a prefix or postfix may still follow.
        case closed
    }

    private static func findOpportunities(
        in text: UnsafeBufferPointer<Unicode.Scalar>, table: UnsafeBufferPointer<ScalarProperties>
    ) -> [BreakOpportunity] {
        var opportunities: [BreakOpportunity] = []
        opportunities.reserveCapacity(text.count / 4 + 1)
        var scan = Scan(text: text, table: table)
        for index in 1..<text.count {
            switch scan.advance(to: index) {
            case .prohibited: break
            case .allowed: opportunities.append(BreakOpportunity(offset: index, isMandatory: false))
            case .mandatory:
                opportunities.append(BreakOpportunity(offset: index, isMandatory: true))
            }
        }
        // UAX #14 LB3: ! eot
        opportunities.append(BreakOpportunity(offset: text.count, isMandatory: true))
        return opportunities
    }

    /// The state of a pass over a paragraph: what the rules need to know about the text before
    /// the position being decided. Kept in a struct rather than captured by a closure so that the
    /// optimizer keeps it in registers.
    private struct Scan {
        let text: UnsafeBufferPointer<Unicode.Scalar>
        let table: UnsafeBufferPointer<ScalarProperties>

        /// The class of the last base: a combining sequence `X (CM | ZWJ)*` counts as X (LB9), a
        /// CM or ZWJ without a base as AL (LB10).
        var previous: LineBreakClass
        /// The base before `previous` (LB21a); XX, which LB1 resolves away, stands for none.
        var beforePrevious = LineBreakClass.XX
        /// The last base before the current run of spaces (LB8, LB14–LB17); XX at the start.
        var beforeSpaces = LineBreakClass.XX
        /// The scalar just before the position is a ZWJ, joined to a base or not (LB8a).
        var previousIsZWJ: Bool
        /// The last base is a CP that is East Asian fullwidth, wide or halfwidth (LB30).
        var previousIsEastAsianWideBracket: Bool
        /// The last base is an unassigned Extended_Pictographic code point (LB30b).
        var previousIsUnassignedPictographic: Bool
        /// The run of regional indicators that ends at the last base is odd (LB30a).
        var regionalIndicatorRunIsOdd: Bool
        /// LB25: whether the last base is inside a number.
        var number: NumberState

        init(
            text: UnsafeBufferPointer<Unicode.Scalar>, table: UnsafeBufferPointer<ScalarProperties>
        ) {
            self.text = text
            self.table = table
            let first = ScalarProperties.of(text[0], table: table)
            // UAX #14 LB10 at the start of the text.
            previous = first.lineBreakClass.isCombining ? .AL : first.lineBreakClass
            previousIsZWJ = first.lineBreakClass == .ZWJ
            previousIsEastAsianWideBracket = first.isEastAsianWideBracket
            previousIsUnassignedPictographic = first.isUnassignedPictographic
            regionalIndicatorRunIsOdd = previous == .RI
            number = previous == .NU ? .digits : .none
        }

        /// Decides the position before the scalar at `index` and moves past that scalar.
        @inline(__always)
        mutating func advance(to index: Int) -> Decision {
            let next = ScalarProperties.of(text[index], table: table)
            // UAX #14 LB9: a CM or ZWJ after anything but BK, CR, LF, NL, SP or ZW joins it.
            let isAbsorbed = next.lineBreakClass.isCombining && !previous.endsCombiningSequence
            // UAX #14 LB10: any other CM or ZWJ is AL.
            let nextClass =
                next.lineBreakClass.isCombining ? LineBreakClass.AL : next.lineBreakClass
            let decision = decide(
                at: index, next: next, nextClass: nextClass, isAbsorbed: isAbsorbed)

            // A CM or ZWJ that joined its base (LB9) leaves the base's state as it was.
            previousIsZWJ = next.lineBreakClass == .ZWJ
            if isAbsorbed { return decision }
            switch nextClass {
            case .NU: number = .digits
            case .SY, .IS: if number != .digits { number = .none }
            case .CL, .CP: number = number == .digits ? .closed : .none
            default: number = .none
            }
            regionalIndicatorRunIsOdd =
                nextClass == .RI && !(previous == .RI && regionalIndicatorRunIsOdd)
            if nextClass == .SP && previous != .SP { beforeSpaces = previous }
            beforePrevious = previous
            previous = nextClass
            previousIsEastAsianWideBracket = next.isEastAsianWideBracket
            previousIsUnassignedPictographic = next.isUnassignedPictographic
            return decision
        }

        /// The rules in order, for the position before the scalar at `index`, whose properties
        /// are `next` and whose class after LB10 is `nextClass`.
        @inline(__always)
        private func decide(
            at index: Int, next: ScalarProperties, nextClass: LineBreakClass, isAbsorbed: Bool
        ) -> Decision {
            // Inside a word, the commonest case: no rule before LB28 (AL | HL) × (AL | HL)
            // breaks between two letters, so it decides at once.
            if previous.isLetter && nextClass.isLetter { return .prohibited }
            // UAX #14 LB4: BK !
            // UAX #14 LB5: CR × LF, CR !, LF !, NL !
            switch previous {
            case .BK, .LF, .NL: return .mandatory
            case .CR: return next.lineBreakClass == .LF ? .prohibited : .mandatory
            default: break
            }
            switch next.lineBreakClass {
            // UAX #14 LB6: × (BK | CR | LF | NL)
            case .BK, .CR, .LF, .NL: return .prohibited
            // UAX #14 LB7: × SP, × ZW
            case .SP, .ZW: return .prohibited
            default: break
            }
            // UAX #14 LB8: ZW SP* ÷
            if previous == .ZW || (previous == .SP && beforeSpaces == .ZW) { return .allowed }
            // UAX #14 LB8a: ZWJ ×
            if previousIsZWJ { return .prohibited }
            // UAX #14 LB9: X (CM | ZWJ)* is X: no break inside the sequence.
            if isAbsorbed { return .prohibited }

            // UAX #14 LB11: × WJ, WJ ×
            if nextClass == .WJ || previous == .WJ { return .prohibited }
            // UAX #14 LB12: GL ×
            if previous == .GL { return .prohibited }
            // UAX #14 LB12a: [^SP BA HY] × GL
            if nextClass == .GL && previous != .SP && previous != .BA && previous != .HY {
                return .prohibited
            }
            // UAX #14 LB13: × CL, × CP, × EX, × IS, × SY
            switch nextClass {
            case .CL, .CP, .EX, .IS, .SY: return .prohibited
            default: break
            }
            // LB14–LB17 see through spaces: the class before them, or `previous`.
            let beforeAnySpaces = previous == .SP ? beforeSpaces : previous
            // UAX #14 LB14: OP SP* ×
            if beforeAnySpaces == .OP { return .prohibited }
            // UAX #14 LB15: QU SP* × OP
            if beforeAnySpaces == .QU && nextClass == .OP { return .prohibited }
            // UAX #14 LB16: (CL | CP) SP* × NS
            if (beforeAnySpaces == .CL || beforeAnySpaces == .CP) && nextClass == .NS {
                return .prohibited
            }
            // UAX #14 LB17: B2 SP* × B2
            if beforeAnySpaces == .B2 && nextClass == .B2 { return .prohibited }
            // UAX #14 LB18: SP ÷
            if previous == .SP { return .allowed }
            // UAX #14 LB19: × QU, QU ×
            if nextClass == .QU || previous == .QU { return .prohibited }
            // UAX #14 LB20: ÷ CB, CB ÷
            if nextClass == .CB || previous == .CB { return .allowed }
            // UAX #14 LB21: × BA, × HY, × NS, BB ×
            switch nextClass {
            case .BA, .HY, .NS: return .prohibited
            default: break
            }
            if previous == .BB { return .prohibited }
            // UAX #14 LB21a: HL (HY | BA) ×
            if (previous == .HY || previous == .BA) && beforePrevious == .HL { return .prohibited }
            // UAX #14 LB21b: SY × HL
            if previous == .SY && nextClass == .HL { return .prohibited }
            // UAX #14 LB22: × IN
            if nextClass == .IN { return .prohibited }
            // UAX #14 LB23: (AL | HL) × NU, NU × (AL | HL)
            if previous.isLetter && nextClass == .NU { return .prohibited }
            if previous == .NU && nextClass.isLetter { return .prohibited }
            // UAX #14 LB23a: PR × (ID | EB | EM), (ID | EB | EM) × PO
            if previous == .PR && nextClass.isIdeographicOrEmoji { return .prohibited }
            if previous.isIdeographicOrEmoji && nextClass == .PO { return .prohibited }
            // UAX #14 LB24: (PR | PO) × (AL | HL), (AL | HL) × (PR | PO)
            if previous.isAffix && nextClass.isLetter { return .prohibited }
            if previous.isLetter && nextClass.isAffix { return .prohibited }
            // UAX #14 LB25 (tailored, see the top of the file)
            if previous.isAffix {
                // (PR | PO) × (OP | HY)? NU
                if nextClass == .NU { return .prohibited }
                if (nextClass == .OP || nextClass == .HY)
                    && baseClass(after: index) == .NU
                {
                    return .prohibited
                }
            }
            // (OP | HY) × NU
            if (previous == .OP || previous == .HY) && nextClass == .NU { return .prohibited }
            switch (number, nextClass) {
            // NU (NU | SY | IS)* × (NU | SY | IS | CL | CP)
            case (.digits, .NU), (.digits, .SY), (.digits, .IS), (.digits, .CL), (.digits, .CP):
                return .prohibited
            // NU (NU | SY | IS)* (CL | CP)? × (PR | PO)
            case (.digits, .PR), (.digits, .PO), (.closed, .PR), (.closed, .PO):
                return .prohibited
            default: break
            }
            // UAX #14 LB26: JL × (JL | JV | H2 | H3), (JV | H2) × (JV | JT), (JT | H3) × JT
            switch (previous, nextClass) {
            case (.JL, .JL), (.JL, .JV), (.JL, .H2), (.JL, .H3): return .prohibited
            case (.JV, .JV), (.JV, .JT), (.H2, .JV), (.H2, .JT): return .prohibited
            case (.JT, .JT), (.H3, .JT): return .prohibited
            default: break
            }
            // UAX #14 LB27: (JL | JV | JT | H2 | H3) × PO, PR × (JL | JV | JT | H2 | H3)
            if previous.isKorean && nextClass == .PO { return .prohibited }
            if previous == .PR && nextClass.isKorean { return .prohibited }
            // UAX #14 LB28: (AL | HL) × (AL | HL)
            if previous.isLetter && nextClass.isLetter { return .prohibited }
            // UAX #14 LB29: IS × (AL | HL)
            if previous == .IS && nextClass.isLetter { return .prohibited }
            // UAX #14 LB30: (AL | HL | NU) × OP, CP × (AL | HL | NU), except East Asian
            // fullwidth, wide and halfwidth parentheses.
            if (previous.isLetter || previous == .NU) && nextClass == .OP
                && !next.isEastAsianWideBracket
            {
                return .prohibited
            }
            if previous == .CP && !previousIsEastAsianWideBracket
                && (nextClass.isLetter || nextClass == .NU)
            {
                return .prohibited
            }
            // UAX #14 LB30a: sot (RI RI)* RI × RI, [^RI] (RI RI)* RI × RI
            if previous == .RI && nextClass == .RI && regionalIndicatorRunIsOdd {
                return .prohibited
            }
            // UAX #14 LB30b: EB × EM, [\p{Extended_Pictographic}&\p{Cn}] × EM
            if nextClass == .EM && (previous == .EB || previousIsUnassignedPictographic) {
                return .prohibited
            }
            // UAX #14 LB31: ÷ everywhere else
            return .allowed
        }

        /// The class of the first scalar after `index` that is not a CM or ZWJ (those belong to
        /// the scalar at `index`, LB9), or nil at the end of the text.
        private func baseClass(after index: Int) -> LineBreakClass? {
            var cursor = index + 1
            while cursor < text.count {
                let lineBreakClass = ScalarProperties.of(text[cursor], table: table).lineBreakClass
                if !lineBreakClass.isCombining { return lineBreakClass }
                cursor += 1
            }
            return nil
        }
    }

    // MARK: - Character properties

    /// The properties of one scalar that the rules read, with UAX #14 LB1 applied.
    struct ScalarProperties: Equatable {
        /// The resolved class: never AI, SG, XX, SA or CJ.
        var lineBreakClass: LineBreakClass
        /// An OP or CP whose East_Asian_Width is F, W or H (UAX #14 LB30).
        var isEastAsianWideBracket: Bool
        /// Extended_Pictographic and unassigned (UAX #14 LB30b): always ID.
        var isUnassignedPictographic: Bool

        init(_ scalar: Unicode.Scalar) {
            self.init(scalar.lineBreakClass, of: scalar)
        }

        /// The properties of `scalar`, whose Line_Break is `original`. Only SA, OP, CP and ID read
        /// anything else of the scalar.
        init(_ original: LineBreakClass, of scalar: Unicode.Scalar) {
            // UAX #14 LB1: AI, SG, XX → AL; SA → CM if Mn or Mc, else AL; CJ → NS.
            switch original {
            case .AI, .SG, .XX: lineBreakClass = .AL
            case .SA:
                switch scalar.generalCategory {
                case .Mn, .Mc: lineBreakClass = .CM
                default: lineBreakClass = .AL
                }
            case .CJ: lineBreakClass = .NS
            case let other: lineBreakClass = other
            }
            // Only the properties the rules ask about, so that scalars beyond the BMP, looked up
            // one by one, cost as little as possible.
            isEastAsianWideBracket = false
            if lineBreakClass == .OP || lineBreakClass == .CP {
                switch scalar.eastAsianWidth {
                case .fullwidth, .wide, .halfwidth: isEastAsianWideBracket = true
                default: break
                }
            }
            // Every unassigned Extended_Pictographic code point is ID in Unicode 15.0.
            isUnassignedPictographic =
                lineBreakClass == .ID && scalar.isExtendedPictographic
                && scalar.generalCategory == .Cn
        }

        /// The properties of `scalar`, from `table` (`bmpProperties`) in the BMP.
        @inline(__always)
        static func of(_ scalar: Unicode.Scalar, table: UnsafeBufferPointer<ScalarProperties>)
            -> ScalarProperties
        {
            scalar.value < 0x10000 ? table[Int(scalar.value)] : ScalarProperties(scalar)
        }

        /// A lone surrogate code point (SG, resolved to AL by LB1).
        init(surrogate: Void) {
            lineBreakClass = .AL
            isEastAsianWideBracket = false
            isUnassignedPictographic = false
        }
    }

    /// ScalarProperties of the Basic Multilingual Plane, indexed by code point, so that the
    /// scan reads one table entry per scalar; other planes are looked up as they come.
    ///
    /// Built once per process, so built fast, from the generator's ranges of Line_Break values:
    /// for most classes the properties depend on the class alone, and a range is filled with
    /// one value. SA, OP and CP (a few hundred code points) read more of each code point; ID
    /// (most of the CJK blocks) only where a code point is Extended_Pictographic, whose ranges
    /// are walked after. Per code point, this took 2.9 million instructions, 9% of a process
    /// rendering one mockup. LineBreakTests checks every entry against `ScalarProperties(scalar)`.
    static let bmpProperties: [ScalarProperties] = {
        let byClass = (0...255).map { raw in
            ScalarProperties(LineBreakClass(rawValue: UInt8(raw)) ?? .XX, of: Unicode.Scalar(0))
        }
        return [ScalarProperties](unsafeUninitializedCapacity: 0x10000) { table, count in
            // Ranges start at 0 and each goes on to the next one's start: every entry is
            // initialized once.
            forEachBMPRange(UnicodeTables.lineBreak) { range, raw in
                let lineBreakClass = LineBreakClass(rawValue: raw) ?? .XX
                switch lineBreakClass {
                case .SG:
                    table[range].initialize(repeating: ScalarProperties(surrogate: ()))
                case .SA, .OP, .CP:
                    for value in range {
                        let scalar = Unicode.Scalar(UInt32(value)) ?? Unicode.Scalar(UInt8(0))
                        table.initializeElement(at: value, to: ScalarProperties(lineBreakClass, of: scalar))
                    }
                default:
                    table[range].initialize(repeating: byClass[Int(raw)])
                }
            }
            // Unassigned pictographs: ID, Extended_Pictographic and Cn.
            forEachBMPRange(UnicodeTables.extendedPictographic) { range, raw in
                guard raw == 1 else { return }
                for value in range where table[value].lineBreakClass == .ID {
                    let scalar = Unicode.Scalar(UInt32(value)) ?? Unicode.Scalar(UInt8(0))
                    table[value].isUnassignedPictographic = scalar.generalCategory == .Cn
                }
            }
            count = 0x10000
        }
    }()

    /// Calls `body` with each range of a generated table (`start << 8 | value`, in order, from 0)
    /// in the BMP, and its value.
    private static func forEachBMPRange(_ packed: [UInt32], _ body: (Range<Int>, UInt8) -> Void) {
        precondition(packed.first.map { $0 >> 8 } == 0, "a generated table starts at U+0000")
        for (i, entry) in packed.enumerated() {
            let start = Int(entry >> 8)
            guard start < 0x10000 else { return }
            let end = i + 1 < packed.count ? min(Int(packed[i + 1] >> 8), 0x10000) : 0x10000
            body(start..<end, UInt8(truncatingIfNeeded: entry))
        }
    }
}

extension LineBreakClass {
    /// CM or ZWJ: the classes that LB9 attaches to the preceding base.
    fileprivate var isCombining: Bool { self == .CM || self == .ZWJ }
    /// The classes that a CM or ZWJ cannot attach to (UAX #14 LB9).
    fileprivate var endsCombiningSequence: Bool {
        switch self {
        case .BK, .CR, .LF, .NL, .SP, .ZW: return true
        default: return false
        }
    }
    /// AL or HL.
    fileprivate var isLetter: Bool { self == .AL || self == .HL }
    /// PR or PO.
    fileprivate var isAffix: Bool { self == .PR || self == .PO }
    /// ID, EB or EM (UAX #14 LB23a).
    fileprivate var isIdeographicOrEmoji: Bool { self == .ID || self == .EB || self == .EM }
    /// The Korean syllable-block classes JL, JV, JT, H2, H3 (UAX #14 LB27).
    fileprivate var isKorean: Bool {
        switch self {
        case .JL, .JV, .JT, .H2, .H3: return true
        default: return false
        }
    }
}
