// The resolved style of a stretch of text: what itemizing, shaping and rendering need to know.

extension NumberingSystem {
    /// The digit `scalar` (0–9 in any of the systems) in this system, or nil if it is no
    /// digit. Substitution is for display only and happens after bidi resolution (SPEC 4.5),
    /// so that numbers order the same whatever digits they show.
    func substitute(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        Self.digitValue(scalar).flatMap { Unicode.Scalar(zero.value + $0) }
    }

    /// The value (0–9) of `scalar` as a digit of one of the systems (`zero`), or nil. Text
    /// below U+0660 (Latin, Hebrew, most of Arabic) is answered by two comparisons.
    @inline(__always)
    static func digitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        let value = scalar.value
        if value &- 0x30 < 10 { return value &- 0x30 }
        guard value >= 0x660 else { return nil }
        for system in allCases {
            let digit = value &- system.zero.value
            if digit < 10 { return digit }
        }
        return nil
    }

    /// Whether `scalar` is a digit of one of the systems, one `substitute` converts.
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { digitValue(scalar) != nil }

    /// The decimal separator, group separator and percent sign numbers take in this system
    /// (CLDR's number symbols: ASCII for `latn`, ٫ ٬ ٪ for `arab` and `arabext`). The Arabic
    /// zero ٠ is itself a dot, so "٣.٢" and "٣٠٢" differ only in the dot's height: the
    /// separators these systems have are what a number formatter shows, and what tells them
    /// apart.
    var symbols: (decimal: Unicode.Scalar, group: Unicode.Scalar, percent: Unicode.Scalar) {
        switch self {
        case .arab, .arabext: ("\u{066B}", "\u{066C}", "\u{066A}")
        case .latn, .beng, .deva, .mymr, .tibt, .olck, .cakm: (".", ",", "%")
        }
    }
}

/// Font, size, color and language of a run of text, after inheritance and defaults.
public struct TextStyle: Hashable, Sendable {
    /// Families tried in order before the bundled fallbacks.
    public var families: [String]
    /// CSS-style weight (400 regular, 600 semibold, 700 bold).
    public var weight: Int
    public var italic: Bool
    /// Point size before RTL balancing.
    public var size: Double
    public var color: Color
    /// BCP 47 language tag, given to HarfBuzz for shaping.
    public var language: String
    /// The digits shown (SPEC 4.5); nil, where no `numerals` applies, for those written.
    public var digits: NumberingSystem?

    public init(
        families: [String] = [], weight: Int = 400, italic: Bool = false, size: Double = 17,
        color: Color = .black, language: String = "en", digits: NumberingSystem? = nil
    ) {
        self.families = families
        self.weight = weight
        self.italic = italic
        self.size = size
        self.color = color
        self.language = language
        self.digits = digits
    }
}

/// A paragraph's text with the style of each stretch: the input of the text pipeline.
public struct ParagraphText: Sendable {
    public var scalars: [Unicode.Scalar] = []
    /// Contiguous, covering `scalars`, in order; neighbours differ in style, so that
    /// `<b>ab</b><b>cd</b>` is one span, shaped and reported as one run (SPEC §6).
    public var spans: [StyledSpan] = []
    /// Where each stretch of the text came from, for warnings: a source runs from its `start`
    /// to the next one's. Kept apart from `spans`, which the markup's tags must not cut.
    public var sources: [TextSource] = []
    /// The style of the block's own text: the size and font of the line an empty paragraph
    /// still takes (an empty title is a title's height, not the body's).
    public var emptyStyle: TextStyle?

    public init(emptyStyle: TextStyle? = nil) { self.emptyStyle = emptyStyle }

    /// Appends `text` in `style`, merging with the last span when the style is the same.
    public mutating func append<S: Sequence>(_ text: S, style: TextStyle, location: SourceLocation?)
    where S.Element == Unicode.Scalar {
        let start = scalars.count
        scalars.append(contentsOf: text)
        noteAppended(from: start, style: style, location: location)
    }

    /// Appends the scalars of `text` in `style`. Faster than appending its `unicodeScalars`,
    /// which `append(contentsOf:)` counts (decoding the UTF-8) and then decodes again through a
    /// generic iterator, or appending them one by one: here the scalars are counted from the
    /// UTF-8 bytes (every byte that is not a continuation byte starts one), decoded once into
    /// room on the stack, and appended together.
    public mutating func append(_ text: String, style: TextStyle, location: SourceLocation?) {
        let start = scalars.count
        var text = text
        text.withUTF8 { utf8 in
            var count = 0
            for byte in utf8 where byte & 0xC0 != 0x80 { count += 1 }
            // Doubling, as appends do: an exact reservation per call would copy the whole text each time.
            if scalars.capacity < start + count { scalars.reserveCapacity(max(start + count, 2 * scalars.capacity)) }
            withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: count) { decoded in
                // A String's UTF-8 is well-formed: each lead byte gives its sequence's length.
                var index = 0
                for k in 0..<count {
                    let lead = UInt32(utf8[index])
                    var value: UInt32
                    if lead < 0x80 {
                        value = lead
                        index += 1
                    } else if lead < 0xE0 {
                        value = (lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
                        index += 2
                    } else if lead < 0xF0 {
                        value = (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
                        index += 3
                    } else {
                        value = (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                        value |= UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                        index += 4
                    }
                    decoded.initializeElement(at: k, to: Unicode.Scalar(value) ?? "\u{FFFD}")
                }
                scalars.append(contentsOf: decoded)
                decoded.deinitialize()
            }
        }
        noteAppended(from: start, style: style, location: location)
    }

    /// Extends the last span over the scalars from `start`, or starts a span for them; and
    /// notes where they came from.
    private mutating func noteAppended(from start: Int, style: TextStyle, location: SourceLocation?) {
        guard scalars.count > start else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].scalarRange = last.scalarRange.lowerBound..<scalars.count
        } else {
            spans.append(StyledSpan(scalarRange: start..<scalars.count, style: style))
        }
        if sources.isEmpty || sources[sources.count - 1].location != location {
            sources.append(TextSource(start: start, location: location))
        }
    }

    /// The index of the source holding the scalar at `offset`.
    func sourceIndex(of offset: Int) -> Int {
        max(sources.partitionPoint { $0.start <= offset } - 1, 0)
    }

    /// The scalars of the source at `index`.
    func range(ofSource index: Int) -> Range<Int> {
        sources[index].start..<(index + 1 < sources.count ? sources[index + 1].start : scalars.count)
    }
}

public struct StyledSpan: Sendable {
    public var scalarRange: Range<Int>
    public var style: TextStyle
}

/// Where text starts in the markup (nil: text the markup does not hold, e.g. a list marker).
public struct TextSource: Sendable {
    public var start: Int
    public var location: SourceLocation?
}
