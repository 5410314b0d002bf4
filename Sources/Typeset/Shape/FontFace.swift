// A font file (and face index in it): the key every stage uses for a font. The stages that need
// C objects (HarfBuzz in Shape/, Cairo in Render/) keep their own caches keyed by it.

public struct FontFace: Hashable, Sendable, CustomStringConvertible {
    /// Absolute path of the font file.
    public var path: String
    /// Face index inside the file (0 for .ttf/.otf).
    public var index: Int
    /// The family name the file declares ("Noto Sans Arabic").
    public var family: String
    /// CSS-style weight: 400 regular, 700 bold.
    public var weight: Int
    public var italic: Bool

    public init(path: String, index: Int = 0, family: String, weight: Int, italic: Bool) {
        self.path = path
        self.index = index
        self.family = family
        self.weight = weight
        self.italic = italic
    }
    public var description: String { "\(family) \(weight)\(italic ? " italic" : "")" }

    /// The file and face index name the face, so equal faces hash alike without hashing the
    /// family name too (faces key the metrics, coverage and Cairo caches).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(index)
    }
}
