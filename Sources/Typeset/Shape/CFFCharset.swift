// The CIDs of a CID-keyed CFF font's glyphs (its charset), read so that FontProgram can tell
// whether a subset may renumber its glyphs: a PDF selects a CID-keyed CFF font's glyphs by CID
// (ISO 32000-2 §9.7.4.2), so a subset whose glyphs keep their CIDs needs no empty glyphs kept
// in place. (Noto Sans CJK's 65,535 glyphs, kept in place, made a PDF of sixty of them 268 KB.)
// The formats: Adobe Technical Note #5176, the Compact Font Format Specification.

enum CFFCharset {
    /// The CID of each glyph of the CFF table `cff` of `glyphCount` glyphs, glyph 0's 0; nil
    /// when the font is not CID-keyed (its Top DICT has no ROS: glyphs are selected by their
    /// ids) or the table cannot be read.
    static func cids(of cff: UnsafeRawBufferPointer, glyphCount: Int) -> [UInt32]? {
        guard cff.count >= 4, glyphCount > 0 else { return nil }
        func card16(_ at: Int) -> Int? { at + 1 < cff.count ? Int(cff[at]) << 8 | Int(cff[at + 1]) : nil }
        func offset(_ at: Int, size: Int) -> Int? {
            guard (1...4).contains(size), at + size <= cff.count else { return nil }
            return (at..<at + size).reduce(0) { $0 << 8 | Int(cff[$1]) }
        }
        /// An INDEX at `at`: where its first object's data is and ends, and where the INDEX ends.
        func index(_ at: Int) -> (first: Range<Int>?, end: Int)? {
            guard let count = card16(at) else { return nil }
            if count == 0 { return (nil, at + 2) }
            guard at + 2 < cff.count else { return nil }
            let size = Int(cff[at + 2])
            let offsets = at + 3
            let data = offsets + (count + 1) * size - 1  // offsets count from 1
            guard let start = offset(offsets, size: size), let end = offset(offsets + size, size: size),
                let last = offset(offsets + count * size, size: size), start >= 1, start <= end, end <= last,
                data + last <= cff.count
            else { return nil }
            return (data + start..<data + end, data + last)
        }
        // Header, Name INDEX, then the Top DICT INDEX: its first DICT.
        guard let names = index(Int(cff[2])), let top = index(names.end), let dict = top.first else { return nil }
        var charset: Int?
        var isCIDKeyed = false
        var operands: [Int] = []
        var at = dict.lowerBound
        while at < dict.upperBound {
            let byte = Int(cff[at])
            switch byte {
            case 32...246:
                operands.append(byte - 139)
                at += 1
            case 247...254:
                guard at + 1 < dict.upperBound else { return nil }
                let value = (byte < 251 ? (byte - 247) : (byte - 251)) * 256 + Int(cff[at + 1]) + 108
                operands.append(byte < 251 ? value : -value)
                at += 2
            case 28:
                guard at + 2 < dict.upperBound else { return nil }
                operands.append(Int(Int16(bitPattern: UInt16(cff[at + 1]) << 8 | UInt16(cff[at + 2]))))
                at += 3
            case 29:
                guard at + 4 < dict.upperBound, let value = offset(at + 1, size: 4) else { return nil }
                operands.append(Int(Int32(bitPattern: UInt32(value))))
                at += 5
            case 30:  // a real, in nibbles up to an 0xF
                at += 1
                while at < dict.upperBound, cff[at] & 0x0F != 0x0F, cff[at] >> 4 != 0x0F { at += 1 }
                at += 1
                operands.append(0)
            case 12:
                guard at + 1 < dict.upperBound else { return nil }
                if cff[at + 1] == 30 { isCIDKeyed = true }  // ROS
                operands.removeAll()
                at += 2
            case 0...21:
                if byte == 15 { charset = operands.last }
                operands.removeAll()
                at += 1
            default:
                return nil
            }
        }
        // Charsets 0 to 2 are the predefined ones of name-keyed fonts.
        guard isCIDKeyed, let charset, charset > 2, charset < cff.count else { return nil }
        var cids: [UInt32] = [0]
        cids.reserveCapacity(glyphCount)
        var next = charset + 1
        switch cff[charset] {
        case 0:
            while cids.count < glyphCount {
                guard let cid = card16(next) else { return nil }
                cids.append(UInt32(cid))
                next += 2
            }
        case 1, 2:
            let wide = cff[charset] == 2
            while cids.count < glyphCount {
                guard let first = card16(next) else { return nil }
                let left = wide ? card16(next + 2) : (next + 2 < cff.count ? Int(cff[next + 2]) : nil)
                guard let left else { return nil }
                for cid in first...first + left where cids.count < glyphCount { cids.append(UInt32(cid)) }
                next += wide ? 4 : 3
            }
        default:
            return nil
        }
        return cids
    }
}
