// Throughput of the Unicode core (make bench): bidi resolution and line-break analysis over a
// deterministic mixed Arabic, Hebrew and Latin text, at several sizes to show linear growth.

import Dispatch
import FoundationEssentials

public enum UnicodeBenchmark {
    /// A deterministic mixed-script text of about `bytes` UTF-8 bytes, one paragraph per line.
    public static func sampleText(bytes: Int) -> String {
        let sentences = [
            "The quick brown fox jumps over the lazy dog (version 2.5, 100%).",
            "مرحبا بالعالم، هذا نص عربي مع أرقام 123 و(أقواس) وكلمة English.",
            "שלום עולם, זהו טקסט בעברית עם מספרים 4,567.89 ו-\"ציטוט\".",
            "Call \u{2066}+1 (555) 010-9999\u{2069} or visit typeset.example/ar — تنزيل DOWNLOAD הורדה.",
        ]
        var text = ""
        var i = 0
        while text.utf8.count < bytes {
            text += sentences[i % sentences.count]
            text += i % 7 == 6 ? "\n" : " "
            i += 1
        }
        return text
    }

    /// Seconds for `body`, the best of `repeats` runs.
    static func time(repeats: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    public struct Measurement: Sendable {
        public var megabytes: Double
        public var bidiSeconds: Double
        public var lineBreakSeconds: Double
    }

    /// Measures both algorithms over texts of the given sizes (in MB).
    public static func measure(sizes: [Double] = [0.25, 0.5, 1], repeats: Int = 3) -> [Measurement] {
        sizes.map { size in
            let text = sampleText(bytes: Int(size * 1_000_000))
            let paragraphs = text.split(separator: "\n").map { Array($0.unicodeScalars) }
            let megabytes = Double(text.utf8.count) / 1_000_000
            let bidi = time(repeats: repeats) {
                for p in paragraphs { _ = BidiParagraph(scalars: p, direction: .auto) }
            }
            let breaks = time(repeats: repeats) {
                for p in paragraphs { _ = LineBreaker.opportunities(in: p) }
            }
            return Measurement(megabytes: megabytes, bidiSeconds: bidi, lineBreakSeconds: breaks)
        }
    }
}
