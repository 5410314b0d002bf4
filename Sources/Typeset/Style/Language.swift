// BCP 47 language tags (RFC 5646) for layout: their direction (SPEC §2, §4) and their default
// digits (CLDR defaultNumberingSystem, SPEC §2 `numerals="auto"`).

import _FoundationICU

/// The digit sets `typeset` can display: those of SPEC §2, and the others CLDR makes a
/// locale's default (`numerals="auto"` in Bengali, Marathi, Nepali, Burmese, ...).
public enum NumberingSystem: String, Sendable, Hashable, CaseIterable {
    /// The digit sets typeset shows, named for messages: "latn, arab, arabext, …".
    public static var namesShown: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// 0-9.
    case latn
    /// Arabic-Indic digits ٠-٩ (U+0660…U+0669).
    case arab
    /// Extended Arabic-Indic (Persian, Urdu) digits ۰-۹ (U+06F0…U+06F9).
    case arabext
    /// Bengali digits ০-৯ (bn, as, mni).
    case beng
    /// Devanagari digits ०-९ (mr, ne, sa, ...).
    case deva
    /// Myanmar digits ၀-၉ (my).
    case mymr
    /// Tibetan digits ༠-༩ (dz).
    case tibt
    /// Ol Chiki digits ᱐-᱙ (sat).
    case olck
    /// Chakma digits (ccp).
    case cakm

    /// The digit zero of this system; digit d is `zero + d`.
    public var zero: Unicode.Scalar {
        switch self {
        case .latn: "0"
        case .arab: "\u{0660}"
        case .arabext: "\u{06F0}"
        case .beng: "\u{09E6}"
        case .deva: "\u{0966}"
        case .mymr: "\u{1040}"
        case .tibt: "\u{0F20}"
        case .olck: "\u{1C50}"
        case .cakm: "\u{11136}"
        }
    }
}

/// Helpers on BCP 47 tags.
///
/// They accept `_` as well as `-` between subtags (POSIX-style locale names such as `ar_EG`) and
/// ignore case, as RFC 5646 says tags are case-insensitive.
public enum Language {
    /// Primary language subtags whose default script is written right to left. Not every
    /// language whose likely script in CLDR is: those written in either direction's letters
    /// (`eitherDirectionLanguages`) are not.
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "azb", "bal", "bgn", "bqi", "ckb", "dv", "fa", "glk", "haz", "he", "iw", "ji", "khw", "ks",
        "lrc", "mzn", "nqo", "pnb", "prs", "ps", "sd", "sdh", "skr", "syc", "syr", "ug", "ur", "yi",
        // Arabic's, Persian's, Pashto's and Yiddish's varieties by their own codes (Egyptian
        // Arabic is `arz`, Iranian Persian `pes`), and Ottoman Turkish.
        "acm", "acq", "aeb", "afb", "ajp", "apc", "apd", "arb", "arq", "ars", "ary", "arz", "ayl", "pes",
        "pbt", "pbu", "pst", "ydd", "yih", "ota",
        // Biblical Hebrew; Samaritan Hebrew and Aramaic; Mandaic; the Jewish languages written in
        // Hebrew letters (Judeo-Arabic and its varieties, Judeo-Persian); Old Aramaic, Phoenician.
        "hbo", "smp", "sam", "mid", "myz", "jrb", "aju", "yhd", "yud", "jye", "jpr", "oar", "phn",
        // Written in Arabic letters (CLDR's likely script, and the one in use): Brahui, Lahnda,
        // Hindko, Gujari, Torwali, Indus Kohistani, Shina, Kalami, Gawar-Bati, Ormuri, Phalura,
        // Dhatki and the Koli languages of Pakistan; Deccani; Laki, Southern Luri, Parsi-Dari,
        // Zoroastrian Dari; Chadian and Eastern Egyptian Bedawi Arabic.
        "brh", "lah", "hnd", "hno", "gju", "trw", "mvy", "scl", "gwc", "gwt", "oru", "phl", "mki", "gjk", "kvx",
        "kxp", "dcc", "lki", "luz", "prd", "gbz", "shu", "avl",
        // Languages known only in scripts written right to left: Avestan, Old Turkic, Pahlavi,
        // Sogdian, Chorasmian, Lydian, Manichaean, Meroitic, Old North Arabian, Parthian,
        // Sabaean, Old Uyghur.
        "ae", "otk", "pal", "sog", "xco", "xld", "xmn", "xmr", "xna", "xpr", "xsa", "oui",
    ]

    /// Languages written in either direction's letters as much (Ladino, Rohingya and Balti in
    /// Latin ones too: a Latin label tagged `lad` read "!Bienvenidos¡" set right to left), and
    /// the codes of no one language (undetermined, several, uncoded, no language): a text block
    /// in one takes the direction of its first strong letter, as one without a language does.
    /// Also those whose likely script in CLDR is one written right to left but that are written
    /// in Latin (or other) letters as much or more: Beja, Nobiin, Andaandi, Kenuzi-Dongola, Maba,
    /// Manga Kanuri, Adamawa Fulfulde, the Comorian languages, Domari, Western Cham, Pattani
    /// Malay; Prakrit (CLDR: Kharoshthi) and Ancient Greek (CLDR: Cypriot), whose texts are mostly
    /// in Brahmi, Devanagari and Greek letters.
    static let eitherDirectionLanguages: Set<String> = [
        "bft", "lad", "rhg", "mis", "mul", "und", "zxx",
        "bej", "fia", "dgl", "kzh", "mde", "kby", "fub", "swb", "zdj", "wni", "rmt", "cja", "mfa", "pra", "grc",
    ]

    /// ISO 15924 scripts written right to left (CLDR's characterOrder right-to-left); a variant
    /// (`aran`, `syrj`) counts as its script (`scriptFamilySubtag`).
    static let rightToLeftScripts: Set<String> = [
        "adlm", "arab", "armi", "avst", "chrs", "cprt", "elym", "hatr", "hebr", "hung",
        "khar", "lydi", "mand", "mani", "mend", "merc", "mero", "narb", "nbat", "nkoo", "orkh",
        "ougr", "palm", "phli", "phlp", "phnx", "prti", "rohg", "samr", "sarb", "sogd", "sogo",
        "syrc", "thaa", "yezi",
    ]

    /// Language-region pairs written in another script than the language's usual one, and that
    /// script (CLDR 42's likelySubtags, as ICU 72 has them): Arabic letters for az-IR
    /// (az-Arab-IR), pa-PK, uz-AF, ...; Cyrillic for Uyghur in Kazakhstan and Mongolia, Latin
    /// for Serbian in Montenegro. Only the pairs where that script is the usual one: CLDR has
    /// more (ha-CM, ms-CC), whose text is as often in Latin letters. A string catalog's
    /// strings in the language's usual script are not such a locale's (`Language.script`).
    static let regionalScripts: [String: String] = [
        "az-iq": "arab", "az-ir": "arab", "kk-af": "arab", "kk-cn": "arab", "kk-ir": "arab", "kk-mn": "arab",
        "ky-cn": "arab", "pa-pk": "arab", "tg-pk": "arab", "uz-af": "arab", "ku-lb": "arab", "ha-sd": "arab",
        "ug-kz": "cyrl", "ug-mn": "cyrl", "uz-cn": "cyrl", "az-ru": "cyrl", "sr-me": "latn", "sr-ro": "latn",
        "sr-tr": "latn", "ky-tr": "latn", "mn-cn": "mong", "sd-in": "deva",
    ]
    /// The pairs where both scripts are written as much, of either direction: Sindhi in India
    /// in Devanagari and Arabic letters (CLDR's sd-IN is sd-Deva-IN, whose strings a catalog's
    /// `sd-IN` takes, in its left-to-right interface), Mandingo in Guinea in N'Ko and Latin
    /// ones (CLDR 42's man-Nkoo-GN; a catalog's `man` strings, in Latin letters, are
    /// `man-GN`'s, as its interface is left to right).
    static let eitherDirectionRegionalLanguages: Set<String> = ["man-gn", "sd-in"]

    /// The script of a right-to-left `language`'s letters: Hebrew's for Hebrew, Yiddish and the
    /// Jewish languages written in Hebrew letters, Thaana for Dhivehi, Syriac, N'Ko, none for
    /// those written in several or in their own (Aramaic, Samaritan, Mandaic, Phoenician), and
    /// Arabic's for the others (a script subtag says another: `az-Arab`).
    static func rightToLeftScript(of language: String) -> Script? {
        let subtags = subtags(of: language)
        if let named = scriptFamilySubtag(subtags),
            let script = Script(code: named.prefix(1).uppercased() + named.dropFirst())
        {
            return script
        }
        let primary = subtags.first.map { twoLetterCodes[$0] ?? $0 } ?? ""
        switch primary {
        case "he", "iw", "yi", "ji", "ydd", "yih", "hbo", "jrb", "aju", "yhd", "yud", "jye", "jpr": return .hebrew
        case "dv": return Script(code: "Thaa") ?? .unknown
        case "syr", "syc": return Script(code: "Syrc") ?? .unknown
        case "nqo": return Script(code: "Nkoo") ?? .unknown
        case "arc", "oar", "sam", "smp", "mid", "myz", "phn": return nil
        default: return .arabic
        }
    }

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
        if let script = scriptFamilySubtag(subtags) { return rightToLeftScripts.contains(script) }
        let language = twoLetterCodes[primary] ?? primary
        if let region = regionSubtag(subtags) {
            let pair = language + "-" + region
            if eitherDirectionRegionalLanguages.contains(pair) { return false }
            if let script = regionalScripts[pair] { return rightToLeftScripts.contains(script) }
        }
        return rightToLeftLanguages.contains(language)
    }

    /// The direction `language` gives a text block (SPEC §4: its `dir`, else its `lang`): true
    /// for right to left, false for left to right, nil for a language of either direction's
    /// letters (`eitherDirectionLanguages`, `eitherDirectionRegionalLanguages`) without a script
    /// subtag: the text's first strong letter decides.
    public static func declaredRightToLeft(language: String) -> Bool? {
        if isRightToLeft(language: language) { return true }
        if language.utf8.count <= 3, language.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) {
            return eitherDirectionLanguages.contains(language) ? nil : false
        }
        let subtags = subtags(of: language)
        guard let primary = subtags.first, scriptSubtag(subtags) == nil else { return false }
        let pair = regionSubtag(subtags).map { (twoLetterCodes[primary] ?? primary) + "-" + $0 }
        return eitherDirectionLanguages.contains(primary) || pair.map(eitherDirectionRegionalLanguages.contains) == true ? nil : false
    }

    /// Languages whose default digits are their script's own, not Arabic (CLDR).
    static let nativeDefaults: [String: NumberingSystem] = [
        "bn": .beng, "as": .beng, "mni": .beng, "mr": .deva, "ne": .deva, "sa": .deva, "raj": .deva,
        "bgc": .deva, "bho": .deva, "my": .mymr, "dz": .tibt, "sat": .olck, "ccp": .cakm,
    ]

    /// Regions of Arabic that write Latin digits by default (CLDR 42, as ICU 72 reports them);
    /// the rest use `arab`.
    static let arabicRegionsWithLatinDigits: Set<String> = ["ae", "ma", "dz", "tn", "ly", "eh"]

    /// The locale's default digits per CLDR (`defaultNumberingSystem`, as ICU 72 reports it),
    /// but for the Arabic-script languages of Iran and Iraq that Debian's CLDR (41) and ICU 72
    /// leave out, for which ICU falls back to the root's 0-9: `az-IR`, `az-IQ`, `bgn` and `glk`
    /// take Persian digits and `sdh` and `bqi` Arabic-Indic ones, as written there (CLDR's seed
    /// data, not checked here). A `-u-nu-` extension naming a known system wins
    /// (`ar-u-nu-latn`); a script subtag other than the system's gives `latn` (`pa-Arab` is
    /// `arabext`, `mni-Mtei` `latn`).
    public static func defaultNumberingSystem(locale: String) -> NumberingSystem {
        let subtags = subtags(of: locale)
        if let system = numberingKeyword(of: locale).flatMap(NumberingSystem.init(rawValue:)) { return system }
        guard let primary = subtags.first.map({ oldCodes[$0] ?? $0 }) else { return .latn }
        let region = regionSubtag(subtags)
        let script = scriptFamilySubtag(subtags)
        if let native = nativeDefaults[primary] {
            return script == nil || script == native.rawValue ? native : .latn
        }
        if let script, script != "arab" { return .latn }
        switch primary {
        case "ar":
            return region.map(arabicRegionsWithLatinDigits.contains) == true ? .latn : .arab
        case "fa", "ps", "pbt", "pst", "ks", "lrc", "mzn", "bgn", "glk", "prs": return .arabext
        case "ur": return region == "in" ? .arabext : .latn
        case "sd" where region == "in" && script == nil: return .latn  // sd-Deva-IN
        case "ckb", "sd", "sdh", "bqi": return .arab
        case "pa" where script == "arab" || region == "pk": return .arabext
        case "uz" where script == "arab" || region == "af": return .arabext
        case "az" where script == "arab" || region == "ir" || region == "iq": return .arabext
        default: return .latn
        }
    }

    /// The digits CLDR makes `locale`'s default that typeset does not show, for which
    /// `defaultNumberingSystem` gives 0-9: N'Ko's (`nqo`: "nkoo"), Adlam's (`ff-Adlm`: "adlm")
    /// and Meetei Mayek's (`mni-Mtei`: "mtei"). Nil for any other, and where a `nu` key chooses.
    public static func unshownDefaultDigits(locale: String) -> String? {
        guard numberingKeyword(of: locale) == nil else { return nil }
        let subtags = subtags(of: locale)
        guard let primary = subtags.first.map({ oldCodes[$0] ?? $0 }) else { return nil }
        switch (primary, scriptSubtag(subtags)) {
        case ("nqo", nil), ("nqo", "nkoo"): return "nkoo"
        case ("ff", "adlm"): return "adlm"
        case ("mni", "mtei"): return "mtei"
        default: return nil
        }
    }

    /// The digits `tag`'s `nu` key asks for when typeset does not show them (`ar-u-nu-thai`:
    /// "thai"), nil otherwise: refused in `--locale`, warned of in a `lang`.
    public static func unshownDigits(of tag: String) -> String? {
        numberingKeyword(of: tag).flatMap { NumberingSystem(rawValue: $0) == nil ? $0 : nil }
    }

    /// The value of the `nu` key of `tag`'s Unicode extension (`-u-`), wherever it stands among
    /// its keys (`ar-SA-u-ca-islamic-nu-latn`: "latn"; it was read only as the first, and that
    /// locale showed Arabic-Indic digits); nil without one.
    public static func numberingKeyword(of tag: String) -> String? {
        let subtags = subtags(of: tag)
        // (Not in private use, `-x-…`, where a `u` is no extension.)
        let end = subtags.dropFirst().firstIndex(of: "x") ?? subtags.endIndex
        guard let u = subtags[..<end].dropFirst().firstIndex(of: "u") else { return nil }
        var index = u + 1
        while index < end, subtags[index].count > 1 {  // up to the next singleton
            if subtags[index] == "nu" { return index + 1 < subtags.count && subtags[index + 1].count > 2 ? subtags[index + 1] : nil }
            index += 1
        }
        return nil
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

    /// ISO 639-2's three-letter codes (terminology and bibliographic) of languages that have a
    /// two-letter one, which BCP 47 uses instead: all 204 (Debian's iso-codes). `lang="ara"` was
    /// taken for an unknown language and set left to right, and `kas` stayed so where `ks` did not.
    static let twoLetterCodes = [
        "aar": "aa", "abk": "ab", "afr": "af", "aka": "ak", "alb": "sq", "amh": "am", "ara": "ar",
        "arg": "an", "arm": "hy", "asm": "as", "ava": "av", "ave": "ae", "aym": "ay", "aze": "az",
        "bak": "ba", "bam": "bm", "baq": "eu", "bel": "be", "ben": "bn", "bih": "bh", "bis": "bi",
        "bod": "bo", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my", "cat": "ca", "ces": "cs",
        "cha": "ch", "che": "ce", "chi": "zh", "chu": "cu", "chv": "cv", "cor": "kw", "cos": "co",
        "cre": "cr", "cym": "cy", "cze": "cs", "dan": "da", "deu": "de", "div": "dv", "dut": "nl",
        "dzo": "dz", "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "ewe": "ee",
        "fao": "fo", "fas": "fa", "fij": "fj", "fin": "fi", "fra": "fr", "fre": "fr", "fry": "fy",
        "ful": "ff", "geo": "ka", "ger": "de", "gla": "gd", "gle": "ga", "glg": "gl", "glv": "gv",
        "gre": "el", "grn": "gn", "guj": "gu", "hat": "ht", "hau": "ha", "heb": "he", "her": "hz",
        "hin": "hi", "hmo": "ho", "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ice": "is",
        "ido": "io", "iii": "ii", "iku": "iu", "ile": "ie", "ina": "ia", "ind": "id", "ipk": "ik",
        "isl": "is", "ita": "it", "jav": "jv", "jpn": "ja", "kal": "kl", "kan": "kn", "kas": "ks",
        "kat": "ka", "kau": "kr", "kaz": "kk", "khm": "km", "kik": "ki", "kin": "rw", "kir": "ky",
        "kom": "kv", "kon": "kg", "kor": "ko", "kua": "kj", "kur": "ku", "lao": "lo", "lat": "la",
        "lav": "lv", "lim": "li", "lin": "ln", "lit": "lt", "ltz": "lb", "lub": "lu", "lug": "lg",
        "mac": "mk", "mah": "mh", "mal": "ml", "mao": "mi", "mar": "mr", "may": "ms", "mkd": "mk",
        "mlg": "mg", "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nau": "na",
        "nav": "nv", "nbl": "nr", "nde": "nd", "ndo": "ng", "nep": "ne", "nld": "nl", "nno": "nn",
        "nob": "nb", "nor": "no", "nya": "ny", "oci": "oc", "oji": "oj", "ori": "or", "orm": "om",
        "oss": "os", "pan": "pa", "per": "fa", "pli": "pi", "pol": "pl", "por": "pt", "pus": "ps",
        "que": "qu", "roh": "rm", "ron": "ro", "rum": "ro", "run": "rn", "rus": "ru", "sag": "sg",
        "san": "sa", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "sme": "se", "smo": "sm",
        "sna": "sn", "snd": "sd", "som": "so", "sot": "st", "spa": "es", "sqi": "sq", "srd": "sc",
        "srp": "sr", "ssw": "ss", "sun": "su", "swa": "sw", "swe": "sv", "tah": "ty", "tam": "ta",
        "tat": "tt", "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th", "tib": "bo", "tir": "ti",
        "ton": "to", "tsn": "tn", "tso": "ts", "tuk": "tk", "tur": "tr", "twi": "tw", "uig": "ug",
        "ukr": "uk", "urd": "ur", "uzb": "uz", "ven": "ve", "vie": "vi", "vol": "vo", "wel": "cy",
        "wln": "wa", "wol": "wo", "xho": "xh", "yid": "yi", "yor": "yo", "zha": "za", "zho": "zh",
        "zul": "zu",
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
    /// `deprecatedCodes`, Norwegian's macrolanguage code, which Apple's systems take as Bokmål,
    /// and the codes CLDR replaces by their macrolanguage's or Apple's (`pes` is Persian, `fa`;
    /// `arb` Arabic; `pbu` Pashto; `tl` Filipino, `fil`): `lang="pes"` showed 0-9 for
    /// `numerals="auto"`, and `--locale tl` found no `fil` strings. One old code a current one
    /// (each is looked up the other way too).
    static let oldCodes = deprecatedCodes.merging(["no": "nb", "pes": "fa", "arb": "ar", "pbu": "ps", "tl": "fil"]) { old, _ in old }

    /// Whether two tags are of one language, whatever their region or script (`ar-EG` and `ar`,
    /// `iw` and `he`).
    public static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func language(_ tag: String) -> String? { subtags(of: tag).first.map { oldCodes[$0] ?? $0 } }
        return language(a) == language(b)
    }

    /// A `lang` of the markup, or `locale` when it is a finer form of it in the same script
    /// (`lang="ar"` under `--locale ar-MA` is `ar-MA`, whose digits `numerals="auto"` chooses:
    /// a sheet's columns of ar-EG and ar-MA showed the same digits; but `pa` stays under
    /// `pa-PK`, written in Arabic letters, right to left); the locale when there is no `lang`.
    static func refined(_ pinned: String?, by locale: String?) -> String? {
        guard let pinned else { return locale }
        guard let locale else { return pinned }
        var own = subtags(of: pinned)
        var finer = subtags(of: locale)
        // Old codes are their current ones (`--locale pes-IR` under `lang="fa"` is fa-IR, and
        // `--locale ar-MA` under `lang="arb"` ar-MA); one code on both sides stays as written
        // (`lang="no"` under `--locale no-NO` is no-NO).
        let renamed = own.first != finer.first
        for i in own.indices.prefix(1) { own[i] = oldCodes[own[i]] ?? own[i] }
        for i in finer.indices.prefix(1) { finer[i] = oldCodes[finer[i]] ?? finer[i] }
        guard !own.isEmpty, !isPrivateUse(own), finer.count > own.count, finer.starts(with: own), sameScript(locale, pinned)
        else { return pinned }
        return renamed ? canonicalCase(tag: finer.joined(separator: "-")) : locale
    }

    /// Whether two tags are of one script: by `script(of:)`, and where only one of them names or
    /// implies one, by the script ICU's likely subtags give the other (`lang="ar"` under
    /// `--locale ar-Arab-MA` is ar-Arab-MA; under `ar-Latn-MA` it stays `ar`). A variant of a
    /// script is that script (`scriptFamily`: Urdu's likely script is Aran, Nastaliq).
    static func sameScript(_ a: String, _ b: String) -> Bool {
        switch (script(of: a).map(scriptFamily), script(of: b).map(scriptFamily)) {
        case (let x?, let y?): return x == y
        case (nil, nil): return true
        case (let x?, nil): return likelyScript(of: b).map(scriptFamily) == x
        case (nil, let y?): return likelyScript(of: a).map(scriptFamily) == y
        }
    }

    /// Whether two tags are one language written in one script (`pa` and `pa-PK`, Gurmukhi
    /// and Arabic letters, are not; `ar` and `ar-EG` are).
    public static func sameLanguageAndScript(_ a: String, _ b: String) -> Bool {
        sameLanguage(a, b) && sameScript(a, b)
    }

    /// The script a tag names or implies (`script(of:)`), else ICU's likely one (`hi`: `deva`);
    /// nil when neither is known.
    static func usualScript(of tag: String) -> String? {
        script(of: tag) ?? likelyScript(of: tag)
    }

    /// Whether `tag` is written in another script than `script` (lower-cased), by its
    /// `writingScript` (`hi`: Devanagari, not `hi-Latn`'s Latin); false when that is not known.
    static func isWritten(_ tag: String, inAnotherScriptThan script: String) -> Bool {
        writingScript(of: tag).map { $0 != scriptFamily(script) } ?? false
    }

    /// `usualScript(of:)` as `scriptFamily` gives it.
    static func writingScript(of tag: String) -> String? {
        usualScript(of: tag).map(scriptFamily)
    }

    /// Whether a character of `script` is one of a language written in `writing`
    /// (`writingScript(of:)`): Japanese's kana and kanji, Korean's Hangul and hanja, Chinese's Han.
    static func isLetter(of script: Script, in writing: String) -> Bool {
        let code = scriptFamily(script.code.lowercased())
        switch writing {
        case "jpan", "kore": return code == writing || code == "hani"
        case "hans", "hant": return code == "hani"
        default: return code == writing
        }
    }

    /// A lower-cased script code as the script it is a variant or a mix of: Nastaliq (`aran`)
    /// is Arabic, Japanese's `jpan` and Korean's `kore` are the scripts the language's tags
    /// name (`hira`, `kana`, `hrkt`; `hang`), Chinese's `hani` stays apart from `hans`/`hant`.
    private static func scriptFamily(_ script: String) -> String {
        switch script {
        case "aran": "arab"
        case "hira", "kana", "hrkt": "jpan"
        case "hang": "kore"
        case "syre", "syrj", "syrn": "syrc"
        case "latf", "latg": "latn"
        case "cyrs": "cyrl"
        case "geok": "geor"
        default: script
        }
    }

    /// The script subtag, lower-cased, of ICU's likely subtags for `tag` (`ar`: `arab`; an old
    /// code as its current one, `arb` as `ar`); nil when ICU has none.
    static func likelyScript(of tag: String) -> String? {
        likelySubtag(of: tag, swift_uloc_getScript).flatMap { $0.count == 4 ? $0 : nil }
    }

    /// The region subtag, lower-cased, of ICU's likely subtags for `tag` (`fr`: `fr`,
    /// `zh-Hant`: `tw`, `ar`: `eg`); nil when ICU has none.
    static func likelyRegion(of tag: String) -> String? {
        likelySubtag(of: tag, swift_uloc_getCountry)
    }

    /// One subtag, by `part` (`uloc_getScript`, `uloc_getCountry`), of ICU's likely subtags
    /// for `tag`, lower-cased; nil when ICU has none.
    private static func likelySubtag(
        of tag: String,
        _ part: (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int32, UnsafeMutablePointer<UErrorCode>?) -> Int32
    ) -> String? {
        var parts = subtags(of: tag)
        guard let language = parts.first else { return nil }
        parts[0] = oldCodes[language] ?? language
        var status = U_ZERO_ERROR
        var full = [CChar](repeating: 0, count: 160)
        let length = swift_uloc_addLikelySubtags(parts.joined(separator: "-"), &full, Int32(full.count - 1), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
        var subtag = [CChar](repeating: 0, count: 16)
        let subtagLength = part(full, &subtag, Int32(subtag.count - 1), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, subtagLength > 0 else { return nil }
        return String(decoding: subtag.prefix(Int(subtagLength)).map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
    }

    /// The script a normalized tag names (`zh-hant-tw`: `hant`) or implies: Chinese by its region
    /// (`zh-tw`: `hant`, `zh-cn` and `zh`: `hans`), a language written in another script in a
    /// region (`sd-in`: `deva`, `pa-pk`: `arab`; `Language.regionalScripts`), a language written
    /// in several scripts by its usual one (`sr`: `cyrl`, CLDR's likely subtags); nil for the
    /// others. (`--locale sd-IN` took a string catalog's Arabic-script `sd` strings into a
    /// left-to-right screen, where `sd-Deva` said it has none.)
    static func script(of tag: String) -> String? {
        let parts = Language.subtags(of: tag)
        if let named = Language.scriptSubtag(parts) { return named }
        guard let language = parts.first else { return nil }
        if let region = Language.regionSubtag(parts),
            let regional = Language.regionalScripts[(Language.twoLetterCodes[language] ?? language) + "-" + region]
        {
            return regional
        }
        guard language == "zh" else { return usualScripts[language] }
        return parts.dropFirst().contains { ["tw", "hk", "mo"].contains($0) } ? "hant" : "hans"
    }

    /// Languages written in more than one script, and the script their bare tag means.
    private static let usualScripts: [String: String] = [
        "sr": "cyrl", "uz": "latn", "az": "latn", "bs": "latn", "pa": "guru", "sd": "arab", "ks": "arab",
        "mn": "cyrl", "ms": "latn", "kk": "cyrl", "ha": "latn", "tg": "cyrl", "ku": "latn", "shi": "tfng",
        "vai": "vaii", "ff": "latn", "ky": "cyrl", "ug": "arab", "man": "latn",
    ]


    /// Lower-cased subtags; `_` counts as `-`.
    static func subtags(of tag: String) -> [String] {
        tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    }

    /// Whether the subtags are of a private-use or grandfathered tag (`x-…`, `i-…`): no language
    /// of its own to refine or fall back from, no script or region subtag (`x-foo-latn`).
    static func isPrivateUse(_ subtags: [String]) -> Bool {
        subtags.first?.count == 1
    }

    /// The 4-letter script subtag after the language (and any extlang subtags).
    static func scriptSubtag(_ subtags: [String]) -> String? {
        guard !subtags.isEmpty, !isPrivateUse(subtags) else { return nil }
        for subtag in subtags.dropFirst() {
            if subtag.count == 4, subtag.utf8.allSatisfy(isASCIILetter) { return subtag }
            if subtag.count != 3 || !subtag.utf8.allSatisfy(isASCIILetter) { return nil }
        }
        return nil
    }

    /// The script subtag as the script it is a variant of (`scriptFamily`): Estrangela, Western
    /// and Eastern Syriac (`syr-Syrj`) are Syriac, right to left; Nastaliq (`fa-Aran`) is
    /// Arabic, with its language's digits. (`syr-Syrj` was laid out left to right.)
    static func scriptFamilySubtag(_ subtags: [String]) -> String? {
        scriptSubtag(subtags).map(scriptFamily)
    }

    /// The 2-letter or 3-digit region subtag after the language, extlang and script subtags.
    static func regionSubtag(_ subtags: [String]) -> String? {
        guard !subtags.isEmpty, !isPrivateUse(subtags) else { return nil }
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
