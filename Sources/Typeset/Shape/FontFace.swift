// A font file (and face index in it): the key every stage uses for a font. The stages that need
// C objects (HarfBuzz in Shape/, Cairo in Render/) keep their own caches keyed by it.

public struct FontFace: Hashable, Sendable, CustomStringConvertible {
    /// Absolute path of the font file.
    public var path: String {
        get { names.path }
        set { names = Names(path: newValue, family: names.family) }
    }
    /// Face index inside the file (0 for .ttf/.otf).
    public var index: Int
    /// The family name the file declares ("Noto Sans Arabic").
    public var family: String {
        get { names.family }
        set { names = Names(path: names.path, family: newValue) }
    }
    /// CSS-style weight: 400 regular, 700 bold.
    public var weight: Int
    public var italic: Bool

    /// The path and family in one shared object: every line run and glyph run holds a face, and
    /// copying one then retains one reference instead of two strings.
    private var names: Names

    public init(path: String, index: Int = 0, family: String, weight: Int, italic: Bool) {
        names = Names(path: path, family: family)
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
        /// The path's hash, computed once.
        let pathHash: Int

        init(path: String, family: String) {
            self.path = path
            self.family = family
            pathHash = path.hashValue
        }
    }
}
