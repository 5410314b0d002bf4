// `typeset render` (SPEC 5.1) and `typeset layout` (SPEC 5.7).
import FoundationEssentials
import Glibc
import Typeset

struct Render: Command {
    static let spec = CommandSpec(
        name: "render",
        abstract: "Renders markup files to PDF, SVG or PNG.",
        discussion: """
            The format comes from -o's extension unless --format says. Several inputs with -o x.pdf \
            make one PDF; with --out-dir, one file per input (SVG and PNG: one file per page, \
            NAME-2.svg, ...). Without either, each output is written beside its input.
            """,
        arguments: [PositionalSpec(name: "inputs", help: "Markup files.", many: true)],
        options: [
            .value("output", short: "o", "One output file for all inputs."),
            .value("out-dir", "Folder for one output per input."),
            .value("format", "pdf, svg or png (default: from -o's extension; pdf without -o)."),
            .value("scale", "PNG resolution as a multiple of 72 dpi (default: 2)."),
            .value("jobs", "Inputs rendered at once; for a lone input or one -o file, SVG or PNG pages drawn at once (default: the number of cores)."),
            .value("shard", "Render only the K-th of N slices of the inputs, as K/N (for CI runners)."),
        ] + LayoutArguments.options)

    var inputs: [String]
    var output: String?
    var outDir: String?
    var format: OutputFormat?
    var scale: Double
    var jobs: Int
    var shard: Shard?
    var layoutArguments: LayoutArguments
    /// Without -o: each output, by the file it replaces (`written`, links followed), and the
    /// first input written there (over all inputs, so that every shard of a batch agrees).
    /// Files and inputs are told apart by their bytes (`Path.Key`): `café.xml` composed and
    /// decomposed, two files, were said to be written to one output, and both failed.
    var firstByFile: [Path.Key: String] = [:]
    /// Inputs whose outputs would be one file, and why: each fails, and the others are rendered.
    var clashes: [Path.Key: String] = [:]

    init(_ arguments: ParsedArguments) throws {
        inputs = arguments.positionals
        output = arguments.string("output")
        outDir = arguments.string("out-dir")
        format = try arguments.format("format")
        scale = try arguments.scale()
        jobs = try arguments.jobs()
        shard = try Shard.option(arguments)
        layoutArguments = try LayoutArguments(arguments)
        (clashes, inputs, firstByFile) = try validate()
    }

    /// Checks the options and outputs; returns `clashes`, the inputs, without files given again
    /// when each has its own output, and `firstByFile`.
    private func validate() throws -> (clashes: [Path.Key: String], inputs: [String], firstByFile: [Path.Key: String]) {
        if inputs.isEmpty { throw UsageError("give at least one markup file") }
        if output != nil && outDir != nil { throw UsageError("use either -o or --out-dir, not both") }
        try checkOutput(file: output, folder: outDir)
        if let output, format == nil, OutputFormat(path: output) == nil {
            throw UsageError("cannot tell the format from '\(output)'; name it .pdf, .svg or .png, or give --format")
        }
        // Each input's own output, without -o (worked out once for both checks below).
        let outputs = output == nil ? inputs.map { outputPath(for: $0, format: format ?? .pdf) } : []
        try refuseOverwriting(
            inputs: inputs + layoutArguments.strings, outputs: output.map { [$0] } ?? outputs)
        // Two inputs must never write one file (the second would silently replace the first):
        // both fail, and the rest of the batch is rendered (the whole batch was refused). One
        // file given twice is one input however it is spelt, rendered once (`a.xml ./a.xml` was
        // refused, and `a.xml a.xml` rendered twice, two jobs writing one file at once).
        // The same by the file each output replaces, links followed: `out/b.pdf` a link to
        // `a.pdf` put b's PDF in place of a's, whichever was written last.
        var firstByFile: [Path.Key: (input: String, path: String)] = [:]
        var clashes: [Path.Key: String] = [:]
        var kept: [String] = []
        // A file once for each output, the file known by its device and inode and the folder
        // it is read from (its pictures are found there: a link to it in another folder shows
        // others), the output by its path with `.`, `..` and repeated slashes resolved:
        // `a.xml`, `./a.xml` and `sub/../a.xml` were three inputs, rendered at once into one
        // file. (Inputs known by their spelling the same way, `nosuchdir/../a.xml` was `a.xml`,
        // dropped unreported though it names no file.) A link to a file, named otherwise, has
        // an output of its own.
        var seen: Set<Path.Key> = []
        func file(_ input: String) -> String? {
            var status = stat()
            guard stat(input, &status) == 0, let folder = Path.realPath(Path.folder(input).isEmpty ? "." : Path.folder(input))
            else { return nil }
            return "\(status.st_dev) \(status.st_ino) \(folder)"
        }
        for (input, path) in zip(inputs, outputs) {
            // A path that names no file fails on its own, and writes nothing another could clash
            // with. (Two such are two failures: names not in UTF-8 reach us alike.)
            guard let identity = file(input) else {
                kept.append(input)
                continue
            }
            // (A file given again after a clash is the same input too: known here. So is one
            // reached through a link to its folder, `real/a.xml alias/a.xml`, whose outputs are
            // one file: the two clashed.)
            let written = Self.written(path)
            let file = Path.Key(written)
            guard seen.insert(Path.Key(identity + "\0" + written)).inserted else { continue }
            if let (other, otherPath) = firstByFile[file] {
                // What is no markup (a folder, a screenshot) writes nothing either: it fails on
                // its own, and the markup beside it is rendered (`render screens/*` failed
                // `login.xml` as a clash with the folder of its pictures, `screens/login`).
                if !Self.mayBeMarkup(input) {
                    kept.append(input)
                    continue
                }
                if !Self.mayBeMarkup(other) {
                    firstByFile[file] = (input, path)
                    kept.append(input)
                    continue
                }
                // (Through a link: the other output's name, and which leads to it.)
                let message = "'\(other)' and '\(input)' would both be written to '\(otherPath)'"
                    + (Path.same(otherPath, path) ? "" : " ('\(path)' leads to '\(otherPath)')")
                    + "; rename one or render them separately"
                if clashes[Path.Key(other)] == nil { clashes[Path.Key(other)] = message }
                clashes[Path.Key(input)] = message
            } else {
                firstByFile[file] = (input, path)
            }
            kept.append(input)
        }
        return (clashes, output == nil ? kept : inputs, firstByFile.mapValues(\.input))
    }

    /// Whether `input` may be markup: a regular file that does not begin as an image or
    /// another binary file does (`MarkupParser.binaryKind`), which fails as one when read.
    private static func mayBeMarkup(_ input: String) -> Bool {
        guard let head = readFile(input, limit: 12) else { return false }
        return MarkupParser.binaryKind(of: head) == nil
    }

    /// Where an input's output goes without -o: `--out-dir` or the input's folder, named after the
    /// input with the format's extension.
    func outputPath(for input: String, format: OutputFormat) -> String {
        let folder = outDir ?? Path.folder(input)
        return Path.join(folder.isEmpty ? "." : folder, "\(Path.stem(input)).\(format.rawValue)")
    }

    func run() throws {
        let resolvedFormat = format ?? output.flatMap(OutputFormat.init(path:)) ?? .pdf
        let settings = layoutArguments.settings(pngScale: resolvedFormat == .png ? scale : nil)
        var selected = inputs
        if let shard { selected = shard.select(inputs) }
        if let output { warnIfFormatDiffers(output, resolvedFormat) }
        let typesetter = LayoutArguments.typesetter(fontDirectories: layoutArguments.fontDir)
        try refuseOverwritingSources(output: output)
        let batch = Batch(inputs: selected, jobs: jobs)
        // Missing folders are made, for -o as for --out-dir and `sheet -o`. One the system will
        // not make (said) fails every input, and the summary names them, as a failed write does.
        let made: [String]
        do {
            made = try (output.map(Path.folder) ?? outDir).map(makeOutputFolder) ?? []
        } catch is ExitCode {
            return try finish(total: selected.count, settings: settings, failed: selected)
        }
        defer { removeEmptyFolders(made) }

        if let output, resolvedFormat == .pdf {
            try renderOnePDF(selected, to: output, settings: settings, typesetter: typesetter)
            return
        }
        if let output {
            // One output: lay out every input, then render their pages together.
            let outcomes = batch.run(
                { typesetter.layoutFile($0, settings: settings) }, report: { printDiagnostics($0.diagnostics) })
            let layouts = outcomes.compactMap { $0.failed ? nil : $0.layout }
            var failed = outcomes.filter(\.failed).map(\.input)
            let pageCount = layouts.reduce(0) { $0 + $1.pages.count }
            let shown = outcomes.map { $0.failed ? [] : picturesShown(on: $0.layout?.pages ?? []) }
            // Refused whole: leaving out the input whose page it is would number the pages after
            // it again, onto the picture.
            if refusedOverPicture(
                resolvedFormat.outputPaths(for: output, pageCount: pageCount), selected, shown,
                shownAt: { pictureLocation($1, on: outcomes[$0].layout?.pages ?? []) })
            {
                try finish(total: selected.count, settings: settings, failed: selected)
                return
            }
            // Nor over the output of a screen numbered as a page (`render a.xml -o a.svg`
            // replaced a-2.xml's a-2.svg with its page 2), as one output per input refuses to.
            let inputFolders = folders(of: selected)
            var writeFailed = false
            if refusedOverNumberedScreen(resolvedFormat.outputPaths(for: output, pageCount: pageCount), output, inputFolders) {
                try finish(total: selected.count, settings: settings, failed: selected)
                return
            }
            if !layouts.isEmpty {
                var options = RenderOptions(
                    format: resolvedFormat, scale: scale, title: layouts.first?.title,
                    language: layouts.first?.language, jobs: jobs)
                // Each SVG file is a document: its page's own title and language (every page
                // had the first input's).
                options.pageDocuments = layouts.flatMap { layout in
                    Array(repeating: (layout.title, layout.language), count: layout.pages.count)
                }
                options.pageDrawn = ProgressLine.pages(of: Path.lastComponent(output))
                defer { if options.pageDrawn != nil { ProgressLine.clear() } }
                do {
                    let pages = layouts.flatMap(\.pages)
                    _ = try render(pages: pages, to: output, options: options)
                    let leftovers = resolvedFormat.leftoverPages(of: output, pageCount: pages.count, folders: inputFolders)
                    if let warning = leftoverWarning(leftovers, pageCount: pages.count, pictures: shown, path: output) {
                        writeStandardError("typeset: warning: \(warning)\n")
                    }
                } catch {
                    printError(outputError(error, output), at: output)
                    failed = selected
                    writeFailed = true
                }
            }
            if !selected.isEmpty && failed == selected {
                warnOfStaleOutput(
                    output, of: selected, format: resolvedFormat, pictures: shown.reduce(into: []) { $0.formUnion($1) },
                    writeFailed: writeFailed, catalogs: layoutArguments.strings)
            }
            try finish(total: selected.count, settings: settings, failed: failed)
            return
        }

        // One output per input, rendered as soon as it is laid out: memory stays flat. A later
        // page of a.xml, a-2.svg, must not replace the output of a-2.xml. The jobs draw the
        // inputs; a lone input's pages are drawn at once instead.
        let pictures = selected.count > 1 ? try shownPictures(selected, settings: settings, format: resolvedFormat) : nil
        let lone = selected.count == 1
        let pageJobs = lone ? jobs : 1
        // Each input's diagnostics, what the command says of its outputs (shown whatever the
        // diagnostics before them: `printDiagnostics`), and whether it was written (kept).
        let written = batch.run({ input -> (Diagnostics, [Diagnostic], Bool) in
            if let clash = clashes[Path.Key(input)] {
                var diagnostics = Diagnostics()
                diagnostics.report(.error(SourceLocation(file: input, line: 1, column: 1), clash))
                return (diagnostics, [], false)
            }
            let path = outputPath(for: input, format: resolvedFormat)
            /// A failure, and the output an earlier run left for the input (`staleOutputWarning`),
            /// but for a picture it shows.
            func failure(_ diagnostics: Diagnostics, shows pictures: Set<String> = [], writeFailed: Bool = false)
                -> (Diagnostics, [Diagnostic], Bool)
            {
                let warning = staleOutputWarning(
                    path, of: [input], format: resolvedFormat, kept: firstByFile, pictures: pictures,
                    writeFailed: writeFailed, catalogs: layoutArguments.strings)
                return (diagnostics, warning.map { [Diagnostic.warning(SourceLocation(file: input, line: 1, column: 1), $0)] } ?? [], false)
            }
            if let failed = pictures?.failed[Path.Key(input)] { return failure(failed) }
            var outcome = typesetter.layoutFile(input, settings: settings)
            guard let layout = outcome.layout, !outcome.failed else { return failure(outcome.diagnostics) }
            let paths = resolvedFormat.outputPaths(for: path, pageCount: layout.pages.count)
            for (index, page) in paths.enumerated().dropFirst() {
                // (Every first output is in `firstByFile`, by the file it replaces.)
                let file = Path.Key(Self.written(page))
                // (Or of a screen numbered so beside it, rendered alone: `login.xml` of two
                // pages replaced login-2.xml's login-2.png, as a batch of both refuses to.)
                let other = firstByFile[file].flatMap { Path.same($0, input) ? nil : $0 } ?? numberedScreen(of: page, beside: [Path.folder(input)])
                let viewer = pictures?.shownBy[file].flatMap { Path.same($0, input) ? nil : $0 }
                guard other != nil || viewer != nil else { continue }
                let whose = other.map { "the output of '\($0)'" } ?? viewer.map { "a picture '\($0)' shows" } ?? ""
                outcome.diagnostics.report(.error(
                    SourceLocation(file: input, line: 1, column: 1),
                    "page \(index + 1) would be written to '\(page)', \(whose); "
                        + "rename one of them, or name the output otherwise with -o"))
                return failure(outcome.diagnostics)
            }
            // A lone input's pages show their progress, as a batch's inputs do.
            var options = RenderOptions(
                format: resolvedFormat, scale: scale, title: layout.title, language: layout.language, jobs: pageJobs)
            if lone { options.pageDrawn = ProgressLine.pages(of: Path.lastComponent(input)) }
            defer { if options.pageDrawn != nil { ProgressLine.clear() } }
            do {
                _ = try render(pages: layout.pages, to: path, options: options)
                let leftovers = resolvedFormat.leftoverPages(
                    of: path, pageCount: layout.pages.count, kept: { firstByFile[Path.Key(Self.written($0))] != nil },
                    folders: [Path.folder(input)])
                let warning = leftoverWarning(
                    leftovers, pageCount: layout.pages.count, pictures: [picturesShown(on: layout.pages)], path: path)
                return (outcome.diagnostics, warning.map { [Diagnostic.warning(SourceLocation(file: input, line: 1, column: 1), $0)] } ?? [], true)
            } catch {
                let location = (error as? PictureOverwritten)?.location
                outcome.diagnostics.report(.error(
                    location ?? SourceLocation(file: input, line: 1, column: 1), outputError(error, path)))
                return failure(outcome.diagnostics, shows: picturesShown(on: layout.pages), writeFailed: true)
            }
        }, report: { printDiagnostics($0.0, notes: $0.1) }, keep: { $0.2 })
        try finish(total: selected.count, settings: settings, failed: zip(selected, written).filter { !$0.1 }.map(\.0))
    }

    /// The pictures the inputs of a batch show, read before any page is written, so that
    /// no page replaces one: `render a.xml b.xml --format png`, where a.xml shows b.png, put b's
    /// page in place of the picture, and a.png came out differently from run to run; so did an
    /// output that is a link to a picture, in any format. A page 1
    /// over a picture is a usage error here; a later page fails its input (the pictures are
    /// protected: a write through any link to one fails). An input that fails when read here fails the
    /// batch the same way (read again later, it could find another input's page in a picture's
    /// place). Only inputs with `<image` in them are parsed: a batch without pictures costs a read.
    private func shownPictures(_ inputs: [String], settings: JobSettings, format: OutputFormat) throws -> ShownPictures {
        let read = picturesInMarkup(inputs, assets: settings.assetDirectories, jobs: jobs)
        var pictures = ShownPictures()
        for (input, result) in zip(inputs, read) {
            if let failure = result.failure { pictures.failed[Path.Key(input)] = failure }
            for image in result.images where pictures.shownBy[Path.Key(image)] == nil { pictures.shownBy[Path.Key(image)] = input }
        }
        ProtectedFiles.protect(pictures.shownBy.keys.map(\.path).sorted(), as: "an image a document shows")
        for input in inputs {
            let output = outputPath(for: input, format: format)
            guard let viewer = pictures.shownBy[Path.Key(Self.written(output))], !Path.same(viewer, input) else { continue }
            throw UsageError(
                "'\(output)' is a picture '\(viewer)' shows, and '\(input)' would be written over it; "
                    + "render them in two steps, or write the pages to another folder (--out-dir)")
        }
        return pictures
    }

    /// Whether `bytes` hold `needle` (Foundation's `firstRange(of:)` on bytes went through
    /// generic witnesses: 5% of a PNG batch's instructions; glibc's memmem is not in Swift's Glibc).
    fileprivate static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { text in
            needle.withUnsafeBufferPointer { needle in
                guard let textBase = text.baseAddress, let needleBase = needle.baseAddress else { return false }
                for start in 0...(text.count - needle.count) where text[start] == first {
                    if memcmp(textBase + start, needleBase, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }

    private struct ShownPictures {
        /// Each picture (absolute, links resolved) and the first input that shows it.
        var shownBy: [Path.Key: String] = [:]
        /// The inputs that failed when read for their pictures, and why.
        var failed: [Path.Key: Diagnostics] = [:]
    }

    /// `path` as the markup gives its pictures: absolute, its folder's links resolved. In a
    /// folder not made yet (an `--out-dir` the render makes), the path it will have once made:
    /// its nearest folder that is there, resolved, and the rest (the outputs of a batch were
    /// known by `out/a-2.svg` before `out` was made and by `/…/out/a-2.svg` after, and page 2
    /// of a.xml was written over a-2.xml's output unsaid).
    private static func resolved(_ path: String) -> String {
        let folder = Path.folder(path)
        let name = Path.lastComponent(path)
        if let real = Path.realPath(folder.isEmpty ? "." : folder) { return Path.join(real, name) }
        guard !folder.isEmpty, folder != path else { return Path.join(folder, name) }
        let above = resolved(folder)
        switch name {
        case ".": return above
        case "..": return Path.folder(above)
        default:
            // (Past a `..` out of the part not made, a folder or link that is there: resolved.)
            let joined = Path.join(above, name)
            return Path.realPath(joined) ?? joined
        }
    }

    /// The file writing `path` replaces (`AtomicFileWriter.target`: through links, to files
    /// not there yet too), as `resolved` gives it.
    static func written(_ path: String) -> String {
        let target = AtomicFileWriter.target(of: path)
        return Path.realPath(target) ?? resolved(target)
    }

    /// Inputs laid out at once before their pages go into the PDF: enough to keep every job
    /// busy, few enough that memory does not grow with the number of inputs.
    private static let pdfChunk = 64

    /// All inputs into one PDF, streamed: inputs are laid out a chunk at a time (in parallel)
    /// and their pages drawn into the PDF in input order, so memory stays flat for any number
    /// of inputs. The PDF's title and language are those of the first input laid out.
    private func renderOnePDF(_ inputs: [String], to output: String, settings: JobSettings, typesetter: Typesetter)
        throws
    {
        var writer: PDFWriter?
        var failed: [String] = []
        var start = 0
        while start < inputs.count {
            let chunk = Array(inputs[start..<min(inputs.count, start + Self.pdfChunk)])
            let outcomes = Batch(inputs: chunk, jobs: jobs, progress: (done: start, total: inputs.count)).run(
                { typesetter.layoutFile($0, settings: settings) }, report: { printDiagnostics($0.diagnostics) })
            start += chunk.count
            failed += outcomes.filter(\.failed).map(\.input)
            let layouts = outcomes.compactMap { $0.failed ? nil : $0.layout }
            // The PDF over a picture an input shows: refused whichever inputs it would hold.
            let shown = outcomes.map { $0.failed ? [] : picturesShown(on: $0.layout?.pages ?? []) }
            if refusedOverPicture(
                [output], chunk, shown, shownAt: { pictureLocation($1, on: outcomes[$0].layout?.pages ?? []) })
            {
                writer = nil  // removes its temporary file (finish ends the command)
                try finish(total: inputs.count, settings: settings, failed: inputs)
                return
            }
            guard let first = layouts.first else { continue }
            do {
                if writer == nil {
                    writer = try PDFWriter(
                        path: output,
                        options: RenderOptions(
                            format: .pdf, scale: scale, title: first.title, language: first.language))
                }
                try writer?.add(layouts.flatMap(\.pages))
            } catch {
                printError(outputError(error, output), at: output)
                writer = nil  // removes its temporary file (finish ends the command)
                warnOfStaleOutput(
                    output, of: inputs, format: .pdf, writeFailed: true, catalogs: layoutArguments.strings)
                try finish(total: inputs.count, settings: settings, failed: inputs)
                return
            }
        }
        var writeFailed = false
        do {
            try writer?.finish()
        } catch {
            printError(outputError(error, output), at: output)
            failed = inputs
            writeFailed = true
        }
        if !inputs.isEmpty && failed == inputs {
            warnOfStaleOutput(
                output, of: inputs, format: .pdf, writeFailed: writeFailed, catalogs: layoutArguments.strings)
        }
        try finish(total: inputs.count, settings: settings, failed: failed)
    }

    /// Says how many inputs were rendered, and ends the command with exit status 1 when one
    /// failed (thrown, so that `run` cleans up: `removeEmptyFolders`).
    /// The summary line; the status of a failed input when an input failed, or the string
    /// catalog cannot be read (then only the documents that use no key were rendered).
    private func finish(total: Int, settings: JobSettings, failed: [String]) throws {
        let catalog = settings.layout.unreadableCatalog
        if total != 1 || !failed.isEmpty || catalog != nil {  // an empty shard says so too
            var line = "rendered \(total - failed.count) of \(total) input\(total == 1 ? "" : "s")"
            if !failed.isEmpty { line += "; failed: " + listed(failed) }
            if let catalog { line += "; the string catalog '\(catalog)' cannot be read" }
            writeStandardError(singleLine(line) + "\n")
        }
        if !failed.isEmpty || catalog != nil { throw ExitCode(ExitStatus.inputFailed) }
    }
}

/// The inputs that failed, as a summary line names them: the first ten, then how many more
/// (each has its error above; the single output of 2,000 inputs that could not be written made
/// a line of 36 KB).
func listed(_ failed: [String]) -> String {
    let shown = failed.prefix(10).joined(separator: ", ")
    return failed.count > 10 ? shown + " and \(failed.count - 10) more" : shown
}

/// The pictures each of `inputs` shows (`Document.imagePaths`: resolved paths), or the errors
/// of one that cannot be parsed. Only the markup that has an `<image` is parsed.
func picturesInMarkup(_ inputs: [String], assets: [String], jobs: Int) -> [(images: [String], failure: Diagnostics?)] {
    Batch(inputs: inputs, jobs: jobs, quiet: true).run { input -> (images: [String], failure: Diagnostics?) in
        guard let bytes = try? readRegularFile(input, limit: MarkupParser.maximumInputBytes),
            Render.contains(bytes, Array("<image".utf8))
        else { return ([], nil) }
        let parsed = MarkupParser.parse(bytes: bytes, file: input, assetDirectories: assets)
        guard let document = parsed.document, !parsed.diagnostics.hasErrors else { return ([], parsed.diagnostics) }
        return (document.imagePaths, nil)
    }
}

/// What to say of the page files an earlier render of more pages left (`OutputFormat.leftoverPages`):
/// a CI job that keeps every page file would take them for this render's.
/// (`pictures`: those the inputs show, by `picturesShown(on:)`; one is no page left from an
/// earlier render, whatever its name.) Pages of the output `path` that follow each other are
/// named from the first to the last; others are named each, up to three: those with a file of
/// the user's or another screen's output between them ("'x-2.png' to 'x-5.png'" took in
/// x-3.png), and diff images (no `path`: only failing pages have one, and "'a-3.diff.png' to
/// 'a-7.diff.png'" said nothing of the pages between).
func leftoverWarning(
    _ leftovers: [String], pageCount: Int, pictures: [Set<String>] = [], of run: String = "render", path: String? = nil
) -> String? {
    let pictures = pictures.reduce(into: Set<String>()) { $0.formUnion($1) }
    let leftovers = pictures.isEmpty ? leftovers : leftovers.filter { Path.realPath($0).map(pictures.contains) != true }
    guard let first = leftovers.first else { return nil }
    let consecutive = path.map { path in
        leftovers.enumerated().allSatisfy { $0.element == OutputFormat.pagePath(for: path, page: pageCount + 1 + $0.offset) }
    } ?? false
    let named: String
    if leftovers.count == 1 {
        named = "'\(first)'"
    } else if consecutive {
        named = "'\(first)' to '\(leftovers[leftovers.count - 1])'"
    } else {
        let quoted = leftovers.prefix(3).map { "'\($0)'" }
        named = leftovers.count > 3
            ? quoted.joined(separator: ", ") + " and \(leftovers.count - 3) more"
            : quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
    }
    return "\(named) \(leftovers.count > 1 ? "are" : "is") left from an earlier \(run) of more pages "
        + "(this one has \(pageCount) page\(pageCount == 1 ? "" : "s")); remove \(leftovers.count > 1 ? "them" : "it")"
}

/// What to say of the output an earlier run left at `path` (and its further pages, but the
/// files in `kept`: this run's other outputs, by `Render.written`) when this run writes
/// none there for `inputs`: it stands looking current, and a CI job that published the
/// outputs after a failed run shipped a page of the markup as it was before. Named, not
/// removed, as the leftover pages of a shorter document are (`leftoverWarning`); only when
/// one of the inputs, its string catalog or an image it names was changed after it was
/// written (or in the same tick), and only a file typeset wrote (`OutputFormat.isOurs`;
/// "remove it" named the picture `a.png` of an `a.xml` that could not be read), nor one an
/// input shows (`pictures`, resolved) or a picture protected as such.
func staleOutputWarning(
    _ path: String, of inputs: [String], format: OutputFormat, kept: [Path.Key: String] = [:], pictures: Set<String> = [],
    writeFailed: Bool = false, catalogs: [String] = []
) -> String? {
    func modified(_ path: String) -> timespec? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return status.st_mtim
    }
    guard let written = modified(path), ProtectedFiles.input(at: path) == nil,
        !pictures.contains(Render.written(path)), format.isOurs(path)
    else { return nil }
    func changed(_ file: String) -> Bool {
        modified(file).map { ($0.tv_sec, $0.tv_nsec) >= (written.tv_sec, written.tv_nsec) } == true
    }
    // Changed since it was written: the markup, the string catalog its text comes from (a
    // catalog's broken entry failed the input, and the page of the old strings stood unsaid),
    // or an image it shows, replaced or gone (a PNG replaced by a GIF failed it, and the page
    // stood unsaid).
    guard (inputs + catalogs).contains(where: changed)
        || inputs.contains(where: { MarkupParser.imageFiles(of: $0).contains { modified($0) == nil || changed($0) } })
    else { return nil }
    let more = format.leftoverPages(of: path, pageCount: 1, folders: folders(of: inputs)).count { page in
        kept[Path.Key(Render.written(page))] == nil && !pictures.contains(Render.written(page)) && ProtectedFiles.input(at: page) == nil
    }
    let named = more == 0 ? "'\(path)'" : "'\(path)' and \(more) more page\(more == 1 ? "" : "s") after it"
    let these = inputs.count == 1 ? "the input as it is" : "the inputs as they are"
    // After a failed write the inputs are fine: what to fix is the write (the error before says why).
    let fix = writeFailed ? "" : " or fix " + (inputs.count == 1 ? "the input" : "the inputs")
    return "\(named), from an earlier run, \(more == 0 ? "is" : "are") left as \(more == 0 ? "it was" : "they were"): "
        + "\(more == 0 ? "it does" : "they do") not show \(these) now; remove \(more == 0 ? "it" : "them")" + fix
}

/// `staleOutputWarning` for an output that none of the inputs made it into.
func warnOfStaleOutput(
    _ path: String, of inputs: [String], format: OutputFormat, pictures: Set<String> = [], writeFailed: Bool = false,
    catalogs: [String] = []
) {
    if let warning = staleOutputWarning(
        path, of: inputs, format: format, pictures: pictures, writeFailed: writeFailed, catalogs: catalogs)
    {
        writeStandardError("typeset: warning: \(warning)\n")
    }
}

/// Whether one of `outputs` (the files of one output for all of `inputs`) is a picture one of
/// them shows (`shown`, by input): then said as an error at its <image> (`shownAt`: where input
/// i shows a picture), and nothing is to be written.
func refusedOverPicture(
    _ outputs: [String], _ inputs: [String], _ shown: [Set<String>], shownAt: (Int, String) -> SourceLocation?
) -> Bool {
    guard let found = overwrittenPicture(outputs, shownBy: shown) else { return false }
    let error = PictureOverwritten(output: found.output, location: shownAt(found.shownBy, found.output))
    var diagnostics = Diagnostics()
    diagnostics.report(.error(error.location ?? SourceLocation(file: inputs[found.shownBy], line: 1, column: 1), "\(error)"))
    printDiagnostics(diagnostics)
    return true
}

/// Whether a page after the first of `output`, written to `pages`, would replace another
/// screen's output (`a-2.png`, beside `a-2.xml` in one of the inputs' `folders`): said, and
/// refused whole (`render a.xml -o a.svg` and a sheet's page 2 replaced a-2.xml's a-2.svg).
func refusedOverNumberedScreen(_ pages: [String], _ output: String, _ folders: [String]) -> Bool {
    for (index, page) in pages.enumerated().dropFirst() {
        guard let markup = numberedScreen(of: page, beside: folders) else { continue }
        printError(
            "page \(index + 1) of '\(output)' would be written to '\(page)', the output of '\(markup)'; "
                + "name the output otherwise (-o) or rename one of them")
        return true
    }
    return false
}

/// What went wrong writing `path`. A write error names the file itself ("cannot write PATH:
/// reason"); any other is put the same way.
func outputError(_ error: any Error, _ path: String) -> String {
    switch error {
    case RenderError.write, is PictureOverwritten: "\(error)"
    default: "cannot write \(path): \(error)"
    }
}

/// `-o x.pdf --format png` writes PNG into x.pdf, as SPEC 5.1 says (--format wins); said once,
/// since a viewer that goes by the extension will not open it.
func warnIfFormatDiffers(_ output: String, _ format: OutputFormat, because reason: String = "--format wins") {
    guard let named = OutputFormat(path: output) else {
        // An extension no format has (`diff --out x.jpg`).
        let ext = Path.fileExtension(output)
        if !ext.isEmpty {
            writeStandardError(
                "typeset: warning: writing \(format.rawValue.uppercased()) to '\(output)', whose extension says "
                    + "'.\(ext)' (\(reason))\n")
        }
        return
    }
    guard named != format else { return }
    writeStandardError(
        "typeset: warning: writing \(format.rawValue.uppercased()) to '\(output)', whose extension says "
            + "\(named.rawValue.uppercased()) (\(reason))\n")
}

extension OutputFormat {
    /// The format a file name's extension names.
    init?(path: String) {
        self.init(rawValue: Path.fileExtension(path).lowercased())
    }
}

/// `--shard K/N`: inputs whose position in the list is K-1 modulo N.
struct Shard {
    var index: Int
    var count: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        index = k - 1
        count = n
    }

    /// `--shard`'s value, if given; a usage error when it is not K/N.
    static func option(_ arguments: ParsedArguments) throws -> Shard? {
        try arguments.string("shard").map { text in
            guard let shard = Shard(text) else { throw UsageError("--shard takes K/N with 1 ≤ K ≤ N, e.g. 2/4") }
            return shard
        }
    }

    func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }
}

struct Layout: Command {
    static let spec = CommandSpec(
        name: "layout", abstract: "Prints the layout of a markup file as JSON (described in the README's Commands section).",
        discussion: """
            Takes render's options, so that one option list serves both commands. The layout is \
            in points: --format, --scale and --jobs are checked but change nothing. The JSON goes \
            to standard output.
            """,
        arguments: [PositionalSpec(name: "input", help: "A markup file.")],
        options: LayoutArguments.options + [
            .value("format", "pdf, svg or png (checked; the layout is the same for each)."),
            .value("scale", "PNG resolution (checked; the layout is in points)."),
            .value("jobs", "Inputs rendered at once (checked; layout reads one input)."),
            .value("shard", "A slice of the inputs, as K/N (checked; layout reads one input)."),
            .value("output", short: "o", "Not taken: the JSON goes to standard output."),
            .value("out-dir", "Not taken: the JSON goes to standard output."),
        ])

    var input: String
    var layoutArguments: LayoutArguments

    init(_ arguments: ParsedArguments) throws {
        input = arguments.positionals[0]
        layoutArguments = try LayoutArguments(arguments)
        _ = try arguments.format("format")
        _ = try arguments.scale()
        _ = try arguments.jobs()
        _ = try Shard.option(arguments)
        if let path = arguments.string("output") ?? arguments.string("out-dir") {
            throw UsageError("layout prints its JSON to standard output; redirect it (> \(path)) instead")
        }
    }

    func run() throws {
        // A catalog that cannot be read: its error is in the JSON, and a document that uses
        // a key fails.
        let (settings, warnings) = layoutArguments.settingsAndWarnings()
        let typesetter = LayoutArguments.typesetter(fontDirectories: layoutArguments.fontDir, printingFontWarnings: false)
        let outcome = typesetter.layoutFile(input, settings: settings)
        // The catalog's and the fonts' warnings are the document's too: the JSON holds every
        // diagnostic.
        var diagnostics = LayoutArguments.fontWarnings(typesetter)
        for warning in warnings { diagnostics.report(warning) }
        diagnostics.append(contentsOf: outcome.diagnostics)
        printDiagnostics(diagnostics)
        // A document that failed has no pages, whatever stage it failed at (a markup error gave
        // none, a row too narrow for its gaps a page).
        let failed = outcome.failed
        var full = failed ? LayoutReport(diagnostics: [], pages: []) : outcome.layout?.report ?? LayoutReport(diagnostics: [], pages: [])
        // Said on standard error already (`typesetter`), and in the JSON at their folder: a CI
        // reading it learns that the output differs from machine to machine.
        let bundled = typesetter.bundledFontsProblem.map { problem in
            Diagnostic.warning(
                SourceLocation(file: typesetter.bundledFontDirectory ?? "", line: 1, column: 1),
                "the bundled fonts are not all there (\(problem)); other fonts are used, and output differs from machine to machine")
        }
        full.diagnostics = (bundled.map { [$0] } ?? []) + diagnostics.items
        try writeStandardOutput(full.writeJSON)
        if failed || settings.layout.unreadableCatalog != nil { throw ExitCode(ExitStatus.inputFailed) }
    }
}
