// An e-mail address or a URL is broken before a hyphen or a slash of its own, not after it.
// UAX #14 breaks after a hyphen (LB21 keeps it with what is before it), so "Write to
// support-team@example.org" wrapped as "support-" | "team@example.org", which reads as a word
// hyphenated at the line's end and copies as an address without its hyphen; and after a slash
// (LB31), "example.com/" | "help". The Chicago Manual of Style breaks an address before a hyphen
// or a single slash, so that it begins the next line, seen to be the address's: "support" |
// "-team@example.org". Where that piece is wider than a line and the one after the hyphen is not,
// the break after it stays: better than a cut between letters.

enum AddressBreaks {
    /// `breaks` with each optional one after a hyphen or a single slash inside an address moved
    /// before it: an address is a stretch without white space or soft hyphens that holds "@"
    /// between two letters or digits, "://", or "www." at its start. Not where the piece it
    /// would begin is wider than a line (`fits`) and the piece after it is not, which a break
    /// after it spared a cut between letters, nor after anything but a letter or digit (a word
    /// joiner, an opening bracket: UAX #14 breaks there never; the first slash of "//").
    static func breakingBeforeHyphensAndSlashes(
        _ breaks: [BreakOpportunity], in scalars: [Unicode.Scalar], fits: (Range<Int>) -> Bool
    ) -> [BreakOpportunity] {
        // (Most paragraphs: no hyphen, or nothing an address has.)
        guard mayHoldAnAddress(scalars) else { return breaks }
        var inside: [Range<Int>] = []
        var start = 0
        while start < scalars.count {
            guard !isSpace(scalars[start]) else {
                start += 1
                continue
            }
            var end = start
            while end < scalars.count, !isSpace(scalars[end]) { end += 1 }
            if isAddress(scalars, start..<end) { inside.append(start + 1..<end) }
            start = end
        }
        guard !inside.isEmpty else { return breaks }
        // From the last break back, so that a piece is measured to where the break after it
        // ends up ("-team@my" of "team@my-co.com" when that one moves, "-hyphens@sub-" when it
        // stays: measured to a move that did not happen, it was cut between its letters).
        var moved = breaks
        var next = inside.count - 1
        for n in breaks.indices.reversed() {
            let offset = breaks[n].offset
            while next >= 0, inside[next].lowerBound > offset { next -= 1 }
            guard !breaks[n].isMandatory, next >= 0, inside[next].contains(offset), isMoved(scalars[offset - 1]) else { continue }
            // Before the first of its hyphens ("c" | "--d").
            var before = offset - 1
            while inside[next].contains(before - 1), isHyphen(scalars[offset - 1]), isHyphen(scalars[before - 1]) { before -= 1 }
            let pieceEnd = n + 1 < moved.count ? moved[n + 1].offset : scalars.count
            // (When the piece after the break is cut between letters anyway, so is the one
            // from the hyphen: "support" | "-team@example" | ".org" in a narrow label; unless
            // the piece before is too, which made a line more, "suppor" | "t" | "-team".)
            let pieceStart = n > 0 ? breaks[n - 1].offset : 0
            // (Each without the white space that hangs at its end: "-team@example.org " did
            // not fit where "-team@example.org" did, with a word after it.)
            func fitsShown(_ piece: Range<Int>) -> Bool { fits(piece.lowerBound..<LineFiller.visibleEnd(scalars, piece)) }
            if inside[next].contains(before), LineFiller.isWordCharacter(scalars[before - 1]), pieceStart < before,
                fitsShown(before..<pieceEnd) || !fitsShown(offset..<pieceEnd) && fitsShown(pieceStart..<before)
            {
                moved[n].offset = before
            }
        }
        return moved
    }

    /// Whether `scalars` hold a hyphen or a slash, and an "@", a "://" or a "www.": a paragraph
    /// without both has no address to move a break in (one pass).
    private static func mayHoldAnAddress(_ scalars: [Unicode.Scalar]) -> Bool {
        var hyphen = false
        var marker = false
        for at in scalars.indices {
            switch scalars[at] {
            case "-", "\u{2010}", "/": hyphen = true
            case "@": marker = true
            case ":": marker = marker || at + 2 < scalars.count && scalars[at + 1] == "/" && scalars[at + 2] == "/"
            case ".": marker = marker || at >= 3 && scalars[at - 3..<at].allSatisfy { $0 == "w" || $0 == "W" }
            default: continue
            }
            if hyphen && marker { return true }
        }
        return false
    }

    /// What parts tokens: white space, and the zero-width space UAX #14 breaks after.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isWhiteSpace || scalar == "\u{200B}"
    }

    private static func isHyphen(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "-" || scalar == "\u{2010}"
    }

    /// What a break after is moved before: a hyphen or a slash.
    private static func isMoved(_ scalar: Unicode.Scalar) -> Bool {
        isHyphen(scalar) || scalar == "/"
    }

    private static func isAddress(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Bool {
        func isWordCharacter(_ at: Int) -> Bool { range.contains(at) && LineFiller.isWordCharacter(scalars[at]) }
        var sawMoved = false
        var isOne = false
        for at in range {
            switch scalars[at] {
            case "-", "\u{2010}", "/": sawMoved = true
            case "\u{AD}": return false  // (its soft hyphens are the author's breaks: a piece measured without the hyphen one shows did not fit)
            case "@": isOne = isOne || isWordCharacter(at - 1) && isWordCharacter(at + 1)
            case ":": isOne = isOne || at + 2 < range.upperBound && scalars[at + 1] == "/" && scalars[at + 2] == "/"
            case "w", "W":
                func isW(_ at: Int) -> Bool { scalars[at] == "w" || scalars[at] == "W" }
                isOne = isOne || !isWordCharacter(at - 1) && at + 4 <= range.upperBound && isW(at + 1) && isW(at + 2) && scalars[at + 3] == "."
            default: break
            }
        }
        return sawMoved && isOne
    }
}
