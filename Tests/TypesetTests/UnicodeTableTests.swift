// The pinned property tables that layout reads instead of the Swift runtime's (whose Unicode
// version is the toolchain's): each equals its UCD 15.0 file at every code point.
import Foundation
import Testing

@testable import Typeset

@Suite struct UnicodeTableTests {
    /// The code points where `property` holds in `file` (lines `RANGE ; Property # ...`), read
    /// here independently of the generator.
    static func codePoints(of property: String, in file: String) throws -> Set<UInt32> {
        let text = try String(contentsOfFile: unicodeDirectory + "/" + file, encoding: .utf8)
        var result: Set<UInt32> = []
        for line in text.split(separator: "\n") {
            let data = line.prefix { $0 != "#" }
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, fields[1] == property else { continue }
            let bounds = fields[0].split(separator: ".").compactMap { UInt32($0, radix: 16) }
            guard let low = bounds.first, let high = bounds.last else { continue }
            for value in low...high { result.insert(value) }
        }
        return result
    }

    /// Compares `holds` with the file's property at every scalar (all but the surrogates).
    static func expectEqual(_ property: String, in file: String, count: Int, _ holds: (Unicode.Scalar) -> Bool) throws {
        let expected = try codePoints(of: property, in: file)
        #expect(expected.count == count, "\(file) lists \(expected.count) \(property) code points")
        var checked = 0
        var differing: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            checked += 1
            if holds(scalar) != expected.contains(value), differing.count < 5 {
                differing.append("U+" + String(value, radix: 16, uppercase: true))
            }
        }
        #expect(checked == 0x110000 - 0x800)
        #expect(differing.isEmpty, "\(property) differs at \(differing)")
    }

    @Test func whiteSpaceIsPropListsAtEveryCodePoint() throws {
        try Self.expectEqual("White_Space", in: "PropList.txt", count: 25) { $0.isWhiteSpace }
        #expect(Unicode.Scalar(0xA0)!.isWhiteSpace)  // no-break space
        #expect(!Unicode.Scalar(0x200B)!.isWhiteSpace)  // zero-width space
    }

    @Test func alphabeticIsDerivedCorePropertiesAtEveryCodePoint() throws {
        try Self.expectEqual("Alphabetic", in: "DerivedCoreProperties.txt", count: 137_765) { $0.isAlphabetic }
        #expect(Unicode.Scalar(0x0645)!.isAlphabetic)  // Arabic meem
        #expect(!Unicode.Scalar(0x0663)!.isAlphabetic)  // Arabic-Indic three
    }
}
