// HarfBuzz's languages for BCP 47 tags. `hb_language_from_string` keeps every language it has
// been given in a list that it looks through for each new tag: a document of 128,000 paragraphs,
// each with a `lang` of its own ("x-000123"), took 172 seconds, three quarters of them in that
// list. HarfBuzz is given a tag without its extensions and private use ("ar-u-nu-latn" as
// "ar", "x-000123" as "x"), which choose no language system, so that the tags it keeps are
// those of languages, scripts, regions and variants ("el-polyton", "zh-HK"). Past 2,000 of
// those, a new one is given as its primary language subtag, and past 4,000 as none: a bound
// only a document of that many languages meets, where which tag comes first may then decide.
// (A tag of two or three lower-case letters is given as it is: there are few enough of them.)
import CHarfBuzz

enum HarfBuzzLanguage {
    /// Each tag given to HarfBuzz, and its language (`hb_language_t`'s address).
    private static let given = Locked<[String: UInt]>([:])

    /// HarfBuzz's language for `tag` ("und" for an empty one).
    static func of(_ tag: String) -> hb_language_t? {
        // Most tags are a primary subtag alone, in lowercase ("ar", "en"): given as they are,
        // without the lock (there are 18,252 such; taken through the table, every shaping
        // paid its hashing, 0.7% of a corpus document's instructions).
        var short = tag.isEmpty ? "und" : tag  // (text in no language is shaped as "und")
        if short.utf8.count >= 2, short.utf8.count <= 3, short.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) {
            return short.withUTF8 { hb_language_from_string(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), Int32($0.count)) }
        }
        let address = given.withLock { given -> UInt in
            if let known = given[tag] { return known }
            // Up to the first singleton subtag ("-u-", "-x-"), where extensions begin.
            var subtags: [Substring] = []
            for subtag in tag.split(whereSeparator: { $0 == "-" || $0 == "_" }) {
                if subtag.count == 1 && !subtags.isEmpty { break }
                subtags.append(subtag)
                if subtag.count == 1 { break }  // "x-…", "i-…": the singleton alone
            }
            var name = subtags.isEmpty ? "und" : subtags.joined(separator: "-")
            if given.count >= 2_000 { name = String(subtags.first ?? "und") }
            if given.count >= 4_000 { name = "und" }
            if let known = given[name] { return known }
            let language = UInt(bitPattern: name.withCString { hb_language_from_string($0, -1) })
            given[name] = language
            return language
        }
        return hb_language_t(bitPattern: address)
    }
}
