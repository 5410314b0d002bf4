// A compact, stable text dump of a layout for golden tests: the first reference a layout change
// is judged by, readable in a code review's diff (the JSON of SPEC §6 is one long line).
@testable import Typeset

extension LayoutReport {
    /// The layout as text, one line per diagnostic, page, block and text line; lengths in points
    /// rounded to 0.1. No file paths, so the dump is the same wherever the input lives.
    ///
    /// ```
    /// warning 7:3: no string for key 'k' in the catalog; the element's own text is used
    /// page 1 430×142.7
    /// heading line 4 en ltr in ltr, left, frame 16.0 16.0 398.0×28.6
    ///   line x 16.0 width 110.3 baseline 38.8: "Download" 0 Latn Noto Sans 22 x 16.0 width 110.3
    /// ```
    ///
    /// Runs are in visual order, separated by ` | `: text (quoted, control and format characters
    /// as `\u{…}`), embedding level, script, font, size, x and width. A list item's marker
    /// follows its frame.
    func textDump() -> String {
        var out = ""
        for diagnostic in diagnostics {
            out +=
                "\(diagnostic.severity.rawValue) \(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.messageWithHint)\n"
        }
        for (index, page) in pages.enumerated() {
            out +=
                "page \(index + 1) \(dumpNumber(page.width, trimmed: true))×\(dumpNumber(page.height, trimmed: true))\n"
            for block in page.blocks {
                let frame = block.frame
                out += "\(block.kind) line \(block.line) \(block.lang) \(block.direction) in \(block.context), "
                out += "\(block.align), frame \(dumpNumber(frame.x)) \(dumpNumber(frame.y)) "
                out += "\(dumpNumber(frame.width))×\(dumpNumber(frame.height))"
                if let marker = block.marker {
                    out += ", marker \(quoted(marker.text)) x \(dumpNumber(marker.x)) width \(dumpNumber(marker.width))"
                }
                out += "\n"
                for line in block.lines {
                    out += "  line x \(dumpNumber(line.x)) width \(dumpNumber(line.width)) "
                    out += "baseline \(dumpNumber(line.baseline)):"
                    out += line.runs.map { run in
                        " \(quoted(run.text)) \(run.level) \(run.script) \(run.font) \(dumpNumber(run.size, trimmed: true)) "
                            + "x \(dumpNumber(run.x)) width \(dumpNumber(run.width))"
                    }.joined(separator: " |")
                    out += "\n"
                }
            }
        }
        return out
    }
}

/// `value` rounded to 0.1 with one decimal ("16.0"), or without a zero decimal when `trimmed`
/// ("17", "17.5"); never "-0.0".
private func dumpNumber(_ value: Double, trimmed: Bool = false) -> String {
    guard value.isFinite else { return String(value) }
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let whole = abs(tenths) / 10
    let fraction = abs(tenths) % 10
    if trimmed && fraction == 0 { return "\(sign)\(whole)" }
    return "\(sign)\(whole).\(fraction)"
}

/// `text` in double quotes, with quotes and backslashes escaped, and what does not show as
/// itself (`visible`), so that a dump line never hides or reorders anything.
private func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default: out += visible(scalar)
        }
    }
    return out + "\""
}
