// A markup file's bytes, kept with the parsed document so that a warning found late in the
// pipeline can point at one character of a text node (SPEC §3: a character no font covers is
// reported with its location), not only at where the text node starts.

/// The bytes a document was parsed from, as read (a byte-order mark and CR line ends included).
public struct MarkupSource: Sendable, Hashable {
    let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Finds characters of the source's text nodes. Made once per document, when a warning
    /// needs it: it indexes the lines, so that each text is read from its own line, once.
    final class Locator {
        let bytes: [UInt8]
        /// The index of each line's first byte (line 1 after any byte-order mark).
        let lineStarts: [Int]
        /// Where the last text looked for starts: the next one on its line is read from there,
        /// not from the line's start (20,000 paragraphs on one long line took a read of the
        /// line each, 3 GB of bytes).
        private var checkpoint: (index: Int, line: Int, column: Int)?

        init(_ source: MarkupSource) {
            bytes = source.bytes
            var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
            for index in starts[0]..<bytes.count {
                let byte = bytes[index]
                if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                    starts.append(index + 1)
                }
            }
            lineStarts = starts
        }

        /// Where the characters at `offsets` (ascending indices into `characters`) are, given
        /// that `characters` are the text starting at `start` after parsing: references decoded
        /// and XML white space collapsed (so white space is not compared). The source is read
        /// once from `start`, through references, CDATA sections, comments and processing
        /// instructions. nil for every offset from the first where the source does not hold the
        /// text (text from a string catalog, a list marker).
        func locations(of offsets: [Int], in characters: ArraySlice<Unicode.Scalar>, from start: SourceLocation)
            -> [SourceLocation?]
        {
            var found: [SourceLocation?] = []
            let from = checkpoint.flatMap { $0.line == start.line && $0.column <= start.column ? $0 : nil }
            guard var cursor = Cursor(bytes, lineStarts: lineStarts, at: start, from: from) else {
                return offsets.map { _ in nil }
            }
            checkpoint = (cursor.index, cursor.line, cursor.column)
            var inCDATA = false
            var wanted = offsets.makeIterator()
            var target = wanted.next()
            for index in characters.indices {
                guard let goal = target else { break }
                let want = characters[index]
                if MarkupSource.isWhiteSpace(want.value) { continue }
                guard let at = cursor.next(want, inCDATA: &inCDATA) else { break }
                if index - characters.startIndex == goal {
                    found.append(SourceLocation(file: start.file, line: at.line, column: at.column))
                    target = wanted.next()
                }
            }
            return found + Array(repeating: nil, count: offsets.count - found.count)
        }
    }

    static func isWhiteSpace(_ value: UInt32) -> Bool {
        value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0D
    }

    /// A position in the bytes with its line and column, counted as XMLReader counts them:
    /// LF, CR and CRLF end a line; columns count scalars from 1; a byte-order mark is not counted.
    private struct Cursor {
        let bytes: [UInt8]
        var index: Int
        var line: Int
        var column = 1

        /// At `target`, read to from `from` (a position before it on its line) or else from
        /// the start of its line.
        init?(
            _ bytes: [UInt8], lineStarts: [Int], at target: SourceLocation,
            from: (index: Int, line: Int, column: Int)? = nil
        ) {
            guard target.line >= 1, target.line <= lineStarts.count else { return nil }
            self.bytes = bytes
            index = from?.index ?? lineStarts[target.line - 1]
            line = target.line
            column = from?.column ?? 1
            while column < target.column {
                guard index < bytes.count, line == target.line else { return nil }
                advance()
            }
            guard (line, column) == (target.line, target.column) else { return nil }
        }

        /// Moves past white space, comments, processing instructions and CDATA markers to the
        /// next character of the text and over it: its location if it is `want`, else nil.
        mutating func next(_ want: Unicode.Scalar, inCDATA: inout Bool) -> SourceLocation? {
            while let byte {
                if MarkupSource.isWhiteSpace(UInt32(byte)) {
                    advance()
                } else if !inCDATA && skip("]]>") {
                    // The end of a CDATA section the text started in (outside one, XML allows
                    // no `]]>`).
                    continue
                } else if inCDATA {
                    if skip("]]>") {
                        inCDATA = false
                    } else {
                        return readScalar().flatMap { $0.0 == want ? $0.1 : nil }
                    }
                } else if byte == UInt8(ascii: "<") {
                    if skip("<![CDATA[") {
                        inCDATA = true
                    } else if skip("<!--") {
                        guard skip(past: "-->") else { return nil }
                    } else if skip("<?") {
                        guard skip(past: "?>") else { return nil }
                    } else if want == "<" {
                        inCDATA = true  // only a CDATA section holds a bare '<': the text started in one
                    } else {
                        return nil  // a tag: the text ended before the character was found
                    }
                } else if byte == UInt8(ascii: "&") {
                    // A reference to white space (`&#x9;`) is skipped as white space is: it was
                    // compared with the next character, and every later warning of the text
                    // fell back to where the text starts.
                    guard let (scalar, at) = readReference() else { return nil }
                    if MarkupSource.isWhiteSpace(scalar.value) && !MarkupSource.isWhiteSpace(want.value) { continue }
                    return scalar == want ? at : nil
                } else {
                    return readScalar().flatMap { $0.0 == want ? $0.1 : nil }
                }
            }
            return nil
        }

        var byte: UInt8? { index < bytes.count ? bytes[index] : nil }
        var location: SourceLocation { SourceLocation(file: "", line: line, column: column) }

        /// Moves over one byte.
        mutating func advance() {
            SourceLocation.advance(&line, &column, past: index, in: bytes)
            index += 1
        }

        /// Moves past the next `end` (of a comment, a processing instruction); false when the
        /// bytes end first.
        mutating func skip(past end: StaticString) -> Bool {
            while !skip(end) {
                guard byte != nil else { return false }
                advance()
            }
            return true
        }

        /// Moves over `text` if it comes next.
        mutating func skip(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let matches = text.withUTF8Buffer { buffer in (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] } }
            if matches { for _ in 0..<count { advance() } }
            return matches
        }

        /// The UTF-8 scalar that starts here (decoded as the reader decodes it).
        mutating func readScalar() -> (Unicode.Scalar, SourceLocation)? {
            let at = location
            let first = bytes[index]
            guard let (value, length) = first < 0x80 ? (UInt32(first), 1) : XMLReader.decodeUTF8(bytes, at: index)
            else { return nil }
            for _ in 0..<length { advance() }
            return Unicode.Scalar(value).map { ($0, at) }
        }

        /// A character or entity reference (`&amp;`, `&#233;`, `&#xE9;`) that starts here.
        mutating func readReference() -> (Unicode.Scalar, SourceLocation)? {
            let at = location
            var name: [UInt8] = []
            advance()  // &
            // Up to a bound, as a reference may have any number of leading zeros (`&#x0000010FFFD;`).
            while let byte, byte != UInt8(ascii: ";"), name.count < 64 {
                name.append(byte)
                advance()
            }
            guard byte == UInt8(ascii: ";") else { return nil }
            advance()
            let text = String(decoding: name, as: UTF8.self)
            let value: UInt32?
            if text.hasPrefix("#x") {
                value = UInt32(text.dropFirst(2), radix: 16)
            } else if text.hasPrefix("#") {
                value = UInt32(text.dropFirst(), radix: 10)
            } else {
                value = XMLReader.predefinedEntities[text]
            }
            return value.flatMap(Unicode.Scalar.init).map { ($0, at) }
        }
    }
}
