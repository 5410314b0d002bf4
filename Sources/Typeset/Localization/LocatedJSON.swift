// A strict JSON reader (RFC 8259) that keeps the line and column of every value, so that a
// broken or mistyped string catalog (SPEC 5.2) is reported where the problem is. Foundation's
// JSONSerialization gives neither on Linux.

/// A JSON value with the place it starts at (line and column from 1, columns in Unicode scalars).
struct LocatedJSON {
    enum Value {
        case object([(key: String, value: LocatedJSON)])
        case array([LocatedJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var value: Value
    var line: Int
    var column: Int

    /// The members of an object in file order, each name once: of one given twice, the later
    /// value (as Foundation's reading keeps it; a catalog's is warned about: `StringCatalog`),
    /// where the first stands (a variation's kinds are read first to last). Nil for any other
    /// value.
    var members: [(key: String, value: LocatedJSON)]? {
        guard case .object(let all) = value else { return nil }
        // Most objects name each member once: passed on as they are (a small one compared
        // pairwise: a set for each of a catalog's 200,000 entries made reading it 40% slower).
        let repeated = all.count <= 16
            ? all.indices.contains { i in all[..<i].contains { $0.key == all[i].key } }
            : Set(all.map(\.key)).count < all.count
        guard repeated else { return all }
        var first: [String: Int] = [:]
        var kept: [(key: String, value: LocatedJSON)] = []
        for member in all {
            if let at = first[member.key] {
                kept[at].value = member.value
            } else {
                first[member.key] = kept.count
                kept.append(member)
            }
        }
        return kept
    }

    /// The members of an object in file order, a name given twice twice; nil for any other value.
    var allMembers: [(key: String, value: LocatedJSON)]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The last member named `key` of an object, as Foundation's reading keeps it (a catalog's
    /// member given twice, a merge's leftover, is warned about: `StringCatalog.repeatedMembers`).
    subscript(key: String) -> LocatedJSON? {
        allMembers?.last { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// What the value is, for messages ("a number", "an object", ...).
    var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// A syntax error at a line and column.
    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    /// Nesting deeper than this is refused rather than risking the stack on hostile input.
    static let maximumDepth = 512

    /// Parses a whole document (a UTF-8 byte-order mark is skipped).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> LocatedJSON {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: message, line: line, column: column)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func advance() {
            SourceLocation.advance(&line, &column, past: index, in: bytes)
            index += 1
        }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { advance() }
        }

        /// What the next character is, for messages.
        func describeCurrent() -> String {
            guard let c = current else { return "the end of the file" }
            if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
            return "byte " + hexByte(c)
        }

        mutating func value(depth: Int) throws(SyntaxError) -> LocatedJSON {
            guard depth < LocatedJSON.maximumDepth else {
                throw error("JSON nested deeper than \(LocatedJSON.maximumDepth) levels")
            }
            let (line, column) = (self.line, self.column)
            func located(_ value: Value) -> LocatedJSON { LocatedJSON(value: value, line: line, column: column) }
            switch current {
            case UInt8(ascii: "{"):
                advance()
                var members: [(key: String, value: LocatedJSON)] = []
                skipSpace()
                if current == UInt8(ascii: "}") {
                    advance()
                    return located(.object(members))
                }
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\"") else {
                        throw error("expected a quoted member name, found \(describeCurrent())")
                    }
                    let key = try string()
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { throw error("expected ':', found \(describeCurrent())") }
                    advance()
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        advance()
                        continue
                    }
                    guard current == UInt8(ascii: "}") else {
                        throw error("expected ',' or '}', found \(describeCurrent())")
                    }
                    advance()
                    return located(.object(members))
                }
            case UInt8(ascii: "["):
                advance()
                var elements: [LocatedJSON] = []
                skipSpace()
                if current == UInt8(ascii: "]") {
                    advance()
                    return located(.array(elements))
                }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if current == UInt8(ascii: ",") {
                        advance()
                        continue
                    }
                    guard current == UInt8(ascii: "]") else {
                        throw error("expected ',' or ']', found \(describeCurrent())")
                    }
                    advance()
                    return located(.array(elements))
                }
            case UInt8(ascii: "\""):
                return located(.string(try string()))
            case UInt8(ascii: "t"):
                try literal("true")
                return located(.bool(true))
            case UInt8(ascii: "f"):
                try literal("false")
                return located(.bool(false))
            case UInt8(ascii: "n"):
                try literal("null")
                return located(.null)
            case let c? where c == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c):
                return located(.number(try number()))
            default:
                throw error("expected a JSON value, found \(describeCurrent())")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let start = error("expected a JSON value")
            for c in word.utf8 {
                guard current == c else { throw start }
                advance()
            }
        }

        mutating func number() throws(SyntaxError) -> Double {
            let start = index
            let startError = error("malformed number")
            if current == UInt8(ascii: "-") { advance() }
            func digits(_ reader: inout Reader) -> Int {
                var count = 0
                while let c = reader.current, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                    reader.advance()
                    count += 1
                }
                return count
            }
            if current == UInt8(ascii: "0") {
                advance()
            } else if digits(&self) == 0 {
                throw startError
            }
            if current == UInt8(ascii: ".") {
                advance()
                guard digits(&self) > 0 else { throw startError }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                advance()
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
                guard digits(&self) > 0 else { throw startError }
            }
            guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { throw startError }
            return value
        }

        /// A quoted string; `current` is its opening quote.
        mutating func string() throws(SyntaxError) -> String {
            let unterminated = error("unterminated string")
            advance()
            // UTF-8 gathered as bytes, decoded once: String.UnicodeScalarView's append(contentsOf:)
            // makes a new string each time, and a catalog string of 2 MiB with an escape every few
            // characters took 8 s to read (4 MiB, 30 s).
            var utf8: [UInt8] = []
            var runStart = index
            func flushRun(_ reader: Reader, upTo end: Int, into utf8: inout [UInt8]) {
                if runStart < end { utf8.append(contentsOf: reader.bytes[runStart..<end]) }
            }
            while true {
                guard let c = current else { throw unterminated }
                if c == UInt8(ascii: "\"") {
                    flushRun(self, upTo: index, into: &utf8)
                    advance()
                    return String(decoding: utf8, as: UTF8.self)
                }
                if c < 0x20 {
                    throw error(
                        c == 0x0A ? "line break inside a string (write \\n)" : "control character inside a string")
                }
                if c == UInt8(ascii: "\\") {
                    flushRun(self, upTo: index, into: &utf8)
                    let escapeError = error("invalid escape")
                    advance()
                    guard let e = current else { throw unterminated }
                    advance()
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        var value = try hex4(escapeError)
                        if (0xD800..<0xDC00).contains(value) {
                            // A high surrogate must be followed by an escaped low surrogate.
                            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                                bytes[index + 1] == UInt8(ascii: "u")
                            else {
                                throw SyntaxError(
                                    message: "unpaired surrogate in \\u escape", line: escapeError.line,
                                    column: escapeError.column)
                            }
                            advance()
                            advance()
                            let low = try hex4(escapeError)
                            guard (0xDC00..<0xE000).contains(low) else {
                                throw SyntaxError(
                                    message: "unpaired surrogate in \\u escape", line: escapeError.line,
                                    column: escapeError.column)
                            }
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(value) else {
                            throw SyntaxError(
                                message: "unpaired surrogate in \\u escape", line: escapeError.line,
                                column: escapeError.column)
                        }
                        UTF8.encode(scalar) { utf8.append($0) }
                    default:
                        throw escapeError
                    }
                    runStart = index
                    continue
                }
                advance()
            }
        }

        mutating func hex4(_ failure: SyntaxError) throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let c = current, let digit = hexDigit(c) else {
                    throw SyntaxError(
                        message: "\\u needs four hexadecimal digits", line: failure.line, column: failure.column)
                }
                value = value * 16 + digit
                advance()
            }
            return value
        }
    }
}

/// The value of an ASCII hexadecimal digit.
func hexDigit(_ c: UInt8) -> UInt32? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
    default: nil
    }
}
