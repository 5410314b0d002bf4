// Runs BidiTest.txt and BidiCharacterTest.txt (Unicode 15.0) against BidiParagraph, counting
// every case: a BidiTest.txt line counts once per paragraph direction in its bitset.

import FoundationEssentials

/// The lines of a Unicode test file, without a byte-order mark, ended by LF, CR LF or CR (a
/// copy saved on another system has them).
func readLines(_ path: String) throws -> [Substring] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ConformanceError.unreadable(path)
    }
    var text = Substring(String(decoding: data, as: UTF8.self))
    if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
    // (CR LF is one Character: splitting at "\n" alone left such a file one line.)
    return text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
}

extension ConformanceResult {
    /// Runs every case of BidiTest.txt at `path`.
    public static func bidiTest(file path: String) throws -> ConformanceResult {
        var result = ConformanceResult(name: "BidiTest.txt")
        let classNames = Dictionary(uniqueKeysWithValues: BidiClass.allCases.map { ("\($0)", $0) })
        var expectedLevels: [UInt8?] = []
        var expectedOrder: [Int] = []
        let lines = try readLines(path)
        result.readVersion(lines.first)
        for (number, line) in lines.enumerated() {
            if line.hasPrefix("@Levels:") {
                expectedLevels = line.dropFirst(8).split(whereSeparator: { $0 == " " || $0 == "\t" }).map { UInt8($0) }
                continue
            }
            if line.hasPrefix("@Reorder:") {
                expectedOrder = line.dropFirst(9).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Int($0) }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("@") { continue }
            // A line that cannot be read is a failed case, and the file goes on.
            let fields = line.split(separator: ";")
            guard fields.count == 2, let bitset = Int(fields[1].trimmingWhitespace()) else {
                result.record(false, line: number + 1, "malformed: expected CLASSES; BITSET, got \(line)")
                continue
            }
            let names = fields[0].split(separator: " ")
            let classes = names.compactMap { classNames[String($0)] }
            guard classes.count == names.count else {
                let unknown = names.first { classNames[String($0)] == nil } ?? ""
                result.record(false, line: number + 1, "malformed: unknown bidi class \(unknown)")
                continue
            }
            for (bit, direction) in [(1, BidiDirection.auto), (2, .ltr), (4, .rtl)] where bitset & bit != 0 {
                let paragraph = BidiParagraph(classes: classes, scalars: nil, direction: direction)
                let (levels, order) = paragraph.conformanceOutput()
                result.record(levels == expectedLevels && order == expectedOrder, line: number + 1,
                    "\(fields[0]) (\(direction)): expected levels \(show(expectedLevels)) order \(expectedOrder), got \(show(levels)) order \(order)")
            }
        }
        return result
    }

    /// Runs every case of BidiCharacterTest.txt at `path`.
    public static func bidiCharacterTest(file path: String) throws -> ConformanceResult {
        var result = ConformanceResult(name: "BidiCharacterTest.txt")
        let lines = try readLines(path)
        result.readVersion(lines.first)
        for (number, line) in lines.enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            let codes = fields.first?.split(separator: " ") ?? []
            let scalars = codes.compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            let directions: [Substring: BidiDirection] = ["0": .ltr, "1": .rtl, "2": .auto]
            guard fields.count == 5, !codes.isEmpty, scalars.count == codes.count, let direction = directions[fields[1]] else {
                result.record(
                    false, line: number + 1, "malformed: expected code points; 0, 1 or 2; level; levels; order, got \(line)")
                continue
            }
            let expectedBase = UInt8(fields[2])
            let expectedLevels = fields[3].split(separator: " ").map { UInt8($0) }
            let expectedOrder = fields[4].split(separator: " ").compactMap { Int($0) }
            let paragraph = BidiParagraph(scalars: scalars, direction: direction)
            let (levels, order) = paragraph.conformanceOutput()
            result.record(paragraph.baseLevel == expectedBase && levels == expectedLevels && order == expectedOrder,
                line: number + 1, "\(fields[0]) (\(direction)): expected level \(fields[2]) levels \(show(expectedLevels)) order \(expectedOrder), got \(paragraph.baseLevel) levels \(show(levels)) order \(order)")
        }
        return result
    }
}

private func show(_ levels: [UInt8?]) -> String {
    "[" + levels.map { $0.map(String.init) ?? "x" }.joined(separator: " ") + "]"
}

extension BidiParagraph {
    /// The whole paragraph as one line, as the test files give it: levels after L1 with nil
    /// for characters X9 removed, and the visual order without them.
    func conformanceOutput() -> (levels: [UInt8?], order: [Int]) {
        let range = 0..<levels.count
        let lineLevels = lineLevels(range)
        let levels = range.map { isRemoved($0) ? nil : lineLevels[$0] }
        let order = visualOrder(range).filter { !isRemoved($0) }
        return (levels, order)
    }
}
