// The content stream of a PDF page (ISO 32000-1 §8, §9.4): glyph runs, rectangles, rules,
// images and pages inside pages, in the layout's coordinates (points from the top-left, y down;
// PDFWriter starts each page with the flip).
//
// Text: one text object per run, the font at the run's size, and a TJ array of glyph ids whose
// positions are kept exact with adjustments (in 1/1000 of the size) wherever HarfBuzz's
// positions differ from the advances /W gives. Clusters are written left to right, as Chrome
// writes them: a right-to-left run's inside /ReversedChars (ISO 32000-1 §14.8.2.3.3), which the
// readers of the browsers (PDFium, pdf.js) and pypdf turn round by their own bidi pass; drawn
// in reading order, as Cairo draws them, they read every word backwards (Details.md has the
// readers measured). The runs of a line come in reading order (PageEmitter), and so do the
// clusters of a run of right-to-left letters past the BMP, which those readers take for left to
// right. A cluster of one glyph relies on the font's ToUnicode (a glyph drawn for a second
// text, such as a bracket mirrored in right-to-left text, by a code of its own:
// `PDFFont.code(for:drawnFor:)`); several glyphs for one text are wrapped in /ActualText, and the
// glyphs of a letter with its marks also stand for their own characters, letter first, for the
// readers that ignore /ActualText (`PDFFont.mapParts`); the span's last glyph reaches the
// cluster's right edge by character spacing, as poppler measures a span (`spanReach`). In a
// right-to-left run drawn left to right, a letter's glyphs stand for its characters without
// /ActualText, its marks drawn first at its origin, on the baseline, by glyphs the font's
// subset moves to where HarfBuzz put them (`baselineCodes`), a ligature's glyph standing for
// its last letter and codes that draw nothing for the others: one TJ for the run. A
// left-to-right run's glyphs off the baseline are drawn on it the same way, and a space after a
// span of /ActualText in the span, which stands for it too (never a TJ of its own). A bitmap
// font's glyphs (color emoji) are codes of its Type 3 fonts (PDFFonts.swift), each placed by its
// own `Tm` and shown by `Tj`, invisibly: their images are drawn after the text object, as
// pictures are.
import CCairo

/// The content stream of one page being written. A value on the writer's stack: its bytes
/// are appended to for every glyph, without the run-time exclusivity checks of a class's
/// properties.
struct PDFPageContent: ~Copyable {
    let resources: PDFResources
    var bytes: ByteBuffer
    /// The fill color set in the stream (nil: unknown), and those saved by each open `q`.
    private var fillColor: Color?
    private var savedFillColors: [Color?] = []

    /// Appends to `bytes` (the room of the last page's, reused).
    init(resources: PDFResources, bytes: consuming ByteBuffer) {
        self.resources = resources
        self.bytes = bytes
    }

    /// Draws one shape, picture or run (PDFWriter marks it first; tags and pages inside the
    /// page are the writer's).
    mutating func draw(_ item: PageItem, page: Int, item itemNumber: Int) throws {
        switch item {
        case .glyphs(let run):
            try draw(run, page: page, item: itemNumber)
        case .rectangle(let rectangle):
            draw(rectangle)
        case .rule(let rule):
            draw(rule)
        case .image(let image):
            try draw(image)
        case .beginTag, .endTag, .subpage:
            break  // PDFWriter's
        }
    }

    // MARK: - Text

    mutating func draw(_ run: GlyphRun, page: Int, item: Int) throws {
        guard !run.glyphs.isEmpty else { return }
        // A right-to-left run's ZWNJs and ZWJs (but an emoji's) are left out of its text here:
        // poppler reverses the characters a glyph or an /ActualText stands for in a
        // right-to-left line, and put the ZWNJ before its letter ("م‌یخواهم" for "می‌خواهم").
        // A left-to-right run's stay (Sinhala's "ශ්‍රී").
        try run.checkMade(page: page, item: item)  // (before its clusters are read)
        if run.backward, let stripped = Self.withoutSteeringJoiners(run) { return try draw(stripped, page: page, item: item) }
        let font = try resources.font(for: run.font)
        try run.checkGlyphs(fontGlyphCount: font.glyphCount, page: page, item: item)
        let transparent = beginAlpha(run.color.alpha)
        // A bitmap font's glyphs are codes of its Type 3 fonts (PDFFonts.swift), shown one by
        // one, each setting the font it is in.
        let bitmap = font.program.isBitmap
        // Translucent text is a clip of its glyphs, filled once (text rendering mode 7): filled
        // glyph by glyph, where glyphs overlap (an Arabic join, a mark on its letter) the color
        // was laid on twice, darker than the rest, as neither SVG nor PNG shows it.
        let clipped = transparent && !bitmap
        bytes.append(bitmap ? "BT 3 Tr " : clipped ? "BT 7 Tr " : "BT ")
        // A right-to-left run is drawn left to right, but for letters past the BMP (Adlam,
        // Hanifi Rohingya), which the readers do not count as right to left: turned round,
        // they read backwards.
        let visual = run.backward && !Self.hasRightToLeftPastBMP(run.text)
        if visual { bytes.append("/ReversedChars BMC ") }
        if !bitmap {
            bytes.append("/")
            bytes.append(string: font.name)
            bytes.append(" ")
            bytes.number(run.size)
            bytes.append("Tf ")
        }
        if !clipped { color(run.color) }
        var line = TJWriter(size: run.size, font: bitmap ? "" : font.name)
        var text = run.text
        text.withUTF8 { utf8 in
            if run.clusters.isEmpty {
                for glyph in run.glyphs { line.show(glyph, code: glyph.id, of: font, bitmap: bitmap, in: &bytes) }
                return
            }
            // Clusters go left to right, a right-to-left run's from its last, its text from the
            // end (clusters map text forwards, a backward run's glyphs from the end); a run kept
            // in reading order goes from its first, its glyphs from the end.
            var textStart = 0
            var textEnd = visual ? run.clusters.reduce(0) { $0 + $1.utf8Count } : 0
            var glyphStart = 0
            var glyphEnd = run.glyphs.count
            var spaceJoined = false  // the cluster at hand is a space drawn in the span before it
            for n in run.clusters.indices {
                if spaceJoined {
                    spaceJoined = false
                    continue
                }
                let cluster = run.clusters[visual ? run.clusters.count - 1 - n : n]
                let clusterText: UnsafeBufferPointer<UInt8>
                if visual {
                    clusterText = UnsafeBufferPointer(rebasing: utf8[textEnd - cluster.utf8Count..<textEnd])
                    textEnd -= cluster.utf8Count
                } else {
                    clusterText = UnsafeBufferPointer(rebasing: utf8[textStart..<textStart + cluster.utf8Count])
                    textStart += cluster.utf8Count
                }
                let glyphs: Range<Int>
                if run.backward && !visual {
                    glyphs = glyphEnd - cluster.glyphCount..<glyphEnd
                    glyphEnd -= cluster.glyphCount
                } else {
                    glyphs = glyphStart..<glyphStart + cluster.glyphCount
                    glyphStart += cluster.glyphCount
                }
                // A right-to-left cluster of several glyphs, of one off the baseline, or of one for
                // several characters (lam-alef): each glyph stands for its part, drawn on the
                // baseline as HarfBuzz orders them, its marks before its letter (`baselineCodes`).
                if visual && !bitmap,
                    glyphs.count > 1 || Self.isOffBaseline(run.glyphs[glyphs.lowerBound], in: run)
                        || clusterText.count(where: { $0 & 0xC0 != 0x80 }) > 1,
                    let shown = baselineCodes(run, glyphs, clusterText, font)
                {
                    for item in shown {
                        let at = PositionedGlyph(id: 0, x: item.x, y: run.baseline)
                        line.show(at, code: item.code, width: item.width, in: &bytes)
                    }
                    continue
                }
                // (The hyphen at a soft hyphen stays without text but in left-to-right text of a
                // left-to-right paragraph: poppler put it before the word, "-העי" for "העי-",
                // or, in a right-to-left paragraph, joined the word to the wrong one.)
                let code = glyphs.count == 1 && (run.leftToRightInLeftToRight || !clusterText.isEmpty)
                    ? font.code(for: run.glyphs[glyphs.lowerBound].id, drawnFor: clusterText) : nil
                let mapped = code != nil
                // A space between two clusters in /ActualText (Hindi's words, most of whose last
                // clusters are several glyphs) is drawn in the span before it, which stands for
                // it too: alone in its TJ, of no ink, it was a text object of no width to PDFium,
                // which left it out ("करेंसूचनाएं" for "करें सूचनाएं").
                let spaceFollows = !mapped && !bitmap && !run.backward && n + 1 < run.clusters.count
                    && run.clusters[n + 1].glyphCount == 1 && run.clusters[n + 1].utf8Count == 1
                    && utf8[textStart] == 0x20
                let space = spaceFollows
                    ? font.code(for: run.glyphs[glyphStart].id, drawnFor: UnsafeBufferPointer(rebasing: utf8[textStart...textStart]))
                    : nil
                if !mapped {
                    // (The cluster's text and the space after it.)
                    let spanText = space == nil
                        ? clusterText : UnsafeBufferPointer(rebasing: utf8[textStart - clusterText.count...textStart])
                    line.beginActualText(spanText, in: &bytes)
                    if glyphs.count > 1 && !bitmap { font.mapParts(run.glyphs[glyphs], of: clusterText) }
                }
                // A right-to-left cluster's glyphs come from HarfBuzz reversed, its marks before
                // its letter: they go letter first, in text order, for the readers that read
                // the glyphs rather than the /ActualText.
                let reversed = run.backward && glyphs.count > 1
                let reach = mapped || bitmap || glyphs.count < 2 ? 0 : spanReach(run, glyphs, last: reversed ? glyphs.lowerBound : glyphs.upperBound - 1, of: font)
                func drawn(_ k: Int) -> Int { reversed ? glyphs.upperBound - 1 - k : glyphs.lowerBound + k }
                // Glyphs that do not read as the cluster: each stands for its part of it.
                let parts = mapped || bitmap || glyphs.count < 2 ? nil
                    : font.clusterCodes((0..<glyphs.count).lazy.map { run.glyphs[drawn($0)].id }, for: clusterText)
                for k in 0..<glyphs.count {
                    let index = drawn(k)
                    if k == glyphs.count - 1 && reach > 0.0005 { line.beginSpacing(reach, in: &bytes) }
                    let shown = parts?[k] ?? code ?? run.glyphs[index].id
                    // A left-to-right run's glyph off the baseline (a Thai tone mark) is drawn on
                    // it, moved in the font, as a right-to-left run's marks are (`baselineCodes`):
                    // PDFium read "การตั้งค่า" as "การ ช้ ตั้งตั้ ค่า".
                    let glyph = run.glyphs[index]
                    if !run.backward && !bitmap && Self.isOffBaseline(glyph, in: run),
                        let moved = movedCode(shown, of: glyph, to: glyph.x, in: run, font)
                    {
                        line.show(
                            PositionedGlyph(id: glyph.id, x: glyph.x, y: run.baseline), code: moved, of: font, bitmap: false,
                            in: &bytes)
                    } else {
                        line.show(glyph, code: shown, of: font, bitmap: bitmap, in: &bytes)
                    }
                }
                if let space {
                    // (Under the last glyph's character spacing, if any: it has no ink, and the
                    // next glyph is placed by a `Tm`.)
                    line.show(run.glyphs[glyphStart], code: space, of: font, bitmap: false, in: &bytes)
                    textStart += 1
                    glyphStart += 1
                    spaceJoined = true
                }
                if reach > 0.0005 { line.endSpacing(in: &bytes) }
                if !mapped { line.endActualText(in: &bytes) }
            }
        }
        line.end(in: &bytes)
        if visual { bytes.append("EMC ") }
        bytes.append(bitmap ? "0 Tr ET\n" : "ET\n")
        if clipped {
            // Anything larger than a page: the glyphs' clip cuts it.
            color(run.color)
            bytes.append("-100000 -100000 200000 200000 re f\n")
        }
        if bitmap {
            for glyph in run.glyphs {
                guard let (name, image) = try resources.image(of: glyph.id, in: font) else { continue }
                let frame = image.frame(originX: glyph.x, originY: glyph.y, size: run.size)
                bytes.append("q ")
                bytes.number(frame.width)
                bytes.append("0 0 ")
                bytes.number(-frame.height)
                bytes.number(frame.x)
                bytes.number(frame.y + frame.height)
                bytes.append("cm /")
                bytes.append(string: name)
                bytes.append(" Do Q\n")
            }
        }
        if transparent { restore() }
    }

    /// `run` with its text and clusters without the ZWNJs and ZWJs that steer letters (not an
    /// emoji's: `isPartOfEmoji`), or nil when it has none. Runs without a ZWNJ or ZWJ (E2 80 8C,
    /// E2 80 8D), nearly all, are passed over by memchr: a right-to-left list's bullet (E2 80
    /// A2) is the only E2 most documents have.
    private static func withoutSteeringJoiners(_ run: GlyphRun) -> GlyphRun? {
        var text = run.text
        let hasJoiner = text.withUTF8 { utf8 in
            guard var at = utf8.baseAddress else { return false }
            let end = at + utf8.count
            while let found = memchr(at, 0xE2, end - at) {
                let byte = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                if end - byte >= 3 && byte[1] == 0x80 && byte[2] & 0xFE == 0x8C { return true }
                at = byte + 1
            }
            return false
        }
        guard hasJoiner else { return nil }
        let bytes = Array(run.text.utf8)
        var stripped = run
        var kept: [UInt8] = []
        var start = 0
        var changed = false
        // Clusters map text forwards from the start, whichever way their glyphs go.
        for (index, cluster) in run.clusters.enumerated() {
            let scalars = Array(String(decoding: bytes[start..<start + cluster.utf8Count], as: UTF8.self).unicodeScalars)
            start += cluster.utf8Count
            let before = kept.count
            for (i, scalar) in scalars.enumerated() {
                if steersLetters(scalar) && !isPartOfEmoji(scalars, at: i, in: scalars.indices) {
                    changed = true
                } else {
                    UTF8.encode(scalar) { kept.append($0) }
                }
            }
            stripped.clusters[index].utf8Count = kept.count - before
        }
        guard changed else { return nil }
        kept += bytes[start...]
        stripped.text = String(decoding: kept, as: UTF8.self)
        return stripped
    }

    /// Whether `text` has a right-to-left letter past the BMP (Adlam, Hanifi Rohingya, Mende
    /// Kikakui, …), which PDFium, pdf.js and pypdf read as left to right. (Only four-byte
    /// UTF-8 is past the BMP: most runs are passed over by their bytes.)
    private static func hasRightToLeftPastBMP(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 >= 0xF0 }) else { return false }
            return String(decoding: utf8, as: UTF8.self).unicodeScalars.contains {
                $0.value > 0xFFFF && ($0.bidiClass == .R || $0.bidiClass == .AL)
            }
        }
    }

    /// For a cluster of a right-to-left run drawn left to right (`glyphs`, in HarfBuzz's order:
    /// its marks before its letter) of several glyphs, of one off the baseline or of one for
    /// several characters: the codes to draw, in that order, each where it is drawn on the run's
    /// baseline and with its width as /W gives it. They stand for the cluster's `text` one
    /// character each in ToUnicode, with no /ActualText. A glyph of no width (a mark) is shown
    /// at its letter's origin (the cluster's widest glyph) by a code of its glyph moved there
    /// in the font (`PDFFont.shiftedCode`); a glyph of width off the baseline, by a code of its
    /// glyph moved up or down; a glyph for several characters (a ligature: lam-alef, lam with
    /// alef maksura; a mark for the rest of its cluster) stands for its last, and codes that
    /// show nothing (`PDFFont.blankCode`), drawn after it where its advance ends, for the
    /// others. (Drawn before it, a blank of no width was a space away from it in pdf.js, which
    /// measures the gap to a glyph from the last glyph of width: "ل ا" for "لا".)
    ///
    /// PDFium (Chrome, Edge) began a new line at a mark that a text matrix of its own set more
    /// than half a glyph's width above or below the letter before, and read an /ActualText in
    /// a right-to-left line out of order ("رتشاِ" for "اشترِ"); moved up only, at its own x, a
    /// mark was a space away from its letter in PDFium and poppler, and on a line of its own in
    /// poppler. PDFium, poppler and MuPDF turn round the characters of one glyph in a
    /// right-to-left line: "الإعدادات" read "اإلعدادات", "إلى" "إىل". Nil for a cluster of marks
    /// alone, or when the font has no codes to give (a CFF font): it is drawn as in
    /// left-to-right text.
    private func baselineCodes(
        _ run: GlyphRun, _ glyphs: Range<Int>, _ text: UnsafeBufferPointer<UInt8>, _ font: PDFFont
    ) -> [(code: UInt32, x: Double, width: Int)]? {
        guard !text.isEmpty else { return nil }
        var letter = glyphs.lowerBound  // the widest, the last of those as wide (HarfBuzz's order)
        for index in glyphs where font.width(run.glyphs[index].id) >= font.width(run.glyphs[letter].id) {
            letter = index
        }
        // Marks whose letter is in another run (of a color of its own) are drawn as in
        // left-to-right text: poppler joins them to it by their /ActualText's extent.
        guard font.width(run.glyphs[letter].id) > 0 else { return nil }
        // In reading order: from the cluster's last glyph.
        let reading: [UInt32]
        if glyphs.count == 1 {
            guard let code = font.code(for: run.glyphs[glyphs.lowerBound].id, drawnFor: text) else { return nil }
            reading = [code]
        } else {
            guard glyphs.count <= PDFFont.mappedClusterLength else { return nil }
            font.mapParts(run.glyphs[glyphs], of: text)
            guard let codes = font.readingCodes(glyphs.reversed().map { run.glyphs[$0].id }, for: text) else { return nil }
            reading = codes
        }
        var shown: [(code: UInt32, x: Double, width: Int)] = []
        shown.reserveCapacity(glyphs.count)
        for (k, index) in glyphs.enumerated() {
            let glyph = run.glyphs[index]
            let x = index != letter && font.width(glyph.id) == 0 ? run.glyphs[letter].x : glyph.x
            // A glyph for several characters stands for its last; blanks after it, where its
            // advance ends, for the others (they read before it).
            guard let (code, blanks) = font.splitCode(reading[glyphs.count - 1 - k], of: glyph.id),
                let moved = movedCode(code, of: glyph, to: x, in: run, font)
            else { return nil }
            let width = font.width(glyph.id)
            shown.append((moved, x, width))
            for blank in blanks { shown.append((blank, x + Double(width) * run.size / 1000, 0)) }
        }
        return shown
    }

    /// Whether `glyph` of `run` stands off its baseline (a mark HarfBuzz raised or lowered), by
    /// more than the writer's 0.0005 pt.
    private static func isOffBaseline(_ glyph: PositionedGlyph, in run: GlyphRun) -> Bool {
        !(abs(glyph.y - run.baseline) < 0.0005)
    }

    /// The code that draws `glyph` (shown as `code`) from (`x`, the run's baseline): `code`
    /// where the glyph is, else one of its glyph moved there in the font (`PDFFont.shiftedCode`);
    /// nil when the font has none, or the move is not in whole font units (HarfBuzz's offsets
    /// are, within the writer's 0.0005 pt).
    private func movedCode(
        _ code: UInt32, of glyph: PositionedGlyph, to x: Double, in run: GlyphRun, _ font: PDFFont
    ) -> UInt32? {
        let unitsPerPoint = Double(font.program.unitsPerEm) / run.size
        func fontUnits(_ points: Double) -> Int16? {
            let units = points * unitsPerPoint
            guard abs(units - units.rounded()) / unitsPerPoint < 0.0005 else { return nil }
            return Int16(exactly: units.rounded())
        }
        guard let dx = fontUnits(glyph.x - x), let dy = fontUnits(run.baseline - glyph.y) else { return nil }
        return dx == 0 && dy == 0 ? code : font.shiftedCode(code, glyph: glyph.id, dx: dx, dy: dy)
    }

    /// How far the glyphs of a cluster in /ActualText reach right of its last glyph's advance
    /// (`last`, the last shown), by the widths /W gives. Poppler takes a span's extent from its
    /// first glyph's origin to its last glyph's advance; a letter's marks come after it and stand
    /// inside it, so the span ended mid-letter and pdftotext put a space after every vowelled
    /// letter ("َع َل ْي ُك ْم"). The last glyph is shown with this much character spacing.
    private func spanReach(_ run: GlyphRun, _ glyphs: Range<Int>, last: Int, of font: PDFFont) -> Double {
        func right(_ glyph: PositionedGlyph) -> Double { glyph.x + Double(font.width(glyph.id)) * run.size / 1000 }
        return run.glyphs[glyphs].reduce(-Double.infinity) { max($0, right($1)) } - right(run.glyphs[last])
    }

    // MARK: - Shapes

    private mutating func draw(_ rectangle: RectangleItem) {
        if let fill = rectangle.fill {
            let transparent = beginAlpha(fill.alpha)
            color(fill)
            path(of: rectangle)
            bytes.append("f\n")
            if transparent { restore() }
        }
        if let stroke = rectangle.stroke {
            let transparent = beginAlpha(stroke.alpha)
            color(stroke, stroke: true)
            bytes.append("1 w ")
            path(of: rectangle)
            bytes.append("S\n")
            if transparent { restore() }
        }
    }

    /// A rectangle with quarter-circle corners (cubic Béziers, the usual 0.5523 control points).
    private mutating func path(of rectangle: RectangleItem) {
        let (x, y, width, height) = (rectangle.x, rectangle.y, rectangle.width, rectangle.height)
        let radius = rectangle.drawnCornerRadius
        guard radius > 0 else {
            for value in [x, y, width, height] { bytes.number(value) }
            bytes.append("re ")
            return
        }
        let k = radius * (1 - 0.5522847498)
        let right = x + width, bottom = y + height
        func point(_ px: Double, _ py: Double) {
            bytes.number(px)
            bytes.number(py)
        }
        point(x + radius, y)
        bytes.append("m ")
        point(right - radius, y)
        bytes.append("l ")
        point(right - k, y)
        point(right, y + k)
        point(right, y + radius)
        bytes.append("c ")
        point(right, bottom - radius)
        bytes.append("l ")
        point(right, bottom - k)
        point(right - k, bottom)
        point(right - radius, bottom)
        bytes.append("c ")
        point(x + radius, bottom)
        bytes.append("l ")
        point(x + k, bottom)
        point(x, bottom - k)
        point(x, bottom - radius)
        bytes.append("c ")
        point(x, y + radius)
        bytes.append("l ")
        point(x, y + k)
        point(x + k, y)
        point(x + radius, y)
        bytes.append("c h ")
    }

    private mutating func draw(_ rule: RuleItem) {
        guard rule.thickness > 0 else { return }
        let transparent = beginAlpha(rule.color.alpha)
        bytes.append("q ")
        bytes.number(rule.thickness)
        bytes.append("w 0 J ")
        color(rule.color, stroke: true)
        bytes.number(rule.x1)
        bytes.number(rule.y1)
        bytes.append("m ")
        bytes.number(rule.x2)
        bytes.number(rule.y2)
        bytes.append("l S Q\n")
        if transparent { restore() }
    }

    /// Fills (0, 0, width, height) with `color` (page and subpage backgrounds).
    mutating func fillBox(width: Double, height: Double, color fill: Color) {
        guard fill.alpha > 0 else { return }
        let transparent = beginAlpha(fill.alpha)
        color(fill)
        bytes.append("0 0 ")
        bytes.number(width)
        bytes.number(height)
        bytes.append("re f\n")
        if transparent { restore() }
    }

    // MARK: - Images and pages in pages

    private mutating func draw(_ item: ImageItem) throws {
        guard item.width > 0, item.height > 0 else { return }
        let name = try resources.image(at: item.path)
        bytes.append("q ")
        bytes.number(item.flipped ? -item.width : item.width)
        bytes.append("0 0 ")
        bytes.number(-item.height)
        bytes.number(item.flipped ? item.x + item.width : item.x)
        bytes.number(item.y + item.height)
        bytes.append("cm /")
        bytes.append(string: name)
        bytes.append(" Do Q\n")
    }

    /// Places what is drawn next in `subpage`'s box, clipped to it (until `endSubpage`); the
    /// writer draws its background and items, whose tags are its to mark.
    mutating func beginSubpage(_ subpage: SubpageItem) {
        save()
        bytes.append("1 0 0 1 ")
        bytes.number(subpage.x)
        bytes.number(subpage.y)
        bytes.append("cm ")
        bytes.number(subpage.scale)
        bytes.append("0 0 ")
        bytes.number(subpage.scale)
        bytes.append("0 0 cm 0 0 ")
        bytes.number(subpage.page.width)
        bytes.number(subpage.page.height)
        bytes.append("re W n\n")
    }

    mutating func endSubpage() { restore() }

    // MARK: - Graphics state

    /// Sets the fill color (skipped when already set) or, with `stroke`, the stroke color.
    private mutating func color(_ color: Color, stroke: Bool = false) {
        if !stroke {
            if fillColor == color { return }
            fillColor = color
        }
        bytes.number(color.red)
        bytes.number(color.green)
        bytes.number(color.blue)
        bytes.append(stroke ? "RG " : "rg ")
    }

    /// For `alpha` < 1: saves the graphics state and sets a transparency; true when it did (the
    /// caller restores).
    private mutating func beginAlpha(_ alpha: Double) -> Bool {
        guard alpha < 1 else { return false }
        let name = resources.alphaState(alpha)
        save()
        bytes.append("/")
        bytes.append(string: name)
        bytes.append(" gs ")
        return true
    }

    private mutating func save() {
        bytes.append("q ")
        savedFillColors.append(fillColor)
    }

    private mutating func restore() {
        bytes.append("Q\n")
        fillColor = savedFillColors.removeLast()
    }
}

/// Where the text of one glyph run is, as the TJ operators write it: the pen's position in
/// user space along the current line, and whether a TJ array and a hex string are open.
private struct TJWriter {
    let size: Double
    /// The font set (Tf), by resource name.
    var font: String
    var penX = 0.0
    var lineY = Double.nan
    var arrayOpen = false
    var hexOpen = false

    init(size: Double, font: String) {
        self.size = size
        self.font = font
    }

    /// A glyph of `font`: a bitmap font's by its code in a Type 3 font, another's as `code` (its
    /// id, or an alternate code of it: `PDFFont.code(for:drawnFor:)`) by its width.
    /// (Inlined: as a local function of the caller it was a call per glyph with exclusivity
    /// checks, 2% of a document's instructions.)
    @inline(__always)
    mutating func show(_ glyph: PositionedGlyph, code: UInt32, of font: PDFFont, bitmap: Bool, in bytes: inout ByteBuffer) {
        if bitmap {
            show(glyph, code: font.bitmapCode(glyph.id), in: &bytes)
        } else {
            show(glyph, code: code, width: font.width(glyph.id), in: &bytes)
        }
    }

    mutating func show(_ glyph: PositionedGlyph, code: (font: String, code: UInt8), in bytes: inout ByteBuffer) {
        end(in: &bytes)
        if code.font != font {
            bytes.append("/")
            bytes.append(string: code.font)
            bytes.append(" ")
            bytes.number(size)
            bytes.append("Tf ")
            font = code.font
        }
        bytes.append("1 0 0 -1 ")
        bytes.number(glyph.x)
        bytes.number(glyph.y)
        bytes.append("Tm <")
        bytes.hex2(code.code)
        bytes.append("> Tj ")
    }

    /// Shows one glyph at its position as `code`; `width` is its advance in 1/1000 em as /W says.
    @inline(__always)
    mutating func show(_ glyph: PositionedGlyph, code: UInt32, width: Int, in bytes: inout ByteBuffer) {
        if !(abs(glyph.y - lineY) < 0.0005) {
            end(in: &bytes)
            bytes.append("1 0 0 -1 ")
            bytes.number(glyph.x)
            bytes.number(glyph.y)
            bytes.append("Tm ")
            penX = glyph.x
            lineY = glyph.y
        }
        if !arrayOpen {
            bytes.append("[")
            arrayOpen = true
        }
        let adjustment = ByteBuffer.roundedToInt((penX - glyph.x) * 1000 / size)
        if adjustment != 0 {
            closeHex(in: &bytes)
            bytes.digits(adjustment)
            penX -= Double(adjustment) * size / 1000
        }
        if !hexOpen {
            bytes.append("<")
            hexOpen = true
        }
        bytes.hex4(code)
        penX += Double(width) * size / 1000
    }

    private mutating func closeHex(in bytes: inout ByteBuffer) {
        if hexOpen { bytes.append(">") }
        hexOpen = false
    }

    /// Closes the open TJ array, if any.
    mutating func end(in bytes: inout ByteBuffer) {
        closeHex(in: &bytes)
        if arrayOpen { bytes.append("]TJ\n") }
        arrayOpen = false
    }

    /// Character spacing for the next glyph, the last of a cluster in /ActualText, so that its
    /// advance reaches the cluster's right edge (`PDFPageContent.spanReach`).
    mutating func beginSpacing(_ spacing: Double, in bytes: inout ByteBuffer) {
        end(in: &bytes)
        bytes.number(spacing)
        bytes.append("Tc ")
    }

    /// Character spacing back to none; the pen moved by the spacing too (in readers that add it
    /// after a string's last glyph; pdfminer does not), so the next glyph is placed by a `Tm`.
    mutating func endSpacing(in bytes: inout ByteBuffer) {
        end(in: &bytes)
        bytes.append("0 Tc ")
        lineY = .nan
    }

    /// Starts a span whose glyphs stand for `text` (UTF-8) in text extraction.
    mutating func beginActualText(_ text: UnsafeBufferPointer<UInt8>, in bytes: inout ByteBuffer) {
        end(in: &bytes)
        bytes.append("/Span << /ActualText ")
        bytes.utf16Text(text)
        bytes.append(" >> BDC ")
    }

    mutating func endActualText(in bytes: inout ByteBuffer) {
        end(in: &bytes)
        bytes.append("EMC ")
    }
}
