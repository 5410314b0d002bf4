// The fonts of one PDF: each face used becomes a Type 0 font with Identity-H encoding over a
// CIDFont whose CIDs are the glyph ids HarfBuzz shaped with (ISO 32000-1 §9.7), its program a
// subset holding only the glyphs drawn (FontProgram), its ToUnicode CMap (§9.10.3) the text each
// glyph was first drawn for. A glyph drawn for other text later, or a cluster of several
// glyphs, gets /ActualText in the content stream instead (PDFPageContent).
import Glibc

/// One font face as used so far in the document.
final class PDFFont {
    /// Resource name: `F1`, `F2`, ... in order of first use.
    let name: String
    /// The Type 0 font object, reserved when the font is first used.
    let object: Int
    let face: FontFace
    let program: FontProgram
    /// Glyphs in the font: valid ids are below.
    let glyphCount: Int
    /// Per glyph id: its advance in 1/1000 em as /W gives it (what content streams assume), or
    /// -1 while unused. Plain memory: read for every glyph drawn.
    private let widths: UnsafeMutablePointer<Int32>
    /// Per glyph id: the text (UTF-8) it stands for in ToUnicode, from its first one-glyph
    /// cluster; nil while it stands for nothing.
    private let unicode: UnsafeMutablePointer<[UInt8]?>

    init(name: String, object: Int, face: FontFace) throws {
        self.name = name
        self.object = object
        self.face = face
        program = FontProgram(face)
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

    /// The width of `glyph` (below `glyphCount`) in 1/1000 em, recording it as used.
    func width(_ glyph: UInt32) -> Int {
        let known = widths[Int(glyph)]
        if known >= 0 { return Int(known) }
        let width = Int32((Double(program.advance(glyph)) * 1000 / Double(program.unitsPerEm)).rounded())
        widths[Int(glyph)] = max(0, width)
        return Int(max(0, width))
    }

    /// Makes `glyph` stand for `text` in ToUnicode if it stands for nothing yet; true when it
    /// now stands for exactly `text` (no /ActualText needed). A glyph of no text (the hyphen
    /// shown at a soft hyphen) is never mapped: the font's real hyphens then stand for "-",
    /// also for the readers that ignore /ActualText.
    func map(_ glyph: UInt32, to text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !text.isEmpty else { return false }
        if let existing = unicode[Int(glyph)] {
            // Compared as memory: elementsEqual went a byte at a time through iterators.
            return existing.withUnsafeBufferPointer { known in
                guard known.count == text.count else { return false }
                // Both empty when either has no storage.
                guard let knownBytes = known.baseAddress, let textBytes = text.baseAddress else { return true }
                return memcmp(knownBytes, textBytes, text.count) == 0
            }
        }
        unicode[Int(glyph)] = Array(text)
        return true
    }

    private var usedGlyphs: [UInt32] {
        (0..<glyphCount).filter { widths[$0] >= 0 }.map { UInt32($0) }
    }

    /// Writes the font's objects: program, descriptor, CIDFont, ToUnicode and the Type 0 font.
    func write(to writer: PDFObjectWriter) throws {
        let glyphs = usedGlyphs
        // A bitmap font's glyphs are drawn as images: its text is invisible, and its program
        // (bitmaps: no outlines, or empty ones) is left out, which viewers read as a font to find
        // on the system.
        let bitmap = self.program.isBitmap
        guard let program = bitmap ? [] : self.program.subset(glyphs: glyphs) else {
            throw RenderError.font(path: face.path, reason: "HarfBuzz could not subset \(self.program.postScriptName)")
        }
        let scale = 1000 / Double(self.program.unitsPerEm)
        // A subset's name starts with a tag of six capitals (§9.6.4), here from its glyphs.
        var hash: UInt32 = 2_166_136_261
        for glyph in glyphs { hash = (hash ^ glyph) &* 16_777_619 }
        var tag = ""
        for _ in 0..<6 {
            tag.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(hash % 26))))
            hash /= 26
        }
        // (A font left out has its own name: the tag names a subset embedded.)
        let baseFont = "/\(bitmap ? "" : tag + "+")\(self.program.postScriptName)"

        // TrueType outlines: FontFile2 under a CIDFontType2. CFF (an OpenType file from
        // hb-subset): FontFile3 /OpenType under a CIDFontType0, whose CIDs are its glyph ids.
        let trueType = self.program.isTrueType || bitmap
        let file = bitmap ? nil : try writer.stream(
            dictionary: trueType ? "/Length1 \(program.count)" : "/Subtype /OpenType", program)

        let descriptor = writer.reserve()
        var body = PDFBuffer()
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
        body.append("/StemV 80 ")
        if let file {
            body.append(trueType ? "/FontFile2 " : "/FontFile3 ")
            body.reference(file)
        }
        body.append(">>")
        writer.object(descriptor, body)

        let cidFont = writer.reserve()
        body = PDFBuffer()
        body.append(string: "<< /Type /Font /Subtype /\(trueType ? "CIDFontType2" : "CIDFontType0") /BaseFont \(baseFont)")
        body.append(" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>")
        body.append(" /FontDescriptor ")
        body.reference(descriptor)
        body.append(trueType ? "/CIDToGIDMap /Identity /W [" : "/W [")
        // Runs of consecutive glyph ids: `first [w1 w2 ...]`.
        var index = 0
        while index < glyphs.count {
            body.append("\n")
            body.integer(Int(glyphs[index]))
            body.append("[ ")
            var next = index
            repeat {
                body.integer(Int(widths[Int(glyphs[next])]))
                next += 1
            } while next < glyphs.count && glyphs[next] == glyphs[next - 1] + 1
            body.append("]")
            index = next
        }
        body.append(" ] >>")
        writer.object(cidFont, body)

        let toUnicode = try writer.stream(dictionary: "", toUnicodeCMap())

        body = PDFBuffer()
        body.append(string: "<< /Type /Font /Subtype /Type0 /BaseFont \(baseFont) /Encoding /Identity-H /DescendantFonts [ ")
        body.reference(cidFont)
        body.append("] /ToUnicode ")
        body.reference(toUnicode)
        body.append(">>")
        writer.object(object, body)
    }

    /// The ToUnicode CMap of the glyphs that stand for text.
    private func toUnicodeCMap() -> [UInt8] {
        var cmap = PDFBuffer()
        cmap.append(
            """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """)
        let mapped = (0..<glyphCount).compactMap { glyph in
            unicode[glyph].flatMap { $0.isEmpty ? nil : (key: UInt32(glyph), value: $0) }
        }
        var start = 0
        while start < mapped.count {
            let block = mapped[start..<min(mapped.count, start + 100)]
            cmap.integer(block.count)
            cmap.append("beginbfchar\n")
            for (glyph, text) in block {
                cmap.append("<")
                cmap.hex4(glyph)
                cmap.append("> <")
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
