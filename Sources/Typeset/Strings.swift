// String helpers Foundation's String(format:) and CharacterSet gave (not part of
// FoundationEssentials, which is all typeset links).

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Foundation's `CharacterSet.whitespaces`:
    /// tab and the space separators).
    public func trimmingWhitespace() -> String {
        trimming(\.isHorizontalSpace)
    }

    /// Without the leading and trailing characters `drop` says.
    public func trimming(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// `0x2F`: a byte as error messages name it.
public func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
}

/// `text` to be written to a terminal: its control characters (the ESC of escape codes), its
/// format characters (bidi embeddings, overrides and isolates, which reorder what follows them
/// on the line; a zero-width space or byte-order mark pasted into a value, which made
/// "not 'center' (did you mean 'center'?)") and line and paragraph separators as `\u{…}`, from
/// a file name, a catalog's text or an option's value quoted in a message. The joiners stay
/// (Persian's ZWNJ, an emoji's ZWJ), and so do an emoji flag's tag characters.
public func terminalSafe(_ text: String) -> String {
    func unsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}" && !(0xE0020...0xE007F).contains(scalar.value)
        default: false
        }
    }
    guard text.unicodeScalars.contains(where: unsafe) else { return text }
    return text.unicodeScalars.map { unsafe($0) ? visible($0) : String($0) }.joined()
}

/// `text` kept to one line of a terminal: a line feed in it is written `\u{A}`, as
/// `terminalSafe` writes the other controls (an attribute's `&#10;` in an error, or a file name
/// with one, cut a `FILE:LINE:COLUMN: error:` line in two).
public func singleLine(_ text: String) -> String {
    text.utf8.contains(0x0A) ? text.replacing("\n", with: "\\u{A}") : text
}

/// `scalar` as text shown to be read back writes it (a layout dump, a failed conformance case):
/// itself, or `\u{…}` for what would hide or reorder what is around it, or stands for bytes
/// that were not text: controls, format characters, line and paragraph separators, unassigned
/// and private-use code points, U+FFFD (a file of binary garbage was echoed to the terminal).
public func visible(_ scalar: Unicode.Scalar) -> String {
    switch scalar.generalCategory {
    case .Cc, .Cf, .Zl, .Zp, .Cn, .Co: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    default: scalar == "\u{FFFD}" ? "\\u{FFFD}" : String(scalar)
    }
}

/// Whether `scalar` shows as nothing where it stands (white space, a control, a default-
/// ignorable character: a no-break space, a byte-order mark): messages name it by its code
/// point, since the place they give looks blank.
public func showsNothing(_ scalar: Unicode.Scalar) -> Bool {
    // (By the project's tables: the runtime's Unicode properties cost about 300 instructions a
    // call, and every line of a paragraph asks it, `TextLine.whiteSpaceOnly`.)
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.isWhiteSpace || scalar.isDefaultIgnorable
}

/// A code point as the Unicode Standard writes it, at least four upper-case hexadecimal
/// digits: `00E9`, `1F600` (without the `U+`, which UCD files leave out).
public func hexCodePoint(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `value` in its shortest form, whole numbers without a fraction: `12`, `0.5`, `0.00830078125`
/// (messages about points; SVG scales, `ByteBuffer.exact`).
public func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// `value` with `places` decimals, without Foundation.
public func formatDecimal(_ value: Double, places: Int) -> String {
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = Int((value * factor).rounded())
    let whole = scaled / Int(factor)
    var fraction = String(scaled % Int(factor))
    while fraction.count < places { fraction = "0" + fraction }
    return "\(whole).\(fraction)"
}

extension Character {
    /// A tab or a space separator (Zs): what Foundation's `CharacterSet.whitespaces` holds.
    public var isHorizontalSpace: Bool {
        self == "\t" || unicodeScalars.allSatisfy { $0.generalCategory == .Zs }
    }
}
