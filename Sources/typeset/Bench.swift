// `typeset bench` (hidden; make bench runs it): throughput of the Unicode core.
import Typeset

struct Bench: Command {
    static let spec = CommandSpec(
        name: "bench", abstract: "Measures bidi resolution and line-break analysis throughput.", hidden: true)

    init(_ arguments: ParsedArguments) throws {}

    func run() throws {
        print("Unicode core throughput (mixed Arabic, Hebrew and Latin text; best of 3)")
        print("size MB   bidi MB/s   line breaks MB/s")
        let results = UnicodeBenchmark.measure()
        for m in results {
            print(padded(formatDecimal(m.megabytes, places: 2), 7) + "   " + padded(formatDecimal(m.megabytes / m.bidiSeconds, places: 1), 9)
                + "   " + padded(formatDecimal(m.megabytes / m.lineBreakSeconds, places: 1), 16))
        }
        if let small = results.first, let large = results.last {
            let growth = large.megabytes / small.megabytes
            print("time ×\(formatDecimal(large.bidiSeconds / small.bidiSeconds, places: 2)) (bidi) and "
                + "×\(formatDecimal(large.lineBreakSeconds / small.lineBreakSeconds, places: 2)) (line breaks) "
                + "for ×\(formatDecimal(growth, places: 1)) the text: linear is ×\(formatDecimal(growth, places: 1))")
        }
    }
}

/// `text` right-aligned in `width` columns.
private func padded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
