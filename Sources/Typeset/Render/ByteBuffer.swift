// A growable byte buffer with the numbers PDF content streams and SVG paths are made of: at
// most three decimals (1/1000 pt), written by integer arithmetic, as a page of text has
// thousands of them.

struct ByteBuffer: ~Copyable {
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

    /// Writes `bytes` over those written at `offset` (which must all have been written).
    mutating func replace(at offset: Int, with bytes: [UInt8]) {
        precondition(offset >= 0 && offset + bytes.count <= count)
        bytes.withUnsafeBufferPointer { (storage.unsafelyUnwrapped + offset).update(from: $0.baseAddress!, count: bytes.count) }
    }

    /// `buffer`, emptied, leaving an empty buffer in its place: reuses its room.
    static func take(_ buffer: inout ByteBuffer) -> ByteBuffer {
        var taken = ByteBuffer()
        swap(&taken, &buffer)
        taken.removeAll()
        return taken
    }

    /// Makes room for at least `maximum` more bytes, lets `write` put its bytes at the pointer it
    /// is given and counts the number it returns (at most `maximum`).
    @inline(__always)
    mutating func write(upTo maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
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

    /// The bytes written in `other` (an SVG page's definitions and drawing, its text layer).
    mutating func append(_ other: borrowing ByteBuffer) {
        append(UnsafeBufferPointer(start: other.storage, count: other.count))
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

    /// A number with at most three decimals and a space: `12 `, `-0.5 `, `51.292 `.
    mutating func number(_ value: Double) {
        // A decimal (at most 18 bytes) and a space.
        write(upTo: 19) { target in
            let length = Self.writeDecimal(value, to: target)
            target[length] = 0x20
            return length + 1
        }
    }

    /// A number with at most three decimals: `12`, `-0.5`, `51.292` (an SVG attribute's value).
    mutating func decimal(_ value: Double) {
        write(upTo: 18) { Self.writeDecimal(value, to: $0) }
    }

    /// Writes `value` with at most three decimals at `target`; returns the bytes written (at most
    /// 18: a sign, 13 digits, a point and 3 decimals).
    @inline(__always)
    private static func writeDecimal(_ value: Double, to target: UnsafeMutablePointer<UInt8>) -> Int {
        // Beyond ±1e12 pt nothing is on a page; clamping keeps the integer arithmetic exact.
        let clamped = value.isFinite ? min(max(value, -1e12), 1e12) : 0
        let thousandths = roundedToInt(clamped * 1000)
        var length = 0
        if thousandths < 0 {
            target[0] = UInt8(ascii: "-")
            length = 1
        }
        let magnitude = thousandths.magnitude
        length += writeDigits(magnitude / 1000, to: target + length)
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
                writePair(rest, to: target + length + 2)
                length += 4
            }
        }
        return length
    }

    /// A scale in full precision, shortest form (`2`, `0.00830078125`: a size over 2048 font
    /// units), where three decimals would move far points; 0 if it is not finite.
    mutating func exact(_ value: Double) {
        append(string: Self.exact(value))
    }

    static func exact(_ value: Double) -> String {
        value.isFinite ? format(value) : "0"
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
    static func writeDigits(_ value: UInt, count: Int, to target: UnsafeMutablePointer<UInt8>) {
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

    static let hexDigits: StaticString = "0123456789ABCDEF"

    /// Two hexadecimal digits: a code of a Type 3 font, a component of an SVG color.
    mutating func hex2(_ value: UInt8) {
        write(upTo: 2) { target in
            let digits = Self.hexDigits.utf8Start
            target[0] = digits[Int(value >> 4)]
            target[1] = digits[Int(value & 0xF)]
            return 2
        }
    }

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
}
