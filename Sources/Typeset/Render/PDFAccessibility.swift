// What Cairo 1.16's tagged PDF lacks and accessible PDF wants: the document language (/Lang in
// the catalog), alternate text of figures (/Alt on Figure structure elements) and showing the
// title rather than the file name (/ViewerPreferences /DisplayDocTitle). Cairo has no API for
// any of them, so they are added as a PDF incremental update (ISO 32000-1 §7.5.6): new versions
// of the changed objects, a cross-reference section for them and a trailer pointing back to
// Cairo's, appended after Cairo's bytes, which stay as they are.
import Foundation

enum PDFAccessibility {
    /// The bytes to append to `pdf` (as Cairo 1.16 writes it: classic cross-reference table,
    /// plain objects) for the additions, an incremental update; nil when there is nothing to add
    /// or the PDF is not shaped as expected (another Cairo version): the additions are worth
    /// having, never worth failing a render over. `figureAlternateTexts` has one entry per Figure
    /// element in drawing order. Reads only the parts of `pdf` it needs: the trailer, the
    /// cross-reference entries and the objects it looks at.
    static func update(
        for pdf: some PDFBytes, language: String?, title: String?, figureAlternateTexts: [String?]
    ) -> [UInt8]? {
        let wantsAlternateTexts = figureAlternateTexts.contains { $0 != nil }
        guard language != nil || title != nil || wantsAlternateTexts,
            let document = CairoPDF(pdf),
            var catalog = document.dictionary(of: document.root)
        else { return nil }

        var changed: [(number: Int, dictionary: String)] = []
        // Never a second /Lang or /ViewerPreferences, should a later Cairo write them itself.
        if let language, !catalog.contains("/Lang") {
            catalog = insert("/Lang " + pdfTextString(language), into: catalog)
        }
        if title != nil, !catalog.contains("/ViewerPreferences") {
            catalog = insert("/ViewerPreferences << /DisplayDocTitle true >>", into: catalog)
        }
        if catalog != document.dictionary(of: document.root) {
            changed.append((document.root, catalog))
        }
        if wantsAlternateTexts {
            let figures = document.figureElements()
            // Only when Cairo's tree has exactly the figures drawn can they be matched up.
            if figures.count == figureAlternateTexts.count {
                for (figure, text) in zip(figures, figureAlternateTexts) {
                    guard let text, let dictionary = document.dictionary(of: figure) else { continue }
                    changed.append((figure, insert("/Alt " + pdfTextString(text), into: dictionary)))
                }
            }
        }
        return changed.isEmpty ? nil : document.update(changed)
    }

    /// `entry` added at the end of a dictionary's text `<< ... >>`.
    private static func insert(_ entry: String, into dictionary: String) -> String {
        guard dictionary.hasSuffix(">>") else { return dictionary }
        return String(dictionary.dropLast(2)) + "   " + entry + "\n>>"
    }

    /// A PDF text string: a literal string for printable ASCII, else UTF-16BE with a byte-order
    /// mark, in hex (ISO 32000-1 §7.9.2.2).
    static func pdfTextString(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            var literal = "("
            for character in text {
                if character == "(" || character == ")" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            return literal + ")"
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var hex: [UInt8] = Array("<FEFF".utf8)
        for unit in text.utf16 {
            for shift in [12, 8, 4, 0] { hex.append(digits[Int(unit >> UInt16(shift)) & 0xF]) }
        }
        hex.append(UInt8(ascii: ">"))
        return String(decoding: hex, as: UTF8.self)
    }
}

/// Random access to the bytes of a PDF, in memory or in a file.
protocol PDFBytes {
    var count: Int { get }
    /// The bytes in `range`, clamped to the PDF.
    func read(_ range: Range<Int>) -> [UInt8]
}

/// Just enough reading of a Cairo 1.16 PDF to update some of its objects.
private struct CairoPDF<Source: PDFBytes> {
    let source: Source
    /// Where each object is, from the cross-reference table.
    let crossReferences: CrossReferences
    let root: Int
    let info: Int?
    let size: Int
    let previousCrossReference: Int

    /// Bytes at the end of the file searched for the trailer (Cairo's is a few lines).
    private static var tailLength: Int { 4096 }

    enum CrossReferences {
        /// One subsection from object 0, as Cairo writes it: fixed 20-byte entries from
        /// `start`, read when needed (a 10,000-page PDF has hundreds of thousands).
        case entries(start: Int, count: Int)
        /// Any other table, read whole: byte offset of each object in use.
        case offsets([Int: Int])
    }

    init?(_ source: Source) {
        self.source = source
        let tailStart = max(0, source.count - Self.tailLength)
        let tail = source.read(tailStart..<source.count)
        guard let startxref = tail.lastRange(of: "startxref"),
            let crossReference = Self.integer(in: tail, after: startxref.upperBound),
            crossReference >= 0, crossReference < source.count,
            source.read(crossReference..<crossReference + 4) == Array("xref".utf8),
            let trailer = tail.lastRange(of: "trailer"), tailStart + trailer.lowerBound > crossReference
        else { return nil }
        let trailerText = String(decoding: tail[trailer.upperBound..<startxref.lowerBound], as: UTF8.self)
        guard let root = Self.reference(named: "/Root", in: trailerText),
            let size = Self.number(named: "/Size", in: trailerText)
        else { return nil }
        let trailerOffset = tailStart + trailer.lowerBound
        // "xref", then subsections: "first count" and 20-byte entries.
        let head = source.read(crossReference..<min(trailerOffset, crossReference + 64))
        let headLines = head.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        if headLines.count == 3,
            String(decoding: headLines[0], as: UTF8.self).trimmingCharacters(in: .whitespaces) == "xref",
            case let fields = String(decoding: headLines[1], as: UTF8.self).split(separator: " "),
            fields.count == 2, fields[0] == "0", let count = Int(fields[1]),
            case let start = crossReference + headLines[0].count + headLines[1].count + 2,
            start + 20 * count == trailerOffset
        {
            crossReferences = .entries(start: start, count: count)
        } else {
            var offsets: [Int: Int] = [:]
            let lines = String(decoding: source.read(crossReference..<trailerOffset), as: UTF8.self)
                .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.split(separator: " ") }
            var next = 0
            for fields in lines.dropFirst() {
                if fields.count == 2, let first = Int(fields[0]), Int(fields[1]) != nil {
                    next = first
                } else if fields.count == 3, let offset = Int(fields[0]) {
                    if fields[2] == "n" { offsets[next] = offset }
                    next += 1
                } else {
                    return nil
                }
            }
            crossReferences = .offsets(offsets)
        }
        self.root = root
        self.info = Self.reference(named: "/Info", in: trailerText)
        self.size = size
        self.previousCrossReference = crossReference
    }

    /// The byte offset of object `number`, if it is in use.
    func offset(of number: Int) -> Int? {
        switch crossReferences {
        case .offsets(let offsets):
            return offsets[number]
        case .entries(let start, let count):
            guard number >= 0, number < count else { return nil }
            // "nnnnnnnnnn ggggg n" and a two-byte end of line.
            let entry = source.read(start + 20 * number..<start + 20 * number + 20)
            guard entry.count == 20, entry[10] == UInt8(ascii: " "), entry[16] == UInt8(ascii: " "),
                entry[17] == UInt8(ascii: "n")
            else { return nil }
            return Int(String(decoding: entry[0..<10], as: UTF8.self))
        }
    }

    /// The text of object `number`'s dictionary, `<< ... >>`; nil for a stream or a non-dictionary.
    func dictionary(of number: Int) -> String? {
        guard let offset = offset(of: number), offset < source.count else { return nil }
        // Read until "endobj"; a stream object is not a dictionary: stop at its "stream".
        var length = 4096
        var bytes: [UInt8]
        var end: Range<Int>?
        while true {
            bytes = source.read(offset..<offset + length)
            end = bytes[...].firstRange(of: "endobj")
            if end != nil || offset + length >= source.count || bytes[...].firstRange(of: "stream") != nil { break }
            length *= 4
        }
        guard let end else { return nil }
        let text = String(decoding: bytes[0..<end.lowerBound], as: UTF8.self)
        guard text.hasPrefix("\(number) 0 obj"), !text.contains("stream"),
            let open = text.range(of: "<<"), let close = text.range(of: ">>", options: .backwards)
        else { return nil }
        return String(text[open.lowerBound..<close.upperBound])
    }

    /// The Figure structure elements, in the order of the structure tree (the order their tags
    /// were begun, which is drawing order).
    func figureElements() -> [Int] {
        guard let catalog = dictionary(of: root),
            let treeRoot = Self.reference(named: "/StructTreeRoot", in: catalog),
            let treeDictionary = dictionary(of: treeRoot)
        else { return [] }
        var figures: [Int] = []
        var visited: Set<Int> = [treeRoot]
        func visit(children dictionary: String) {
            guard let kids = Self.value(named: "/K", in: dictionary) else { return }
            // Children are the references in /K that are structure elements (/Pg page
            // references inside marked-content references are not).
            for child in Self.references(in: String(kids)) where !visited.contains(child) {
                guard let element = self.dictionary(of: child), element.contains("/Type /StructElem") else { continue }
                visited.insert(child)
                if Self.name(named: "/S", in: element) == "Figure" { figures.append(child) }
                visit(children: element)
            }
        }
        visit(children: treeDictionary)
        return figures
    }

    /// An incremental update holding new versions of `objects`, to append to the PDF.
    func update(_ objects: [(number: Int, dictionary: String)]) -> [UInt8] {
        var output: [UInt8] = []
        if source.read(source.count - 1..<source.count) != [UInt8(ascii: "\n")] { output.append(UInt8(ascii: "\n")) }
        var newOffsets: [(number: Int, offset: Int)] = []
        for object in objects.sorted(by: { $0.number < $1.number }) {
            newOffsets.append((object.number, source.count + output.count))
            output.append(contentsOf: "\(object.number) 0 obj\n\(object.dictionary)\nendobj\n".utf8)
        }
        let crossReference = source.count + output.count
        var table = "xref\n"
        for entry in newOffsets {
            let offset = String(entry.offset)
            table +=
                "\(entry.number) 1\n" + String(repeating: "0", count: max(0, 10 - offset.count)) + offset
                + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(size)\n   /Root \(root) 0 R\n"
        if let info { table += "   /Info \(info) 0 R\n" }
        table += "   /Prev \(previousCrossReference)\n>>\nstartxref\n\(crossReference)\n%%EOF\n"
        output.append(contentsOf: table.utf8)
        return output
    }

    // MARK: - Reading PDF tokens from Cairo's regular layout

    private static func integer(in bytes: [UInt8], after index: Int) -> Int? {
        var position = index
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D {
            position += 1
        }
        var value = 0
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]), digits < 18 {
            value = value * 10 + Int(bytes[position] - 0x30)
            position += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The text of `key`'s value in a dictionary's text: an array or dictionary with its
    /// brackets, else the tokens up to the next key or the end of the dictionary.
    static func value(named key: String, in text: String) -> Substring? {
        var search = text[...]
        while let range = search.range(of: key) {
            search = search[range.upperBound...]
            // Whole keys only: "/K" must not match "/Kids".
            guard let following = search.first, following == " " || following == "\n" || following == "\r" else {
                continue
            }
            let value = search.drop { $0 == " " || $0 == "\n" || $0 == "\r" }
            if value.hasPrefix("[") || value.hasPrefix("<<") {
                var depth = 0
                var index = value.startIndex
                while index < value.endIndex {
                    let character = value[index]
                    if character == "[" || character == "<" { depth += 1 }
                    if character == "]" || character == ">" { depth -= 1 }
                    index = value.index(after: index)
                    if depth == 0 { return value[..<index] }
                }
                return nil
            }
            let end = value.firstIndex { $0 == "/" || $0 == ">" } ?? value.endIndex
            return value[..<end]
        }
        return nil
    }

    private static func tokens(_ value: Substring) -> [Substring] {
        value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" })
    }

    static func reference(named key: String, in text: String) -> Int? {
        guard let value = value(named: key, in: text) else { return nil }
        let tokens = tokens(value)
        guard tokens.count == 3, tokens[2] == "R" else { return nil }
        return Int(tokens[0])
    }

    static func number(named key: String, in text: String) -> Int? {
        guard let value = value(named: key, in: text), let first = tokens(value).first else { return nil }
        return Int(first)
    }

    static func name(named key: String, in text: String) -> String? {
        guard let range = text.range(of: key + " /") else { return nil }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
    }

    /// Every `N 0 R` in `text`, in order.
    static func references(in text: String) -> [Int] {
        let tokens = text.split(whereSeparator: { " \n\r[]<>".contains($0) })
        var found: [Int] = []
        var index = 0
        while index + 2 < tokens.count {
            if tokens[index + 2] == "R", let number = Int(tokens[index]), Int(tokens[index + 1]) != nil {
                found.append(number)
                index += 3
            } else {
                index += 1
            }
        }
        return found
    }
}

extension Array where Element == UInt8 {
    /// The last occurrence of an ASCII string.
    fileprivate func lastRange(of text: String) -> Range<Int>? {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return nil }
        var start = count - needle.count
        while start >= 0 {
            if self[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            start -= 1
        }
        return nil
    }
}

extension ArraySlice where Element == UInt8 {
    /// The first occurrence of an ASCII string, in the slice's indices.
    fileprivate func firstRange(of text: String) -> Range<Int>? {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return nil }
        var start = startIndex
        while start + needle.count <= endIndex {
            if self[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            start += 1
        }
        return nil
    }
}
