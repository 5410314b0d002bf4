// Options shared by the commands that lay out markup (SPEC 5.1–5.3).
import FoundationEssentials
import Typeset

struct LayoutArguments {
    static let options: [OptionSpec] = [
        .value("locale", "Language of the strings to use; also sets the document's lang unless it pins one."),
        .repeated(
            "strings",
            "String catalog: .xcstrings, .strings or a JSON object of key → text (repeatable: an app's en.lproj, "
                + "ar.lproj, ... files)."),
        .value("text-size", "Dynamic Type size: xSmall, Small, Medium, Large, xLarge, xxLarge, xxxLarge, AX1…AX5 (default: Large)."),
        .repeated("font-dir", "Extra folder of fonts, searched before system fonts (repeatable)."),
        .repeated("assets", "Extra folder images may come from, searched for a src the document's folder lacks (repeatable)."),
    ]

    var locale: String?
    var strings: [String]
    var textSize: String?
    var fontDir: [String]
    var assets: [String]

    init(_ arguments: ParsedArguments) throws {
        locale = arguments.string("locale")
        strings = arguments.strings("strings")
        textSize = arguments.string("text-size")
        fontDir = arguments.strings("font-dir")
        assets = arguments.strings("assets")
        if let locale { try LayoutArguments.checkLocale(locale, option: "locale") }
        if let textSize, LayoutArguments.bodySize(textSize) == nil {
            throw UsageError("unknown --text-size '\(textSize)'; use one of \(LayoutArguments.textSizes.map(\.0).joined(separator: ", "))")
        }
        try checkFolders(fontDir, option: "font-dir")
        try checkFolders(assets, option: "assets")
        try LayoutArguments.checkCatalogs(strings)
    }

    /// A typesetter with the `--font-dir` folders, having said which files of those and of the
    /// bundled folder give no font (they are skipped), and protected every font file of them
    /// from the command's outputs (`ProtectedFiles`). The bundled and `--font-dir` fonts are
    /// read here, not when first needed, for that.
    static func typesetter(fontDirectories: [String], printingFontWarnings: Bool = true) -> Typesetter {
        let typesetter = Typesetter(fontDirectories: fontDirectories)
        if let problem = typesetter.bundledFontsProblem {
            writeStandardError(
                "typeset: warning: the bundled fonts are not all there (\(problem)); other fonts are used, "
                    + "and output differs from machine to machine\n")
        }
        if printingFontWarnings { printDiagnostics(fontWarnings(typesetter)) }
        // No output may replace a font the command reads: `-o Fonts/NotoSans-Regular.ttf`
        // wrote a PDF over it, with only a warning that the extension says TrueType.
        ProtectedFiles.protect(typesetter.fontFiles, as: "a font this command reads")
        return typesetter
    }

    /// A warning at each font file of the bundled folder and of `--font-dir` that gives no font.
    static func fontWarnings(_ typesetter: Typesetter) -> Diagnostics {
        var warnings = Diagnostics()
        for (path, reason) in typesetter.unusableFontFiles {
            warnings.report(.warning(SourceLocation(file: path, line: 1, column: 1), "\(reason); skipped"))
        }
        return warnings
    }

    /// A catalog that is not there is a mistyped option, as a missing --font-dir is (exit 2);
    /// one that is there but cannot be read is the catalog's located error.
    static func checkCatalogs(_ paths: [String]) throws {
        for strings in paths { try checkCatalog(strings) }
    }

    private static func checkCatalog(_ strings: String) throws {
        var isFolder = false
        if strings.isEmpty { throw UsageError("--strings needs a file") }
        if !FileManager.default.fileExists(atPath: strings, isDirectory: &isFolder) {
            throw UsageError("--strings '\(strings)' does not exist")
        }
        if isFolder { throw UsageError("--strings '\(strings)' is a folder, not a string catalog") }
        // A pipe (`--strings /dev/stdin`) or a device is refused as the markup's inputs are: one
        // could wait forever for a writer, the other never end. The option is wrong, not the file.
        if regularFileProblem(strings) == .notRegular {
            throw UsageError("--strings '\(strings)' is not a regular file (a pipe or a device); give a catalog's file")
        }
    }

    /// These options as they would be given again on a command line.
    var commandLine: [String] {
        var words: [String] = []
        if let locale { words += ["--locale", locale] }
        for file in strings { words += ["--strings", file] }
        if let textSize { words += ["--text-size", textSize] }
        for folder in fontDir { words += ["--font-dir", folder] }
        for folder in assets { words += ["--assets", folder] }
        return words
    }

    /// The folders, one inside the other, that keep `snapshot`'s references of a run with these
    /// options under `__snapshots__`: the locale's (`ar`, `zh-Hant`), then the text size's
    /// (`AX1`; none for Large, the default). A run without them uses `__snapshots__` itself
    /// (SPEC 5.6); with them, recording one locale or size leaves the others' references alone.
    var snapshotFolders: [String] {
        var folders: [String] = []
        if let locale { folders.append(LayoutArguments.normalizedLocale(locale)) }
        if let textSize, let name = LayoutArguments.textSize(named: textSize)?.name, name != "Large" {
            folders.append(name)
        }
        return folders
    }

    /// A locale must be a BCP 47 tag that can name a language (`ar`, `ar-EG`, `en_GB`).
    static func checkLocale(_ locale: String, option: String) throws {
        // Checked as written (`_` as `-`): normalized, `ar-` and `ar--EG` lost their empty
        // subtags and passed as `ar` and `ar-EG`, which the `lang` attribute rejects.
        let tag = normalizedLocale(locale)
        guard !tag.isEmpty, Language.isWellFormed(tag: locale.replacing("_", with: "-")) else {
            throw UsageError("--\(option) takes BCP 47 language tags such as ar or ar-EG; '\(locale)' is not one")
        }
        if let problem = Language.unassignedLanguageProblem(tag: tag) {
            throw UsageError("--\(option): '\(locale)' is no language tag: \(problem)")
        }
        // Digits asked for by a `-u-nu-` extension that typeset does not show, refused as
        // numerals="thai" is (they were passed over: `ar-u-nu-thai` showed Arabic-Indic digits).
        if let digits = Language.unshownDigits(of: tag) {
            throw UsageError(
                "--\(option): '\(locale)' asks for the digits '\(digits)', which typeset does not show (it shows \(NumberingSystem.namesShown))")
        }
    }

    /// Dynamic Type body sizes (SPEC 5.3).
    static let textSizes: [(String, Double)] = TextRole.dynamicTypeSizes.map { ($0.name, $0.body) }

    /// The text size `name` stands for (in any case), as the table spells it, with its body size.
    static func textSize(named name: String) -> (name: String, body: Double)? {
        textSizes.first { $0.0.lowercased() == name.lowercased() }.map { ($0.0, $0.1) }
    }

    static func bodySize(_ name: String) -> Double? { textSize(named: name)?.body }

    /// Apple's `en_GB` spelling of a locale, as BCP 47 writes it (`en-GB`), in the usual case
    /// (`AR_eg` was the document's lang `AR-eg` in the PDF, the SVG and a sheet's captions), and
    /// with the current code for a deprecated one (`iw` is `he`).
    static func normalizedLocale(_ locale: String) -> String {
        Language.canonical(tag: locale)
    }

    /// The settings every input of the run shares, with the catalog's warning printed. A string
    /// catalog that cannot be read is printed, handed to `failed`, and thrown as an `ExitCode`
    /// (1; `diff` makes it 2). `pngScale`: the scale of the PNG pages the run draws, if any. For
    /// the commands that draw pages: no layout report (`LayoutOptions.makesReport`).
    func settings(pngScale: Double? = nil) -> JobSettings {
        var (settings, warnings) = settingsAndWarnings()
        printCatalogWarnings(warnings)
        settings.pngScale = pngScale
        settings.layout.makesReport = false
        return settings
    }

    /// The settings, and the catalog's warnings (a key given twice, no strings for `--locale`),
    /// not printed; or, for a catalog that cannot be read, its error (`unreadableCatalog`: the
    /// documents that use a key fail, the command's status is that of a failed input).
    func settingsAndWarnings() -> (JobSettings, [Diagnostic]) {
        let locale = self.locale.map(LayoutArguments.normalizedLocale)
        var layout = LayoutOptions(locale: locale, bodySize: textSize.flatMap(LayoutArguments.bodySize))
        var warnings: [Diagnostic] = []
        if !strings.isEmpty {
            (layout.catalog, warnings, layout.unreadableCatalog) =
                loadCatalog(strings, locales: locale.map { [$0] } ?? [])
        }
        return (JobSettings(assetDirectories: assets, layout: layout), warnings)
    }
}

/// The catalog of the files at `paths` (`StringCatalog.merging`) and its warnings, with one for
/// each of `locales` it has no strings for; or nil, the errors of the files that cannot be
/// read and the first of them (the documents that use a key fail:
/// `LayoutOptions.unreadableCatalog`).
func loadCatalog(_ paths: [String], locales: [String]) -> (StringCatalog?, [Diagnostic], unreadable: String?) {
    var loaded: [(catalog: StringCatalog, path: String)] = []
    var errors: [Diagnostic] = []
    var unreadable: String?
    // (A file given twice is read once; paths compared as bytes, `Path.same`.)
    for (index, path) in paths.enumerated() where !paths[..<index].contains(where: { Path.same($0, path) }) {
        do {
            loaded.append((try StringCatalog.load(path: path), path))
        } catch {
            errors.append(error)
            unreadable = unreadable ?? path
        }
    }
    guard errors.isEmpty else { return (nil, errors, unreadable) }
    let catalog = StringCatalog.merging(loaded)
    let file = paths.first ?? ""
    return (
        catalog,
        catalog.warnings + locales.compactMap { noStringsWarning(catalog, locale: $0, file: file) }
            + locales.flatMap { catalog.pluralWarnings(locale: $0) },
        nil
    )
}

/// A catalog's warnings as a document's are printed: ten of one message, 200 lines in all (a
/// key given 160,000 times printed 159,999 lines).
func printCatalogWarnings(_ warnings: [Diagnostic]) {
    var diagnostics = Diagnostics()
    for warning in warnings { diagnostics.report(warning) }
    printDiagnostics(diagnostics)
}

/// The warning, at the catalog, when it has no strings for `locale`: every key would show the
/// source language's text, which a mockup of that locale is not meant to (a misspelt locale, a
/// language not translated yet).
func noStringsWarning(_ catalog: StringCatalog, locale: String, file: String) -> Diagnostic? {
    // Another region's strings in the language, where it has none of the locale's own: shown,
    // as iOS shows them, and said (`--locale pt-BR` showed pt-PT's, unsaid).
    if let standIn = catalog.standIn(for: locale) {
        return .warning(
            SourceLocation(file: file, line: 1, column: 1),
            "no strings for locale '\(locale)' (the catalog has \(catalog.writtenLanguages)); '\(standIn)' strings are shown")
    }
    guard !catalog.hasStrings(locale: locale) else { return nil }
    return .warning(
        SourceLocation(file: file, line: 1, column: 1),
        "no strings for locale '\(locale)' (the catalog has \(catalog.writtenLanguages)"
            + (catalog.otherScript(of: locale).map { "; " + $0 } ?? "") + "); "
            + "keys show the source language's text"
            + (catalog.sourceLanguage.map { " (\(Language.canonical(tag: $0)))" } ?? (catalog.hasBase ? " (Base.lproj's)" : ""))
            // (Mirrored: the interface is the locale's, as Xcode's right-to-left pseudolanguage
            // shows it, not what iOS shows for an app without the language.)
            + (mirrorsSourceText(locale, catalog.sourceLanguage)
                ? ", laid out right to left as '\(locale)' is (where a document does not pin its lang)" : ""))
}

/// Whether laying out `locale` mirrors text of `source` (nil: English): the locale is right to
/// left and the source language is not.
func mirrorsSourceText(_ locale: String, _ source: String?) -> Bool {
    Language.isRightToLeft(language: locale) && !Language.isRightToLeft(language: source ?? "en")
}

/// `--tolerance`, `--max-diff` and `--scale`: how `diff` and `snapshot` compare pixels.
struct ComparisonOptions {
    static func options(maxDiff: String, scale: String) -> [OptionSpec] {
        [
            .value("tolerance", "Channel difference (0–255) up to which pixels count as equal (default: 0)."),
            .value("max-diff", maxDiff + " (default: 0)."),
            .value("scale", scale),
        ]
    }

    var tolerance: Int
    /// The share of pixels allowed to differ, 0...1.
    var maxDiff: Double
    var scale: Double

    init(_ arguments: ParsedArguments) throws {
        tolerance = try arguments.int("tolerance") ?? 0
        if !(0...255).contains(tolerance) { throw UsageError("--tolerance must be between 0 and 255") }
        let written = arguments.string("max-diff") ?? "0"
        guard let share = parseShare(written) else {
            throw UsageError("--max-diff takes a share between 0 and 1 (0.001) or a percentage (0.1%)")
        }
        // A fraction above a tenth is more likely a percentage without its sign: `--max-diff 1`
        // let every pixel differ, and a check of another screen passed.
        let trimmed = written.trimmingWhitespace()
        if share > 0.1, !trimmed.hasSuffix("%") {
            throw UsageError(
                "--max-diff \(trimmed) would let \(Typeset.format(share * 100))% of the pixels differ "
                    + "(a number without '%' is a fraction: 0.01 is 1%); write \(trimmed)% for \(trimmed) percent, "
                    + "or a share above 10% with '%' (\(Typeset.format(share * 100))%)")
        }
        maxDiff = share
        scale = try arguments.scale()
    }
}

/// `word` as a POSIX shell reads it back: as it is when it holds nothing the shell treats
/// specially, else in single quotes.
func shellQuoted(_ word: String) -> String {
    let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_./,:=@%+-".unicodeScalars.contains(scalar)
    }
    return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
}
