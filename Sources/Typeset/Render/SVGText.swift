// The text of an SVG page (SPEC §4.5 speaks of "the text in PDF and SVG"). SVGWriter draws
// glyphs as outlines, which have no characters, so each glyph run's text is added as an
// invisible `<text>` over its glyphs: the SVG can then be searched, selected and read, as the
// PDF can, and draws exactly as without it.

enum SVGText {
    /// The text of `page`'s glyph runs (and of the pages drawn inside it) in a group that paints
    /// nothing; nothing when the page has no text. Its spaces are kept as they are
    /// (`xml:space="preserve"`): by default a `<tspan>`'s space at its start or end is dropped,
    /// and rsvg set the words of a run that began with one 10–20 pt away from their glyphs.
    static func write(_ page: Page, to svg: inout ByteBuffer) {
        var layer = ByteBuffer()
        write(page, layer: &layer)
        guard layer.count > 0 else { return }
        svg.append(#"<g fill-opacity="0" stroke="none" xml:space="preserve">"#)
        svg.append("\n")
        svg.append(layer)
        svg.append("</g>\n")
    }

    /// Whether `text` is ASCII letters, a single space between words and none at its ends:
    /// text any viewer's bidi pass leaves in its order whatever stands around it.
    private static func isLatinWords(_ text: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            guard isLetter || byte == 0x20 && previous != 0x20 else { return false }
            previous = byte
        }
        return previous != 0x20
    }

    /// One `<text>` per block, in the page's reading order, with a `<tspan>` per run spanning
    /// the run's advance from its origin on the baseline (a right-to-left run's from its right
    /// end), in its language: a word whose letters differ in color or weight is one word to find
    /// or read (a `<text>` per run cut "reddish" into "re", "d" and "dish"), and so is a phrase
    /// that goes on on the next line (a `<text>` per line: Chrome's find did not find "several
    /// words in it" broken after "words"). A block ends at a tag, and where a run stands
    /// above the one before (each tspan is placed on its own, a text chunk of SVG's).
    private static func write(_ page: Page, layer: inout ByteBuffer) {
        var lineBaseline: Double?
        func endLine() {
            if lineBaseline != nil { layer.append("</text>\n") }
            lineBaseline = nil
        }
        for item in page.items {
            switch item {
            case .glyphs(let run):
                guard !run.glyphs.isEmpty, !run.text.isEmpty else { continue }
                // At the run's origin, not its first glyph's (a vowel mark a right-to-left run
                // begins with stands above and beside its letter: the text stood up to 14 pt
                // right of an Arabic word and 8 pt below it).
                if let baseline = lineBaseline, run.baseline < baseline { endLine() }
                if lineBaseline == nil { layer.append("<text>") }
                lineBaseline = run.baseline
                layer.append("<tspan x=\"")
                layer.decimal(run.backward ? run.originX + run.width : run.originX)
                layer.append("\" y=\"")
                layer.decimal(run.baseline)
                layer.append("\" font-family=\"")
                appendEscaped(run.font.family, to: &layer)
                layer.append("\" font-size=\"")
                layer.decimal(run.size)
                layer.append("\"")
                if run.width > 0 {
                    layer.append(" textLength=\"")
                    layer.decimal(run.width)
                    layer.append("\" lengthAdjust=\"spacingAndGlyphs\"")
                }
                if run.font.weight != 400 {
                    layer.append(" font-weight=\"")
                    layer.digits(run.font.weight)
                    layer.append("\"")
                }
                if run.font.italic { layer.append(" font-style=\"italic\"") }
                // A run is of one direction, its text in logical order: drawn in it as it is,
                // without a bidi pass of the viewer's own (which put an `<ltr>` phone number's
                // Arabic-Indic digit groups, or an override's Latin words, in another order than
                // their glyphs; Firefox did so to "+1 (555) 010-9999" in Arabic, its groups
                // taken for numbers in right-to-left text). Latin words with spaces between
                // them, no digit nor punctuation, need none.
                if run.backward {
                    layer.append(" direction=\"rtl\" unicode-bidi=\"bidi-override\"")
                } else if !isLatinWords(run.text) {
                    layer.append(" direction=\"ltr\" unicode-bidi=\"bidi-override\"")
                }
                appendLanguage(run.language, to: &layer)
                layer.append(">")
                appendEscaped(run.text, to: &layer)
                layer.append("</tspan>")
            case .subpage(let inner):
                endLine()
                var nested = ByteBuffer()
                write(inner.page, layer: &nested)
                guard nested.count > 0 else { continue }
                layer.append("<g transform=\"translate(")
                layer.decimal(inner.x)
                layer.append(" ")
                layer.decimal(inner.y)
                layer.append(") scale(")
                layer.exact(inner.scale)
                layer.append(")\">\n")
                layer.append(nested)
                layer.append("</g>\n")
            case .image(let image):
                // Its accessible name here, in reading order among the text (on the drawn image,
                // a screen reader read every picture's before the page's text).
                guard let alt = image.alt, !alt.isEmpty else { continue }
                endLine()
                layer.append("<rect")
                appendBox(x: image.x, y: image.y, width: image.width, height: image.height, to: &layer)
                layer.append(" role=\"img\"")
                appendLanguage(image.language, to: &layer)
                layer.append(" aria-label=\"")
                appendEscaped(alt, to: &layer)
                layer.append("\">")
                appendTitle(alt, to: &layer)
                layer.append("</rect>\n")
            case .beginTag, .endTag:
                endLine()
            case .rectangle, .rule:
                continue
            }
        }
        endLine()
    }

    /// ` x="…" y="…" width="…" height="…"`: a `<rect>`'s box.
    static func appendBox(x: Double, y: Double, width: Double, height: Double, to buffer: inout ByteBuffer) {
        buffer.append(" x=\"")
        buffer.decimal(x)
        buffer.append("\" y=\"")
        buffer.decimal(y)
        buffer.append("\" width=\"")
        buffer.decimal(width)
        buffer.append("\" height=\"")
        buffer.decimal(height)
        buffer.append("\"")
    }

    /// ` xml:lang="language"`, when there is one.
    static func appendLanguage(_ language: String?, to buffer: inout ByteBuffer) {
        guard let language else { return }
        buffer.append(" xml:lang=\"")
        appendEscaped(language, to: &buffer)
        buffer.append("\"")
    }

    /// `<title>text</title>`: an accessible name.
    static func appendTitle(_ text: String, to buffer: inout ByteBuffer) {
        buffer.append("<title>")
        appendEscaped(text, to: &buffer)
        buffer.append("</title>")
    }

    /// `text` as XML character data or an attribute value; characters XML 1.0 does not allow
    /// (C0 controls other than tab and line ends, U+FFFE, U+FFFF) are left out.
    static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { utf8 in
            // What is before `copied` is in `buffer`; the bytes between are copied at once.
            var copied = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var replacement: StaticString = ""
                var length = 1
                switch byte {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x09, 0x0A, 0x0D:
                    index += 1
                    continue
                case 0x00..<0x20: break  // left out
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
                    length = 3  // U+FFFE, U+FFFF: left out
                default:
                    index += 1
                    continue
                }
                buffer.append(UnsafeBufferPointer(rebasing: utf8[copied..<index]))
                buffer.append(replacement)
                index += length
                copied = index
            }
            buffer.append(UnsafeBufferPointer(rebasing: utf8[copied...]))
        }
    }
}
