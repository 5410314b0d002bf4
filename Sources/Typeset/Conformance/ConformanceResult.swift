// The outcome of one Unicode conformance file (SPEC 5.8): counted cases and the first failures.

public struct ConformanceResult: Sendable {
    /// The file's name, e.g. "BidiTest.txt".
    public var name: String
    public var passed = 0
    public var failed = 0
    /// The first failures, each with its line number, input, expected and actual result.
    public var failures: [String] = []

    public init(name: String) { self.name = name }
    public var total: Int { passed + failed }

    mutating func record(_ ok: Bool, _ failure: @autoclosure () -> String) {
        if ok {
            passed += 1
        } else {
            failed += 1
            if failures.count < 20 { failures.append(failure()) }
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
