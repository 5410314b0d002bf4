// String catalogs (SPEC 5.2): Apple String Catalogs (.xcstrings), .strings files, and JSON
// objects of key → text, with locale fallback ar-EG → ar → the catalog's source language.

import Foundation

public struct StringCatalog: Sendable {
    /// Language → key → text. Single-language files (.strings, plain JSON) use the key "".
    public var tables: [String: [String: String]]
    /// The catalog's source language (.xcstrings), the last fallback.
    public var sourceLanguage: String?

    /// The strings for `locale`, falling back by truncating subtags, then to the source language;
    /// a key missing in the locale's table is taken from the next one in that chain.
    public func strings(locale: String?) -> [String: String] {
        var chain: [String] = []
        if let locale {
            var parts = locale.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
            while !parts.isEmpty {
                chain.append(parts.joined(separator: "-"))
                parts.removeLast()
            }
        }
        if let sourceLanguage { chain.append(sourceLanguage) }
        chain.append("")
        var result: [String: String] = [:]
        for language in chain.reversed() {
            let table = tables[language] ?? tables.first { $0.key.lowercased() == language.lowercased() }?.value ?? [:]
            result.merge(table) { _, new in new }
        }
        return result
    }

    /// Reads a catalog; a broken one throws a Diagnostic naming the file (and line and column
    /// where they can be known).
    public static func load(path: String) throws -> StringCatalog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic.error(SourceLocation(file: path, line: 1, column: 1), "cannot read the string catalog")
        }
        if path.hasSuffix(".strings") {
            var parser = StringsFileParser(bytes: Array(data), file: path)
            return StringCatalog(tables: ["": try parser.parse()], sourceLanguage: nil)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let (line, column) = jsonErrorLocation(error)
            throw Diagnostic.error(SourceLocation(file: path, line: line, column: column), "the string catalog is not valid JSON")
        }
        guard let root = object as? [String: Any] else {
            throw Diagnostic.error(SourceLocation(file: path, line: 1, column: 1), "the string catalog must be a JSON object")
        }
        if path.hasSuffix(".xcstrings") || (root["strings"] is [String: Any] && root["sourceLanguage"] is String) {
            return try xcstrings(root, path: path)
        }
        var table: [String: String] = [:]
        for (key, value) in root {
            guard let text = value as? String else {
                throw Diagnostic.error(SourceLocation(file: path, line: 1, column: 1), "the value of key '\(key)' is not a string")
            }
            table[key] = text
        }
        return StringCatalog(tables: ["": table], sourceLanguage: nil)
    }

    /// Apple String Catalog: strings → key → localizations → language → stringUnit.value, or
    /// variations.plural.other.stringUnit.value for pluralized strings.
    private static func xcstrings(_ root: [String: Any], path: String) throws -> StringCatalog {
        let source = root["sourceLanguage"] as? String
        guard let strings = root["strings"] as? [String: Any] else {
            throw Diagnostic.error(SourceLocation(file: path, line: 1, column: 1), "an .xcstrings catalog needs a \"strings\" object")
        }
        var tables: [String: [String: String]] = [:]
        for (key, entry) in strings {
            guard let entry = entry as? [String: Any] else { continue }
            let localizations = entry["localizations"] as? [String: Any] ?? [:]
            for (language, localization) in localizations {
                guard let localization = localization as? [String: Any] else { continue }
                if let unit = localization["stringUnit"] as? [String: Any], let value = unit["value"] as? String {
                    tables[language, default: [:]][key] = value
                } else if let variations = localization["variations"] as? [String: Any],
                    let plural = variations["plural"] as? [String: Any],
                    let other = plural["other"] as? [String: Any],
                    let unit = other["stringUnit"] as? [String: Any], let value = unit["value"] as? String
                {
                    tables[language, default: [:]][key] = value
                }
            }
            // A key without a source-language localization is its own source text.
            if let source, tables[source]?[key] == nil, localizations[source] == nil {
                tables[source, default: [:]][key] = key
            }
        }
        return StringCatalog(tables: tables, sourceLanguage: source)
    }

    /// Foundation's JSON errors say "around line N, column M" in their description.
    private static func jsonErrorLocation(_ error: Error) -> (Int, Int) {
        let text = "\(error)"
        func number(after word: String) -> Int? {
            guard let r = text.range(of: word) else { return nil }
            return Int(text[r.upperBound...].prefix { $0.isNumber })
        }
        return (number(after: "line ") ?? 1, number(after: "column ") ?? 1)
    }
}

/// Parser of the old-style `.strings` format: `"key" = "value";` with /* */ and // comments and
/// the escapes \" \\ \n \t \r and \Uxxxx.
struct StringsFileParser {
    let bytes: [UInt8]
    let file: String
    private var index = 0
    private var line = 1
    private var column = 1

    init(bytes: [UInt8], file: String) {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
        self.file = file
    }

    private func error(_ message: String) -> Diagnostic {
        .error(SourceLocation(file: file, line: line, column: column), message)
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        index += 1
    }

    private mutating func skipSpaceAndComments() throws {
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") {
                advance()
            } else if c == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let start = error("unterminated comment")
                advance(); advance()
                while index + 1 < bytes.count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { advance() }
                guard index + 1 < bytes.count else { throw start }
                advance(); advance()
            } else if c == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { advance() }
            } else {
                return
            }
        }
    }

    private mutating func expect(_ c: Character) throws {
        try skipSpaceAndComments()
        guard index < bytes.count, bytes[index] == c.asciiValue else {
            throw error("expected '\(c)' in the .strings file")
        }
        advance()
    }

    private mutating func quoted() throws -> String {
        try skipSpaceAndComments()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted string") }
        let start = error("unterminated string")
        advance()
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw start }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                advance()
                break
            }
            if c == UInt8(ascii: "\\") {
                advance()
                guard index < bytes.count else { throw start }
                let e = bytes[index]
                advance()
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard index < bytes.count, let digit = UInt32(String(UnicodeScalar(bytes[index])), radix: 16) else {
                            throw error("\\U needs four hexadecimal digits")
                        }
                        value = value * 16 + digit
                        advance()
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw error("\\U\(String(value, radix: 16)) is not a character") }
                    out += Array(String(scalar).utf8)
                default: out.append(e)
                }
                continue
            }
            out.append(c)
            advance()
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func parse() throws -> [String: String] {
        var table: [String: String] = [:]
        while true {
            try skipSpaceAndComments()
            if index >= bytes.count { return table }
            let key = try quoted()
            try expect("=")
            table[key] = try quoted()
            try expect(";")
        }
    }
}
