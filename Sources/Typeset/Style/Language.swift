// BCP 47 language tags (RFC 5646) for layout: their direction (SPEC §2, §4) and their default
// digits (CLDR defaultNumberingSystem, SPEC §2 `numerals="auto"`).

/// The digit sets `typeset` can display.
public enum NumberingSystem: String, Sendable, Hashable, CaseIterable {
    /// 0-9.
    case latn
    /// Arabic-Indic digits ٠-٩ (U+0660…U+0669).
    case arab
    /// Extended Arabic-Indic (Persian, Urdu) digits ۰-۹ (U+06F0…U+06F9).
    case arabext

    /// The digit zero of this system; digit d is `zero + d`.
    public var zero: Unicode.Scalar {
        switch self {
        case .latn: "0"
        case .arab: "\u{0660}"
        case .arabext: "\u{06F0}"
        }
    }
}

/// Helpers on BCP 47 tags.
///
/// They accept `_` as well as `-` between subtags (POSIX-style locale names such as `ar_EG`) and
/// ignore case, as RFC 5646 says tags are case-insensitive.
public enum Language {
    /// Primary language subtags whose default script is written right to left: every language
    /// whose likely script is (CLDR 47's likelySubtags, through Babel 2.18: rhg is rhg-Rohg-MM,
    /// lad lad-Hebr-IL), and the varieties of Arabic, Persian, Pashto and Yiddish by codes it
    /// leaves out (arb, pes, pbu, ydd), and iw and ji, Hebrew's and Yiddish's old codes.
    static let rightToLeftLanguages: Set<String> = [
        "aao", "abh", "abv", "acm", "acq", "acw", "acx", "adf", "ae", "aeb", "aec", "aee", "aeq",
        "afb", "aib", "aii", "aij", "aiq", "ajp", "amw", "apc", "apd", "ar", "arb", "arc", "arq",
        "ars", "ary", "arz", "ask", "atn", "auj", "auz", "avd", "avl", "ayh", "ayl", "ayn", "ayp",
        "azb", "bal", "bdz", "bej", "bft", "bgn", "bgp", "bhe", "bhm", "bhn", "bjf", "bjm", "bqi",
        "brh", "brk", "bsh", "bsk", "chg", "cja", "ckb", "clh", "czk", "dcc", "def", "deh", "dgl",
        "dmk", "dml", "dv", "ecy", "esh", "fa", "fay", "faz", "fia", "fub", "gbz", "ggg", "gha", "ghr",
        "gig", "gjk", "gju", "glh", "glk", "gwc", "gwf", "gwt", "gzi", "hac", "haz", "hbo", "he",
        "hkh", "hnd", "hno", "hoh", "hrt", "hrz", "hss", "huy", "isk", "itk", "iw", "jad", "jat",
        "jbe", "jbn", "jdg", "ji", "jnd", "jog", "jpa", "jpr", "jrb", "jye", "kbu", "kby", "kcy",
        "kfm", "khw", "klj", "kmz", "kqd", "ks", "ktl", "kvx", "kxp", "lad", "lah", "lhs", "lki",
        "lrc", "lrk", "lrl", "lsa", "lsd", "lss", "luv", "luz", "mby", "mde", "mfa", "mfi", "mhj",
        "mid", "mki", "mnj", "mve", "mvy", "myz", "mzn", "nli", "nlm", "nqo", "ntz", "nyq", "oar",
        "obm", "odk", "oru", "ota", "otk", "oui", "pal", "pbt", "pbu", "pes", "pgd", "phl", "phn",
        "phr", "phv", "plk", "pnb", "pra", "prc", "prd", "prs", "prx", "ps", "psh", "psi", "pst",
        "qxq", "rdb", "rhg", "rmt", "sam", "sbn", "scl", "sd", "sdb", "sdf", "sdg", "sdh", "sds",
        "sgr", "sgy", "shd", "shm", "shu", "shv", "siy", "siz", "skr", "smp", "smy", "sog", "sqo",
        "sqt", "srh", "srz", "ssh", "sts", "swb", "syc", "syn", "syr", "tjo", "tks", "tmr", "tov",
        "tra", "trg", "trm", "trw", "ug", "ur", "ush", "uzs", "vaf", "vgr", "vmh", "wbk", "wlo", "wne",
        "wni", "wsv", "xco", "xhe", "xka", "xkc", "xkj", "xkp", "xld", "xly", "xmn", "xmr", "xna",
        "xpr", "xsa", "xvi", "ydd", "ydg", "yhd", "yi", "yih", "yud", "zba", "zdj", "zrp", "zum",
    ]

    /// ISO 15924 scripts written right to left (CLDR's characterOrder right-to-left).
    static let rightToLeftScripts: Set<String> = [
        "adlm", "arab", "aran", "armi", "avst", "chrs", "cprt", "elym", "hatr", "hebr", "hung",
        "khar", "lydi", "mand", "mani", "mend", "merc", "mero", "narb", "nbat", "nkoo", "orkh",
        "ougr", "palm", "phli", "phlp", "phnx", "prti", "rohg", "samr", "sarb", "sogd", "sogo",
        "syrc", "thaa", "yezi",
    ]

    /// Language-region pairs whose likely script is Arabic although the language's is not
    /// (CLDR 47 likelySubtags: pa-PK → pa-Arab-PK, az-IR → az-Arab-IR), and the reverse
    /// (sd-IN → sd-Deva-IN, ug-KZ → ug-Cyrl-KZ): every such pair of CLDR 47.
    static let rightToLeftRegionalLanguages: Set<String> = [
        "az-iq", "az-ir", "ha-cm", "ha-sd", "kk-af", "kk-cn", "kk-ir", "kk-mn", "ku-lb", "ky-cn", "ms-cc",
        "pa-pk", "tg-pk", "uz-af",
    ]
    static let leftToRightRegionalLanguages: Set<String> = ["sd-in", "ug-kz", "ug-mn"]

    /// True when text in `language` is written right to left: by its script subtag when it has
    /// one (`az-Arab` is right to left, `sd-Deva` left to right), else by its primary language.
    public static func isRightToLeft(language: String) -> Bool {
        // Most tags are a primary subtag alone, in lowercase ("ar", "en"): no need to split them
        // (asked for every text block, the split was 1% of a document's instructions).
        if language.utf8.count <= 3, language.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) {
            if rightToLeftLanguages.contains(language) { return true }
            return language.utf8.count == 3 && twoLetterCodes[language].map(rightToLeftLanguages.contains) == true
        }
        let subtags = subtags(of: language)
        guard let primary = subtags.first else { return false }
        if let script = scriptSubtag(subtags) { return rightToLeftScripts.contains(script) }
        let language = twoLetterCodes[primary] ?? primary
        if let region = regionSubtag(subtags) {
            let pair = language + "-" + region
            if rightToLeftRegionalLanguages.contains(pair) { return true }
            if leftToRightRegionalLanguages.contains(pair) { return false }
        }
        return rightToLeftLanguages.contains(language)
    }

    /// Regions of Arabic that write Latin digits by default (CLDR 42, as ICU 72 reports them);
    /// the rest use `arab`.
    static let arabicRegionsWithLatinDigits: Set<String> = ["ae", "ma", "dz", "tn", "ly", "eh"]

    /// The locale's default digits per CLDR (`defaultNumberingSystem`).
    ///
    /// Limited to the systems `typeset` displays: locales whose default is another system
    /// (Bengali, Devanagari, ...) get `latn`. A `-u-nu-` extension naming a known system wins (`ar-u-nu-latn`).
    public static func defaultNumberingSystem(locale: String) -> NumberingSystem {
        let subtags = subtags(of: locale)
        if let index = subtags.firstIndex(of: "nu"), index > 0, subtags[index - 1] == "u",
            index + 1 < subtags.count, let system = NumberingSystem(rawValue: subtags[index + 1])
        {
            return system
        }
        guard let primary = subtags.first else { return .latn }
        let region = regionSubtag(subtags)
        let script = scriptSubtag(subtags)
        if let script, script != "arab" { return .latn }
        switch primary {
        case "ar":
            return region.map(arabicRegionsWithLatinDigits.contains) == true ? .latn : .arab
        case "fa", "ps", "ks", "lrc", "mzn", "bgn", "glk", "prs": return .arabext
        case "ur": return region == "in" ? .arabext : .latn
        case "sd" where region == "in": return .latn  // sd-Deva-IN
        case "ckb", "sd", "sdh", "bqi": return .arab
        case "pa" where script == "arab" || region == "pk": return .arabext
        case "uz" where script == "arab" || region == "af": return .arabext
        case "az" where script == "arab" || region == "ir" || region == "iq": return .arabext
        default: return .latn
        }
    }

    /// Why a well-formed `tag` still names no language, or nil: its language subtag has 4 to 8
    /// letters, which no language has (4 are reserved, 5 to 8 were never assigned). That is
    /// nearly always a language's name written for its code, `arabic` for `ar`, and the text
    /// would silently be set as an unknown left-to-right language.
    public static func unassignedLanguageProblem(tag: String) -> String? {
        let end = tag.utf8.firstIndex { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") } ?? tag.endIndex
        let language = tag[..<end]
        guard language.utf8.count >= 4, language.utf8.allSatisfy(isASCIILetter) else { return nil }
        var problem = "no language has a subtag of \(language.utf8.count) letters; codes have 2 or 3 (ISO 639)"
        if let code = codesByName[language.lowercased()] { problem += "; did you mean '\(code)'?" }
        return problem
    }

    /// Language names that are written where a code belongs, and their codes.
    private static let codesByName = [
        "arabic": "ar", "hebrew": "he", "english": "en", "persian": "fa", "farsi": "fa", "urdu": "ur",
        "pashto": "ps", "sindhi": "sd", "kurdish": "ckb", "sorani": "ckb", "uyghur": "ug", "yiddish": "yi",
        "syriac": "syr", "dhivehi": "dv", "french": "fr", "german": "de", "spanish": "es", "italian": "it",
        "portuguese": "pt", "russian": "ru", "turkish": "tr", "greek": "el", "hindi": "hi", "chinese": "zh",
        "japanese": "ja", "korean": "ko", "dutch": "nl", "polish": "pl", "swedish": "sv", "thai": "th",
    ]

    /// A well-formed tag in the case RFC 5646 §2.1.1 recommends: `zh-Hant-TW`, `en-GB`, `ar`
    /// (`_` taken as `-`). Up to the first singleton, a 2-letter subtag after the language is a
    /// region (upper case) and a 4-letter one a script (title case); the rest is lower case.
    public static func canonicalCase(tag: String) -> String {
        var inExtension = false
        return subtags(of: tag).enumerated().map { index, subtag in
            if subtag.count == 1 { inExtension = true }
            guard index > 0, !inExtension else { return subtag }
            if subtag.count == 2, subtag.utf8.allSatisfy(isASCIILetter) { return subtag.uppercased() }
            if subtag.count == 4, subtag.utf8.allSatisfy(isASCIILetter) {
                return subtag.prefix(1).uppercased() + subtag.dropFirst()
            }
            return subtag
        }.joined(separator: "-")
    }

    /// `tag` as it is written out (the PDF's and SVG's language, the layout JSON's, a sheet's
    /// caption): in `canonicalCase`, with a deprecated language code replaced by the one the IANA
    /// registry prefers (`iw` by `he`, `in` by `id`, `ji` by `yi`: Java and older iOS still say
    /// them, and a screen reader or a script matching `he` did not know the older ones).
    public static func canonical(tag: String) -> String {
        let tag = canonicalCase(tag: tag)
        let end = tag.firstIndex(of: "-") ?? tag.endIndex
        let language = String(tag[..<end])
        guard let code = deprecatedCodes[language] ?? twoLetterCodes[language] else { return tag }
        return code + tag[end...]
    }

    /// ISO 639-2's three-letter codes of languages that have a two-letter one, which BCP 47 uses
    /// instead: `lang="ara"` was taken for an unknown language and set left to right.
    static let twoLetterCodes = [
        "ara": "ar", "heb": "he", "fas": "fa", "per": "fa", "urd": "ur", "yid": "yi", "pus": "ps", "snd": "sd",
        "div": "dv", "uig": "ug", "kur": "ku", "eng": "en", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de",
        "spa": "es", "ita": "it", "por": "pt", "rus": "ru", "tur": "tr", "ell": "el", "gre": "el", "hin": "hi",
        "zho": "zh", "chi": "zh", "jpn": "ja", "kor": "ko", "nld": "nl", "dut": "nl", "pol": "pl", "swe": "sv",
        "tha": "th",
    ]

    /// The language codes the IANA registry deprecates in favour of others (`no` is Norwegian,
    /// not deprecated, though Apple's systems take it as Bokmål: see `oldCodes`).
    static let deprecatedCodes = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]

    /// The code of a language written by its English name (`Hebrew` for `he`), as the folders of
    /// older apps are (`Hebrew.lproj`); nil for another word.
    public static func code(named name: String) -> String? { codesByName[name.lowercased()] }

    /// True when `tag` is a well-formed BCP 47 tag (RFC 5646 §2.1 syntax, including the
    /// irregular grandfathered tags); validity against the IANA registry is not checked.
    public static func isWellFormed(tag: String) -> Bool {
        // A language subtag alone (`en`, `ar`, `he`): 2 to 8 letters, as most tags are.
        if (2...8).contains(tag.utf8.count) && tag.utf8.allSatisfy(isASCIILetter) { return true }
        let lowered = tag.lowercased()
        if irregularGrandfatheredTags.contains(lowered) { return true }
        let parts = lowered.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 8, part.utf8.allSatisfy(isASCIIAlphanumeric) else {
                return false
            }
        }
        if first == "x" { return isPrivateUse(parts[...]) }
        // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
        guard first.count >= 2, first.utf8.allSatisfy(isASCIILetter) else { return false }
        var index = 1
        if first.count <= 3 {
            // extlang: up to three 3-letter subtags.
            var extlangs = 0
            while index < parts.count, extlangs < 3, parts[index].count == 3,
                parts[index].utf8.allSatisfy(isASCIILetter)
            {
                index += 1
                extlangs += 1
            }
        }
        if index < parts.count, parts[index].count == 4, parts[index].utf8.allSatisfy(isASCIILetter) {
            index += 1  // script
        }
        if index < parts.count,
            (parts[index].count == 2 && parts[index].utf8.allSatisfy(isASCIILetter))
                || (parts[index].count == 3 && parts[index].utf8.allSatisfy(isASCIIDigit))
        {
            index += 1  // region
        }
        while index < parts.count, isVariant(parts[index]) { index += 1 }
        while index < parts.count, parts[index].count == 1, parts[index] != "x" {
            index += 1  // extension singleton, then one or more 2-8 character subtags
            let start = index
            while index < parts.count, parts[index].count >= 2 { index += 1 }
            guard index > start else { return false }
        }
        if index < parts.count, parts[index] == "x" { return isPrivateUse(parts[index...]) }
        return index == parts.count
    }

    static let irregularGrandfatheredTags: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux",
        "i-mingo", "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl",
        "sgn-ch-de",
    ]

    private static func isPrivateUse(_ parts: ArraySlice<String>) -> Bool {
        parts.count >= 2  // "x" and at least one 1-8 character subtag (lengths checked already)
    }

    /// Matches `variant = 5*8alphanum / (DIGIT 3alphanum)`.
    private static func isVariant(_ part: String) -> Bool {
        if part.count >= 5 { return true }
        return part.count == 4 && part.utf8.first.map(isASCIIDigit) == true
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    private static func isASCIIDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isASCIIDigit(byte)
    }

    /// Old language codes and the current ones, one language (Java and older iOS still say `iw`):
    /// `deprecatedCodes`, and Norwegian's macrolanguage code, which Apple's systems take as Bokmål.
    static let oldCodes = deprecatedCodes.merging(["no": "nb"]) { old, _ in old }

    /// Whether two tags are of one language, whatever their region or script (`ar-EG` and `ar`,
    /// `iw` and `he`).
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func language(_ tag: String) -> String? { subtags(of: tag).first.map { oldCodes[$0] ?? $0 } }
        return language(a) == language(b)
    }

    /// Lower-cased subtags; `_` counts as `-`.
    static func subtags(of tag: String) -> [String] {
        tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    }

    /// The 4-letter script subtag after the language (and any extlang subtags).
    static func scriptSubtag(_ subtags: [String]) -> String? {
        for subtag in subtags.dropFirst() {
            if subtag.count == 4, subtag.utf8.allSatisfy(isASCIILetter) { return subtag }
            if subtag.count != 3 || !subtag.utf8.allSatisfy(isASCIILetter) { return nil }
        }
        return nil
    }

    /// The 2-letter or 3-digit region subtag after the language, extlang and script subtags.
    static func regionSubtag(_ subtags: [String]) -> String? {
        for subtag in subtags.dropFirst() {
            if subtag.count == 2, subtag.utf8.allSatisfy(isASCIILetter) { return subtag }
            if subtag.count == 3, subtag.utf8.allSatisfy(isASCIIDigit) { return subtag }
            let isExtlangOrScript =
                (subtag.count == 3 || subtag.count == 4) && subtag.utf8.allSatisfy(isASCIILetter)
            if !isExtlangOrScript { return nil }
        }
        return nil
    }
}
