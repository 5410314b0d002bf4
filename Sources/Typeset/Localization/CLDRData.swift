// CLDR's data about languages that catalogs need, from the toolchain's ICU (`_FoundationICU`,
// as LineBreak/DictionaryBreaks.swift uses it): the plural forms a language has, so that a
// catalog's plural variations that lack one can be said (a mockup shows the `other` form, and
// the forms an app shows for the commonest counts, "few" for 3–10 in Arabic, "two" in Hebrew,
// were missing unsaid); and the region a language is most likely used in, so that `fr` takes a
// catalog's `fr-FR` rather than its `fr-CA`.

import _FoundationICU

enum PluralForms {
    private static let known = Locked<[String: Set<String>]>([:])

    /// The plural categories of `language` for cardinal numbers ("one", "other", ...); nil when
    /// ICU does not know them.
    static func categories(of language: String) -> Set<String>? {
        if let found = known.withLock({ $0[language] }) { return found }
        var status = U_ZERO_ERROR
        guard let rules = swift_uplrules_open(language, &status), status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        defer { swift_uplrules_close(rules) }
        guard let keywords = swift_uplrules_getKeywords(rules, &status), status.rawValue <= U_ZERO_ERROR.rawValue else {
            return nil
        }
        defer { swift_uenum_close(keywords) }
        var found: Set<String> = []
        while let name = swift_uenum_next(keywords, nil, &status), status.rawValue <= U_ZERO_ERROR.rawValue {
            found.insert(String(cString: name))
        }
        guard found.contains("other") else { return nil }
        known.withLock { $0[language] = found }
        return found
    }

    /// The forms of `language` that `forms` (a plural variation's form names, those with text)
    /// lacks, in CLDR's order.
    static func missing(from forms: Set<String>, language: String) -> [String] {
        guard let categories = categories(of: language) else { return [] }
        return ["zero", "one", "two", "few", "many", "other"].filter { categories.contains($0) && !forms.contains($0) }
    }
}

/// CLDR's likely subtags, from the toolchain's ICU.
enum LikelySubtags {
    /// The region `tag` is most likely used in, lowercased (`fr` → "fr", `zh-Hant` → "tw", `ar`
    /// → "eg"); nil when ICU does not know it.
    static func region(of tag: String) -> String? {
        var status = U_ZERO_ERROR
        var maximized = [CChar](repeating: 0, count: 160)
        _ = swift_uloc_addLikelySubtags(tag, &maximized, Int32(maximized.count - 1), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        var country = [CChar](repeating: 0, count: 16)
        let length = swift_uloc_getCountry(maximized, &country, Int32(country.count - 1), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
        return String(cString: country).lowercased()
    }
}
