// The text of an SVG page (SPEC §4.5 speaks of "the text in PDF and SVG"). SVGWriter draws
// glyphs as outlines, which have no characters, so each glyph run's text is added as an
// invisible `<text>` over its glyphs: the SVG can then be searched, selected and read, as the
// PDF can, and draws exactly as without it.

enum SVGText {
    /// The text of `page`'s glyph runs (and of the pages drawn inside it), one `<text>` per
    /// run; empty when the page has none.
    static func layer(of page: Page) -> [UInt8] {
        var layer: [UInt8] = []
        append(page, to: &layer)
        return layer
    }

    /// One `<text>` per run, in the page's reading order, spanning the run's advance from its
    /// first glyph's origin; a right-to-left run starts at its right end. Each has its language.
    private static func append(_ page: Page, to layer: inout [UInt8]) {
        for item in page.items {
            switch item {
            case .glyphs(let run):
                guard let first = run.glyphs.first, !run.text.isEmpty else { continue }
                let x = run.backward ? first.x + run.width : first.x
                var element =
                    "<text x=\"\(number(x))\" y=\"\(number(first.y))\" font-family=\"\(escaped(run.font.family))\""
                element += " font-size=\"\(number(run.size))\""
                if run.width > 0 {
                    element += " textLength=\"\(number(run.width))\" lengthAdjust=\"spacingAndGlyphs\""
                }
                if run.backward { element += " direction=\"rtl\" unicode-bidi=\"embed\"" }
                if let language = run.language { element += " xml:lang=\"\(escaped(language))\"" }
                element += ">\(escaped(run.text))</text>\n"
                layer.append(contentsOf: element.utf8)
            case .subpage(let inner):
                var nested: [UInt8] = []
                append(inner.page, to: &nested)
                guard !nested.isEmpty else { continue }
                let transform = "translate(\(number(inner.x)) \(number(inner.y))) scale(\(number(inner.scale)))"
                layer.append(contentsOf: "<g transform=\"\(transform)\">\n".utf8)
                layer.append(contentsOf: nested)
                layer.append(contentsOf: "</g>\n".utf8)
            case .rectangle, .rule, .image, .beginTag, .endTag:
                continue
            }
        }
    }

    /// Up to three decimals, without a trailing ".0" (the size of a value SVG viewers read).
    static func number(_ value: Double) -> String { format((value * 1000).rounded() / 1000) }

    /// Text for XML character data and attribute values; characters XML 1.0 does not allow
    /// (C0 controls other than tab and line ends, U+FFFE, U+FFFF) are left out.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output += "&amp;"
            case 0x3C: output += "&lt;"
            case 0x3E: output += "&gt;"
            case 0x22: output += "&quot;"
            case 0x09, 0x0A, 0x0D: output.unicodeScalars.append(scalar)
            case 0x00..<0x20, 0xFFFE, 0xFFFF: continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
