// One hash of bytes for the whole library: SVG ids (SVGIdentifiers.swift) and the keys of the
// run and paragraph caches, which hash the characters they hold; and `KeyHasher`, its step for
// the few other words of those keys and of the font cache's.

/// A 64-bit hash of `bytes`, eight bytes at a time: FNV-1a's multiply on each word, then the
/// high bits folded into the low ones so that every bit of a word reaches every later one.
/// Cheaper than `Hasher.combine(bytes:)` (SipHash): the cache keys hashed their characters with
/// it in 13 thousand instructions a corpus document, with this in 6 thousand fewer. Not keyed:
/// for caches whose size is bounded, and ids that must be the same in every process.
func byteHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var index = 0
    if let base = bytes.baseAddress {
        while index + 8 <= bytes.count {
            hash = (hash ^ (base + index).loadUnaligned(as: UInt64.self)) &* 0x0000_0100_0000_01B3
            hash ^= hash >> 29
            index += 8
        }
    }
    while index < bytes.count {
        hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
        index += 1
    }
    hash ^= UInt64(bytes.count)
    hash = (hash ^ hash >> 33) &* 0xff51_afd7_ed55_8ccd  // MurmurHash3's final mix
    return hash ^ hash >> 33
}

/// The hash of a cache key made of a few words (and strings, by `byteHash`): `byteHash`'s step on
/// each word, MurmurHash3's final mix at the end. `Hasher` (SipHash) took about 170 instructions a
/// key for its setup and finalization alone, and hashed each string anew; the keys of the run,
/// paragraph and font caches were hashed some hundred times a corpus document. Not keyed: for the
/// same bounded caches as `byteHash`.
struct KeyHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ word: UInt64) {
        state = (state ^ word) &* 0x0000_0100_0000_01B3
        state ^= state >> 29
    }

    mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }

    mutating func combine(_ value: Bool) { combine(value ? 1 : 0) }

    /// 0 and -0, which are equal, hash alike.
    mutating func combine(_ value: Double) { combine(value == 0 ? 0 : value.bitPattern) }

    mutating func combine(_ string: String) {
        var string = string
        combine(string.withUTF8 { byteHash(UnsafeRawBufferPointer($0)) })
    }

    func finalize() -> Int {
        let hash = (state ^ state >> 33) &* 0xff51_afd7_ed55_8ccd
        return Int(truncatingIfNeeded: hash ^ hash >> 33)
    }
}
