// The fonts of one PDF: each face used becomes a Type 0 font with Identity-H encoding over a
// CIDFont whose CIDs are the glyph ids HarfBuzz shaped with (ISO 32000-1 §9.7), its program a
// subset holding only the glyphs drawn (FontProgram), its ToUnicode CMap (§9.10.3) the text each
// glyph was first drawn for ("-" for the hyphen drawn at a soft hyphen). A glyph drawn for other
// text later is shown by a code of its own past the glyph ids, which a /CIDToGIDMap stream maps
// to it, with its own ToUnicode entry (a CFF font's by /ActualText); a cluster of several glyphs
// gets /ActualText in the content stream (PDFPageContent), but in right-to-left text. A glyph
// off the baseline (a vowel mark) is shown by a code of its own too, mapped to a glyph past the
// font's own that the subset adds, the same glyph moved by its offset (`shiftedCode`), so that
// no text matrix of its own sets it apart from its letter.
//
// A font of color bitmaps (Noto Color Emoji: PNGs, no outlines a viewer could draw) becomes
// Type 3 fonts instead (§9.6.5), as Cairo writes them: each glyph a procedure that draws its PNG
// as an image, 255 glyphs a font, text extracted through their ToUnicode like any other.
@_spi(_Unicode) import Swift  // String._nfd (PDFFont.decomposed)
import Glibc

/// One font face as used so far in the document.
final class PDFFont {
    /// Resource name: `F1`, `F2`, ... in order of first use.
    let name: String
    /// The Type 0 font object (a bitmap font's first Type 3 font), reserved when the font is
    /// first used.
    let object: Int
    let face: FontFace
    let program: FontProgram
    /// Glyphs in the font: valid ids are below.
    let glyphCount: Int
    /// Per glyph id: its advance in 1/1000 em as /W (or a Type 3 font's /Widths) gives it (what
    /// content streams assume), or -1 while unused. Plain memory: read for every glyph drawn.
    private let widths: UnsafeMutablePointer<Int32>
    /// Per glyph id: the text (UTF-8) it stands for in ToUnicode, from its first one-glyph
    /// cluster; nil while it stands for nothing.
    private let unicode: UnsafeMutablePointer<[UInt8]?>
    /// Codes past the glyph ids, each a glyph drawn for other text than its ToUnicode entry's
    /// (`code(for:drawnFor:)`) or moved off the baseline (`shiftedCode`), in order.
    private var alternates: [AlternateKey] = []
    private var alternateCodes: [AlternateKey: UInt32] = [:]
    private struct AlternateKey: Hashable {
        var glyph: UInt32
        var text: [UInt8]
        /// Font units right and up (left and down when negative) of the glyph the code shows
        /// (both 0: the glyph itself).
        var dx: Int16 = 0
        var dy: Int16 = 0
        /// The code shows nothing, and has no width (`blankCode`).
        var blank = false
        /// The code shows a glyph the subset adds past the font's own.
        var isShifted: Bool { blank || dx != 0 || dy != 0 }
    }
    /// A bitmap font's glyphs in order of first use: the n-th is code n % 255 of Type 3 font
    /// n / 255 (`bitmapCode`; code 255 is `m`, see `writeType3`).
    private var bitmapGlyphs: [UInt32] = []
    private var bitmapCodes: [UInt32: Int] = [:]
    /// The Type 3 fonts' objects past the first (which is `object`), reserved by `write`.
    private var moreObjects: [Int] = []

    init(name: String, object: Int, face: FontFace) throws {
        self.name = name
        self.object = object
        self.face = face
        program = FontProgram.of(face)
        glyphCount = program.glyphCount
        guard glyphCount > 0 else {
            throw RenderError.font(path: face.path, reason: "no glyphs could be read from it")
        }
        widths = .allocate(capacity: glyphCount)
        widths.initialize(repeating: -1, count: glyphCount)
        unicode = .allocate(capacity: glyphCount)
        unicode.initialize(repeating: nil, count: glyphCount)
    }

    deinit {
        widths.deallocate()
        unicode.deinitialize(count: glyphCount)
        unicode.deallocate()
    }

    /// The resource name of the `index`-th Type 3 font of a bitmap font: F3, F3-2, F3-3, …
    private func subfontName(_ index: Int) -> String { index == 0 ? name : "\(name)-\(index + 1)" }

    /// For a bitmap font: the name of the Type 3 font that has `glyph`, and its code there.
    func bitmapCode(_ glyph: UInt32) -> (font: String, code: UInt8) {
        let index: Int
        if let known = bitmapCodes[glyph] {
            index = known
        } else {
            index = bitmapGlyphs.count
            bitmapCodes[glyph] = index
            bitmapGlyphs.append(glyph)
        }
        return (subfontName(index / 255), UInt8(index % 255))
    }

    /// The /Font entries of the /Resources dictionary: name and object (after `write`).
    var resourceEntries: [(String, Int)] {
        guard program.isBitmap else { return [(name, object)] }
        return ([object] + moreObjects).enumerated().map { (subfontName($0.offset), $0.element) }
    }

    /// The width of `glyph` (below `glyphCount`) in 1/1000 em, recording it as used.
    func width(_ glyph: UInt32) -> Int {
        let known = widths[Int(glyph)]
        if known >= 0 { return Int(known) }
        let width = Int32((Double(program.advance(glyph)) * 1000 / Double(program.unitsPerEm)).rounded())
        widths[Int(glyph)] = max(0, width)
        return Int(max(0, width))
    }

    /// Makes `glyph` stand for `text` in ToUnicode if it stands for nothing yet; true when it
    /// now stands for exactly `text` (no /ActualText needed). The hyphen shown at a soft hyphen
    /// (no text) stands for its own character, "-" (or "‐" in a font whose hyphen is only
    /// that): `code(for:drawnFor:)`.
    @inline(__always)
    func map(_ glyph: UInt32, to text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let existing = unicode[Int(glyph)] {
            // Compared as memory: elementsEqual went a byte at a time through iterators.
            return existing.withUnsafeBufferPointer { known in
                guard known.count == text.count else { return false }
                // Both empty when either has no storage.
                guard let knownBytes = known.baseAddress, let textBytes = text.baseAddress else { return true }
                return memcmp(knownBytes, textBytes, text.count) == 0
            }
        }
        return mapFirst(glyph, to: text)
    }

    /// `map` for a glyph that stands for nothing yet.
    @inline(never)
    private func mapFirst(_ glyph: UInt32, to text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !text.isEmpty else {
            if let hyphen = Self.hyphens.first(where: { program.nominalGlyph($0) == glyph }) {
                unicode[Int(glyph)] = Array(String(hyphen).utf8)
            }
            return false
        }
        unicode[Int(glyph)] = Array(text)
        return true
    }

    /// The code that shows `glyph` standing for `text` in ToUnicode, or nil when none can and
    /// the glyph needs /ActualText (a bitmap or CFF font's). A
    /// glyph stands for the text of its first use as its own id; drawn for other text, it takes
    /// a code of its own past the glyph ids, which /CIDToGIDMap maps to it: in an Arabic
    /// document, "(" drawn with the glyph of ")" first made every later Latin "(beta)" read
    /// ")beta(" in the readers that ignore /ActualText (pdfminer, mutool).
    /// The hyphen drawn where a word breaks at a soft hyphen (it has no text) reads as the
    /// hyphen its glyph stands for: pdftotext and pdf.js join a word's halves at a hyphen that
    /// ends a line, and with no text (an empty /ActualText) a search for the word found
    /// "inter" and "national" on two lines.
    @inline(__always)
    func code(for glyph: UInt32, drawnFor text: UnsafeBufferPointer<UInt8>) -> UInt32? {
        if map(glyph, to: text) { return glyph }
        if text.isEmpty { return unicode[Int(glyph)].flatMap { Self.hyphensUTF8.contains($0) ? glyph : nil } }
        return alternateCode(for: glyph, drawnFor: text)
    }

    /// What the hyphen shown at a soft hyphen stands for: "-", or "‐" in a font whose hyphen
    /// is only that (`mapFirst`).
    private static let hyphens: [Unicode.Scalar] = ["-", "\u{2010}"]
    private static let hyphensUTF8 = hyphens.map { Array(String($0).utf8) }

    /// Codes of its own for the glyphs of a cluster (`glyphs`, in the order drawn) that do not
    /// read as its `text` in ToUnicode, one after another: each glyph stands for the character
    /// of its place, the last for the rest, so that readers that ignore /ActualText (pdf.js,
    /// pdfminer, mutool) read the cluster whole and in order. Devanagari's short i, drawn
    /// before its consonant, was read after it ("िक" for "कि"); a conjunct and Thai's split
    /// vowels stood for nothing (U+FFFD, "(cid:607)"); Arabic's lam-alef, one glyph, took its
    /// lam's fatha after its alef ("لاَ" for "لَا"). Nil when they read as it, in the order
    /// Unicode makes one (Hebrew's dagesh drawn before its sheva), or when the font has no
    /// codes to give (a CFF font's; fewer left than the cluster needs: parted halfway, one
    /// lost its short i).
    func clusterCodes(_ glyphs: some Collection<UInt32>, for text: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
        reads(glyphs, as: text) ? nil : ownCodes(glyphs, for: text)
    }

    /// `clusterCodes` for a cluster known not to read as its text.
    private func ownCodes(_ glyphs: some Collection<UInt32>, for text: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
        guard program.isTrueType, !program.isBitmap else { return nil }
        // A vowel drawn in two glyphs around its consonant (Tamil's "ொ", Bengali's "ো") left
        // the last glyph standing for nothing, which mutool reads as U+FFFD: its canonical
        // decomposition ("ெ" and "ா") has a character for each.
        var starts = Self.characterStarts(text)
        let text = starts.count < glyphs.count ? Self.decomposed(text) : Array(text)
        if starts.count < glyphs.count { starts = Self.characterStarts(text) }
        // Each glyph's part: one character, the last all left (none when the text runs out).
        var parts: [AlternateKey] = []
        for (k, glyph) in glyphs.enumerated() {
            let start = k < starts.count ? starts[k] : text.count
            let end = k == glyphs.count - 1 || k + 1 >= starts.count ? text.count : starts[k + 1]
            parts.append(AlternateKey(glyph: glyph, text: Array(text[start..<end])))
        }
        guard hasRoom(forCodes: Set(parts.filter { alternateCodes[$0] == nil }).count) else { return nil }
        return parts.map { alternateCodes[$0] ?? newCode($0) }
    }

    /// Whether `glyphs` read as `text` in ToUnicode, byte for byte (nearly all clusters: nothing
    /// to make) or in the order Unicode makes one.
    private func reads(_ glyphs: some Collection<UInt32>, as text: UnsafeBufferPointer<UInt8>) -> Bool {
        var at = 0
        var exact = true
        for glyph in glyphs {
            guard let known = unicode[Int(glyph)] else { return false }  // one stands for nothing
            guard exact, known.count <= text.count - at, known.elementsEqual(text[at..<at + known.count]) else {
                exact = false
                continue
            }
            at += known.count
        }
        if exact && at == text.count { return true }
        let read = glyphs.reduce(into: [UInt8]()) { $0 += unicode[Int($1)] ?? [] }
        return String(decoding: read, as: UTF8.self) == String(decoding: text, as: UTF8.self)
    }

    /// `text`'s canonical decomposition (NFD), in UTF-8: the standard library's, which it
    /// offers only as SPI (Foundation's `decomposedStringWithCanonicalMapping` needs
    /// CoreFoundation, which the static release build does not link).
    private static func decomposed(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in String(decoding: text, as: UTF8.self)._nfd { UTF8.encode(scalar) { bytes.append($0) } }
        return bytes
    }

    /// A code of its own for `glyph` standing for `text` (see `code(for:drawnFor:)`).
    @inline(never)
    private func alternateCode(for glyph: UInt32, drawnFor text: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard !text.isEmpty, program.isTrueType, !program.isBitmap else { return nil }
        let key = AlternateKey(glyph: glyph, text: Array(text))
        if let known = alternateCodes[key] { return known }
        return hasRoom(forCodes: 1) ? newCode(key) : nil
    }

    /// Whether `count` more codes of their own fit: within `maximumAlternates`, and codes are
    /// two bytes.
    private func hasRoom(forCodes count: Int) -> Bool {
        alternates.count + count <= PDFFont.maximumAlternates && glyphCount + alternates.count + count <= 0x10000
    }

    /// The next code of its own, for `key`'s glyph standing for its text.
    private func newCode(_ key: AlternateKey) -> UInt32 {
        let code = UInt32(glyphCount + alternates.count)
        alternateCodes[key] = code
        alternates.append(key)
        if key.isShifted { shiftedCount += 1 }
        return code
    }

    /// How many alternates show a glyph moved (`shiftedCode`): each is a glyph of the subset.
    private var shiftedCount = 0

    /// The code that shows `code`'s glyph (`glyph`) moved by `dx` and `dy` font units (right
    /// and up), standing for the same text, from a TrueType font's glyph of its own
    /// (`TrueTypeSubsetter.Shift`), drawn on the baseline (a right-to-left run's marks at their
    /// letter's origin); nil when the font has none to give (a CFF font, no codes left) or the
    /// code stands for nothing.
    func shiftedCode(_ code: UInt32, glyph: UInt32, dx: Int16, dy: Int16) -> UInt32? {
        guard program.isTrueType, !program.isBitmap, Int(code) < glyphCount + alternates.count,
            let text = text(of: code), !text.isEmpty
        else { return nil }
        return subsetGlyphCode(AlternateKey(glyph: glyph, text: text, dx: dx, dy: dy))
    }

    /// The code of `key`, a glyph the subset adds (`isShifted`): known, or new while codes
    /// and glyph ids are left.
    private func subsetGlyphCode(_ key: AlternateKey) -> UInt32? {
        if let known = alternateCodes[key] { return known }
        return hasRoom(forCodes: 1) && glyphCount + shiftedCount < 0xFFFF ? newCode(key) : nil
    }

    /// A code that shows nothing and has no width, standing for `text` (a glyph the subset adds,
    /// empty): a ligature's characters past its first, drawn beside it in right-to-left text,
    /// each a code of its own (PDFPageContent.baselineCodes). Nil when the font has none to give.
    func blankCode(for text: [UInt8]) -> UInt32? {
        guard program.isTrueType, !program.isBitmap, !text.isEmpty else { return nil }
        return subsetGlyphCode(AlternateKey(glyph: 0, text: text, blank: true))
    }

    /// The text `code` stands for in ToUnicode (nil: nothing).
    private func text(of code: UInt32) -> [UInt8]? {
        Int(code) < glyphCount ? unicode[Int(code)] : alternates[Int(code) - glyphCount].text
    }

    /// For `code`, a code of `glyph` that may stand for several characters (lam-alef): the code
    /// of the glyph standing for the last of them, and blanks (`blankCode`) for the others,
    /// from the one before the last: drawn in that order, the glyph then its blanks, they read
    /// backwards as the characters, as right-to-left readers take a line. `code` and no blanks
    /// for one character; nil when the font has no codes to give. Worked out once a code.
    func splitCode(_ code: UInt32, of glyph: UInt32) -> (code: UInt32, blanks: [UInt32])? {
        if let known = splitCodes[code] { return known }
        guard let text = text(of: code) else { return (code, []) }
        let starts = Self.characterStarts(text)
        guard starts.count > 1 else { return (code, []) }
        let characters = starts.indices.map { Array(text[starts[$0]..<($0 + 1 < starts.count ? starts[$0 + 1] : text.count)]) }
        var blanks: [UInt32] = []
        for character in characters.dropLast().reversed() {
            guard let blank = blankCode(for: character) else { return nil }
            blanks.append(blank)
        }
        guard let last = characters[characters.count - 1].withUnsafeBufferPointer({ self.code(for: glyph, drawnFor: $0) })
        else { return nil }
        splitCodes[code] = (last, blanks)
        return (last, blanks)
    }
    private var splitCodes: [UInt32: (code: UInt32, blanks: [UInt32])] = [:]

    /// Codes for the glyphs of a cluster (`glyphs`, in the order it reads), one for each, that
    /// read as its `text` in ToUnicode without /ActualText: the glyphs' own where they read as
    /// it (after `mapParts`), else codes of their own (`clusterCodes`); nil when the font has
    /// none to give.
    func readingCodes(_ glyphs: [UInt32], for text: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
        reads(glyphs, as: text) ? glyphs : ownCodes(glyphs, for: text)
    }

    /// Where each character of UTF-8 `text` starts: at each byte that is not a continuation.
    private static func characterStarts<Bytes: RandomAccessCollection<UInt8>>(_ text: Bytes) -> [Int]
    where Bytes.Index == Int {
        text.indices.filter { text[$0] & 0xC0 != 0x80 }.map { $0 - text.startIndex }
    }

    /// Codes past the glyph ids a font may have (each a /W and a ToUnicode entry and two bytes
    /// of the /CIDToGIDMap; the map's identity part, two bytes a glyph, is paid once): text
    /// rarely draws a glyph for more than a few texts, and past them /ActualText serves.
    static let maximumAlternates = 4096

    /// For readers that ignore /ActualText (pdfminer, pypdf): in a cluster of several glyphs
    /// (a letter with its vowel marks or niqqud), each glyph that is the font's own for one of
    /// the cluster's characters stands for it, and the one glyph left, if one is, for the
    /// characters left (the letter, in its joining form). With two left in Arabic or Hebrew, one
    /// with an advance and one without (the medial lam of "لَّ" and the one glyph of its shadda
    /// and fatha), the first stands for the letters left and the second for the marks. Glyphs
    /// that stand for something keep it. Only clusters of up to `mappedClusterLength` glyphs:
    /// the search is quadratic, and a letter with thousands of marks (a hostile input) took
    /// seconds; its /ActualText still says it.
    @inline(never)
    func mapParts(_ glyphs: ArraySlice<PositionedGlyph>, of text: UnsafeBufferPointer<UInt8>) {
        guard glyphs.count <= PDFFont.mappedClusterLength else { return }
        var left = Array(String(decoding: text, as: UTF8.self).unicodeScalars)
        var unmatched: [UInt32] = []
        for glyph in glyphs.lazy.map(\.id) {
            if let index = left.firstIndex(where: { program.nominalGlyph($0) == glyph }) {
                let scalar = left.remove(at: index)
                let bytes = Array(String(scalar).utf8)
                _ = bytes.withUnsafeBufferPointer { map(glyph, to: $0) }
            } else if let known = unicode[Int(glyph)], let index = left.firstIndex(where: { known.elementsEqual(String($0).utf8) }) {
                // A letter's joining form that already stands for it (the reh of "رَّ" beside
                // the one glyph of its shadda and fatha).
                left.remove(at: index)
            } else {
                unmatched.append(glyph)
            }
        }
        func stand(_ glyph: UInt32, for scalars: [Unicode.Scalar]) {
            let bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
            _ = bytes.withUnsafeBufferPointer { map(glyph, to: $0) }
        }
        guard !left.isEmpty else { return }
        if unmatched.count == 1 { return stand(unmatched[0], for: left) }
        guard unmatched.count == 2 else { return }
        // Arabic and Hebrew only: elsewhere the glyph with an advance need not be the letter
        // (Devanagari's reph and short i are one spacing glyph beside an empty one).
        let marks = left.filter { $0.generalCategory == .Mn }
        let letters = left.filter { !marks.contains($0) }
        let spacing = unmatched.map { program.advance($0) != 0 }
        guard !marks.isEmpty, !letters.isEmpty, letters.allSatisfy({ $0.script == .arabic || $0.script == .hebrew }),
            spacing[0] != spacing[1]
        else { return }
        stand(spacing[0] ? unmatched[0] : unmatched[1], for: letters)
        stand(spacing[0] ? unmatched[1] : unmatched[0], for: marks)
    }

    /// A letter and its marks: no script stacks more.
    static let mappedClusterLength = 16

    private var usedGlyphs: [UInt32] {
        (0..<glyphCount).filter { widths[$0] >= 0 }.map { UInt32($0) }
    }

    /// Writes the font's objects: program, descriptor, CIDFont, ToUnicode and the Type 0 font
    /// (a bitmap font: its Type 3 fonts).
    func write(to writer: PDFObjectWriter) throws {
        if program.isBitmap { return try writeType3(to: writer) }
        let glyphs = usedGlyphs
        // The glyph of each alternate: its own, or one the subset adds past the font's (moved,
        // or a blank's, of no outline).
        var shifted: [TrueTypeSubsetter.Shift] = []
        var shownGlyphs: [UInt32] = []
        for alternate in alternates {
            guard alternate.isShifted else {
                shownGlyphs.append(alternate.glyph)
                continue
            }
            shownGlyphs.append(UInt32(glyphCount + shifted.count))
            shifted.append(TrueTypeSubsetter.Shift(glyph: alternate.blank ? nil : alternate.glyph, dx: alternate.dx, dy: alternate.dy))
        }
        guard let (program, bareCFF) = self.program.subset(glyphs: glyphs, shifted: shifted) else {
            throw RenderError.font(path: face.path, reason: "the glyphs of \(self.program.postScriptName) cannot be copied into a PDF (the file may be damaged)")
        }
        let scale = 1000 / Double(self.program.unitsPerEm)
        // A subset's name starts with a tag of six capitals (§9.6.4), here from its font's name
        // and its glyphs: different subsets in one file have different tags (from the glyphs
        // alone, Noto Sans Regular, Bold and Italic, whose glyphs are numbered alike, had one).
        var hash: UInt32 = 2_166_136_261
        for byte in self.program.postScriptName.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        for glyph in glyphs { hash = (hash ^ glyph) &* 16_777_619 }
        var tag = ""
        for _ in 0..<6 {
            tag.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(hash % 26))))
            hash /= 26
        }
        let baseFont = "/\(tag)+\(self.program.postScriptName)"

        // TrueType outlines: FontFile2 under a CIDFontType2. CFF (an OpenType file from
        // hb-subset): FontFile3 /OpenType under a CIDFontType0, whose CIDs are its glyph ids;
        // a CID-keyed CFF table of its own (`FontProgram.subset`), /CIDFontType0C, whose glyphs
        // are found by CID, their ids before the subset.
        let trueType = self.program.isTrueType
        let file = try writer.stream(
            dictionary: trueType ? "/Length1 \(program.count)" : bareCFF ? "/Subtype /CIDFontType0C" : "/Subtype /OpenType", program)

        let descriptor = writer.reserve()
        var body = ByteBuffer()
        body.append(string: "<< /Type /FontDescriptor /FontName \(baseFont) /Flags 4 /FontBBox [ ")
        let box = self.program.boundingBox
        for value in [box.0, box.1, box.2, box.3] { body.number(Double(value) * scale) }
        body.append("] /ItalicAngle ")
        body.number(self.program.italicAngle)
        body.append("/Ascent ")
        body.number(Double(self.program.ascender) * scale)
        body.append("/Descent ")
        body.number(Double(self.program.descender) * scale)
        body.append("/CapHeight ")
        body.number(Double(self.program.capHeight) * scale)
        body.append(trueType ? "/StemV 80 /FontFile2 " : "/StemV 80 /FontFile3 ")
        body.reference(file)
        body.append(">>")
        writer.object(descriptor, body)

        let cidFont = writer.reserve()
        body = ByteBuffer()
        body.append(string: "<< /Type /Font /Subtype /\(trueType ? "CIDFontType2" : "CIDFontType0") /BaseFont \(baseFont)")
        body.append(" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>")
        body.append(" /FontDescriptor ")
        body.reference(descriptor)
        if trueType {
            body.append("/CIDToGIDMap ")
            if alternates.isEmpty {
                body.append("/Identity ")
            } else {
                // Two bytes a code, big-endian: each glyph id its own, then the alternates'
                // glyphs. Each code a row of PNG's Up predictor (§7.4.4.4), its difference from
                // the code before: the rows of the identity part are all alike, and deflate
                // makes 9 KB of them (Noto Sans) 60 bytes instead of 6 KB.
                var map = [UInt8]()
                map.reserveCapacity(3 * (glyphCount + alternates.count))
                var previous: UInt32 = 0
                for glyph in (0..<UInt32(glyphCount)).lazy + shownGlyphs {
                    map.append(2)  // Up
                    map.append(UInt8(truncatingIfNeeded: (glyph >> 8) &- (previous >> 8)))
                    map.append(UInt8(truncatingIfNeeded: glyph &- previous))
                    previous = glyph
                }
                body.reference(try writer.stream(dictionary: "/DecodeParms << /Predictor 12 /Columns 2 >>", map))
            }
        }
        body.append("/W [")
        // Runs of consecutive codes: `first [w1 w2 ...]`.
        let codes = glyphs.map { (code: $0, width: widths[Int($0)]) }
            + alternates.enumerated().map {
                (code: UInt32(glyphCount + $0.offset), width: $0.element.blank ? 0 : widths[Int($0.element.glyph)])
            }
        var index = 0
        while index < codes.count {
            body.append("\n")
            body.integer(Int(codes[index].code))
            body.append("[ ")
            var next = index
            repeat {
                body.integer(Int(codes[next].width))
                next += 1
            } while next < codes.count && codes[next].code == codes[next - 1].code + 1
            body.append("]")
            index = next
        }
        body.append(" ] >>")
        writer.object(cidFont, body)

        let toUnicode = try writer.stream(dictionary: "", toUnicodeCMap())

        body = ByteBuffer()
        body.append(string: "<< /Type /Font /Subtype /Type0 /BaseFont \(baseFont) /Encoding /Identity-H /DescendantFonts [ ")
        body.reference(cidFont)
        body.append("] /ToUnicode ")
        body.reference(toUnicode)
        body.append(">>")
        writer.object(object, body)
    }

    /// A bitmap font's Type 3 fonts: in glyph space of 1000 units an em (as /Widths), each glyph
    /// a procedure that fills its image's frame with a fill of no opacity (`/Hidden`), for the
    /// text is shown invisibly: the page draws the glyphs' images (`PDFPageContent.draw`). (A
    /// glyph that drew nothing was no text to PDFium, Chrome's and Edge's reader, which copied
    /// and found "I typeset done" of "I ❤️ typeset 👍🏽 done".) The font's box is the union of
    /// the images' frames.
    private func writeType3(to writer: PDFObjectWriter) throws {
        for first in stride(from: 0, to: bitmapGlyphs.count, by: 255) {
            let glyphs = bitmapGlyphs[first..<min(first + 255, bitmapGlyphs.count)]
            let number = first == 0 ? object : writer.reserve()
            if first > 0 { moreObjects.append(number) }
            var procedures = ByteBuffer()
            var toUnicode: [(code: Int, text: [UInt8])] = []
            // The images' bounds (the font's own box is three ems tall: text extraction then
            // took each emoji for a line of its own).
            var box = [Double.infinity, .infinity, -Double.infinity, -Double.infinity]
            for (code, glyph) in glyphs.enumerated() {
                var procedure = ByteBuffer()
                procedure.number(Double(width(glyph)))
                procedure.append("0 d0")
                if let bitmap = program.bitmap(glyph) {
                    let frame = bitmap.frame(originX: 0, originY: 0, size: 1000)  // y down from the origin
                    let bottom = -frame.y - frame.height
                    box = [min(box[0], frame.x), min(box[1], bottom), max(box[2], frame.x + frame.width), max(box[3], -frame.y)]
                    procedure.append(" /Hidden gs ")
                    for value in [frame.x, bottom, frame.width, frame.height] { procedure.number(value) }
                    procedure.append("re f")
                }
                procedures.append(string: "/g\(code) ")
                procedures.reference(try writer.stream(dictionary: "", procedure))
                if let text = unicode[Int(glyph)], !text.isEmpty { toUnicode.append((code, text)) }
            }
            // Code 255: `m`, drawing nothing, never shown, 0.6 em wide. Poppler's text extraction
            // guesses a Type 3 font's scale from its `m` (else any glyph) as if 0.6 em (0.5 em)
            // wide: emoji 1.245 em wide made each line 2.5 times as tall, and pdftotext read the
            // words before an emoji after it.
            procedures.append("/m ")
            procedures.reference(try writer.stream(dictionary: "", Array("600 0 d0".utf8)))
            let cmap = try writer.stream(dictionary: "", Self.cmap(codeBytes: 1, toUnicode))
            box = box.map { $0.isFinite ? $0 : 0 }
            // A tagged PDF's Type 3 fonts have descriptors (§9.8, Table 112), in glyph space;
            // text extraction takes the line's height from them.
            let descriptor = writer.reserve()
            var body = ByteBuffer()
            body.append(string: "<< /Type /FontDescriptor /FontName /\(program.postScriptName)-\(subfontName(first / 255)) /Flags 4 /FontBBox [ ")
            for value in box { body.number(value) }
            body.append("] /ItalicAngle 0 /Ascent ")
            body.number(box[3])
            body.append("/Descent ")
            body.number(box[1])
            body.append("/CapHeight ")
            body.number(box[3])
            body.append("/StemV 0 >>")
            writer.object(descriptor, body)
            body = ByteBuffer()
            body.append("<< /Type /Font /Subtype /Type3 /FontDescriptor ")
            body.reference(descriptor)
            body.append("/FontBBox [ ")
            for value in box { body.number(value) }
            body.append("] /FontMatrix [0.001 0 0 0.001 0 0] /Resources << /ExtGState << /Hidden << /ca 0 >> >> >> /CharProcs << ")
            body.append(procedures.bytes)
            body.append(">> /Encoding << /Type /Encoding /Differences [0 ")
            for code in glyphs.indices { body.append(string: "/g\(code - first) ") }
            body.append("255 /m ] >> /FirstChar 0 /LastChar 255 /Widths [ ")
            for glyph in glyphs { body.integer(width(glyph)) }
            for _ in glyphs.count..<255 { body.append("0 ") }
            body.append("600 ")
            body.append("] /ToUnicode ")
            body.reference(cmap)
            body.append(">>")
            writer.object(number, body)
        }
    }

    /// The ToUnicode CMap of the glyphs that stand for text, and of the alternate codes.
    private func toUnicodeCMap() -> [UInt8] {
        let mapped = (0..<glyphCount).compactMap { glyph in
            unicode[glyph].flatMap { $0.isEmpty ? nil : (code: glyph, text: $0) }
        }
        return Self.cmap(
            codeBytes: 2, mapped + alternates.enumerated().map { (code: glyphCount + $0.offset, text: $0.element.text) })
    }

    /// A ToUnicode CMap (§9.10.3) of codes of `codeBytes` bytes (2: glyph ids; 1: a Type 3
    /// font's codes) to their text (UTF-8).
    static func cmap(codeBytes: Int, _ mapped: [(code: Int, text: [UInt8])]) -> [UInt8] {
        var cmap = ByteBuffer()
        cmap.append(
            """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange

            """)
        cmap.append(codeBytes == 1 ? "<00> <FF>\n" : "<0000> <FFFF>\n")
        cmap.append("endcodespacerange\n")
        func code(_ value: Int) {
            cmap.append("<")
            if codeBytes == 1 {
                cmap.hex2(UInt8(value))
            } else {
                cmap.hex4(UInt32(value))
            }
            cmap.append(">")
        }
        var start = 0
        while start < mapped.count {
            let block = mapped[start..<min(mapped.count, start + 100)]
            cmap.integer(block.count)
            cmap.append("beginbfchar\n")
            for (value, text) in block {
                code(value)
                cmap.append(" <")
                for unit in String(decoding: text, as: UTF8.self).utf16 { cmap.hex4(UInt32(unit)) }
                cmap.append(">\n")
            }
            cmap.append("endbfchar\n")
            start += block.count
        }
        cmap.append("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")
        return cmap.bytes
    }
}
