// Font discovery, matching and per-cluster fallback (SPEC §3): bundled Fonts/, --font-dir
// folders, then system fonts; nearest weight; a font run per stretch of clusters one font covers.

import FoundationEssentials

/// A stretch of a paragraph set in one font, from `FontDatabase.itemize`.
public struct FontRun: Hashable, Sendable {
    /// Scalar offsets in the paragraph.
    public var range: Range<Int>
    public var face: FontFace
    /// Scalar offsets (in the paragraph) of characters no font covers: they are drawn as the
    /// face's .notdef and the caller warns about each with its U+XXXX.
    public var missing: [Int]

    public init(range: Range<Int>, face: FontFace, missing: [Int] = []) {
        self.range = range
        self.face = face
        self.missing = missing
    }
}

/// Finds fonts and picks one for every grapheme cluster of a text (SPEC §3).
///
/// Order of search for a cluster: the `families` list in order, then the bundled fallbacks by
/// script (Arabic → Noto Sans Arabic, Hebrew → Noto Sans Hebrew, else Noto Sans, then the other
/// two), then the other bundled families (Noto Sans Math, Symbols and Symbols2, in file order),
/// then `--font-dir` fonts, then system fonts (`systemDirectories`), both `ranked`; system
/// fonts are scanned only when a family or a character is not found in the bundled and extra
/// fonts, for an emoji, or for a style a `--font-dir` family lacks (`lookUp`). An emoji
/// (`FontFallbackCluster.isEmoji`) first takes a color font of that order that has all of it.
///
/// Thread safety: all mutable state (the font indexes, coverage and lookup caches) lives in one
/// `Locked` (a pthread mutex: see Locked.swift); `itemize` takes it a few times per call (never per
/// character in the common case) and works on immutable copies otherwise, so one database can
/// serve a parallel batch.
public final class FontDatabase: Sendable {
    /// Bundled fonts only (plus system fonts when needed), found by `bundledFontDirectory()`.
    /// For tests and library users: a `Typesetter` makes its own.
    public static let shared = FontDatabase()

    /// The bundled fonts' folder, or nil when it cannot be found.
    public let bundledDirectory: String?
    /// `--font-dir` folders, searched (recursively) after the bundled fonts.
    public let extraDirectories: [String]
    /// Folders scanned for system fonts, only when needed: the system's, then the user's
    /// (`$XDG_DATA_HOME/fonts`, by default `~/.local/share/fonts`, and `~/.fonts`), where
    /// fontconfig finds them too (a font installed for the user was "not found").
    static let systemDirectories: [String] = {
        let environment = ProcessInfo.processInfo.environment
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var folders = ["/usr/share/fonts", "/usr/local/share/fonts"]
        let home = variable("HOME")
        if let data = variable("XDG_DATA_HOME") ?? home.map({ Path.join($0, ".local/share") }) {
            folders.append(Path.join(data, "fonts"))
        }
        if let home { folders.append(Path.join(home, ".fonts")) }
        return folders
    }()

    /// Bundled family names, in fallback order.
    static let latinFallback = "Noto Sans"
    static let arabicFallback = "Noto Sans Arabic"
    static let hebrewFallback = "Noto Sans Hebrew"

    /// CSS's generic families (and the system fonts' names CSS stacks use), by `familyKey`, with
    /// the families that stand for them, the first found taken.
    static let genericFamilies: [String: [String]] = {
        let sans = [latinFallback]
        let serif = ["Noto Serif", "DejaVu Serif", "Liberation Serif"]
        let mono = ["Noto Sans Mono", "DejaVu Sans Mono", "Liberation Mono"]
        let names = [
            "sans-serif": sans, "system-ui": sans, "ui-sans-serif": sans, "-apple-system": sans,
            "blinkmacsystemfont": sans, "serif": serif, "ui-serif": serif, "monospace": mono, "ui-monospace": mono,
        ]
        return Dictionary(uniqueKeysWithValues: names.map { (familyKey($0.key), $0.value) })
    }()

    private let state = Locked(State())

    /// - Parameters:
    ///   - extraDirectories: folders given with `--font-dir`; their fonts are matched by family
    ///     like the bundled ones (and before system fonts).
    ///   - bundledDirectory: the bundled `Fonts/` folder; by default found by
    ///     `bundledFontDirectory()`.
    public init(extraDirectories: [String] = [], bundledDirectory: String? = nil) {
        self.bundledDirectory = bundledDirectory ?? Self.bundledFontDirectory()
        self.extraDirectories = extraDirectories
    }

    // MARK: Finding the bundled fonts

    /// The file that marks the bundled fonts' folder.
    static let markerFile = "NotoSans-Regular.ttf"
    /// The bundled fonts' files (ShapeTests checks them against `Fonts/`).
    static let bundledFiles = [
        "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf",
        "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf",
        "NotoSansMath-Regular.ttf", "NotoSansSymbols-Regular.ttf", "NotoSansSymbols2-Regular.ttf",
    ]

    /// Finds the bundled `Fonts/` folder, whatever the working directory, trying in order:
    /// the `TYPESET_FONT_DIR` environment variable (when set, whether or not the folder is there:
    /// a mistyped one was passed over without a word, and the fonts beside the binary used); the
    /// folders above the running executable
    /// (`/proc/self/exe`) for one holding `Fonts/NotoSans-Regular.ttf`; the repository this
    /// source file was compiled in (`#filePath`).
    public static func bundledFontDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = currentExecutablePath(),
        sourceFilePath: String? = nil
    ) -> String? {
        let files = FileManager.default
        if let directory = environment["TYPESET_FONT_DIR"], !directory.isEmpty { return absolute(directory) }
        // By plain string operations on these absolute paths: Foundation's URL cost 190,000
        // more instructions per process.
        if let executablePath, Path.isAbsolute(executablePath) {
            var folder = Path.folder(executablePath)
            while true {
                let candidate = Path.join(folder, "Fonts")
                if files.fileExists(atPath: Path.join(candidate, markerFile)) { return candidate }
                let parent = Path.folder(folder)
                if parent == folder || parent.isEmpty { break }
                folder = parent
            }
        }
        // Sources/Typeset/Shape/FontDatabase.swift → the repository root.
        var root = sourceFilePath ?? compiledSourcePath
        for _ in 0..<4 { root = Path.folder(root) }
        let candidate = Path.join(root, "Fonts")
        if !root.isEmpty, files.fileExists(atPath: Path.join(candidate, markerFile)) { return candidate }
        return nil
    }

    /// This file's path at compile time (a `#filePath` default argument would be the caller's).
    private static let compiledSourcePath = #filePath

    /// The running executable, from /proc/self/exe (Linux).
    public static func currentExecutablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    private static func absolute(_ path: String) -> String {
        Path.normalized(path, relativeTo: Path.currentDirectory())
    }

    // MARK: Queries

    /// The bundled faces (all eleven files), sorted by file path.
    public var bundledFaces: [FontFace] {
        state.withLock { state in
            loadPrimary(&state)
            return state.bundled
        }
    }

    /// The files of the bundled and extra folders (`--font-dir`) that give no face, and why,
    /// read when the faces are: fallback skips them; said, a user does not wonder why their
    /// family is not found (a damaged bundled NotoSans-Regular.ttf drew all text in bold
    /// without a word).
    public var unusableFiles: [(path: String, reason: String)] {
        state.withLock { state in
            loadPrimary(&state)
            return state.unusableBundled + state.unusableExtra
        }
    }

    /// The font files of the bundled and extra folders, those that give no face too: the files
    /// a command reads, which no output may replace.
    public var fontFiles: [String] {
        state.withLock { state in
            loadPrimary(&state)
            return state.files
        }
    }

    /// Why the bundled fonts are not there, nil when they are: text then takes the `--font-dir`
    /// and system fonts, and output is no longer the same on every machine.
    public var bundledFontsProblem: String? {
        guard let bundledDirectory else {
            return "no folder holds \(Self.markerFile): TYPESET_FONT_DIR is not set, and no Fonts folder "
                + "is beside or above the typeset binary"
        }
        // Named as the variable when the folder is the one it gives (not merely when it is set).
        let variable = ProcessInfo.processInfo.environment["TYPESET_FONT_DIR"].map(Self.absolute)
        let named = variable == bundledDirectory ? "TYPESET_FONT_DIR '\(bundledDirectory)'" : "'\(bundledDirectory)'"
        var isFolder = false
        guard FileManager.default.fileExists(atPath: bundledDirectory, isDirectory: &isFolder) else {
            return "\(named) does not exist"
        }
        guard isFolder else { return "\(named) is a file, not a folder" }
        guard FileManager.default.fileExists(atPath: Path.join(bundledDirectory, Self.markerFile)) else {
            return "\(named) has no \(Self.markerFile)"
        }
        // A folder of some of them (bold was drawn regular, without a word), or one that is a
        // folder or a pipe (skipped without a word, and the system's Noto Sans Arabic drawn).
        func listed(_ files: [String]) -> String {
            files.count > 3 ? files.prefix(3).joined(separator: ", ") + " and \(files.count - 3) more" : listPhrase(files, conjunction: "and")
        }
        let problems = Self.bundledFiles.map { ($0, regularFileProblem(Path.join(bundledDirectory, $0))) }
        let missing = problems.filter { $0.1 == .missing }.map(\.0)
        guard missing.isEmpty else { return "\(named) lacks \(listed(missing))" }
        let notFiles = problems.filter { $0.1 == .notRegular }.map(\.0)
        guard notFiles.isEmpty else { return "in \(named), \(listed(notFiles)) \(notFiles.count == 1 ? "is not a file" : "are not files")" }
        return nil
    }

    /// The face of `family` (bundled, extra, else system fonts) closest to `weight` and
    /// `italic`: the nearest weight the family has (CSS Fonts 4 §5.2: 600 → 700, 500 → 400,
    /// light and thin → 400 when lighter ones are missing); italic falls back to upright.
    /// Nil when no font has that family name (compared case-insensitively).
    public func face(family: String, weight: Int, italic: Bool) -> FontFace? {
        state.withLock { state in lookUp(family: family, weight: weight, italic: italic, &state) }
    }

    /// The weight axis of `family` when it is one variable font with a weight axis (`wght`) and
    /// no other face: typeset sets a variable font at its default instance (HarfBuzz shapes
    /// that, and the PDF embeds its outlines as they are), so every weight of the family shows
    /// as that one. Nil for a family of static fonts, or one not found.
    public func variableWeights(of family: String) -> (default: Int, least: Int, most: Int)? {
        guard let face = face(family: family, weight: 400, italic: false),
            [100, 700, 900].allSatisfy({ self.face(family: family, weight: $0, italic: false) == face })
        else { return nil }
        return HarfBuzzFontCache.shared.font(for: face).weightAxis
    }

    /// The primary face for a family list: the first family found, else the bundled fallback
    /// for `script`. This is the face uncovered characters are drawn in.
    public func primaryFace(families: [String], weight: Int, italic: Bool, script: Script) -> FontFace? {
        candidates(families: families, weight: weight, italic: italic, script: script).first?.face
    }

    /// Whether `face`'s cmap maps `scalar`.
    public func covers(_ face: FontFace, _ scalar: Unicode.Scalar) -> Bool {
        coverage(of: face).contains(scalar.value)
    }

    /// How `face`, damaged, draws `scalar`'s glyph wrong (`HarfBuzzFont.glyphDamage`), if it does.
    func glyphDamage(_ face: FontFace, _ scalar: Unicode.Scalar) -> HarfBuzzFont.GlyphDamage? {
        HarfBuzzFontCache.shared.font(for: face).glyphDamage(scalar)
    }

    /// Splits `scalars[range]` into runs of one font each (SPEC §3).
    ///
    /// Fallback works per grapheme cluster: a cluster gets the first candidate (see the type's
    /// documentation) that covers all its characters that need a glyph, else the first that
    /// covers its base character. Characters that need no glyph of their own (default
    /// ignorables: bidi controls, ZWJ/ZWNJ, variation selectors, ...; controls) and combining
    /// marks stay with their cluster's font and never force a fallback. White space and
    /// punctuation of the Common script stay in the preceding (else following) run's font when it
    /// covers them, so that runs are not cut up. A character no font covers stays in the primary
    /// font and is listed in `missing`.
    ///
    /// - Parameters:
    ///   - scalars: the whole paragraph (offsets in the result index it).
    ///   - script: the run's script, used for the fallback order of clusters whose own script
    ///     is Common or Inherited.
    public func itemize(
        scalars: [Unicode.Scalar], range: Range<Int>, families: [String], weight: Int, italic: Bool,
        script: Script
    ) -> [FontRun] {
        let range = range.clamped(to: 0..<scalars.count)
        guard !range.isEmpty else { return [] }
        let runCandidates = candidates(families: families, weight: weight, italic: italic, script: script)
        guard !runCandidates.isEmpty else {
            // No font at all (no bundled folder, nothing on the system): everything is missing.
            let face = FontFace(path: "", family: Self.latinFallback, weight: weight, italic: italic)
            let missing = range.filter { FontFallbackCluster.needsGlyph(scalars[$0]) }
            return [FontRun(range: range, face: face, missing: missing)]
        }

        // Fast path, same answer as the full one: the primary font covers every character and
        // no character belongs to another script (whose fallback list could rank differently).
        let primaryCoverage = runCandidates[0].coverage
        if range.allSatisfy({ offset in
            let scalar = scalars[offset]
            let own = scalar.script
            return (own == script || !own.isExplicit)
                && (primaryCoverage.contains(scalar.value) || !FontFallbackCluster.needsGlyph(scalar))
                && !FontFallbackCluster.mayStartEmoji(scalar)
        }) {
            return [FontRun(range: range, face: runCandidates[0].face)]
        }

        // Faces are handled by their index in `pool`: the run's candidates first, in order (so
        // a lower index ranks higher), then faces other scripts or system fonts brought in.
        var pool = runCandidates
        let runList = Array(pool.indices)
        var listByScript: [Script: [Int]] = [:]
        func poolIndex(_ candidate: Candidate) -> Int {
            if let known = pool.firstIndex(where: { $0.face == candidate.face }) { return known }
            pool.append(candidate)
            return pool.count - 1
        }
        func list(for own: Script) -> [Int] {
            guard own.isExplicit, own != script else { return runList }
            if let known = listByScript[own] { return known }
            let list = candidates(families: families, weight: weight, italic: italic, script: own).map(poolIndex)
            listByScript[own] = list
            return list
        }
        func covers(_ candidate: Int, _ cluster: FontFallbackCluster) -> Bool {
            for offset in cluster.range {
                let scalar = scalars[offset]
                if !pool[candidate].coverage.contains(scalar.value) && FontFallbackCluster.needsGlyph(scalar) {
                    return false
                }
            }
            return true
        }
        var missing: [Int] = []
        func other(_ needed: [UInt32], emoji: Bool) -> Int? {
            otherFace(for: needed, emoji: emoji, weight: weight, italic: italic, script: script).map { poolIndex(candidate($0)) }
        }
        // The first candidate covering the whole cluster, else its base character; a character
        // no font covers keeps the primary font and goes to `missing`.
        func choose(_ cluster: FontFallbackCluster) -> Int {
            let list = list(for: cluster.script)
            guard cluster.base >= 0 else { return list.first ?? 0 }
            // An emoji takes a color font that has all of it: the document's first, else the
            // first of `--font-dir` and the system's; without one, the usual order.
            if cluster.wantsEmoji {
                if let own = list.first(where: { pool[$0].isColor && covers($0, cluster) }) { return own }
                let needed = cluster.range.map { scalars[$0] }.filter(FontFallbackCluster.needsGlyph).map(\.value)
                if let emoji = other(needed, emoji: true) { return emoji }
            }
            if let all = list.first(where: { covers($0, cluster) }) { return all }
            // Else another family that has all of it (Armenian Ձ́: DejaVu Sans, not Noto Sans
            // Armenian, which has no U+0301; x⃗: Noto Sans Math, whose arrow Noto Sans lacks; a
            // Hebrew letter with an Arabic fatha: DejaVu Sans), as Pango draws them: they were
            // boxes beside their letter in a font of the list; else the first that has its letter.
            let needed = cluster.range.map { scalars[$0] }.filter(FontFallbackCluster.needsGlyph).map(\.value)
            if needed.count > 1, let all = other(needed, emoji: false) { return all }
            let base = scalars[cluster.base]
            let chosen = list.first { pool[$0].coverage.contains(base.value) } ?? other([base.value], emoji: false)
            let face = chosen ?? 0
            // Marks the chosen face lacks are missing only if no font at all has them.
            for offset in cluster.range {
                let scalar = scalars[offset]
                guard FontFallbackCluster.needsGlyph(scalar), !pool[face].coverage.contains(scalar.value),
                    !list.contains(where: { pool[$0].coverage.contains(scalar.value) })
                else { continue }
                if offset == cluster.base && chosen == nil
                    || otherFace(for: [scalar.value], emoji: false, weight: weight, italic: italic, script: script) == nil
                {
                    missing.append(offset)
                }
            }
            return face
        }

        let clusters = FontFallbackCluster.split(scalars, range)
        var choice = [Int](repeating: -1, count: clusters.count)
        // Pass 1: clusters with a base character of their own script (or digits, symbols).
        for i in clusters.indices where !clusters[i].isNeutral {
            choice[i] = choose(clusters[i])
        }
        // Pass 2: white space, punctuation and clusters without a base join a neighbour's font:
        // of the preceding and following ones that cover it, the one ranked first (the
        // preceding one on a tie), so a space between Hebrew and fallback digits stays Hebrew.
        var nextIndex = -1
        var next = -1
        for i in clusters.indices where choice[i] < 0 {
            if nextIndex <= i {
                nextIndex = (i + 1..<clusters.count).first { !clusters[$0].isNeutral } ?? clusters.count
                next = nextIndex < clusters.count ? choice[nextIndex] : -1
            }
            let previous = i > 0 ? choice[i - 1] : -1
            var chosen = -1
            // Never a color font's: Noto Color Emoji's space is as wide as an emoji.
            if previous >= 0 && !pool[previous].isColor && covers(previous, clusters[i]) { chosen = previous }
            if next >= 0 && !pool[next].isColor && (chosen < 0 || next < chosen) && covers(next, clusters[i]) {
                chosen = next
            }
            choice[i] = chosen >= 0 ? chosen : choose(clusters[i])
        }

        // Merge neighbouring clusters of one face.
        missing.sort()
        var runs: [FontRun] = []
        var runStart = range.lowerBound
        var missingIndex = 0
        for i in clusters.indices where i + 1 == clusters.count || choice[i + 1] != choice[i] {
            let end = clusters[i].range.upperBound
            var runMissing: [Int] = []
            while missingIndex < missing.count && missing[missingIndex] < end {
                runMissing.append(missing[missingIndex])
                missingIndex += 1
            }
            runs.append(FontRun(range: runStart..<end, face: pool[choice[i]].face, missing: runMissing))
            runStart = end
        }
        return runs
    }

    // MARK: Cluster choice

    /// Whether `family` names fonts that are bundled, in a `--font-dir` folder or installed.
    public func hasFamily(_ family: String) -> Bool {
        state.withLock { state in lookUp(family: family, weight: 400, italic: false, &state) != nil }
    }

    /// A face that may set a cluster, with its coverage (copied out of the lock).
    private struct Candidate: Sendable {
        var face: FontFace
        var coverage: FontCoverage
        /// Color glyphs (CBDT, sbix or COLR): an emoji font.
        var isColor: Bool
    }

    private func candidate(_ face: FontFace) -> Candidate {
        state.withLock { state in candidate(face, &state) }
    }

    private func candidate(_ face: FontFace, _ state: inout State) -> Candidate {
        Candidate(face: face, coverage: coverage(of: face, &state), isColor: state.isColor[face.fileKey] ?? false)
    }

    /// The ordered candidate faces for a family list and script.
    private func candidates(families: [String], weight: Int, italic: Bool, script: Script) -> [Candidate] {
        let key = CandidateKey(families: families, weight: weight, italic: italic, script: script)
        return state.withLock { state in
            if let cached = state.candidateCache[key] { return cached }
            loadPrimary(&state)
            var faces: [FontFace] = []
            for family in families {
                if let face = lookUp(family: family, weight: weight, italic: italic, &state), !faces.contains(face) {
                    faces.append(face)
                }
            }
            let fallbacks: [String]
            switch script.code {
            case "Arab": fallbacks = [Self.arabicFallback, Self.latinFallback, Self.hebrewFallback]
            case "Hebr": fallbacks = [Self.hebrewFallback, Self.latinFallback, Self.arabicFallback]
            default: fallbacks = [Self.latinFallback, Self.arabicFallback, Self.hebrewFallback]
            }
            for family in fallbacks {
                let found = Self.bestMatch(
                    state.bundledByFamily[Self.familyKey(family)] ?? [], weight: weight, italic: italic)
                if let face = found, !faces.contains(face) { faces.append(face) }
            }
            // Without the bundled fonts (`bundledFontsProblem`), Noto Sans or DejaVu Sans if the
            // `--font-dir` or system fonts have them, else their first family as `ranked` (a CJK
            // font's Latin is not meant for text); what it lacks is looked for as usual.
            if faces.isEmpty {
                if state.extra.isEmpty { loadSystem(&state) }
                let (pool, byFamily) =
                    state.extra.isEmpty ? (state.systemFaces, state.systemByFamily) : (state.extra, state.extraByFamily)
                let preferred = ["noto sans", "dejavu sans"].first { byFamily[$0] != nil }
                if let first = preferred.flatMap({ byFamily[$0]?.first })
                    ?? pool.first(where: { state.isColor[$0.fileKey] != true }),
                    let face = Self.bestMatch(byFamily[Self.familyKey(first.family)] ?? [], weight: weight, italic: italic)
                {
                    faces.append(face)
                }
            }
            let list = faces.map { candidate($0, &state) }
            state.candidateCache[key] = list
            return list
        }
    }

    private struct CandidateKey: Hashable {
        var families: [String]
        var weight: Int
        var italic: Bool
        var script: Script

        func hash(into hasher: inout Hasher) {
            var key = KeyHasher()
            key.combine(families.count)
            for family in families { key.combine(family) }
            key.combine(weight)
            key.combine(italic)
            key.combine(Int(script.index))
            hasher.combine(key.finalize())
        }
    }

    // MARK: State (always used under the lock)

    private struct State {
        var primaryLoaded = false
        /// Bundled + extra fonts, by lower-cased family name.
        var primaryByFamily: [String: [FontFace]] = [:]
        var bundledByFamily: [String: [FontFace]] = [:]
        var bundled: [FontFace] = []
        /// `--font-dir` fonts, in path order.
        var extra: [FontFace] = []
        /// The files of the bundled folder and of `--font-dir` that give no face, and why.
        var unusableBundled: [(path: String, reason: String)] = []
        var unusableExtra: [(path: String, reason: String)] = []
        /// Every font file of the bundled folder and of `--font-dir`, as the scans found them.
        var files: [String] = []
        var extraByFamily: [String: [FontFace]] = [:]
        /// System fonts, scanned on first need.
        var systemLoaded = false
        var systemByFamily: [String: [FontFace]] = [:]
        var systemFaces: [FontFace] = []
        /// Faces by their legacy family name (name ID 1) where it is not their family: of the
        /// bundled and `--font-dir` fonts, and of the system's. Made when a name is first not
        /// found as a family (reading every face's names at each start cost 12 million
        /// instructions with the system fonts).
        var primaryByLegacyName: [String: [FontFace]]?
        var systemByLegacyName: [String: [FontFace]]?
        var coverage: [FontFileKey: FontCoverage] = [:]
        /// Whether a face has color glyphs (CBDT, sbix, COLR), found when its folder is scanned.
        var isColor: [FontFileKey: Bool] = [:]
        var candidateCache: [CandidateKey: [Candidate]] = [:]
        /// The characters of a cluster (and whether it asks for an emoji) → the faces of the
        /// other bundled, `--font-dir` or system family that covers them ([]: none does).
        var otherFamily: [OtherKey: [FontFace]] = [:]
    }

    private struct OtherKey: Hashable {
        var scalars: [UInt32]
        var emoji: Bool
        var script: UInt8
    }

    private func loadPrimary(_ state: inout State) {
        guard !state.primaryLoaded else { return }
        state.primaryLoaded = true
        if let bundledDirectory {
            state.bundled = Self.scan(
                [bundledDirectory], recursive: false, color: &state.isColor, unusable: &state.unusableBundled,
                files: &state.files)
            for face in state.bundled { state.bundledByFamily[Self.familyKey(face.family), default: []].append(face) }
            state.primaryByFamily = state.bundledByFamily
        }
        // The user's fonts have their glyphs checked as they are shaped (`GlyphOutlineCheck`);
        // one whose missing-glyph box (.notdef), which its damaged glyphs are drawn as, cannot
        // be drawn gives no face. (Asked on a FreeType face closed at once: the shaper's check
        // of every font of a large `--font-dir`, made here, would hold a file open for each.)
        let extra = Self.scan(
            extraDirectories, recursive: true, color: &state.isColor, unusable: &state.unusableExtra, files: &state.files)
        var drawable: [FontFace] = []
        for face in extra {
            if GlyphOutlineCheck(path: face.path, index: face.index).isDamaged(0) {
                state.unusableExtra.append((face.path, "a damaged font: its missing-glyph box (.notdef) cannot be drawn"))
            } else {
                drawable.append(face)
            }
        }
        state.extra = Self.ranked(drawable)
        HarfBuzzFontCache.shared.checkGlyphs(of: state.extra)
        for face in state.extra {
            state.extraByFamily[Self.familyKey(face.family), default: []].append(face)
            state.primaryByFamily[Self.familyKey(face.family), default: []].append(face)
        }
    }

    private func loadSystem(_ state: inout State) {
        guard !state.systemLoaded else { return }
        state.systemLoaded = true
        var unusable: [(path: String, reason: String)] = []  // not the user's to fix
        var files: [String] = []  // not protected: read only when fallback needs them
        state.systemFaces = Self.ranked(
            Self.scan(
                Self.systemDirectories, recursive: true, color: &state.isColor, unusable: &unusable, files: &files,
                checksOutlines: false))
        for face in state.systemFaces { state.systemByFamily[Self.familyKey(face.family), default: []].append(face) }
    }

    /// The key of a family name in the indexes and in lookups: without the quotes family lists
    /// may have, CSS style ('Noto Sans', "Noto Sans Arabic"), in lower case, spaces inside it
    /// counting as one (a family named "Two  Spaces" and one asked for so meet).
    static func familyKey(_ name: String) -> String {
        // By byte for ASCII names, as nearly all are (by Character, the system fonts' names cost
        // millions of instructions).
        var key: [UInt8] = []
        key.reserveCapacity(name.utf8.count)
        var space = false
        for byte in name.utf8 {
            switch byte {
            case 0x80...:
                return name.trimming { $0 == "'" || $0 == "\"" || $0.isHorizontalSpace }.lowercased()
                    .split(whereSeparator: \.isHorizontalSpace).joined(separator: " ")
            case 0x20, 0x09:
                space = !key.isEmpty
            default:
                if space { key.append(0x20) }
                space = false
                key.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
        }
        func isEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == 0x20 }
        let start = key.firstIndex { !isEnd($0) } ?? key.endIndex
        let end = key.lastIndex { !isEnd($0) }.map { $0 + 1 } ?? start
        return String(decoding: key[start..<max(start, end)], as: UTF8.self)
    }

    private func lookUp(family: String, weight: Int, italic: Bool, _ state: inout State) -> FontFace? {
        loadPrimary(&state)
        let key = Self.familyKey(family)
        // CSS's generic families, as the last of a `font` list usually is ("Helvetica, Arial,
        // sans-serif" warned that 'sans-serif' was not found): the first family of theirs here.
        if let families = Self.genericFamilies[key] {
            for family in families {
                if let face = lookUp(family: family, weight: weight, italic: italic, &state) { return face }
            }
            return nil
        }
        // A family by its name, else by the legacy name of some of its faces (fc-list shows
        // both: "DejaVu Sans,DejaVu Sans Light"), bundled and `--font-dir` fonts first.
        if let faces = state.primaryByFamily[key] {
            let best = Self.bestMatch(faces, weight: weight, italic: italic)
            // `--font-dir` adds fonts: a style a family there lacks (its bold, its italic) is
            // taken from the installed family of that name when that has it (one face given
            // with --font-dir hid the others). Not for a nearby weight (a button's semibold from
            // a folder's bold, not from whatever the machine has), nor for bundled families,
            // the same everywhere.
            guard let best, abs(best.weight - weight) >= 200 || best.italic != italic, state.bundledByFamily[key] == nil
            else { return best }
            loadSystem(&state)
            return Self.bestMatch(faces + (state.systemByFamily[key] ?? []), weight: weight, italic: italic)
        }
        if state.primaryByLegacyName == nil { state.primaryByLegacyName = Self.legacyNames(state.bundled + state.extra) }
        if let faces = state.primaryByLegacyName?[key] { return Self.bestMatch(faces, weight: weight, italic: italic) }
        loadSystem(&state)
        // An installed face whose cmap maps nothing is none of its family's: named in `font`,
        // its family was found and its text silently took other fonts. (A face whose cmap has
        // no subtable to map by is damaged, `HarfBuzzFont.damage`; one whose subtables map
        // nothing is found out here, where its cmap is read anyway.)
        func mapping(_ faces: [FontFace]) -> [FontFace] { faces.filter { !coverage(of: $0, &state).isEmpty } }
        if let faces = state.systemByFamily[key].map(mapping), !faces.isEmpty {
            return Self.bestMatch(faces, weight: weight, italic: italic)
        }
        if state.systemByLegacyName == nil { state.systemByLegacyName = Self.legacyNames(state.systemFaces) }
        return Self.bestMatch(mapping(state.systemByLegacyName?[key] ?? []), weight: weight, italic: italic)
    }

    /// `faces` by their legacy family name (name ID 1), where it is not their family.
    private static func legacyNames(_ faces: [FontFace]) -> [String: [FontFace]] {
        var byName: [String: [FontFace]] = [:]
        for face in faces {
            guard let legacy = HarfBuzzFont(path: face.path, index: face.index).legacyFamilyName.map(familyKey),
                legacy != familyKey(face.family)
            else { continue }
            byName[legacy, default: []].append(face)
        }
        return byName
    }

    private func coverage(of face: FontFace) -> FontCoverage {
        state.withLock { state in coverage(of: face, &state) }
    }

    private func coverage(of face: FontFace, _ state: inout State) -> FontCoverage {
        let key = face.fileKey
        if let known = state.coverage[key] { return known }
        // A temporary font: scanning every system font's cmap must not keep them all open.
        let coverage = HarfBuzzFont(path: face.path, index: face.index).collectCoverage()
        state.coverage[key] = coverage
        return coverage
    }

    /// For a cluster neither the document's families nor the bundled fallbacks cover (`needed`:
    /// its characters that need a glyph): a face of the first family that covers them all, of
    /// the other bundled fonts (in path order), else of the `--font-dir` fonts, else of the
    /// system fonts (both as `ranked`), nearest to the weight and style asked for. For an emoji,
    /// only color fonts of `--font-dir` and the system (Noto Color Emoji, not the bundled
    /// Symbols 2's black-and-white faces nor DejaVu Sans's).
    private func otherFace(for needed: [UInt32], emoji: Bool, weight: Int, italic: Bool, script runScript: Script) -> FontFace? {
        // A control character is never drawn from a font that maps it (Noto Sans Symbols2 maps
        // them all): it stays a reported box (SPEC §3).
        guard !needed.isEmpty, !needed.contains(where: { Unicode.Scalar($0)?.generalCategory == .Cc }) else {
            return nil
        }
        return state.withLock { state in
            func coversAll(_ face: FontFace) -> Bool {
                let coverage = coverage(of: face, &state)
                return needed.allSatisfy(coverage.contains)
            }
            // The script the font is named for: the characters' own, else the run's (a Common
            // ॥ or 「 in Hindi or Japanese text).
            let script = needed.lazy.compactMap(Unicode.Scalar.init).map(\.script).first(where: \.isExplicit)
                ?? (runScript.isExplicit ? runScript : nil)
            let key = OtherKey(scalars: needed, emoji: emoji, script: script?.index ?? 0)
            let faces: [FontFace]
            if let known = state.otherFamily[key] {
                faces = known
            } else {
                loadPrimary(&state)
                var found: (face: FontFace, byFamily: [String: [FontFace]])?
                // Of the faces that cover the characters, one named after their script first
                // ("Noto Sans Tamil" for Tamil): Noto Sans Grantha, before it in path order, has
                // some Tamil letters and digits too, and took ப and வ out of Tamil words, in
                // regular weight among bold letters; Hindi's ॥ came from Noto Sans Bengali.
                // Names compared in lower case without spaces ("NKo" in "Noto Sans NKo", "Phags
                // Pa" in "Noto Sans PhagsPa"); not for Latin, which "Latin Modern" would take
                // from Noto Sans.
                func squeezed(_ name: String) -> String { name.lowercased().filter { $0 != " " } }
                let scriptName = script.flatMap { $0 == .latin ? nil : squeezed($0.name) } ?? ""
                func isNamedForScript(_ face: FontFace) -> Bool {
                    !scriptName.isEmpty && squeezed(face.family).contains(scriptName)
                }
                func look(in faces: [FontFace], _ byFamily: [String: [FontFace]], color: Bool = false) {
                    guard found == nil else { return }
                    func usable(_ face: FontFace) -> Bool { (!color || state.isColor[face.fileKey] == true) && coversAll(face) }
                    // (Coverage first: a hash lookup, where the name is made anew for each face;
                    // a character no font covers compared all 291 installed faces' names, 0.75 ms.)
                    let face = faces.first { usable($0) && isNamedForScript($0) } ?? faces.first(where: usable)
                    if let face { found = (face, byFamily) }
                }
                if emoji {
                    look(in: state.extra, state.extraByFamily, color: true)
                    if found == nil { loadSystem(&state) }
                    look(in: state.systemFaces, state.systemByFamily, color: true)
                } else {
                    // The bundled symbol and math fonts first, then `--font-dir`, then the
                    // system's: arrows, check marks and the minus sign look the same everywhere.
                    look(in: state.bundled, state.bundledByFamily)
                    look(in: state.extra, state.extraByFamily)
                    if found == nil { loadSystem(&state) }
                    look(in: state.systemFaces, state.systemByFamily)
                }
                faces = found.flatMap { $0.byFamily[Self.familyKey($0.face.family)] } ?? []
                state.otherFamily[key] = faces
            }
            let best = Self.bestMatch(faces.filter(coversAll), weight: weight, italic: italic)
            // A `--font-dir` family takes a style it lacks from the installed family of that
            // name, as one named in `font` does (`lookUp`): reached by fallback, a folder's
            // regular Georgian drew bold text regular, where the system's bold was there.
            guard let best, abs(best.weight - weight) >= 200 || best.italic != italic,
                let first = faces.first, state.extraByFamily[Self.familyKey(first.family)] != nil,
                state.bundledByFamily[Self.familyKey(first.family)] == nil
            else { return best }
            loadSystem(&state)
            let installed = state.systemByFamily[Self.familyKey(first.family)] ?? []
            return Self.bestMatch((faces + installed).filter(coversAll), weight: weight, italic: italic)
        }
    }

    /// `faces` in the order fallback tries them: families of the bundled fonts' design first
    /// (Noto Sans …), then other sans-serif families (a word "Sans" in the name), then the rest,
    /// each in path order. (By path alone, Noto Looped Thai came before Noto Sans Thai, and
    /// DejaVu Sans before Noto.)
    static func ranked(_ faces: [FontFace]) -> [FontFace] {
        func rank(_ face: FontFace) -> Int {
            let words = face.family.split(separator: " ")
            return words.starts(with: ["Noto", "Sans"]) ? 0 : words.contains("Sans") ? 1 : 2
        }
        return faces.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element), rank(b.element))
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Matching

    /// The face of one family for `weight` and `italic`: the style first, as CSS Fonts 4 §5.2
    /// matches, then the weight the family has nearest the one asked for (SPEC §3: "a weight
    /// that the chosen family lacks takes the nearest it has"), CSS's search order deciding
    /// between two as near. (CSS's order alone took Black for bold in a family of Regular,
    /// Semibold and Black, and Hairline for light in one of Hairline and Regular.)
    static func bestMatch(_ faces: [FontFace], weight: Int, italic: Bool) -> FontFace? {
        let sameStyle = faces.filter { $0.italic == italic }
        let pool = sameStyle.isEmpty ? faces : sameStyle
        let weights = Set(pool.map(\.weight))
        guard !weights.isEmpty else { return nil }
        let below = weights.filter { $0 < weight }.sorted(by: >)
        let above = weights.filter { $0 > weight }.sorted()
        // CSS's order: from 400 to 500, heavier up to 500 first, then lighter, then heavier;
        // below 400 lighter first, above 500 heavier first.
        let order: [Int] =
            if (400...500).contains(weight) {
                above.filter { $0 <= 500 } + below + above.filter { $0 > 500 }
            } else if weight < 400 {
                below + above
            } else {
                above + below
            }
        let nearest = order.enumerated().min { a, b in
            (abs(a.element - weight), a.offset) < (abs(b.element - weight), b.offset)
        }
        let chosen = weights.contains(weight) ? weight : nearest?.element ?? weight
        return pool.first { $0.weight == chosen }
    }

    // MARK: Scanning

    static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]
    /// Font files typeset reads and those it names unread: no output replaces one.
    static let fontFileExtensions = fontExtensions.union(["woff", "woff2"])

    /// Whether `path` is named as a font file is (`.ttf`, `.otf`, `.ttc`, `.otc`, `.woff`, `.woff2`).
    public static func isFontFileName(_ path: String) -> Bool {
        fontFileExtensions.contains(Path.fileExtension(path).lowercased())
    }
    private static let woffReason = "a WOFF font, which is not read (convert it to .ttf or .otf)"

    /// Every face of every font file in `directories`, sorted by path and index so that the
    /// result (and fallback order) does not depend on the file system's listing order; `color`
    /// learns whether each has color glyphs, and `unusable` gets the files that give no face,
    /// and why: WOFF and WOFF2 (not read), files HarfBuzz cannot read, fonts without a family
    /// name or glyphs, or without a table that every font has (each file is read once, for all).
    /// `files` gets every font file found, those too. `checksOutlines`: whether a font whose
    /// `loca` points outside its outlines is damaged (`HarfBuzzFont.damage`); not for the
    /// system's, a package's fonts, whose every outline it read (4 million instructions).
    static func scan(
        _ directories: [String], recursive: Bool, color: inout [FontFileKey: Bool],
        unusable: inout [(path: String, reason: String)], files found: inout [String],
        checksOutlines: Bool = true
    ) -> [FontFace] {
        var faces: [FontFace] = []
        let (paths, irregular) = files(in: directories, extensions: fontFileExtensions, recursive: recursive)
        found += paths
        // (Said, not opened: a pipe named x.ttf, a link to nothing or to itself were skipped
        // without a word.)
        unusable += irregular
        for path in paths {
            guard fontExtensions.contains(Path.fileExtension(path).lowercased()) else {
                unusable.append((path, woffReason))
                continue
            }
            let count = harfBuzzFaceCount(path: path)
            if count == 0 {
                // A file that cannot be opened says so, not that it is no font; a WOFF named
                // `.ttf` that it is one.
                let woff = readFile(path, limit: 4).map { $0 == Array("wOFF".utf8) || $0 == Array("wOF2".utf8) } == true
                unusable.append(
                    (path, unreadableReason(path).map { "cannot be read: \($0)" }
                        ?? (woff ? woffReason : "not a font file HarfBuzz can read")))
            }
            let found = faces.count
            var damage: String?
            for index in 0..<count {
                let font = HarfBuzzFont(path: path, index: index)
                guard font.isUsable, let family = font.familyName else { continue }
                if let problem = font.damage(checkingOutlines: checksOutlines) {
                    damage = problem
                    continue
                }
                let style = font.style
                let face = FontFace(
                    path: path, index: index, family: family, weight: style.weight, italic: style.italic,
                    fullName: font.fullName)
                color[face.fileKey] = font.hasColorGlyphs
                faces.append(face)
            }
            if count > 0, faces.count == found {
                unusable.append(
                    (path, damage.map { "a damaged font: \($0)" } ?? "no face of it has a family name and glyphs"))
            }
        }
        return faces
    }

    /// The regular files named with one of `extensions` in `directories` (and their subfolders
    /// when recursive, not through symbolic links to folders; unreadable folders are skipped),
    /// sorted, each once; and those so named that are no regular file nor folder, with why:
    /// opening a pipe named like a font waited forever.
    private static func files(
        in directories: [String], extensions: Set<String>, recursive: Bool
    ) -> (regular: [String], irregular: [(path: String, reason: String)]) {
        var paths: [String] = []
        var irregular: [String: String] = [:]
        func collect(_ folder: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = Path.join(folder, name)
                if extensions.contains(Path.fileExtension(name).lowercased()) {
                    if FileVersion(path: path) != nil {
                        paths.append(path)
                    } else if let failure = brokenLinkReason(path) {
                        irregular[path] = "a symbolic link that cannot be followed (\(failure))"
                    } else if !isFolder(path), FileManager.default.fileExists(atPath: path) {
                        irregular[path] = "not a regular file (a pipe, a socket or a device)"
                    }
                } else if recursive, isFolder(path) {
                    collect(path)
                }
            }
        }
        for directory in directories { collect(absolute(directory)) }
        return (Set(paths).sorted(), irregular.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}

/// A grapheme cluster (UAX #29 extended grapheme clusters, from `GraphemeBreaker`) and what it
/// asks of a font.
struct FontFallbackCluster {
    var range: Range<Int>
    /// Offset of the first character that needs a glyph and is not a mark; -1 if none.
    var base: Int
    /// The base's script (Inherited without a base).
    var script: Script
    /// White space, Common punctuation, and clusters with nothing to draw: they prefer a
    /// neighbour's font.
    var isNeutral: Bool
    /// An emoji (UTS #51 §4): a character of emoji presentation, or a sequence with VS16, a
    /// keycap, a skin tone, regional indicators or ZWJ; never with VS15 (text presentation).
    var wantsEmoji = false

    init(_ scalars: [Unicode.Scalar], _ range: Range<Int>) {
        self.range = range
        base = range.first { Self.needsGlyph(scalars[$0]) && !Self.isMark(scalars[$0]) } ?? -1
        guard base >= 0 else {
            script = .inherited
            isNeutral = true
            return
        }
        let scalar = scalars[base]
        script = scalar.script
        wantsEmoji = Self.isEmoji(scalars[range], base: scalar)
        switch scalar.generalCategory {
        case .Zs, .Zl, .Zp, .Pc, .Pd, .Ps, .Pe, .Pi, .Pf, .Po: isNeutral = !script.isExplicit && !wantsEmoji
        default: isNeutral = false
        }
    }

    /// Whether a cluster of base `base` is an emoji (UTS #51 §1.4): its base shown as emoji by
    /// default (Emoji_Presentation: faces, flags' regional indicators, ✅, ⭐, …), or a
    /// pictograph or keycap digit asking for it with VS16, the keycap mark, a skin tone or a
    /// ZWJ (❤️, 1️⃣, ☝🏽, 🕵‍♂); never with VS15, which asks for text (❤︎).
    static func isEmoji(_ cluster: ArraySlice<Unicode.Scalar>, base: Unicode.Scalar) -> Bool {
        let keycap = (0x30...0x39).contains(base.value) || base == "#" || base == "*"
        let presentation = base.isEmojiPresentation
        guard presentation || keycap || base.isExtendedPictographic, !cluster.contains("\u{FE0E}") else { return false }
        return presentation
            || cluster.contains { $0 == "\u{FE0F}" || $0 == "\u{20E3}" || $0 == "\u{200D}" || isSkinTone($0) }
    }

    /// Whether a character may make its cluster an emoji (`isEmoji`): VS16, the keycap mark, or
    /// a character of emoji presentation. All are from U+20E3 on: most text is answered by one
    /// comparison.
    @inline(__always)
    static func mayStartEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20E3 && (scalar.value == 0xFE0F || scalar.value == 0x20E3 || scalar.isEmojiPresentation)
    }

    /// Splits `scalars[range]` into extended grapheme clusters (UAX #29, `GraphemeBreaker`),
    /// and a cluster whose first character is no emoji before its first skin tone: a tone
    /// after a space or a letter is a swatch of its own (UTS #51 §2.4), drawn by a color font
    /// while the character before keeps its text font (it was a box in the space's font).
    static func split(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> [FontFallbackCluster] {
        let boundaries = GraphemeBreaker.boundaries(in: scalars, range: range)
        var clusters: [FontFallbackCluster] = []
        clusters.reserveCapacity(max(0, boundaries.count - 1))
        for k in boundaries.indices.dropLast() {
            var start = boundaries[k]
            let end = boundaries[k + 1]
            if end - start > 1, !scalars[start].isExtendedPictographic, !scalars[start].isEmojiPresentation,
                let tone = (start + 1..<end).first(where: { isSkinTone(scalars[$0]) })
            {
                clusters.append(FontFallbackCluster(scalars, start..<tone))
                start = tone
            }
            clusters.append(FontFallbackCluster(scalars, start..<end))
        }
        return clusters
    }

    /// An emoji modifier (U+1F3FB…1F3FF, Fitzpatrick skin tones).
    @inline(__always)
    static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool { (0x1F3FB...0x1F3FF).contains(scalar.value) }

    /// Whether a character needs a glyph of its own: not a Default_Ignorable_Code_Point
    /// (DerivedCoreProperties 15.0: bidi controls, ZWJ/ZWNJ, variation selectors, ...) nor a
    /// line break (LF, VT, FF, CR, NEL: they hang at the end of their line, not drawn). Other
    /// controls do: HarfBuzz draws them as missing-glyph boxes, which is said. So do the Hangul
    /// fillers, default ignorables that HarfBuzz does not hide (old Hangul is composed with
    /// them): without a font that has them they were boxes, and never said.
    static func needsGlyph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85: false
        case 0x115F, 0x1160, 0x3164, 0xFFA0: true
        default: !scalar.isDefaultIgnorable
        }
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.generalCategory {
        case .Mn, .Mc, .Me: return true
        default: return false
        }
    }
}
