// Deterministic SVG (SPEC §5: byte-identical output): Cairo 1.16 names `<g id="surfaceN">` and
// `<image id="imageN">` after process-wide surface counters, so a second render in the same
// process gets other numbers. Renumbering them in order of first appearance makes every render
// of the same page the same bytes.
//
// Ids that differ between pages: every page names its glyph outlines `glyph0-1`, `glyph0-2`, ...
// from 1, so two pages put inline in one HTML page (a comparison of locales, a visual diff
// report) shared ids with different outlines, and the second page drew the first one's glyphs.
// Every id is therefore prefixed with a hash of the page's renumbered SVG: a page has the same
// ids in every render, and pages that differ have different ids.

enum SVGIdentifiers {
    /// `svg` renumbered, then with every id and every reference to one prefixed with `pXXXXXXXXXXXX-`,
    /// 48 bits of a hash of the renumbered bytes.
    static func unique(_ svg: [UInt8]) -> [UInt8] {
        let renumbered = renumber(svg)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in renumbered {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash >> 16, radix: 16)
        let prefix = Array(("p" + String(repeating: "0", count: 12 - hex.count) + hex + "-").utf8)
        return qualify(renumbered, with: prefix)
    }

    /// `svg` with `prefix` put before every name in `id="…"` (the attribute `id`, not `grid`),
    /// `url(#…)` and `href="#…"`. None of those three can occur in base64 image data (no quote,
    /// no parenthesis, no '#').
    static func qualify(_ svg: [UInt8], with prefix: [UInt8]) -> [UInt8] {
        let openings = [#"id=""#, "url(#", ##"href="#"##].map { Array($0.utf8) }
        var output: [UInt8] = []
        output.reserveCapacity(svg.count + svg.count / 16)
        var index = 0
        var copied = 0
        while index < svg.count {
            let byte = svg[index]
            guard byte == UInt8(ascii: "i") || byte == UInt8(ascii: "u") || byte == UInt8(ascii: "h"),
                let opening = openings.first(where: { svg[index...].starts(with: $0) }),
                byte != UInt8(ascii: "i") || index > 0 && [0x20, 0x0A, 0x09].contains(svg[index - 1])
            else {
                index += 1
                continue
            }
            index += opening.count
            output.append(contentsOf: svg[copied..<index])
            output.append(contentsOf: prefix)
            copied = index
        }
        output.append(contentsOf: svg[copied...])
        return output
    }

    /// The id families renumbered. `surface` and `image` count per process; `pattern`, `clip`
    /// and `mask` count per document and are renumbered too so that no family depends on how
    /// Cairo counts. Glyph ids (`glyphF-G`) are per document and left alone.
    static let prefixes: [[UInt8]] = ["surface", "image", "pattern", "clip", "mask"].map { Array($0.utf8) }

    /// `svg` with every `id="prefixN"` and `#prefixN` (in `url(#…)` and `xlink:href="#…"`)
    /// renumbered from 1 per prefix, in order of first appearance. Only those two contexts are
    /// touched: embedded base64 PNG data never contains `#` or `id="`.
    static func renumber(_ svg: [UInt8]) -> [UInt8] {
        let idOpening = Array("id=\"".utf8)
        let hash = UInt8(ascii: "#")
        var numbering: [[UInt8]: [Int: Int]] = [:]
        var output: [UInt8] = []
        output.reserveCapacity(svg.count)
        var index = 0
        while index < svg.count {
            var nameStart: Int?
            if svg[index] == hash {
                nameStart = index + 1
            } else if svg[index] == idOpening[0], svg[index...].starts(with: idOpening) {
                nameStart = index + idOpening.count
            }
            guard let start = nameStart,
                let prefix = prefixes.first(where: { svg[start...].starts(with: $0) })
            else {
                output.append(svg[index])
                index += 1
                continue
            }
            let digitsStart = start + prefix.count
            var digitsEnd = digitsStart
            var number = 0
            while digitsEnd < svg.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[digitsEnd]),
                digitsEnd - digitsStart < 18
            {
                number = number * 10 + Int(svg[digitsEnd] - UInt8(ascii: "0"))
                digitsEnd += 1
            }
            // "image" followed by a letter or "-" is some other name: copy it unchanged.
            let endsName = digitsEnd == svg.count || !isNameCharacter(svg[digitsEnd])
            guard digitsEnd > digitsStart, endsName else {
                output.append(contentsOf: svg[index..<digitsStart])
                index = digitsStart
                continue
            }
            var family = numbering[prefix, default: [:]]
            let renumbered = family[number] ?? family.count + 1
            family[number] = renumbered
            numbering[prefix] = family
            output.append(contentsOf: svg[index..<digitsStart])
            output.append(contentsOf: String(renumbered).utf8)
            index = digitsEnd
        }
        return output
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
