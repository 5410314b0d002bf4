// Colors as the markup writes them: #RRGGBB or #RRGGBBAA (SPEC §2).

import Glibc

public struct Color: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var components: [Double] = []
        var i = 1
        while i < digits.count {
            guard let hi = Color.hexValue(digits[i]), let lo = Color.hexValue(digits[i + 1]) else { return nil }
            components.append(Double(hi * 16 + lo) / 255)
            i += 2
        }
        self.init(red: components[0], green: components[1], blue: components[2],
                  alpha: components.count == 4 ? components[3] : 1)
    }

    /// The color seen where this one is drawn over `below` (opaque).
    public func over(_ below: Color) -> Color {
        func mixed(_ top: Double, _ bottom: Double) -> Double { top * alpha + bottom * (1 - alpha) }
        return Color(red: mixed(red, below.red), green: mixed(green, below.green), blue: mixed(blue, below.blue))
    }

    /// WCAG 2's relative luminance of the color, opaque (0 black … 1 white).
    public var luminance: Double {
        func linear(_ value: Double) -> Double { value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio of two opaque colors (1 … 21).
    public static func contrast(_ a: Color, _ b: Color) -> Double {
        let (light, dark) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
        return (light + 0.05) / (dark + 0.05)
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
