// `typeset bench` (hidden; make bench runs it): throughput of the Unicode core.
import ArgumentParser
import Foundation
import Typeset

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures bidi resolution and line-break analysis throughput.", shouldDisplay: false)

    func run() throws {
        print("Unicode core throughput (mixed Arabic, Hebrew and Latin text; best of 3)")
        print("size MB   bidi MB/s   line breaks MB/s")
        let results = UnicodeBenchmark.measure()
        for m in results {
            print(String(format: "%7.2f   %9.1f   %16.1f", m.megabytes, m.megabytes / m.bidiSeconds, m.megabytes / m.lineBreakSeconds))
        }
        if let small = results.first, let large = results.last {
            let growth = large.megabytes / small.megabytes
            print(String(format: "time ×%.2f (bidi) and ×%.2f (line breaks) for ×%.1f the text: linear is ×%.1f",
                         large.bidiSeconds / small.bidiSeconds, large.lineBreakSeconds / small.lineBreakSeconds, growth, growth))
        }
    }
}
