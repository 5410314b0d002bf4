// What of a text a page's text keeps: the characters left out of it, and those kept though
// they show nothing (ZWNJ, ZWJ, an emoji's joiners and tags).

/// What a run's text leaves out (SPEC §6): the characters UAX #9 X9 removes (embeddings,
/// overrides, PDF and the boundary neutrals: ZWJ, ZWNJ, ZWSP, soft hyphen, ...), and also the
/// isolate controls, which X9 keeps: most are the ones `<ltr>`, `<rtl>`, `<bdi>` and `dir` add,
/// not characters of the text, and in a PDF's text they would be copied with it.
@inline(__always)
func isLeftOutOfText(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    // Printable ASCII and U+00AE to U+180D (Latin, Greek, Cyrillic, Hebrew, Arabic, ...) hold
    // none: most text is answered by two comparisons.
    if value &- 0x20 < 0x5F || value &- 0xAE < 0x1760 { return false }
    return isHiddenControl(scalar) || isBoundaryNeutral(scalar)
}

/// ZWNJ or ZWJ: left out of the layout report's text (UAX #9 X9 removes them), kept in a page's
/// text and title, where they are part of the spelling (Persian "می‌خواهم", Sinhala "ශ්‍රී").
@inline(__always)
func steersLetters(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value &- 0x200C < 2
}

/// Whether `scalars[index]`, though `isLeftOutOfText`, is part of an emoji drawn as one glyph
/// and kept in the text, within `range`: a ZWJ that joins emoji (an Extended_Pictographic
/// follows it; a copied 👨‍👩‍👧 was three people without it), or a tag character of an emoji
/// tag sequence (UTS #51 ED-14a: 🏴 and the tags that make it Scotland's flag copied as a black
/// flag), its emoji before it, with a VS16 or a skin tone. A tag looks back over at most 32
/// characters for its emoji, so that a paragraph of tags takes linear time.
@inline(__always)
func isPartOfEmoji(_ scalars: [Unicode.Scalar], at index: Int, in range: Range<Int>) -> Bool {
    let value = scalars[index].value
    if value == 0x200D { return index + 1 < range.upperBound && scalars[index + 1].isExtendedPictographic }
    guard value &- 0xE0020 <= 0x5F else { return false }  // U+E0020 ... U+E007F
    var i = index - 1
    while i >= range.lowerBound, index - i <= 32 {
        let before = scalars[i].value
        // Tags but the cancel tag, VS16, the skin tones U+1F3FB ... U+1F3FF.
        guard before &- 0xE0020 < 0x5F || before == 0xFE0F || FontFallbackCluster.isSkinTone(scalars[i]) else { break }
        i -= 1
    }
    return i >= range.lowerBound && index - i <= 32 && scalars[i].isExtendedPictographic
}

/// Bidi class BN, with the table looked up only in the ranges that hold BN characters
/// (Unicode 15.0; a test checks every code point): letters of every script are answered by a
/// few comparisons.
@inline(__always)
func isBoundaryNeutral(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    let mayBe =
        value < 0xAD
        ? value < 0x20 || value >= 0x7F
        : value == 0xAD || value == 0x180E || (0x200B...0x206F).contains(value) || value >= 0xFDD0
    return mayBe && scalar.bidiClass == .BN
}
