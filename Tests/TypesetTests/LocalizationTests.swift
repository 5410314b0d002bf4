// Tests of string catalogs (SPEC 5.2), text sizes (5.3) and batches (5.1, shards): the catalog
// readers directly, then the built `typeset` binary end to end.
import Foundation
import Testing

@testable import Typeset

// MARK: - Running the binary

/// Helpers of the end-to-end tests of localization, batches and sheets.
enum L10nCLI {
    typealias Run = CommandResult

    static func typeset(_ arguments: [String], in directory: String) throws -> Run {
        try runProgram(try typesetBinary(), arguments, in: directory)
    }

    /// A fresh folder holding `files` (name → contents); the caller removes it.
    static func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "typeset-l10n-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, contents) in files {
            let file = path + "/" + name
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try contents.write(toFile: file, atomically: false, encoding: .utf8)
        }
        return path
    }

    /// The blocks of a `typeset layout` JSON: kind, lang, direction and runs (text, size).
    struct Block {
        var kind: String
        var lang: String
        var direction: String
        var context: String
        var text: String
        var sizes: [Double]
    }

    static func blocks(_ json: String) throws -> (blocks: [Block], diagnostics: [[String: Any]]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pages = try #require(object["pages"] as? [[String: Any]])
        var blocks: [Block] = []
        for page in pages {
            for block in try #require(page["blocks"] as? [[String: Any]]) {
                var text = ""
                var sizes: [Double] = []
                for line in block["lines"] as? [[String: Any]] ?? [] {
                    for run in line["runs"] as? [[String: Any]] ?? [] {
                        text += run["text"] as? String ?? ""
                        sizes.append(run["size"] as? Double ?? 0)
                    }
                }
                blocks.append(
                    Block(
                        kind: block["kind"] as? String ?? "", lang: block["lang"] as? String ?? "",
                        direction: block["direction"] as? String ?? "", context: block["context"] as? String ?? "",
                        text: text, sizes: sizes))
            }
        }
        return (blocks, object["diagnostics"] as? [[String: Any]] ?? [])
    }
}

// MARK: - Catalog readers

private func catalog(_ text: String, file: String) throws -> StringCatalog {
    try StringCatalog.parse(bytes: Array(text.utf8), file: file)
}

/// The diagnostic a broken catalog throws, or else that of its one broken entry.
private func catalogError(_ text: String, file: String) -> Diagnostic? {
    do {
        let catalog = try StringCatalog.parse(bytes: Array(text.utf8), file: file)
        let problems = catalog.problems.values.flatMap(\.values)
        return problems.count == 1 ? problems.first : nil
    } catch {
        return error
    }
}

private let xcstrings = #"""
    {
      "sourceLanguage" : "en",
      "strings" : {
        "title" : {
          "comment" : "The screen's title",
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Settings" } },
            "ar" : { "stringUnit" : { "state" : "translated", "value" : "الإعدادات" } },
            "ar-EG" : { "stringUnit" : { "state" : "needs_review", "value" : "الضبط" } }
          }
        },
        "photos" : {
          "localizations" : {
            "en" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld photo" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld photos" } } } } },
            "ar" : { "variations" : { "plural" : {
              "zero" : { "stringUnit" : { "state" : "translated", "value" : "لا صور" } },
              "one" : { "stringUnit" : { "state" : "translated", "value" : "صورة واحدة" } },
              "two" : { "stringUnit" : { "state" : "translated", "value" : "صورتان" } },
              "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld صور" } },
              "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld صورة" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld صورة" } } } } }
          }
        },
        "device" : {
          "localizations" : {
            "en" : { "variations" : { "device" : {
              "iphone" : { "stringUnit" : { "state" : "translated", "value" : "Tap" } },
              "ipad" : { "stringUnit" : { "state" : "translated", "value" : "Tap or click" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "Click" } } } } }
          }
        },
        "files" : {
          "localizations" : {
            "en" : {
              "stringUnit" : { "state" : "translated", "value" : "Deleted %#@count@" },
              "substitutions" : { "count" : {
                "argNum" : 1, "formatSpecifier" : "lld",
                "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg file" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg files" } } } } } }
            }
          }
        },
        "Only in the source" : { },
        "escapes" : {
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "A \"quote\", a \\ and \u00E9\uD83D\uDE00" } }
          }
        },
        "hebrew only" : {
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello" } },
            "HE" : { "stringUnit" : { "state" : "translated", "value" : "שלום" } }
          }
        },
        "added, not translated" : {
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Sync" } },
            "ar" : { "stringUnit" : { "state" : "new", "value" : "" } },
            "he" : { "stringUnit" : { "state" : "translated", "value" : "" } }
          }
        }
      },
      "version" : "1.0"
    }
    """#

@Suite struct StringCatalogTests {
    @Test func xcstringsUnitsPluralsDevicesAndSubstitutions() throws {
        let strings = try catalog(xcstrings, file: "Localizable.xcstrings").strings(locale: "en")
        #expect(strings["title"] == "Settings")
        #expect(strings["photos"] == "%lld photos")  // plural: the `other` form
        #expect(strings["device"] == "Click")  // device variations: `other`
        // A document's device picks its own variation where there is one.
        let loaded = try catalog(xcstrings, file: "Localizable.xcstrings")
        #expect(loaded.strings(locale: "en", device: "iphone")["device"] == "Tap")
        #expect(loaded.strings(locale: "en", device: "ipad")["device"] == "Tap or click")
        #expect(loaded.strings(locale: "ar", device: "iphone")["device"] == "Tap")  // en's, the fallback
        #expect(strings["files"] == "Deleted %lld files")
        #expect(strings["Only in the source"] == "Only in the source")  // a key is its own source text
        #expect(strings["escapes"] == "A \"quote\", a \\ and é😀")
    }

    @Test func localeFallsBackFromRegionToLanguageToSource() throws {
        let strings = try catalog(xcstrings, file: "Localizable.xcstrings")
        #expect(strings.fallbackChain(locale: "ar-EG") == ["ar-eg", "ar", "arb", "en", ""])  // (arb: CLDR's other code of Arabic)
        let egyptian = strings.strings(locale: "ar-EG")
        #expect(egyptian["title"] == "الضبط")
        #expect(egyptian["photos"] == "%lld صورة")  // from ar
        #expect(egyptian["device"] == "Click")  // from the source language
        #expect(strings.strings(locale: "ar_SA")["title"] == "الإعدادات")
        #expect(strings.strings(locale: "fr")["title"] == "Settings")
        #expect(strings.strings(locale: nil)["title"] == "Settings")
        // Old and new codes of one language match each other (`iw` is Hebrew's old code).
        let hebrew = try catalog(#"{"sourceLanguage": "en", "strings": {"title": {"localizations": {"he": {"stringUnit": {"state": "translated", "value": "הגדרות"}}}}}}"#, file: "h.xcstrings")
        #expect(hebrew.hasStrings(locale: "iw-IL") && hebrew.strings(locale: "iw-IL")["title"] == "הגדרות")
        #expect(hebrew.fallbackChain(locale: "iw") == ["iw", "he", "en", ""])
        let regional = StringCatalog(tables: ["en": ["k": "en"], "he-IL": ["k": "he-IL"], "yi-US": ["k": "yi-US"]], sourceLanguage: "en")
        #expect(regional.strings(locale: "iw")["k"] == "he-IL" && regional.strings(locale: "ji")["k"] == "yi-US")
        // Every deprecated code `--locale` writes as the current one still finds the old one's
        // strings (`mo` and `jw` did not, once written `ro` and `jv`).
        let old = StringCatalog(tables: ["en": ["k": "en"], "mo": ["k": "mo"], "jw": ["k": "jw"]], sourceLanguage: "en")
        #expect(old.strings(locale: "ro")["k"] == "mo" && old.strings(locale: "jv")["k"] == "jw")
        // Codes CLDR replaces by their macrolanguage's or Apple's: `tl` finds `fil`, `pes` `fa`.
        let cldr = StringCatalog(tables: ["en": ["k": "en"], "fil": ["k": "fil"], "fa": ["k": "fa"]], sourceLanguage: "en")
        #expect(cldr.strings(locale: "tl")["k"] == "fil" && cldr.strings(locale: "pes-IR")["k"] == "fa")
        // A catalog's old code is written as the current one, as the markup's is.
        let iwSource = StringCatalog(tables: ["iw": ["k": "שלום"]], sourceLanguage: "iw")
        #expect(iwSource.strings(locale: "fr").lookUp("k")?.language == "he")
        // Language tags match whatever their case.
        #expect(strings.strings(locale: "he-IL")["hebrew only"] == "שלום")
        #expect(strings.strings(locale: "he-IL")["title"] == "Settings")
        // Xcode adds a language's entries as state "new" with an empty value: untranslated,
        // they fall back; an empty value someone translated stays empty.
        #expect(strings.strings(locale: "ar-EG")["added, not translated"] == "Sync")
        #expect(strings.strings(locale: "he")["added, not translated"] == "")
    }

    @Test func stringsFileCommentsAndEscapes() throws {
        let text = #"""
            /* A block comment
               over two lines */
            "greeting" = "Hello, \"World\"";  // a line comment
            "path" = "C:\\Users";
            "lines" = "one\ntwo\ttab";
            "unicode" = "caf\U00E9 \U05E9 \UD83D\UDE00";
            "octal" = "\101\102";
            "same";
            unquoted = word_2;
            "ميزة" = "قيمة";
            """#
        let strings = try catalog(text, file: "Localizable.strings").strings(locale: "ar")
        #expect(strings["greeting"] == "Hello, \"World\"")
        #expect(strings["path"] == "C:\\Users")
        #expect(strings["lines"] == "one\ntwo\ttab")
        #expect(strings["unicode"] == "café ש 😀")
        #expect(strings["octal"] == "AB")
        #expect(strings["same"] == "same")
        #expect(strings["unquoted"] == "word_2")
        #expect(strings["ميزة"] == "قيمة")
        #expect(try catalog(text, file: "Localizable.strings").tables[""]?.count == 8)
        // The whole in braces, as a property list's dictionary (Foundation reads it so).
        let braced = try catalog("/* c */ {\n  \"title\" = \"Welcome\";\n} // end\n", file: "Braced.strings")
        #expect(braced.tables == ["": ["title": "Welcome"]])
    }

    @Test func stringsFileInUTF16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "/* c */\n\"k\" = \"\u{5E9}\u{5DC}\u{5D5}\u{5DD}\";\n".utf16 {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let catalog = try StringCatalog.parse(bytes: bytes, file: "he.strings")
        #expect(catalog.tables == ["": ["k": "שלום"]])
        #expect(catalog.strings(locale: nil)["k"] == "שלום")
    }

    @Test func formatSpecifiersAreIsolatedAndPercentsHalved() {
        #expect(FormatSpecifiers.shown("خصم %2$lld%% لـ %1$@") == "خصم \u{2066}%2$lld\u{2069}% لـ \u{2066}%1$@\u{2069}")
        #expect(FormatSpecifiers.shown("%%%@ and %#@files@") == "%\u{2066}%@\u{2069} and \u{2066}%#@files@\u{2069}")
        #expect(FormatSpecifiers.shown("50% off") == "50% off")
        #expect(FormatSpecifiers.find(in: "خصم %2$lld%% لـ %1$@") == ["%2$lld", "%1$@"])
    }

    @Test func jsonObjectOfKeysAndTexts() throws {
        let json = try catalog(#"{"a": "Alpha", "b": "\u05D1\n", "c": ""}"#, file: "strings.json")
        #expect(json.tables == ["": ["a": "Alpha", "b": "ב\n", "c": ""]])
        #expect(json.strings(locale: "he")["b"] == "ב\n" && json.strings(locale: "he")["c"] == "")
        // Strings under no language are passed over, said once each language: those under ""
        // were every locale's.
        let languages = try catalog(#"""
            {"sourceLanguage": "en", "strings": {
              "k": {"localizations": {"": {"stringUnit": {"state": "translated", "value": "E"}},
                                      "arabic": {"stringUnit": {"state": "translated", "value": "A"}}}},
              "l": {"localizations": {"": {"stringUnit": {"state": "translated", "value": "E"}}}}}}
            """#, file: "l.xcstrings")
        #expect(languages.tables.isEmpty && languages.warnings.map(\.message) == [
            #"the strings under "" are passed over: a language tag is needed, such as "ar""#,
            "the strings under \"arabic\" are passed over: no language has a subtag of 6 letters; codes have 2 or 3 (ISO 639); did you mean 'ar'?",
        ], "\(languages.warnings.map(\.message))")
        // An object of objects (i18next's) is read at its top only, and said where it is: its
        // "onboarding.title" was only "no string for key", with no word of why.
        let nested = try catalog("{\"a\": \"A\",\n \"onboarding\": {\"title\": \"Welcome\"}}", file: "nested.json")
        #expect(nested.warnings.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "2:16 the value of key 'onboarding' is an object: a catalog of key → text is not read inside it, and 'onboarding.…' keys are not found"
        ])
    }

    @Test(arguments: [
        // JSON syntax errors: where they are.
        ("{\n  \"a\": \"x\",\n  \"b\": \n}\n", "bad.json", 4, 1, "not valid JSON"),
        ("{\n  \"a\": \"x\"\n  \"b\": \"y\"\n}", "bad.json", 3, 3, "expected ',' or '}'"),
        ("{\"a\": \"unterminated}", "bad.json", 1, 7, "unterminated string"),
        ("{\"a\": \"\\q\"}", "bad.json", 1, 8, "invalid escape"),
        ("{\"a\": \"\\uD800\"}", "bad.json", 1, 8, "unpaired surrogate"),
        ("[1, 2]", "bad.json", 1, 1, "must be a JSON object"),
        ("{\"a\": 1} x", "bad.json", 1, 10, "unexpected text"),
        // A language's name for its code, as `--locale` and `lang` refuse it.
        ("{\"sourceLanguage\": \"english\", \"strings\": {}}", "bad.xcstrings", 1, 20, "did you mean 'en'?"),
        // Values of the wrong type: at the value.
        (
            "{\n  \"a\": \"x\",\n  \"b\": 3\n}\n", "bad.json", 3, 8,
            "the value of key 'b' must be a string, not a number"
        ),
        (
            "{\"sourceLanguage\": \"en\",\n \"strings\": {\"k\": {\"localizations\": {\"ar\":\n {\"stringUnit\": {\"value\": true}}}}}}",
            "bad.xcstrings", 3, 27, "the value of key 'k' (ar) must be a string, not a boolean"
        ),
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\"k\": {\"localizations\": {\"en\":\n {\"variations\": {\"plural\": {\"one\": {}}}}}}}}",
            "bad.xcstrings", 2, 28, "have no \"other\" form"
        ),
        // A substitution's own flaws name it.
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\"k\": {\"localizations\": {\"en\": {\"stringUnit\": {\"value\": \"%#@n@\"},\n \"substitutions\": {\"n\": {\"variations\": {\"plural\": {\"one\": {}}}}}}}}}}",
            "bad.xcstrings", 2, 51, "the plural variations of substitution 'n' of key 'k' (en) have no \"other\" form"
        ),
        // A substitution without forms is named as one (its localization has a stringUnit).
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\"k\": {\"localizations\": {\"en\": {\"stringUnit\": {\"value\": \"%#@n@\"},\n \"substitutions\": {\"n\": {\"argNum\": 1}}}}}}}",
            "bad.xcstrings", 2, 25, "the substitution 'n' of key 'k' (en) has no variations"
        ),
        // Variations Xcode does not write, or written as no forms: the `other` of a 'gender'
        // was shown, and a string for the forms said they had no `other`.
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\"k\": {\"localizations\": {\"en\":\n {\"variations\": {\"gender\": {\"other\": {}}}}}}}}",
            "bad.xcstrings", 2, 17, "are 'gender'; a catalog's are 'plural' or 'device'"
        ),
        (
            "{\"sourceLanguage\": \"en\", \"strings\": {\"k\": {\"localizations\": {\"en\":\n {\"variations\": {\"plural\": \"x\"}}}}}}",
            "bad.xcstrings", 2, 28, "must be an object of forms, not a string"
        ),
        ("{\"strings\": {}}", "bad.xcstrings", 1, 1, "needs a \"sourceLanguage\""),
        ("{\"sourceLanguage\": \"not a tag!\", \"strings\": {}}", "bad.xcstrings", 1, 20, "must be a language tag"),
        ("{\"sourceLanguage\": \"en\", \"strings\": [\n]}", "bad.xcstrings", 1, 37, "\"strings\" must be an object"),
        // .strings errors.
        ("\"a\" = \"x\";\n\"b\" = \"y\"\n", "bad.strings", 2, 10, "expected ';' after the text of 'b'"),
        ("\"a\" = \"x\";\n\"b\" \"y\";", "bad.strings", 2, 5, "expected '=' after the key 'b'"),
        ("\"a\" = \"x\";\n/* open", "bad.strings", 2, 1, "unterminated comment"),
        ("\"a\" = \"x", "bad.strings", 1, 7, "unterminated string"),
        ("\"a\" = \"\\U12\";", "bad.strings", 1, 8, "four hexadecimal digits"),
        ("\"a\" = \"\\UD800x\";", "bad.strings", 1, 8, "unpaired surrogate"),
        ("{\n\"a\" = \"x\";\n", "bad.strings", 1, 1, "expected '}' to close the '{' here"),
        ("{ \"a\" = \"x\"; } \"b\";", "bad.strings", 1, 16, "expected the end of the file after the closing '}', found '\"'"),
        // A letter of another alphabet is named as itself, not as its first byte.
        ("bé = \"y\";", "bad.strings", 1, 2, "expected '=' after the key 'b', found 'é' (U+00E9)"),
    ])
    func brokenCatalogsAreLocated(text: String, file: String, line: Int, column: Int, message: String) throws {
        let error = try #require(catalogError(text, file: file))
        #expect(error.severity == .error)
        #expect(error.location == SourceLocation(file: file, line: line, column: column), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func invalidUTF8IsLocated() throws {
        let bytes = Array("{\n  \"a\": \"ok\",\n  \"b\": \"".utf8) + [0xC3, 0x28] + Array("\"\n}".utf8)
        #expect(
            throws: Diagnostic.error(
                SourceLocation(file: "x.json", line: 3, column: 9), "the string catalog is not UTF-8 (byte 0xC3)")
        ) {
            try StringCatalog.parse(bytes: bytes, file: "x.json")
        }
    }

    @Test func unreadableCatalogIsAnError() throws {
        let folder = try L10nCLI.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = folder + "/pipe.json"
        #expect(mkfifo(pipe, 0o600) == 0)
        let large = folder + "/large.json"
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: large))
        try handle.truncate(atOffset: UInt64(StringCatalog.maximumBytes) + 1)
        try handle.close()
        let expected = [
            (folder + "/missing.json", "cannot read the string catalog: it does not exist"),
            (folder, "cannot read the string catalog: it is not a regular file"),
            // A pipe is refused, not read: reading it would wait for a writer forever.
            (pipe, "cannot read the string catalog: it is not a regular file"),
            (large, "the string catalog is \(StringCatalog.maximumBytes + 1) bytes; the limit is 67108864 bytes (64 MiB)"),
        ]
        for (path, message) in expected {
            #expect(throws: Diagnostic.error(SourceLocation(file: path, line: 1, column: 1), message)) {
                try StringCatalog.load(path: path)
            }
        }
    }

    /// Translations reorder plural arguments with positional placeholders, `%2$#@name@`: they
    /// are filled in as `%#@name@` is, keeping their numbers. One the catalog does not define
    /// is one specifier, quoted whole.
    @Test func positionalSubstitutionsAreFilledIn() throws {
        func unit(_ value: String) -> String { #"{ "stringUnit" : { "state" : "translated", "value" : "\#(value)" } }"# }
        func plural(_ one: String, _ other: String) -> String {
            #"{ "formatSpecifier" : "lld", "variations" : { "plural" : { "one" : \#(unit(one)), "other" : \#(unit(other)) } } }"#
        }
        let text = #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
            + #""stringUnit" : { "state" : "translated", "value" : "%2$#@albums@ hold %1$#@photos@ (#@photos@, %#@other@)" }, "#
            + #""substitutions" : { "photos" : \#(plural("%arg photo", "%arg photos")), "albums" : \#(plural("%arg album", "%arg albums")) } } } } } }"#
        let strings = try catalog(text, file: "Localizable.xcstrings").strings(locale: "en")
        #expect(strings["k"] == "%2$lld albums hold %1$lld photos (#@photos@, %#@other@)")
        // "%%" is a percent sign, not a placeholder's "%"; a form may hold another substitution,
        // whatever the order of the file's members.
        let nested = #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
            + #""stringUnit" : { "state" : "translated", "value" : "100%%#@photos@ %#@files@" }, "substitutions" : { "#
            + #""folders" : \#(plural("%arg folder", "%arg folders")), "#
            + #""files" : { "variations" : { "plural" : { "other" : \#(unit("%#@folders@ of files")) } } }, "#
            + #""photos" : \#(plural("%arg photo", "%arg photos")) } } } } } }"#
        #expect(try catalog(nested, file: "n.xcstrings").strings(locale: "en")["k"] == "100%%#@photos@ %lld folders of files")
        // Forms that hold the next substitution twice, 40 deep, would make 2^40 characters, and
        // 12 deep 8 MB: the key is broken, not the process (it hung, and took every document
        // with it). So is a form that holds its own placeholder, through others or not; and
        // 2,000 substitutions that hold the next one's (they took minutes).
        func problem(_ count: Int, _ form: (Int) -> String) throws -> String? {
            let substitutions = (0..<count).map { i in
                #""s\#(i)" : { "variations" : { "plural" : { "other" : \#(unit(form(i))) } } }"#
            }.joined(separator: ", ")
            let text = #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
                + #""stringUnit" : { "state" : "translated", "value" : "%#@s0@" }, "substitutions" : { \#(substitutions) } } } } } }"#
            return try catalog(text, file: "bomb.xcstrings").strings(locale: "en").lookUp("k")?.problem?.message
        }
        let doubling = try problem(40) { $0 < 39 ? "%#@s\($0 + 1)@%#@s\($0 + 1)@" : "x" }
        #expect(doubling?.contains("hold each other's placeholders more than 16 deep") == true, "\(doubling ?? "")")
        let wide = try problem(13) { $0 < 12 ? "%#@s\($0 + 1)@%#@s\($0 + 1)@" : String(repeating: "x", count: 2000) }
        #expect(wide?.contains("make a text of more than 4 MiB, the most a document may show") == true, "\(wide ?? "")")
        // The whole catalog's substitutions make at most 64 MiB: every key is expanded when it
        // is read (500 keys of 2.4 KB, each 4 MiB, took 2 GB). 17 keys of 4,096,000 bytes each:
        // the 17th passes it.
        let nesting = (0..<13).map { i in
            #""s\#(i)" : { "variations" : { "plural" : { "other" : \#(unit(i < 12 ? "%#@s\(i + 1)@%#@s\(i + 1)@" : String(repeating: "x", count: 1000))) } } }"#
        }.joined(separator: ", ")
        let keys = (0..<17).map { k in
            #""k\#(k)" : { "localizations" : { "en" : { "stringUnit" : { "state" : "translated", "value" : "%#@s0@" }, "#
                + #""substitutions" : { \#(nesting) } } } }"#
        }.joined(separator: ", ")
        let budgeted = try catalog(#"{ "sourceLanguage" : "en", "strings" : { \#(keys) } }"#, file: "budget.xcstrings").strings(locale: "en")
        #expect((0..<16).allSatisfy { budgeted["k\($0)"]?.utf8.count == 4_096_000 })
        #expect(budgeted.lookUp("k16")?.problem?.message
            == "the substitutions of this catalog's strings make more than 64 MiB of text in all; those of key 'k16' (en) pass it; "
                + "the most of it is key 'k0' (en)'s, 4000 KB")
        // Many placeholders of one substitution are no nesting: 48,000 make 432 KB.
        let repeated = String(repeating: "%#@s0@ ", count: 48_000)
        let many = #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
            + #""stringUnit" : { "state" : "translated", "value" : "\#(repeated)" }, "substitutions" : { "#
            + #""s0" : { "variations" : { "plural" : { "other" : \#(unit("%arg items")) } } } } } } } } }"#
        let manyStrings = try catalog(many, file: "many.xcstrings").strings(locale: "en")
        #expect(manyStrings.lookUp("k")?.problem == nil)
        #expect(manyStrings["k"]?.utf8.count == 48_000 * "%@ items ".utf8.count)
        let own = try problem(3) { $0 < 2 ? "a%#@s\($0 + 1)@" : "b%#@s1@" }
        #expect(own == "the substitution 's1' of key 'k' (en) holds its own placeholder, through 's2'", "\(own ?? "")")
        // (40,000 of them: 30,000 overflowed the stack, followed to the end by the look for forms
        // not translated yet.)
        let chain = try problem(40_000) { $0 < 39_999 ? "a%#@s\($0 + 1)@" : "b" }
        #expect(chain?.contains("more than 16 deep") == true, "\(chain ?? "")")
        // The limit holds whatever the order of the placeholders: t0 … t9 lead to s0 … s9, 20
        // deep, though s0 was expanded first (from the top) in one of the two.
        for value in ["%#@s0@ %#@t0@", "%#@t0@ %#@s0@"] {
            let substitutions = (0..<20).map { i in
                let name = i < 10 ? "t\(i)" : "s\(i - 10)"
                let next = i < 9 ? "%#@t\(i + 1)@" : i == 9 ? "%#@s0@" : i < 19 ? "%#@s\(i - 9)@" : "end"
                return #""\#(name)" : { "variations" : { "plural" : { "other" : \#(unit("x" + next)) } } }"#
            }.joined(separator: ", ")
            let text = #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
                + #""stringUnit" : { "state" : "translated", "value" : "\#(value)" }, "substitutions" : { \#(substitutions) } } } } } }"#
            let message = try catalog(text, file: "order.xcstrings").strings(locale: "en").lookUp("k")?.problem?.message
            #expect(message?.contains("more than 16 deep") == true, "\(value): \(message ?? "")")
        }
        let shallow = try catalog(
            #"{ "sourceLanguage" : "en", "strings" : { "k" : { "localizations" : { "en" : { "#
                + #""stringUnit" : { "state" : "translated", "value" : "%#@s0@ %#@s1@" }, "substitutions" : { "#
                + (0..<2).map { #""s\#($0)" : { "variations" : { "plural" : { "other" : \#(unit("%arg")) } } }"# }
                .joined(separator: ", ") + " } } } } } }",
            file: "k.xcstrings")
        #expect(shallow.strings(locale: "en")["k"] == "%@ %@")
        #expect(FormatSpecifiers.find(in: "%#@y@ and %1$#@z@, %@ #@w@") == ["%#@y@", "%1$#@z@", "%@"])
    }

    /// A flaw in one key's entry is that key's: the catalog reads, the other keys work, and the
    /// key says what is wrong where (it failed every document, even those that use no key).
    @Test func aBrokenEntryIsItsKeysAlone() throws {
        let text = """
            {"sourceLanguage": "en", "strings": {
              "good": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Good"}}}},
              "arabic broken": {"localizations": {
                "en": {"stringUnit": {"state": "translated", "value": "Fine in English"}},
                "ar": {"variations": {"device": {"iphone": {"stringUnit": {"state": "translated", "value": "x"}}}}}}},
              "not an object": 3
            }}
            """
        let loaded = try catalog(text, file: "c.xcstrings")
        let english = loaded.strings(locale: "en")
        #expect(english["good"] == "Good" && english["arabic broken"] == "Fine in English")
        let arabic = loaded.strings(locale: "ar")
        let problem = try #require(arabic.lookUp("arabic broken")?.problem)
        #expect(problem.location == SourceLocation(file: "c.xcstrings", line: 5, column: 37), "\(problem)")
        #expect(problem.message.contains("have no \"other\" form"))
        #expect(english.lookUp("not an object")?.problem?.message.contains("must be an object, not a number") == true)
        #expect(arabic["good"] == "Good")

        // A stringUnit that is no object says so (it said it had no "value"); a language whose
        // only entry is broken is one the catalog has (it was warned about as missing, while
        // its key failed).
        let onlyBroken = try catalog(
            #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": "Hi"}}}}}"#,
            file: "u.xcstrings")
        let unit = try #require(onlyBroken.strings(locale: "en").lookUp("k")?.problem)
        #expect(unit.message == "the stringUnit of key 'k' (en) must be an object, not a string", "\(unit)")
        #expect(onlyBroken.languages == ["en"] && onlyBroken.hasStrings(locale: "en"))
        #expect(loaded.languages == ["ar", "en"] && loaded.hasStrings(locale: "ar-EG") && !loaded.hasStrings(locale: "fr"))
    }

    /// Another region's strings stand in only for a language the catalog has nothing of: an app
    /// shows one localization, and a key it lacks shows the source language's text. `--locale
    /// en` showed the catalog's en-GB "Colour" for a key with no `en` text, and `fr` the fr-CA
    /// text of a key `fr` lacked, without a word.
    @Test func anotherRegionStandsInOnlyForALanguageWithoutStrings() throws {
        let loaded = try catalog(
            #"""
            {"sourceLanguage": "en", "strings": {
              "Color": {"localizations": {"en-GB": {"stringUnit": {"state": "translated", "value": "Colour"}},
                                          "fr-CA": {"stringUnit": {"state": "translated", "value": "Couleur (CA)"}},
                                          "pt-BR": {"stringUnit": {"state": "translated", "value": "Cor"}}}},
              "Email": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "E-mail"}},
                                          "fr-CA": {"stringUnit": {"state": "translated", "value": "Courriel"}}}}}}
            """#, file: "c.xcstrings")
        for locale in ["en", "en-US"] {
            let color = try #require(loaded.strings(locale: locale).lookUp("Color"))
            #expect(color.text == "Color" && color.isKey && color.fallback == nil, "\(locale): \(color)")
        }
        // en-AU reads en-GB before en, as before (CLDR's en-001).
        #expect(loaded.strings(locale: "en-AU")["Color"] == "Colour")
        for locale in ["fr", "fr-FR"] {
            let strings = loaded.strings(locale: locale)
            #expect(strings["Email"] == "E-mail", "\(locale)")
            let color = try #require(strings.lookUp("Color"))
            #expect(color.text == "Color" && color.fallback == "en", "\(locale): \(color)")
        }
        #expect(loaded.strings(locale: "fr-CA")["Color"] == "Couleur (CA)")
        // A language of which the catalog has one region only takes that region's.
        #expect(loaded.strings(locale: "pt")["Color"] == "Cor" && loaded.strings(locale: "pt-PT")["Color"] == "Cor")
        #expect(loaded.hasStrings(locale: "pt") && loaded.hasStrings(locale: "fr-BE"))
        // Said at the command line (`noStringsWarning`): the stand-in region is named.
        #expect(loaded.standIn(for: "pt") == "pt-BR" && loaded.standIn(for: "pt-PT") == "pt-BR")
        #expect(loaded.standIn(for: "fr-BE") == nil && loaded.standIn(for: "en-AU") == nil && loaded.standIn(for: "pt-BR") == nil)
        // One region, not two key by key; the source language when it is a form of the locale's
        // (`en-US` for `en`, not `en-GB`); Macao's Chinese is Hong Kong's, before `zh-Hant`.
        let regions = StringCatalog(
            tables: ["pt-BR": ["a": "BR"], "pt-PT": ["a": "PT", "b": "PT"], "en-GB": ["a": "GB"], "en-US": ["b": "US"],
                     "zh-Hant": ["a": "Hant", "b": "Hant"], "zh-HK": ["a": "HK"]],
            sourceLanguage: "en-US")
        let portuguese = regions.strings(locale: "pt")
        #expect(portuguese["a"] == "BR" && portuguese.lookUp("b")?.fallback == "en-US", "\(String(describing: portuguese.lookUp("b")))")
        #expect(regions.strings(locale: "en")["a"] == nil && regions.strings(locale: "en")["b"] == "US")
        #expect(regions.strings(locale: "en-AU")["a"] == "GB")
        for locale in ["zh-MO", "zh-Hant-MO"] {
            #expect(regions.strings(locale: locale)["a"] == "HK" && regions.strings(locale: locale)["b"] == "Hant", "\(locale)")
        }
        #expect(regions.strings(locale: "zh-TW")["a"] == "Hant")
        // Of several regions, the language's likely one in CLDR, as ICU's matcher takes it (the
        // first in order stood in: `fr` showed `fr-CA`, `de-AT` `de-CH`, `ar` `ar-AE`).
        let several = StringCatalog(
            tables: ["fr-CA": ["a": "CA"], "fr-FR": ["a": "FR"], "de-CH": ["a": "CH"], "de-DE": ["a": "DE"],
                     "ar-AE": ["a": "AE"], "ar-EG": ["a": "EG"], "zh-HK": ["a": "HK"], "zh-TW": ["a": "TW"], "en": ["a": "en"]],
            sourceLanguage: "en")
        for (locale, shown) in [("fr", "FR"), ("fr-BE", "FR"), ("de-AT", "DE"), ("ar", "EG"), ("ar-SA", "EG"), ("zh-Hant", "TW")] {
            #expect(several.strings(locale: locale)["a"] == shown, "\(locale)")
        }
    }

    /// Locales match as iOS matches them: Chinese by script, Latin American Spanish by es-419,
    /// Portuguese outside Brazil by pt-PT, English outside the US by en-GB, and a language by
    /// the catalog's regional forms.
    @Test func localesMatchAsIOSMatchesThem() throws {
        let languages = ["en", "zh-Hans", "zh-Hant", "es", "es-419", "pt-BR", "pt-PT", "fr-CA"]
        let loaded = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: languages.map { ($0, ["k": $0]) }), sourceLanguage: "en")
        let expected = [
            ("zh-TW", "zh-hant"), ("zh-HK", "zh-hant"), ("zh_Hant_TW", "zh-hant"), ("zh-CN", "zh-hans"),
            ("zh-SG", "zh-hans"), ("zh", "zh-hans"), ("es-MX", "es-419"), ("es-US", "es-419"), ("es-ES", "es"),
            ("es", "es"), ("pt", "pt-br"), ("pt-BR", "pt-br"), ("pt-AO", "pt-pt"), ("fr", "fr-ca"), ("de", "en"),
            // A script subtag is not a region.
            ("es-Latn-MX", "es-419"), ("pt-Latn-BR", "pt-br"), ("zh-Hant", "zh-hant"), ("zh-Hans-HK", "zh-hans"),
        ]
        for (locale, language) in expected {
            #expect(loaded.strings(locale: locale)["k"]?.lowercased() == language, "\(locale)")
            #expect(loaded.hasStrings(locale: locale) == (language != "en"), "\(locale)")
        }
        // Never another script: Traditional Chinese does not read Simplified, Serbian in Latin
        // letters not Cyrillic; a region of the same script does.
        let scripts = ["en", "zh-Hans", "zh-HK", "sr-Cyrl"]
        let other = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: scripts.map { ($0, ["k": $0]) }), sourceLanguage: "en")
        for (locale, language) in [("zh-TW", "zh-hk"), ("zh-Hant", "zh-hk"), ("zh-CN", "zh-hans"), ("sr-Latn", "en"), ("sr", "sr-cyrl")] {
            #expect(other.strings(locale: locale)["k"]?.lowercased() == language, "\(locale)")
        }
        // English outside the United States reads the British strings before the bare language's
        // (CLDR's en-001; en-AU showed American spelling although the catalog had en-GB).
        let english = StringCatalog(tables: ["en": ["k": "en"], "en-GB": ["k": "en-GB"]], sourceLanguage: "en")
        for (locale, language) in [
            ("en-AU", "en-GB"), ("en-IN", "en-GB"), ("en-150", "en-GB"), ("en-Latn-AU", "en-GB"), ("en-US", "en"), ("en-PR", "en"),
            ("en", "en"), ("en-Latn-US", "en"), ("en-Latn", "en"), ("en-Shaw", "en"),
        ] {
            #expect(english.strings(locale: locale)["k"] == language, "\(locale)")
        }
        let simplifiedOnly = StringCatalog(tables: ["en": ["k": "en"], "zh-Hans": ["k": "zh-Hans"]], sourceLanguage: "en")
        #expect(simplifiedOnly.strings(locale: "zh-TW")["k"] == "en" && !simplifiedOnly.hasStrings(locale: "zh-TW"))
        // Nor a bare language written in another script: `sr` is Cyrillic, `zh` Simplified, `uz`
        // Latin (sr-Latn showed the Cyrillic of `sr`, zh-TW the Simplified of `zh`).
        // Nor one a region writes in another script: Sindhi in India is Devanagari (CLDR's
        // sd-Deva-IN), Punjabi in Pakistan Arabic (sd-IN showed the Arabic-script `sd` in a
        // left-to-right screen, where sd-Deva said the catalog has none).
        let bare = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: ["en", "sr", "zh", "uz", "sd", "pa", "az", "ug", "kk", "hi", "ja"].map { ($0, ["k": $0]) }),
            sourceLanguage: "en")
        // A language of one usual script is written in it (ICU's likely subtags): hi-Latn
        // showed the Devanagari of `hi`, unsaid.
        for (locale, language) in [("hi-Latn", "en"), ("hi-Deva", "hi"), ("hi-IN", "hi"), ("ja-Jpan", "ja"), ("en-Latn-US", "en")] {
            #expect(bare.strings(locale: locale)["k"] == language, "\(locale)")
        }
        #expect(bare.otherScript(of: "hi-Latn") == "'hi' is written in Devanagari letters, 'hi-Latn' in Latin letters")
        #expect(bare.otherScript(of: "ja-Latn") == "'ja' is written in Japanese kana and kanji, 'ja-Latn' in Latin letters")
        // The locale's own likely script too (`--locale hi` took `hi-Latn`, yue-CN Traditional
        // `yue`); a script's variant is the script (cu-Cyrs took no `cu`); a private-use or
        // grandfathered tag is a language of its own, no form of "x" or "i".
        let scripted = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: ["en", "hi-Latn", "yue", "cu", "x-pseudo", "i-klingon"].map { ($0, ["k": $0]) }),
            sourceLanguage: "en")
        for (locale, language) in [
            ("hi", "en"), ("hi-Latn", "hi-Latn"), ("yue-Hans", "en"), ("yue-CN", "en"), ("yue-HK", "yue"), ("cu-Cyrs", "cu"),
            ("x-klingon", "en"), ("i-navajo", "en"), ("x-pseudo", "x-pseudo"),
        ] {
            #expect(scripted.strings(locale: locale)["k"] == language, "\(locale)")
        }
        for (locale, language) in [
            ("sr-Latn", "en"), ("sr-Latn-RS", "en"), ("sr-Cyrl", "sr"), ("sr-RS", "sr"), ("zh-TW", "en"),
            ("zh-Hant-TW", "en"), ("zh-CN", "zh"), ("zh-Hans", "zh"), ("uz-Cyrl", "en"), ("uz", "uz"),
            ("sd-IN", "en"), ("sd-Deva", "en"), ("sd-PK", "sd"), ("sd-Arab-IN", "sd"), ("pa-PK", "en"), ("pa-IN", "pa"),
            ("uz-AF", "en"), ("az-IR", "en"), ("az-AZ", "az"), ("ug-KZ", "en"), ("ug-CN", "ug"), ("sr-ME", "en"),
            ("uz-CN", "en"), ("kk-AF", "en"), ("kk", "kk"), ("kk-KZ", "kk"),
        ] {
            #expect(bare.strings(locale: locale)["k"] == language, "\(locale)")
        }
        let regional = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: ["en", "sd", "sd-Deva", "pa-Arab", "sr", "sr-Latn", "man"].map { ($0, ["k": $0]) }),
            sourceLanguage: "en")
        for (locale, language) in [
            ("sd-IN", "sd-Deva"), ("sd", "sd"), ("pa-PK", "pa-Arab"), ("pa", "en"), ("sr-ME", "sr-Latn"), ("sr-RS", "sr"),
            ("man-GN", "man"),
        ] {
            #expect(regional.strings(locale: locale)["k"] == language, "\(locale)")
        }
        // The warning for such a locale says why the language's strings are not its own.
        #expect(bare.otherScript(of: "uz-AF") == "'uz' is written in Latin letters, 'uz-AF' in Arabic letters")
        #expect(bare.otherScript(of: "sd-IN") == "'sd' is written in Arabic letters, 'sd-IN' in Devanagari letters")
        #expect(bare.otherScript(of: "zh-TW") == "'zh' is written in Simplified Chinese characters, 'zh-TW' in Traditional Chinese characters")
        #expect(bare.otherScript(of: "uz") == nil && bare.otherScript(of: "sd-PK") == nil && regional.otherScript(of: "fr-CA") == nil)
        // Of many forms of a language the catalog has no strings of, one stands in: an app shows
        // one localization (the chain was searched for each: 40,000 forms took 5 s a document);
        // a form that has strings takes none of the others.
        let forms = (0..<3000).map { String(format: "en-x%05d", $0) }
        let many = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: (["ar"] + forms).map { ($0, ["k": $0]) }), sourceLanguage: "ar")
        #expect(many.ownLanguages("en") == ["en", forms[0]])
        #expect(many.ownLanguages("en-x00007") == ["en-x00007", "en"])
        // The locale spelt with its script takes the catalog's form spelt without it first.
        let hongKong = StringCatalog(
            tables: Dictionary(uniqueKeysWithValues: ["en", "zh-Hant", "zh-HK"].map { ($0, ["k": $0]) }), sourceLanguage: "en")
        for (locale, language) in [("zh-Hant-HK", "zh-HK"), ("zh-HK", "zh-HK"), ("zh-Hant-TW", "zh-Hant"), ("zh-TW", "zh-Hant")] {
            #expect(hongKong.strings(locale: locale)["k"] == language, "\(locale)")
        }
    }

    /// A property list (a built app's `.strings`) is named as such, not "not UTF-8".
    @Test func propertyListsAreNamed() {
        for (bytes, file) in [
            (Array("bplist00".utf8) + [0xD2, 0x01, 0x02], "Localizable.strings"),
            (Array("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>".utf8), "Localizable.strings"),
            (Array("<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"></xliff>".utf8), "fr.xliff"),
            // A binary .stringsdict is said to be one (its XML source is read: `stringsDictShowsOtherForms`).
            (Array("bplist00".utf8) + [0xD2, 0x01, 0x02], "Localizable.stringsdict"),
        ] {
            do {
                _ = try StringCatalog.parse(bytes: bytes, file: file)
                Issue.record("\(file) was read")
            } catch {
                let kind =
                    file.hasSuffix(".xliff") ? "an XLIFF file"
                    : file.hasSuffix(".stringsdict") ? "" : "a property list"
                #expect(
                    kind.isEmpty ? error.message.hasPrefix("the .stringsdict is a binary property list")
                        : error.message.hasPrefix("the string catalog is \(kind)"), "\(error)")
                #expect(error.location == SourceLocation(file: file, line: 1, column: 1))
            }
        }
    }

    /// A `.stringsdict`'s device rule shows the document's device's form, else `other`; its
    /// width rule the widest form, said. (Both were errors, "has no NSStringLocalizedFormatKey",
    /// and the document failed.)
    @Test func stringsDictDeviceAndWidthRulesAreRead() throws {
        let plist = """
            <plist version="1.0"><dict>
            <key>tap</key><dict><key>NSStringDeviceSpecificRuleType</key><dict>
              <key>iphone</key><string>اضغط</string><key>ipad</key><string>اضغط على iPad</string>
              <key>other</key><string>انقر</string></dict></dict>
            <key>welcome</key><dict><key>NSStringVariableWidthRuleType</key><dict>
              <key>1</key><string>أهلا</string><key>50</key><string>مرحبا بك في تطبيقنا</string><key>20</key><string>مرحبا</string>
            </dict></dict>
            </dict></plist>
            """
        let folder = try L10nCLI.folder([
            "ar.lproj/Localizable.stringsdict": plist,
            "phone.xml": #"<document device="iphone-8"><label key="tap">x</label><label key="welcome">x</label></document>"#,
            "tablet.xml": #"<document device="ipad"><label key="tap">x</label></document>"#,
            "none.xml": #"<document><label key="tap">x</label></document>"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (file, texts) in [("phone.xml", ["اضغط", "مرحبا بك في تطبيقنا"]), ("tablet.xml", ["iPadاضغط على "]), ("none.xml", ["انقر"])] {
            let run = try L10nCLI.typeset(["layout", file, "--strings", "ar.lproj/Localizable.stringsdict", "--locale", "ar"], in: folder)
            let shown = try L10nCLI.blocks(run.stdout).blocks.map(\.text)
            #expect(run.status == 0 && shown == texts, "\(file): \(run)")
            #expect(run.stderr.contains("ar.lproj/Localizable.stringsdict:5:65: warning: key 'welcome' has width variants; a mockup shows the widest, '50'"),
                "\(run.stderr)")
        }
    }

    /// A key in both a table's `.strings` and its `.stringsdict` shows the `.stringsdict`'s
    /// text, as Foundation looks it up, whichever was given first, unsaid (the `.strings`
    /// given first won, with a warning that the `.stringsdict` had other text); another
    /// table's `.strings` still comes first, as given.
    @Test func stringsDictComesBeforeItsStrings() throws {
        let plist = """
            <plist version="1.0"><dict><key>files</key><dict>
              <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
              <key>n</key><dict><key>one</key><string>ملف واحد</string><key>other</key><string>ملفات</string></dict>
            </dict></dict></plist>
            """
        let folder = try L10nCLI.folder([
            "ar.lproj/Localizable.strings": "\"files\" = \"عدة ملفات\";\n\"title\" = \"الملفات\";\n",
            "ar.lproj/Localizable.stringsdict": plist,
            "ar.lproj/Other.strings": "\"files\" = \"ملفات أخرى\";\n",
            "doc.xml": #"<document><title key="title">x</title><label key="files">x</label></document>"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for order in [["Localizable.strings", "Localizable.stringsdict"], ["Localizable.stringsdict", "Localizable.strings"]] {
            let run = try L10nCLI.typeset(["layout", "doc.xml", "--locale", "ar"] + order.flatMap { ["--strings", "ar.lproj/" + $0] }, in: folder)
            #expect(try L10nCLI.blocks(run.stdout).blocks.map(\.text) == ["الملفات", "ملفات"], "\(order): \(run)")
            #expect(!run.stderr.contains("has other text"), "\(order): \(run.stderr)")
        }
        let other = try L10nCLI.typeset(
            ["layout", "doc.xml", "--locale", "ar", "--strings", "ar.lproj/Other.strings", "--strings", "ar.lproj/Localizable.stringsdict"], in: folder)
        #expect(try L10nCLI.blocks(other.stdout).blocks.map(\.text) == ["x", "ملفات أخرى"], "\(other)")
        #expect(other.stderr.contains("ar.lproj/Localizable.stringsdict:1:44: warning: the key 'files' (ar) has other text in ar.lproj/Other.strings"), "\(other.stderr)")
    }

    /// A `.stringsdict` (an app's plural rules beside its .strings) is read: each key's format
    /// with its `%#@NAME@` variables replaced by their `other` forms, nested ones too, its
    /// specifiers kept; Apple's DOCTYPE is passed over, locations kept. A broken entry fails the
    /// key, not the file. (It was refused, failing the whole render.)
    @Test func stringsDictShowsOtherForms() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>files</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@ في %1$#@folders@ (100%%)</string>
                <key>files</key>
                <dict>
                  <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                  <key>NSStringFormatValueTypeKey</key><string>lld</string>
                  <key>one</key><string>ملف واحد</string>
                  <key>other</key><string>%lld ملف</string>
                </dict>
                <key>folders</key>
                <dict>
                  <key>one</key><string>مجلد</string>
                  <key>other</key><string>%#@count@ مجلدات</string>
                </dict>
                <key>count</key>
                <dict><key>other</key><string>%d</string></dict>
              </dict>
              <key>broken</key>
              <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
                <key>n</key>
                <dict><key>one</key><string>واحد</string></dict>
              </dict>
            </dict>
            </plist>
            """
        let catalog = try StringCatalog.parse(bytes: Array(plist.utf8), file: "ar.lproj/Localizable.stringsdict")
        #expect(catalog.tables[""]?["files"] == "%lld ملف في %d مجلدات (100%%)")
        let problem = try #require(catalog.problems[""]?["broken"])
        #expect(problem.description == "ar.lproj/Localizable.stringsdict:27:5: error: the variable 'n' of key 'broken' has no 'other' form")
        // Variables that hold each other's placeholders many times are each expanded once, up to
        // the catalog's limit (8 GB of text, and as much time, before).
        func variable(_ name: String, _ other: String) -> String {
            "<key>\(name)</key><dict><key>other</key><string>\(other)</string></dict>"
        }
        let nested = "<plist><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@a@</string>"
            + variable("a", String(repeating: "%#@b@", count: 2000)) + variable("b", String(repeating: "%#@c@", count: 2000))
            + variable("c", String(repeating: "x", count: 2000)) + "</dict></dict></plist>"
        let large = try StringCatalog.parse(bytes: Array(nested.utf8), file: "Localizable.stringsdict")
        #expect(large.problems[""]?["k"]?.message.hasSuffix("make a text of more than 4 MiB, the most a document may show") == true)
    }

    @Test func stringsFileKeysGivenTwiceAndUTF16WithoutAMark() throws {
        let twice = try catalog(
            "\"title\" = \"First\";\n\"other\" = \"x\";\n\"title\" = \"Second\";\n\"title\" = \"Third\";\n", file: "dup.strings")
        #expect(twice.tables[""]?["title"] == "Third")
        #expect(twice.warnings.map(\.description) == [
            "dup.strings:3:1: warning: key 'title' is given again (first on line 1); this later text is used",
            "dup.strings:4:1: warning: key 'title' is given again (first on line 1); this later text is used",
        ])
        // A JSON object of key → text says so too (it took the later text silently).
        let json = try catalog("{\"title\": \"First\",\n \"title\": \"Second\"}", file: "dup.json")
        #expect(json.tables[""]?["title"] == "Second")
        #expect(json.warnings.map(\.description) == [
            "dup.json:2:11: warning: key 'title' is given again (first on line 1); this later text is used"
        ])
        // And an .xcstrings catalog: the later entry, whole (its languages only).
        let entries = try catalog(
            #"{"sourceLanguage": "en", "strings": {"t": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "A"}}, "#
                + #""ar": {"stringUnit": {"state": "translated", "value": "ب"}}}},"# + "\n"
                + #""t": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "B"}}}}}}"#,
            file: "dup.xcstrings")
        #expect(entries.tables["en"]?["t"] == "B" && entries.languages == ["en"], "\(entries.tables)")
        #expect(entries.warnings.map(\.description) == [
            "dup.xcstrings:2:6: warning: key 't' is given again (first on line 1); this later entry is used"
        ])
        // Members given twice below an entry, a merge's leftovers: the later is used, and said
        // (the first "value" and the last "ar" were used, unsaid).
        let nested = try catalog(
            #"{"sourceLanguage": "en", "strings": {"t": {"localizations": {"#
                + #""ar": {"stringUnit": {"state": "translated", "value": "قديم",\#n"value": "جديد"}},\#n"#
                + #""he": {"stringUnit": {"state": "translated", "value": "ישן"}},\#n"#
                + #""he": {"stringUnit": {"state": "translated", "value": "חדש"}}}}}}"#,
            file: "merged.xcstrings")
        #expect(nested.tables["ar"]?["t"] == "جديد" && nested.tables["he"]?["t"] == "חדש", "\(nested.tables)")
        #expect(nested.warnings.map(\.description) == [
            "merged.xcstrings:2:10: warning: \"value\" is given again (first on line 1); this later one is used",
            "merged.xcstrings:4:7: warning: \"he\" is given again (first on line 3); this later one is used",
        ])
        // The later one whole: a first "ar" that is broken, or of device variations, is not read.
        let later = try catalog(
            #"{"sourceLanguage": "en", "strings": {"t": {"localizations": {"ar": {"stringUnit": {"state": "translated"}},\#n"#
                + #""ar": {"stringUnit": {"state": "translated", "value": "جديد"}}}}}}"#,
            file: "later.xcstrings")
        #expect(later.tables["ar"]?["t"] == "جديد" && later.problems.isEmpty, "\(later.tables) \(later.problems)")
        // A variation kind given twice: the later, where the first stood (the kind after it was read).
        let kinds = try catalog(
            #"{"sourceLanguage": "en", "strings": {"t": {"localizations": {"en": {"variations": {"#
                + #""plural": {"other": {"stringUnit": {"state": "translated", "value": "first"}}}, "#
                + #""device": {"other": {"stringUnit": {"state": "translated", "value": "device"}}}, "#
                + #""plural": {"other": {"stringUnit": {"state": "translated", "value": "later"}}}}}}}}}"#,
            file: "kinds.xcstrings")
        #expect(kinds.tables["en"]?["t"] == "later", "\(kinds.tables)")
        // The catalog's own members too ("sourceLanguage" given twice changed it unsaid).
        let root = try catalog(
            #"{"sourceLanguage": "en",\#n"sourceLanguage": "ar", "strings": {}}"#, file: "root.xcstrings")
        #expect(root.sourceLanguage == "ar")
        #expect(root.warnings.map(\.description) == [
            "root.xcstrings:2:19: warning: \"sourceLanguage\" is given again (first on line 1); this later one is used"
        ])
        // Fields Xcode refuses, of the wrong type, are said too ("false" in quotes was read as true).
        let typed = try catalog(
            #"{"sourceLanguage": "en", "strings": {"t": {"comment": 7, "shouldTranslate": "false", "localizations": {"#
                + #""ar": {"stringUnit": {"state": 5, "value": "ب"}}, "#
                + #""he": {"variations": {"plural": {"other": {"stringUnit": {"state": true, "value": "ש"}}}}}}}}}"#,
            file: "typed.xcstrings")
        #expect(typed.warnings.map(\.message) == [
            "\"comment\" of key 't' must be a string, not a number; it is passed over (Xcode refuses the catalog)",
            "\"shouldTranslate\" of key 't' must be true or false, not a string; it is passed over (Xcode refuses the catalog)",
            "\"state\" of key 't' must be a string, not a number; it is passed over (Xcode refuses the catalog)",
            "\"state\" of key 't' must be a string, not a boolean; it is passed over (Xcode refuses the catalog)",
        ])
        let text = "\"k\" = \"\u{5E9}\u{5DC}\u{5D5}\u{5DD}\";\n"
        let little = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            #expect(try StringCatalog.parse(bytes: bytes, file: "he.strings").tables == ["": ["k": "שלום"]])
        }
    }

    @Test func deepNestingIsRefusedNotACrash() throws {
        let text = String(repeating: "[", count: 100_000)
        let error = try #require(catalogError(text, file: "deep.json"))
        #expect(error.message.contains("nested deeper"))
    }
}

// MARK: - End to end

private let markup = """
    <document width="390">
      <title key="title">Own title</title>
      <p key="photos">Own photos</p>
      <label key="nowhere">Own label</label>
      <caption>Plain caption <span size="10">small</span></caption>
    </document>
    """

@Suite struct LocalizationCommandTests {
    @Test func localeTakesStringsAndSetsTheDocumentLanguage() throws {
        let folder = try L10nCLI.folder(["doc.xml": markup, "Localizable.xcstrings": xcstrings])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(
            ["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "ar-EG"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let (blocks, diagnostics) = try L10nCLI.blocks(run.stdout)
        // The specifier is isolated, where the app's number goes: at the right, the start of
        // the Arabic line (it was a left-to-right line, its first strong letters `lld`).
        #expect(blocks.map(\.text) == ["الضبط", "صورة %lld", "Own label", "Plain caption small"])
        // The label's own text, shown for the key the catalog lacks, is in the catalog's source
        // language (`anElementsOwnTextIsInTheSourceLanguage`).
        #expect(blocks.map(\.lang) == ["ar-EG", "ar-EG", "en", "ar-EG"] && blocks.allSatisfy { $0.context == "rtl" })
        #expect(blocks[0].direction == "rtl")
        // The missing key: a warning with its location, on standard error and in the JSON.
        #expect(run.stderr.contains("doc.xml:4:3: warning: no string for key 'nowhere' in the catalog"))
        #expect(diagnostics.count == 2)
        #expect(diagnostics.last?["line"] as? Int == 4 && diagnostics.last?["column"] as? Int == 3)
        // The plural's format specifier has no value in a mockup: shown, and said so.
        #expect(run.stderr.contains(
            "doc.xml:3:3: warning: the string of key 'photos' has format specifiers that a mockup has no values for (%lld); they are shown as they are"))

        // A locale the catalog lacks: the source language.
        let french = try L10nCLI.typeset(
            ["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "fr"], in: folder)
        #expect(try L10nCLI.blocks(french.stdout).blocks.map(\.text).prefix(2) == ["Settings", "%lld photos"])
        // Text in English, said so (it was tagged French).
        #expect(try L10nCLI.blocks(french.stdout).blocks.first?.lang == "en")
        // ... and a warning, once, at the catalog (a misspelt locale looks just like this).
        #expect(
            french.stderr.components(separatedBy: "Localizable.xcstrings:1:1: warning: no strings for locale 'fr' "
                + "(the catalog has ").count == 2, "\(french.stderr)")
        #expect(!run.stderr.contains("no strings for locale"))
    }

    /// A format string's "%%" shows as the "%" the app shows; its specifiers stay, with a
    /// warning (they were silent). A string without specifiers is no format string: as it is.
    @Test func formatSpecifiersAreWarnedAbout() throws {
        let doc = #"<document><label key="sale">x</label><label key="plain">y</label><label key="positional">z</label></document>"#
        let catalog = #"{"sale": "Save %lld%% today", "plain": "100%% sure", "positional": "%2$@ and %1$.2f"}"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "s.json": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try L10nCLI.blocks(run.stdout).blocks.map(\.text) == ["Save %lld% today", "100%% sure", "%2$@ and %1$.2f"])
        let warnings = run.stderr.split(separator: "\n")
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasSuffix("no values for (%lld); they are shown as they are") == true)
        #expect(warnings.last?.contains("(%2$@, %1$.2f)") == true)
    }

    /// A '%' that begins no specifier, in a string that has one, is read by the app's
    /// `String(format:)` with what follows: warned about. Not in a string with none.
    @Test func strayPercentsInFormatStringsAreWarnedAbout() throws {
        #expect(FormatSpecifiers.strayPercents(in: "100% of %@") == ["% of"])
        #expect(FormatSpecifiers.strayPercents(in: "%lld%% and %@") == [])
        #expect(FormatSpecifiers.strayPercents(in: "% %% %d %") == ["% %%", "%"])
        let doc = #"<document><label key="stray">x</label><label key="plain">y</label></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "s.json": #"{"stray": "100% of %@", "plain": "50% off"}"#])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n")
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.last == "doc.xml:1:11: warning: the string of key 'stray' is a format string with a '%' that begins no specifier (the first in '% of'): the app's String(format:) reads it with what follows; write '%%' for a percent sign", "\(warnings)")
    }

    /// A specifier is set as the app's value would be: whole, on one line (UAX #14 allows a
    /// break between "." and a digit: "%.2f" ended a line in "%."), and with its own digits
    /// (`%1$@` showed "٪١$@" under Arabic numerals), while the numbers around it still take them.
    @Test func formatSpecifiersStayWholeAndKeepTheirDigits() throws {
        let doc = #"<document width="70" margin="0" numerals="auto"><label key="price">x</label><label key="send">y</label></document>"#
        let catalog = #"{"price": "Price %.2f", "send": "أرسل %1$@ إلى 3 %2$@"}"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "s.json": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json", "--locale", "ar"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let page = try #require((object["pages"] as? [[String: Any]])?.first)
        let blocks = try #require(page["blocks"] as? [[String: Any]])
        let lines = blocks.map { block in
            (block["lines"] as? [[String: Any]] ?? []).map { line in
                (line["runs"] as? [[String: Any]] ?? []).map { $0["text"] as? String ?? "" }.joined()
            }
        }
        try #require(lines.count == 2)
        #expect(lines[0] == ["Price", "%.2f"])
        let send = lines[1].joined()
        #expect(send.contains("%1$@") && send.contains("%2$@"), "\(lines[1])")
        #expect(send.contains("٣") && !send.contains("١") && !send.contains("٢") && !send.contains("٪"), "\(lines[1])")
    }

    @Test func specifiersArePiecesOfTheirOwnHeldTogether() {
        #expect(FormatSpecifiers.pieces("Price %.2f") == [
            FormatSpecifiers.Shown(text: "Price ", isSpecifier: false),
            FormatSpecifiers.Shown(text: "\u{2066}%.2f\u{2069}", isSpecifier: true),
        ])
        #expect(FormatSpecifiers.pieces("100%% sure") == [FormatSpecifiers.Shown(text: "100% sure", isSpecifier: false)])
        #expect(FormatSpecifiers.pieces("") == [FormatSpecifiers.Shown(text: "", isSpecifier: false)])
        #expect(FormatSpecifiers.held("\u{2066}%.2f\u{2069}") == "\u{2066}%\u{2060}.\u{2060}2\u{2060}f\u{2069}")
    }

    /// Numbers joined by one separator are one number once the app fills them in ("5:02", "3/4",
    /// "2.1": UAX #9 W4 keeps them left to right in Arabic and Hebrew): one isolate. Each in its
    /// own, a right-to-left line showed the minutes before the hours.
    @Test func numbersJoinedByASeparatorAreOneIsolate() throws {
        let specifier = { (text: String) in FormatSpecifiers.Shown(text: text, isSpecifier: true) }
        let plain = { (text: String) in FormatSpecifiers.Shown(text: text, isSpecifier: false) }
        #expect(FormatSpecifiers.pieces("الساعة %1$lld:%2$02lld") == [plain("الساعة "), specifier("\u{2066}%1$lld:%2$02lld\u{2069}")])
        #expect(FormatSpecifiers.pieces("%lld/%lld/%lld") == [specifier("\u{2066}%lld/%lld/%lld\u{2069}")])
        #expect(FormatSpecifiers.pieces("%d-%.1f") == [specifier("\u{2066}%d-%.1f\u{2069}")])
        // Not a name, not across a space or two separators, not a percentage.
        #expect(FormatSpecifiers.pieces("%@:%lld").count == 3)
        #expect(FormatSpecifiers.pieces("%lld : %lld").count == 3)
        #expect(FormatSpecifiers.pieces("%lld:-%lld").count == 3)
        // Its signs and the digits joined to it (W5, W4), but after an Arabic letter, where
        // digits are Arabic numbers (W2), only a separator of numbers joins: "5-3" there reads
        // right to left.
        #expect(FormatSpecifiers.pieces("%lld%% הושלם") == [specifier("\u{2066}%lld%\u{2069}"), plain(" הושלם")])
        #expect(FormatSpecifiers.pieces("שעה 5:%lld") == [plain("שעה "), specifier("\u{2066}5:%lld\u{2069}")])
        #expect(FormatSpecifiers.pieces("%lld:30 ו-$%.2f") == [
            specifier("\u{2066}%lld:30\u{2069}"), plain(" ו-"), specifier("\u{2066}$%.2f\u{2069}"),
        ])
        #expect(FormatSpecifiers.pieces("القيمة %lld-%lld%%") == [
            plain("القيمة "), specifier("\u{2066}%lld\u{2069}"), plain("-"), specifier("\u{2066}%lld\u{2069}"), plain("%"),
        ])
        #expect(FormatSpecifiers.pieces("القيمة %lld,%lld") == [plain("القيمة "), specifier("\u{2066}%lld,%lld\u{2069}")])
        #expect(FormatSpecifiers.pieces("%lld%%%lld") == [specifier("\u{2066}%lld%%lld\u{2069}")])
        #expect(FormatSpecifiers.pieces("%@ %lld%% %@") == [
            specifier("\u{2066}%@\u{2069}"), plain(" "), specifier("\u{2066}%lld%\u{2069}"), plain(" "), specifier("\u{2066}%@\u{2069}"),
        ])

        // Laid out in Arabic: the hours stay left of the minutes.
        let doc = #"<document width="300" margin="0" lang="ar"><label key="time">x</label></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "s.json": #"{"time": "الساعة %1$lld:%2$02lld"}"#])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let page = try #require((object["pages"] as? [[String: Any]])?.first)
        let block = try #require((page["blocks"] as? [[String: Any]])?.first)
        let lines = try #require(block["lines"] as? [[String: Any]])
        try #require(lines.count == 1)
        let runs = (lines[0]["runs"] as? [[String: Any]] ?? []).sorted { ($0["x"] as? Double ?? 0) < ($1["x"] as? Double ?? 0) }
        let leftToRight = runs.filter { $0["direction"] as? String == "ltr" }.map { $0["text"] as? String ?? "" }
        #expect(leftToRight.joined() == "%1$lld:%2$02lld", "\(runs)")
        #expect(runs.last?["text"] as? String == "الساعة ", "\(runs)")
    }

    @Test func percentagesAreNoFormatSpecifiers() {
        #expect(FormatSpecifiers.find(in: "50% off") == [])
        #expect(FormatSpecifiers.find(in: "Économisez 50 % de plus") == [])
        #expect(FormatSpecifiers.find(in: "100%") == [] && FormatSpecifiers.find(in: "%") == [])
        #expect(FormatSpecifiers.find(in: "%%%@") == ["%@"])
        #expect(FormatSpecifiers.find(in: "%.2f%%") == ["%.2f"])
        #expect(FormatSpecifiers.find(in: "%1$lld of %2$@, %-5s") == ["%1$lld", "%2$@", "%-5s"])
    }

    /// A key the locale has no string for shows the source language's, and says so: that is
    /// what testing a localization is looking for (it was silent).
    @Test func untranslatedKeysAreWarnedAbout() throws {
        let doc = """
            <document>
              <title key="title">Own title</title>
              <label key="hebrew only">Own label</label>
              <p key="added, not translated">Own text</p>
            </document>
            """
        let folder = try L10nCLI.folder(["doc.xml": doc, "Localizable.xcstrings": xcstrings])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func run(_ locale: String) throws -> (texts: [String], stderr: String) {
            let run = try L10nCLI.typeset(
                ["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", locale], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            return (try L10nCLI.blocks(run.stdout).blocks.map(\.text), run.stderr)
        }
        let arabic = try run("ar-EG")
        #expect(arabic.texts == ["الضبط", "Hello", "Sync"])
        #expect(arabic.stderr.split(separator: "\n") == [
            "doc.xml:3:3: warning: key 'hebrew only' is not translated to 'ar-EG' in the catalog; its 'en' text is shown",
            "doc.xml:4:3: warning: key 'added, not translated' is not translated to 'ar-EG' in the catalog; its 'en' text is shown",
        ])
        let hebrew = try run("he")
        #expect(hebrew.texts == ["Settings", "שלום", ""])
        #expect(hebrew.stderr.split(separator: "\n") == [
            "doc.xml:2:3: warning: key 'title' is not translated to 'he' in the catalog; its 'en' text is shown",
            "doc.xml:4:3: warning: the 'he' text of key 'added, not translated' in the catalog is empty; nothing is shown",
        ])
        // The English shown is marked as English, for screen readers (it was marked Hebrew).
        let svg = try L10nCLI.typeset(
            ["render", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "he", "-o", "he.svg"], in: folder)
        #expect(svg.status == 0, "\(svg.stderr)")
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/he.svg")), as: UTF8.self)
        #expect(page.contains(#"xml:lang="en">Settings</tspan>"#) && page.contains(#"xml:lang="he">שלום</tspan>"#))
        // A document pinned to English shows the Hebrew strings as Hebrew; the catalog's own
        // spelling of the document's language (`ar-eg` for `ar-EG`) changes nothing.
        try #"<document lang="en"><label key="hebrew only">L</label></document>"#
            .write(toFile: folder + "/pinned.xml", atomically: true, encoding: .utf8)
        // Nor does an old code of the language (`iw`, the catalog's `he`), which is written as
        // the current one.
        for (input, locale, expected) in [
            ("pinned.xml", "he", #"xml:lang="he">שלום</tspan>"#), ("doc.xml", "ar-EG", "الضبط</tspan>"),
            ("doc.xml", "iw", #"xml:lang="he">שלום</tspan>"#),
        ] {
            let run = try L10nCLI.typeset(
                ["render", input, "--strings", "Localizable.xcstrings", "--locale", locale, "-o", "out.svg"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let svg = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/out.svg")), as: UTF8.self)
            #expect(svg.contains(expected) && !svg.contains(#"xml:lang="ar-eg""#), "\(locale): \(svg.suffix(600))")
        }
        // The source language is translated by definition; a locale the catalog has nothing
        // for is warned about once, at the catalog, not key by key.
        #expect(try run("en").stderr.isEmpty)
        #expect(try run("fr").stderr.split(separator: "\n").count == 1)

        // Without --locale, a document in a language the catalog lacks: once, at the document.
        try #"<document lang="fr"><title key="title">T</title><label key="hebrew only">L</label></document>"#
            .write(toFile: folder + "/fr.xml", atomically: true, encoding: .utf8)
        let french = try L10nCLI.typeset(["layout", "fr.xml", "--strings", "Localizable.xcstrings"], in: folder)
        #expect(french.stderr.split(separator: "\n") == [
            "fr.xml:1:1: warning: the catalog has no strings for the document's language 'fr' (it has ar, ar-EG, en, he); keys show the source language's text"
        ])

        // A key marked not to be translated (a brand name) is no one's omission.
        let brand = #"{"sourceLanguage": "en", "strings": {"brand": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "iCloud+"}}}}}}"#
        try brand.write(toFile: folder + "/brand.xcstrings", atomically: true, encoding: .utf8)
        try #"<document><label key="brand">x</label></document>"#.write(toFile: folder + "/brand.xml", atomically: true, encoding: .utf8)
        let branded = try L10nCLI.typeset(["layout", "brand.xml", "--strings", "brand.xcstrings", "--locale", "en"], in: folder)
        #expect(branded.stderr.isEmpty, "\(branded.stderr)")
        let catalog = try StringCatalog.load(path: folder + "/brand.xcstrings")
        let inArabic = catalog.strings(locale: "ar")
        #expect(inArabic.lookUp("brand")?.text == "iCloud+" && inArabic.lookUp("brand")?.fallback == nil)
    }

    /// A key with no text in the catalog, not even in its source language (Xcode writes one
    /// when a key is added by hand): the element's own text is the fallback (SPEC 5.2), and
    /// the key only when the element has none (it showed "settings.title", and said "its 'en'
    /// text is shown" of text the catalog does not have).
    @Test func aKeyWithoutTextShowsTheElementsOwnText() throws {
        let catalog = #"{"sourceLanguage": "en", "strings": {"settings.title": {}, "Back Up": {}, "#
            + #""other": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "آخر"}}}}}}"#
        let doc = #"<document><title key="settings.title">Settings</title><label key="Back Up"/></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "c.xcstrings": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let english = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "en"], in: folder)
        #expect(try L10nCLI.blocks(english.stdout).blocks.map(\.text) == ["Settings", "Back Up"])
        #expect(english.status == 0 && english.stderr.isEmpty, "\(english.stderr)")
        let arabic = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(arabic.stdout).blocks.map(\.text) == ["Settings", "Back Up"])
        let warnings = arabic.stderr.split(separator: "\n")
        #expect(warnings.contains(
            "doc.xml:1:11: warning: key 'settings.title' is not translated to 'ar' in the catalog; it has no 'en' text either; the element's own text is used"),
            "\(warnings)")
        #expect(warnings.contains {
            $0.hasSuffix("key 'Back Up' is not translated to 'ar' in the catalog; it has no 'en' text either; its key, the source text, is shown")
        }, "\(warnings)")
        // An identifier shown as it is, in the source language too: an English screen's title
        // read "welcome.title", unsaid (its `en` form added by Xcode, not written yet).
        let untitled = #"<document><title key="settings.title"/><label key="Back Up"/></document>"#
        try untitled.write(toFile: folder + "/untitled.xml", atomically: true, encoding: .utf8)
        let shown = try L10nCLI.typeset(["layout", "untitled.xml", "--strings", "c.xcstrings", "--locale", "en"], in: folder)
        #expect(try L10nCLI.blocks(shown.stdout).blocks.map(\.text) == ["settings.title", "Back Up"])
        #expect(shown.stderr.split(separator: "\n") == [
            "untitled.xml:1:11: warning: key 'settings.title' has no text in the catalog, not even in its source language 'en'; the key is shown"
        ], "\(shown.stderr)")
    }

    /// A key that is text, not an identifier, is the source text of an entry without one, as
    /// Xcode reads a string it extracted from code (`Text("إلغاء")` is written with
    /// translations only): an Arabic screen showed the element's English "Cancel", tagged
    /// Arabic and set left to right, and `key="Cancel"` showed the element's "Dismiss".
    @Test func aKeyThatIsTextIsItsEntrysSourceText() throws {
        let catalog = #"{"sourceLanguage": "ar", "strings": {"إلغاء": {"localizations": {"en": {"stringUnit": "#
            + #"{"state": "translated", "value": "Cancel"}}}}, "settings.title": {}}}"#
        let doc = #"<document><button key="إلغاء">Cancel</button><title key="settings.title">الإعدادات</title></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "c.xcstrings": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
        let blocks = try L10nCLI.blocks(arabic.stdout).blocks
        #expect(blocks.map(\.text) == ["إلغاء", "الإعدادات"])
        #expect(blocks.first.map { $0.lang == "ar" && $0.direction == "rtl" } == true, "\(blocks)")
        #expect(arabic.status == 0 && arabic.stderr.isEmpty, "\(arabic.stderr)")
        let english = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "en"], in: folder)
        #expect(try L10nCLI.blocks(english.stdout).blocks.map(\.text) == ["Cancel", "الإعدادات"])
        for key in ["onboarding.step_2.body", "BUTTON_OK", "ok", "settings.title", "settings/title", "settingsTitle", "HomeScreenTitle", "%lld files"] {
            #expect(LocalizedStrings.LookedUp.prefersOwnText(key), "\(key)")
        }
        for key in ["Cancel", "OK", "SAVE", "FAQ", "N/A", "24/7", "Wi-Fi", "Back Up", "إلغاء", "Done."] {
            #expect(!LocalizedStrings.LookedUp.prefersOwnText(key), "\(key)")
        }
    }

    /// A document that pins its `lang` and has no keys is the same in every locale: `--locale`
    /// (and a sheet's `--locales`) says so, once a layout, where it is not the document's
    /// language. (A sheet's columns captioned "en" and "ar" showed the same Hebrew, unsaid.)
    @Test func aLocaleThatChangesNothingIsSaid() throws {
        let folder = try L10nCLI.folder([
            "pinned.xml": #"<document lang="he"><label>שלום</label><p>עולם</p></document>"#,
            "keyed.xml": #"<document lang="he"><label key="hello">שלום</label></document>"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "pinned.xml", "--locale", "ar"], in: folder)
        #expect(arabic.status == 0, "\(arabic)")
        #expect(
            arabic.stderr.components(separatedBy: "pinned.xml:1:1: warning: the document's lang=\"he\" is kept, and no element has a key: locale 'ar' changes nothing in it").count == 2,
            "\(arabic.stderr)")
        #expect(try L10nCLI.typeset(["layout", "pinned.xml", "--locale", "he-IL"], in: folder).stderr.isEmpty)
        #expect(try L10nCLI.typeset(["layout", "pinned.xml", "--locale", "iw"], in: folder).stderr.isEmpty)
        #expect(try !L10nCLI.typeset(["layout", "keyed.xml", "--locale", "ar"], in: folder).stderr.contains("changes nothing"))
        let sheet = try L10nCLI.typeset(["sheet", "pinned.xml", "--locales", "en,he", "-o", "s.pdf"], in: folder)
        #expect(sheet.status == 0 && sheet.stderr.components(separatedBy: "changes nothing").count == 2, "\(sheet.stderr)")
        #expect(sheet.stderr.contains("locale 'en' changes nothing in it; in en Large"), "\(sheet.stderr)")
        // And the sheet itself: the cell's caption names the language it is shown in.
        let captions = try runProgram("/usr/bin/pdftotext", [folder + "/s.pdf", "-"], in: folder).stdout
        #expect(captions.contains("en (shown in he) · Large") && captions.contains("he · Large"), "\(captions)")
        // With keys, the column's strings are shown in the pinned language's interface: said as
        // such (the Arabic strings of a `lang="he"` screen were captioned "ar (shown in he)").
        try #"{"hello": "مرحبا"}"#.write(toFile: folder + "/ar.json", atomically: true, encoding: .utf8)
        let keyed = try L10nCLI.typeset(["sheet", "keyed.xml", "--strings", "ar.json", "--locales", "ar", "-o", "k.pdf"], in: folder)
        let keyedCaptions = try runProgram("/usr/bin/pdftotext", [folder + "/k.pdf", "-"], in: folder).stdout
        #expect(keyedCaptions.contains("ar (lang=he kept) · Large") && keyedCaptions.contains("مرحبا"), "\(keyed) \(keyedCaptions)")
        // A locale of the document's language in another script is another locale (an `sr-Cyrl`
        // screen was captioned `sr-Latn`, unsaid).
        try #"<document lang="sr-Cyrl"><label>Здраво</label></document>"#.write(toFile: folder + "/sr.xml", atomically: true, encoding: .utf8)
        let serbian = try L10nCLI.typeset(["sheet", "sr.xml", "--locales", "sr-Latn,sr-Cyrl", "-o", "sr.pdf"], in: folder)
        #expect(serbian.stderr.contains("locale 'sr-Latn' changes nothing in it") && !serbian.stderr.contains("'sr-Cyrl' changes"), "\(serbian.stderr)")
        // A sheet of screens with keys and no catalog says so once, not once a cell's locale
        // (354 lines for 60 inputs buried the one error).
        try #"<document><p>x</p><label key="b">B</label></document>"#.write(toFile: folder + "/b.xml", atomically: true, encoding: .utf8)
        let unlooked = try L10nCLI.typeset(["sheet", "keyed.xml", "b.xml", "pinned.xml", "--locales", "he,ar,en", "-o", "u.pdf"], in: folder)
        #expect(unlooked.status == 0, "\(unlooked)")
        #expect(unlooked.stderr.components(separatedBy: "looked up").count == 2, "\(unlooked.stderr)")
        #expect(unlooked.stderr.contains("keyed.xml:1:21: warning: keys are not looked up: no string catalog was given; elements show "
            + "their own text, or their key when they have none (so do the keys of 1 other input)"), "\(unlooked.stderr)")
        let serbianCaptions = try runProgram("/usr/bin/pdftotext", [folder + "/sr.pdf", "-"], in: folder).stdout
        #expect(serbianCaptions.contains("sr-Latn (shown in sr-Cyrl) · Large") && serbianCaptions.contains("sr-Cyrl · Large"), "\(serbianCaptions)")
    }

    /// A document that pins a language of the other direction than the locale's, with keys:
    /// the locale's strings are laid out in the pinned language's interface, and that is said
    /// (an English mockup rendered for Arabic was not mirrored, unsaid).
    @Test func aPinnedLanguageOfTheOtherDirectionIsSaid() throws {
        let folder = try L10nCLI.folder([
            "en.xml": #"<document lang="en"><label key="hello">Hello</label></document>"#,
            "ltr.xml": #"<document lang="en" dir="ltr"><label key="hello">Hello</label></document>"#,
            "c.json": #"{"hello": "مرحبا"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "en.xml", "--strings", "c.json", "--locale", "ar"], in: folder)
        #expect(arabic.stderr.contains(
            "en.xml:1:1: warning: the document's lang=\"en\" is kept: locale 'ar''s strings are laid out in its left-to-right interface"),
            "\(arabic.stderr)")
        for (file, locale) in [("en.xml", "fr"), ("ltr.xml", "ar")] {
            let run = try L10nCLI.typeset(["layout", file, "--strings", "c.json", "--locale", locale], in: folder)
            #expect(!run.stderr.contains("is kept"), "\(file) \(locale): \(run.stderr)")
        }
    }

    /// `--locale` without `--strings`, in a document with keys: an Arabic screen of the
    /// elements' own English text, unsaid. Said once.
    @Test func aLocaleWithoutACatalogIsSaidOnce() throws {
        let doc = #"<document><label key="a">One</label><label key="b">Two</label></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--locale", "ar"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr.components(separatedBy: "no string catalog was given for locale 'ar'").count == 2, "\(run.stderr)")
        #expect(try L10nCLI.typeset(["layout", "doc.xml"], in: folder).stderr.isEmpty)
        // Without --locale either, an element with a key and no text of its own shows its key
        // (it was blank, unsaid), as it would were the key missing from a catalog; said once.
        try #"<document><button key="ok.button"/><label key="some.key"/><label key="c">Own</label></document>"#
            .write(toFile: folder + "/keys.xml", atomically: true, encoding: .utf8)
        let keys = try L10nCLI.typeset(["layout", "keys.xml"], in: folder)
        let shown = try L10nCLI.blocks(keys.stdout).blocks.map(\.text)
        #expect(keys.status == 0 && shown == ["ok.button", "some.key", "Own"], "\(keys)")
        #expect(
            keys.stderr == "keys.xml:1:11: warning: key 'ok.button' is not looked up: no string catalog was given; "
                + "elements show their own text, or their key when they have none (give the catalog with --strings FILE)\n",
            "\(keys.stderr)")
        // An image whose alt is its key's, and no catalog: it has none, and that is said (a key
        // read out by a screen reader is no description).
        try "<document><p>x</p></document>".write(toFile: folder + "/tiny.xml", atomically: true, encoding: .utf8)
        #expect(try L10nCLI.typeset(["render", "tiny.xml", "-o", "p.png", "--scale", "0.1"], in: folder).status == 0)
        try #"<document><image src="p.png" width="10" height="10" key="hero.alt"/></document>"#
            .write(toFile: folder + "/img.xml", atomically: true, encoding: .utf8)
        let image = try L10nCLI.typeset(["layout", "img.xml"], in: folder)
        #expect(image.stderr.contains("img.xml:1:11: warning: this <image> has no 'alt'"), "\(image.stderr)")
        #expect(!image.stderr.contains("not looked up"), "\(image.stderr)")
        // Nor from a catalog that lacks the key.
        try #"{"other": "x"}"#.write(toFile: folder + "/strings.json", atomically: true, encoding: .utf8)
        let lacking = try L10nCLI.typeset(["layout", "img.xml", "--strings", "strings.json"], in: folder)
        #expect(lacking.stderr.contains("img.xml:1:11: warning: no string for key 'hero.alt' in the catalog; the image has no alt"), "\(lacking.stderr)")
        #expect(lacking.stderr.contains("img.xml:1:11: warning: this <image> has no 'alt'"), "\(lacking.stderr)")
        #expect(lacking.stderr.contains("or give its key 'hero.alt' a text the catalog shows here"), "\(lacking.stderr)")
        // Nor from a catalog that has the key without text, when it reads as an identifier.
        try #"{"sourceLanguage": "en", "version": "1.0", "strings": {"hero.alt": {}}}"#
            .write(toFile: folder + "/keys.xcstrings", atomically: true, encoding: .utf8)
        let keyOnly = try L10nCLI.typeset(["layout", "img.xml", "--strings", "keys.xcstrings"], in: folder)
        #expect(keyOnly.stderr.contains("img.xml:1:11: warning: this <image> has no 'alt'"), "\(keyOnly.stderr)")
        // A word in small letters may be its text, as Xcode extracts it: it is the alt.
        try #"{"sourceLanguage": "en", "version": "1.0", "strings": {"sunset": {}}}"#
            .write(toFile: folder + "/word.xcstrings", atomically: true, encoding: .utf8)
        try #"<document><image src="p.png" width="10" height="10" key="sunset"/></document>"#
            .write(toFile: folder + "/word.xml", atomically: true, encoding: .utf8)
        let word = try L10nCLI.typeset(["layout", "word.xml", "--strings", "word.xcstrings"], in: folder)
        #expect(!word.stderr.contains("has no 'alt'"), "\(word.stderr)")
        // Not a letter or two ("x", "ok"): those read as identifiers.
        try #"{"sourceLanguage": "en", "version": "1.0", "strings": {"x": {}}}"#
            .write(toFile: folder + "/short.xcstrings", atomically: true, encoding: .utf8)
        try #"<document><image src="p.png" width="10" height="10" key="x"/></document>"#
            .write(toFile: folder + "/short.xml", atomically: true, encoding: .utf8)
        let short = try L10nCLI.typeset(["layout", "short.xml", "--strings", "short.xcstrings"], in: folder)
        #expect(short.stderr.contains("has no 'alt'"), "\(short.stderr)")
        // A button showing its key balances its Arabic sibling (SPEC 4.3) as a key the catalog
        // lacks does: it is all-caps Latin.
        try #"<document lang="ar"><row><button key="SAVE"/><label>حفظ الملف</label></row></document>"#
            .write(toFile: folder + "/row.xml", atomically: true, encoding: .utf8)
        let row = try L10nCLI.blocks(try L10nCLI.typeset(["layout", "row.xml"], in: folder).stdout).blocks
        #expect(row.map(\.text) == ["SAVE", "حفظ الملف"] && row.last?.sizes.allSatisfy { $0 == 19 } == true, "\(row.map { ($0.text, $0.sizes) })")
        // One without a key is said to once (the markup says it), not twice.
        try #"<document><image src="p.png" width="10" height="10"/></document>"#
            .write(toFile: folder + "/bare.xml", atomically: true, encoding: .utf8)
        let bare = try L10nCLI.typeset(["layout", "bare.xml"], in: folder)
        #expect(bare.stderr.components(separatedBy: "has no 'alt'").count == 2, "\(bare.stderr)")
    }

    /// A row balances its Arabic buttons beside the all-caps Latin a sibling shows (SPEC 4.3), as
    /// that sibling shows it: a key the catalog lacks, shown itself ("OK", where the row saw no
    /// text), and a format string's text ("FAQ %@").
    @Test func aRowBalancesBesideTheTextItsSiblingsShow() throws {
        let catalog = #"{"sourceLanguage": "en", "strings": {"help": {"localizations": {"#
            + #""ar": {"stringUnit": {"state": "translated", "value": "FAQ %@"}}}}}}"#
        let folder = try L10nCLI.folder([
            "missing.xml": #"<document lang="ar"><row><button key="OK"/><button>حفظ</button></row></document>"#,
            "format.xml": #"<document lang="ar"><row><button key="help"/><button>حفظ</button></row></document>"#,
            "c.xcstrings": catalog,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for document in ["missing.xml", "format.xml"] {
            let run = try L10nCLI.typeset(["layout", document, "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
            let blocks = try L10nCLI.blocks(run.stdout).blocks
            #expect(blocks.last?.text == "حفظ", "\(document): \(run.stderr)")
            #expect(blocks.last?.sizes == [19], "\(document): \(blocks.map(\.sizes))")
        }
    }

    /// A catalog's string replaces the element's own text, inline elements and all: said at the
    /// first of them (a designer's link-colored span was dropped without a word); a plain
    /// fallback text is not worth a word.
    @Test func aCatalogStringThatReplacesInlineElementsIsSaid() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": ##"<document><caption key="help">Forgot? <span color="#007AFF">Reset it</span></caption><p key="plain">Plain</p></document>"##,
            "c.json": #"{"help": "Forgot? Reset it", "plain": "Plain"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.json"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "doc.xml:1:39: warning: the catalog's string for key 'help' replaces this element's own text, and with it this <span> and its style (a catalog's string is shown in the element's own style; give the styled part an element of its own)\n", "\(run.stderr)")
    }

    /// An empty translation is shown as the app shows it, blank, with a warning; an empty one
    /// Xcode added untranslated (state "new") is no translation: the source text is shown (and
    /// here the catalog has no Hebrew at all, which it says).
    @Test func anEmptyTranslationIsWarnedAbout() throws {
        let catalog = #"{"sourceLanguage": "en", "strings": {"ok": {"localizations": {"#
            + #""en": {"stringUnit": {"state": "translated", "value": "OK"}}, "#
            + #""ar": {"stringUnit": {"state": "translated", "value": ""}}, "#
            + #""he": {"stringUnit": {"state": "new", "value": ""}}}}}}"#
        let doc = #"<document><button key="ok">OK</button></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "c.xcstrings": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(arabic.stdout).blocks.map(\.text) == [""])
        #expect(arabic.status == 0)
        #expect(arabic.stderr == "doc.xml:1:11: warning: the 'ar' text of key 'ok' in the catalog is empty; nothing is shown\n")
        // Named by the language it is in: ar-SA shows ar's (it said "the 'ar-SA' text", which is none).
        let saudi = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "ar-SA"], in: folder)
        #expect(saudi.stderr == "doc.xml:1:11: warning: the 'ar' text (shown for 'ar-SA') of key 'ok' in the catalog is empty; nothing is shown\n")
        let hebrew = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "he"], in: folder)
        #expect(try L10nCLI.blocks(hebrew.stdout).blocks.map(\.text) == ["OK"])
        #expect(hebrew.stderr == "c.xcstrings:1:1: warning: no strings for locale 'he' (the catalog has ar, en); keys show the source language's text (en), laid out right to left as 'he' is (where a document does not pin its lang)\n")
        // A sheet's cell says so too (captioned "he", it showed English in a mirrored screen).
        let sheet = try L10nCLI.typeset(["sheet", "doc.xml", "--strings", "c.xcstrings", "--locales", "ar,he", "-o", "s.pdf"], in: folder)
        let captions = try runProgram("/usr/bin/pdftotext", [folder + "/s.pdf", "-"], in: folder).stdout
        #expect(captions.contains("he (no strings) · Large") && captions.contains("ar · Large"), "\(sheet) \(captions)")
        // So is one whose plural forms Xcode added all so (it showed blank).
        let plural = #"{"sourceLanguage": "en", "strings": {"ok": {"localizations": {"#
            + #""en": {"stringUnit": {"state": "translated", "value": "OK"}}, "#
            + #""fr": {"stringUnit": {"state": "translated", "value": "D'accord"}}, "#
            + #""he": {"variations": {"plural": {"one": {"stringUnit": {"state": "new", "value": ""}}, "#
            + #""other": {"stringUnit": {"state": "new", "value": ""}}}}}}}}}"#
        try plural.write(toFile: folder + "/p.xcstrings", atomically: true, encoding: .utf8)
        let forms = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "p.xcstrings", "--locale", "he"], in: folder)
        #expect(try L10nCLI.blocks(forms.stdout).blocks.map(\.text) == ["OK"], "\(forms)")
        // A catalog with no text yet, its one translation "new": the locale has no strings, and
        // that is said (it was silent, as for a file of one language).
        let new = #"{"sourceLanguage": "en", "strings": {"ok": {"localizations": {"#
            + #""ar": {"stringUnit": {"state": "new", "value": ""}}}}}}"#
        try new.write(toFile: folder + "/n.xcstrings", atomically: true, encoding: .utf8)
        let untranslated = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "n.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(untranslated.stdout).blocks.map(\.text) == ["OK"], "\(untranslated)")
        #expect(
            untranslated.stderr == "n.xcstrings:1:1: warning: no strings for locale 'ar' (the catalog has no text in any "
                + "language); keys show the source language's text (en), laid out right to left as 'ar' is "
                + "(where a document does not pin its lang)\n", "\(untranslated)")
    }

    /// A translation of which the form shown is not translated yet (state "new", empty), while
    /// others are: a plural's `other`, a substitution's, a device's. It falls back to the source
    /// language, saying so, as a whole untranslated string does (it showed " في البريد الوارد"
    /// without its count, silently, and a blank label said "empty").
    @Test func aFormNotYetTranslatedFallsBackToTheSourceLanguage() throws {
        let new = #"{"stringUnit": {"state": "new", "value": ""}}"#
        func plural(_ one: String, _ other: String) -> String {
            #"{"variations": {"plural": {"one": \#(one), "other": \#(other)}}}"#
        }
        func unit(_ text: String) -> String { #"{"stringUnit": {"state": "translated", "value": "\#(text)"}}"# }
        let catalog = #"{"sourceLanguage": "en", "strings": {"#
            + #""photos": {"localizations": {"en": \#(plural(unit("%lld Photo"), unit("%lld Photos"))), "#
            + #""ar": \#(plural(unit("صورة واحدة"), new))}}, "#
            + #""inbox": {"localizations": {"#
            + #""en": {"stringUnit": {"state": "translated", "value": "%#@n@ in Inbox"}, "substitutions": {"n": {"formatSpecifier": "lld", \#(plural(unit("%arg message"), unit("%arg messages")).dropFirst())}}, "#
            + #""ar": {"stringUnit": {"state": "translated", "value": "%#@n@ في البريد"}, "substitutions": {"n": {"formatSpecifier": "lld", \#(plural(unit("رسالة"), new).dropFirst())}}}}, "#
            + #""tap": {"localizations": {"#
            + #""en": {"variations": {"device": {"iphone": \#(unit("Tap")), "other": \#(unit("Click"))}}}, "#
            + #""ar": {"variations": {"device": {"iphone": \#(new), "other": \#(unit("انقر"))}}}}}, "#
            + #""done": {"localizations": {"en": \#(plural(new, unit("Done"))), "ar": \#(plural(new, unit("تم")))}}, "#
            // A substitution the text does not hold is not shown; a device form's own is.
            + #""unused": {"localizations": {"en": \#(unit("Photos")), "ar": {"stringUnit": {"state": "translated", "value": "الصور"}, "#
            + #""substitutions": {"n": \#(plural(new, new))}}}}, "#
            + #""files": {"localizations": {"en": \#(unit("Files")), "ar": {"variations": {"device": {"#
            + #""iphone": {"stringUnit": {"state": "translated", "value": "%#@n@ ملفات"}, "substitutions": {"n": \#(plural(unit("ملف"), new))}}, "#
            + #""other": \#(unit("ملفات"))}}}}}}}"#
        let body = #"<label key="photos">3 Photos</label><label key="inbox">3 messages</label><label key="tap">Tap</label><label key="done">Done</label>"#
            + #"<label key="unused">x</label><label key="files">x</label>"#
        let folder = try L10nCLI.folder([
            "phone.xml": #"<document device="iphone-8">\#(body)</document>"#,
            "plain.xml": #"<document>\#(body)</document>"#, "c.xcstrings": catalog,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let phone = try L10nCLI.typeset(["layout", "phone.xml", "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(phone.stdout).blocks.map(\.text) == ["%lld Photos", "%lld messages in Inbox", "Tap", "تم", "الصور", "Files"], "\(phone)")
        for (key, column) in [("photos", 29), ("inbox", 65), ("tap", 102)] {
            #expect(phone.stderr.contains("phone.xml:1:\(column): warning: key '\(key)' is not translated to 'ar' in the catalog; its 'en' text is shown"), "\(phone.stderr)")
        }
        #expect(!phone.stderr.contains("empty"), "\(phone.stderr)")
        // Not on an iPhone, the device's form is not the one shown.
        let plain = try L10nCLI.typeset(["layout", "plain.xml", "--strings", "c.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(plain.stdout).blocks.map(\.text) == ["%lld Photos", "%lld messages in Inbox", "انقر", "تم", "الصور", "ملفات"], "\(plain)")
        #expect(!plain.stderr.contains("key 'tap'"), "\(plain.stderr)")
    }

    /// A document for an iPhone or an iPad shows the catalog's variation for its device.
    @Test func aDocumentsDeviceTakesItsVariation() throws {
        let folder = try L10nCLI.folder([
            "phone.xml": #"<document device="iphone-8"><label key="device">x</label></document>"#,
            "tablet.xml": #"<document device="ipad-mini"><label key="device">x</label></document>"#,
            "plain.xml": #"<document><label key="device">x</label></document>"#,
            "Localizable.xcstrings": xcstrings,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (input, expected) in [("phone.xml", "Tap"), ("tablet.xml", "Tap or click"), ("plain.xml", "Click")] {
            let run = try L10nCLI.typeset(["layout", input, "--strings", "Localizable.xcstrings"], in: folder)
            #expect(try L10nCLI.blocks(run.stdout).blocks.map(\.text) == [expected], "\(input)")
        }
    }

    /// A broken entry fails the documents that use its key, at the entry, and no other.
    @Test func aBrokenEntryFailsOnlyTheDocumentsThatUseIt() throws {
        let catalog = """
            {"sourceLanguage": "en", "strings": {
              "hint": {"localizations": {"en": {"variations": {"device": {
                "iphone": {"stringUnit": {"state": "translated", "value": "Tap"}}}}}}},
              "title": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Title"}}}}
            }}
            """
        let folder = try L10nCLI.folder([
            "uses.xml": "<document><label key=\"hint\">x</label>\n<label key=\"hint\">y</label></document>",
            "other.xml": #"<document><title key="title">x</title></document>"#,
            "c.xcstrings": catalog,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["render", "uses.xml", "other.xml", "--strings", "c.xcstrings", "--out-dir", "out"], in: folder)
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors == [
            "c.xcstrings:2:62: error: the device variations of key 'hint' (en) have no \"other\" form, "
                + "which a document shows unless its device has a form of its own (iphone) (key 'hint' is used at uses.xml:1:11)"
        ], "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == ["other.pdf"])
        // Device variations need no `other` form (Apple's have none): an iPhone's document shows
        // its own (every document using the key failed).
        try #"<document device="iphone-8"><label key="hint">x</label></document>"#.write(
            toFile: folder + "/phone.xml", atomically: true, encoding: .utf8)
        let phone = try L10nCLI.typeset(["layout", "phone.xml", "--strings", "c.xcstrings"], in: folder)
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(try L10nCLI.blocks(phone.stdout).blocks.map(\.text) == ["Tap"])
        // A broken form of one device fails that device's documents, with its own error; the
        // others show the `other` form.
        let broken = #"""
            {"sourceLanguage": "en", "strings": {"hint": {"localizations": {"en": {"variations": {"device": {
              "iphone": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "1"}}}}},
              "other": {"stringUnit": {"state": "translated", "value": "Click"}}}}}}}}}
            """#
        try broken.write(toFile: folder + "/b.xcstrings", atomically: true, encoding: .utf8)
        try #"<document device="ipad"><label key="hint">x</label></document>"#.write(
            toFile: folder + "/pad.xml", atomically: true, encoding: .utf8)
        let brokenPhone = try L10nCLI.typeset(["layout", "phone.xml", "--strings", "b.xcstrings"], in: folder)
        #expect(brokenPhone.status == 1 && brokenPhone.stderr.contains("the plural variations of key 'hint' (en) have no \"other\" form"), "\(brokenPhone.stderr)")
        for file in ["pad.xml", "other.xml"] {
            try #"<document><label key="hint">x</label></document>"#.write(toFile: folder + "/other.xml", atomically: true, encoding: .utf8)
            let shown = try L10nCLI.typeset(["layout", file, "--strings", "b.xcstrings"], in: folder)
            let texts = try L10nCLI.blocks(shown.stdout).blocks.map(\.text)
            #expect(shown.status == 0 && texts == ["Click"], "\(file): \(shown.stderr)")
        }
    }

    /// An option that takes one value, given twice, is an error: the second silently won (a
    /// sheet's 'en' column showed the Arabic of a second --strings).
    @Test func anOptionGivenTwiceIsAnError() throws {
        let folder = try L10nCLI.folder(["doc.xml": markup])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--locale", "fr", "--locale=he"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("typeset: error: --locale is given twice ('fr' and 'he'); it takes one value"), "\(run.stderr)")
        // Repeatable options stay repeatable.
        #expect(try L10nCLI.typeset(["layout", "doc.xml", "--assets", ".", "--assets", "."], in: folder).status == 0)
    }

    /// A key the catalog has without text is shown tagged with the catalog's source language
    /// whatever the locale: it was the locale's when the catalog had no strings for it at all
    /// (`he` below), and the source language's otherwise (`ar`). So is a key the catalog lacks
    /// where it reads as the source language, as an element's own text is (Latin "not there"
    /// was tagged Arabic and Hebrew); one in the locale's script stays in the element's.
    @Test func aKeyShownIsInTheSourceLanguageUnderEveryLocale() throws {
        let catalog = #"""
            {"sourceLanguage": "de", "strings": {
              "greet": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Hallo"}},
                                          "ar": {"stringUnit": {"state": "translated", "value": "مرحبا"}}}},
              "only key": {}}}
            """#
        let doc = #"<document><label key="greet">Own</label><label key="only key"/><label key="not there"/><label key="غائب"/></document>"#
        let folder = try L10nCLI.folder(["doc.xml": doc, "de.xcstrings": catalog])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for locale in ["ar", "he", "de"] {
            let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "de.xcstrings", "--locale", locale], in: folder)
            let blocks = try L10nCLI.blocks(run.stdout).blocks
            #expect(blocks.map(\.text) == [locale == "ar" ? "مرحبا" : "Hallo", "only key", "not there", "غائب"], "\(locale)")
            #expect(blocks.map(\.lang) == [locale == "ar" ? "ar" : "de", "de", "de", locale], "\(locale): \(blocks)")
        }
    }

    /// A key shows its string each time it is used: a small document can ask for more text
    /// than the input limit allows (512 uses of a 100 KB string took 4.5 GB). Past as much as
    /// the largest markup holds, the document fails, said once, where. (Images' alt texts here,
    /// which are not laid out: the limit counts every string shown.)
    @Test func catalogTextADocumentShowsIsLimited() throws {
        let big = String(repeating: "word ", count: 200_000)  // 1 MB
        let uses = String(repeating: "<image src=\"pic.png\" width=\"10\" height=\"10\" key=\"big\"/>", count: 6)
        let folder = try L10nCLI.folder([
            "doc.xml": "<document>\n" + uses + "</document>", "s.json": "{\"big\": \"\(big)\"}",
            "pic.xml": "<document width=\"40\" height=\"40\" margin=\"0\"><p>x</p></document>",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try L10nCLI.typeset(["render", "pic.xml", "-o", "pic.png", "--scale", "1"], in: folder).status == 0)
        let run = try L10nCLI.typeset(["render", "doc.xml", "--strings", "s.json", "-o", "doc.pdf"], in: folder)
        #expect(run.status == 1, "\(run.stderr.prefix(500))")
        let errors = run.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("doc.xml:2:221: error: the catalog's strings this document shows add up to more than 4 MiB") == true, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/doc.pdf"))
        // Four uses are within it.
        try ("<document>\n" + String(uses.prefix(uses.count * 4 / 6)) + "</document>").write(
            toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        let four = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json"], in: folder)
        #expect(four.status == 0, "\(four.stderr.prefix(500))")
    }

    /// What `--locale` and the catalog say of each other is in the layout JSON too (it was
    /// only on standard error), and a snapshot run whose catalog cannot be read fails each
    /// screen that uses a key with its line and still ends with its summary line.
    @Test func theCatalogsWarningIsInTheJSONAndSnapshotsSummarize() throws {
        let folder = try L10nCLI.folder(["doc.xml": markup, "Localizable.xcstrings": xcstrings, "bad.json": "{"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "fr"], in: folder)
        let diagnostics = try L10nCLI.blocks(run.stdout).diagnostics
        #expect(diagnostics.first?["file"] as? String == "Localizable.xcstrings")
        #expect((diagnostics.first?["message"] as? String)?.hasPrefix("no strings for locale 'fr'") == true, "\(diagnostics)")
        let snapshot = try L10nCLI.typeset(["snapshot", ".", "--strings", "bad.json"], in: folder)
        #expect(snapshot.status == 1)
        #expect(
            snapshot.stdout == "FAIL doc.xml: 1 error (given above)\nFAIL bad.json: the string catalog cannot be read (given above)\n0 passed, 2 failed\n",
            "\(snapshot)")
        #expect(snapshot.stderr.contains("bad.json:1:"), "\(snapshot)")
    }

    /// The shown text's language rules it: a translation in another language than the
    /// element's lang sets its direction and tag, a specifier is isolated where the app's value
    /// goes, a file in `ar.lproj` is Arabic, and a flaw in a plain JSON file fails only the
    /// documents that use its key.
    @Test func theShownTextsLanguageDecides() throws {
        let doc = """
            <document width="300">
              <label lang="en" key="q">Is it ready?</label>
              <label lang="he" key="untranslated">x</label>
              <label key="files">x</label>
              <label key="missing"/>
              <p lang="en" key="Sign in!"/>
              <label lang="en" key="brand">x</label>
              <label lang="he" key="digits">x</label>
            </document>
            """
        let catalog = #"""
            {"sourceLanguage": "en", "strings": {
              "brand": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "Lumen PRO (beta)."}}}},
              "digits": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "١٢٣٤"}}}},
              "q": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "هل هو جاهز؟"}}}},
              "untranslated": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Only English."}}}},
              "files": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "%lld ملف"}}}},
              "Sign in!": {}}}
            """#
        let folder = try L10nCLI.folder([
            "doc.xml": doc, "Localizable.xcstrings": catalog, "ar.lproj/Localizable.strings": #""files" = "ملفات";"#,
            "pt_BR.lproj/Localizable.strings": #""files" = "Arquivos";"#, "Hebrew.lproj/Localizable.strings": #""files" = "קבצים";"#,
            "plain.json": #"{"files": "Files", "q": 5}"#, "nb.json": #"{"sourceLanguage": "en", "strings": {"files": {"localizations": {"nb": {"stringUnit": {"state": "translated", "value": "Filer"}}}}}}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "AR_eg"], in: folder)
        let blocks = try L10nCLI.blocks(run.stdout).blocks
        // The Arabic translation in a lang="en" label is right to left, the English fallback in
        // a lang="he" one left to right; each block says its text's language.
        // A key with no text but itself is the source language's (it was Arabic, "!Sign in").
        // English kept in the `ar` entry is not taken for Arabic: left to right (it read
        // ".Lumen PRO (beta)"), and in the label's English.
        // Digits, of no direction, keep the language's.
        #expect(blocks.map(\.direction) == ["rtl", "ltr", "rtl", "ltr", "ltr", "ltr", "rtl"], "\(blocks)")  // the key: Latin
        // A key the catalog lacks, shown as its text, is the source language's where it reads
        // as that (it was tagged Arabic).
        #expect(blocks.map(\.lang) == ["ar-EG", "en", "ar-EG", "en", "en", "en", "ar-EG"], "the locale in its usual case: \(blocks)")
        // The specifier does not make "%lld ملف" left to right; it stands at the line's start.
        #expect(blocks[2].text == "ملف %lld")
        // A key the catalog lacks, on an element without text: the key shows, as in an app.
        #expect(blocks[3].text == "missing")
        #expect(run.stderr.contains("doc.xml:5:3: warning: no string for key 'missing' in the catalog; the key is shown"), "\(run.stderr)")

        // `ar.lproj/Localizable.strings` is Arabic: under `--locale en` it shows (as an app with
        // only Arabic strings would), tagged Arabic, with one warning at the file.
        let lproj = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "ar.lproj/Localizable.strings", "--locale", "en"], in: folder)
        let lprojBlocks = try L10nCLI.blocks(lproj.stdout).blocks
        #expect(lprojBlocks[2].text == "ملفات" && lprojBlocks[2].lang == "ar" && lprojBlocks[2].direction == "rtl", "\(lprojBlocks)")
        #expect(lproj.stderr.contains("ar.lproj/Localizable.strings:1:1: warning: no strings for locale 'en' (the catalog has ar)"), "\(lproj.stderr)")
        // A sheet of several locales with a file that does not say its language: said, once.
        let unsaid = try L10nCLI.typeset(["sheet", "doc.xml", "--strings", "plain.json", "--locales", "en,ar", "-o", "s.pdf"], in: folder)
        #expect(unsaid.stderr.contains("plain.json:1:1: warning: this file does not say its language"), "\(unsaid.stderr)")
        let said = try L10nCLI.typeset(["sheet", "doc.xml", "--strings", "ar.lproj/Localizable.strings", "--locales", "en,ar", "-o", "s.pdf"], in: folder)
        #expect(said.status == 0 && !said.stderr.contains("does not say its language"), "\(said.stderr)")
        // Apple's folders spell a region with `_`.
        let brazil = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "pt_BR.lproj/Localizable.strings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(brazil.stdout).blocks[2].lang == "pt-BR", "\(brazil.stderr)")
        // An older app's folder names its language in English.
        let hebrew = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "Hebrew.lproj/Localizable.strings", "--locale", "en"], in: folder)
        let hebrewBlock = try L10nCLI.blocks(hebrew.stdout).blocks[2]
        #expect(hebrewBlock.lang == "he" && hebrewBlock.direction == "rtl", "\(hebrewBlock) \(hebrew.stderr)")
        // `Base.lproj` names no language (the app's development language): said so, once.
        try FileManager.default.createDirectory(atPath: folder + "/Base.lproj", withIntermediateDirectories: true)
        try #""files" = "Files 2.4";"#.write(toFile: folder + "/Base.lproj/Localizable.strings", atomically: true, encoding: .utf8)
        let base = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "Base.lproj/Localizable.strings", "--locale", "ar"], in: folder)
        #expect(base.stderr.components(separatedBy: "Base.lproj/Localizable.strings:1:1: warning: a Base.lproj file does not say which language").count == 2, "\(base.stderr)")
        // Given first, beside other languages' folders, it is the last fallback: a locale the
        // folders lack shows it, and a key one of them lacks shows its text, said (the English
        // column showed ar.lproj's Arabic, and Hebrew's missing key Arabic too).
        try FileManager.default.createDirectory(atPath: folder + "/he.lproj", withIntermediateDirectories: true)
        try #""title" = "Base title";"#.write(toFile: folder + "/Base.lproj/Titles.strings", atomically: true, encoding: .utf8)
        try #""title" = "כותרת";"#.write(toFile: folder + "/he.lproj/Titles.strings", atomically: true, encoding: .utf8)
        try #"<document><title key="title">x</title><label key="files">x</label></document>"#
            .write(toFile: folder + "/base.xml", atomically: true, encoding: .utf8)
        let layers = ["--strings", "Base.lproj/Localizable.strings", "--strings", "Base.lproj/Titles.strings",
                      "--strings", "ar.lproj/Localizable.strings", "--strings", "he.lproj/Titles.strings"]
        for (locale, texts) in [("en", ["Base title", "Files 2.4"]), ("he", ["כותרת", "Files 2.4"])] {
            let run = try L10nCLI.typeset(["layout", "base.xml", "--locale", locale] + layers, in: folder)
            #expect(try L10nCLI.blocks(run.stdout).blocks.map(\.text) == texts, "\(locale): \(run.stderr)")
            if locale == "he" {
                #expect(run.stderr.contains("base.xml:1:39: warning: key 'files' is not translated to 'he' in the catalog; its Base.lproj text is shown"), "\(run.stderr)")
            }
        }
        // `--locale iw` reads the catalog's `he` and writes `he`, as the markup's `lang="iw"` is.
        let iw = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "Hebrew.lproj/Localizable.strings", "--locale", "iw"], in: folder)
        #expect(try L10nCLI.blocks(iw.stdout).blocks.map(\.lang) == ["en", "he", "he", "he", "en", "en", "he"], "\(iw)")

        // A value of a plain JSON file that is no string fails the documents that use its key.
        try #"<document><label key="files">x</label></document>"#.write(toFile: folder + "/other.xml", atomically: true, encoding: .utf8)
        let plain = try L10nCLI.typeset(["render", "doc.xml", "other.xml", "--strings", "plain.json", "--out-dir", "out"], in: folder)
        #expect(plain.status == 1 && plain.stderr.contains("plain.json:1:25: error: the value of key 'q' must be a string, not a number"), "\(plain.stderr)")
        #expect(files(in: folder + "/out") == ["other.pdf"])

        // Norwegian: `no` reads a catalog's `nb`, as Apple's systems do.
        let norwegian = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "nb.json", "--locale", "no"], in: folder)
        #expect(try L10nCLI.blocks(norwegian.stdout).blocks[2].text == "Filer", "\(norwegian.stderr)")
    }

    /// An app's `.strings` files, one folder per language, are given `--strings` once each: a
    /// sheet has every locale's column from them (only one file was taken, and a sheet of
    /// several locales could not be made of them). A key comes from the first file that has it
    /// in its language, another text for it in a later file is warned about, the first file's
    /// language is the fallback, and a file that cannot be read fails the documents that use a
    /// key, whichever it is.
    @Test func severalStringsFilesAreOneCatalog() throws {
        let doc = #"<document width="300"><title key="title">x</title><label key="files">x</label></document>"#
        let folder = try L10nCLI.folder([
            "doc.xml": doc,
            "en.lproj/Localizable.strings": "\"title\" = \"Files\";\n\"files\" = \"3 files\";\n",
            "ar.lproj/Localizable.strings": "\"title\" = \"الملفات\";\n\"files\" = \"ثلاثة ملفات\";\n",
            "he.lproj/Localizable.strings": "\"title\" = \"קבצים\";\n",
            "more/he.lproj/Localizable.strings": "\"files\" = \"שלושה קבצים\";\n  \"title\" = \"קבצים!\";\n",
            "broken.json": #"{"title": }"#, "plain.json": #"{"other": "Other"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ["en.lproj", "ar.lproj", "he.lproj", "more/he.lproj"].flatMap { ["--strings", $0 + "/Localizable.strings"] }
        func texts(_ locale: String, _ run: inout L10nCLI.Run?) throws -> [String] {
            let result = try L10nCLI.typeset(["layout", "doc.xml", "--locale", locale] + files, in: folder)
            run = result
            #expect(result.status == 0, "\(result.stderr)")
            return try L10nCLI.blocks(result.stdout).blocks.map(\.text)
        }
        var run: L10nCLI.Run?
        #expect(try texts("en", &run) == ["Files", "3 files"])
        #expect(try texts("ar", &run) == ["الملفات", "ثلاثة ملفات"])
        // `title` from the first Hebrew file, `files` from the second, which alone has it; the
        // second's other `title` is said where it is (it was said at 1:1).
        #expect(try texts("he", &run) == ["קבצים", "שלושה קבצים"])
        #expect(
            run?.stderr.contains("more/he.lproj/Localizable.strings:2:3: warning: the key 'title' (he) has other text in "
                + "he.lproj/Localizable.strings, given first: that text is used") == true, "\(run?.stderr ?? "")")
        // French falls back to the first file's language, English, said so per key.
        #expect(try texts("fr", &run) == ["Files", "3 files"])
        #expect(run?.stderr.contains("en.lproj/Localizable.strings:1:1: warning: no strings for locale 'fr' (the catalog has ar, en, he)") == true, "\(run?.stderr ?? "")")

        // One sheet of the three locales, each column in its own language.
        let sheet = try L10nCLI.typeset(["sheet", "doc.xml", "--locales", "en,ar,he", "-o", "s.pdf"] + files, in: folder)
        #expect(sheet.status == 0 && !sheet.stderr.contains("does not say its language"), "\(sheet.stderr)")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/s.pdf", "-"], in: folder).stdout
        for shown in ["Files", "الملفات", "קבצים"] { #expect(text.contains(shown), "\(text)") }

        // A file that names no language beside them: its text is the locale's (it was tagged
        // with an empty language), said so at the file.
        try #"<document><label key="other">x</label><label key="title">x</label></document>"#
            .write(toFile: folder + "/plain.xml", atomically: true, encoding: .utf8)
        let plain = try L10nCLI.typeset(
            ["layout", "plain.xml", "--locale", "ar", "--strings", "en.lproj/Localizable.strings", "--strings", "plain.json"],
            in: folder)
        let plainBlocks = try L10nCLI.blocks(plain.stdout).blocks
        #expect(plainBlocks.map(\.text) == ["Other", "Files"] && plainBlocks.map(\.lang) == ["ar", "en"], "\(plainBlocks)")
        #expect(plain.stderr.contains("plain.json:1:1: warning: this file does not say its language"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("''"), "\(plain.stderr)")

        // A broken file among them: the document that uses a key fails, named by that file.
        let broken = try L10nCLI.typeset(
            ["render", "doc.xml", "-o", "b.pdf", "--strings", "en.lproj/Localizable.strings", "--strings", "broken.json"], in: folder)
        #expect(broken.status == 1 && broken.stderr.contains("the string catalog 'broken.json' cannot be read"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.pdf"))
    }

    /// `layout` prints its JSON whatever fails, a catalog too: a script reading it gets the
    /// error there (it got nothing at all), and the error of the document that uses a key. A
    /// document that uses none is laid out, and the status is still that of a failed input.
    @Test func aBrokenCatalogStillGivesLayoutJSON() throws {
        let folder = try L10nCLI.folder(["doc.xml": markup, "plain.xml": "<document><p>x</p></document>", "bad.json": #"{"greet": }"#])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "bad.json"], in: folder)
        #expect(run.status == 1)
        let (blocks, diagnostics) = try L10nCLI.blocks(run.stdout)
        #expect(blocks.isEmpty && diagnostics.count == 2, "\(diagnostics)")
        #expect(diagnostics.first?["severity"] as? String == "error" && diagnostics.first?["file"] as? String == "bad.json")
        #expect((diagnostics.last?["message"] as? String)?.contains("cannot be looked up: the string catalog 'bad.json' cannot be read") == true)
        #expect(run.stderr.hasPrefix("bad.json:1:"), "\(run.stderr)")
        let plain = try L10nCLI.typeset(["layout", "plain.xml", "--strings", "bad.json"], in: folder)
        #expect(plain.status == 1)
        let laidOut = try L10nCLI.blocks(plain.stdout)
        #expect(laidOut.blocks.count == 1 && laidOut.diagnostics.count == 1, "\(plain)")
    }

    /// `numerals="auto"` gives the digits of the shown text's language, as a `lang` in markup
    /// does: an English fallback in an Arabic document showed "Version ٣٫١", an Arabic
    /// translation in an English one "10 ملفات".
    @Test func automaticDigitsFollowTheShownTextsLanguage() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document numerals="auto"><label key="version">x</label><label key="files">x</label></document>"#,
            "pinned.xml": #"<document lang="en" numerals="auto"><label key="files">x</label><label lang="ar">10 ملفات</label></document>"#,
            "s.xcstrings": #"""
                {"sourceLanguage": "en", "strings": {
                  "version": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Version 3.1"}}}},
                  "files": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "10 ملفات"}}}}}}
                """#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.xcstrings", "--locale", "ar"], in: folder)
        // (Runs in visual order: the number stands at the right of a right-to-left line.)
        #expect(try L10nCLI.blocks(arabic.stdout).blocks.map(\.text) == ["Version 3.1", " ملفات١٠"], "\(arabic.stderr)")
        let pinned = try L10nCLI.typeset(["layout", "pinned.xml", "--strings", "s.xcstrings", "--locale", "ar"], in: folder)
        #expect(try L10nCLI.blocks(pinned.stdout).blocks.map(\.text) == [" ملفات١٠", " ملفات١٠"], "\(pinned.stderr)")
    }

    /// An element's own text, shown where the catalog lacks its key, is in the catalog's source
    /// language, not the locale's, when no `lang` in the markup says otherwise: an English
    /// fallback under `--locale ar` was tagged Arabic and read "every night at ٢:٠٠", while the
    /// same text from the catalog's `en` entry was English. A `lang` the markup gives stays.
    @Test func anElementsOwnTextIsInTheSourceLanguage() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"""
                <document numerals="auto"><label key="backup.time">Backup every night at 2:00</label><label key="other">x</label>
                <stack lang="ar"><label key="backup.time">النسخ الساعة 2:00</label></stack></document>
                """#,
            "pinned.xml": #"<document lang="ar" numerals="auto"><label key="backup.time">النسخ الساعة 2:00</label></document>"#,
            // Arabic text of an Arabic mockup is no English; English text is no Arabic for a
            // catalog whose only language is its folder's.
            "arabic.xml": #"<document numerals="auto"><label key="copies">نسخ 5</label></document>"#,
            "ar.lproj/Localizable.strings": #""greeting" = "مرحبا";"#,
            "s.xcstrings": #"""
                {"sourceLanguage": "en", "strings": {
                  "other": {"localizations": {"ar": {"stringUnit": {"state": "translated", "value": "نص 3"}}}}}}
                """#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.xcstrings", "--locale", "ar"], in: folder)
        let blocks = try L10nCLI.blocks(run.stdout).blocks
        #expect(blocks.map(\.lang) == ["en", "ar", "ar"], "\(run.stderr)")
        #expect(blocks.map(\.direction) == ["ltr", "rtl", "rtl"])
        #expect(blocks[0].text == "Backup every night at 2:00" && blocks[1].text.contains("٣"), "\(blocks)")
        #expect(blocks[2].text.contains("٢:٠٠"), "\(blocks[2])")
        let pinned = try L10nCLI.typeset(["layout", "pinned.xml", "--strings", "s.xcstrings", "--locale", "ar"], in: folder)
        let own = try #require(L10nCLI.blocks(pinned.stdout).blocks.first)
        #expect(own.lang == "ar" && own.text.contains("٢:٠٠"), "\(own)")
        let arabic = try L10nCLI.typeset(["layout", "arabic.xml", "--strings", "s.xcstrings", "--locale", "ar"], in: folder)
        let copies = try #require(L10nCLI.blocks(arabic.stdout).blocks.first)
        #expect(copies.lang == "ar" && copies.text.contains("٥"), "\(copies)")
        let lproj = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "ar.lproj/Localizable.strings", "--locale", "en"], in: folder)
        let english = try #require(L10nCLI.blocks(lproj.stdout).blocks.first)
        #expect(english.lang == "en" && english.text.contains("2:00"), "\(english) \(lproj.stderr)")
        // Without a catalog the own text is the markup's, English where no `lang` says otherwise
        // (it read "every night at ٢:٠٠" under `--locale ar` all the same); Arabic text stays Arabic.
        // Nor is text in other letters of English's direction English: Marathi under `--locale mr`.
        try #"<document numerals="auto"><label key="alarm">रोज रात्री 2:00 वाजता</label></document>"#.write(
            toFile: folder + "/mr.xml", atomically: true, encoding: .utf8)
        let marathi = try #require(L10nCLI.blocks(try L10nCLI.typeset(["layout", "mr.xml", "--locale", "mr"], in: folder).stdout).blocks.first)
        #expect(marathi.lang == "mr" && marathi.text.contains("२:००"), "\(marathi)")
        // But a letter of a third script is no reason: "5 μs" stays English.
        try #"<document numerals="auto"><p key="b">Backup every night at 2:00 (5 μs)</p></document>"#.write(
            toFile: folder + "/greek.xml", atomically: true, encoding: .utf8)
        let greek = try #require(L10nCLI.blocks(try L10nCLI.typeset(["layout", "greek.xml", "--locale", "ar"], in: folder).stdout).blocks.first)
        #expect(greek.lang == "en" && greek.text.contains("2:00 (5 μs)"), "\(greek)")
        for (file, expected) in [("doc.xml", ["en", "en", "ar"]), ("arabic.xml", ["ar"])] {
            let bare = try L10nCLI.typeset(["layout", file, "--locale", "ar"], in: folder)
            let shown = try L10nCLI.blocks(bare.stdout).blocks
            #expect(shown.map(\.lang) == expected, "\(file) \(bare.stderr)")
            #expect(shown.first?.text.contains(file == "doc.xml" ? "2:00" : "٥") == true, "\(shown)")
        }
    }

    /// Text a catalog shows in the source language, where the locale is written in another
    /// script, is the source language's: Gurmukhi "ਬਾਰੇ 2026" under `--locale pa-PK` was
    /// tagged pa-PK and read "ਬਾਰੇ ۲۰۲۶"; a Simplified Chinese source under `zh-TW` was zh-TW.
    @Test func sourceTextInAnotherScriptKeepsItsLanguage() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document numerals="auto"><label key="about">About</label><label key="b">b</label></document>"#,
            "pa.xcstrings": #"""
                {"sourceLanguage": "pa", "strings": {
                  "about": {"localizations": {"pa": {"stringUnit": {"state": "translated", "value": "ਬਾਰੇ 2026"}}}},
                  "b": {"localizations": {"pa": {"stringUnit": {"state": "translated", "value": "ਬ 12"}},
                    "pa-Arab": {"stringUnit": {"state": "translated", "value": "ب 12"}}}}}}
                """#,
            "zh.xcstrings": #"{"sourceLanguage": "zh-Hans", "strings": {"about": {"localizations": {"zh-Hans": {"stringUnit": {"state": "translated", "value": "关于"}}}}}}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let punjabi = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "pa.xcstrings", "--locale", "pa-PK"], in: folder)
        let blocks = try L10nCLI.blocks(punjabi.stdout).blocks
        #expect(blocks.map(\.lang) == ["pa", "pa-PK"], "\(punjabi.stderr)")
        #expect(blocks.first?.text == "ਬਾਰੇ 2026" && blocks.last?.text.contains("۱۲") == true, "\(blocks)")
        let chinese = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "zh.xcstrings", "--locale", "zh-TW"], in: folder)
        #expect(try L10nCLI.blocks(chinese.stdout).blocks.first?.lang == "zh-Hans", "\(chinese.stderr)")
    }

    /// A JSON string dense with escapes is read in linear time: each run between escapes was
    /// appended to a String.UnicodeScalarView, which makes a new string each time (2 MiB with
    /// an escape every seven bytes took 8 s in a release build, 4 MiB 30 s).
    @Test func escapesInACatalogStringAreReadInLinearTime() throws {
        let piece = #"xaxxb \"é\u00e9"#
        let text = #"{"k": ""# + String(repeating: piece, count: 150_000) + #""}"#
        let start = Date()
        let loaded = try catalog(text, file: "big.json")
        #expect(loaded.strings(locale: nil)["k"] == String(repeating: "xaxxb \"éé", count: 150_000))
        #expect(Date().timeIntervalSince(start) < 60)
    }

    /// SwiftUI renders a catalog string's Markdown; typeset shows it as written, and says so
    /// (a terms line's "[شروط الخدمة](https://…)" was scattered over two lines, unsaid).
    @Test func markdownInACatalogStringIsSaid() throws {
        #expect(CatalogMarkdown.firstSpan(in: "Agree to the [Terms](https://example.com/terms).") == "[Terms](https://example.com/terms)")
        #expect(CatalogMarkdown.firstSpan(in: "Get **Lumen PRO** now, `code`") == "**Lumen PRO**")
        #expect(CatalogMarkdown.firstSpan(in: "~~old~~ and [x](y)") == "~~old~~")
        #expect(CatalogMarkdown.firstSpan(in: #"See [Terms](https://x.com "Terms") or <https://example.com>"#) == #"[Terms](https://x.com "Terms")"#)
        #expect(CatalogMarkdown.firstSpan(in: "Visit <https://example.com> today") == "<https://example.com>")
        #expect(CatalogMarkdown.firstSpan(in: "a __b__ c") == "__b__")
        #expect(CatalogMarkdown.firstSpan(in: "***Important*** read") == "***Important***")
        #expect(CatalogMarkdown.firstSpan(in: "****bold**** x") == "****bold****")
        #expect(CatalogMarkdown.firstSpan(in: "Use ``a`b`` here") == "``a`b``")
        // Not what CommonMark shows as written: a card number's or password's asterisks, the
        // underscores inside a file name, a "**" after a letter before a comma, an escaped bracket.
        for plain in [
            "5 * 3 * 2", "*Required", "[draft] (v2)", "a [b](c d)", "** not **", "snake_case_name", "[](x)", "[a]()",
            "Visa **** **** **** 4242", "Password: ********", "Saved to report__final__v2.pdf",
            "Storage 2 TB**, Family Sharing**", #"\[not a link](x)"#, "<http://a b>", "Save ~~~50%~~~ today",
        ] {
            #expect(CatalogMarkdown.firstSpan(in: plain) == nil, "\(plain)")
        }
        // Linear on hostile text: a million openers without a closer.
        #expect(CatalogMarkdown.firstSpan(in: String(repeating: "**a [b](c ", count: 100_000)) == nil)
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document><p key="terms">Terms</p></document>"#,
            "c.json": #"{"terms": "بالمتابعة، فإنك توافق على [شروط الخدمة](https://example.com/terms)."}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.json", "--locale", "ar"], in: folder)
        #expect(run.stderr.contains(
            "doc.xml:1:11: warning: the string of key 'terms' has Markdown ('[شروط الخدمة](https://example.com/terms)'), "
                + "which SwiftUI's Text renders; it is shown as it is written"), "\(run.stderr)")
    }

    /// Plural variations that lack a form CLDR gives their language (or have it untranslated)
    /// are said where that language's locale is laid out: a mockup shows `other`, and the app
    /// shows the lacking forms for the commonest counts (Arabic's "few" is 3–10).
    @Test func pluralVariationsLackingALanguagesFormsAreSaid() throws {
        #expect(PluralForms.categories(of: "ar") == ["zero", "one", "two", "few", "many", "other"])
        #expect(PluralForms.categories(of: "en") == ["one", "other"])
        #expect(PluralForms.missing(from: ["one", "few", "other"], language: "ru") == ["many"])
        func plural(_ forms: [(String, String)]) -> String {
            #"{ "variations" : { "plural" : {"# + forms.map { name, value in
                #""\#(name)" : { "stringUnit" : { "state" : "\#(value.isEmpty ? "new" : "translated")", "value" : "\#(value)" } }"#
            }.joined(separator: ", ") + "} } }"
        }
        let catalog = #"{ "sourceLanguage" : "en", "strings" : { "files" : { "localizations" : {"#
            + #""en" : "# + plural([("one", "%lld file"), ("other", "%lld files")]) + ", "
            + #""ar" : "# + plural([("one", "ملف واحد"), ("few", ""), ("other", "%lld ملف")]) + ", "
            + #""he" : "# + plural([("one", "קובץ אחד"), ("two", "שני קבצים"), ("other", "%lld קבצים")]) + " } } } }"
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document><label key="files">3 files</label></document>"#, "c.xcstrings": catalog,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", "ar-EG"], in: folder)
        #expect(arabic.stderr.contains(
            "c.xcstrings:1:312: warning: the plural variations of key 'files' (ar) have no 'zero', 'two', 'few', 'many' forms, "
                + "which the app shows for some counts; a mockup shows the 'other' form"), "\(arabic.stderr)")
        for locale in ["en", "he"] {
            let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.xcstrings", "--locale", locale], in: folder)
            #expect(!run.stderr.contains("plural variations"), "\(locale): \(run.stderr)")
        }
    }

    /// A key the catalog lacks is said with the one it was likely meant to be: the same but
    /// for case or spaces at its ends, or one or two letters apart (a typo'd "gret" got no hint).
    @Test func aKeyTheCatalogLacksIsSaidWithTheNearestOne() throws {
        let strings = StringCatalog(tables: ["en": ["greet": "Hello", "settings.title": "Settings", "ok": "OK"]], sourceLanguage: "en")
            .strings(locale: "en")
        #expect(strings.nearestKey(to: "gret") == "greet" && strings.nearestKey(to: " greet") == "greet")
        #expect(strings.nearestKey(to: "Greet") == "greet" && strings.nearestKey(to: "settings.titel") == "settings.title")
        #expect(strings.nearestKey(to: "OK ") == "ok" && strings.nearestKey(to: "ko") == nil && strings.nearestKey(to: "farewell") == nil)
        #expect(LocalizedStrings.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), atMost: 3) == 3)
        #expect(LocalizedStrings.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars), atMost: 2) == nil)
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document><label key="gret">Hi</label></document>"#, "c.json": #"{"greet": "Hello"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.json"], in: folder)
        #expect(run.stderr.contains(
            "doc.xml:1:11: warning: no string for key 'gret' in the catalog; the element's own text is used (did you mean 'greet'?)"),
            "\(run.stderr)")
    }

    /// SwiftUI's automatic grammar agreement, `^[…](inflect: true)`, is shown as its text and
    /// said: its markup was drawn, broken inside "(inflect: / true)", unsaid.
    @Test func grammarAgreementInACatalogStringIsShownAsItsText() throws {
        #expect(CatalogMarkdown.withoutInflection("You added ^[2 large pizza](inflect: true) to your order")
            .map { [$0.text, $0.first] } == ["You added 2 large pizza to your order", "2 large pizza"])
        #expect(CatalogMarkdown.withoutInflection("^[%lld foto](inflect: true) y ^[%lld álbum](morphology: { number: \"one\" })")?.text
            == "%lld foto y %lld álbum")
        for plain in ["a ^[b] c", "x^[y](z) w", "^[a\nb](inflect: true)", "[a](inflect: true)", "^[a](inflect: true"] {
            #expect(CatalogMarkdown.withoutInflection(plain) == nil, "\(plain)")
        }
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document><p key="cart">x</p></document>"#,
            "c.json": #"{"cart": "You added ^[2 large pizza](inflect: true) to your order"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "c.json"], in: folder)
        #expect(try L10nCLI.blocks(run.stdout).blocks.first?.text == "You added 2 large pizza to your order", "\(run)")
        #expect(run.stderr.contains(
            "doc.xml:1:11: warning: the string of key 'cart' asks SwiftUI to make '2 large pizza' agree in number and gender "
                + "(^[…](inflect: true)); it is shown as written"), "\(run.stderr)")
    }

    /// A catalog's warnings are capped on standard error as a document's are: ten of one
    /// message, then a line of how many more (a key given 160,000 times printed 159,999 lines).
    @Test func aCatalogsWarningsAreCapped() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document><title key="k">x</title></document>"#,
            "s.strings": String(repeating: "\"k\" = \"v\";\n", count: 300),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["render", "doc.xml", "--strings", "s.strings"], in: folder)
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("is given again") }
        #expect(run.status == 0 && lines.count == 11, "\(run.stderr.prefix(2000))")
        #expect(lines.last?.hasPrefix("s.strings:300:1: warning: … and 289 more times, the last here") == true, "\(run.stderr.suffix(500))")
    }

    /// An input that fails where an earlier run left its output says so when its string
    /// catalog changed since, as when its markup did: a catalog's broken entry failed the input,
    /// and the page of the old strings stood without a word.
    @Test func anOutputOlderThanTheCatalogIsSaidStale() throws {
        let folder = try L10nCLI.folder([
            "screen.xml": #"<document><title key="hello">Hello</title></document>"#,
            "s.json": #"{"hello": "Bonjour"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try L10nCLI.typeset(["render", "screen.xml", "--strings", "s.json", "--locale", "fr"], in: folder).status == 0)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder + "/screen.pdf")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: folder + "/screen.xml")
        try #"{"hello": 42}"#.write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
        let failed = try L10nCLI.typeset(["render", "screen.xml", "--strings", "s.json", "--locale", "fr"], in: folder)
        #expect(failed.status == 1 && failed.stderr.contains("'./screen.pdf', from an earlier run, is left as it was"), "\(failed)")
    }

    /// A catalog's language is not the text's when the text's letters all belie it: they are
    /// all of the direction of the element's language, none of the catalog's. A file of strings
    /// that names no language, taken for `--locale ar`'s, tagged the English of a `lang="en"`
    /// label Arabic ("Version ٣٫١ of ٢٠٢٤"); a language picker's untranslated "עברית" was the
    /// source language's English, "العربية 2024" kept its 2024. Text of both directions, or of
    /// the catalog's, is the catalog's language.
    @Test func aCatalogsLanguageBeliedByTheLettersIsNotTheTexts() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"""
                <document numerals="auto"><label key="v" lang="en">x</label><label key="v">x</label>
                <label key="mixed" lang="en">x</label></document>
                """#,
            "s.json": #"{"v": "Version 3.1 of 2024", "mixed": "Version 3.1 من 2024", "wifi": "Wi-Fi: \u2067شبكة المنزل ٥\u2069", "iso": "\u2068Version 3.1 of 2024\u2069"}"#,
            "isolates.xml": #"<document numerals="auto"><p key="wifi" lang="en">x</p><p key="iso" lang="en">x</p></document>"#,
            "picker.xml": #"""
                <document lang="ar" numerals="auto"><label key="lang.he" lang="he">x</label><label key="lang.ar" lang="ar">x</label>
                <label key="lang.en">x</label><label key="lang.he" lang="ar">x</label><label key="year" lang="ar">x</label>
                <label key="arc" lang="arc">x</label></document>
                """#,
            "picker.xcstrings": #"""
                {"sourceLanguage": "en", "strings": {
                  "lang.he": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "עברית"}}}},
                  "lang.ar": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "العربية 2024"}}}},
                  "lang.en": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "English 2024"}}}},
                  "year": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "١٤٤٥ هـ"}}}},
                  "arc": {"shouldTranslate": false, "localizations": {"en": {"stringUnit": {"state": "translated", "value": "ܐܪܡܝܐ"}}}}}}
                """#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json", "--locale", "ar"], in: folder)
        let blocks = try L10nCLI.blocks(run.stdout).blocks
        // The label without a `lang` is the locale's, as its document is.
        #expect(blocks.prefix(3).map(\.lang) == ["en", "ar", "ar"], "\(run.stdout) \(run.stderr)")
        #expect(blocks.first?.text == "Version 3.1 of 2024" && blocks.dropFirst().first?.text.contains("٣٫١") == true, "\(blocks)")
        let svg = try L10nCLI.typeset(["render", "doc.xml", "--strings", "s.json", "--locale", "ar", "-o", "doc.svg"], in: folder)
        let written = try String(contentsOfFile: folder + "/doc.svg", encoding: .utf8)
        #expect(svg.status == 0 && written.contains(#"xml:lang="en""#), "\(svg.stderr)")
        let picker = try L10nCLI.typeset(["layout", "picker.xml", "--strings", "picker.xcstrings", "--locale", "ar"], in: folder)
        let names = try L10nCLI.blocks(picker.stdout).blocks
        // (Hebrew in a label of lang="ar" is no Arabic: the catalog's language stays.)
        // (A tatweel, of several scripts, is Arabic's too; Aramaic is written in several.)
        #expect(names.map(\.lang) == ["he", "ar", "en", "en", "ar", "arc"], "\(picker.stdout) \(picker.stderr)")
        #expect(names.dropFirst().first?.text.contains("٢٠٢٤") == true && names[2].text == "English 2024", "\(names)")
        // Letters in isolates count: an Arabic string isolated in an English one is the
        // catalog's Arabic (it was English, its ٥ shown as 5), an isolated English one English.
        let isolated = try L10nCLI.typeset(["layout", "isolates.xml", "--strings", "s.json", "--locale", "ar"], in: folder)
        let isolatedBlocks = try L10nCLI.blocks(isolated.stdout).blocks
        #expect(isolatedBlocks.map(\.lang) == ["ar", "en"], "\(isolated.stdout) \(isolated.stderr)")
        #expect(isolatedBlocks.first?.text.contains("٥") == true && isolatedBlocks.last?.text.contains("2024") == true, "\(isolatedBlocks)")
    }

    /// A locale that is a more specific form of a document's pinned `lang` refines it: the
    /// columns ar-EG and ar-MA of a sheet of a `lang="ar"` document showed the same Arabic-Indic
    /// digits, where Morocco's are 0-9. Another language, or another region, leaves it.
    @Test func aLocaleRefinesThePinnedLanguage() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document lang="ar" numerals="auto"><label>الرصيد 25</label><label lang="ar">رقم 7</label></document>"#,
            "pa.xml": #"<document lang="pa" numerals="auto"><p>ਸੈਟਿੰਗਾਂ 123</p></document>"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (locale, lang, digits) in [("ar-MA", "ar-MA", ["25", "7"]), ("ar-EG", "ar-EG", ["٢٥", "٧"]), ("he", "ar", ["٢٥", "٧"]), ("ar", "ar", ["٢٥", "٧"])] {
            let run = try L10nCLI.typeset(["layout", "doc.xml", "--locale", locale], in: folder)
            let blocks = try L10nCLI.blocks(run.stdout).blocks
            // A `lang` inside, of the same language, is refined as the document's is.
            #expect(blocks.map(\.lang) == [lang, lang], "\(locale): \(blocks) \(run.stderr)")
            #expect(zip(blocks, digits).allSatisfy { $0.text.contains($1) }, "\(locale): \(blocks)")
        }
        // Not into another script: Punjabi in Pakistan is written in Arabic letters.
        let punjabi = try L10nCLI.typeset(["layout", "pa.xml", "--locale", "pa-PK"], in: folder)
        let block = try #require(L10nCLI.blocks(punjabi.stdout).blocks.first)
        #expect(block.lang == "pa" && block.context == "ltr" && block.text.contains("123"), "\(block)")
        #expect(Language.refined("ar-EG", by: "ar-MA") == "ar-EG" && Language.refined("zh", by: "zh-Hant-TW") == "zh")
        #expect(Language.refined("sd", by: "sd-IN") == "sd" && Language.refined("he", by: "he-IL") == "he-IL")
        #expect(Language.refined(nil, by: "he") == "he" && Language.refined("he", by: nil) == "he")
        // A script on one side only: the other's likely script (ICU's).
        #expect(Language.refined("ar", by: "ar-Arab-MA") == "ar-Arab-MA" && Language.refined("ar", by: "ar-Latn-MA") == "ar")
        #expect(Language.refined("he", by: "he-Hebr-IL") == "he-Hebr-IL" && Language.refined("sr-Latn", by: "sr-Latn-RS") == "sr-Latn-RS")
        #expect(Language.likelyScript(of: "fa") == "arab" && Language.likelyScript(of: "en-US") == "latn")
        // Urdu's likely script is Nastaliq, a form of Arabic; an old code is its current one;
        // a private-use tag names no script.
        #expect(Language.refined("ur", by: "ur-Arab-IN") == "ur-Arab-IN" && Language.refined("ur", by: "ur-Aran-PK") == "ur-Aran-PK")
        #expect(Language.refined("arb", by: "ar-Arab-MA") == "ar-Arab-MA" && Language.refined("x-foo", by: "x-foo-latn") == "x-foo")
    }

    @Test func aPinnedDocumentLanguageStays() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": #"<document lang="he"><title key="title">כותרת</title></document>"#,
            "s.json": #"{"title": "Title"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "s.json", "--locale", "en"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let blocks = try L10nCLI.blocks(run.stdout).blocks
        #expect(blocks.map(\.text) == ["Title"])
        // The document stays Hebrew; the block shows the English text, and says so.
        #expect(blocks.first?.lang == "en" && blocks.first?.context == "rtl")
    }

    /// Without `--locale`, each document's strings are in its own language: an Arabic mockup
    /// and a Hebrew one rendered with one catalog each read their own translation (they read
    /// the catalog's source language before), in `layout` as in the sheet's own-language column.
    @Test func withoutALocaleStringsFollowTheDocumentsLanguage() throws {
        let folder = try L10nCLI.folder([
            "ar.xml": #"<document lang="ar-EG"><title key="title">Own title</title></document>"#,
            "he.xml": #"<document lang="he"><title key="hebrew only">Own title</title></document>"#,
            "en.xml": #"<document><title key="title">Own title</title></document>"#,
            "Localizable.xcstrings": xcstrings,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (input, expected) in [("ar.xml", "الضبط"), ("he.xml", "שלום"), ("en.xml", "Settings")] {
            let run = try L10nCLI.typeset(["layout", input, "--strings", "Localizable.xcstrings"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try L10nCLI.blocks(run.stdout).blocks.map(\.text) == [expected], "\(input)")
        }
        let sheet = try L10nCLI.typeset(
            ["sheet", "ar.xml", "he.xml", "--strings", "Localizable.xcstrings", "-o", "sheet.pdf"], in: folder)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        let text = try runProgram("/usr/bin/pdftotext", [folder + "/sheet.pdf", "-"]).stdout
        #expect(text.contains("الضبط") && text.contains("שלום") && !text.contains("Settings"), "\(text)")
    }

    @Test func stringsFileAndJSONCatalogsFromTheCommandLine() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": markup,
            "ar.strings":
                "/* Arabic */\n\"title\" = \"\\U0627\\U0644\\U0639\\U0646\\U0648\\U0627\\U0646\";\n\"photos\" = \"\\\"\\U0635\\U0648\\U0631\\\"\";\n",
            "he.json": #"{"title": "כותרת", "photos": "Photos \\ \"x\" \u00E9", "nowhere": ""}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arabic = try L10nCLI.typeset(
            ["layout", "doc.xml", "--strings", "ar.strings", "--locale", "ar"], in: folder)
        #expect(arabic.status == 0, "\(arabic.stderr)")
        #expect(try L10nCLI.blocks(arabic.stdout).blocks.map(\.text).prefix(2) == ["العنوان", "\"صور\""])
        let hebrew = try L10nCLI.typeset(["layout", "doc.xml", "--strings", "he.json"], in: folder)
        #expect(try L10nCLI.blocks(hebrew.stdout).blocks.map(\.text).prefix(3) == ["כותרת", "Photos \\ \"x\" é", ""])
        // An empty string in the catalog is the element's text, not a missing key; it is
        // said, as it is seldom meant.
        #expect(hebrew.status == 0, "\(hebrew.stderr)")
        #expect(hebrew.stderr.hasSuffix("warning: the text of key 'nowhere' in the catalog is empty; nothing is shown\n"), "\(hebrew.stderr)")
    }

    /// Lines end at LF, CR or CRLF in a catalog as in markup (a CR-only catalog's errors were all
    /// on line 1, and a `.strings` comment ran to its end).
    @Test(arguments: ["\n", "\r", "\r\n"])
    func brokenCatalogFailsNamingTheFileAndWritesNothing(lineEnd: String) throws {
        let folder = try L10nCLI.folder([
            "doc.xml": markup, "cat.json": ["{", "  \"title\": \"x\",", "  \"photos\": [1]", "}", ""].joined(separator: lineEnd),
            "cat.strings": ["// Photos", "\"title\" = \"x\";", "\"photos\" = ;", ""].joined(separator: lineEnd),
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["render", "doc.xml", "--strings", "cat.json", "-o", "out.pdf"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("cat.json:3:13: error: the value of key 'photos' must be a string, not an array"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.pdf"))
        let strings = try L10nCLI.typeset(["render", "doc.xml", "--strings", "cat.strings", "-o", "out.pdf"], in: folder)
        #expect(strings.status == 1)
        #expect(strings.stderr.contains("cat.strings:3:12: error: expected the text of 'photos' in quotes, found ';'"), "\(strings.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.pdf"))
    }

    @Test func textSizeScalesEveryStyle() throws {
        let folder = try L10nCLI.folder([
            "doc.xml": markup, "big.xml": #"<document font-size="20"><p>x</p><title>T</title></document>"#,
            "balance.xml": #"<document lang="ar"><label>DOWNLOAD تنزيل</label></document>"#,
            "titles.xml": #"<document lang="ar"><title>NEW جديد</title><title size="34">T</title><caption size="12">c</caption></document>"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func sizes(_ arguments: [String]) throws -> [[Double]] {
            let run = try L10nCLI.typeset(["layout"] + arguments, in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            // The sizes of each block, once each (a title may wrap onto two lines).
            return try L10nCLI.blocks(run.stdout).blocks.map { block in
                block.sizes.reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }
            }
        }
        #expect(try sizes(["doc.xml"]) == [[34], [17], [17], [12, 10]])
        #expect(try sizes(["doc.xml", "--text-size", "Large"]) == [[34], [17], [17], [12, 10]])
        // SPEC 5.3's table, every category (and one in lower case): body text at its body size;
        // a title, a caption at iOS's Large Title and Caption 1 for it (a title grows less than
        // the body at the accessibility sizes, a caption more); a size in the markup (the caption's span of 10 pt) as
        // its element's text style, as UIFontMetrics(forTextStyle:) scales a custom size.
        let table: [(String, body: Double, title: Double, caption: Double)] = [
            ("xSmall", 14, 31, 11), ("Small", 15, 32, 11), ("Medium", 16, 33, 11), ("xLarge", 19, 36, 14),
            ("xxLarge", 21, 38, 16), ("xxxLarge", 23, 40, 18), ("AX1", 28, 44, 22), ("AX2", 33, 48, 26),
            ("AX3", 40, 52, 32), ("AX4", 47, 56, 37), ("AX5", 53, 60, 43), ("ax1", 28, 44, 22),
        ]
        for (name, body, title, caption) in table {
            let expected = [[title], [body], [body], [caption, 10 * caption / 12]]
            let got = try sizes(["doc.xml", "--text-size", name])
            #expect(zip(got.joined(), expected.joined()).allSatisfy { abs($0 - $1) < 0.01 }, "\(name): \(got)")
            #expect(got.map(\.count) == expected.map(\.count))
        }
        // RTL balancing (SPEC 4.3) grows with the text: 2 pt at Large, 2 × 28/17 pt at AX1.
        #expect(try sizes(["balance.xml"]).map { $0.sorted() } == [[17, 19]])
        #expect(try sizes(["balance.xml", "--text-size", "AX1"]).map { $0.sorted() } == [[28, 31.29]])
        // A title's balance, and a title's or caption's size in the markup, grow as a title or
        // caption does: a title of size 34 was 106 pt at AX5 (the default's 60), a caption of
        // size 12 was 37.41 pt (the default's 43), and a title's balance 6.24 pt (2 × 53/17).
        #expect(try sizes(["titles.xml", "--text-size", "AX5"]).map { $0.sorted() } == [[60, 63.53], [60], [43]])
        // A document's own body size scales too: 20 × 28/17, and the title 44 × 20/17.
        #expect(
            try sizes(["big.xml", "--text-size", "AX1"]).joined().map { ($0 * 100).rounded() / 100 } == [32.94, 51.76])
    }

    @Test(arguments: [
        ["layout", "doc.xml", "--text-size", "Huge"],
        ["layout", "doc.xml", "--locale", "not a tag"],
        // Empty subtags, which the `lang` attribute refuses too (they passed as `ar`, `ar-EG`).
        ["layout", "doc.xml", "--locale", "ar-"],
        ["layout", "doc.xml", "--locale", "-ar"],
        ["layout", "doc.xml", "--locale", "ar--EG"],
        // Digits typeset does not show, as numerals="thai" is refused.
        ["layout", "doc.xml", "--locale", "ar-u-nu-thai"],
        ["sheet", "doc.xml", "-o", "s.pdf", "--locales", "en,ar-EG-"],
        ["render", "doc.xml", "--shard", "3/2"],
        ["render", "doc.xml", "--shard", "0/2"],
        ["render", "doc.xml", "--jobs", "0"],
    ])
    func usageErrorsExitWithTwo(arguments: [String]) throws {
        let folder = try L10nCLI.folder(["doc.xml": markup])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(arguments, in: folder)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["doc.xml"])
    }

    @Test func localeWithAnUnderscoreIsAccepted() throws {
        let folder = try L10nCLI.folder(["doc.xml": markup, "Localizable.xcstrings": xcstrings])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(
            ["layout", "doc.xml", "--strings", "Localizable.xcstrings", "--locale", "ar_EG"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try L10nCLI.blocks(run.stdout).blocks.first?.text == "الضبط")
        // A language's name is no locale: refused, where it would have been a silent English mockup.
        for arguments in [["layout", "doc.xml", "--locale", "arabic"], ["sheet", "doc.xml", "-o", "s.pdf", "--locales", "en,Hebrew"]] {
            let name = try L10nCLI.typeset(arguments, in: folder)
            #expect(name.status == 2 && name.stderr.contains("codes have 2 or 3 (ISO 639); did you mean '"), "\(name.stderr)")
        }
    }
}

// MARK: - Batches and shards

private func batchFiles(count: Int, bad: Set<Int>) -> [String: String] {
    var files: [String: String] = [:]
    for i in 1...count {
        let name = String(format: "in/doc%02d.xml", i)
        files[name] =
            bad.contains(i)
            ? "<document>\n  <p>broken</q>\n</document>\n"
            : "<document lang=\"\(i % 2 == 0 ? "ar" : "en")\"><title>Screen \(i)</title><p>نص \(i)</p></document>\n"
    }
    return files
}

@Suite struct BatchCommandTests {
    @Test func oneBadInputLosesNothingElse() throws {
        let folder = try L10nCLI.folder(batchFiles(count: 12, bad: [7]))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = (1...12).map { String(format: "in/doc%02d.xml", $0) }
        let run = try L10nCLI.typeset(
            ["render"] + inputs + ["--out-dir", "out", "--jobs", "3", "--format", "svg"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("in/doc07.xml:2:12: error:"), "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.last == "rendered 11 of 12 inputs; failed: in/doc07.xml")
        // Not on a terminal: no progress line.
        #expect(!run.stderr.contains("\r") && !run.stderr.contains("\u{1B}"))
        let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        #expect(written == (1...12).filter { $0 != 7 }.map { String(format: "doc%02d.svg", $0) })
        for name in written {
            let check = try runProgram(
                "/usr/bin/rsvg-convert", ["-o", folder + "/check.png", folder + "/out/" + name])
            #expect(check.status == 0, "\(name): \(check.stderr)")
        }
    }

    /// A render of fewer pages than the last leaves its later page files: they are named, not
    /// removed (beside an input, `doc-2.png` may be the user's own), unless another input of the
    /// run writes there.
    @Test func pageFilesOfAnEarlierLongerRenderAreNamed() throws {
        let long = "<document height=\"100\">" + String(repeating: "<p>Paragraph.</p>", count: 12) + "</document>"
        let folder = try L10nCLI.folder(["doc.xml": long, "other.xml": "<document><p>Other.</p></document>"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try L10nCLI.typeset(["render", "doc.xml", "--out-dir", "out", "--format", "png", "--scale", "0.5"], in: folder)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").count
        #expect(pages >= 3)
        try "<document><p>Short.</p></document>".write(toFile: folder + "/doc.xml", atomically: true, encoding: .utf8)
        let second = try L10nCLI.typeset(["render", "doc.xml", "--out-dir", "out", "--format", "png", "--scale", "0.5"], in: folder)
        #expect(second.status == 0)
        #expect(second.stderr == "doc.xml:1:1: warning: 'out/doc-2.png' to 'out/doc-\(pages).png' are left from an earlier "
            + "render of more pages (this one has 1 page); remove them\n", "\(second.stderr)")
        // -o: the same, said once.
        let one = try L10nCLI.typeset(["render", "doc.xml", "other.xml", "-o", "out/doc.png", "--scale", "0.5"], in: folder)
        #expect(one.stderr.contains("typeset: warning: 'out/doc-3.png' to 'out/doc-\(pages).png' are left"), "\(one.stderr)")
    }

    @Test func batchOutputIsTheSameWhateverTheJobs() throws {
        let folder = try L10nCLI.folder(batchFiles(count: 6, bad: []))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = (1...6).map { String(format: "in/doc%02d.xml", $0) }
        for jobs in ["1", "4"] {
            let run = try L10nCLI.typeset(
                ["render"] + inputs + ["--out-dir", "out" + jobs, "--jobs", jobs], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == "rendered 6 of 6 inputs\n")
        }
        for i in 1...6 {
            let name = String(format: "/doc%02d.pdf", i)
            let one = try #require(FileManager.default.contents(atPath: folder + "/out1" + name), "\(name) missing")
            let four = try #require(FileManager.default.contents(atPath: folder + "/out4" + name), "\(name) missing")
            #expect(one == four, "\(name) differs")
        }
    }

    @Test func shardsSliceTheInputsDeterministically() throws {
        let folder = try L10nCLI.folder(batchFiles(count: 7, bad: []))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = (1...7).map { String(format: "in/doc%02d.xml", $0) }
        var all: [String] = []
        for k in 1...3 {
            let run = try L10nCLI.typeset(
                ["render"] + inputs + ["--out-dir", "out\(k)", "--shard", "\(k)/3"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/out\(k)").sorted()
            // Every third input, from the k-th.
            #expect(written == stride(from: k, through: 7, by: 3).map { String(format: "doc%02d.pdf", $0) })
            all += written
        }
        #expect(all.sorted() == (1...7).map { String(format: "doc%02d.pdf", $0) })
    }

    @Test func anEmptyShardRendersNothingAndSaysSo() throws {
        let folder = try L10nCLI.folder(batchFiles(count: 2, bad: []))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try L10nCLI.typeset(["render", "in/doc01.xml", "in/doc02.xml", "--out-dir", "out", "--shard", "3/3"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr == "rendered 0 of 0 inputs\n")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? [] == [])
    }

    /// Two inputs that would write one file both fail, at their first line, and the rest of
    /// the batch is rendered (one duplicate name refused a whole CI batch, as a usage error).
    @Test func inputsThatWouldOverwriteEachOtherAreRefused() throws {
        let folder = try L10nCLI.folder([
            "a/screen.xml": "<document><p>a</p></document>", "b/screen.xml": "<document><p>b</p></document>",
            "a/other.xml": "<document><p>c</p></document>",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // (b/screen.xml given again, however spelt, is one input still.)
        let run = try L10nCLI.typeset(
            ["render", "a/screen.xml", "b/screen.xml", "a/other.xml", "./b/screen.xml", "b/screen.xml", "--out-dir", "out", "--jobs", "1"],
            in: folder)
        #expect(run.status == 1)
        let message = "'a/screen.xml' and 'b/screen.xml' would both be written to 'out/screen.pdf'"
        #expect(run.stderr.contains("a/screen.xml:1:1: error: \(message)"), "\(run.stderr)")
        #expect(run.stderr.contains("b/screen.xml:1:1: error: \(message)"), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("rendered 1 of 3 inputs; failed: a/screen.xml, b/screen.xml\n"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out/screen.pdf"))
        #expect(FileManager.default.fileExists(atPath: folder + "/out/other.pdf"))

        // Page 2 of a.xml would be a-2.svg, the output of a-2.xml: a.xml fails, a-2.xml renders.
        let paged = try L10nCLI.folder([
            "a.xml": "<document device=\"iphone-se\">"
                + String(repeating: "<p>a</p><spacer height=\"480\"/>", count: 3) + "</document>",
            "a-2.xml": "<document><p>second input</p></document>",
        ])
        defer { try? FileManager.default.removeItem(atPath: paged) }
        for jobs in ["1", "2"] {
            let clash = try L10nCLI.typeset(["render", "a.xml", "a-2.xml", "--format", "svg", "--jobs", jobs], in: paged)
            #expect(clash.status == 1)
            #expect(
                clash.stderr.contains(
                    "a.xml:1:1: error: page 2 would be written to './a-2.svg', the output of 'a-2.xml'"),
                "\(clash.stderr)")
            #expect(files(in: paged) == ["a-2.svg", "a-2.xml", "a.xml"])
            #expect(try String(contentsOfFile: paged + "/a-2.svg", encoding: .utf8).contains("second input"))
        }
        // Alone too: a.xml replaced a-2.xml's a-2.svg with its own page 2, without a word.
        let alone = try L10nCLI.typeset(["render", "a.xml", "--format", "svg"], in: paged)
        // (Its hint is one that helps: this is a.xml rendered alone, and "render them
        // separately" was the hint. Another folder does not help either: a-2.xml's output would
        // go there too.)
        #expect(alone.status == 1 && alone.stderr.contains(
            "page 2 would be written to './a-2.svg', the output of 'a-2.xml'; rename one of them, or name the output otherwise with -o"), "\(alone)")
        #expect(try String(contentsOfFile: paged + "/a-2.svg", encoding: .utf8).contains("second input"))
        #expect(try L10nCLI.typeset(["render", "a.xml", "--format", "svg", "--out-dir", "elsewhere"], in: paged).status == 1)
        // With -o too; and a folder so named is no markup.
        let one = try L10nCLI.typeset(["render", "a.xml", "-o", "a.svg"], in: paged)
        #expect(one.status == 1 && one.stderr.contains(
            "page 2 of 'a.svg' would be written to 'a-2.svg', the output of 'a-2.xml'; name the output otherwise (-o) or rename one of them"), "\(one)")
        #expect(try L10nCLI.typeset(["render", "a.xml", "-o", "pages.svg"], in: paged).status == 0)
        #expect(try String(contentsOfFile: paged + "/a-2.svg", encoding: .utf8).contains("second input"))
        // And a sheet of several pages (its page 2 replaced a-2.svg, unsaid).
        let sheet = try L10nCLI.typeset(
            ["sheet", "a.xml", "-o", "a.svg", "--locales", "en,ar,he,fr,de,ja",
             "--text-sizes", "xSmall,Small,Medium,Large,xLarge,xxLarge,xxxLarge,AX1,AX2,AX3,AX4,AX5"], in: paged)
        #expect(sheet.status == 1 && sheet.stderr.contains("page 2 of 'a.svg' would be written to 'a-2.svg', the output of 'a-2.xml'"), "\(sheet)")
        #expect(try String(contentsOfFile: paged + "/a-2.svg", encoding: .utf8).contains("second input"))
        #expect(!FileManager.default.fileExists(atPath: paged + "/a.svg"))
        // A screen named with a capital extension is one too.
        try FileManager.default.moveItem(atPath: paged + "/a-2.xml", toPath: paged + "/a-2.XML")
        let capital = try L10nCLI.typeset(["render", "a.xml", "-o", "a.svg"], in: paged)
        #expect(capital.status == 1 && capital.stderr.contains("the output of 'a-2.XML'"), "\(capital)")
        try FileManager.default.moveItem(atPath: paged + "/a-2.XML", toPath: paged + "/a-2.Xml")
        let mixed = try L10nCLI.typeset(["render", "a.xml", "-o", "a.svg"], in: paged)
        #expect(mixed.status == 1 && mixed.stderr.contains("the output of 'a-2.Xml'"), "\(mixed)")
        try FileManager.default.moveItem(atPath: paged + "/a-2.Xml", toPath: paged + "/a-2.xml")
        try FileManager.default.removeItem(atPath: paged + "/a-2.xml")
        try FileManager.default.createDirectory(atPath: paged + "/a-2.xml", withIntermediateDirectories: false)
        #expect(try L10nCLI.typeset(["render", "a.xml", "-o", "b.svg"], in: paged).status == 0)
        try FileManager.default.removeItem(atPath: paged + "/a-2.xml")
        #expect(try L10nCLI.typeset(["render", "a.xml", "--format", "svg"], in: paged).status == 0)
        #expect(files(in: paged).filter { $0.hasPrefix("a-") } == ["a-2.svg", "a-3.svg"])
        // The markup is named where it is.
        try FileManager.default.createDirectory(atPath: paged + "/sub", withIntermediateDirectories: false)
        try "<document device=\"iphone-se\"><p>a</p><spacer height=\"480\"/><p>b</p></document>".write(toFile: paged + "/sub/a.xml", atomically: true, encoding: .utf8)
        try "<document><p>x</p></document>".write(toFile: paged + "/sub/a-2.xml", atomically: true, encoding: .utf8)
        let sub = try L10nCLI.typeset(["render", "sub/a.xml", "--format", "svg"], in: paged)
        #expect(sub.stderr.contains("the output of 'sub/a-2.xml'"), "\(sub)")
    }
}
