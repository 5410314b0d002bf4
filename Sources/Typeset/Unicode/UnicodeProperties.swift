// Character properties from the generated UCD 15.0.0 tables (UAX #9, UAX #14, UAX #29, UAX #24).

/// Bidi_Class (UAX #9 Table 4). Raw values match the generator's order.
public enum BidiClass: UInt8, Sendable, CaseIterable {
    case L, R, AL, EN, ES, ET, AN, CS, NSM, BN, B, S, WS, ON
    case LRE, LRO, RLE, RLO, PDF, LRI, RLI, FSI, PDI
}

/// Line_Break (UAX #14 Table 1, Unicode 15.0). Raw values match the generator's order.
public enum LineBreakClass: UInt8, Sendable, CaseIterable {
    case BK, CR, LF, CM, NL, SG, WJ, ZW, GL, SP, ZWJ, B2, BA, BB
    case HY, CB, CL, CP, EX, IN, NS, OP, QU, IS, NU, PO, PR, SY
    case AI, AL, CJ, EB, EM, H2, H3, HL, ID, JL, JV, JT, RI, SA, XX
}

/// East_Asian_Width (UAX #11).
public enum EastAsianWidth: UInt8, Sendable, CaseIterable {
    case neutral, ambiguous, fullwidth, halfwidth, narrow, wide
}

/// General_Category, two-letter values.
public enum GeneralCategory: UInt8, Sendable, CaseIterable {
    case Cn, Cc, Cf, Co, Cs, Ll, Lm, Lo, Lt, Lu, Mc, Me, Mn, Nd, Nl
    case No, Pc, Pd, Pe, Pf, Pi, Po, Ps, Sc, Sk, Sm, So, Zl, Zp, Zs
}

/// Grapheme_Cluster_Break (UAX #29, Unicode 15.0).
public enum GraphemeClusterBreak: UInt8, Sendable, CaseIterable {
    case other, cr, lf, control, extend, zwj, regionalIndicator, prepend
    case spacingMark, l, v, t, lv, lvt
}

/// A Script property value; `code` is its ISO 15924 code ("Arab", "Hebr", "Latn", "Zyyy", ...).
public struct Script: Hashable, Sendable, CustomStringConvertible {
    let index: UInt8
    public var code: String { UnicodeTables.scriptCodes[Int(index)] }
    /// The Unicode name, words apart: "Tamil", "Old Italic".
    public var name: String { UnicodeTables.scriptNames[Int(index)] }
    public var description: String { code }
    /// Unknown (unassigned code points).
    public static let unknown = Script(index: 0)
    /// Common: shared by several scripts (punctuation, digits, spaces).
    public static let common = Script(index: 1)
    /// Inherited: combining marks that take the script of their base.
    public static let inherited = Script(index: 2)

    /// The scripts the HIG rules and the bundled fallbacks single out.
    public static let latin = Script(code: "Latn") ?? .unknown
    public static let arabic = Script(code: "Arab") ?? .unknown
    public static let hebrew = Script(code: "Hebr") ?? .unknown
    /// Korean's, whose words line breaking keeps whole (HangulWords.swift).
    public static let hangul = Script(code: "Hang") ?? .unknown

    public init?(code: String) {
        guard let i = UnicodeTables.scriptCodes.firstIndex(of: code) else { return nil }
        index = UInt8(i)
    }
    init(index: UInt8) { self.index = index }
    /// Common, Inherited and Unknown take the script of their neighbours when itemizing.
    public var isExplicit: Bool { index > 2 }
}

/// A lookup table built from the generator's packed ranges: a flat array for the BMP (where
/// nearly all text lives) and a binary search of the range starts beyond it.
struct PropertyTable: Sendable {
    private let bmp: [UInt8]
    private let starts: [UInt32]
    private let values: [UInt8]

    init(_ packed: [UInt32]) {
        let starts = packed.map { $0 >> 8 }
        let values = packed.map { UInt8($0 & 0xFF) }
        self.starts = starts
        self.values = values
        // Filled a range at a time (memset): this runs for every table when a process starts.
        // Each range goes on to the next one's start, so each entry is written once (before
        // the first range, if it does not start at 0, with zeros).
        bmp = [UInt8](unsafeUninitializedCapacity: 0x10000) { bmp, count in
            bmp[..<min(Int(starts.first ?? 0x10000), 0x10000)].initialize(repeating: 0)
            for i in starts.indices where starts[i] < 0x10000 {
                let end = i + 1 < starts.count ? min(Int(starts[i + 1]), 0x10000) : 0x10000
                bmp[Int(starts[i])..<end].initialize(repeating: values[i])
            }
            count = 0x10000
        }
    }

    @inline(__always)
    subscript(_ scalar: UInt32) -> UInt8 {
        if scalar < 0x10000 { return bmp[Int(scalar)] }
        let lo = starts.partitionPoint { $0 <= scalar } - 1  // the last start <= scalar
        return values[lo]
    }
}

enum Tables {
    static let bidiClass = PropertyTable(UnicodeTables.bidiClass)
    static let lineBreak = PropertyTable(UnicodeTables.lineBreak)
    static let eastAsianWidth = PropertyTable(UnicodeTables.eastAsianWidth)
    static let generalCategory = PropertyTable(UnicodeTables.generalCategory)
    static let graphemeClusterBreak = PropertyTable(UnicodeTables.graphemeClusterBreak)
    static let extendedPictographic = PropertyTable(UnicodeTables.extendedPictographic)
    static let emojiPresentation = PropertyTable(UnicodeTables.emojiPresentation)
    static let script = PropertyTable(UnicodeTables.script)
    static let scriptExtensions = PropertyTable(UnicodeTables.scriptExtensions)
    static let scriptExtensionSets = UnicodeTables.scriptExtensionSets.map { $0.map(Script.init(index:)) }
    static let defaultIgnorable = PropertyTable(UnicodeTables.defaultIgnorable)
    static let alphabetic = PropertyTable(UnicodeTables.alphabetic)
    static let whiteSpace = PropertyTable(UnicodeTables.whiteSpace)

    /// Opening brackets: canonical form of the bracket → canonical form of its closing pair.
    static let openingBrackets: [UInt32: UInt32] = {
        var map: [UInt32: UInt32] = [:]
        map.reserveCapacity(UnicodeTables.bidiBrackets.count / 2)
        for (cp, _, pair, opening) in UnicodeTables.bidiBrackets where opening == 1 { map[cp] = pair }
        return map
    }()
    /// Every bracket: code point → (its canonical form, whether it opens).
    static let brackets: [UInt32: (canonical: UInt32, opening: Bool)] = {
        var map: [UInt32: (canonical: UInt32, opening: Bool)] = [:]
        map.reserveCapacity(UnicodeTables.bidiBrackets.count)
        for (cp, canonical, _, opening) in UnicodeTables.bidiBrackets {
            map[cp] = (canonical, opening == 1)
        }
        return map
    }()
}

extension Unicode.Scalar {
    @inline(__always) public var bidiClass: BidiClass {
        BidiClass(rawValue: Tables.bidiClass[value]) ?? .L
    }
    @inline(__always) public var lineBreakClass: LineBreakClass {
        LineBreakClass(rawValue: Tables.lineBreak[value]) ?? .XX
    }
    /// Whether the character ends a line whatever follows: UAX #14's BK, CR, LF and NL (a
    /// `<br/>`'s U+2028, U+2029, NEL, CR, LF, VT, FF), compared by value (every paragraph's
    /// characters are asked, for bidi: `BidiParagraph.init(breakingAtLineEnds:)`).
    @inline(__always) public var endsLine: Bool {
        value &- 0x0A < 4 || value == 0x85 || value | 1 == 0x2029
    }
    @inline(__always) public var eastAsianWidth: EastAsianWidth {
        EastAsianWidth(rawValue: Tables.eastAsianWidth[value]) ?? .neutral
    }
    @inline(__always) public var generalCategory: GeneralCategory {
        GeneralCategory(rawValue: Tables.generalCategory[value]) ?? .Cn
    }
    @inline(__always) public var graphemeClusterBreak: GraphemeClusterBreak {
        GraphemeClusterBreak(rawValue: Tables.graphemeClusterBreak[value]) ?? .other
    }
    @inline(__always) public var isExtendedPictographic: Bool {
        Tables.extendedPictographic[value] == 1
    }
    /// Emoji_Presentation (UTS #51): shown as an emoji, not as text, unless U+FE0E follows.
    public var isEmojiPresentation: Bool { Tables.emojiPresentation[value] == 1 }
    @inline(__always) public var script: Script { Script(index: Tables.script[value]) }
    /// Script_Extensions (ScriptExtensions.txt), where it is not just `script`: the scripts a
    /// common or inherited character is used with (U+060C ARABIC COMMA: Arabic, N'Ko, Rohingya,
    /// Syriac, Thaana, Yezidi), in the file's order; empty for the others.
    public var scriptExtensions: [Script] { Tables.scriptExtensionSets[Int(Tables.scriptExtensions[value])] }
    /// Default_Ignorable_Code_Point: drawn with no glyph of its own (ZWJ, variation selectors,
    /// bidi controls, soft hyphen, ...).
    @inline(__always) public var isDefaultIgnorable: Bool { Tables.defaultIgnorable[value] == 1 }
    /// White_Space (PropList.txt): spaces, tabs, line ends and separators, no-break spaces
    /// included; not the zero-width space. (The Swift runtime's `properties.isWhitespace` is of
    /// the toolchain's Unicode version, not the tables'.)
    public var isWhiteSpace: Bool { Tables.whiteSpace[value] == 1 }
    /// Alphabetic (DerivedCoreProperties.txt): letters, letter numbers and the marks that are
    /// part of letters.
    public var isAlphabetic: Bool { Tables.alphabetic[value] == 1 }
    /// A virama that joins the consonant after it into one syllable (UAX #29 15.1's
    /// InCB=Linker: Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam), or Myanmar's and
    /// Khmer's stacking sign.
    public var isSyllableLinker: Bool {
        switch value {
        case 0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D, 0x1039, 0x17D2: return true
        default: return false
        }
    }
}
