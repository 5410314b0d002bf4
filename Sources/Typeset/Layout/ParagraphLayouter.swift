// The paragraph driver: styled text → bidi levels → items → shaped glyphs → lines → visual
// runs, and the warnings for characters no font has (the digits it shows: Numerals.swift).
// Alignment and placement on the page happen in BlockLayouter; this knows only lines.

/// A stretch of one line with one level, script, font and size, in visual order.
struct LineRun: Equatable {
    /// Offsets in the paragraph, logical order; hanging white space excluded.
    var scalarRange: Range<Int>
    var level: UInt8
    var script: Script
    var face: FontFace
    var spanIndex: Int
    /// Point size used, balancing included.
    var size: Double
    /// Glyphs in visual order; bidi controls and what HarfBuzz hides left out. Usually a slice
    /// of the item's shaped glyphs, so that lines share them instead of copying.
    var glyphs: ArraySlice<ShapedGlyph>
    /// Left edge from the line's left edge, in points.
    var x: Double
    var width: Double
    var isRightToLeft: Bool { level & 1 == 1 }
}

struct TextLine: Equatable {
    var scalarRange: Range<Int>
    /// Visual order, left to right.
    var runs: [LineRun]
    /// Natural width: the sum of the runs' widths, without hanging white space.
    var width: Double
    /// line-height × the largest size on the line.
    var height: Double
    /// From the line's top to its baseline.
    var baseline: Double
    /// The largest point size on the line.
    var largestSize: Double
    /// The space hanging at the end of a line that wraps (or a space for the `<br/>` that ends
    /// it): never seen, but drawn (invisibly, past
    /// the line's end) so that the text of a PDF or SVG reads "end of line" + " " + "next line"
    /// rather than gluing the two words (ISO 32000-1 §14.8.2.5 wants word breaks as spaces in
    /// tagged PDF).
    var hangingSpace: HangingSpace? = nil
    /// Whether its characters are all white space (or controls), set where the line is made:
    /// `<br/>&#xA0;<br/>`, a blank line kept with a no-break space, has a glyph to draw.
    var whiteSpaceOnly = false

    /// An empty line (one of `<br/><br/>`, or of white space alone): no glyphs to draw, or only
    /// white space's. Not a line of text to SPEC 4.1, no company for a widow, no line a page
    /// starts with (an Arabic label of two lines of text around `<br/>&#xA0;<br/>` was set as
    /// a paragraph of three).
    var showsNothing: Bool { whiteSpaceOnly || runs.allSatisfy { $0.glyphs.isEmpty } }

    /// The room above and below the line's box that its ink needs, in points rounded up to a
    /// hundredth; 0 where it stays inside. SPEC §2's line box is line-height × size whatever the
    /// script: the dots and tails under Arabic letters reach below it (2.6 pt at 17 pt), and
    /// the marks over vocalized Arabic above it (5.5 pt over «لِلَّٰهِ»).
    var inkOverflow: (above: Double, below: Double) {
        var (top, bottom) = (-Double.infinity, -Double.infinity)  // above and below the baseline
        for run in runs where !run.glyphs.isEmpty {
            let inks = Shaper.inks(face: run.face, glyphs: run.glyphs.lazy.map(\.id))
            for (glyph, ink) in zip(run.glyphs, inks) {
                guard let ink else { continue }
                top = max(top, glyph.yOffset + ink.top * run.size)
                bottom = max(bottom, -glyph.yOffset - ink.bottom * run.size)
            }
        }
        func room(_ past: Double) -> Double { past > 0 ? (past * 100).rounded(.up) / 100 : 0 }
        return (room(top - baseline), room(bottom - (height - baseline)))
    }
}

/// The glyph of a line's hanging space as its item shaped it, in its font, size and span.
struct HangingSpace: Equatable {
    var glyph: ShapedGlyph
    var face: FontFace
    var size: Double
    var spanIndex: Int
}

/// A laid-out paragraph: its text after digit substitution, and its lines.
struct ParagraphLayout {
    var text: ParagraphText
    /// The text as shown: digits substituted.
    var displayScalars: [Unicode.Scalar]
    var baseLevel: UInt8
    var lines: [TextLine]
    /// The offsets of characters drawn as a missing-glyph box, in order.
    var missing: [Int]
    /// Of those, the ones some font has, with the font that lacks them.
    var lacking: [Int: LackingFont]
    /// The first word wider than its line, broken inside, and its width (with the hyphen of a
    /// soft hyphen it ends at, when a line ending there shows one: `hyphenated`); whether a cut
    /// of it is between letters rather than at a separator, where it parts (`LineFiller.parts`:
    /// "$1," | "299") or after a compound's hyphen.
    var brokenWord: (range: Range<Int>, width: Double, hyphenated: Bool, betweenLetters: Bool)?
    /// The line ends inside broken words, and the number of those words (`ParagraphLines`).
    var wordCuts: Int
    var brokenWordCount: Int
    var height: Double { lines.reduce(0) { $0 + $1.height } }

    /// The room its ink needs over its first line's box and under its last's
    /// (`TextLine.inkOverflow`; a single line measured once); nil without lines.
    var edgeInk: (above: Double, below: Double)? {
        guard let first = lines.first, let last = lines.last else { return nil }
        let firstInk = first.inkOverflow
        return (firstInk.above, lines.count > 1 ? last.inkOverflow.below : firstInk.below)
    }

    init(_ text: ParagraphText, _ lines: ParagraphLines) {
        self.text = text
        displayScalars = lines.displayScalars
        baseLevel = lines.baseLevel
        self.lines = lines.lines
        missing = lines.missing
        lacking = lines.lacking
        brokenWord = lines.brokenWord
        wordCuts = lines.wordCuts
        brokenWordCount = lines.brokenWordCount
    }

    /// Where each of `offsets` (ascending) is in the markup: the character itself when `source`
    /// finds it, else where its text starts; nil in text of no source (a list marker's). The
    /// source is read once for each piece of text the offsets are in.
    func sourceLocations(of offsets: [Int], source: MarkupSource.Locator?) -> [SourceLocation?] {
        var locations: [SourceLocation?] = []
        locations.reserveCapacity(offsets.count)
        var next = 0
        while next < offsets.count {
            let sourceIndex = text.sourceIndex(of: offsets[next])
            let range = text.range(ofSource: sourceIndex)
            var end = next
            while end < offsets.count, range.contains(offsets[end]) { end += 1 }
            let start = text.sources[sourceIndex].location
            let found = start.flatMap { start in
                source?.locations(of: offsets[next..<end].map { $0 - range.lowerBound }, in: text.scalars[range], from: start)
            }
            for i in 0..<end - next { locations.append(found?[i] ?? start) }
            next = end
        }
        return locations
    }

    /// Each character drawn as a box, no font covering it (SPEC §3) or its letter's font
    /// lacking it, at its first place in the paragraph (the character itself when `source`
    /// finds it, else where its text starts), with how many times it is drawn here:
    /// `MissingCharacterWarnings` makes the warnings.
    func missingCharacters(source: MarkupSource.Locator?) -> [MissingCharacter] {
        guard !missing.isEmpty else { return [] }
        var count: [UInt32: Int] = [:]
        var first: [Int] = []
        for offset in missing {
            let value = displayScalars[offset].value
            if count[value] == nil { first.append(offset) }
            count[value, default: 0] += 1
        }
        let locations = sourceLocations(of: first, source: source)
        var characters: [MissingCharacter] = []
        for (offset, location) in zip(first, locations) {
            guard let location else { continue }  // (text of no source: a list marker's)
            let scalar = displayScalars[offset]
            characters.append(
                MissingCharacter(
                    scalar: scalar, lacking: lacking[offset], location: location, times: count[scalar.value, default: 1]))
        }
        return characters
    }
}

/// The font a character is drawn in as a missing-glyph box, though some font has it, and why.
struct LackingFont: Hashable {
    enum Reason: Hashable {
        /// It is the font of the character it goes with, and has no glyph for it.
        case lacksIt
        /// A damaged font: its cmap maps the character to a glyph it does not have.
        case mapsPastItsGlyphs
        /// A damaged font: its substitutions give the character a glyph it does not have (or
        /// one whose outline cannot be read).
        case substitutesPastItsGlyphs
        /// A damaged font of the user's: the outline of the character's glyph cannot be drawn.
        case damagedOutline
    }
    var family: String
    var reason: Reason
}

/// A character a text draws as a missing-glyph box: no font covers it, or the font it is
/// shaped in has no glyph for it (`lacking`).
struct MissingCharacter: Equatable {
    var scalar: Unicode.Scalar
    var lacking: LackingFont?
    /// Its first place in the text.
    var location: SourceLocation
    /// How many times the text draws it.
    var times: Int
}

/// The warnings for the characters a document draws as boxes (SPEC §3): one for each, at its
/// first place, with how many times the document draws it (each text of a page of
/// `<p>中文</p>` repeated them); past the first `individually`, one for all the others (a
/// paragraph of Chinese without a Chinese font gave a warning for each of its characters).
/// Each warning takes its place among the document's diagnostics when its character is first
/// met, and its words when the document is done (`finish`).
struct MissingCharacterWarnings {
    static let individually = 10
    /// How many of the others the last warning names.
    static let othersNamed = 8

    private struct Key: Hashable {
        var value: UInt32
        var lacking: LackingFont?
    }
    /// Each character warned about, with where its warning is in the diagnostics.
    private var warned: [Key: (index: Int, character: MissingCharacter)] = [:]
    /// The characters past the first `individually`, warned about together.
    private struct Others {
        /// Where their warning is in the diagnostics.
        var index: Int
        var first: MissingCharacter
        /// In the order met, each once.
        var keys: [Key]
        var seen: Set<Key>
        /// How many times they are drawn in all.
        var times: Int
        /// Whether a font would draw each of them (`wantsAFont`).
        var fontWanted: Bool
    }
    private var others: Others?

    mutating func note(_ character: MissingCharacter, in diagnostics: inout Diagnostics) {
        let key = Key(value: character.scalar.value, lacking: character.lacking)
        if warned[key] != nil {
            warned[key]?.character.times += character.times
        } else if warned.count < Self.individually {
            warned[key] = (diagnostics.items.count, character)
            diagnostics.report(Self.warning(character, timesInDocument: false))
        } else if var all = others {
            others = nil  // `all` alone holds the set and the list: taken in without a copy of each
            if all.seen.insert(key).inserted { all.keys.append(key) }
            all.times += character.times
            all.fontWanted = all.fontWanted && Self.wantsAFont(character)
            others = all
        } else {
            others = Others(
                index: diagnostics.items.count, first: character, keys: [key], seen: [key], times: character.times,
                fontWanted: Self.wantsAFont(character))
            diagnostics.report(Self.warning(character, timesInDocument: false))
        }
    }

    /// Whether a font that has `character` would draw it: no font covers it, and it is no
    /// control character (a mark its letter's font lacks wants another font for its letter).
    private static func wantsAFont(_ character: MissingCharacter) -> Bool {
        character.lacking == nil && character.scalar.generalCategory != .Cc
    }

    /// The warnings in their final words: each with its count in the whole document, and the
    /// one for the others.
    func finish(in diagnostics: inout Diagnostics) {
        for (_, entry) in warned {
            diagnostics.replace(at: entry.index, with: Self.warning(entry.character, timesInDocument: true))
        }
        guard let others else { return }
        guard others.keys.count > 1 else {  // one more: a warning of its own
            var character = others.first
            character.times = others.times
            diagnostics.replace(at: others.index, with: Self.warning(character, timesInDocument: true))
            return
        }
        let named = others.keys.prefix(Self.othersNamed).map { "U+" + hexCodePoint($0.value) }.joined(separator: ", ")
        let more = others.keys.count > Self.othersNamed ? ", …" : ""
        diagnostics.replace(
            at: others.index,
            with: .warning(
                others.first.location,
                "\(others.keys.count) more characters, the first here, are drawn as missing-glyph boxes (\(named)\(more)), "
                    + "\(others.times) times in this document",
                hint: others.fontWanted ? "give a font that has them with --font-dir, or name one in 'font'" : nil))
    }

    private static func warning(_ character: MissingCharacter, timesInDocument: Bool) -> Diagnostic {
        let scalar = character.scalar
        let code = "U+" + hexCodePoint(scalar.value)
        let message =
            switch character.lacking.map({ ($0.family, $0.reason) }) {
            case let (family, .mapsPastItsGlyphs)?:
                "\(family) maps \(code) to a glyph it does not have (a damaged font); it is drawn as a missing-glyph box"
            case let (family, .damagedOutline)?:
                "\(family) has a damaged glyph for \(code) (its outline cannot be drawn); it is drawn as a missing-glyph box"
            case let (family, .substitutesPastItsGlyphs)?:
                "\(family) substitutes a glyph it does not have or cannot draw for \(code) (a damaged font); it is drawn as a missing-glyph box"
            case let (family, .lacksIt)?:
                "\(family), the font of the character it goes with, has no \(code); it is drawn as a missing-glyph box"
            case nil:
                "no font covers \(code); it is drawn as a missing-glyph box"
            }
        let hint: String? =
            if let reason = character.lacking?.reason, reason != .lacksIt {
                "replace the font file, or name another font in 'font'"
            } else if character.lacking != nil && FontFallbackCluster.isMark(scalar) {
                "a mark is drawn in the font of its letter: choose a font that has both"
            } else if scalar.generalCategory == .Cc {
                "it is a control character: leave it out of the text"
            } else {
                nil
            }
        let times = timesInDocument && character.times > 1 ? " (\(character.times) times in this document)" : ""
        return .warning(character.location, message + times, hint: hint)
    }
}

/// Sets paragraphs: owns the font database and shaper (both thread-safe and cached).
final class ParagraphLayouter: Sendable {
    let fonts: FontDatabase
    let shaper: Shaper
    /// `primaryMetrics` by first style: every paragraph asks, and the font lookups behind it
    /// cost more than a short paragraph's line building.
    private let primaryMetricsCache = Locked<[PrimaryStyle: PrimaryMetrics]>([:])
    private let repeated: Locked<ParagraphCache>
    private let cachesParagraphs: Bool

    /// - Parameter paragraphCacheCapacity: characters of short paragraphs kept to be reused
    ///   when they come again (ParagraphCache.swift); 0 turns the cache off. 20,000 holds the
    ///   benchmark corpus's labels, buttons, titles, items and markers (about 250 different ones)
    ///   many times over.
    init(fonts: FontDatabase, shaper: Shaper, paragraphCacheCapacity: Int = 20_000) {
        self.fonts = fonts
        self.shaper = shaper
        repeated = Locked(ParagraphCache(capacity: paragraphCacheCapacity))
        cachesParagraphs = paragraphCacheCapacity > 0
    }

    /// How many paragraphs were taken from the cache (for tests).
    var paragraphsReused: Int { repeated.withLock { $0.hits } }

    /// Lays out `text` in `direction` at `width` points. `balance` points are added to Arabic
    /// and Hebrew items (SPEC 4.3); `lineHeight` is the multiple of the largest size per line.
    func layout(
        _ text: ParagraphText, direction: BidiDirection, width: Double, lineHeight: Double, balance: Double = 0
    ) -> ParagraphLayout {
        layout(text, direction: direction, width: width, lineHeight: lineHeight, balance: balance, atMost: .max)!
    }

    /// The layout, or nil if it takes more than `maximumLines` lines (found before they are
    /// built: `BlockLayouter.maximumLineCount`).
    func layout(
        _ text: ParagraphText, direction: BidiDirection, width: Double, lineHeight: Double, balance: Double,
        atMost maximumLines: Int
    ) -> ParagraphLayout? {
        guard cachesParagraphs, text.scalars.count <= ParagraphCache.longest else {
            return setLines(
                text, direction: direction, width: width, lineHeight: lineHeight, balance: balance,
                maximumLines: maximumLines
            ).map { ParagraphLayout(text, $0) }
        }
        let key = ParagraphKey(text, direction: direction, width: width, lineHeight: lineHeight, balance: balance)
        if let known = repeated.withLock({ $0.lines(for: key) }) {
            return known.lines.count <= maximumLines ? ParagraphLayout(text, known) : nil
        }
        guard let lines = setLines(
            text, direction: direction, width: width, lineHeight: lineHeight, balance: balance, maximumLines: maximumLines)
        else { return nil }
        repeated.withLock { $0.store(lines, for: key) }
        return ParagraphLayout(text, lines)
    }

    private func setLines(
        _ text: ParagraphText, direction: BidiDirection, width: Double, lineHeight: Double, balance: Double,
        maximumLines: Int
    ) -> ParagraphLines? {
        let display = ParagraphLayouter.displayScalars(text)
        let bidiScalars = ParagraphLayouter.bidiScalars(text.scalars, display: display)
        let paragraph = BidiParagraph(breakingAtLineEnds: bidiScalars, direction: direction).keepingNumbersInOrder { i in
            bidiScalars[i].generalCategory == .Nd
        }
        var missing: [Int] = []
        let items = Itemizer.items(
            text: text, displayScalars: display, levels: paragraph.levels, fonts: fonts, balancing: balance != 0,
            missing: &missing)

        let shaped = items.map { item in shape(item, display, text, balance: balance, range: item.scalarRange) }
        let lacking = boxesOfCoveredCharacters(items, shaped, display, missing: &missing)
        let clusterOrders = shaped.map { ParagraphLayouter.clusterOrder($0.glyphs) }
        let advances = AdvanceTable(count: display.count, runs: shaped)
        var breaks = LineBreaker.opportunities(in: text.scalars)
        if items.contains(where: { DictionaryBreaks.writesWordsWithoutSpaces($0.script) }) {
            breaks = DictionaryBreaks.adding(to: breaks, in: text.scalars)
        }
        if items.contains(where: { $0.script == .hangul }) {
            breaks = HangulWords.keepingWordsWhole(breaks, in: text.scalars)
        }
        let fits = { (range: Range<Int>) in advances.width(range) <= width }
        breaks = NumberGroups.keepingWhole(breaks, in: text.scalars, fits: fits)
        breaks = AddressBreaks.breakingBeforeHyphensAndSlashes(breaks, in: text.scalars, fits: fits)
        let (opportunities, edges) = LineFiller.outsideClusters(breaks, scalars: text.scalars, advances: advances)
        let hyphens = softHyphens(items, text, balance: balance)
        let ends = LineEndShaping(
            items: items, advances: advances, edges: edges, largestSize: items.map { size(of: $0, text, balance: balance) }.max() ?? 0
        ) { index, range in
            self.shape(items[index], display, text, balance: balance, range: range).glyphs
        }
        let limit = width + 0.001  // (as `LineFiller.lines` measures)
        let ranges = LineFiller.pushingOut(
            LineFiller.lines(
                scalars: text.scalars, opportunities: opportunities, advances: advances, width: width,
                hyphens: hyphens.mapValues(\.advance), edges: edges, ends: ends),
            scalars: text.scalars, opportunities: opportunities
        ) { line in
            let visible = LineFiller.visibleEnd(text.scalars, line)
            let shown = advances.width(line.lowerBound..<visible)
            return (ends?.width(shown, start: line.lowerBound, visibleEnd: visible, limit: limit) ?? shown) <= limit
        }
        guard max(ranges.count, 1) <= maximumLines else { return nil }

        let primary = primaryMetrics(text)
        var lines: [TextLine] = []
        lines.reserveCapacity(ranges.count)
        for range in ranges {
            // A line that breaks after a soft hyphen shows a hyphen there.
            let hyphen = range.upperBound < text.scalars.count ? hyphens[range.upperBound] : nil
            lines.append(
                buildLine(
                    range, paragraph: paragraph, items: items, shaped: shaped,
                    clusterOrders: clusterOrders, unsafeCuts: advances.unsafeCuts, display: display,
                    text: text, balance: balance, lineHeight: lineHeight, primary: primary,
                    hyphen: hyphen))
        }
        if lines.isEmpty {  // an empty paragraph still takes one line
            let size = text.spans.first?.style.size ?? text.emptyStyle?.size ?? 17
            lines.append(
                TextLine(
                    scalarRange: 0..<0, runs: [], width: 0, height: size * lineHeight,
                    baseline: baselineOffset(size: size, lineHeight: lineHeight, primary: primary),
                    largestSize: size))
        }
        let cuts = LineFiller.brokenWords(ranges, scalars: text.scalars, opportunities: opportunities)
        // A Hebrew compound cut after its maqaf is a word cut (its pieces one line to SPEC 4.1),
        // but not between its letters, which a warning says.
        let wordCuts = cuts.filter { !LineFiller.afterCompoundHyphen(text.scalars, at: $0.cut) }
        let brokenWords = wordCuts.map(\.word)
        return ParagraphLines(
            displayScalars: display, baseLevel: paragraph.baseLevel, lines: lines, missing: missing, lacking: lacking,
            brokenWord: brokenWords.first.map { word in
                // A word that ends at a soft hyphen, where a line may end (not at the
                // paragraph's end, nor before a space), did not fit with its hyphen.
                let hyphen = word.upperBound < text.scalars.count && opportunities.contains { $0.offset == word.upperBound }
                    ? hyphens[word.upperBound]?.advance : nil
                let shown = advances.width(word) + (ends?.gain(start: word.lowerBound, visibleEnd: word.upperBound) ?? 0)
                let betweenLetters = wordCuts.contains { $0.word == word && !LineFiller.parts(text.scalars, at: $0.cut) }
                return (word, shown + (hyphen ?? 0), hyphen != nil, betweenLetters)
            },
            wordCuts: cuts.count, brokenWordCount: Set(brokenWords).count)
    }

    /// Characters that some font has, shaped as .notdef in the font of their cluster: a mark
    /// the font of its letter lacks (Hebrew with an Arabic vowel sign) stays in that font, as
    /// fallback wants, and is drawn as a box; or, in a cluster of characters its font covers
    /// all, those a damaged font's cmap maps to a glyph it does not have (the shaper makes it
    /// .notdef), else the first, which its substitutions took there. They join `missing`, and
    /// are returned with the font and why. A mark that
    /// composes with its letter (e + U+0301 → é) shapes to a glyph and is not one of them.
    private func boxesOfCoveredCharacters(
        _ items: [TextItem], _ shaped: [ShapedRun], _ display: [Unicode.Scalar], missing: inout [Int]
    ) -> [Int: LackingFont] {
        var lacking: [Int: LackingFont] = [:]
        var known: Set<Int>?  // `missing`, made once a box is found
        for (index, run) in shaped.enumerated() where run.glyphs.contains(where: { $0.id == 0 }) {
            let item = items[index]
            let clusters = Set(run.glyphs.map(\.cluster))
            if known == nil { known = Set(missing) }
            // Each cluster once: a letter with thousands of boxed marks has as many boxes in one
            // cluster, and walking it for each took 2.4 s (a fuzzer's input).
            var walked: Set<Int> = []
            for glyph in run.glyphs where glyph.id == 0 && walked.insert(glyph.cluster).inserted {
                // The characters of the glyph's cluster: up to the next cluster of the run.
                var offset = glyph.cluster
                var covered: [Int] = []  // those that need a glyph, while all are covered
                var allCovered = true
                repeat {
                    let scalar = display[offset]
                    if FontFallbackCluster.needsGlyph(scalar) {
                        if fonts.covers(item.face, scalar) {
                            covered.append(offset)
                        } else {
                            allCovered = false
                            if known?.insert(offset).inserted == true {
                                missing.append(offset)
                                lacking[offset] = LackingFont(family: item.face.family, reason: .lacksIt)
                            }
                        }
                    }
                    offset += 1
                } while offset < item.scalarRange.upperBound && !clusters.contains(offset)
                guard allCovered, let first = covered.first else { continue }
                // A damaged font: the characters whose own glyph is damaged (mapped past the
                // font's glyphs, or an outline that cannot be drawn), else the first of the
                // cluster, which its substitutions took there.
                var found = covered.compactMap { offset -> (Int, LackingFont.Reason)? in
                    switch fonts.glyphDamage(item.face, display[offset]) {
                    case .pastGlyphs?: (offset, .mapsPastItsGlyphs)
                    case .outline?: (offset, .damagedOutline)
                    case nil: nil
                    }
                }
                if found.isEmpty { found = [(first, .substitutesPastItsGlyphs)] }
                for (offset, reason) in found where known?.insert(offset).inserted == true {
                    missing.append(offset)
                    lacking[offset] = LackingFont(family: item.face.family, reason: reason)
                }
            }
        }
        if !lacking.isEmpty { missing.sort() }
        return lacking
    }

    /// The hyphen each soft hyphen (U+00AD) would show at the end of a line, by the offset after
    /// it: "-" shaped in the soft hyphen's own font and size, its cluster the soft hyphen's.
    /// Empty for the paragraphs without one (nearly all). One that ends no word (after white
    /// space, or first: `LineFiller.softHyphenEndsNoWord`) shows none, nor one that ends the
    /// paragraph: no line breaks there, and room kept for its hyphen broke "Kaffee&#xAD;" in a
    /// box it fits.
    private func softHyphens(_ items: [TextItem], _ text: ParagraphText, balance: Double) -> [Int: ShapedGlyph] {
        var hyphens: [Int: ShapedGlyph] = [:]
        for (offset, scalar) in text.scalars.enumerated() where scalar == "\u{AD}" {
            guard !LineFiller.softHyphenEndsNoWord(text.scalars, at: offset) else { continue }
            let index = firstItem(endingAfter: offset, in: items)
            guard index < items.count else { continue }
            // A line breaks after what stays with the soft hyphen (`<ltr>Donau&#xAD;</ltr>`,
            // `Donau&#xAD;&#x200E;`); it shows the hyphen all the same.
            var end = offset + 1
            while end < text.scalars.count && LineFiller.staysWithSoftHyphen(text.scalars[end]) { end += 1 }
            guard end < text.scalars.count else { continue }
            let hyphen = glyph(of: "-", in: items[index], at: offset, text, balance: balance)
            hyphens[offset + 1] = hyphen
            if end > offset + 1 { hyphens[end] = hyphen }
        }
        return hyphens
    }

    /// `scalar` shaped alone in `item`'s font and size, as one glyph standing at `cluster` (a
    /// character the text does not have there: a soft hyphen's "-", a `<br/>`'s space); nil
    /// when the font has no glyph for it.
    private func glyph(
        of scalar: Unicode.Scalar, in item: TextItem, at cluster: Int, _ text: ParagraphText, balance: Double
    ) -> ShapedGlyph? {
        let shaped = shaper.shape(
            scalars: [scalar], range: 0..<1, face: item.face, size: size(of: item, text, balance: balance),
            rightToLeft: false, script: item.script, language: text.spans[item.spanIndex].style.language)
        guard shaped.glyphs.count == 1, var glyph = shaped.glyphs.first, glyph.id != 0 else { return nil }
        glyph.cluster = cluster
        glyph.unsafeToBreak = false
        return glyph
    }

    /// `glyphs` of a piece (shown: the soft hyphen's own invisible glyph is left out) with
    /// `hyphen` added at their logical end.
    private func showing(_ hyphen: ShapedGlyph, in glyphs: ArraySlice<ShapedGlyph>, rightToLeft: Bool)
        -> ArraySlice<ShapedGlyph>
    {
        var shown = Array(glyphs)
        shown.insert(hyphen, at: rightToLeft ? 0 : shown.count)
        return shown[...]
    }

    /// Balancing applies to Arabic and Hebrew items only.
    private func size(of item: TextItem, _ text: ParagraphText, balance: Double) -> Double {
        let size = text.spans[item.spanIndex].style.size
        return item.isBalanced ? size + balance : size
    }

    private func shape(
        _ item: TextItem, _ display: [Unicode.Scalar], _ text: ParagraphText, balance: Double, range: Range<Int>,
        characterClusters: Bool = false
    ) -> ShapedRun {
        shaper.shape(
            scalars: display, range: range, face: item.face, size: size(of: item, text, balance: balance),
            rightToLeft: item.isRightToLeft, script: item.script,
            language: text.spans[item.spanIndex].style.language, characterClusters: characterClusters)
    }

    typealias PrimaryMetrics = (ascent: Double, descent: Double)

    /// What picks the primary face.
    private struct PrimaryStyle: Hashable {
        var families: [String]
        var weight: Int
        var italic: Bool
    }

    /// Ascent and descent (in em) of the first family of the paragraph's first style.
    private func primaryMetrics(_ text: ParagraphText) -> PrimaryMetrics {
        let style = text.spans.first?.style ?? text.emptyStyle ?? TextStyle()
        let key = PrimaryStyle(families: style.families, weight: style.weight, italic: style.italic)
        if let known = primaryMetricsCache.withLock({ $0[key] }) { return known }
        var primary: PrimaryMetrics = (1.069, 0.293)
        if let face = fonts.primaryFace(
            families: style.families, weight: style.weight, italic: style.italic,
            script: .latin)
        {
            let metrics = shaper.metrics(face: face, size: 1)
            primary = (metrics.ascent, -metrics.descent)  // descent is negative, y up
        }
        primaryMetricsCache.withLock { $0[key] = primary }
        return primary
    }

    /// SPEC §2: the line is line-height × the largest size tall; the baseline sits where the
    /// first family's ascent puts it, with the leading shared above and below.
    private func baselineOffset(size: Double, lineHeight: Double, primary: PrimaryMetrics) -> Double {
        let content = (primary.ascent + primary.descent) * size
        return (size * lineHeight - content) / 2 + primary.ascent * size
    }

    private func buildLine(
        _ range: Range<Int>, paragraph: BidiParagraph, items: [TextItem], shaped: [ShapedRun],
        clusterOrders: [ClusterOrder], unsafeCuts: [Bool],
        display: [Unicode.Scalar], text: ParagraphText, balance: Double, lineHeight: Double,
        primary: PrimaryMetrics, hyphen: ShapedGlyph?
    ) -> TextLine {
        let visibleEnd = LineFiller.visibleEnd(text.scalars, range)
        var runs: [LineRun] = []
        var x = 0.0
        for bidiRun in paragraph.visualRuns(range, hyphenated: hyphen != nil) {
            let runRange = bidiRun.scalarRange.clamped(to: range.lowerBound..<visibleEnd)
            guard !runRange.isEmpty else { continue }
            let firstPiece = runs.count
            // The glyphs of the pieces a run took in (`addRun`), in logical order, by run: joined
            // once at the end (joined at each piece, a line of 160,000 marks, each after a bidi
            // control, took 21 s).
            var takenIn: [Int: [ArraySlice<ShapedGlyph>]] = [:]
            // Items are in logical order and do not overlap: start at the first that reaches
            // into the run (binary search) and stop after the last, so that a paragraph of many
            // lines and items is not quadratic.
            var index = firstItem(endingAfter: runRange.lowerBound, in: items)
            while index < items.count, items[index].scalarRange.lowerBound < runRange.upperBound {
                defer { index += 1 }
                let item = items[index]
                guard item.scalarRange.overlaps(runRange) else { continue }
                let piece = item.scalarRange.clamped(to: runRange)
                // Only the item's glyphs of this piece are looked at: a paragraph of one script
                // and style is one item, and scanning all of it for every line was quadratic.
                let itemGlyphs = shaped[index].glyphs
                let order = clusterOrders[index]
                let cutBefore = piece.lowerBound != item.scalarRange.lowerBound
                let cutAfter = piece.upperBound != item.scalarRange.upperBound
                // A cut HarfBuzz marks unsafe (`AdvanceTable.unsafeCuts`: kerning, joining)
                // changes the piece's glyphs: it is shaped again, as the line filler measured it
                // (LineEndShaping).
                let reshaped = !unsafeCuts.isEmpty
                    && (cutBefore && unsafeCuts[piece.lowerBound] || cutAfter && unsafeCuts[piece.upperBound])
                let candidates = reshaped
                    ? shape(item, display, text, balance: balance, range: piece).glyphs[...]
                    : glyphSlice(itemGlyphs, order, piece)
                func shown(_ candidates: ArraySlice<ShapedGlyph>) -> ArraySlice<ShapedGlyph> {
                    var glyphs = shownGlyphs(candidates, of: piece)
                    // White space whose level UAX #9 L1 set back to the paragraph's, at a line's
                    // end that does not hang (before a word joiner) or before a tab, is shaped
                    // with the item before it: its glyphs go the run's way (their clusters fell
                    // in a left-to-right run, and a PDF or SVG of it could not be written).
                    if item.isRightToLeft != bidiRun.isRightToLeft { glyphs = glyphs.reversed()[...] }
                    if let hyphen, piece.contains(hyphen.cluster) {
                        glyphs = showing(hyphen, in: glyphs, rightToLeft: item.isRightToLeft)
                    }
                    return glyphs
                }
                let glyphs = shown(candidates)
                func addRun(_ range: Range<Int>, spanIndex: Int, _ shown: ArraySlice<ShapedGlyph>) {
                    // A piece of bidi controls alone (an isolate's LRI or PDI, a ZWNJ, ...) shows
                    // nothing and has no text once they are left out (SPEC §6): no run.
                    if shown.isEmpty && range.allSatisfy({ isLeftOutOfText(display[$0]) }) { return }
                    let run = LineRun(
                        scalarRange: range, level: bidiRun.level, script: item.script, face: item.face,
                        spanIndex: spanIndex, size: size(of: item, text, balance: balance),
                        glyphs: shown, x: 0, width: shown.reduce(0) { $0 + $1.advance })
                    // A run is maximal (SPEC §6): the one before, with nothing between them but
                    // what is left out (an empty embedding, the controls of an empty isolate),
                    // and alike in all but its text, takes this one in (in one face, a span's
                    // weight, italic or families draw nothing otherwise: `Itemizer.items`).
                    if runs.count > firstPiece, let last = runs.last, last.script == run.script, last.face == run.face,
                        last.size == run.size, last.scalarRange.upperBound <= range.lowerBound,
                        (last.scalarRange.upperBound..<range.lowerBound).allSatisfy({ isLeftOutOfText(display[$0]) }),
                        last.spanIndex == run.spanIndex
                            || text.spans[last.spanIndex].style.color == text.spans[run.spanIndex].style.color
                            && Itemizer.shapesAlikeInOneFace(text.spans[last.spanIndex].style, text.spans[run.spanIndex].style)
                    {
                        runs[runs.count - 1].scalarRange = last.scalarRange.lowerBound..<range.upperBound
                        takenIn[runs.count - 1, default: [last.glyphs]].append(shown)
                        runs[runs.count - 1].width += run.width
                        return
                    }
                    runs.append(run)
                }
                if text.spans[item.spanIndex].scalarRange.upperBound >= piece.upperBound {
                    addRun(piece, spanIndex: item.spanIndex, glyphs)  // nearly always: one span
                } else {
                    var (pieces, apart) = colorPieces(piece, of: item, clusters: candidates, text)
                    // A letter and its mark in two colors are one cluster of HarfBuzz's: shaped
                    // again with a cluster for each character, the mark's glyph is drawn in its
                    // own color (the letter took it). The glyphs are the same, else (a font
                    // HarfBuzz shapes otherwise that way) the cluster keeps one color. Only the
                    // clusters so drawn apart (`apart`) take a cluster per character: every
                    // other keeps its letters and marks together, for a PDF's text (one red
                    // kasra put the whole line's vowel marks apart from their letters, and
                    // pdftotext read the line as four, its words out of order).
                    var glyphs = glyphs
                    if let apart {
                        let fine = shape(item, display, text, balance: balance, range: piece, characterClusters: true).glyphs
                        let same = fine.elementsEqual(candidates) {
                            $0.id == $1.id && $0.advance == $1.advance && $0.xOffset == $1.xOffset && $0.yOffset == $1.yOffset
                        }
                        if same {
                            // A glyph parted from its letter's cluster that draws nothing leaves
                            // its character's color unseen where that is not the letter's
                            // (Devanagari's "किं" with a red anusvara: the font draws the i-vowel
                            // and the anusvara as one glyph, in the letter's cluster, and gives
                            // the anusvara an empty one): that cluster is drawn whole.
                            var apart = apart
                            func color(_ character: Int) -> Color? { span(containing: character..<character + 1, in: text)?.style.color }
                            for (glyph, level0) in zip(fine, candidates)
                            where glyph.cluster != level0.cluster && !glyph.isInvisible
                                && color(glyph.cluster) != color(level0.cluster)
                                && (shaper.glyphExtents(face: item.face, size: 1, glyph: glyph.id).map { $0.width == 0 || $0.height == 0 } ?? true)
                            {
                                apart.remove(level0.cluster)
                            }
                            var characters = fine
                            for (i, glyph) in zip(characters.indices, candidates) where !apart.contains(glyph.cluster) {
                                characters[i].cluster = glyph.cluster
                            }
                            glyphs = shown(characters[...])
                            pieces = colorPieces(piece, of: item, clusters: characters[...], text, drawnApart: true).pieces
                        }
                    }
                    // Each glyph goes to the piece its cluster is in, found by a binary search
                    // (a filter of the glyphs for every piece was quadratic: 130,000 color
                    // changes on one line took 44 s).
                    let starts = pieces.map(\.range.lowerBound)
                    var pieceGlyphs = [[ShapedGlyph]](repeating: [], count: pieces.count)
                    for glyph in glyphs {
                        let k = starts.partitionPoint { $0 <= glyph.cluster } - 1
                        if k >= 0, pieces[k].range.contains(glyph.cluster) { pieceGlyphs[k].append(glyph) }
                    }
                    for (k, (range, spanIndex)) in pieces.enumerated() {
                        addRun(range, spanIndex: spanIndex, pieceGlyphs[k][...])
                    }
                }
            }
            // Glyphs in visual order: a right-to-left run shows the later text first.
            for (k, pieces) in takenIn {
                runs[k].glyphs = Array((bidiRun.isRightToLeft ? pieces.reversed() : pieces).joined())[...]
            }
            // The pieces are in logical order: a right-to-left run shows the last one first.
            if bidiRun.isRightToLeft { runs[firstPiece...].reverse() }
            for k in firstPiece..<runs.count {
                runs[k].x = x
                x += runs[k].width
            }
        }
        let largest = runs.map(\.size).max() ?? span(containing: range, in: text)?.style.size ?? 17
        return TextLine(
            scalarRange: range, runs: runs, width: x, height: largest * lineHeight,
            baseline: baselineOffset(size: largest, lineHeight: lineHeight, primary: primary),
            largestSize: largest,
            hangingSpace: hangingSpace(
                range, visibleEnd: visibleEnd, text, items, shaped, clusterOrders, balance: balance),
            whiteSpaceOnly: !display[range].contains { !showsNothing($0) })
    }

    /// The space at `visibleEnd` when it hangs at the end of the line `range`, after something
    /// shown, and its item shaped it as one glyph; for a `<br/>` (U+2028, which fonts lack) or
    /// another character that ends a line (U+2029, NEL, CR, LF, VT, FF: UAX #14's BK, CR, LF
    /// and NL, from references or a catalog), a space shaped in its item's font, so that the
    /// text reads "line one" + " " + "line two" (it read "line oneline two").
    private func hangingSpace(
        _ range: Range<Int>, visibleEnd: Int, _ text: ParagraphText, _ items: [TextItem], _ shaped: [ShapedRun],
        _ clusterOrders: [ClusterOrder], balance: Double
    ) -> HangingSpace? {
        guard visibleEnd > range.lowerBound else { return nil }
        // The first space or break past the bidi controls that hang with them (the end of an
        // isolate before a `<br/>`: a sheet's caption read "a.xmlen · Large").
        var at = visibleEnd
        while at < range.upperBound && Self.isBidiControlOrMark(text.scalars[at]) { at += 1 }
        guard at < range.upperBound else { return nil }
        let scalar = text.scalars[at]
        let endsLine = scalar.endsLine
        guard scalar == " " || endsLine else { return nil }
        let index = firstItem(endingAfter: at, in: items)
        guard index < items.count else { return nil }
        let item = items[index]
        let found: ShapedGlyph?
        if endsLine {
            found = self.glyph(of: " ", in: item, at: at, text, balance: balance)
        } else {
            let glyphs = glyphSlice(shaped[index].glyphs, clusterOrders[index], at..<at + 1)
            found = glyphs.count == 1 && glyphs.first?.id != 0 ? glyphs.first : nil
        }
        guard let glyph = found else { return nil }
        return HangingSpace(
            glyph: glyph, face: item.face, size: size(of: item, text, balance: balance), spanIndex: item.spanIndex)
    }

    /// `piece` of `item` cut where its spans change, with their indices: an item takes in spans
    /// that differ in color alone (`Itemizer.items`), shaped together and drawn apart, cluster
    /// by cluster. A cluster of characters of several spans (a lam-alef whose alef is red; a
    /// letter and its mark, unless shaped with a cluster per character) takes the first of
    /// them whose color is not the block's, else the block's: what the author colored shows.
    /// `glyphs` are the piece's as shaped, hidden ones included (a ZWNJ is a cluster of its own).
    ///
    /// `apart`, unless `drawnApart` (the glyphs have a cluster per character already): the
    /// clusters (by their first character) that hold two colors whose characters can be drawn
    /// apart, nil when there are none. They can be where every
    /// character of a color other than the cluster's first is a mark that takes no room (a
    /// vowel mark, niqqud, an accent, a lam-alef's tanween: a glyph of its own, where it
    /// stands), and no color is translucent. Not a vowel sign HarfBuzz parts around its
    /// consonant (Tamil's ொ, half of it before the letter, is a character of two clusters),
    /// nor a letter ligated with another (an alef in lam-alef); and two runs of translucent
    /// letters draw their join twice, darker.
    private func colorPieces(
        _ piece: Range<Int>, of item: TextItem, clusters glyphs: ArraySlice<ShapedGlyph>, _ text: ParagraphText,
        drawnApart: Bool = false
    ) -> (pieces: [(range: Range<Int>, spanIndex: Int)], apart: Set<Int>?) {
        let spans = text.spans
        let plain = text.emptyStyle?.color ?? spans[item.spanIndex].style.color
        // Where the piece's clusters start, in logical order, then its end: sorted once, and
        // spans and clusters walked together (a paragraph colored mark by mark has thousands
        // of spans in one cluster).
        var bounds = Array(Set(glyphs.lazy.map(\.cluster).filter { piece.contains($0) && $0 > piece.lowerBound }))
        bounds.sort()
        bounds.append(piece.upperBound)
        var spanIndex = spans.partitionPoint { $0.scalarRange.upperBound <= piece.lowerBound }
        var pieces: [(range: Range<Int>, spanIndex: Int)] = []
        var apart = Set<Int>()
        var start = piece.lowerBound
        for end in bounds {
            // The cluster start..<end: the span of its first character, or a later one of it
            // whose color is not the block's.
            while spans[spanIndex].scalarRange.upperBound <= start { spanIndex += 1 }
            var chosen = spanIndex
            var next = spanIndex
            while spans[chosen].style.color == plain && spans[next].scalarRange.upperBound < end {
                next += 1
                if spans[next].style.color != plain { chosen = next }
            }
            if !drawnApart {
                // Each span of the cluster, and each character of another color than the first's.
                let first = spans[spanIndex].style.color
                var k = spanIndex
                var colors = false
                var separable = true
                while true {
                    let color = spans[k].style.color
                    separable = separable && color.alpha == 1
                    if color != first {
                        colors = true
                        let characters = spans[k].scalarRange.clamped(to: start..<end)
                        separable = separable && characters.allSatisfy {
                            let category = text.scalars[$0].generalCategory
                            return category == .Mn || category == .Me
                        }
                    }
                    guard spans[k].scalarRange.upperBound < end, k + 1 < spans.count else { break }
                    k += 1
                }
                if colors && separable { apart.insert(start) }
            }
            if let last = pieces.last, last.spanIndex == chosen {
                pieces[pieces.count - 1].range = last.range.lowerBound..<end
            } else {
                pieces.append((start..<end, chosen))
            }
            start = end
        }
        return (pieces, apart.isEmpty ? nil : apart)
    }

    /// The glyphs of `piece` that are drawn: the characters HarfBuzz hides (bidi controls, ZWNJ,
    /// soft hyphens, ...: `ShapedGlyph.invisible`) are left out. Most often that is all of them,
    /// and the slice is kept rather than copied.
    private func shownGlyphs(_ candidates: ArraySlice<ShapedGlyph>, of piece: Range<Int>) -> ArraySlice<ShapedGlyph> {
        func isShown(_ glyph: ShapedGlyph) -> Bool { piece.contains(glyph.cluster) && !glyph.isInvisible }
        guard !candidates.allSatisfy(isShown) else { return candidates }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(candidates.count)
        for glyph in candidates where isShown(glyph) { glyphs.append(glyph) }
        return glyphs[...]
    }

    /// The span holding the start of a non-empty `range` (binary search: a paragraph of many
    /// `br`s has a span per line, and a linear search per empty line was quadratic).
    private func span(containing range: Range<Int>, in text: ParagraphText) -> StyledSpan? {
        guard !range.isEmpty else { return nil }
        let low = text.spans.partitionPoint { $0.scalarRange.upperBound <= range.lowerBound }
        return low < text.spans.count && text.spans[low].scalarRange.overlaps(range) ? text.spans[low] : nil
    }

    /// The index of the first item whose range ends after `offset` (items.count if none).
    private func firstItem(endingAfter offset: Int, in items: [TextItem]) -> Int {
        items.partitionPoint { $0.scalarRange.upperBound <= offset }
    }


    /// How a shaped item's clusters run: HarfBuzz's default cluster level keeps them monotone,
    /// rising in left-to-right runs and falling in right-to-left ones.
    enum ClusterOrder { case ascending, descending, unordered }

    static func clusterOrder(_ glyphs: [ShapedGlyph]) -> ClusterOrder {
        var ascending = true
        var descending = true
        for k in glyphs.indices.dropFirst() {
            if glyphs[k].cluster < glyphs[k - 1].cluster { ascending = false }
            if glyphs[k].cluster > glyphs[k - 1].cluster { descending = false }
        }
        return ascending ? .ascending : descending ? .descending : .unordered
    }

    /// The glyphs whose cluster is in `range`: a contiguous slice found by binary search when
    /// the clusters are monotone, else all glyphs with a cluster in `range`.
    private func glyphSlice(
        _ glyphs: [ShapedGlyph], _ order: ClusterOrder, _ range: Range<Int>
    ) -> ArraySlice<ShapedGlyph> {
        func boundary(_ isBefore: (Int) -> Bool) -> Int { glyphs.partitionPoint { isBefore($0.cluster) } }
        switch order {
        case .ascending:
            return glyphs[boundary { $0 < range.lowerBound }..<boundary { $0 < range.upperBound }]
        case .descending:
            return glyphs[boundary { $0 >= range.upperBound }..<boundary { $0 >= range.lowerBound }]
        case .unordered:
            return ArraySlice(glyphs.filter { range.contains($0.cluster) })
        }
    }
}
