// `typeset sheet` (SPEC 5.4): markup files laid out in several locales and text sizes, side by
// side on a comparison sheet, one row per input and one column per locale × text size.
import FoundationEssentials
import Typeset

struct Sheet: Command {
    static let spec = CommandSpec(
        name: "sheet",
        abstract: "Lays out markup files in several locales and text sizes side by side on a comparison sheet.",
        discussion: """
            One row per input, one column per locale × text size (locales first: with --locales \
            en,ar and --text-sizes Large,AX1 the columns are en Large, en AX1, ar Large, ar AX1). \
            Each cell is the document's first page, drawn as vectors and scaled to fit, with a \
            caption naming the file, locale and size. Large grids continue on further pages. An \
            input that fails is reported and its cells show the error; the others are drawn, and \
            the exit status is 1.
            """,
        arguments: [PositionalSpec(name: "inputs", help: "Markup files, one row each.", many: true)],
        options: [
            .value("output", short: "o", "The sheet: .pdf, .svg or .png (SVG and PNG: one file per sheet page)."),
            .value("format", "pdf, svg or png (default: from -o's extension)."),
            .value("scale", "PNG resolution as a multiple of 72 dpi (default: 2)."),
            .value("locales", "Comma-separated locales, one column each (default: each document's own language)."),
            .value("text-sizes", "Comma-separated Dynamic Type sizes (xSmall … AX5), one column each per locale (default: Large)."),
        ] + LayoutArguments.options.filter { ["strings", "font-dir", "assets"].contains($0.long) } + [
            .value("jobs", "Cells laid out, then SVG or PNG pages drawn, at once (default: the number of cores).")
        ])

    var inputs: [String]
    var output: String
    var format: OutputFormat?
    var scale: Double
    var locales: String?
    var textSizes: String?
    var strings: [String]
    var fontDir: [String]
    var assets: [String]
    var jobs: Int

    init(_ arguments: ParsedArguments) throws {
        inputs = arguments.positionals
        guard let output = arguments.string("output") else { throw UsageError("give the sheet's file with -o") }
        self.output = output
        format = try arguments.format("format")
        scale = try arguments.scale()
        locales = arguments.string("locales")
        textSizes = arguments.string("text-sizes")
        strings = arguments.strings("strings")
        fontDir = arguments.strings("font-dir")
        assets = arguments.strings("assets")
        jobs = try arguments.jobs()
        try validate()
    }

    /// `--locales` as a list; nil stands for each document's own language.
    private var localeList: [String?] {
        guard let locales else { return [nil] }
        return Sheet.list(locales).map { LayoutArguments.normalizedLocale($0) }
    }

    private var textSizeList: [(name: String, body: Double)] {
        Sheet.list(textSizes ?? "Large").compactMap(LayoutArguments.textSize(named:))
    }

    /// The error a cell shows, with its hint: at its line and column in the cell's document, or
    /// with the name of the file it is in when that is another (a catalog's entry read as a
    /// place in the document).
    static func cellError(_ error: Diagnostic, of input: String) -> String {
        let place = "\(error.location.line):\(error.location.column)"
        let file = error.location.file == input ? "" : Path.lastComponent(error.location.file) + ":"
        // With its hint, as on standard error: "did you mean 'title'?" is the fix.
        return "\(file)\(place): \(error.messageWithHint)"
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
    }

    private func validate() throws {
        if inputs.isEmpty { throw UsageError("give at least one markup file") }
        if format == nil, OutputFormat(path: output) == nil {
            throw UsageError(
                "cannot tell the format from '\(output)'; name it .pdf, .svg or .png, or give --format")
        }
        try checkOutput(file: output, folder: nil, oneFilePerInput: false)
        try LayoutArguments.checkCatalogs(strings)
        try refuseOverwriting(inputs: inputs + strings, outputs: [output])
        try checkFolders(fontDir, option: "font-dir")
        try checkFolders(assets, option: "assets")
        if let locales {
            for locale in Sheet.list(locales) { try LayoutArguments.checkLocale(locale, option: "locales") }
            try Sheet.refuseRepeats(Sheet.list(locales), as: LayoutArguments.normalizedLocale, option: "locales", noun: "locale")
        }
        if let textSizes {
            for name in Sheet.list(textSizes) where LayoutArguments.bodySize(name) == nil {
                throw UsageError(
                    "unknown text size '\(name)' in --text-sizes; use \(LayoutArguments.textSizes.map(\.0).joined(separator: ", "))"
                )
            }
            try Sheet.refuseRepeats(
                Sheet.list(textSizes), as: { LayoutArguments.textSize(named: $0)?.name ?? $0 }, option: "text-sizes", noun: "size")
        }
    }

    /// A locale or text size given twice (`en,ar,en`, `Large,large`, `he,iw`) made two columns
    /// alike, side by side, without a word: most likely a slip for another one.
    private static func refuseRepeats(_ items: [String], as key: (String) -> String, option: String, noun: String) throws {
        var seen: [String: String] = [:]
        for item in items {
            if let first = seen[key(item)] {
                let what = first == item ? "'\(item)' twice" : "one \(noun) twice: '\(first)' and '\(item)'"
                throw UsageError("--\(option) names \(what); the sheet has one column for each")
            }
            seen[key(item)] = item
        }
    }

    /// One column's settings.
    private struct Column: Sendable {
        var locale: String?
        var textSize: String
        var bodySize: Double
    }

    /// What laying out one cell gave.
    private struct CellResult: Sendable {
        var page: Page?
        var pageCount: Int
        var language: String
        var bodySize: Double
        var diagnostics: Diagnostics
    }

    /// The catalog, its warnings printed; or, when it cannot be read, its error printed and its
    /// path (the cells that use a key show their error, and the sheet fails).
    private func loadStrings() -> (catalog: StringCatalog?, unreadable: String?) {
        guard let first = strings.first else { return (nil, nil) }
        let (loaded, warnings, unreadable) = loadCatalog(strings, locales: localeList.compactMap { $0 })
        printCatalogWarnings(warnings)
        // A file of one language that does not say which serves every column alike: the
        // sheet showed the same strings under each locale, without a word.
        if let loaded, loaded.languages.isEmpty && localeList.count > 1 {
            let warning = Diagnostic.warning(
                SourceLocation(file: first, line: 1, column: 1),
                StringCatalog.namesNoLanguage + ": every column shows its strings, whatever its locale")
            writeStandardError(warning.description + "\n")
        }
        return (loaded, unreadable)
    }

    func run() throws {
        let (catalog, unreadableCatalog) = loadStrings()
        var columns: [Column] = []
        for locale in localeList {
            for size in textSizeList {
                columns.append(
                    Column(locale: locale, textSize: size.name, bodySize: size.body))
            }
        }
        let resolvedFormat = format ?? OutputFormat(path: output) ?? .pdf
        warnIfFormatDiffers(output, resolvedFormat)
        let typesetter = LayoutArguments.typesetter(fontDirectories: fontDir)
        try refuseOverwritingSources(output: output)

        // Each input is parsed once, then laid out once per column.
        let assets = self.assets
        let parsed = Batch(inputs: inputs, jobs: jobs).run { MarkupParser.parse(path: $0, assetDirectories: assets) }
        // Keys without a catalog, for locales: said once for the sheet, at the first, not once a
        // cell's locale. (Without locales, a key with text of its own is a note for later, and
        // one without is said in its document, as `render` says it.)
        let firstKeys = parsed.map { $0.document?.firstKeyLocation }
        let saysNoCatalogOnce = strings.isEmpty && localeList.contains { $0 != nil }
        let keyed = saysNoCatalogOnce ? firstKeys.compactMap { $0 } : []
        if let first = keyed.first {
            let others = keyed.count - 1
            let warning = Diagnostic.warning(
                first,
                "keys are not looked up: no string catalog was given; elements show their own text, or their key when "
                    + "they have none" + (others > 0 ? " (so do the keys of \(others) other input\(others == 1 ? "" : "s"))" : ""),
                hint: "give the catalog with --strings FILE")
            writeStandardError(warning.description + "\n")
        }
        let cellIndices = inputs.indices.flatMap { row in
            parsed[row].document == nil ? [] : columns.indices.map { (row, $0) }
        }
        let allColumns = columns
        let inputs = self.inputs
        let laidOut = Batch(items: cellIndices, jobs: jobs) { index in
            let column = allColumns[index.1]
            return
                "\(Path.lastComponent(inputs[index.0])) (\(column.locale ?? "own language"), \(column.textSize))"
        }.run { index -> CellResult in
            guard let document = parsed[index.0].document else {
                return CellResult(
                    page: nil, pageCount: 0, language: "", bodySize: allColumns[index.1].bodySize, diagnostics: Diagnostics())
            }
            let column = allColumns[index.1]
            var options = LayoutOptions(locale: column.locale, bodySize: column.bodySize, catalog: catalog, makesReport: false)
            options.unreadableCatalog = unreadableCatalog
            options.warnsOfNoCatalog = !saysNoCatalogOnce
            let result = typesetter.layout(document, options: options)
            // Only the first page is shown; the rest are let go at once to keep memory down.
            return CellResult(
                page: result.pages.first, pageCount: result.pages.count, language: result.language,
                bodySize: result.bodySize, diagnostics: result.diagnostics)
        }
        var results: [Int: [CellResult]] = [:]
        for (position, index) in cellIndices.enumerated() { results[index.0, default: []].append(laidOut[position]) }

        var rows: [[SheetCell]] = []
        var failed: [String] = []
        // Captions name the files without the folders they share: typed otherwise, or run from
        // another folder (another CI machine's checkout), the same sheet came out.
        let captions = Path.withoutCommonFolders(inputs, in: FileManager.default.currentDirectoryPath)
        for (row, input) in inputs.enumerated() {
            var diagnostics = parsed[row].diagnostics
            let seen = Set(diagnostics.items)
            // Each cell's diagnostics, once each, with the cells they came from.
            var cellDiagnostics: [(diagnostic: Diagnostic, cells: [String])] = []
            var indexOf: [Diagnostic: Int] = [:]  // where each is in `cellDiagnostics`
            var cells: [SheetCell] = []
            let cellResults = results[row] ?? []
            for (index, column) in columns.enumerated() {
                // The body size the cell is set in: the category's, scaled from the document's
                // own `font-size` as every size is (a document of 20 pt read "Large (17 pt)").
                let body = index < cellResults.count ? cellResults[index].bodySize : column.bodySize
                let size = "\(column.textSize) (\(Typeset.format((body * 10).rounded() / 10)) pt)"
                guard index < cellResults.count else {
                    // Parsing failed: every cell of the row shows the first error.
                    let error = parsed[row].diagnostics.errors.first.map { Sheet.cellError($0, of: input) }
                    cells.append(
                        SheetCell(
                            file: captions[row], locale: column.locale ?? "—", textSize: size, page: nil,
                            pageCount: 0, error: error))
                    continue
                }
                let result = cellResults[index]
                let cell = "\(column.locale ?? result.language) \(column.textSize)"
                for diagnostic in result.diagnostics.items where !seen.contains(diagnostic) {
                    if let k = indexOf[diagnostic] {
                        if cellDiagnostics[k].cells.last != cell { cellDiagnostics[k].cells.append(cell) }
                    } else {
                        indexOf[diagnostic] = cellDiagnostics.count
                        cellDiagnostics.append((diagnostic, [cell]))
                    }
                }
                let error = result.diagnostics.errors.first.map { Sheet.cellError($0, of: input) }
                // A column's locale that is not the cell's language, nor in its script (a document
                // of a `lang` of its own and no keys is the same in every column): captioned "en"
                // and "ar", two cells showed the same Hebrew, said only in the warning; an
                // `sr-Cyrl` screen was captioned `sr-Latn`. With keys, the column's strings are
                // shown in the pinned language's interface: said as such (a `lang="ar"` screen's
                // Hebrew strings were captioned "he (shown in ar)").
                // A locale the catalog has no strings for shows its keys' source text (its
                // warning says so once, at the catalog; the cell too).
                let untranslated = column.locale.map { catalog?.hasStrings(locale: $0) == false } ?? false
                let locale = column.locale.map { locale in
                    let noStrings = untranslated ? " (no strings)" : ""
                    if Language.sameLanguageAndScript(locale, result.language) { return locale + noStrings }
                    return firstKeys[row] != nil ? "\(locale) (lang=\(result.language) kept)\(noStrings)" : "\(locale) (shown in \(result.language))"
                }
                cells.append(
                    SheetCell(
                        file: captions[row], locale: locale ?? result.language, textSize: size,
                        page: error == nil ? result.page : nil, pageCount: result.pageCount, error: error))
            }
            // What only some cells say (a word broken at AX5 only, a key untranslated in one
            // locale) names them; what all say is said once.
            for (diagnostic, inCells) in cellDiagnostics {
                var said = diagnostic
                if inCells.count < cellResults.count { said.message += "; in \(inCells.joined(separator: ", "))" }
                diagnostics.report(said)
            }
            printDiagnostics(diagnostics)
            if diagnostics.hasErrors || parsed[row].document == nil { failed.append(input) }
            rows.append(cells)
        }

        var geometry = SheetOptions()
        geometry.columnGroup = textSizeList.count  // a locale's sizes on one sheet page
        let pages = SheetLayouter(typesetter: typesetter, options: geometry).layout(rows: rows)
        let made = try makeOutputFolder(Path.folder(output))
        defer { removeEmptyFolders(made) }
        // A sheet page over a picture an input shows, on any of its pages (a cell shows the
        // first): refused, with that input's error.
        let shown = parsed.map { Set(($0.document?.imagePaths ?? []).compactMap(Path.realPath)) }
        let pagePaths = resolvedFormat.outputPaths(for: output, pageCount: pages.count)
        if refusedOverPicture(pagePaths, inputs, shown, shownAt: { parsed[$0].document?.imageLocation($1) })
            || refusedOverNumberedScreen(pagePaths, output, folders(of: inputs))
        {
            throw ExitCode(ExitStatus.inputFailed)
        }
        let written: [String]
        do {
            written = try render(
                pages: pages, to: output,
                options: RenderOptions(
                    format: resolvedFormat, scale: scale, title: "Comparison sheet", language: "en", jobs: jobs))
        } catch {
            printError(outputError(error, output), at: output)
            // An earlier sheet left there looks current (as `render -o` says).
            warnOfStaleOutput(
                output, of: inputs, format: resolvedFormat, pictures: shown.reduce(into: []) { $0.formUnion($1) },
                writeFailed: true, catalogs: strings)
            throw ExitCode(ExitStatus.inputFailed)
        }
        let leftovers = resolvedFormat.leftoverPages(of: output, pageCount: pages.count, folders: folders(of: inputs))
        if let warning = leftoverWarning(leftovers, pageCount: pages.count, pictures: shown, of: "sheet", path: output) {
            writeStandardError("typeset: warning: \(warning)\n")
        }
        var line =
            "sheet of \(inputs.count) input\(inputs.count == 1 ? "" : "s") × \(columns.count) column\(columns.count == 1 ? "" : "s")"
        line += " on \(pages.count) page\(pages.count == 1 ? "" : "s"): \(written.joined(separator: ", "))"
        if !failed.isEmpty { line += "; failed: " + listed(failed) }
        if let unreadableCatalog { line += "; the string catalog '\(unreadableCatalog)' cannot be read" }
        writeStandardError(singleLine(line) + "\n")
        if !failed.isEmpty || unreadableCatalog != nil { throw ExitCode(ExitStatus.inputFailed) }
    }
}
