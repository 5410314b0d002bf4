// The PNG check of `image` sources (SPEC §2: "it must be a PNG"): the signature, the image's
// size from IHDR, and the chunk structure with every CRC, so that a truncated or corrupted file
// is refused with its location at parse time instead of failing while the page is drawn.
// (The compressed pixel data itself is left to the decoder.)

/// Why a file is not a usable PNG; the message completes "image 'x' is ...".
struct PNGProblem: Error, Equatable {
    var message: String
}

enum PNGFile {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The width and height of the PNG in `bytes`, after checking its structure: IHDR first
    /// and well-formed, every chunk complete with a matching CRC, at least one IDAT, and IEND.
    /// `pixelLimit` bounds each side (checked before the rest, so huge images are refused by
    /// their header alone).
    static func check(_ bytes: [UInt8], pixelLimit: Int) throws(PNGProblem) -> (width: Int, height: Int) {
        guard bytes.starts(with: signature) else {
            throw PNGProblem(message: "not a PNG file (it lacks the PNG signature)")
        }
        guard bytes.count >= 33, bigEndian(bytes, 8) == 13, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            throw PNGProblem(message: "not a valid PNG file (no IHDR chunk)")
        }
        let width = bigEndian(bytes, 16)
        let height = bigEndian(bytes, 20)
        guard width > 0, height > 0, width <= pixelLimit, height <= pixelLimit else {
            throw PNGProblem(
                message: "\(width)×\(height) pixels; images must be 1 to \(pixelLimit) pixels on each side")
        }
        let bitDepth = bytes[24]
        let colorType = bytes[25]
        let allowedDepths: [UInt8]
        switch colorType {
        case 0: allowedDepths = [1, 2, 4, 8, 16]
        case 3: allowedDepths = [1, 2, 4, 8]
        case 2, 4, 6: allowedDepths = [8, 16]
        default: allowedDepths = []
        }
        guard allowedDepths.contains(bitDepth), bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw PNGProblem(
                message: "not a valid PNG file (IHDR has color type \(colorType), bit depth \(bitDepth), "
                    + "compression \(bytes[26]), filter \(bytes[27]), interlace \(bytes[28]))")
        }
        var offset = 8
        var sawData = false
        while true {
            guard offset + 12 <= bytes.count else {
                throw PNGProblem(message: "not a valid PNG file (it is truncated: it ends before its IEND chunk)")
            }
            let length = bigEndian(bytes, offset)
            let type = bytes[(offset + 4)..<(offset + 8)]
            let name = String(decoding: type, as: UTF8.self)
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw PNGProblem(message: "not a valid PNG file (a chunk at byte \(offset) has no valid type)")
            }
            guard length <= bytes.count - offset - 12 else {
                throw PNGProblem(message: "not a valid PNG file (it is truncated inside its \(name) chunk)")
            }
            let end = offset + 8 + length
            let stored = bigEndian(bytes, end)
            guard crc32(bytes[(offset + 4)..<end]) == UInt32(stored) else {
                throw PNGProblem(message: "not a valid PNG file (the CRC of its \(name) chunk at byte \(offset) is wrong)")
            }
            if name == "IDAT" { sawData = true }
            if name == "IEND" {
                guard sawData else { throw PNGProblem(message: "not a valid PNG file (it has no image data)") }
                return (width, height)
            }
            offset = end + 4
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// CRC-32 as PNG (and zlib) define it: polynomial 0xEDB88320, reflected.
    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { (n: UInt32) in
        var c = n
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
