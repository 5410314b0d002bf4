// Runs LineBreakTest.txt (UAX #14) and GraphemeBreakTest.txt (UAX #29) against the built-in
// breakers (SPEC 5.8).
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConformanceResult {
    /// Runs every case of LineBreakTest.txt against `LineBreaker.opportunities(in:)`.
    ///
    /// A case passes when the breaks after each scalar (`÷`) are exactly the opportunities
    /// found; the position before the first scalar (LB2) is not compared.
    /// - Throws: `ConformanceError` when the file cannot be read.
    public static func lineBreakTest(file path: String) throws -> ConformanceResult {
        // UAX #14 LB2 never breaks at the start: the file marks it ×, the API has no offset 0.
        try runBreakTest(name: "LineBreakTest.txt", file: path, comparesStart: false) { scalars in
            // An opportunity at offset k is the marker after the k-th scalar.
            var breaks = [Bool](repeating: false, count: scalars.count + 1)
            for opportunity in LineBreaker.opportunities(in: scalars) {
                breaks[opportunity.offset] = true
            }
            return breaks
        }
    }

    /// Runs every case of GraphemeBreakTest.txt against `GraphemeBreaker.boundaries(in:)` and
    /// `isBoundary(between:and:)`.
    /// - Throws: `ConformanceError` when the file cannot be read.
    public static func graphemeBreakTest(file path: String) throws -> ConformanceResult {
        try runBreakTest(name: "GraphemeBreakTest.txt", file: path, comparesStart: true) { text in
            var breaks = [Bool](repeating: false, count: text.count + 1)
            for boundary in GraphemeBreaker.boundaries(in: text) { breaks[boundary] = true }
            // The answer from a pair alone, where it has one, must be the same: a case fails
            // where it is not.
            for index in text.indices.dropFirst() {
                if let pair = GraphemeBreaker.isBoundary(between: text[index - 1], and: text[index]), pair != breaks[index] {
                    breaks[index] = pair
                }
            }
            return breaks
        }
    }

    /// Reads a break test file: each case is a line `÷ 0023 × 0308 ÷ …  # comment`, a marker
    /// before, between and after the code points. `breaks` returns one flag per marker; with
    /// `comparesStart` false the marker before the first code point is not compared.
    private static func runBreakTest(
        name: String, file path: String, comparesStart: Bool,
        breaks: ([Unicode.Scalar]) -> [Bool]
    ) throws -> ConformanceResult {
        let lines = try readLines(path)
        var result = ConformanceResult(name: name)
        result.readVersion(lines.first)
        for (lineIndex, line) in lines.enumerated() {
            let content = line.prefix { $0 != "#" }
            let tokens = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if tokens.isEmpty { continue }
            let lineNumber = lineIndex + 1

            guard let testCase = BreakTestCase(tokens: tokens) else {
                result.record(false, line: lineNumber, "cannot parse \(content)")
                continue
            }
            let expected = testCase.breaks
            var actual = breaks(testCase.scalars)
            // Not compared: the file's marker before the first code point. The breaker must
            // still never find a break there (LB2): that is a failed case.
            if !comparesStart && !actual[0] { actual[0] = expected[0] }
            result.record(
                actual == expected, line: lineNumber,
                "input \(testCase.hexInput) expected "
                    + "\(testCase.marked(expected)) actual \(testCase.marked(actual))")
        }
        return result
    }
}

/// One line of a break test file.
private struct BreakTestCase {
    var scalars: [Unicode.Scalar] = []
    /// `breaks[k]`: whether the marker before scalar k (after the last one for k == count) is ÷.
    var breaks: [Bool] = []

    /// Parses alternating markers and hexadecimal code points, starting and ending with a marker.
    init?(tokens: [Substring]) {
        guard tokens.count % 2 == 1 else { return nil }
        for (position, token) in tokens.enumerated() {
            if position % 2 == 0 {
                switch token {
                case "÷": breaks.append(true)
                case "×": breaks.append(false)
                default: return nil
                }
            } else {
                guard let value = UInt32(token, radix: 16) else { return nil }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
        }
    }

    /// The code points as the file writes them, without markers.
    var hexInput: String { scalars.map(\.hex).joined(separator: " ") }

    /// The code points with `breaks` as ÷ and × markers, as the file writes them.
    func marked(_ breaks: [Bool]) -> String {
        var text = breaks[0] ? "÷" : "×"
        for (index, scalar) in scalars.enumerated() {
            text += " \(scalar.hex) " + (breaks[index + 1] ? "÷" : "×")
        }
        return text
    }
}

extension Unicode.Scalar {
    /// The code point as UCD files write it: at least four upper-case hexadecimal digits.
    fileprivate var hex: String { hexCodePoint(value) }
}
