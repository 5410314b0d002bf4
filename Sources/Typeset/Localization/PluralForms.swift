// The plural forms a language has (CLDR's plural rules, from the toolchain's ICU,
// `_FoundationICU`, as Style/Language.swift uses it for likely subtags), so that a catalog's
// plural variations that lack one can be said: a mockup shows the `other` form, and the forms an
// app shows for the commonest counts ("few" for 3–10 in Arabic, "two" in Hebrew) were missing
// unsaid.

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
