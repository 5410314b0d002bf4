// The layout as `typeset layout` prints it (SPEC §6). Field names and meanings are a contract.

public struct LayoutReport: Sendable {
    public var diagnostics: [Diagnostic]
    public var pages: [ReportPage]
    public init(diagnostics: [Diagnostic], pages: [ReportPage]) {
        self.diagnostics = diagnostics
        self.pages = pages
    }
}

public struct ReportPage: Sendable {
    public var width: Double
    public var height: Double
    public var blocks: [ReportBlock]
}

public struct ReportRect: Sendable {
    public var x: Double, y: Double, width: Double, height: Double
}

public struct ReportBlock: Sendable {
    /// The element name (`item` for list items).
    public var kind: String
    /// Source line of the element.
    public var line: Int
    public var lang: String
    /// Own direction and context direction: "ltr" or "rtl".
    public var direction: String
    public var context: String
    /// The physical alignment applied: "left", "right" or "center".
    public var align: String
    public var frame: ReportRect
    public var marker: ReportMarker?
    public var lines: [ReportLine]
}

public struct ReportMarker: Sendable {
    public var text: String
    public var x: Double
    public var width: Double
}

public struct ReportLine: Sendable {
    public var x: Double
    public var baseline: Double
    public var width: Double
    public var runs: [ReportRun]
}

public struct ReportRun: Sendable {
    public var text: String
    public var level: Int
    public var direction: String
    public var script: String
    public var font: String
    public var size: Double
    public var x: Double
    public var width: Double
    public var glyphs: Int
    /// The face drawn: its full name (`FontFace.fullName`), style and width included.
    public var face: String
}

extension LayoutReport {
    /// The JSON of SPEC §6, keys in the order the spec shows them, numbers rounded to 1/100 pt.
    public func json() -> String {
        var bytes: [UInt8] = []
        _ = writeJSON { chunk in
            bytes.append(contentsOf: chunk)
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Gives `json()`'s UTF-8 bytes, and a newline, to `write` a megabyte or so at a time, as
    /// `typeset layout` writes them: the JSON of 4 MiB of short bidi runs is 400 MB, held
    /// whole (and copied twice) before. Stops at the first problem `write` returns, and
    /// returns it.
    public func writeJSON(_ write: (UnsafeBufferPointer<UInt8>) -> String?) -> String? {
        withoutActuallyEscaping(write) { write in
            let out = JSONWriter(write)
            out.object {
                out.field("version") { out.number(1) }
                out.field("diagnostics") {
                    out.array(diagnostics) { d in
                        out.object {
                            // Beyond SPEC §6's example: a catalog's error is not in the markup.
                            out.field("file") { out.string(d.location.file) }
                            out.field("line") { out.number(Double(d.location.line)) }
                            out.field("column") { out.number(Double(d.location.column)) }
                            out.field("severity") { out.string(d.severity.rawValue) }
                            out.field("message") { out.string(d.messageWithHint) }
                        }
                    }
                }
                out.field("pages") {
                    out.array(pages) { page in
                        out.object {
                            out.field("width") { out.number(page.width) }
                            out.field("height") { out.number(page.height) }
                            out.field("blocks") { out.array(page.blocks) { out.block($0) } }
                        }
                    }
                }
            }
            return out.finish()
        }
    }
}

/// A minimal JSON writer that keeps key order and prints numbers without noise. It writes UTF-8
/// bytes: appending to a String piece by piece took 285 instructions a byte of JSON, a tenth of
/// a one-document `typeset layout`.
private final class JSONWriter {
    // Only this class's methods touch them, one at a time, never while another is going on:
    // the runtime's exclusivity checks took as long as the writing.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var needsComma = [false]
    /// Where the bytes go, each time a megabyte has gathered, and the first problem it had.
    private let write: (UnsafeBufferPointer<UInt8>) -> String?
    @exclusivity(unchecked) private var problem: String?
    private static let chunk = 1 << 20

    init(_ write: @escaping (UnsafeBufferPointer<UInt8>) -> String?) {
        self.write = write
    }

    /// Gives the bytes gathered to `write`, unless it has had a problem.
    private func flush() {
        if problem == nil { problem = bytes.withUnsafeBufferPointer(write) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes the rest and a newline; the first problem `write` had.
    func finish() -> String? {
        bytes.append(UInt8(ascii: "\n"))
        flush()
        return problem
    }

    func object(_ body: () -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body()
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
        if bytes.count >= Self.chunk { flush() }
    }

    func array<T>(_ items: [T], _ body: (T) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        for item in items { body(item) }
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// `key` is one of this file's literals: no character of it needs escaping.
    func field(_ key: StaticString, _ value: () -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma.append(false)
        value()
        needsComma.removeLast()
    }

    /// `value` as `number` prints it: to 1/100 pt.
    static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// The edges of a line's runs as printed, from the left edge of the first to the right
    /// edge of the last, each rounded once (SPEC §6's sums hold in the JSON: a line's x is its
    /// first run's, its width the sum of its runs', one run ends where the next starts; rounded
    /// one by one, they missed by 0.01 in one line of nine). With `right`, the frame's right
    /// edge as printed, a right-aligned line ends there. Empty for a line without runs.
    static func printedEdges(_ line: ReportLine, right: Double?) -> [Double] {
        guard let first = line.runs.first, let last = line.runs.last else { return [] }
        // Runs meet (ParagraphLayouter places them end to end): each ends where the next starts.
        let edges = [first.x] + line.runs.dropFirst().map(\.x) + [last.x + last.width]
        var printed = edges.map(hundredths)
        if let right, let end = printed.last, abs(right - end) < 0.015 {
            printed = printed.map { $0 + (right - end) }
        }
        return printed
    }

    func number(_ value: Double) {
        separate()
        bytes.append(contentsOf: format(Self.hundredths(value)).utf8)
    }

    func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var utf8 = value
        utf8.withUTF8 { text in
            var index = 0
            while index < text.count {
                let byte = text[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: Array("\\n".utf8))
                case UInt8(ascii: "\r"): bytes.append(contentsOf: Array("\\r".utf8))
                case UInt8(ascii: "\t"): bytes.append(contentsOf: Array("\\t".utf8))
                case 0..<0x20:
                    bytes.append(contentsOf: Array("\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".utf8))
                // U+2028 and U+2029, which end a line in JavaScript.
                case 0xE2 where index + 1 < text.count && text[index] == 0x80 && (0xA8...0xA9) ~= text[index + 1]:
                    bytes.append(contentsOf: Array("\\u202\(text[index + 1] == 0xA8 ? 8 : 9)".utf8))
                    index += 2
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    func rect(_ r: ReportRect) {
        object {
            field("x") { number(r.x) }
            field("y") { number(r.y) }
            field("width") { number(r.width) }
            field("height") { number(r.height) }
        }
    }

    func block(_ b: ReportBlock) {
        object {
            field("kind") { string(b.kind) }
            field("line") { number(Double(b.line)) }
            field("lang") { string(b.lang) }
            field("direction") { string(b.direction) }
            field("context") { string(b.context) }
            field("align") { string(b.align) }
            field("frame") { rect(b.frame) }
            if let marker = b.marker {
                field("marker") {
                    object {
                        field("text") { string(marker.text) }
                        field("x") { number(marker.x) }
                        field("width") { number(marker.width) }
                    }
                }
            }
            field("lines") {
                array(b.lines) { line in
                    object {
                        let right = b.align == "right" ? Self.hundredths(b.frame.x) + Self.hundredths(b.frame.width) : nil
                        let edges = Self.printedEdges(line, right: right)
                        field("x") { number(edges.first ?? right.map { $0 - Self.hundredths(line.width) } ?? line.x) }
                        field("baseline") { number(line.baseline) }
                        field("width") { number(edges.last.map { $0 - edges[0] } ?? line.width) }
                        field("runs") {
                            array(Array(line.runs.indices)) { index in
                                let run = line.runs[index]
                                object {
                                    field("text") { string(run.text) }
                                    field("level") { number(Double(run.level)) }
                                    field("direction") { string(run.direction) }
                                    field("script") { string(run.script) }
                                    field("font") { string(run.font) }
                                    field("size") { number(run.size) }
                                    field("x") { number(edges[index]) }
                                    field("width") { number(edges[index + 1] - edges[index]) }
                                    field("glyphs") { number(Double(run.glyphs)) }
                                    field("face") { string(run.face) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
