// `snapshot --junit FILE`: the results as a JUnit XML report, which CI systems (GitLab,
// Jenkins, GitHub's test-report actions) show as a list of tests: one test case per markup
// file, and one per reference of no markup file or catalog that cannot be read, each failing
// one with its lines. No times, so that the same run writes the same bytes.
public struct JUnitReport: Sendable {
    public struct Case: Sendable {
        public var name: String
        /// The failure's lines; nil when it passed.
        public var failure: [String]?
        public init(name: String, failure: [String]?) {
            self.name = name
            self.failure = failure
        }
    }

    /// The suite's name: the command and folder checked.
    public var suite: String
    public var cases: [Case] = []

    public init(suite: String) {
        self.suite = suite
    }

    /// How a report of ours begins (`isOurs`: written over again, though named `.xml`).
    static let head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<testsuites name="typeset snapshot""#

    /// Whether the file at `path` is a report this command wrote.
    public static func isOurs(_ path: String) -> Bool {
        readFile(path, limit: head.utf8.count).map { $0.elementsEqual(head.utf8) } == true
    }

    public var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        var text = Self.head + #" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
        text += #"  <testsuite name="\#(Self.escaped(suite))" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
        for testCase in cases {
            text += #"    <testcase classname="\#(Self.escaped(suite))" name="\#(Self.escaped(testCase.name))""#
            guard let failure = testCase.failure else {
                text += "/>\n"
                continue
            }
            text += ">\n"
            text += #"      <failure message="\#(Self.escaped(failure.first ?? "failed"))">"#
            text += Self.escaped(failure.joined(separator: "\n")) + "</failure>\n"
            text += "    </testcase>\n"
        }
        return text + "  </testsuite>\n</testsuites>\n"
    }

    /// Writes the report whole or not at all, as every output is written.
    public func write(to path: String) throws {
        do {
            try AtomicFileWriter.write([(path, Array(xml.utf8))])
        } catch {
            throw RenderError.write(path: error.path, reason: error.reason)
        }
    }

    /// `text` as XML 1.0 character data or an attribute value: markup characters as
    /// references, characters XML cannot hold (controls but tab and line feed, lone
    /// surrogates' U+FFFD already, U+FFFE and U+FFFF) as U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
