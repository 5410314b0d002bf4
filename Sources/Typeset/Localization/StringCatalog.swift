// String catalogs (SPEC 5.2): Apple String Catalogs (.xcstrings), .strings files, and JSON
// objects of key → text, with locale fallback ar-EG → ar (zh-TW → zh-Hant, es-MX → es-419) → the
// catalog's source language.

import FoundationEssentials

/// A catalog's strings as one locale sees them, looked up key by key along its fallback chain
/// (a batch looks up each document's few keys in the document's own language, and merging the
/// languages' tables for every document would cost more than its layout).
public struct LocalizedStrings: Sendable {
    let tables: [String: [String: String]]
    /// Most specific first (`StringCatalog.fallbackChain`).
    let languages: [String]
    /// How many of `languages` are the locale's own; the others are fallbacks (the catalog's
    /// source language). All of them when there is nothing to tell apart: no locale, a file of
    /// one language, or a locale the catalog has no strings for at all (`hasLocale`).
    let ownLanguages: Int
    /// The locale, as given.
    let locale: String?
    /// The catalog's source language, normalized.
    let sourceLanguage: String?
    /// Keys whose source-language text is every locale's (`StringCatalog.untranslatable`).
    let untranslatable: Set<String>
    /// `StringCatalog.problems` and `keysWithoutText`.
    let problems: [String: [String: Diagnostic]]
    let keysWithoutText: Set<String>
    /// Language → key → text of the device's variation, where it is not the `other` one, and
    /// → why that variation cannot be read.
    let deviceTables: [String: [String: String]]
    let deviceProblems: [String: [String: Diagnostic]]
    /// Language → the keys whose device's form is not translated there (`StringCatalog.deviceUntranslated`).
    let deviceUntranslated: [String: Set<String>]
    /// False when the catalog has no strings for the locale at all: every key shows the source
    /// language's text, which is one warning (at the catalog for `--locale`, else at the
    /// document), not one per key.
    public let hasLocale: Bool
    /// The table "" holds a Base.lproj file's strings (`StringCatalog.hasBase`).
    var hasBase = false

    public struct LookedUp: Sendable {
        public var text: String
        /// The language it came from, when that is not the locale's own.
        public var fallback: String?
        /// The language of its table, as people write it (`en-GB`); nil for a file of one
        /// language, whose language is not known.
        public var language: String?
        /// The catalog has no text for the key, not even in its source language: `text` is the
        /// key, which Xcode reads as the source text of a key it extracted from code.
        public var isKey = false
        /// The catalog's entry for the key is broken (only the documents that use it fail).
        public var problem: Diagnostic?
        /// It is a Base.lproj file's text, shown for a locale that has strings but not this one.
        public var fromBase = false

        /// The text an element shows for the key (SPEC 5.2): none when the entry is broken. A
        /// key the catalog has without text shows itself, as the app does: Xcode writes a string
        /// extracted from code, `Text("إلغاء")`, with translations only or none, the key its
        /// source text (an Arabic screen showed the mockup's English "Cancel" instead). But
        /// where the element has text of its own and the key is an identifier
        /// (`settings.title`, added by hand) or a format string ("%lld files", whose sample
        /// value the element's "3 files" has), that text is the fallback: none.
        public func shown(hasOwnText: Bool) -> String? {
            problem == nil && !(isKey && hasOwnText && Self.prefersOwnText(text)) ? text : nil
        }

        /// Whether an element's own text shows rather than `key`: a key with a format specifier,
        /// or one that reads as an identifier rather than text: ASCII letters, digits, ". _ /"
        /// and "-", no space, with a dot or underscore inside (a slash, with small letters), in
        /// camel case, or in lower case (`settings.title`, `settings/title`, `BUTTON_OK`,
        /// `settingsTitle`, `HomeScreenTitle`, `ok`; not
        /// "Cancel", "OK", "SAVE", "Wi-Fi", "Back Up", "N/A", "إلغاء", which Xcode extracts from
        /// code as they are shown, and the app shows).
        static func prefersOwnText(_ key: String) -> Bool {
            if !FormatSpecifiers.find(in: key).isEmpty { return true }
            var separated = false  // a dot or underscore with a letter or digit after it ("Done." is text)
            var afterSeparator = false
            var capital = false
            var lower = false
            var slash = false  // "settings/title", not "N/A" nor "24/7"
            var camel = false  // a capital right after a lower-case letter
            var previousLower = false
            for byte in key.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    capital = true
                    camel = camel || previousLower
                    previousLower = false
                case UInt8(ascii: "a")...UInt8(ascii: "z"):
                    lower = true
                    previousLower = true
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    previousLower = false
                case UInt8(ascii: "-"):
                    previousLower = false
                    afterSeparator = false
                    continue
                case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "/"):
                    slash = slash || byte == UInt8(ascii: "/")
                    previousLower = false
                    afterSeparator = true
                    continue
                default:
                    return false
                }
                separated = separated || afterSeparator
                afterSeparator = false
            }
            return separated && (!slash || lower) || camel || lower && !capital
        }
    }

    public subscript(key: String) -> String? { lookUp(key)?.text }

    /// The catalog's key that `key`, which it lacks, was likely meant to be: the same but for
    /// case or white space at its ends ("Greet", " greet"), else one or two letters apart
    /// ("gret"), the nearest (the first in order of equals); nil when none is. Keys of four
    /// letters or more only, but the first kind.
    public func nearestKey(to key: String) -> String? {
        func normalized(_ text: String) -> String { text.trimmingWhitespace().lowercased() }
        // The characters of a key, case folded, spaces left out, as bits: two edits change
        // at most four of them, and most keys are passed over by that alone, before anything
        // is made of them (a catalog of 40,000 keys took 30 ms a key).
        func signature(_ text: String) -> (count: Int, bits: UInt64) {
            var count = 0
            var bits: UInt64 = 0
            for scalar in text.unicodeScalars {
                count += 1
                guard scalar != " " && scalar != "\t" && scalar != "\u{A0}" else { continue }  // (a property lookup took 80%)
                let folded = ("A"..."Z").contains(scalar) ? scalar.value + 32 : scalar.value
                bits |= 1 << UInt64(folded & 63)
            }
            return (count, bits)
        }
        let plain = normalized(key)
        let typed = Array(key.unicodeScalars)
        let typedSignature = signature(key)
        // Distance 0: the same but for case and spaces; then one or two letters apart.
        var best: (distance: Int, key: String)?
        func consider(_ candidate: String) {
            let other = signature(candidate)
            guard abs(other.count - typed.count) <= 2, (other.bits ^ typedSignature.bits).nonzeroBitCount <= 4 else { return }
            let distance: Int
            if normalized(candidate) == plain {
                distance = 0
            } else {
                guard typed.count >= 4, let apart = Self.editDistance(typed, Array(candidate.unicodeScalars), atMost: 2) else {
                    return
                }
                distance = apart
            }
            if best.map({ distance < $0.distance || distance == $0.distance && candidate < $0.key }) ?? true {
                best = (distance, candidate)
            }
        }
        for table in tables.values { table.keys.forEach(consider) }
        for table in problems.values { table.keys.forEach(consider) }
        keysWithoutText.forEach(consider)
        return best?.key
    }

    /// Levenshtein's distance of `a` and `b` when it is at most `limit`, else nil (only the
    /// band of diagonals within `limit` is filled).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        let far = limit + 1
        var previous = Array(0...b.count).map { min($0, far) }
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [Int](repeating: far, count: b.count + 1)
            current[0] = min(i, far)
            let low = max(1, i - limit), high = min(b.count, i + limit)
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, far)
                }
            }
            guard current.min() ?? far < far else { return nil }
            previous = current
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The text of `key` and the language it came from, when that is a fallback: a key the
    /// locale has no string for shows the source language's (SPEC 5.2), which localization
    /// testing wants to be told of.
    public func lookUp(_ key: String) -> LookedUp? {
        if let problem = problems[""]?[key] { return LookedUp(text: key, problem: problem) }
        // Languages as people write them (`en-GB`, `he` for a catalog's `iw`), in warnings and tags.
        func written(_ language: String?) -> String? { language.map { Language.canonical(tag: $0) } }
        for (index, language) in languages.enumerated() {
            // (The table "" is of files that name no language: taken to be in the locale's, as
            // a lone such file is; after a file that names one, `StringCatalog.merging`.)
            let isFallback = index >= ownLanguages && !untranslatable.contains(key) && !language.isEmpty
            // A device's own form first: device variations without an `other` form are a
            // problem only for the documents of another device, or of none; a broken form only
            // for its device's.
            let own = deviceTables[language]?[key]
            if let problem = deviceProblems[language]?[key] ?? (own == nil ? problems[language]?[key] : nil) {
                return LookedUp(text: key, fallback: isFallback ? written(language) : nil, problem: problem)
            }
            if deviceUntranslated[language]?.contains(key) == true { continue }
            if let text = own ?? tables[language]?[key] {
                var found = LookedUp(
                    text: text, fallback: isFallback ? written(language) : nil,
                    language: language.isEmpty ? nil : written(language))
                found.fromBase = language.isEmpty && hasBase && index >= ownLanguages
                return found
            }
        }
        guard keysWithoutText.contains(key) else { return nil }
        let own = languages.prefix(ownLanguages).contains { $0 == sourceLanguage } || untranslatable.contains(key)
        // The key is the source text of a key Xcode extracted from code: in the source
        // language, whatever the locale (it was tagged with the locale when the catalog had
        // no strings for it at all, and with the source language otherwise).
        return LookedUp(
            text: key, fallback: own ? nil : written(sourceLanguage), language: written(sourceLanguage), isKey: true)
    }
}

/// The format specifiers of a catalog string (`%@`, `%lld`, `%1$@`, ...), which the app fills
/// with values a mockup does not have.
enum FormatSpecifiers {
    /// The specifiers in `text`, in order; `%%` (a percent sign) is none.
    static func find(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return scan(scalars).compactMap { piece in
            guard case .specifier(let range) = piece else { return nil }
            return String(String.UnicodeScalarView(scalars[range]))
        }
    }

    /// The `%`s of `text` that begin no specifier and are no `%%`, each as the text it begins, up
    /// to 4 characters ("% of"): in a format string the app's `String(format:)` reads each with
    /// what follows (the "% o" of "100% of %@" is a conversion, octal with a space flag).
    static func strayPercents(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var used: Set<Int> = []
        for piece in scan(scalars) {
            switch piece {
            case .percent(let at): used.formUnion([at, at + 1])
            case .specifier(let range): used.insert(range.lowerBound)
            }
        }
        return scalars.indices.filter { scalars[$0] == "%" && !used.contains($0) }.map { at in
            String(String.UnicodeScalarView(scalars[at..<min(at + 4, scalars.count)]))
        }
    }

    /// A stretch of a format string as a mockup shows it: text, or one specifier.
    struct Shown: Equatable {
        var text: String
        var isSpecifier: Bool
    }

    /// `text` as a mockup shows it: `%%` as `%`, and each specifier as it is, isolated left to
    /// right (LRI … PDI) as the number or name the app puts there is set apart from the text
    /// around it. Not isolated, `%lld ملف` was a left-to-right paragraph (its first strong
    /// characters are the letters `lld`) and `%2$lld` read `lld$2` in Arabic.
    static func shown(_ text: String) -> String {
        joined(pieces(text))
    }

    /// A catalog string as a mockup shows it, in pieces: a format string (one with specifiers)
    /// as `pieces` gives it, another as it is, `%%` included (the app does not format it).
    static func shownPieces(_ text: String) -> [Shown] {
        find(in: text).isEmpty ? [Shown(text: text, isSpecifier: false)] : pieces(text)
    }

    /// The text of `pieces`, as `shown` gives it.
    static func joined(_ pieces: [Shown]) -> String {
        pieces.map(\.text).joined()
    }

    /// `shown`'s text in pieces, each specifier (with its isolate) a piece of its own: layout
    /// keeps a specifier whole and its digits as they are (`held`).
    ///
    /// A number the app fills in is one with what UAX #9 joins to it: other numbers and digits
    /// after one separator (`%1$lld:%2$02lld`, `5:%lld`, `%lld/%lld`: W4), and its signs (the
    /// `%` of `%lld%%`, a currency's: W5). They share its isolate: each in its own, a
    /// right-to-left line showed the minutes before the hours, and "75%" as "%75". After an
    /// Arabic letter, digits are Arabic numbers (W2), which a plus, minus or sign does not join
    /// (`القيمة %lld-%lld` reads right to left, as the app's "5-3" does): only the separators
    /// `.`, `,`, `:` and `/` do there.
    static func pieces(_ text: String) -> [Shown] {
        let scalars = Array(text.unicodeScalars)
        // What a mockup shows (`%%` as `%`), and which specifier each character is of.
        var shown: [Unicode.Scalar] = []
        var owner: [Int?] = []
        var specifiers: [(range: Range<Int>, isNumber: Bool)] = []
        func appendText(_ part: ArraySlice<Unicode.Scalar>) {
            shown += part
            owner += repeatElement(nil, count: part.count)
        }
        var done = 0
        for piece in scan(scalars) {
            switch piece {
            case .percent(let at):
                appendText(scalars[done...at])  // the first "%" of the two
                done = at + 2
            case .specifier(let range):
                appendText(scalars[done..<range.lowerBound])
                let start = shown.count
                shown += scalars[range]
                owner += repeatElement(Optional(specifiers.count), count: range.count)
                specifiers.append((start..<shown.count, isNumber(scalars[range.upperBound - 1])))
                done = range.upperBound
            }
        }
        appendText(scalars[done...])

        // Whether the last strong character before each position, specifiers aside, is an
        // Arabic letter: one pass (looked for backwards from each specifier, a string of many
        // specifiers and no letters took quadratic time).
        var afterArabic = [Bool](repeating: false, count: shown.count + 1)
        for (i, scalar) in shown.enumerated() {
            afterArabic[i + 1] = afterArabic[i]
            guard owner[i] == nil else { continue }
            switch scalar.bidiClass {
            case .AL: afterArabic[i + 1] = true
            case .L, .R: afterArabic[i + 1] = false
            default: break
            }
        }

        // Each specifier's isolate: its own, or its number's.
        var isolates: [Range<Int>] = []
        for specifier in specifiers {
            if let last = isolates.last, last.upperBound > specifier.range.lowerBound { continue }
            guard specifier.isNumber else {
                isolates.append(specifier.range)
                continue
            }
            let arabic = afterArabic[specifier.range.lowerBound]
            func isNumberStart(_ at: Int) -> Bool {
                at < shown.count && (owner[at].map { specifiers[$0].isNumber && specifiers[$0].range.lowerBound == at }
                    ?? NumberingSystem.isDigit(shown[at]))
            }
            func isText(_ at: Int) -> Bool { at >= 0 && at < shown.count && owner[at] == nil }
            func joins(_ at: Int) -> Bool {
                isText(at) && (shown[at].bidiClass == .CS || !arabic && shown[at].bidiClass == .ES)
            }
            func isSign(_ at: Int) -> Bool { !arabic && isText(at) && shown[at].bidiClass == .ET }
            var end = specifier.range.upperBound
            while true {
                if isSign(end) {
                    while isSign(end) { end += 1 }
                } else if isNumberStart(end) || joins(end) && isNumberStart(end + 1) {
                    if joins(end) { end += 1 }
                    if let other = owner[end] {
                        end = specifiers[other].range.upperBound
                    } else {
                        while isText(end) && NumberingSystem.isDigit(shown[end]) { end += 1 }
                    }
                } else {
                    break
                }
            }
            // Digits and signs before it, back to the previous isolate.
            let floor = isolates.last?.upperBound ?? 0
            var start = specifier.range.lowerBound
            while true {
                func isDigitText(_ at: Int) -> Bool { at >= floor && isText(at) && NumberingSystem.isDigit(shown[at]) }
                if start - 1 >= floor && isSign(start - 1) {
                    while start - 1 >= floor && isSign(start - 1) { start -= 1 }
                } else if isDigitText(start - 1) || start - 2 >= floor && joins(start - 1) && isDigitText(start - 2) {
                    if joins(start - 1) { start -= 1 }
                    while isDigitText(start - 1) { start -= 1 }
                } else {
                    break
                }
            }
            isolates.append(start..<end)
        }

        var pieces: [Shown] = []
        var at = 0
        for isolate in isolates {
            if at < isolate.lowerBound {
                pieces.append(Shown(text: String(String.UnicodeScalarView(shown[at..<isolate.lowerBound])), isSpecifier: false))
            }
            var specifier = String.UnicodeScalarView(["\u{2066}"])
            specifier.append(contentsOf: shown[isolate])
            specifier.append("\u{2069}")
            pieces.append(Shown(text: String(specifier), isSpecifier: true))
            at = isolate.upperBound
        }
        if at < shown.count || pieces.isEmpty {
            pieces.append(Shown(text: String(String.UnicodeScalarView(shown[at...])), isSpecifier: false))
        }
        return pieces
    }

    /// A specifier as layout sets it: with a word joiner between its characters, so that no
    /// line breaks inside it (UAX #14 allows one between "." and a digit: `%.2f` ended a line
    /// in "%."). The joiners show nothing and are left out of the text, as UAX #9 X9 leaves
    /// them (`isLeftOutOfText`).
    static func held(_ specifier: String) -> String {
        var held = String.UnicodeScalarView()
        for scalar in specifier.unicodeScalars {
            if !held.isEmpty && scalar != "\u{2069}" && held.last != "\u{2066}" { held.append("\u{2060}") }
            held.append(scalar)
        }
        return String(held)
    }

    /// Whether a specifier with this conversion is a decimal number (`%lld`, `%d`, `%.2f`): not
    /// `%@`, a character, or hexadecimal, which may be letters.
    private static func isNumber(_ conversion: Unicode.Scalar) -> Bool {
        "dDiuUoOfFeEgG".unicodeScalars.contains(conversion)
    }

    private enum Piece {
        case specifier(Range<Int>)
        /// A `%%` at this index.
        case percent(Int)
    }

    /// The specifiers and `%%`s of `scalars`, in order.
    private static func scan(_ scalars: [Unicode.Scalar]) -> [Piece] {
        var found: [Piece] = []
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "%" else {
                i += 1
                continue
            }
            var j = i + 1
            // Argument number, flags, width, precision and length, then the conversion.
            // (No space flag: "50% off" and French "50 % de plus" are percentages.)
            while j < scalars.count, "0123456789$#-+.*hlqLztj".unicodeScalars.contains(scalars[j]) { j += 1 }
            if j < scalars.count, scalars[j] == "%" && j == i + 1 {
                found.append(.percent(i))
                i = j + 1
                continue
            }
            // A substitution the catalog does not define: `%#@name@`, `%1$#@name@`, whole.
            if j < scalars.count, scalars[j] == "@", scalars[(i + 1)..<j].contains("#"),
                let close = scalars[(j + 1)...].firstIndex(where: { !isNameCharacter($0) }),
                close > j + 1, scalars[close] == "@"
            {
                found.append(.specifier(i..<close + 1))
                i = close + 1
                continue
            }
            if j < scalars.count, "@dDiuUxXoOfFeEgGcCsSpaA".unicodeScalars.contains(scalars[j]) {
                found.append(.specifier(i..<j + 1))
                i = j + 1
            } else {
                i += 1
            }
        }
        return found
    }

    /// A character of a substitution's name (an identifier).
    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}

/// The strings of a catalog file, by language.
public struct StringCatalog: Sendable {
    /// Language → key → text, the languages as `normalizedLanguage` gives them. Files of one
    /// language (.strings, plain JSON) use the language "".
    public var tables: [String: [String: String]]
    /// The catalog's source language (.xcstrings), the last fallback.
    public var sourceLanguage: String?
    /// `sourceLanguage` is only the language of an `.lproj` folder the file is in (no catalog
    /// said it is the source one).
    var sourceIsFolders = false
    /// The strings of a `Base.lproj` file are among `tables[""]`: the app's development
    /// language, the last fallback, before any other language's strings.
    public var hasBase = false
    /// Keys marked `"shouldTranslate": false` (.xcstrings): the source language's text is theirs.
    public var untranslatable: Set<String>
    /// Language → key → why its entry cannot be read (the language "": the whole entry). A
    /// flaw in one key fails the documents that use it, not every document.
    public var problems: [String: [String: Diagnostic]] = [:]
    /// Keys with no text in the source language (.xcstrings): Xcode reads such a key as its
    /// own source text; an element's own text comes first (SPEC 5.2).
    public var keysWithoutText: Set<String> = []
    /// What reading the file found that does not stop it being used (a key given twice).
    public var warnings: [Diagnostic] = []
    /// Where each key's entry is in the file (the later of a key given twice), for the warning
    /// about a key another file gives other text (`merging`).
    var keyLocations: [String: SourceLocation] = [:]
    /// Language → the warnings about plural variations that lack a form of the language
    /// (`lackingPluralForms`), said where a locale of that language is laid out.
    public var pluralWarnings: [String: [Diagnostic]] = [:]

    /// The warnings about plural variations of `locale`'s own languages.
    public func pluralWarnings(locale: String) -> [Diagnostic] {
        ownLanguages(locale).flatMap { pluralWarnings[$0] ?? [] }
    }
    /// Device → language → key → text, for the keys whose device variations give that device
    /// (`iphone`, `ipad`) another text than the `other` one in `tables`.
    public var deviceTables: [String: [String: [String: String]]] = [:]
    /// Device → language → key → why that device's variation cannot be read (a key of the
    /// `tables` may still have its `other` form).
    public var deviceProblems: [String: [String: [String: Diagnostic]]] = [:]
    /// Device → language → the keys whose form for that device is not translated yet (see
    /// `showsUntranslatedForm`) where their `other` one is: that device's documents take
    /// the next language's text.
    public var deviceUntranslated: [String: [String: Set<String>]] = [:]

    public init(tables: [String: [String: String]], sourceLanguage: String?, untranslatable: Set<String> = []) {
        self.untranslatable = untranslatable
        self.tables = [:]
        for (language, table) in tables {
            self.tables[StringCatalog.normalizedLanguage(language), default: [:]].merge(table) { _, new in new }
        }
        self.sourceLanguage = sourceLanguage
    }

    /// The languages tried for `locale`, most specific first: the locale's own
    /// (`ownLanguages(_:)`), then the source language.
    public func fallbackChain(locale: String?) -> [String] {
        fallbackChain(own: locale.map(ownLanguages) ?? [])
    }

    private func fallbackChain(own: [String]) -> [String] {
        var chain = own
        if let source = normalizedSource, !chain.contains(source) { chain.append(source) }
        chain.append("")
        return chain
    }

    /// The languages that are `locale`'s own, most specific first, as iOS matches them: the
    /// locale with its subtags dropped one by one from the end (`ar-EG`, `ar`), Chinese by its
    /// script (`zh-TW` → `zh-Hant`, `zh-CN` → `zh-Hans`), Latin American Spanish by `es-419`
    /// before `es`, Portuguese outside Brazil by `pt-PT`, English outside the United States by
    /// `en-GB`, Macao's Chinese by Hong Kong's; then, when none of those has strings (nor is the
    /// source language), one other form of the language in the same script: the source
    /// language (`en` → `en-US`), else the one of the language's likely region in CLDR (`fr`
    /// → `fr-FR` before `fr-CA`, `de-AT` → `de-DE`, `zh-Hant` → `zh-TW`), else the catalog's
    /// first (`pt` → `pt-BR`, `zh-TW` → `zh-HK`; never `zh-TW` → `zh-Hans`). An app shows one
    /// localization, the best the catalog has: a key its `fr` lacks shows the source language's
    /// text, not `fr-CA`'s (`--locale en` showed the catalog's `en-GB` "Colour" for a key with
    /// no `en` text).
    func ownLanguages(_ locale: String) -> [String] {
        var parts = StringCatalog.normalizedLanguage(locale).split(separator: "-").map(String.init)
        // A private-use or grandfathered tag is one language, no form of "x" or "i"
        // (`--locale x-klingon` showed a catalog's `x-pseudo`).
        if Language.isPrivateUse(parts) { return [parts.joined(separator: "-")] }
        var chain: [String] = []
        while !parts.isEmpty {
            chain.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        let language = chain.last ?? ""
        let subtags = Language.subtags(of: chain.first ?? "")
        let region = Language.regionSubtag(subtags)  // not a script: `en-Latn-US` is American
        var insert: String?  // before the bare language
        switch (language, region) {
        case ("zh", _):
            let script = Language.scriptSubtag(subtags)
            let traditional = script.map { $0 == "hant" } ?? ["tw", "hk", "mo"].contains(region ?? "")
            insert = traditional ? "zh-hant" : "zh-hans"
        case ("es", let region?) where StringCatalog.latinAmerica.contains(region): insert = "es-419"
        case ("pt", let region?) where region != "br" && region != "pt": insert = "pt-pt"
        case ("en", let region?) where !StringCatalog.americanEnglish.contains(region): insert = "en-gb"
        default: break
        }
        if let insert, !chain.contains(insert) { chain.insert(insert, at: chain.count - 1) }
        // Macao's Traditional Chinese is Hong Kong's (CLDR's parent of zh-Hant-MO is zh-Hant-HK).
        if insert == "zh-hant", region == "mo", !chain.contains("zh-hk"), let at = chain.firstIndex(of: "zh-hant") {
            chain.insert("zh-hk", at: at)
        }
        // The old codes and the current ones are one language: `--locale iw` takes a catalog's
        // `he`, and `he` its `iw`.
        let alias = Language.oldCodes[language] ?? Language.oldCodes.first { $0.value == language }?.key
        if let alias, !chain.contains(alias) { chain.append(alias) }
        // A form in another script is another writing: `sr-Latn` does not take `sr` (Cyrillic),
        // nor `zh-TW` `zh` (Simplified); as in CLDR, whose parent of such a locale is the root.
        // (The locale's likely script too: `--locale hi` took a catalog's `hi-Latn`, `yue-CN`,
        // Simplified, its `yue`, Traditional.)
        let script = Language.usualScript(of: chain[0])
        if let script {
            chain.removeAll { Language.isWritten($0, inAnotherScriptThan: script) }
        }
        func isForm(_ other: String) -> Bool {
            other.hasPrefix(language + "-") || alias.map { other.hasPrefix($0 + "-") } == true
        }
        // The catalog's forms of the language, once each: looked up in a set (the chain's
        // `contains` made a catalog of 40,000 forms of one language take 5 s a document).
        let languages = languages
        var inChain = Set(chain)
        // The locale itself spelt without its script (`zh-HK` for `zh-Hant-HK`; iOS adds the
        // likely script to both): right after it, before `zh-Hant`.
        if let script, let region = Language.regionSubtag(Language.subtags(of: chain[0])) {
            let spelt = languages.filter { other in
                isForm(other) && !inChain.contains(other)
                    && Language.script(of: other) == script && Language.regionSubtag(Language.subtags(of: other)) == region
            }
            chain.insert(contentsOf: spelt.reversed(), at: 1)
            inChain.formUnion(spelt)
        }
        if chain.contains(where: hasStrings(of:)) { return chain }
        // None of them has strings: the one form of the language an app would show instead
        // (`pt-BR` and `pt-PT` mixed key by key for `pt`): the source language when it is one
        // (`en-US` for `en`, not the catalog's `en-GB`), else the catalog's first in the script.
        func inScript(_ other: String) -> Bool {
            script.map { !Language.isWritten(other, inAnotherScriptThan: $0) } ?? true
        }
        if let source = normalizedSource, isForm(source), inScript(source) {
            return chain + [source]
        }
        // (The language's likely region first, as ICU's matcher takes it: `fr` → `fr-FR`,
        // `de-AT` → `de-DE`, `zh-Hant` → `zh-TW`, not the first in order, `fr-CA`, `de-CH`.)
        let forms = languages.filter { isForm($0) && !inChain.contains($0) && inScript($0) }
        let bare = script.map { language + "-" + $0 } ?? language
        let likely = Language.likelyRegion(of: bare).flatMap { region in
            forms.first { Language.regionSubtag(Language.subtags(of: $0)) == region }
        }
        if let other = likely ?? forms.first { chain.append(other) }
        return chain
    }

    /// The regions whose English is American: CLDR's parent of every other (`en-AU`, `en-IN`,
    /// `en-CA`, `en-150`, ...) is `en-001`, whose strings Apple's catalogs keep as `en-GB`.
    private static let americanEnglish: Set<String> = ["us", "as", "gu", "mh", "mp", "pr", "um", "vi"]

    /// The regions whose Spanish is `es-419` (Latin America and the United States).
    private static let latinAmerica: Set<String> = [
        "419", "ar", "bo", "cl", "co", "cr", "cu", "do", "ec", "gt", "hn", "mx", "ni", "pa", "pe", "pr", "py", "sv",
        "us", "uy", "ve",
    ]

    /// The languages an .xcstrings catalog has strings for, sorted (none for a file of one
    /// language). A language whose every entry is broken counts: its keys fail, they do not
    /// show the source language's text (it was warned about as a language the catalog lacks).
    public var languages: [String] { Set(tables.keys).union(problems.keys).filter { !$0.isEmpty }.sorted() }

    /// `languages` as people write them (`en-GB`, `zh-Hans`), for messages ("the catalog has
    /// …"): "no text in any language" for an .xcstrings catalog that has none.
    public var writtenLanguages: String {
        languages.isEmpty ? "no text in any language" : languages.map { Language.canonicalCase(tag: $0) }.joined(separator: ", ")
    }

    /// Whether `locale`, or a less specific form of it, has strings of its own or is the source
    /// language. False means every key shows the source language's text: `--locale fr` with a
    /// catalog of English and Arabic, or a misspelt locale. Always true for a file of one language
    /// (an .xcstrings catalog names its source language: one with no text yet, every
    /// translation of it "new" and empty, has strings for none but it).
    public func hasStrings(locale: String) -> Bool { hasStrings(own: ownLanguages(locale)) }

    /// Why the catalog's strings in `locale`'s bare language are not `locale`'s, when they are
    /// written in another script: "'uz' is written in Latin letters, 'uz-AF' in Arabic letters"
    /// (without it, a warning that the catalog has no strings for `uz-AF`, listing `uz`, read
    /// as a mistake); nil otherwise.
    public func otherScript(of locale: String) -> String? {
        let tag = StringCatalog.normalizedLanguage(locale)
        guard let language = Language.subtags(of: tag).first, language != tag,
            tables[language] != nil || problems[language] != nil,
            let own = Language.usualScript(of: tag), Language.isWritten(language, inAnotherScriptThan: own),
            let theirs = Language.usualScript(of: language)
        else { return nil }
        func letters(_ script: String) -> String {
            switch script {
            case "hans": return "Simplified Chinese characters"
            case "hant": return "Traditional Chinese characters"
            case "jpan": return "Japanese kana and kanji"
            case "kore": return "Korean Hangul"
            case "aran": return "Arabic letters (Nastaliq)"
            default:
                let code = script.prefix(1).uppercased() + script.dropFirst()
                return Script(code: code).map { $0.name + " letters" } ?? code
            }
        }
        return "'\(Language.canonicalCase(tag: language))' is written in \(letters(theirs)), "
            + "'\(Language.canonicalCase(tag: tag))' in \(letters(own))"
    }

    /// The other region's strings that stand in for `locale`, which the catalog has none of
    /// in its language (`pt-PT`'s for `pt-BR`: `ownLanguages`' last resort), when that is not
    /// the source language; nil otherwise.
    public func standIn(for locale: String) -> String? {
        let own = ownLanguages(locale)
        guard let last = own.last, own.count > 1, last != normalizedSource, hasStrings(of: last),
            !own.dropLast().contains(where: hasStrings(of:)),
            !(StringCatalog.normalizedLanguage(locale) + "-").hasPrefix(last + "-")
        else { return nil }
        return Language.canonicalCase(tag: last)
    }

    private func hasStrings(own: [String]) -> Bool {
        if languages.isEmpty && sourceLanguage == nil { return true }
        return own.contains(where: hasStrings(of:))
    }

    /// Whether the catalog has strings in `language` (normalized), or it is the source language.
    private func hasStrings(of language: String) -> Bool {
        language == normalizedSource || tables[language] != nil || problems[language] != nil
    }

    /// `sourceLanguage` as the tables' languages are written (`normalizedLanguage`).
    private var normalizedSource: String? { sourceLanguage.map(StringCatalog.normalizedLanguage) }

    /// The strings for `locale` on `device` (`iphone`, `ipad`: the `device` variations of
    /// that name; nil: the `other` ones): each key from the first language of
    /// `fallbackChain(locale:)` that has it.
    public func strings(locale: String?, device: String? = nil) -> LocalizedStrings {
        let own = locale.map(ownLanguages)
        let chain = fallbackChain(own: own ?? [])
        let hasLocale = own.map(hasStrings(own:)) ?? true
        // With nothing to tell apart (no locale, a file of one language, no strings for the
        // locale), every language of the chain counts as the locale's own.
        let ownCount = own.map { !languages.isEmpty && hasLocale ? $0.count : chain.count } ?? chain.count
        var strings = LocalizedStrings(
            tables: tables, languages: chain, ownLanguages: ownCount, locale: locale,
            sourceLanguage: normalizedSource, untranslatable: untranslatable,
            problems: problems, keysWithoutText: keysWithoutText,
            deviceTables: device.flatMap { deviceTables[$0] } ?? [:], deviceProblems: device.flatMap { deviceProblems[$0] } ?? [:],
            deviceUntranslated: device.flatMap { deviceUntranslated[$0] } ?? [:], hasLocale: hasLocale)
        strings.hasBase = hasBase
        return strings
    }

    /// Language tags compare without regard to case, and `_` (as in `en_GB`) means `-`.
    static func normalizedLanguage(_ tag: String) -> String {
        tag.replacing("_", with: "-").lowercased()
    }

    /// Reads a catalog: `.xcstrings`, `.strings`, `.stringsdict` or `.json` by the file's
    /// extension (another extension: JSON when the file starts with `{`, else `.strings`). A broken catalog throws a
    /// Diagnostic naming the file, with the line and column of the problem.
    public static func load(path: String) throws(Diagnostic) -> StringCatalog {
        let bytes: [UInt8]
        do {
            bytes = try readRegularFile(path, limit: maximumBytes)
        } catch {
            let message =
                if case .tooLarge(let size) = error {
                    "the string catalog is \(size) bytes; the limit is \(maximumBytes) bytes (64 MiB)"
                } else {
                    "cannot read the string catalog: \(error.reason)"
                }
            throw .error(SourceLocation(file: path, line: 1, column: 1), message)
        }
        var catalog = try parse(bytes: bytes, file: path)
        // A file of one language in an app's `ar.lproj` folder is in that language, as iOS
        // reads it: its text is tagged Arabic and set right to left whatever the locale, and a
        // locale it lacks shows it, with a warning, as an app with only Arabic strings would.
        let folder = Path.lastComponent(Path.folder(path))
        if catalog.languages.isEmpty, catalog.tables[""] != nil, folder.hasSuffix(".lproj") {
            // (Apple's folders spell regions with `_`: `pt_BR.lproj`; an older app's name the
            // language in English: `Hebrew.lproj`.)
            let name = String(folder.dropLast(".lproj".count))
            let language = Language.code(named: name) ?? Language.canonical(tag: name)
            if Language.isWellFormed(tag: language), Language.unassignedLanguageProblem(tag: language) == nil {
                let tag = normalizedLanguage(language)
                catalog.tables[tag] = catalog.tables.removeValue(forKey: "")
                if let problems = catalog.problems.removeValue(forKey: "") { catalog.problems[tag] = problems }
                for device in catalog.deviceTables.keys {
                    if let forms = catalog.deviceTables[device]?.removeValue(forKey: "") { catalog.deviceTables[device]?[tag] = forms }
                }
                catalog.sourceLanguage = language
                catalog.sourceIsFolders = true
            } else if name.lowercased() == "base" {
                // The development language's strings, which neither the folder nor the file
                // name: "Version 2.4" in Base.lproj was set as Arabic under `--locale ar`, its
                // digits Arabic-Indic, unsaid. They are the last fallback, before the other
                // languages' files (an English sheet column showed ar.lproj's Arabic).
                catalog.hasBase = true
                catalog.warnings.append(.warning(
                    SourceLocation(file: path, line: 1, column: 1),
                    "a Base.lproj file does not say which language its strings are in (the app's development "
                        + "language): they are shown where a locale has no text of its own, taken to be in the "
                        + "locale's language, or the document's",
                    hint: "give the .xcstrings catalog, or the .strings file of the language's own folder, such as en.lproj"))
            }
        }
        return catalog
    }

    /// What the warnings about a file of strings that names no language begin with.
    public static let namesNoLanguage =
        "this file does not say its language (an .xcstrings catalog does, and so does an ar.lproj folder)"

    /// Catalog files read as one (`--strings` given once per file: an app's `en.lproj`,
    /// `ar.lproj` and `he.lproj` files, each of one language, for a sheet of all three). A
    /// language's key comes from the first file that has it, text or broken entry, as the
    /// files were given (a table's `.stringsdict` before its `.strings`, as Foundation looks
    /// them up); a later file's other text for it is warned about, at that file. The
    /// source language, the last fallback, is the first file's that names one (an .xcstrings
    /// catalog's, an `.lproj` folder's language). One catalog is itself.
    public static func merging(_ given: [(catalog: StringCatalog, path: String)]) -> StringCatalog {
        let catalogs = stringsDictsFirst(given)
        guard var merged = catalogs.first?.catalog else { return StringCatalog(tables: [:], sourceLanguage: nil) }
        // A file that names no language beside one that does: its strings are taken to be in
        // the locale's language (as alone), and come after every language's (they were tagged
        // with an empty language, `xml:lang=""`). A Base.lproj file has said so when loaded.
        if catalogs.contains(where: { !$0.catalog.languages.isEmpty || $0.catalog.sourceLanguage != nil }) {
            for (catalog, path) in catalogs where catalog.languages.isEmpty && catalog.sourceLanguage == nil
                && Path.lastComponent(Path.folder(path)).lowercased() != "base.lproj"
            {
                merged.warnings.append(.warning(
                    SourceLocation(file: path, line: 1, column: 1),
                    namesNoLanguage + ": its strings are taken to be in the locale's, where no file that names a "
                        + "language has the key"))
            }
        }
        for (catalog, path) in catalogs.dropFirst() {
            merged.warnings += catalog.warnings
            merged.pluralWarnings.merge(catalog.pluralWarnings) { $0 + $1 }
            merged.hasBase = merged.hasBase || catalog.hasBase
            if merged.sourceLanguage == nil {
                (merged.sourceLanguage, merged.sourceIsFolders) = (catalog.sourceLanguage, catalog.sourceIsFolders)
            }
            merged.untranslatable.formUnion(catalog.untranslatable)
            merged.keysWithoutText.formUnion(catalog.keysWithoutText)
            var differing: [(language: String, key: String)] = []
            for (language, table) in catalog.tables {
                for (key, text) in table {
                    if let kept = merged.tables[language]?[key] {
                        if kept != text { differing.append((language, key)) }
                    } else if merged.problems[language]?[key] == nil {
                        merged.tables[language, default: [:]][key] = text
                    }
                }
            }
            for (language, problems) in catalog.problems {
                for (key, problem) in problems where merged.tables[language]?[key] == nil {
                    merged.problems[language, default: [:]][key] = merged.problems[language]?[key] ?? problem
                }
            }
            keepingFirst(&merged.deviceTables, catalog.deviceTables)
            keepingFirst(&merged.deviceProblems, catalog.deviceProblems)
            for (device, languages) in catalog.deviceUntranslated {
                for (language, keys) in languages {
                    merged.deviceUntranslated[device, default: [:]][language, default: []].formUnion(keys)
                }
            }
            // In the order of the keys, so that the warnings are the same from run to run.
            for (language, key) in differing.sorted(by: { ($0.key, $0.language) < ($1.key, $1.language) }) {
                let first = catalogs.first { $0.catalog.tables[language]?[key] != nil }?.path ?? ""
                // A table's .strings beside its .stringsdict: the app shows the plural rule's
                // text, and Xcode projects keep both, unsaid.
                if Path.fileExtension(first).lowercased() == "stringsdict", sameTable(first, path) { continue }
                let written = language.isEmpty ? "" : " (\(Language.canonical(tag: language)))"
                merged.warnings.append(.warning(
                    catalog.keyLocations[key] ?? SourceLocation(file: path, line: 1, column: 1),
                    "the key '\(key)'\(written) has other text in \(first), given first: that text is used"))
            }
        }
        // Beside a Base.lproj file, the development language's, an `.lproj` folder's language
        // is no source language: a key a locale lacks shows Base's text, not the first folder's.
        if merged.hasBase && merged.sourceIsFolders { merged.sourceLanguage = nil }
        // A key without source text in one file may have it in another.
        if let source = merged.normalizedSource, let table = merged.tables[source] {
            merged.keysWithoutText = merged.keysWithoutText.filter { table[$0] == nil }
        }
        return merged
    }

    /// `catalogs` with each `.stringsdict` before the `.strings` of its table (the same folder
    /// and name), wherever it was given: Foundation looks a key up in the `.stringsdict` first,
    /// and shows its plural rule's text (`Localizable.strings` given first showed its "%d
    /// files" and warned about the `.stringsdict`'s forms).
    private static func stringsDictsFirst(_ catalogs: [(catalog: StringCatalog, path: String)]) -> [(catalog: StringCatalog, path: String)] {
        func ofKind(_ path: String, _ kind: String) -> Bool { Path.fileExtension(path).lowercased() == kind }
        var result: [(catalog: StringCatalog, path: String)] = []
        var moved: Set<Int> = []  // the .stringsdict files put before their .strings
        for (index, entry) in catalogs.enumerated() where !moved.contains(index) {
            if ofKind(entry.path, "strings"), let dict = catalogs.indices.first(where: {
                $0 > index && ofKind(catalogs[$0].path, "stringsdict") && sameTable(catalogs[$0].path, entry.path)
            }) {
                result.append(catalogs[dict])
                moved.insert(dict)
            }
            result.append(entry)
        }
        return result
    }

    /// Whether two files are one table's (`en.lproj/Localizable.strings` and `.stringsdict`).
    private static func sameTable(_ a: String, _ b: String) -> Bool {
        Path.same(Path.folder(a), Path.folder(b)) && Path.same(Path.stem(a), Path.stem(b))
    }

    /// `other`'s entries (device → language → key) added to `merged` where it has none.
    private static func keepingFirst<Value>(
        _ merged: inout [String: [String: [String: Value]]], _ other: [String: [String: [String: Value]]]
    ) {
        for (device, languages) in other {
            for (language, entries) in languages {
                merged[device, default: [:]][language, default: [:]].merge(entries) { kept, _ in kept }
            }
        }
    }

    /// Larger catalogs are refused before they are read: an app's catalog with every locale
    /// is a few megabytes.
    static let maximumBytes = 64 * 1024 * 1024

    /// Parses the bytes of a catalog file named `file` (its extension picks the format).
    public static func parse(bytes: [UInt8], file: String) throws(Diagnostic) -> StringCatalog {
        // A property list (Xcode writes the `.strings` of a built app as binary ones): said so,
        // rather than "not UTF-8" or "expected a key in quotes".
        let start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let head = String(decoding: start.prefix(1024), as: UTF8.self)
        let isPropertyList = bytes.starts(with: "bplist".utf8) || (head.hasPrefix("<") && head.contains("<plist"))
        let isStringsDict =
            Path.fileExtension(file).lowercased() == "stringsdict" || head.contains("NSStringLocalizedFormatKey")
        if isPropertyList && isStringsDict {
            guard !bytes.starts(with: "bplist".utf8) else {
                throw .error(
                    SourceLocation(file: file, line: 1, column: 1),
                    "the .stringsdict is a binary property list, which typeset does not read; give its XML source, "
                        + "or convert it (on a Mac: plutil -convert xml1 FILE)")
            }
            try checkUTF8(bytes, file: file)
            return try stringsDict(bytes, file: file)  // StringsDict.swift
        }
        if isPropertyList {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1),
                "the string catalog is a property list, which typeset does not read; give the .xcstrings or "
                    + ".strings source, or convert it to JSON (on a Mac: plutil -convert json -o NAME.json FILE)")
        }
        if head.hasPrefix("<") && head.contains("<xliff") {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1),
                "the string catalog is an XLIFF file (Xcode's export for translators), which typeset does not "
                    + "read; give the .xcstrings catalog it was exported from")
        }
        let pathExtension = Path.fileExtension(file).lowercased()
        if pathExtension == "strings" {
            return try stringsFile(bytes, file: file)
        }
        if pathExtension != "xcstrings" && pathExtension != "json" {
            let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
            if first != UInt8(ascii: "{") { return try stringsFile(bytes, file: file) }
        }
        try checkUTF8(bytes, file: file)
        let root: LocatedJSON
        do {
            root = try LocatedJSON.parse(bytes)
        } catch {
            throw Diagnostic.error(
                SourceLocation(file: file, line: error.line, column: error.column),
                "the string catalog is not valid JSON: \(error.message)")
        }
        guard let members = root.members else {
            throw Diagnostic.error(
                location(root, file), "the string catalog must be a JSON object, not \(root.kindName)")
        }
        let looksLikeStringCatalog = root["strings"]?.members != nil && root["sourceLanguage"]?.string != nil
        if pathExtension == "xcstrings" || looksLikeStringCatalog {
            return try xcstrings(root, file: file)
        }
        var table: [String: String] = [:]
        var problems: [String: Diagnostic] = [:]  // as in a String Catalog: they fail the documents that use the key
        for (key, value) in members {
            guard let text = value.string else {
                problems[key] = Diagnostic.error(
                    location(value, file), "the value of key '\(key)' must be a string, not \(value.kindName)")
                table[key] = nil
                continue
            }
            table[key] = text  // the later text of a key given twice
            problems[key] = nil
        }
        var catalog = StringCatalog(tables: ["": table], sourceLanguage: nil)
        if !problems.isEmpty { catalog.problems[""] = problems }
        let given = root.allMembers ?? members
        let repeated = repeatedKeys(given, file: file, later: "text")
        catalog.warnings = repeated.warnings
        catalog.keyLocations = repeated.last.mapValues { location(given[$0].value, file) }
        // An object of objects (i18next's, `{"onboarding": {"title": …}}`) is read at its top
        // only: said at the file, where the key's "no string" warnings did not say why.
        for (key, value) in members where value.members != nil {
            catalog.warnings.append(Diagnostic.warning(
                location(value, file),
                "the value of key '\(key)' is an object: a catalog of key → text is not read inside it, "
                    + "and '\(key).…' keys are not found",
                hint: "write each string as a key of its own at the top, as \"\(key).name\": \"text\""))
        }
        return catalog
    }

    private static func location(_ value: LocatedJSON, _ file: String) -> SourceLocation {
        SourceLocation(file: file, line: value.line, column: value.column)
    }

    /// Throws at the first byte that is not UTF-8.
    private static func checkUTF8(_ bytes: [UInt8], file: String) throws(Diagnostic) {
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            let b = bytes[index]
            let length: Int
            switch b {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: length = 0
            }
            var valid = length > 0 && index + length <= bytes.count
            if valid && length > 1 {
                valid =
                    bytes[(index + 1)..<(index + length)].allSatisfy { $0 & 0xC0 == 0x80 }
                    && String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            }
            guard valid else {
                throw Diagnostic.error(
                    SourceLocation(file: file, line: line, column: column),
                    "the string catalog is not UTF-8 (byte \(hexByte(b)))")
            }
            SourceLocation.advance(&line, &column, past: index, in: bytes)
            index += length
        }
    }

    // MARK: - .xcstrings

    /// Apple String Catalog: `strings` → key → `localizations` → language → a `stringUnit`'s
    /// `value`, or for strings with `variations` the `other` form (and each device's own, in
    /// `deviceTables`); `%#@name@` placeholders take their `substitutions`' forms. A flaw in
    /// one key's entry goes to `problems`.
    private static func xcstrings(_ root: LocatedJSON, file: String) throws(Diagnostic) -> StringCatalog {
        guard let sourceValue = root["sourceLanguage"] else {
            throw Diagnostic.error(location(root, file), "an .xcstrings catalog needs a \"sourceLanguage\"")
        }
        guard let source = sourceValue.string, Language.isWellFormed(tag: source) else {
            throw Diagnostic.error(
                location(sourceValue, file), "\"sourceLanguage\" must be a language tag such as \"en\"")
        }
        // A language's name ("english", "Base"), as `--locale` and `lang` refuse it: it became
        // the PDF's /Lang.
        if let problem = Language.unassignedLanguageProblem(tag: source) {
            throw Diagnostic.error(location(sourceValue, file), "\"sourceLanguage\" '\(source)': \(problem)")
        }
        guard let stringsValue = root["strings"] else {
            throw Diagnostic.error(location(root, file), "an .xcstrings catalog needs a \"strings\" object")
        }
        guard let strings = stringsValue.allMembers else {
            throw Diagnostic.error(
                location(stringsValue, file), "\"strings\" must be an object, not \(stringsValue.kindName)")
        }
        var tables: [String: [String: String]] = [:]
        var untranslatable: Set<String> = []
        var problems: [String: [String: Diagnostic]] = [:]
        var keysWithoutText: Set<String> = []
        var deviceTables: [String: [String: [String: String]]] = [:]
        var deviceProblems: [String: [String: [String: Diagnostic]]] = [:]
        var deviceUntranslated: [String: [String: Set<String>]] = [:]
        // Localizations under no language ("", "he!!", "arabic"): passed over, said once each
        // (an empty one was merged into the strings of every locale).
        var badLanguages: [(language: String, at: LocatedJSON, problem: String)] = []
        var budget = substitutedTextBudget
        var largest: (what: String, bytes: Int)?  // the text substitutions made most of
        var pluralWarnings: [String: [Diagnostic]] = [:]
        // Of a key given twice only the later entry is read (Foundation's reading keeps the last).
        let (warnings, last) = repeatedKeys(strings, file: file, later: "entry")
        // The catalog's own members given twice ("strings", "sourceLanguage"): the later is
        // used, and said (it changed the source language unsaid).
        var checks = repeatedMembers(in: root, file: file, within: false)
        for (index, (key, entry)) in strings.enumerated() where last[key] == index {
            checks += repeatedMembers(in: entry, file: file) + wronglyTypedFields(of: entry, key: key, file: file)
            guard entry.members != nil else {
                problems["", default: [:]][key] = Diagnostic.error(
                    location(entry, file), "the entry of key '\(key)' must be an object, not \(entry.kindName)")
                continue
            }
            // Brand names and the like: the source language's text is every locale's.
            if case .bool(false)? = entry["shouldTranslate"]?.value { untranslatable.insert(key) }
            var hasSource = false
            if let localizations = entry["localizations"] {
                guard let languages = localizations.members else {
                    problems["", default: [:]][key] = Diagnostic.error(
                        location(localizations, file),
                        "\"localizations\" of key '\(key)' must be an object, not \(localizations.kindName)")
                    continue
                }
                for (language, localization) in languages where !isUntranslated(localization) {
                    if let problem = languageProblem(language) {
                        if !badLanguages.contains(where: { $0.language == language }) {
                            badLanguages.append((language, localization, problem))
                        }
                        continue
                    }
                    let normalized = normalizedLanguage(language)
                    // A plural's or device's form that is not translated yet, or a
                    // substitution's: the text shown would lack it (" في البريد الوارد" for
                    // "%#@messages@ في البريد الوارد"), and the next language's is shown instead.
                    let shownUntranslated = showsUntranslatedForm(localization, device: nil)
                    if normalized == normalizedLanguage(source) && !shownUntranslated { hasSource = true }
                    let before = budget
                    // Past the catalog's budget, the key that passed it is named with the one
                    // that made the most of it: the budget is spent in the catalog's order.
                    func named(_ error: Diagnostic) -> Diagnostic {
                        var error = error
                        if before < longestSubstitutedText, let largest, error.message.hasPrefix(budgetMessage) {
                            error.message += "; the most of it is \(largest.what)'s, \(largest.bytes / 1024) KB"
                        }
                        return error
                    }
                    var byDevice = false
                    var text: String?
                    do {
                        text = try localizedText(
                            localization, key: key, language: language, file: file, byDevice: &byDevice, budget: &budget)
                        if !shownUntranslated { tables[normalized, default: [:]][key] = text }
                    } catch {
                        problems[normalized, default: [:]][key] = named(error)
                    }
                    // Each device's own form, where the document names that device: a broken
                    // one fails its device's documents, and device variations without an
                    // `other` form (Apple's rules have none) fail only the others'.
                    for device in byDevice ? deviceNames : [] {
                        do {
                            let deviceText = try localizedText(
                                localization, key: key, language: language, file: file, device: device,
                                byDevice: &byDevice, budget: &budget)
                            if showsUntranslatedForm(localization, device: device) {
                                // (The source language's other form, if any, is the last resort.)
                                if !shownUntranslated && normalized != normalizedLanguage(source) {
                                    deviceUntranslated[device, default: [:]][normalized, default: []].insert(key)
                                }
                            } else if deviceText != text || shownUntranslated {
                                deviceTables[device, default: [:]][normalized, default: [:]][key] = deviceText
                            }
                        } catch {
                            deviceProblems[device, default: [:]][normalized, default: [:]][key] = named(error)
                        }
                    }
                    if before - budget > largest?.bytes ?? 0 { largest = ("key '\(key)' (\(language))", before - budget) }
                    let lacking = lackingPluralForms(localization, key: key, language: language, file: file)
                    if !lacking.isEmpty { pluralWarnings[normalized, default: []] += lacking }
                }
            }
            if !hasSource { keysWithoutText.insert(key) }
        }
        var catalog = StringCatalog(tables: tables, sourceLanguage: source, untranslatable: untranslatable)
        catalog.keyLocations = last.mapValues { location(strings[$0].value, file) }
        catalog.problems = problems
        catalog.keysWithoutText = keysWithoutText
        catalog.deviceTables = deviceTables
        catalog.deviceProblems = deviceProblems
        catalog.deviceUntranslated = deviceUntranslated
        catalog.warnings = warnings + checks + badLanguages.map { language, at, problem in
            .warning(location(at, file), "the strings under \"\(language)\" are passed over: \(problem)")
        }
        catalog.pluralWarnings = pluralWarnings
        return catalog
    }

    /// A warning for each plural variation in `localization` (its own, its substitutions',
    /// a device form's, as deep as `maximumSubstitutionDepth`) that lacks a form CLDR gives
    /// `language`, or has it untranslated (state "new", empty): a mockup shows `other`, and the
    /// app shows the lacking forms for the commonest counts ("few" is 3–10 in Arabic, "two"
    /// is 2 in Hebrew), its `other` text or nothing.
    private static func lackingPluralForms(_ localization: LocatedJSON, key: String, language: String, file: String)
        -> [Diagnostic]
    {
        var found: [Diagnostic] = []
        func look(_ entry: LocatedJSON, depth: Int) {
            guard depth <= maximumSubstitutionDepth, entry.members != nil else { return }
            if let variations = entry["variations"]?.members {
                for (kind, forms) in variations {
                    guard let members = forms.members else { continue }
                    if kind == "plural" {
                        let given = Set(members.filter { !isUntranslated($0.value) }.map(\.key))
                        let missing = PluralForms.missing(from: given, language: language)
                        if !missing.isEmpty {
                            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
                            found.append(.warning(
                                location(forms, file),
                                "the plural variations of key '\(key)' (\(language)) have no \(names) form"
                                    + (missing.count == 1 ? "" : "s") + ", which the app shows for some counts; "
                                    + "a mockup shows the 'other' form"))
                        }
                    }
                    for (_, form) in members { look(form, depth: depth + 1) }
                }
            }
            for (_, substitution) in entry["substitutions"]?.members ?? [] { look(substitution, depth: depth + 1) }
        }
        look(localization, depth: 0)
        return found
    }

    /// Why a catalog's localization is under no language, nil when it is under one.
    private static func languageProblem(_ language: String) -> String? {
        guard Language.isWellFormed(tag: language) else {
            return language.isEmpty ? "a language tag is needed, such as \"ar\"" : "it is no language tag, such as \"ar\""
        }
        return Language.unassignedLanguageProblem(tag: language)
    }

    /// A warning for each member of an object in `value` (it included) given again, a merge's
    /// leftover: two "value"s of one stringUnit, two "ar" localizations. The later is used, as
    /// for a key given twice (the first was used of some, the last of others, unsaid).
    private static func repeatedMembers(in value: LocatedJSON, file: String, within: Bool = true) -> [Diagnostic] {
        switch value.value {
        case .object(let members):
            var lines: [String: Int] = [:]
            var found: [Diagnostic] = []
            for (name, member) in members {
                if let first = lines[name] {
                    found.append(.warning(
                        location(member, file), "\"\(name)\" is given again (first on line \(first)); this later one is used"))
                } else {
                    lines[name] = member.line
                }
                if within { found += repeatedMembers(in: member, file: file) }
            }
            return found
        case .array(let elements):
            return within ? elements.flatMap { repeatedMembers(in: $0, file: file) } : []
        default:
            return []
        }
    }

    /// Warnings for the fields of an entry that Xcode's reading refuses and this one passes
    /// over: a "comment", "extractionState" or a stringUnit's "state" that is no string, a
    /// "shouldTranslate" that is no boolean ("false" in quotes was read as true, unsaid).
    private static func wronglyTypedFields(of entry: LocatedJSON, key: String, file: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func check(_ field: LocatedJSON?, _ name: String, wants kind: String, _ matches: (LocatedJSON) -> Bool) {
            guard let field, !matches(field) else { return }
            found.append(.warning(
                location(field, file),
                "\"\(name)\" of key '\(key)' must be \(kind), not \(field.kindName); it is passed over (Xcode refuses the catalog)"))
        }
        func isString(_ value: LocatedJSON) -> Bool { value.string != nil }
        check(entry["comment"], "comment", wants: "a string", isString)
        check(entry["extractionState"], "extractionState", wants: "a string", isString)
        check(entry["shouldTranslate"], "shouldTranslate", wants: "true or false") { if case .bool = $0.value { true } else { false } }
        // Every stringUnit's, a plural or device form's too (the variations nest at most four
        // deep, as `localizedText` reads them).
        func checkUnits(in value: LocatedJSON, depth: Int) {
            guard depth < 8, let members = value.members else { return }
            for (name, member) in members {
                if name == "stringUnit" {
                    check(member["state"], "state", wants: "a string", isString)
                } else {
                    checkUnits(in: member, depth: depth + 1)
                }
            }
        }
        if let localizations = entry["localizations"] { checkUnits(in: localizations, depth: 0) }
        return found
    }

    /// A warning for each key of `members` given again, as a .strings file gets one (the later
    /// `what` is used: "text", "entry"), and the index of each key's last member.
    private static func repeatedKeys(
        _ members: [(key: String, value: LocatedJSON)], file: String, later what: String
    ) -> (warnings: [Diagnostic], last: [String: Int]) {
        var lines: [String: Int] = [:]  // where each key was first given
        var last: [String: Int] = [:]
        var warnings: [Diagnostic] = []
        for (index, (key, value)) in members.enumerated() {
            if let first = lines[key] {
                warnings.append(.warning(
                    location(value, file), "key '\(key)' is given again (first on line \(first)); this later \(what) is used"))
            } else {
                lines[key] = value.line
            }
            last[key] = index
        }
        return (warnings, last)
    }

    /// A localization Xcode added and nobody has translated yet (state "new", empty value; in
    /// variations, every form so): it falls back along the locale's chain as a missing one
    /// does, rather than showing nothing.
    private static func isUntranslated(_ localization: LocatedJSON) -> Bool {
        if let unit = localization["stringUnit"] { return isNewAndEmpty(unit) }
        guard let variations = localization["variations"]?.members, !variations.isEmpty else { return false }
        return variations.allSatisfy { variation in
            guard let forms = variation.value.members, !forms.isEmpty else { return false }
            return forms.allSatisfy { isUntranslated($0.value) }
        }
    }

    /// Whether the text of `localization` for `device` (nil: none) passes through a form Xcode
    /// added and nobody has translated yet (state "new", empty value): its string unit, or the
    /// form its variations pick (`localizedText`'s choice), or those of the substitutions whose
    /// placeholders that text holds (each form's own, and those of the entries it is in), each
    /// looked at once, as deep as `localizedText` follows them (`maximumSubstitutionDepth`: a
    /// chain of 30,000 substitutions overflowed the stack).
    private static func showsUntranslatedForm(_ localization: LocatedJSON, device: String?) -> Bool {
        var seen: Set<String> = []
        /// The substitutions in scope, by name, and their names (made again only where a form
        /// has substitutions of its own: made at every step, 20,000 took 25 s).
        typealias Scope = (substitutions: [String: LocatedJSON], names: Set<String>)
        func untranslated(_ entry: LocatedJSON, in outer: Scope, depth: Int) -> Bool {
            guard depth <= maximumSubstitutionDepth else { return false }
            var entry = entry
            var scope = outer
            func take(_ entry: LocatedJSON) {
                guard let own = entry["substitutions"]?.members, !own.isEmpty else { return }
                for (name, substitution) in own { scope.substitutions[name] = substitution }
                scope.names = Set(scope.substitutions.keys)
            }
            take(entry)
            // Down its variations to the form shown.
            while entry["stringUnit"] == nil, let (kind, forms) = entry["variations"]?.members?.first,
                let form = shownForm(kind, forms, device: device)
            {
                entry = form
                take(entry)
            }
            guard let unit = entry["stringUnit"], let text = unit["value"]?.string else { return false }
            if isNewAndEmpty(unit) { return true }
            guard !scope.names.isEmpty else { return false }
            var held: [String] = []
            _ = try? replacingPlaceholders(of: scope.names, in: text, limit: Int.max) { (name, _) throws(Diagnostic) -> String in
                held.append(name)
                return ""
            }
            return held.contains { seen.insert($0).inserted && untranslated(scope.substitutions[$0]!, in: scope, depth: depth + 1) }
        }
        return untranslated(localization, in: ([:], []), depth: 0)
    }

    /// A string unit Xcode added and nobody has translated yet: state "new", an empty value.
    private static func isNewAndEmpty(_ unit: LocatedJSON) -> Bool {
        unit["state"]?.string == "new" && unit["value"]?.string == ""
    }

    /// The form of `kind` variations (`forms`) a document on `device` shows: the device's own
    /// (device variations), else `other`.
    private static func shownForm(_ kind: String, _ forms: LocatedJSON, device: String?) -> LocatedJSON? {
        (kind == "device" ? device.flatMap { forms[$0] } : nil) ?? forms["other"]
    }

    /// The devices whose variations a document's `device` picks (`iphone-8`, `ipad-mini`).
    static let deviceNames = ["iphone", "ipad"]

    /// The text of one localization: its string unit, else the form of its variations for
    /// `device` (device variations) or the `other` one. `byDevice` is set when a device
    /// variation was met.
    /// `budget`: the bytes substitutions may still make in the whole catalog
    /// (`substitutedTextBudget`), less what this text's make.
    private static func localizedText(
        _ localization: LocatedJSON, key: String, language: String, file: String, device: String? = nil,
        byDevice: inout Bool, budget: inout Int, depth: Int = 0, substitution: String? = nil, atSubstitution: Bool = false
    ) throws(Diagnostic) -> String {
        // Named with the substitution it is in, if any; `localization` is a language's entry, a
        // form of variations, or a substitution itself (`atSubstitution`).
        let what = (substitution.map { "substitution '\($0)' of " } ?? "") + "key '\(key)' (\(language))"
        let entry = atSubstitution ? "the \(what)" : "the localization of \(what)"
        guard localization.members != nil else {
            throw Diagnostic.error(location(localization, file), "\(entry) must be an object, not \(localization.kindName)")
        }
        var text: String
        if let unit = localization["stringUnit"] {
            guard unit.members != nil else {
                throw Diagnostic.error(
                    location(unit, file), "the stringUnit of \(what) must be an object, not \(unit.kindName)")
            }
            guard let valueNode = unit["value"] else {
                throw Diagnostic.error(location(unit, file), "the stringUnit of \(what) has no \"value\"")
            }
            guard let value = valueNode.string else {
                throw Diagnostic.error(
                    location(valueNode, file), "the value of \(what) must be a string, not \(valueNode.kindName)")
            }
            text = value
        } else if let variations = localization["variations"] {
            guard let kinds = variations.members, let (kind, forms) = kinds.first, depth < 4 else {
                throw Diagnostic.error(
                    location(variations, file), "the variations of \(what) must be an object of plural or device forms")
            }
            // The kinds Xcode writes; another's `other` was shown as if it were one of them.
            guard kind == "plural" || kind == "device" else {
                throw Diagnostic.error(
                    location(variations, file), "the variations of \(what) are '\(kind)'; a catalog's are 'plural' or 'device'")
            }
            guard forms.members != nil else {
                throw Diagnostic.error(
                    location(forms, file), "the \(kind) variations of \(what) must be an object of forms, not \(forms.kindName)")
            }
            // Plural variations (zero, one, two, few, many, other) all have an `other` form; a
            // mockup has no count to choose by. Device variations (iphone, ipad, mac, ..., other)
            // need not: a document names its device, and one of another device, or of none,
            // takes the `other` form.
            if kind == "device" { byDevice = true }
            guard let form = shownForm(kind, forms, device: device) else {
                guard kind == "device" else {
                    throw Diagnostic.error(location(forms, file), "the plural variations of \(what) have no \"other\" form")
                }
                // (Its hint is where the key is used.)
                let named = deviceNames.filter { forms[$0] != nil }
                throw Diagnostic.error(
                    location(forms, file),
                    "the device variations of \(what) have no \"other\" form, which "
                        + (named.isEmpty
                            ? "every document shows (a document's device is an iphone or ipad, and they have no form of either)"
                            : "a document shows unless its device has a form of its own (\(named.joined(separator: ", ")))"))
            }
            text = try localizedText(
                form, key: key, language: language, file: file, device: device, byDevice: &byDevice, budget: &budget,
                depth: depth + 1, substitution: substitution)
        } else {
            throw Diagnostic.error(
                location(localization, file),
                atSubstitution ? "\(entry) has no variations" : "\(entry) has neither a stringUnit nor variations")
        }
        if let members = localization["substitutions"]?.members {
            let substitutions = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let names = Set(substitutions.keys)
            // A substitution's forms may hold another's placeholder: each is replaced by its
            // forms with theirs replaced in turn, in one pass over each text (passes over the
            // whole text for every substitution took minutes for a few hundred of them).
            var forms: [String: String] = [:]
            // Each expanded once, by name and argument number, with how deep it nests.
            var expanded: [String: (text: String, depth: Int)] = [:]
            func expand(_ text: String, inside: [String]) throws(Diagnostic) -> (text: String, depth: Int) {
                var deepest = 0
                func tooDeep() -> Diagnostic {
                    .error(
                        location(localization, file),
                        "the substitutions of \(what) hold each other's placeholders more than \(maximumSubstitutionDepth) deep")
                }
                let limit = min(longestSubstitutedText, budget)
                let replaced = try replacingPlaceholders(
                    of: names, in: text, limit: limit
                ) { (name, argument) throws(Diagnostic) -> String in
                    guard !inside.contains(name) else {
                        throw Diagnostic.error(
                            location(localization, file),
                            "the substitution '\(name)' of \(what) holds its own placeholder"
                                + (inside.last == name ? "" : ", through '\(inside.last ?? "")'"))
                    }
                    let known = name + "\u{0}" + (argument ?? "")
                    if expanded[known] == nil {
                        guard inside.count < maximumSubstitutionDepth else { throw tooDeep() }
                        let substitution = substitutions[name]!
                        if forms[name] == nil {
                            forms[name] = try localizedText(
                                substitution, key: key, language: language, file: file, device: device,
                                byDevice: &byDevice, budget: &budget, depth: depth + 1, substitution: name, atSubstitution: true)
                        }
                        let specifier = substitution["formatSpecifier"]?.string ?? "@"
                        let own = forms[name]!.replacing("%arg", with: "%" + (argument.map { $0 + "$" } ?? "") + specifier)
                        let inner = try expand(own, inside: inside + [name])
                        expanded[known] = (inner.text, inner.depth + 1)
                    }
                    let done = expanded[known]!
                    // Wherever it was expanded first, the same limit (it depended on the order
                    // of the placeholders).
                    guard inside.count + done.depth <= maximumSubstitutionDepth else { throw tooDeep() }
                    deepest = max(deepest, done.depth)
                    return done.text
                }
                guard let replaced else {
                    throw Diagnostic.error(
                        location(localization, file),
                        limit < longestSubstitutedText
                            ? budgetMessage + "; those of \(what) pass it"
                            : "the substitutions of \(what) make a text of more than \(longestSubstitutedText / 1024 / 1024) MiB, "
                                + "the most a document may show")
                }
                return (replaced, deepest)
            }
            text = try expand(text, inside: []).text
            budget -= text.utf8.count
        }
        return text
    }

    /// How deep substitutions may hold each other's placeholders (an app's nest one or two).
    static let maximumSubstitutionDepth = 16

    /// The longest text substitutions may make, in UTF-8 bytes, the most catalog text a document
    /// may show (`BlockLayouter.maximumCatalogBytes`): forms that hold another's placeholder
    /// twice, nested 40 deep, made a text of 2^40 characters. (It was 256 KB, and a string of
    /// 48,000 placeholders of one substitution was refused as if they nested.)
    static let longestSubstitutedText = MarkupParser.maximumInputBytes
    /// The most text substitutions may make in a whole catalog, every key, locale and device
    /// counted: each is expanded when the catalog is read, and 500 keys of 2.4 KB nesting 16
    /// deep made 4 MiB each, 2 GB for a 1.2 MB catalog.
    static let substitutedTextBudget = 64 * 1024 * 1024
    private static let budgetMessage =
        "the substitutions of this catalog's strings make more than \(substitutedTextBudget / 1024 / 1024) MiB of text in all"

    /// `text` with each placeholder of a substitution of `names`, `%#@name@` or with its
    /// argument number `%2$#@name@` (translations reorder them so), replaced by
    /// `replacement(name, number)`; nil when that would be longer than `limit` bytes of UTF-8.
    static func replacingPlaceholders(
        of names: Set<String>, in text: String, limit: Int,
        with replacement: (String, String?) throws(Diagnostic) -> String
    ) throws(Diagnostic) -> String? {
        // The placeholder's "%" is one not escaped as "%%": the last of an odd run of them.
        func opensPlaceholder(_ text: Substring) -> Bool { text.reversed().prefix { $0 == "%" }.count % 2 == 1 }
        var result = ""
        var rest = Substring(text)
        while let marker = rest.firstRange(of: "#@") {
            let before = rest[..<marker.lowerBound]
            let afterMarker = rest[marker.upperBound...]
            guard let end = afterMarker.firstIndex(of: "@"), names.contains(String(afterMarker[..<end])) else {
                result += rest[..<marker.upperBound]  // "#@" of no placeholder: text
                rest = afterMarker
                continue
            }
            let name = String(afterMarker[..<end])
            var start: Substring.Index?  // of the placeholder's "%"
            var argument: String?
            if opensPlaceholder(before) {
                start = before.index(before: before.endIndex)
            } else if before.hasSuffix("$") {
                let number = before.dropLast().reversed().prefix { ("0"..."9").contains($0) }
                let digits = before.dropLast().suffix(number.count)
                if !digits.isEmpty, opensPlaceholder(before.dropLast(digits.count + 1)) {
                    start = before.index(before: digits.startIndex)
                    argument = String(digits)
                }
            }
            if let start {
                result += before[..<start]
                result += try replacement(name, argument)
            } else {
                result += rest[...end]  // "#@name@" without its "%": text
            }
            rest = afterMarker[afterMarker.index(after: end)...]
            if result.utf8.count > limit { return nil }
        }
        result += rest
        return result.utf8.count > limit ? nil : result
    }

    // MARK: - .strings

    private static func stringsFile(_ bytes: [UInt8], file: String) throws(Diagnostic) -> StringCatalog {
        var utf8 = bytes
        // Xcode long wrote .strings files in UTF-16; read them as the text they are. Without a
        // byte-order mark, a file's first character tells (a .strings file starts with ASCII:
        // a quote, a comment, a letter or white space).
        var (encoding, mark): (String.Encoding?, Int) = (nil, 0)
        switch (bytes.first, bytes.dropFirst().first) {
        case (0xFF, 0xFE): (encoding, mark) = (.utf16LittleEndian, 2)
        case (0xFE, 0xFF): (encoding, mark) = (.utf16BigEndian, 2)
        case (let first?, 0) where first != 0: encoding = .utf16LittleEndian
        case (0, let second?) where second != 0: encoding = .utf16BigEndian
        default: break
        }
        if let encoding {
            guard let text = String(data: Data(bytes.dropFirst(mark)), encoding: encoding) else {
                throw Diagnostic.error(
                    SourceLocation(file: file, line: 1, column: 1), "the .strings file is not valid UTF-16")
            }
            utf8 = Array(text.utf8)
        } else if utf8.starts(with: [0xEF, 0xBB, 0xBF]) {
            utf8.removeFirst(3)
        }
        try checkUTF8(utf8, file: file)
        var parser = StringsFileParser(bytes: utf8, file: file)
        var catalog = StringCatalog(tables: ["": try parser.parse()], sourceLanguage: nil)
        catalog.warnings = parser.warnings
        catalog.keyLocations = parser.keyLocations
        return catalog
    }
}

/// Parser of the `.strings` format (an old-style property list of strings): `"key" = "value";`
/// (or `"key";`, meaning the key is its own text), unquoted words of letters and digits, `/* */`
/// and `//` comments, and the escapes `\" \' \\ \n \t \r \a \b \f \v`, octal `\ddd` and
/// `\Uxxxx` (a surrogate pair as two of them).
struct StringsFileParser {
    let bytes: [UInt8]
    let file: String
    private var index = 0
    private var line = 1
    private var column = 1
    /// Keys given twice (the last value counts, as Foundation reads the file).
    private(set) var warnings: [Diagnostic] = []
    /// Where each key is (`StringCatalog.keyLocations`).
    private(set) var keyLocations: [String: SourceLocation] = [:]

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private func error(_ message: String) -> Diagnostic {
        .error(SourceLocation(file: file, line: line, column: column), message)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        SourceLocation.advance(&line, &column, past: index, in: bytes)
        index += 1
    }

    private mutating func skipSpaceAndComments() throws(Diagnostic) {
        while let c = current {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") {
                advance()
            } else if c == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = error("unterminated comment")
                advance()
                advance()
                while index + 1 < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    advance()
                }
                guard index + 1 < bytes.count else { throw start }
                advance()
                advance()
            } else if c == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while let c = current, c != UInt8(ascii: "\n"), c != UInt8(ascii: "\r") { advance() }
            } else {
                return
            }
        }
    }

    /// Characters of an unquoted string in a property list.
    private static func isWordByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "_$+/:.-".utf8.contains(c)
        }
    }

    private func describeCurrent() -> String {
        guard let c = current else { return "the end of the file" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        // A letter of another alphabet by itself ('é' was "byte 0xC3"), one that shows nothing
        // (a no-break space) by its code; the file is UTF-8.
        if c >= 0xC2, let scalar = String(decoding: bytes[index..<min(bytes.count, index + 4)], as: UTF8.self).unicodeScalars.first,
            scalar != "\u{FFFD}"
        {
            let code = "U+" + hexCodePoint(scalar.value)
            return showsNothing(scalar) ? code : "'\(scalar)' (\(code))"
        }
        return c == 0x0A ? "a line break" : "byte " + hexByte(c)
    }

    /// A quoted or unquoted string.
    private mutating func string(_ what: String) throws(Diagnostic) -> String {
        try skipSpaceAndComments()
        guard let first = current else { throw error("expected \(what), found the end of the file") }
        if first != UInt8(ascii: "\"") {
            guard Self.isWordByte(first) else { throw error("expected \(what) in quotes, found \(describeCurrent())") }
            let start = index
            while let c = current, Self.isWordByte(c) { advance() }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let start = error("unterminated string")
        advance()
        var out: [UInt8] = []
        var pendingHighSurrogate: (value: UInt32, error: Diagnostic)?
        while true {
            guard let c = current else { throw start }
            if c != UInt8(ascii: "\\"), let pending = pendingHighSurrogate {
                throw pending.error
            }
            if c == UInt8(ascii: "\"") {
                advance()
                return String(decoding: out, as: UTF8.self)
            }
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                advance()
                continue
            }
            let escapeError = error("invalid escape")
            advance()
            guard let e = current else { throw start }
            advance()
            if e != UInt8(ascii: "U") && e != UInt8(ascii: "u"), let pending = pendingHighSurrogate {
                throw pending.error
            }
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(e - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let d = current, d >= UInt8(ascii: "0") && d <= UInt8(ascii: "7") else { break }
                    value = value * 8 + UInt32(d - UInt8(ascii: "0"))
                    advance()
                }
                guard let scalar = Unicode.Scalar(value) else { throw escapeError }
                out += Array(String(scalar).utf8)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let c = current, let digit = hexDigit(c) else {
                        throw Diagnostic.error(escapeError.location, "\\U needs four hexadecimal digits")
                    }
                    value = value * 16 + digit
                    advance()
                }
                let unpaired = Diagnostic.error(escapeError.location, "unpaired surrogate in \\U escape")
                if let high = pendingHighSurrogate {
                    guard (0xDC00..<0xE000).contains(value) else { throw high.error }
                    value = 0x10000 + ((high.value - 0xD800) << 10) + (value - 0xDC00)
                    pendingHighSurrogate = nil
                } else if (0xD800..<0xDC00).contains(value) {
                    pendingHighSurrogate = (value, unpaired)
                    continue
                }
                guard let scalar = Unicode.Scalar(value) else { throw unpaired }
                out += Array(String(scalar).utf8)
            default:
                // \" \' \\ and any other character stand for themselves.
                out.append(e)
            }
        }
    }

    mutating func parse() throws(Diagnostic) -> [String: String] {
        var table: [String: String] = [:]
        var lines: [String: Int] = [:]  // where each key was given
        // The whole in braces, as a property list's dictionary is written (Foundation reads it).
        try skipSpaceAndComments()
        let opening = current == UInt8(ascii: "{") ? error("expected '}' to close the '{' here, found the end of the file") : nil
        if opening != nil { advance() }
        while true {
            try skipSpaceAndComments()
            if opening != nil, current == UInt8(ascii: "}") {
                advance()
                try skipSpaceAndComments()
                guard index >= bytes.count else { throw error("expected the end of the file after the closing '}', found \(describeCurrent())") }
                return table
            }
            if index >= bytes.count {
                if let opening { throw opening }
                return table
            }
            let keyLocation = SourceLocation(file: file, line: line, column: column)
            let key = try string("a key")
            keyLocations[key] = keyLocation  // the later text of a key given twice is used
            if let first = lines[key] {
                warnings.append(.warning(
                    keyLocation, "key '\(key)' is given again (first on line \(first)); this later text is used"))
            } else {
                lines[key] = keyLocation.line
            }
            try skipSpaceAndComments()
            if current == UInt8(ascii: ";") {
                advance()
                table[key] = key
                continue
            }
            guard current == UInt8(ascii: "=") else {
                throw error("expected '=' after the key '\(key)', found \(describeCurrent())")
            }
            advance()
            let value = try string("the text of '\(key)'")
            // A missing ';' is reported where it belongs: right after the value.
            let afterValue = error("expected ';' after the text of '\(key)'")
            try skipSpaceAndComments()
            guard current == UInt8(ascii: ";") else {
                throw Diagnostic.error(afterValue.location, afterValue.message + ", found \(describeCurrent())")
            }
            advance()
            table[key] = value
        }
    }
}
