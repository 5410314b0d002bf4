// The bytes of PDF syntax (ISO 32000-1 §7.3) beyond ByteBuffer's numbers: references, offsets,
// hexadecimal glyph ids, text strings and compressed streams.
import CCairo
extension ByteBuffer {
    /// `N 0 R ` — a reference to object N.
    mutating func reference(_ object: Int) {
        digits(object)
        append(" 0 R ")
    }

    /// `value` (0 ≤ value < 10^width) in exactly `width` digits, zero-padded: an offset in the
    /// cross-reference table.
    mutating func paddedDigits(_ value: Int, width: Int) {
        write(upTo: width) { target in
            Self.writeDigits(value.magnitude, count: width, to: target)
            return width
        }
    }

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

    /// A PDF text string (ISO 32000-1 §7.9.2.2) and a space: a literal string for printable
    /// ASCII, else UTF-16BE with a byte-order mark, in hex. Written byte by byte: built as a
    /// String a character at a time, a language's two letters cost a thousand instructions.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            if utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
                append(byte: UInt8(ascii: "("))
                for byte in utf8 {
                    if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") {
                        append(byte: UInt8(ascii: "\\"))
                    }
                    append(byte: byte)
                }
                append(byte: UInt8(ascii: ")"))
            } else {
                utf16Text(utf8)
            }
        }
        append(byte: 0x20)
    }

    /// A PDF text string of `utf8` as UTF-16BE with a byte-order mark, in hex: `<FEFF05E9>`.
    mutating func utf16Text(_ utf8: UnsafeBufferPointer<UInt8>) {
        append("<FEFF")
        for unit in String(decoding: utf8, as: UTF8.self).utf16 { hex4(UInt32(unit)) }
        append(">")
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
