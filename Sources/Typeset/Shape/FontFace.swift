// A font file (and face index in it): the key every stage uses for a font. The stages that need
// C objects (HarfBuzz in Shape/, Cairo in Render/) keep their own caches keyed by it.

public struct FontFace: Hashable, Sendable, CustomStringConvertible {
    /// Absolute path of the font file.
    public var path: String {
        get { names.path }
        set { names = Names(path: newValue, family: names.family, fullName: names.fullName) }
    }
    /// Face index inside the file (0 for .ttf/.otf).
    public var index: Int
    /// The family name the file declares ("Noto Sans Arabic").
    public var family: String {
        get { names.family }
        set { names = Names(path: names.path, family: newValue, fullName: names.fullName) }
    }
    /// The face's full name as the file declares it ("DejaVu Sans Condensed Bold"; name ID 4),
    /// else the family and style ("Noto Sans SemiBold Italic").
    public var fullName: String {
        if let fullName = names.fullName { return fullName }
        let weights = [100: " Thin", 200: " ExtraLight", 300: " Light", 500: " Medium", 600: " SemiBold", 700: " Bold",
                       800: " ExtraBold", 900: " Black"]
        return family + (weights[weight] ?? (weight == 400 ? "" : " \(weight)")) + (italic ? " Italic" : "")
    }
    /// CSS-style weight: 400 regular, 700 bold.
    public var weight: Int
    public var italic: Bool

    /// The path and names in one shared object: every line run and glyph run holds a face, and
    /// copying one then retains one reference instead of two strings.
    private var names: Names

    public init(path: String, index: Int = 0, family: String, weight: Int, italic: Bool, fullName: String? = nil) {
        names = Names(path: path, family: family, fullName: fullName)
        self.index = index
        self.weight = weight
        self.italic = italic
    }
    public var description: String { "\(family) \(weight)\(italic ? " italic" : "")" }

    public static func == (a: FontFace, b: FontFace) -> Bool {
        a.index == b.index && a.weight == b.weight && a.italic == b.italic
            && (a.names === b.names
                || (a.names.pathHash == b.names.pathHash && a.names.path == b.names.path
                    && a.names.family == b.names.family))
    }

    /// The file and face index name the face, so equal faces hash alike without hashing the
    /// family name too (faces key the metrics, coverage and PDF font caches).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(names.pathHash)
        hasher.combine(index)
    }

    /// The file and face index, as the caches of HarfBuzz objects key them (hashed already).
    var fileKey: FontFileKey { FontFileKey(path: names.path, index: index, pathHash: names.pathHash) }

    private final class Names: Sendable {
        let path: String
        let family: String
        let fullName: String?
        /// The path's hash, computed once.
        let pathHash: Int

        init(path: String, family: String, fullName: String?) {
            self.path = path
            self.family = family
            self.fullName = fullName
            pathHash = path.hashValue
        }
    }
}
