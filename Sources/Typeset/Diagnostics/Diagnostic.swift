// Diagnostics as values (SPEC §5): every stage reports into a sink; the CLI prints them once.

/// A place in a source file; line and column count from 1 (columns in Unicode scalars).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
    public var description: String { "\(file):\(line):\(column)" }

    /// Moves `line` and `column` past `bytes[index]` of a UTF-8 file: LF, CR and CRLF each end
    /// a line (the CR of a CRLF does; its LF is on the new line's start), and columns count
    /// scalars from 1. Every reader of markup and catalogs counts so.
    @inline(__always)
    static func advance(_ line: inout Int, _ column: inout Int, past index: Int, in bytes: [UInt8]) {
        let byte = bytes[index]
        if byte == 0x0D || byte == 0x0A && (index == 0 || bytes[index - 1] != 0x0D) {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 && byte != 0x0A {
            column += 1
        }
    }
}

public enum Severity: String, Sendable {
    case error, warning
}

/// One problem found in an input, printed as `FILE:LINE:COLUMN: error: MESSAGE`.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    /// A suggestion appended to the message ("did you mean 'caption'?").
    public var hint: String?

    public init(_ severity: Severity, _ location: SourceLocation, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = Self.shortened(message)
        self.hint = hint.map(Self.shortened)
    }

    /// Messages quote the input ("unknown element 'x'"): a part of a message, between quotes
    /// or not, longer than `longestPart` characters keeps its first and last `longestQuote`
    /// around an ellipsis (a 5 MB element name made 15 MB of errors). An apostrophe in the prose
    /// shifts which parts are quotes, so the length alone decides: no message's own words run
    /// that long. The end is kept for the reason after an unquoted path ("cannot write
    /// pages/bbb…b-2.png: its name is longer than …" lost the reason).
    static let longestQuote = 80
    static let longestPart = 320

    public static func shortened(_ message: String) -> String {
        guard message.utf8.count > longestPart else { return message }
        return message.split(separator: "'", omittingEmptySubsequences: false).map { part in
            part.count > longestPart ? part.prefix(longestQuote) + "…" + part.suffix(longestQuote) : part
        }.joined(separator: "'")
    }

    public static func error(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, location, message, hint: hint)
    }
    public static func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, location, message, hint: hint)
    }

    /// The message with its hint after it in brackets, as every output shows them.
    public var messageWithHint: String { hint.map { "\(message) (\($0))" } ?? message }

    /// One line (`singleLine`), as a compiler's.
    public var description: String { singleLine("\(location): \(severity.rawValue): \(messageWithHint)") }
}

/// Collects the diagnostics of one input, so that one run reports every problem.
public struct Diagnostics: Sendable {
    public private(set) var items: [Diagnostic] = []
    /// How many of `items` are errors.
    public private(set) var errorCount = 0
    public init() {}
    public mutating func report(_ diagnostic: Diagnostic) {
        items.append(diagnostic)
        if diagnostic.severity == .error { errorCount += 1 }
    }
    public mutating func append(contentsOf other: Diagnostics) {
        items += other.items
        errorCount += other.errorCount
    }
    /// Puts `diagnostic` in the place of the item at `index` (a warning whose words are known
    /// only later: `MissingCharacterWarnings`).
    mutating func replace(at index: Int, with diagnostic: Diagnostic) {
        errorCount += (diagnostic.severity == .error ? 1 : 0) - (items[index].severity == .error ? 1 : 0)
        items[index] = diagnostic
    }
    /// Puts the items in the order of the input (by line, then column), as a compiler lists
    /// them; those at one place keep their order.
    mutating func sortByLocation() {
        guard items.count > 1 else { return }
        items = items.enumerated().sorted {
            ($0.element.location.line, $0.element.location.column, $0.offset)
                < ($1.element.location.line, $1.element.location.column, $1.offset)
        }.map(\.element)
    }
    /// Drops what comes after the `limit`th error; true when there was any.
    mutating func keepErrors(upTo limit: Int) -> Bool {
        guard errorCount > limit else { return false }
        var errors = 0
        let end = items.firstIndex { item in
            if item.severity == .error { errors += 1 }
            return errors > limit
        } ?? items.count
        items.removeSubrange(end...)
        errorCount = limit
        return true
    }

    /// The items as standard error shows them: past the first `sameLimit` warnings of one
    /// message (and hint), one line says how many more there are and where the last is, and
    /// past `limit` lines of warnings, one line the rest. Errors all stay (the parser stops at
    /// `MarkupParser.maximumErrors`). A document of 20,000 `<spacer size="8"/>` printed 20,000
    /// lines and buried its errors; the layout JSON keeps every one.
    public func condensed(sameLimit: Int = 10, limit: Int = 200) -> [Diagnostic] {
        var lines: [Diagnostic] = []
        var warningLines = 0
        var seen: [String: Int] = [:]
        // A message's repeats past `sameLimit`: where its line goes, how many, the last's place.
        var repeats: [String: (line: Int, count: Int, last: SourceLocation)] = [:]
        var rest: (count: Int, last: SourceLocation)?
        for item in items {
            guard item.severity == .warning else {
                lines.append(item)
                continue
            }
            let key = item.messageWithHint
            let count = seen[key, default: 0] + 1
            seen[key] = count
            if count > sameLimit, let known = repeats[key] {
                repeats[key] = (known.line, known.count + 1, item.location)
            } else if warningLines >= limit {
                // Every warning from here on, but the repeats of a message all of whose first
                // `sameLimit` were shown.
                rest = ((rest?.count ?? 0) + 1, item.location)
            } else {
                if count > sameLimit { repeats[key] = (lines.count, 1, item.location) }
                lines.append(item)  // (a repeat's line, told below)
                warningLines += 1
            }
        }
        for (key, more) in repeats {
            lines[more.line] = .warning(
                more.last, "… and \(more.count) more time\(more.count == 1 ? "" : "s"), the last here: \(key)")
        }
        if let rest {
            lines.append(.warning(rest.last, "… and \(rest.count) more warning\(rest.count == 1 ? "" : "s"), the last here"))
        }
        return lines
    }

    public var hasErrors: Bool { errorCount > 0 }
    public var errors: [Diagnostic] { items.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { items.filter { $0.severity == .warning } }
}
