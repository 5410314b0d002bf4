// The outcome of one Unicode conformance file (SPEC 5.8): counted cases and the first failures.

public struct ConformanceResult: Sendable {
    /// The file's name, e.g. "BidiTest.txt".
    public var name: String
    public var passed = 0
    public var failed = 0
    /// The first failures, each with its line number, input, expected and actual result.
    public var failures: [Failure] = []

    /// A failed case: its line in the file, and what went wrong (`line 4: …` as text).
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The Unicode version the file says it is of, on its first line (`# BidiTest-15.0.0.txt`).
    public var version: String?

    public init(name: String) { self.name = name }
    public var total: Int { passed + failed }

    /// How many cases each test file of a Unicode version holds (a BidiTest.txt line counts
    /// once per paragraph direction in its bitset). Tables made from another version's UCD
    /// need that version's counts here.
    static let caseCounts = [
        "15.0.0": [
            "BidiTest.txt": 770_241, "BidiCharacterTest.txt": 91_707, "LineBreakTest.txt": 7_654,
            "GraphemeBreakTest.txt": 602,
        ]
    ]

    /// Why this run does not show that every case of the file was run: nil when it ran exactly
    /// as many as the file of the built-in tables' Unicode version (`unicodeVersion`) holds. A
    /// file cut short, or partly read, passes every case it has; only the count shows it.
    public var shortfall: String? {
        guard let version else {
            return "its first line is not '# \(stem)-\(unicodeVersion).txt': cannot tell whether every case is here"
        }
        guard version == unicodeVersion else {
            return "this is the file of Unicode \(version); the built-in algorithms are Unicode \(unicodeVersion)'s"
        }
        guard let expected = Self.caseCounts[version]?[name] else {
            return "how many cases Unicode \(version)'s \(name) holds is not known (ConformanceResult.caseCounts)"
        }
        guard total == expected else {
            return "ran \(total) cases, and Unicode \(version)'s \(name) holds \(expected): the file is cut short or changed"
        }
        return nil
    }

    /// The file's name without ".txt", as its version line has it.
    private var stem: String { name.hasSuffix(".txt") ? String(name.dropLast(4)) : name }

    /// Reads the version from the file's first line, `# NAME-VERSION.txt`.
    mutating func readVersion(_ firstLine: Substring?) {
        guard let line = firstLine?.trimming(\.isWhitespace), line.hasPrefix("# \(stem)-"), line.hasSuffix(".txt")
        else { return }
        version = String(line.dropFirst(stem.count + 3).dropLast(4))
    }

    /// Counts a case of the file's line `line`; `failure` says what went wrong when it failed.
    mutating func record(_ ok: Bool, line: Int, _ failure: @autoclosure () -> String) {
        if ok {
            passed += 1
        } else {
            failed += 1
            if failures.count < 20 { failures.append(Failure(line: line, message: failure())) }
        }
    }

    /// `NAME: N passed, N failed`
    public var summary: String { "\(name): \(passed) passed, \(failed) failed" }
}

/// A conformance file that cannot be read.
public struct ConformanceError: Error, CustomStringConvertible {
    public var path: String
    /// What went wrong, without the path.
    public var reason: String
    public var description: String { "\(path): \(reason)" }

    static func unreadable(_ path: String) -> ConformanceError {
        ConformanceError(
            path: path, reason: "cannot read this Unicode test file (Debian's unicode-data package installs it; or pass --unicode-dir)")
    }
}
