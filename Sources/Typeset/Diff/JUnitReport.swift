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

    /// The cases that failed.
    public var failures: Int { cases.filter { $0.failure != nil }.count }

    /// How a report of ours begins (`isOurs`: written over again, though named `.xml`).
    static let head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<testsuites name="typeset snapshot""#

    /// Whether the file at `path` is a report this command wrote.
    public static func isOurs(_ path: String) -> Bool {
        readFile(path, limit: head.utf8.count).map { $0.elementsEqual(head.utf8) } == true
    }

    /// The report's XML (its text escaped as the SVG writer escapes text: `SVGText`).
    public var xml: [UInt8] {
        let failures = self.failures
        var xml = ByteBuffer()
        func text(_ text: String) { SVGText.appendEscaped(text, to: &xml) }
        xml.append(string: Self.head + #" tests="\#(cases.count)" failures="\#(failures)">"# + "\n")
        xml.append("  <testsuite name=\"")
        text(suite)
        xml.append(string: #"" tests="\#(cases.count)" failures="\#(failures)">"# + "\n")
        for testCase in cases {
            xml.append("    <testcase classname=\"")
            text(suite)
            xml.append("\" name=\"")
            text(testCase.name)
            guard let failure = testCase.failure else {
                xml.append("\"/>\n")
                continue
            }
            xml.append("\">\n      <failure message=\"")
            text(failure.first ?? "failed")
            xml.append("\">")
            text(failure.joined(separator: "\n"))
            xml.append("</failure>\n    </testcase>\n")
        }
        xml.append("  </testsuite>\n</testsuites>\n")
        return xml.bytes
    }

    /// Writes the report whole or not at all, as every output is written.
    public func write(to path: String) throws {
        do {
            try AtomicFileWriter.write([(path, xml)])
        } catch {
            throw RenderError.write(path: error.path, reason: error.reason)
        }
    }
}
