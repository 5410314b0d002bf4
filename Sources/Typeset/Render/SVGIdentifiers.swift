// Ids that differ between pages: every SVG page names its glyph outlines `glyph0-12`, ... and
// its images `image1`, ..., so two pages put inline in one HTML page (a comparison of locales, a
// visual diff report) would share ids with different outlines, and the second page would draw
// the first one's glyphs. Every id is therefore prefixed with a hash of the page's SVG: a page
// has the same ids in every render, and pages that differ have different ids.

enum SVGIdentifiers {
    /// `svg` with every id and every reference to one prefixed with `pXXXXXXXXXXXX-`, 48 bits of
    /// a hash of its bytes.
    static func unique(_ svg: [UInt8]) -> [UInt8] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in svg {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash >> 16, radix: 16)
        let prefix = Array(("p" + String(repeating: "0", count: 12 - hex.count) + hex + "-").utf8)
        return qualify(svg, with: prefix)
    }

    /// `svg` with `prefix` put before every name in `id="…"` (the attribute `id`, not `grid`),
    /// `url(#…)` and `href="#…"`. None of those three can occur in base64 image data (no quote,
    /// no parenthesis, no '#').
    static func qualify(_ svg: [UInt8], with prefix: [UInt8]) -> [UInt8] {
        svg.withUnsafeBufferPointer { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 16)
            // What is before `copied` is in `output`; the bytes between are copied at once.
            var copied = 0
            var index = 0
            while true {
                index = bytes.firstIndex(of: UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"), from: index)
                guard index < bytes.count else { break }
                let opening: [UInt8]
                switch bytes[index] {
                case UInt8(ascii: "i"):
                    let before = index > 0 ? bytes[index - 1] : 0
                    guard before == 0x20 || before == 0x0A || before == 0x09 else {
                        index += 1
                        continue
                    }
                    opening = idOpening
                case UInt8(ascii: "u"): opening = urlOpening
                case UInt8(ascii: "h"): opening = hrefOpening
                default:
                    index += 1
                    continue
                }
                guard bytes.has(opening, at: index) else {
                    index += 1
                    continue
                }
                index += opening.count
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                output.append(contentsOf: prefix)
                copied = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return output
        }
    }

    private static let idOpening = Array(#"id=""#.utf8)
    private static let urlOpening = Array("url(#".utf8)
    private static let hrefOpening = Array(##"href="#"##.utf8)
}

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first of the bytes from `start` that is `a`, `b` or `c`, else `count`.
    /// Eight bytes at a time (a page's SVG is 200 KB): a byte equal to `a` is a zero byte of
    /// the word XOR `a` in every byte, and `(x - 0x01…) & ~x & 0x80…` marks the zero bytes of
    /// x (above the first one it may mark others too, never below it).
    fileprivate func firstIndex(of a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int {
        guard let base = baseAddress else { return count }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let (wordA, wordB, wordC) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c))
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & 0x8080_8080_8080_8080 }
        var index = start
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let found = zeroBytes(word ^ wordA) | zeroBytes(word ^ wordB) | zeroBytes(word ^ wordC)
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count, self[index] != a, self[index] != b, self[index] != c { index += 1 }
        return index
    }

    /// Whether `pattern` is at `index`.
    fileprivate func has(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= count else { return false }
        for (offset, byte) in pattern.enumerated() where self[index + offset] != byte { return false }
        return true
    }
}
