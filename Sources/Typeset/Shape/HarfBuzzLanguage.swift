// HarfBuzz's languages for BCP 47 tags. `hb_language_from_string` keeps every language it has
// been given in a list that it looks through for each tag: a document of 128,000 paragraphs, each
// with a `lang` of its own ("x-000123"), took 172 seconds, three quarters of them in that list.
// The tags given here are bounded: past 1,000 different ones a new tag is given as its primary
// language subtag (what chooses a font's language system, with the script), past 2,000 as none.
import CHarfBuzz

enum HarfBuzzLanguage {
    /// Each tag given, and the language it was given as (`hb_language_t`'s address).
    private static let given = Locked<[String: UInt]>([:])

    /// HarfBuzz's language for `tag` ("und" for an empty one).
    static func of(_ tag: String) -> hb_language_t? {
        let address = given.withLock { given -> UInt in
            if let known = given[tag] { return known }
            var name = tag.isEmpty ? "und" : tag
            if given.count >= 1_000 { name = String(name.prefix { $0 != "-" && $0 != "_" }).lowercased() }
            if given.count >= 2_000 { name = "und" }
            if let known = given[name] { return known }
            let language = UInt(bitPattern: name.withCString { hb_language_from_string($0, -1) })
            given[name] = language
            return language
        }
        return hb_language_t(bitPattern: address)
    }
}
