// Deterministic SVG (SPEC §5: byte-identical output): Cairo 1.16 names `<g id="surfaceN">` and
// `<image id="imageN">` after process-wide surface counters, so a second render in the same
// process gets other numbers. Renumbering them in order of first appearance makes every render
// of the same page the same bytes.

enum SVGIdentifiers {
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
