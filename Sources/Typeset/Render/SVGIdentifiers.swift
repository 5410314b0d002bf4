// Ids that differ between pages: every SVG page names its glyph outlines `glyph0-12`, ... and
// its images `image1`, ..., so two pages put inline in one HTML page (a comparison of locales, a
// visual diff report) would share ids with different outlines, and the second page would draw
// the first one's glyphs. Every id is therefore prefixed with a hash of the page's SVG: a page
// has the same ids in every render, and pages that differ have different ids.
//
// SVGWriter writes each id and each reference to one with `placeholder` in front, keeps where,
// hashes the page and then puts the prefix in the placeholders' place: no pass looks for ids.

enum SVGIdentifiers {
    /// What goes before every id until the page is written: as long as a prefix.
    static let placeholder: StaticString = "p000000000000-"

    /// `pXXXXXXXXXXXX-`: 48 bits of a hash of `bytes` in hexadecimal, as long as `placeholder`.
    static func prefix(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let hash = byteHash(bytes)
        let digits = Array("0123456789abcdef".utf8)
        var prefix: [UInt8] = [UInt8(ascii: "p")]
        for shift in stride(from: 60, through: 16, by: -4) { prefix.append(digits[Int(hash >> UInt64(shift) & 0xF)]) }
        prefix.append(UInt8(ascii: "-"))
        return prefix
    }
}
