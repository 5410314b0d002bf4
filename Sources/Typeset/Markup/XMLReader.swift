// A strict, linear-time reader for the XML 1.0 subset the markup uses (SPEC §2): elements,
// attributes, text, CDATA, comments and processing instructions; no DTD and no entities other
// than the five predefined ones, which is how billion-laughs and external entities are refused.

/// An attribute as written: its value has references replaced and white space normalized
/// (XML 1.0 §3.3.3); `location` is where its name starts.
struct XMLAttribute: Sendable, Hashable {
    var name: String
    var value: String
    var location: SourceLocation
}

/// Character data between tags: text, CDATA sections and references, merged.
struct XMLText: Sendable, Hashable {
    var value: String
    /// Where the text starts.
    var location: SourceLocation
    /// Where its first character other than XML white space is, if it has one.
    var contentLocation: SourceLocation?
}

struct XMLElement: Sendable, Hashable {
    var name: String
    var attributes: [XMLAttribute]
    var children: [XMLNode]
    /// Where the start tag's `<` is.
    var location: SourceLocation
}

enum XMLNode: Sendable, Hashable {
    case element(XMLElement)
    case text(XMLText)
}

/// Reads a whole document into a tree, or throws the first well-formedness error with its exact
/// line and column (columns count Unicode scalars from 1; a byte-order mark is not counted).
///
/// The reader never recurses: open elements live on an explicit stack, capped at
/// `maximumDepth`, so the tree it returns is at most that deep and later stages may recurse.
struct XMLReader {
    /// Larger inputs are refused before any work is done: a mockup is a few kilobytes, and a
    /// document takes about 130 times its size in memory (1,000 benchmark mockups in one, 834
    /// KB: 106 MB), up to 320 times for `<p>a</p>` repeated. At 16 MiB that was 5 GB, which a
    /// CI runner of 4 GB does not have; at 4 MiB it is about 1.3 GB.
    static let maximumInputBytes = 4 * 1024 * 1024
    /// SPEC §2: nesting deeper than 256 elements is an error.
    static let maximumDepth = 256

    /// Parses `bytes` (UTF-8, optionally with a byte-order mark) into the root element.
    static func read(_ bytes: [UInt8], file: String) throws(Diagnostic) -> XMLElement {
        guard bytes.count <= maximumInputBytes else {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1),
                "the input is \(bytes.count) bytes; the limit is \(maximumInputBytes) bytes (\(maximumInputBytes >> 20) MiB)")
        }
        let normalized = try normalize(bytes, file: file)
        var reader = XMLReader(bytes: normalized, file: file)
        return try reader.readDocument()
    }

    // MARK: - Input validation

    /// The encoding `bytes` begin in when it is UTF-16 or UTF-32, by a byte-order mark or by
    /// their first characters (XML 1.0 Appendix F: ASCII ones, a NUL byte beside each), said
    /// as such, not as the NUL byte the first of them has. (No UTF-8 has FE or FF, and UTF-8
    /// markup has no NUL.)
    static func otherEncoding(_ bytes: [UInt8]) -> String? {
        let marks: [(start: [UInt8], name: String)] = [
            ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"), ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"),
            ([0xFF, 0xFE], "UTF-16"), ([0xFE, 0xFF], "UTF-16"),
        ]
        if let mark = marks.first(where: { bytes.starts(with: $0.start) }) {
            return "\(mark.name) (it starts with a \(mark.name) byte-order mark)"
        }
        guard bytes.count >= 4 else { return nil }
        let head = Array(bytes.prefix(4))
        func isASCII(_ byte: UInt8) -> Bool { (0x01...0x7F).contains(byte) }
        let name: String? =
            switch (head[0], head[1], head[2], head[3]) {
            case (let a, 0, 0, 0) where isASCII(a), (0, 0, 0, let a) where isASCII(a): "UTF-32"
            case (let a, 0, let b, 0) where isASCII(a) && isASCII(b), (0, let a, 0, let b) where isASCII(a) && isASCII(b): "UTF-16"
            default: nil
            }
        return name.map { "\($0) (its first characters are \($0 == "UTF-16" ? "two" : "four") bytes each)" }
    }

    /// Checks that `bytes` are UTF-8 made of XML characters (XML 1.0 §2.2 Char) and returns them
    /// without the byte-order mark, with CRLF and lone CR turned into LF (§2.11).
    static func normalize(_ bytes: [UInt8], file: String) throws(Diagnostic) -> [UInt8] {
        if let encoding = otherEncoding(bytes) {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1), "the input is \(encoding); markup must be UTF-8",
                hint: "save the file as UTF-8")
        }
        if let kind = MarkupParser.binaryKind(of: bytes.prefix(12)) {
            throw .error(
                SourceLocation(file: file, line: 1, column: 1), "the input is \(kind), not markup",
                hint: "typeset reads markup: give it the .xml file")
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        var hasCarriageReturn = false
        // Lines and columns are counted only for an error (`location(of:in:from:)`): counted
        // along the way, they cost more than the check of each byte.
        func location(_ index: Int) -> SourceLocation {
            XMLReader.location(of: index, in: bytes, from: start, file: file)
        }
        while index < bytes.count {
            index = bytes.withUnsafeBytes { skipCommonCharacters($0, from: index) }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                switch byte {
                case 0x09, 0x0A, 0x20...0x7F:
                    break
                case 0x0D:
                    hasCarriageReturn = true
                case 0x00:
                    throw .error(location(index), "a NUL byte is not allowed in XML")
                default:
                    throw .error(
                        location(index), "control character \(hexCode(UInt32(byte))) is not allowed in XML")
                }
                index += 1
                continue
            }
            guard let (scalar, length) = decodeUTF8(bytes, at: index) else {
                // A file in the encoding its declaration names is told so, by the declaration's
                // reader (a Windows-1256 file was told only of the byte), when the declaration
                // ends before the byte.
                let head = bytes[start..<min(index, start + 256)]
                if head.starts(with: Array("<?xml".utf8)),
                    let close = head.indices.dropLast().first(where: { head[$0] == 0x3F && head[$0 + 1] == 0x3E })
                {
                    var reader = XMLReader(bytes: Array(head[...(close + 1)]), file: file)
                    try reader.readXMLDeclaration()
                }
                throw .error(
                    location(index),
                    "the input is not valid UTF-8 (byte \(hexByte(byte)))",
                    hint: "save the file as UTF-8")
            }
            guard isXMLCharacter(scalar) else {
                throw .error(location(index), "\(hexCode(scalar)) is not a character allowed in XML")
            }
            index += length
        }
        // Valid: copy only when something changes.
        guard hasCarriageReturn else { return start == 0 ? bytes : Array(bytes[start...]) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        index = start
        while index < bytes.count {
            if bytes[index] == 0x0D {
                output.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                output.append(bytes[index])
            }
            index += 1
        }
        return output
    }

    /// The index of the first byte from `start` on that is not one of the common characters of
    /// markup, which are all XML characters: tab, LF, printable ASCII (eight at a time) and
    /// two-byte sequences (U+0080...U+07FF: Arabic, Hebrew, ...). Checked a character at a time
    /// with `decodeUTF8`, a corpus mockup of about 1.2 KB took 26 thousand instructions; 9 now.
    private static func skipCommonCharacters(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index < bytes.count {
            if index + 8 <= bytes.count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // All eight in 0x20...0x7F: no high bit, and each byte + 0x60 sets it (without
                // carries, since none is above 0x7F).
                if word & high == 0 && (word &+ 0x6060_6060_6060_6060) & high == high {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if (byte >= 0x20 && byte < 0x80) || byte == 0x09 || byte == 0x0A {
                index += 1
            } else if byte >= 0xC2 && byte <= 0xDF && index + 1 < bytes.count && bytes[index + 1] & 0xC0 == 0x80 {
                index += 2
            } else {
                break
            }
        }
        return index
    }

    /// The line and column of `bytes[index]`, counted from `start` over bytes already checked:
    /// LF, CR and CRLF end a line; columns count scalars from 1.
    private static func location(of index: Int, in bytes: [UInt8], from start: Int, file: String) -> SourceLocation {
        var line = 1
        var column = 1
        var position = start
        while position < index {
            SourceLocation.advance(&line, &column, past: position, in: bytes)
            position += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// Decodes one well-formed UTF-8 sequence (RFC 3629: no overlongs, surrogates or values
    /// above U+10FFFF) starting with a byte ≥ 0x80.
    static func decodeUTF8(_ bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        return (value, length)
    }

    /// XML 1.0 §2.2 Char: tab, LF, CR and everything from U+0020 except surrogates, U+FFFE, U+FFFF.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    static func hexCode(_ value: UInt32) -> String { "U+" + hexCodePoint(value) }

    // MARK: - Scanner state

    private let bytes: [UInt8]
    private let file: String
    private var position = 0
    private var line = 1
    private var column = 1

    /// Elements whose end tag is still to come, innermost last, their children so far.
    private var openElements: [XMLElement] = []
    private var root: XMLElement?

    private var text: [UInt8] = []
    /// Where `text` ended after a `&#xD;`: an `&#xA;` right after it ends the same line.
    private var afterCarriageReturn = -1
    private var textLocation: SourceLocation?
    private var textContentLocation: SourceLocation?

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    private var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }
    private var atEnd: Bool { position >= bytes.count }

    // The scanner's small steps are inlined: called, each one copied the reader's state first.
    @inline(__always)
    private func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// Moves over one byte; the column counts scalars, so continuation bytes don't advance it.
    @inline(__always)
    private mutating func advance() {
        let byte = bytes[position]
        position += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private mutating func advance(by count: Int) {
        for _ in 0..<count { advance() }
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in
            for index in 0..<count where bytes[position + index] != buffer[index] { return false }
            return true
        }
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A
    }

    @discardableResult
    private mutating func skipWhiteSpace() -> Bool {
        let start = position
        while let byte = peek(), XMLReader.isWhiteSpace(byte) { advance() }
        return position > start
    }

    /// The scalar at the current position (the input is already validated).
    @inline(__always)
    private func currentScalar() -> UInt32? {
        guard let lead = peek() else { return nil }
        if lead < 0x80 { return UInt32(lead) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        return value
    }

    private func describeCurrent() -> String {
        guard let scalar = currentScalar() else { return "the end of the input" }
        switch scalar {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "the end of the line"
        default: break
        }
        if let unicode = Unicode.Scalar(scalar), scalar > 0x20 {
            return "'\(Character(unicode))'"
        }
        return XMLReader.hexCode(scalar)
    }

    private func error(_ message: String, at location: SourceLocation? = nil, hint: String? = nil)
        -> Diagnostic
    {
        .error(location ?? self.location, message, hint: hint)
    }

    // MARK: - Names (XML 1.0 §2.3)

    private static func isNameStart(_ value: UInt32) -> Bool {
        switch value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF,
            0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF,
            0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    private static func isNameCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
        default: return isNameStart(value)
        }
    }

    /// `isNameCharacter` for a value below 0x80.
    private static func isASCIINameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2D, 0x2E, 0x30...0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A: return true
        default: return false
        }
    }

    /// Reads a Name, or returns nil without moving when none starts here.
    private mutating func readName() -> String? {
        guard let first = currentScalar(), XMLReader.isNameStart(first) else { return nil }
        let start = position
        // A name is on one line: its ASCII characters move the column one each, counted at once.
        var end = position
        while end < bytes.count, XMLReader.isASCIINameCharacter(bytes[end]) { end += 1 }
        column += end - position
        position = end
        while let byte = peek() {
            // ASCII name characters without the ranges of isNameCharacter: names are mostly ASCII.
            if byte < 0x80 {
                guard XMLReader.isASCIINameCharacter(byte) else { break }
                advance()
                continue
            }
            guard let scalar = currentScalar(), XMLReader.isNameCharacter(scalar) else { break }
            advance()
            while let byte = peek(), byte & 0xC0 == 0x80 { advance() }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    // MARK: - Document

    private mutating func readDocument() throws(Diagnostic) -> XMLElement {
        if hasPrefix("<?xml"), let next = peek(5), XMLReader.isWhiteSpace(next) || next == 0x3F {
            try readXMLDeclaration()
        }
        while !atEnd {
            switch peek() {
            case 0x3C:  // <
                try readMarkup()
            case 0x26:  // &
                guard !openElements.isEmpty else { throw textOutsideRootError() }
                let start = location
                let scalar = try readReference()
                // `&#32;` is white space, as a written space is (allowed between blocks). A new
                // line written as a reference, `&#xA;`, is one: it is given as a CR, which
                // white-space collapsing keeps, as it keeps `&#xD;` (a new line typed in the
                // file, which XML makes an LF, is a space); after `&#xD;` it stays an LF, the
                // two one line end.
                let bytes = scalar == 0x0A && afterCarriageReturn != text.count ? [0x0D] : scalarBytes(scalar)
                appendText(bytes, at: start, isContent: ![0x20, 0x09, 0x0A, 0x0D].contains(scalar))
                afterCarriageReturn = scalar == 0x0D ? text.count : -1
            default:
                try readCharacterData()
            }
        }
        if let unclosed = openElements.last {
            throw error(
                "element '\(unclosed.name)' is not closed before the end of the input",
                at: unclosed.location, hint: "add '</\(unclosed.name)>'")
        }
        guard let root else { throw error("the input has no root element", hint: "start with <document>") }
        return root
    }

    private func textOutsideRootError() -> Diagnostic {
        error(
            root == nil ? "text before the root element" : "text after the root element",
            hint: "put all content inside <document>")
    }

    private mutating func readMarkup() throws(Diagnostic) {
        // Most markup is a start or an end tag, told apart by the byte after '<'.
        switch peek(1) {
        case 0x2F: return try readEndTag()  // </
        case 0x3F: return try readProcessingInstruction()  // <?
        case 0x21: break  // <!
        default: return try readStartTag()
        }
        let start = location
        if hasPrefix("<!--") {
            try readComment()
        } else if hasPrefix("<![CDATA[") {
            guard !openElements.isEmpty else { throw textOutsideRootError() }
            try readCDATA()
        } else if hasPrefix("<!DOCTYPE") {
            throw error(
                "a DOCTYPE is not allowed: DTDs and entity declarations are refused", at: start,
                hint: "remove the <!DOCTYPE ...> declaration")
        } else if hasPrefix("<!ENTITY") {
            throw error("entity declarations are not allowed", at: start)
        } else {
            throw error("unexpected '<!': only comments and CDATA sections may start with '<!'", at: start)
        }
    }

    // MARK: - Tags

    private mutating func readStartTag() throws(Diagnostic) {
        let start = location
        advance()  // <
        guard let name = readName() else {
            throw error(
                "expected an element name after '<', found \(describeCurrent())",
                hint: "write '&lt;' for a literal '<'")
        }
        if root != nil {
            throw error(
                "a second root element '\(name)' after '\(root?.name ?? "")' was closed", at: start,
                hint: "put all content inside one <document>")
        }
        if openElements.count >= XMLReader.maximumDepth {
            throw error(
                "elements are nested deeper than \(XMLReader.maximumDepth) levels", at: start)
        }
        var attributes: [XMLAttribute] = []
        // Duplicates are looked for in the list while it is short (a set for every tag cost more
        // than reading it), in a set from the eighth on (hostile input may have thousands).
        var seen: Set<String>?
        while true {
            let hadSpace = skipWhiteSpace()
            guard let byte = peek() else {
                throw error("the start tag of '\(name)' is not closed", at: start, hint: "add '>'")
            }
            if byte == 0x3E {  // >
                advance()
                flushText()
                openElements.append(XMLElement(name: name, attributes: attributes, children: [], location: start))
                return
            }
            if byte == 0x2F {  // /
                guard peek(1) == 0x3E else {
                    advance()
                    throw error("expected '>' after '/'")
                }
                advance(by: 2)
                flushText()
                close(XMLElement(name: name, attributes: attributes, children: [], location: start))
                return
            }
            let attributeStart = location
            guard let attributeName = readName() else {
                throw error("unexpected \(describeCurrent()) in the start tag of '\(name)'")
            }
            guard hadSpace else {
                throw error(
                    "attributes must be separated by white space", at: attributeStart)
            }
            skipWhiteSpace()
            guard peek() == 0x3D else {  // =
                throw error(
                    "expected '=' after the attribute name '\(attributeName)', found \(describeCurrent())")
            }
            advance()
            skipWhiteSpace()
            guard let quote = peek(), quote == 0x22 || quote == 0x27 else {
                throw error(
                    "the value of attribute '\(attributeName)' must be in quotes, found \(describeCurrent())")
            }
            advance()
            let value = try readAttributeValue(quote: quote, name: attributeName, start: attributeStart)
            let duplicate: Bool
            if attributes.count < 8 {
                duplicate = attributes.contains { $0.name == attributeName }
            } else {
                if seen == nil { seen = Set(attributes.map(\.name)) }
                duplicate = seen?.insert(attributeName).inserted == false
            }
            guard !duplicate else {
                throw error(
                    "duplicate attribute '\(attributeName)' on '\(name)'", at: attributeStart)
            }
            attributes.append(XMLAttribute(name: attributeName, value: value, location: attributeStart))
        }
    }

    /// XML 1.0 §3.3.3: references are replaced and each white-space character becomes a space.
    private mutating func readAttributeValue(quote: UInt8, name: String, start: SourceLocation)
        throws(Diagnostic) -> String
    {
        var value: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw error("the value of attribute '\(name)' is not closed", at: start)
            }
            switch byte {
            case quote:
                advance()
                return String(decoding: value, as: UTF8.self)
            case 0x3C:
                // Past a '>': the quote was not closed where the tag ended (`color="#f00>a</p>`
                // was told about the '<' of '</p>').
                if value.contains(0x3E) {
                    throw error(
                        "the value of attribute '\(name)' is not closed", at: start,
                        hint: "add its closing \(quote == 0x22 ? "'\"'" : "\"'\"") before the '>' that ends the tag")
                }
                throw error(
                    "'<' is not allowed in an attribute value", hint: "write '&lt;'")
            case 0x26:
                value.append(contentsOf: scalarBytes(try readReference()))
            case 0x09, 0x0A:
                value.append(0x20)
                advance()
            default:
                value.append(byte)
                advance()
            }
        }
    }

    private mutating func readEndTag() throws(Diagnostic) {
        let start = location
        advance(by: 2)  // </
        guard let name = readName() else {
            throw error("expected an element name after '</', found \(describeCurrent())")
        }
        skipWhiteSpace()
        guard peek() == 0x3E else {
            throw error("expected '>' to end the end tag '</\(name)', found \(describeCurrent())")
        }
        advance()
        // The open element is looked at in place and then moved out, never copied.
        guard !openElements.isEmpty else {
            throw error("unexpected end tag '</\(name)>': no element is open", at: start)
        }
        guard openElements[openElements.count - 1].name == name else {
            let open = openElements[openElements.count - 1]
            throw error(
                "end tag '</\(name)>' does not match '<\(open.name)>' opened at line "
                    + "\(open.location.line), column \(open.location.column)",
                at: start, hint: Self.endTagHint(name, open: open.name, isOpen: openElements.contains { $0.name == name }))
        }
        flushText()
        close(openElements.removeLast())
    }

    /// What to do about the end tag `name` where `open` is the innermost open element: close
    /// that first, unless it is an element without content left open (`<br>`), the two names
    /// differ in case or spelling, or nothing of that name is open (a stray end tag). Telling
    /// each to close the open element first sent `<lable>a</label>` to '</lable>' and `<br>` to
    /// '</br>'.
    static func endTagHint(_ name: String, open: String, isOpen: Bool) -> String {
        if MarkupNames.empty.contains(MarkupNames.htmlAliases[open] ?? open) {
            return "'\(open)' takes no content: write it '<\(open)/>'"
        }
        if isOpen { return "close '\(open)' first with '</\(open)>'" }
        if open.lowercased() == name.lowercased() { return "names are case-sensitive: write '</\(open)>'" }
        // (Names of no element the markup has are not measured: the distance takes the product
        // of their lengths, and two of 40,000 letters took 8 s.)
        let allowed = max(1, open.count / 3)
        if open.count <= 64, abs(open.count - name.count) <= allowed, editDistance(open, name) <= allowed {
            return "the names differ: spell the start tag and the end tag alike"
        }
        return "no '<\(name)>' is open: remove this end tag, or close '\(open)' first with '</\(open)>'"
    }

    private mutating func close(_ element: XMLElement) {
        if openElements.isEmpty {
            root = element
        } else {
            openElements[openElements.count - 1].children.append(.element(element))
        }
    }

    // MARK: - Text

    private mutating func appendText(_ scalarBytes: [UInt8], at start: SourceLocation, isContent: Bool) {
        if textLocation == nil { textLocation = start }
        if isContent, textContentLocation == nil { textContentLocation = start }
        text.append(contentsOf: scalarBytes)
    }

    private mutating func flushText() {
        guard let start = textLocation else { return }
        if !openElements.isEmpty {
            let node = XMLText(
                value: String(decoding: text, as: UTF8.self), location: start,
                contentLocation: textContentLocation)
            openElements[openElements.count - 1].children.append(.text(node))
        }
        text.removeAll(keepingCapacity: true)
        afterCarriageReturn = -1
        textLocation = nil
        textContentLocation = nil
    }

    /// Reads text up to the next `<` or `&`.
    private mutating func readCharacterData() throws(Diagnostic) {
        if textLocation == nil { textLocation = location }
        let start = position
        if openElements.isEmpty {  // before or after the root element: white space only
            while let byte = peek(), byte != 0x3C, byte != 0x26 {
                if !XMLReader.isWhiteSpace(byte) { throw textOutsideRootError() }
                advance()
            }
            text.removeAll(keepingCapacity: true)
            afterCarriageReturn = -1
            textLocation = nil
            return
        }
        if textContentLocation == nil {
            skipWhiteSpace()
            if let byte = peek(), byte != 0x3C, byte != 0x26 { textContentLocation = location }
        }
        var (end, line, column) = (position, self.line, self.column)
        var misplaced = false  // `]]>` at `end`
        // Eight bytes at a time while none is `<`, `&`, `]` or LF, the column moving by their
        // scalars; the others a byte at a time. (A byte at a time through `peek` and `advance`,
        // text was the reader's largest cost.)
        bytes.withUnsafeBytes { bytes in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let high: UInt64 = 0x8080_8080_8080_8080
            // Whether a byte of `word` is `byte` (exact: a zero byte of the XOR, Hacker's Delight 6-1).
            func has(_ word: UInt64, _ byte: UInt8) -> UInt64 {
                let x = word ^ (ones &* UInt64(byte))
                return (x &- ones) & ~x & high
            }
            scan: while end < bytes.count {
                if end + 8 <= bytes.count {
                    let word = bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                    if has(word, 0x3C) | has(word, 0x26) | has(word, 0x5D) | has(word, 0x0A) == 0 {
                        let continuations = word & ~(word << 1) & high  // 10xxxxxx
                        column += 8 - continuations.nonzeroBitCount
                        end += 8
                        continue
                    }
                }
                let byte = bytes[end]
                switch byte {
                case 0x3C, 0x26:  // < &
                    break scan
                case 0x0A:
                    line += 1
                    column = 1
                case 0x5D where end + 2 < bytes.count && bytes[end + 1] == 0x5D && bytes[end + 2] == 0x3E:
                    misplaced = true
                    break scan
                default:
                    if byte & 0xC0 != 0x80 { column += 1 }
                }
                end += 1
            }
        }
        (position, self.line, self.column) = (end, line, column)
        if misplaced { throw error("']]>' is not allowed in text", hint: "write ']]&gt;'") }
        text.append(contentsOf: bytes[start..<position])
    }

    private mutating func readCDATA() throws(Diagnostic) {
        let start = location
        advance(by: 9)  // <![CDATA[
        if textLocation == nil { textLocation = start }
        while !hasPrefix("]]>") {
            guard let byte = peek() else {
                throw error("the CDATA section is not closed", at: start, hint: "add ']]>'")
            }
            // Text whose first character is in the section is located at the section's start:
            // read from there, its `<![CDATA[` tells a text's `<` and `<?` from markup.
            if !XMLReader.isWhiteSpace(byte), textContentLocation == nil { textContentLocation = start }
            text.append(byte)
            advance()
        }
        advance(by: 3)
    }

    /// Reads `&name;`, `&#N;` or `&#xH;` and returns the scalar it stands for.
    private mutating func readReference() throws(Diagnostic) -> UInt32 {
        let start = location
        advance()  // &
        if peek() == 0x23 {  // #
            advance()
            let isHex = peek() == 0x78  // x
            if isHex { advance() }
            var value: UInt32 = 0
            var digitCount = 0
            while let byte = peek() {
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x61...0x66 where isHex: digit = UInt32(byte - 0x61 + 10)
                case 0x41...0x46 where isHex: digit = UInt32(byte - 0x41 + 10)
                default: digit = UInt32.max
                }
                if digit == UInt32.max { break }
                // Saturate instead of overflowing: anything above U+10FFFF is refused below.
                value = min(value * (isHex ? 16 : 10) + digit, 0x11_0000)
                digitCount += 1
                advance()
            }
            guard digitCount > 0, peek() == 0x3B else {
                throw error(
                    "malformed character reference: expected \(isHex ? "hexadecimal " : "")digits and ';'",
                    at: start, hint: "write '&#1234;' or '&#x4D2;'")
            }
            advance()
            guard XMLReader.isXMLCharacter(value) else {
                let what: String
                switch value {
                case 0: what = "NUL"
                case 0xD800...0xDFFF: what = "a surrogate"
                case 0x11_0000...: what = "a value beyond U+10FFFF"
                default: what = XMLReader.hexCode(value) + ", which XML does not allow"
                }
                throw error(
                    "the character reference refers to \(what); only XML characters are allowed", at: start)
            }
            return value
        }
        let read = readName()
        guard let name = read, peek() == 0x3B else {
            // `Fish &amp chips`: an entity that lacks its ';' (it was told to write '&amp;' for a
            // literal '&').
            if let name = read, XMLReader.predefinedEntities[name] != nil {
                throw error("the entity '&\(name)' lacks its ';'", at: start, hint: "write '&\(name);'")
            }
            if let name = read, let value = XMLReader.htmlEntities[name] {
                throw error(
                    "'&\(name)' is an HTML entity, which XML does not have", at: start,
                    hint: "write '\(XMLReader.reference(to: value))'")
            }
            throw error(
                "'&' must start an entity or character reference", at: start,
                hint: "write '&amp;' for a literal '&'")
        }
        advance()
        guard let value = XMLReader.predefinedEntities[name] else {
            let known = XMLReader.htmlEntities[name].map { "write '\(XMLReader.reference(to: $0))' for it" }
            throw error(
                "unknown entity '&\(name);': XML has only &lt; &gt; &amp; &apos; and &quot;, and "
                    + "numeric character references", at: start, hint: known)
        }
        return value
    }

    /// The character reference XML has for `value`: `&#x200F;`.
    static func reference(to value: UInt32) -> String { "&#x\(String(value, radix: 16, uppercase: true));" }

    /// HTML's entities a mockup is likely to use, which XML does not have: the reference to
    /// write instead is suggested (the bidi marks among them).
    static let htmlEntities: [String: UInt32] = [
        "nbsp": 0xA0, "shy": 0xAD, "lrm": 0x200E, "rlm": 0x200F, "zwj": 0x200D, "zwnj": 0x200C, "copy": 0xA9,
        "reg": 0xAE, "trade": 0x2122, "deg": 0xB0, "times": 0xD7, "hellip": 0x2026, "ndash": 0x2013,
        "mdash": 0x2014, "laquo": 0xAB, "raquo": 0xBB, "lsquo": 0x2018, "rsquo": 0x2019, "ldquo": 0x201C,
        "rdquo": 0x201D, "bull": 0x2022, "middot": 0xB7, "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5,
    ]

    /// The five entities XML predefines (§4.6), by name.
    static let predefinedEntities: [String: UInt32] = ["lt": 0x3C, "gt": 0x3E, "amp": 0x26, "apos": 0x27, "quot": 0x22]

    private func scalarBytes(_ value: UInt32) -> [UInt8] {
        guard let scalar = Unicode.Scalar(value) else { return [] }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: - Comments and processing instructions

    private mutating func readComment() throws(Diagnostic) {
        let start = location
        advance(by: 4)  // <!--
        while true {
            guard !atEnd else { throw error("the comment is not closed", at: start, hint: "add '-->'") }
            if hasPrefix("--") {
                guard peek(2) == 0x3E else { throw error("'--' is not allowed inside a comment") }
                advance(by: 3)
                return
            }
            advance()
        }
    }

    private mutating func readProcessingInstruction() throws(Diagnostic) {
        let start = location
        advance(by: 2)  // <?
        guard let target = readName() else {
            throw error("expected a processing-instruction target after '<?'")
        }
        if target == "xml" {
            // At the very start, it is a declaration that `readDocument` did not take for one:
            // what follows `<?xml` is no white space (a pasted no-break space, `<?xml>`).
            guard start.line == 1 && start.column == 1 else {
                throw error("the XML declaration is only allowed at the very start of the input", at: start)
            }
            let next = currentScalar().map { "'\(visible(Unicode.Scalar($0) ?? " "))' (U+\(hexCodePoint($0)))" }
            throw error(
                "expected white space after '<?xml' in the XML declaration" + (next.map { ", not \($0)" } ?? ""),
                hint: "write <?xml version=\"1.0\"?>")
        }
        if target.lowercased() == "xml" {
            // XML reserves the name in every case; the declaration is written in lowercase.
            throw error("'<?\(target)' is not an XML declaration", at: start, hint: "write '<?xml'")
        }
        // The target ends at white space or at `?>` (XML 1.0 [16]): `<?pi=x?>` is not one.
        guard !atEnd else { throw error("the processing instruction is not closed", at: start, hint: "add '?>'") }
        guard let next = peek(), XMLReader.isWhiteSpace(next) || hasPrefix("?>") else {
            throw error(
                "expected white space or '?>' after the processing-instruction target '\(target)'",
                hint: "write <?\(target) data?>")
        }
        try skipToEndOfProcessingInstruction(start: start)
    }

    private mutating func skipToEndOfProcessingInstruction(start: SourceLocation) throws(Diagnostic) {
        while !hasPrefix("?>") {
            guard !atEnd else {
                throw error("the processing instruction is not closed", at: start, hint: "add '?>'")
            }
            advance()
        }
        advance(by: 2)
    }

    /// The IANA names of US-ASCII, in lower case.
    private static let asciiNames: Set<String> = [
        "us-ascii", "ascii", "us", "iso646-us", "iso-ir-6", "ansi_x3.4-1968", "ansi_x3.4-1986", "iso_646.irv:1991",
        "ibm367", "cp367", "csascii",
    ]

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` (XML 1.0 §2.8): a version
    /// `1.` and digits, then optionally an encoding and `standalone`, in that order, each once.
    /// A declared encoding other than UTF-8 or US-ASCII is refused rather than misread.
    private mutating func readXMLDeclaration() throws(Diagnostic) {
        let start = location
        advance(by: 5)  // <?xml
        let order = ["version", "encoding", "standalone"]
        var last = -1  // the rank in `order` of the last one read
        let expected = "the XML declaration takes version, then optionally encoding and standalone"
        while true {
            let spaced = skipWhiteSpace()
            if hasPrefix("?>") {
                advance(by: 2)
                break
            }
            // A tag where a name or `?>` should come: the declaration ended without its `?>`.
            guard !atEnd, peek() != 0x3C else {
                throw error("the XML declaration is not closed", at: start, hint: "add '?>' after its last value")
            }
            // `?` ends the declaration only right before `>`: `<?xml version="1.0"?   >`.
            if peek() == 0x3F { throw error("expected '>' right after '?' to end the XML declaration") }
            if peek() == 0x3E { throw error("the XML declaration ends with '?>', not '>'", hint: "write '?>'") }
            let nameStart = location
            guard spaced, let name = readName() else {
                throw error("expected a space and a name in the XML declaration", hint: expected)
            }
            guard let rank = order.firstIndex(of: name) else {
                throw error("'\(name)' is not allowed in the XML declaration", at: nameStart, hint: expected)
            }
            guard rank > last, rank == 0 || last >= 0 else {
                throw error("'\(name)' is out of place in the XML declaration", at: nameStart, hint: expected + ", in that order")
            }
            last = rank
            _ = skipWhiteSpace()
            guard peek() == 0x3D else { throw error("expected '=' after '\(name)'") }
            advance()
            _ = skipWhiteSpace()
            guard let quote = peek(), quote == 0x22 || quote == 0x27 else {
                throw error("expected the value of '\(name)' in quotes")
            }
            advance()
            let valueStart = location
            let first = position
            while let byte = peek(), byte != quote, byte != 0x3C { advance() }
            guard peek() == quote else { throw error("the value of '\(name)' is not closed", at: valueStart) }
            let value = String(decoding: bytes[first..<position], as: UTF8.self)
            advance()
            switch name {
            case "version":
                guard value.hasPrefix("1."), value.count > 2, value.utf8.dropFirst(2).allSatisfy({ (0x30...0x39).contains($0) })
                else {
                    throw error("the XML version '\(value)' is not 1.0 (or 1. and digits)", at: valueStart, hint: "write version=\"1.0\"")
                }
            case "encoding":
                let lowered = value.lowercased()
                if Self.asciiNames.contains(lowered) {
                    // A subset of UTF-8 (Python's ElementTree declares it by default, with
                    // character references for the rest), read as such if it holds to it.
                    if let index = bytes[position...].firstIndex(where: { $0 >= 0x80 }) {
                        throw error(
                            "the input declares the encoding '\(value)', and this character is not ASCII",
                            at: XMLReader.location(of: index, in: bytes, from: 0, file: file),
                            hint: "if the file is UTF-8, declare encoding=\"UTF-8\"")
                    }
                } else if lowered != "utf-8" && lowered != "utf8" {
                    throw error(
                        "the input declares the encoding '\(value)'; only UTF-8 is supported", at: valueStart,
                        hint: "save the file as UTF-8 and declare encoding=\"UTF-8\"")
                }
            default:
                guard value == "yes" || value == "no" else {
                    throw error("standalone is 'yes' or 'no', not '\(value)'", at: valueStart)
                }
            }
        }
        guard last >= 0 else {
            throw error("the XML declaration has no version", at: start, hint: "write <?xml version=\"1.0\"?>")
        }
    }
}
