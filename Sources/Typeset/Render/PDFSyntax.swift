// The bytes of PDF syntax (ISO 32000-1 §7.3): numbers, names, strings and compressed streams,
// appended to a byte buffer. Numbers are written with at most three decimals (1/1000 pt), by
// integer arithmetic: a page of text has thousands of them.
import CCairo

struct PDFBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A string's UTF-8 (string literals go to the `StaticString` overload, without copying).
    mutating func append(string text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// A decimal integer and a space.
    mutating func integer(_ value: Int) {
        digits(value)
        bytes.append(0x20)
    }

    /// `N 0 R ` — a reference to object N.
    mutating func reference(_ object: Int) {
        digits(object)
        append(" 0 R ")
    }

    /// A number with at most three decimals and a space: `12 `, `-0.5 `, `51.292 `.
    mutating func number(_ value: Double) {
        // Beyond ±1e12 pt nothing is on a page; clamping keeps the integer arithmetic exact.
        let clamped = value.isFinite ? min(max(value, -1e12), 1e12) : 0
        var thousandths = Int((clamped * 1000).rounded())
        if thousandths < 0 {
            bytes.append(UInt8(ascii: "-"))
            thousandths = -thousandths
        }
        digits(thousandths / 1000)
        var fraction = thousandths % 1000
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            var divisor = 100
            while fraction != 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
        bytes.append(0x20)
    }

    /// The decimal digits of a non-negative integer (a negative one gets its sign).
    mutating func digits(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            digits(0 - value)
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var scratch: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &scratch) { digits in
            while rest > 0 {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
    }

    /// Four hexadecimal digits: a glyph id in an Identity-H string.
    mutating func hex4(_ value: UInt32) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { table in
            bytes.append(table[Int(value >> 12) & 0xF])
            bytes.append(table[Int(value >> 8) & 0xF])
            bytes.append(table[Int(value >> 4) & 0xF])
            bytes.append(table[Int(value) & 0xF])
        }
    }

    /// A text string (§7.9.2.2), as `PDFSyntax.textString` writes it, and a space.
    mutating func text(_ value: String) {
        append(string: PDFSyntax.textString(value))
        bytes.append(0x20)
    }
}

enum PDFSyntax {
    /// A PDF text string: a literal string for printable ASCII, else UTF-16BE with a byte-order
    /// mark, in hex (ISO 32000-1 §7.9.2.2).
    static func textString(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            var literal = "("
            for character in text {
                if character == "(" || character == ")" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            return literal + ")"
        }
        var hex = PDFBuffer()
        hex.append("<FEFF" as StaticString)
        for unit in text.utf16 { hex.hex4(UInt32(unit)) }
        hex.append(">")
        return String(decoding: hex.bytes, as: UTF8.self)
    }
}

/// zlib compression for /FlateDecode streams, one z_stream reused for every stream of a
/// document (deflateInit's allocation and table clearing cost as much as compressing a page).
final class PDFDeflater {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 64 * 1024)
    private let ready: Bool

    /// `level` 1 (fastest) ... 9; `windowBits` 9 ... 15 and `memoryLevel` 1 ... 9 size the
    /// window and the hash table, which every stream starts by clearing (content streams are a
    /// few KB: 8 KB and level 6 compress them as well as zlib's defaults, and clear 4× less).
    init(level: Int32, windowBits: Int32 = 15, memoryLevel: Int32 = 8) {
        ready = deflateInit2_(
            &stream, level, Z_DEFLATED, windowBits, memoryLevel, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit {
        if ready { deflateEnd(&stream) }
    }

    /// `bytes` as a zlib stream; nil if zlib fails.
    func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard ready, deflateReset(&stream) == Z_OK else { return nil }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[0..<Int(stream.total_out)])
    }
}
