// A TrueType font (glyf outlines) cut down to the glyphs a PDF draws, glyph ids kept (so that
// content streams use HarfBuzz's ids as CIDs with /CIDToGIDMap /Identity). ISO 32000-1 §9.9
// wants only head, hhea, loca, maxp, cvt, prep, glyf, hmtx and fpgm of an embedded TrueType
// program; this keeps the first six, without hinting. The outlines of the glyphs not drawn are
// left empty, and the glyph tables end at the highest id used. Glyphs raised or lowered off the
// baseline (a vowel mark, which HarfBuzz places by an offset) can be added past the font's own
// ids, each a composite of one component moved by its offset (`Shift`): a PDF draws them on the
// baseline, with no text matrix of their own (PDFPageContent).
//
// Why not hb-subset: it plans a subset from the whole font (cmap, layout closure) before it
// drops what was not asked for — 1.3 million instructions a font, two thirds of the time of a
// one-page PDF (issue 8). This is a copy of the glyphs drawn. CFF fonts still go to hb-subset.

enum TrueTypeSubsetter {
    /// A glyph moved right by `dx` and up by `dy` font units (left and down when negative);
    /// nil: an empty glyph.
    struct Shift: Hashable {
        var glyph: UInt32?
        var dx: Int16
        var dy: Int16
    }

    /// The subset font file of `glyphs` (plus .notdef and the glyphs composites are built from),
    /// from a font's glyf and loca tables, read in place, and its other tables (`table(tag)`
    /// gives a copy, nil when absent); nil when the font has no well-formed glyf outlines. With
    /// `shifted`, the glyph tables go on to the font's glyph count, and the n-th shifted glyph
    /// is glyph count + n.
    static func subset(
        glyphs: [UInt32], shifted: [Shift] = [], glyf: UnsafeRawBufferPointer, loca: UnsafeRawBufferPointer,
        table: (String) -> [UInt8]?
    ) -> [UInt8]? {
        guard var head = table("head"), head.count >= 54, var hhea = table("hhea"), hhea.count >= 36,
            var maxp = table("maxp"), maxp.count >= 6, let hmtx = table("hmtx"), !glyf.isEmpty
        else { return nil }
        let glyphCount = Int(uint16(maxp, 4))
        let longOffsets = uint16(head, 50) == 1
        guard loca.count >= (glyphCount + 1) * (longOffsets ? 4 : 2), glyphCount + shifted.count <= 0xFFFF else {
            return nil
        }
        func outline(_ glyph: Int) -> Range<Int>? {
            guard glyph < glyphCount else { return nil }
            let start = outlineOffset(loca, glyph, long: longOffsets)
            let end = outlineOffset(loca, glyph + 1, long: longOffsets)
            return start <= end && end <= glyf.count ? start..<end : nil
        }

        // The glyphs to keep: those drawn, .notdef, and the components of composites.
        var keep = [Bool](repeating: false, count: glyphCount)
        var pending = ([0] + glyphs.map(Int.init) + shifted.compactMap { $0.glyph.map(Int.init) }).filter { $0 < glyphCount }
        while let glyph = pending.popLast() {
            guard !keep[glyph] else { continue }
            keep[glyph] = true
            guard let range = outline(glyph), range.count >= 10, Int16(bitPattern: uint16(glyf, range.lowerBound)) < 0
            else { continue }
            _ = components(UnsafeRawBufferPointer(rebasing: glyf[range])) { flagsOffset in
                // A damaged font's component may name a glyph it does not have (it crashed).
                let component = Int(uint16(glyf, range.lowerBound + flagsOffset + 2))
                if component < glyphCount { pending.append(component) }
            }
        }
        let count = shifted.isEmpty ? (keep.lastIndex(of: true) ?? 0) + 1 : glyphCount

        var newGlyf: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        for glyph in 0..<count {
            starts.append(newGlyf.count)
            if keep[glyph], let range = outline(glyph) {
                appendWithoutInstructions(UnsafeRawBufferPointer(rebasing: glyf[range]), to: &newGlyf)
                while newGlyf.count % 4 != 0 { newGlyf.append(0) }
            }
        }
        // Each shifted glyph: a composite of one component, the glyph at (dx, dy), its box moved
        // as much (ARG_1_AND_2_ARE_WORDS, ARGS_ARE_XY_VALUES; not rounded to the grid). One of no
        // outline stays empty.
        var shiftedBoxes: [UInt16] = []  // each one's xMin, for hmtx
        for shift in shifted {
            starts.append(newGlyf.count)
            guard let glyph = shift.glyph, let range = outline(Int(glyph)), range.count >= 10 else {
                shiftedBoxes.append(0)
                continue
            }
            func moved(_ offset: Int, by delta: Int16) -> UInt16 {
                let value = Int(Int16(bitPattern: uint16(glyf, range.lowerBound + offset))) + Int(delta)
                return UInt16(bitPattern: Int16(clamping: value))
            }
            let box = [moved(2, by: shift.dx), moved(4, by: shift.dy), moved(6, by: shift.dx), moved(8, by: shift.dy)]
            shiftedBoxes.append(box[0])
            let (dx, dy) = (UInt16(bitPattern: shift.dx), UInt16(bitPattern: shift.dy))
            for value in [0xFFFF] + box + [0x0003, UInt16(glyph), dx, dy] { append16(value, to: &newGlyf) }
            while newGlyf.count % 4 != 0 { newGlyf.append(0) }
        }
        starts.append(newGlyf.count)
        // Short offsets (halved, 16 bits) while the outlines take under 128 KB.
        let shortOffsets = newGlyf.count < 0x20000
        var newLoca = [UInt8](repeating: 0, count: (shortOffsets ? 2 : 4) * starts.count)
        for (index, start) in starts.enumerated() {
            if shortOffsets {
                set16(UInt16(start / 2), in: &newLoca, at: 2 * index)
            } else {
                set16(UInt16(start >> 16), in: &newLoca, at: 4 * index)
                set16(UInt16(start & 0xFFFF), in: &newLoca, at: 4 * index + 2)
            }
        }

        let metricsCount = Int(uint16(hhea, 34))
        let newMetricsCount = min(metricsCount, count)
        let metricsLength = 4 * newMetricsCount + 2 * (count - newMetricsCount)
        guard metricsCount >= 1, hmtx.count >= metricsLength else { return nil }
        set16(UInt16(newMetricsCount), in: &hhea, at: 34)
        set16(UInt16(count + shifted.count), in: &maxp, at: 4)
        var newHmtx = Array(hmtx[0..<metricsLength])
        for xMin in shiftedBoxes { append16(xMin, to: &newHmtx) }
        if !shifted.isEmpty && maxp.count >= 32 {
            // maxp 1.0's limits for composites: their points and contours (at most a glyph's),
            // elements (one) and depth (one more than the font's own).
            set16(max(uint16(maxp, 10), uint16(maxp, 6)), in: &maxp, at: 10)
            set16(max(uint16(maxp, 12), uint16(maxp, 8)), in: &maxp, at: 12)
            set16(max(uint16(maxp, 28), 1), in: &maxp, at: 28)
            set16(min(uint16(maxp, 30), 15) + 1, in: &maxp, at: 30)
        }
        set16(shortOffsets ? 0 : 1, in: &head, at: 50)  // indexToLocFormat
        head.replaceSubrange(8..<12, with: [0, 0, 0, 0])  // checkSumAdjustment: not needed in a PDF

        let tables: [(tag: String, data: [UInt8])] = [
            ("glyf", newGlyf), ("head", head), ("hhea", hhea), ("hmtx", newHmtx),
            ("loca", newLoca), ("maxp", maxp),
        ]
        return sfnt(tables)
    }

    /// A glyph's outline without its hinting instructions (PDF viewers scale outlines
    /// unhinted; cvt, fpgm and prep are left out with them, as hb-subset's NO_HINTING does).
    private static func appendWithoutInstructions(_ bytes: UnsafeRawBufferPointer, to glyf: inout [UInt8]) {
        guard bytes.count >= 10 else { return }
        let contours = Int(Int16(bitPattern: uint16(bytes, 0)))
        if contours >= 0 {
            // Header, end points, instruction length, instructions, then flags and coordinates.
            let lengthOffset = 10 + 2 * contours
            let instructions = Int(uint16(bytes, lengthOffset))
            guard lengthOffset + 2 + instructions <= bytes.count else { return glyf.append(contentsOf: bytes) }
            glyf.append(contentsOf: bytes[0..<lengthOffset])
            glyf.append(contentsOf: [0, 0])
            glyf.append(contentsOf: bytes[(lengthOffset + 2 + instructions)...])
            return
        }
        // A composite: instructions follow the last component when it has WE_HAVE_INSTRUCTIONS.
        var lastFlags = 10
        let offset = components(bytes) { lastFlags = $0 }
        // (A composite too short for one component, in a damaged font, is copied as it is.)
        guard offset <= bytes.count, lastFlags + 2 <= offset else { return glyf.append(contentsOf: bytes) }
        var copy = Array(bytes[0..<offset])
        set16(uint16(copy, lastFlags) & ~0x0100, in: &copy, at: lastFlags)
        glyf.append(contentsOf: copy)
    }

    /// Walks the components of the composite glyph `bytes` (from byte 10: OpenType glyf,
    /// "Composite glyph description"), calling `visit` with the offset of each one's flags (its
    /// glyph index follows them); returns the offset after the last component.
    private static func components(_ bytes: UnsafeRawBufferPointer, _ visit: (Int) -> Void) -> Int {
        var offset = 10
        while offset + 4 <= bytes.count {
            let flags = uint16(bytes, offset)
            visit(offset)
            offset += 4 + (flags & 0x0001 != 0 ? 4 : 2)  // ARG_1_AND_2_ARE_WORDS
            // WE_HAVE_A_SCALE, WE_HAVE_AN_X_AND_Y_SCALE, WE_HAVE_A_TWO_BY_TWO
            if flags & 0x0008 != 0 {
                offset += 2
            } else if flags & 0x0040 != 0 {
                offset += 4
            } else if flags & 0x0080 != 0 {
                offset += 8
            }
            if flags & 0x0020 == 0 { break }  // MORE_COMPONENTS
        }
        return offset
    }

    /// An sfnt file of `tables` (sorted by tag).
    private static func sfnt(_ tables: [(tag: String, data: [UInt8])]) -> [UInt8] {
        var file: [UInt8] = []
        append32(0x0001_0000, to: &file)
        var power = 1
        var log = 0
        while power * 2 <= tables.count {
            power *= 2
            log += 1
        }
        for value in [tables.count, 16 * power, log, 16 * (tables.count - power)] {
            file.append(UInt8(value >> 8 & 0xFF))
            file.append(UInt8(value & 0xFF))
        }
        var offset = 12 + 16 * tables.count
        for (tag, data) in tables {
            file.append(contentsOf: tag.utf8)
            append32(checksum(data), to: &file)
            append32(UInt32(offset), to: &file)
            append32(UInt32(data.count), to: &file)
            offset += (data.count + 3) / 4 * 4
        }
        for (_, data) in tables {
            file.append(contentsOf: data)
            while file.count % 4 != 0 { file.append(0) }
        }
        return file
    }

    private static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < data.count {
            var word: UInt32 = 0
            for byte in 0..<4 { word = word << 8 | UInt32(index + byte < data.count ? data[index + byte] : 0) }
            sum = sum &+ word
            index += 4
        }
        return sum
    }

    /// Where glyph `glyph`'s outline begins in `glyf`, as `loca` says (`long`: head's
    /// indexToLocFormat is 1); 0 past the table's end.
    static func outlineOffset(_ loca: UnsafeRawBufferPointer, _ glyph: Int, long: Bool) -> Int {
        long ? Int(uint32(loca, 4 * glyph)) : 2 * Int(uint16(loca, 2 * glyph))
    }

    static func uint16<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ offset: Int) -> UInt16
    where Bytes.Element == UInt8, Bytes.Index == Int {
        offset + 2 <= bytes.count ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) : 0
    }

    private static func uint32<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ offset: Int) -> UInt32
    where Bytes.Element == UInt8, Bytes.Index == Int {
        offset + 4 <= bytes.count ? UInt32(uint16(bytes, offset)) << 16 | UInt32(uint16(bytes, offset + 2)) : 0
    }

    private static func set16(_ value: UInt16, in bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(value >> 8)
        bytes[offset + 1] = UInt8(value & 0xFF)
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 24))
        bytes.append(UInt8(value >> 16 & 0xFF))
        bytes.append(UInt8(value >> 8 & 0xFF))
        bytes.append(UInt8(value & 0xFF))
    }
}
