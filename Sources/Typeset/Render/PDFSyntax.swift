// The bytes of PDF syntax (ISO 32000-1 §7.3): numbers, names, strings and compressed streams,
// appended to a byte buffer. Numbers are written with at most three decimals (1/1000 pt), by
// integer arithmetic: a page of text has thousands of them.
import CCairo

struct PDFBuffer: ~Copyable {
    /// The bytes written are `storage[..<count]`, in room for `capacity`. Appends make room
    /// (doubling) and then write through the pointer: a page of text has thousands of short
    /// operators, numbers and glyph ids. Never copied (noncopyable), so there is no sharing to
    /// check for on each append, as there was with an array's storage (a uniqueness check and a
    /// closure per append: writing a corpus document's pages took 12% more instructions).
    private var storage: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private(set) var count = 0

    /// An empty buffer that allocates on its first append.
    init() {}

    init(capacity: Int) {
        self.capacity = max(capacity, 256)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage?.deallocate() }

    /// A copy of the bytes written.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Calls `body` with the bytes written.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// Empties the buffer, keeping its room.
    mutating func removeAll() { count = 0 }

    /// `buffer`, emptied, leaving an empty buffer in its place: reuses its room.
    static func take(_ buffer: inout PDFBuffer) -> PDFBuffer {
        var taken = PDFBuffer()
        swap(&taken, &buffer)
        taken.removeAll()
        return taken
    }

    /// Makes room for at least `maximum` more bytes, lets `write` put its bytes at the pointer it
    /// is given and counts the number it returns (at most `maximum`).
    @inline(__always)
    private mutating func write(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - count <= maximum { grow(to: count + maximum) }  // never nil after
        let written = write(storage.unsafelyUnwrapped + count)
        precondition(written <= maximum)
        count += written
    }

    private mutating func grow(to minimum: Int) {
        let larger = max(minimum + 1, 2 * capacity, 256)
        let room = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        if let storage {
            room.initialize(from: storage, count: count)
            storage.deallocate()
        }
        storage = room
        capacity = larger
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// A string's UTF-8 (string literals go to the `StaticString` overload, without copying).
    mutating func append(string text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        write(upTo: 1) { target in
            target[0] = byte
            return 1
        }
    }

    mutating func append(_ other: [UInt8]) {
        other.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        write(upTo: source.count) { target in
            // Most appends are operators of a few bytes, for which memmove's call costs more.
            if source.count <= 16 {
                for index in 0..<source.count { target[index] = base[index] }
            } else {
                target.update(from: base, count: source.count)
            }
            return source.count
        }
    }

    /// A decimal integer and a space.
    mutating func integer(_ value: Int) {
        digits(value)
        append(byte: 0x20)
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
        let thousandths = PDFSyntax.roundedToInt(clamped * 1000)
        // Sign, up to 13 digits, a point, 3 decimals and a space.
        write(upTo: 19) { target in
            var length = 0
            if thousandths < 0 {
                target[0] = UInt8(ascii: "-")
                length = 1
            }
            let magnitude = thousandths.magnitude
            length += Self.writeDigits(magnitude / 1000, to: target + length)
            let fraction = magnitude % 1000
            if fraction != 0 {
                // Three decimals without their trailing zeros: `.5`, `.05`, `.125`.
                target[length] = UInt8(ascii: ".")
                target[length + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction / 100)
                let rest = fraction % 100
                if rest == 0 {
                    length += 2
                } else if rest % 10 == 0 {
                    target[length + 2] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / 10)
                    length += 3
                } else {
                    Self.writePair(rest, to: target + length + 2)
                    length += 4
                }
            }
            target[length] = 0x20
            return length + 1
        }
    }

    /// The decimal digits of an integer (a negative one gets its sign).
    mutating func digits(_ value: Int) {
        // A sign and up to 20 digits.
        write(upTo: 21) { target in
            guard value < 0 else { return Self.writeDigits(value.magnitude, to: target) }
            target[0] = UInt8(ascii: "-")
            return 1 + Self.writeDigits(value.magnitude, to: target + 1)
        }
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` digits, zero-padded: an offset in the
    /// cross-reference table.
    mutating func paddedDigits(_ value: Int, width: Int) {
        write(upTo: width) { target in
            Self.writeDigits(value.magnitude, count: width, to: target)
            return width
        }
    }

    /// Writes the decimal digits of `value` (at most 20) at `target`; returns their number. Up to
    /// four digits (every coordinate on a page, most TJ adjustments) without a loop.
    @inline(__always)
    private static func writeDigits(_ value: UInt, to target: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            target[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value)
            return 1
        }
        if value < 100 {
            writePair(value, to: target)
            return 2
        }
        if value < 1000 {
            target[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 100)
            writePair(value % 100, to: target + 1)
            return 3
        }
        if value < 10000 {
            writePair(value / 100, to: target)
            writePair(value % 100, to: target + 2)
            return 4
        }
        var length = 5
        var rest = value / 100_000
        while rest > 0 {
            length += 1
            rest /= 10
        }
        writeDigits(value, count: length, to: target)
        return length
    }

    /// The last `count` decimal digits of `value`, zero-padded, from the last one, dividing by
    /// 10 only (a constant: a multiply).
    @inline(__always)
    private static func writeDigits(_ value: UInt, count: Int, to target: UnsafeMutablePointer<UInt8>) {
        var rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            target[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// The two digits of `value` (0...99), `07` for 7.
    @inline(__always)
    private static func writePair(_ value: UInt, to target: UnsafeMutablePointer<UInt8>) {
        target[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        target[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }

    private static let hexDigits: StaticString = "0123456789ABCDEF"

    /// Four hexadecimal digits: a glyph id in an Identity-H string.
    @inline(__always)
    mutating func hex4(_ value: UInt32) {
        write(upTo: 4) { target in
            let digits = Self.hexDigits.utf8Start
            target[0] = digits[Int(truncatingIfNeeded: value >> 12 & 0xF)]
            target[1] = digits[Int(truncatingIfNeeded: value >> 8 & 0xF)]
            target[2] = digits[Int(truncatingIfNeeded: value >> 4 & 0xF)]
            target[3] = digits[Int(truncatingIfNeeded: value & 0xF)]
            return 4
        }
    }

    /// Two hexadecimal digits: a code of a Type 3 font.
    mutating func hex2(_ value: UInt8) {
        write(upTo: 2) { target in
            let digits = Self.hexDigits.utf8Start
            target[0] = digits[Int(value >> 4)]
            target[1] = digits[Int(value & 0xF)]
            return 2
        }
    }

    /// A text string (§7.9.2.2), as `PDFSyntax.textString` writes it, and a space.
    mutating func text(_ value: String) {
        append(string: PDFSyntax.textString(value))
        append(byte: 0x20)
    }
}

enum PDFSyntax {
    /// `Int(value.rounded())` (half away from zero; traps where that traps) without a call to
    /// libm's round: below 2^52 a number's difference from its truncation is exact, and from
    /// 2^52 on every number is whole.
    @inline(__always)
    static func roundedToInt(_ value: Double) -> Int {
        let whole = Int(value)
        let rest = value - Double(whole)
        if rest >= 0.5 { return whole + 1 }
        if rest <= -0.5 { return whole - 1 }
        return whole
    }

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
        return hex.withBytes { String(decoding: $0, as: UTF8.self) }
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
    func compress(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard ready, deflateReset(&stream) == Z_OK else { return nil }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let status = output.withUnsafeMutableBufferPointer { out in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = out.baseAddress
            stream.avail_out = uInt(out.count)
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[0..<Int(stream.total_out)])
    }
}
