// `typeset snapshot` (SPEC §5.6): visual regression tests of a folder of markup files against
// reference PNGs kept in its __snapshots__ folder.
import FoundationEssentials
import Glibc
import Typeset

struct Snapshot: Command {
    /// (1 is its verdict: what it printed not written is an error.)
    static let failedOutputStatus = ExitStatus.usage
    static let spec = CommandSpec(
        name: "snapshot",
        abstract: "Renders every markup file of a folder and compares it with its reference PNGs.",
        discussion: """
            Every *.xml file directly in DIR (sorted by name; hidden ones left out) is rendered to PNG at --scale and \
            compared with DIR/__snapshots__/NAME.png (further pages: NAME-2.png, ...). Each \
            failing page gets a diff image beside its reference, NAME.diff.png (NAME-2.diff.png, \
            ...): the reference faded to grey, differences in magenta (where the page grew or \
            shrank, what only one side has is pink). Subfolders are not looked into; a warning \
            names each that holds markup files (in it or up to three levels below it).

            With --locale or --text-size, the references are kept in a folder of their own \
            inside __snapshots__: ar/NAME.png for --locale ar, AX1/NAME.png for --text-size \
            AX1, ar/AX1/NAME.png for both (Large, the default size, has none). So one folder of \
            screens is checked in every locale and size, each against its own references.

            Prints a line per failure (a page that differs, with its figures and the path of its \
            diff image; a missing reference; a reference for a page the document no longer has; \
            a reference of no markup file; a markup error; a string catalog that cannot be read), \
            then exactly `N passed, N failed` (counting markup files, and each reference of no \
            markup file, and a catalog that cannot be read, as a failed one). Exit \
            status 0 when every file passed, 1 otherwise, 2 when the folder cannot be read or an \
            argument is wrong.

            --update renders every file and makes the output its references: writes new \
            references and those that differ (as --tolerance and --max-diff say), removes \
            references of pages that no longer exist, references no markup file uses, and diff \
            images.

            --junit FILE also writes the results as a JUnit XML report, for a CI system's test \
            view: a test case per markup file (and per reference of no markup file), each \
            failure with its lines.
            """,
        arguments: [PositionalSpec(name: "dir", help: "The folder of markup files.")],
        options: [
            .flag("update", "Write the references instead of comparing with them."),
            .value("junit", "Also write the results as a JUnit XML report (FILE, outside DIR)."),
        ]
            + ComparisonOptions.options(
                maxDiff: "Share of pixels allowed to differ per page: a fraction (0.001) or a percentage (0.1%)",
                scale: "PNG resolution as a multiple of 72 dpi (default: 2).")
            + [.value("jobs", "Files rendered at once (default: the number of cores).")] + LayoutArguments.options)

    var directory: String
    var update: Bool
    var comparison: ComparisonOptions
    var jobs: Int
    var layoutArguments: LayoutArguments
    /// `--junit`: where the JUnit XML report goes, if anywhere.
    var junit: String?

    init(_ arguments: ParsedArguments) throws {
        directory = arguments.positionals[0]
        update = arguments.flag("update")
        junit = arguments.string("junit")
        try refuseOverwritingMarkup(output: junit)
        // Named .xml in the folder, the next run would check it as a screen.
        if let junit, Self.isMarkupName(Path.lastComponent(junit)),
            Path.realPath(Path.folder(junit).isEmpty ? "." : Path.folder(junit)) == Path.realPath(directory)
        {
            throw UsageError(
                "the report '\(junit)' would be taken for a screen of '\(directory)'; write it outside the folder")
        }
        comparison = try ComparisonOptions(arguments)
        jobs = try arguments.jobs()
        layoutArguments = try LayoutArguments(arguments)
    }

    /// What happened to one markup file.
    private struct FileResult: Sendable {
        var diagnostics: Diagnostics
        /// Failure lines (or, with --update, what was written and removed).
        var lines: [String]
        var passed: Bool
    }

    /// Whether a file name is one of markup: `*.xml` (in any case), not hidden. (By its bytes,
    /// `Path`: `a\u{6DD}.xml`, a prepended mark before the dot, was no markup by Characters.)
    private static func isMarkupName(_ entry: String) -> Bool {
        !Path.isHidden(entry) && Path.fileExtension(entry).lowercased() == "xml"
    }

    /// Whether a folder's entry is looked into for markup: not hidden, nor the references.
    private static func isLookedInto(_ entry: String) -> Bool {
        !Path.isHidden(entry) && entry != "__snapshots__"
    }

    /// Screens kept in subfolders are not looked into (their references would be in each
    /// subfolder's own `__snapshots__`), and are said to be: a CI job passed having checked
    /// only the top folder's, or failed having checked nothing, without a word of them. Each
    /// subfolder holding markup files, in it or up to three folders down (links to folders
    /// followed at the top only, each folder once), is named: ten at most, then how many more.
    /// Each is looked through to 2,000 folders below it, level by level (an asset catalog's
    /// hundreds of folders came before the screens beside it), and all to 50,000: past that,
    /// only a subfolder's own files are counted.
    private func warnOfUncheckedSubfolders(_ entries: [String]) {
        /// The file type at `path`, a link followed.
        func kind(_ path: String) -> mode_t? {
            var info = stat()
            return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
        }
        var seen: Set<String> = Path.realPath(directory).map { [$0] } ?? []
        var budget = 50_000  // folders left to look into below the subfolders
        /// The markup files in `subfolder` and the folders below it, three levels down, level
        /// by level (a subfolder's own files always; 2,000 folders below it at most), and the
        /// folders that hold them.
        func markupFiles(in subfolder: String) -> (count: Int, holders: [String]) {
            var count = 0
            var holders: [String] = []
            var level = [subfolder]
            var local = 2_000
            for depth in 0...3 {
                var next: [String] = []
                for folder in level {
                    if depth > 0 {
                        guard local > 0, budget > 0 else { return (count, holders) }
                        local -= 1
                        budget -= 1
                    }
                    guard let real = Path.realPath(folder), seen.insert(real).inserted,
                        let inside = try? FileManager.default.contentsOfDirectory(atPath: folder)
                    else { continue }
                    let before = count
                    for entry in inside.sorted() where Self.isLookedInto(entry) {
                        let path = Path.join(folder, entry)
                        if isFolder(path) {  // (not a link to one)
                            next.append(path)
                        } else if Self.isMarkupName(entry) && kind(path) == S_IFREG {
                            count += 1
                        }
                    }
                    if count > before { holders.append(folder) }
                }
                level = next
            }
            return (count, holders)
        }
        var named = 0
        var more = 0
        for entry in entries.sorted() where Self.isLookedInto(entry) {
            let subfolder = Path.join(directory, entry)
            guard kind(subfolder) == S_IFDIR else { continue }
            let (markup, holders) = markupFiles(in: subfolder)
            guard markup > 0 else { continue }
            guard named < 10 else {
                more += 1
                continue
            }
            named += 1
            // The folders that hold them: run on 'screens' of 'screens/en/a.xml', it checked
            // nothing and failed.
            let shown = holders.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
                + (holders.count > 3 ? " and \(holders.count - 3) more folders" : "")
            writeStandardError(
                "typeset: warning: '\(subfolder)' holds \(markup) markup file\(markup == 1 ? "" : "s") not checked: "
                    + "snapshot checks the files directly in '\(directory)'; run it on \(shown) too\n")
        }
        if more > 0 {
            writeStandardError(
                "typeset: warning: and \(more) other subfolder\(more == 1 ? " holds" : "s hold") markup files not checked\n")
        }
    }

    func run() throws {
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder)
        guard isFolder, let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            // Why, as for --font-dir: a mistyped folder and a file are told apart.
            let why = !exists ? "it does not exist" : !isFolder ? "it is a file, not a folder" : "permission denied"
            printError("cannot read the folder '\(directory)': \(why)")
            throw ExitCode(ExitStatus.usage)
        }
        // Files only: a folder named `old.xml` is no markup file (it failed as one). Nor is a
        // hidden file, as a shell's `*.xml` leaves it out: an editor's lock (`.#screen.xml`) or
        // macOS's `._screen.xml` failed every run.
        let files = entries.filter { entry in
            var isFolder = false
            return Self.isMarkupName(entry)
                && !(FileManager.default.fileExists(atPath: Path.join(directory, entry), isDirectory: &isFolder) && isFolder)
        }.sorted()
        let inputs = files.map { Path.join(directory, $0) }
        warnOfUncheckedSubfolders(entries)
        ProtectedFiles.protect(inputs + layoutArguments.strings)
        let names = files.map { Path.stem($0) }
        if files.isEmpty {
            // A check of nothing fails: a CI job pointed at the wrong folder would pass. (An
            // update of nothing only removes the references left.)
            if update {
                writeStandardError("typeset: warning: no markup files (*.xml) in '\(directory)'\n")
            } else {
                printError("no markup files (*.xml) in '\(directory)': nothing to check")
            }
        }
        // A catalog that cannot be read fails the files that use a key, and the run.
        let settings = layoutArguments.settings(pngScale: comparison.scale)
        // The pictures every document shows, before any reference is written (protected as each
        // document was laid out, a picture was written over by a document before it, or not,
        // by the order of the jobs).
        let pictures = picturesInMarkup(inputs, assets: settings.assetDirectories, jobs: jobs).flatMap(\.images)
        ProtectedFiles.protect(pictures, as: "an image a document shows")
        let typesetter = LayoutArguments.typesetter(fontDirectories: layoutArguments.fontDir)
        // The folders down to the references': `__snapshots__`, then one per locale and size.
        let folders = (["__snapshots__"] + layoutArguments.snapshotFolders).reduce(into: [String]()) {
            $0.append(Path.join($0.last ?? directory, $1))
        }
        let folder = SnapshotFolder(path: folders[folders.count - 1])
        if let first = folder.leftoverTemporaries.first {
            let more = folder.leftoverTemporaries.count - 1
            let what = more == 0
                ? "looks like the temporary file of a run that was killed; remove it (it is no reference)"
                : "and \(more) other\(more == 1 ? "" : "s") look like temporary files of a run that was killed; remove them (they are no references)"
            writeStandardError("typeset: warning: '\(terminalSafe(first))' \(what)\n")
        }
        for file in folder.foreignDiffImages {
            writeStandardError(
                "typeset: warning: '\(terminalSafe(file))' is named as a diff image, but typeset did not write it: "
                    + "it is left as it is, never replaced nor removed; rename it\n")
        }
        // A file where one of them goes: every screen failed for want of a reference, with a
        // hint to record them that could not.
        for along in folders {
            var isFolder = false
            if FileManager.default.fileExists(atPath: along, isDirectory: &isFolder), !isFolder {
                printError("'\(along)' is a file, not a folder: the references go in a folder of that name; move the file")
                throw ExitCode(ExitStatus.usage)
            }
            // One that cannot be listed: every screen failed as having no reference, with a
            // hint to record them that could not either.
            if isFolder {
                guard let listing = opendir(along) else {
                    printError("cannot read the folder '\(along)' of the references: \(String(cString: strerror(errno)))")
                    throw ExitCode(ExitStatus.usage)
                }
                closedir(listing)
            }
        }
        let options = SnapshotOptions(
            scale: comparison.scale, tolerance: comparison.tolerance, maxDiff: comparison.maxDiff)
        let update = self.update
        let allNames = Set(names.map { Path.Key($0) })
        // `a.xml` and `a.XML` would share `a.png`: an update recorded one over the other, and the
        // next check failed one of them, which one by the order of the jobs. (By their bytes:
        // `String` equates the composed and decomposed `café`, two files and two references.)
        let sharing = Dictionary(grouping: files, by: { Array(Path.stem($0).utf8) }).filter { $0.value.count > 1 }

        let results = Batch(inputs: inputs, jobs: jobs).run({ input -> FileResult in
            let file = Path.lastComponent(input)
            let name = Path.stem(file)
            // Its reference, NAME.diff.png, would be taken for a diff image (and removed as one).
            if SnapshotFolder.isDiffImage(name + ".png") {
                return FileResult(
                    diagnostics: Diagnostics(),
                    lines: ["FAIL \(file): a markup file's name cannot end in '.diff' (its reference \(name).png "
                        + "would be taken for a diff image); rename it"], passed: false)
            }
            // A name that is not UTF-8 is listed with U+FFFD for its other bytes: no file has
            // that name ("it does not exist" was false).
            if file.unicodeScalars.contains("\u{FFFD}") && !FileManager.default.fileExists(atPath: input) {
                return FileResult(
                    diagnostics: Diagnostics(), lines: ["FAIL \(file): \(FileProblem.nameNotUTF8.reason)"], passed: false)
            }
            if let files = sharing[Array(name.utf8)] {
                let others = files.filter { !$0.utf8.elementsEqual(file.utf8) }.map { "'\($0)'" }.joined(separator: ", ")
                return FileResult(
                    diagnostics: Diagnostics(),
                    lines: ["FAIL \(file): its reference would be \(name).png, as would that of \(others); rename one of the files"],
                    passed: false)
            }
            let outcome = typesetter.layoutFile(input, settings: settings)
            guard let layout = outcome.layout, !outcome.failed else {
                if !update { folder.removeDiffImages(of: name, otherNames: allNames) }
                // The errors on standard error as every command gives them (FILE:LINE:COLUMN at
                // the start of a line, for CI's problem matchers), the FAIL line their count.
                let count = outcome.diagnostics.errors.count
                let reason = count == 0 ? "cannot be laid out" : "\(count) error\(count == 1 ? "" : "s") (given above)"
                return FileResult(diagnostics: outcome.diagnostics, lines: ["FAIL \(file): \(reason)"], passed: false)
            }
            do {
                // Every name as the others': the folder passes over `name` itself (a copy of the set
                // without it, for each document, took time growing with the square of their number).
                if update {
                    return Snapshot.record(
                        layout.pages, name: name, file: file, folder: folder, options: options,
                        others: allNames, diagnostics: outcome.diagnostics)
                }
                let check = try folder.check(pages: layout.pages, name: name, options: options, otherNames: allNames)
                return FileResult(
                    diagnostics: outcome.diagnostics, lines: failureLines(check, file: file),
                    passed: check.passed)
            } catch {
                if !update { folder.removeDiffImages(of: name, otherNames: allNames) }
                return FileResult(diagnostics: outcome.diagnostics, lines: ["FAIL \(file): \(error)"], passed: false)
            }
        }, report: { result in
            // Keeps diagnostics (standard error) next to their file's lines when both go to one log:
            flushStandardOutput()
            printDiagnostics(result.diagnostics)
            result.lines.forEach { print(terminalSafe($0)) }
            flushStandardOutput()
        })

        // Every file, reference of no file and unreadable catalog is a case: the counts printed
        // are the report's.
        var report = JUnitReport(suite: "snapshot " + directory)
        for (file, result) in zip(files, results) {
            let errors = result.diagnostics.errors.map(\.description)
            report.cases.append(.init(name: file, failure: result.passed ? nil : result.lines + errors))
        }
        for unused in folder.unusedReferences(names: allNames) {
            if update {
                do {
                    try FileManager.default.removeItem(atPath: unused)
                    print(terminalSafe("removed \(unused) (no markup file uses it)"))
                } catch {
                    printError("cannot remove \(unused): \(describeFileError(error))")
                }
            } else {
                // A screen whose markup is gone (renamed, moved, a bad checkout) fails, as a
                // page a document no longer has does: else a folder whose markup all went
                // missing would pass.
                let line = "FAIL \(unused): the reference of no markup file in '\(directory)' (--update removes it)"
                print(terminalSafe(line))
                report.cases.append(.init(name: unused, failure: [line]))
            }
        }
        // A diff image no markup file uses is no run's any more (its reference's FAIL line
        // above says what is wrong); removed, and said so by an update.
        for unused in folder.unusedDiffImages(names: allNames) {
            do {
                try FileManager.default.removeItem(atPath: unused)
                if update { print(terminalSafe("removed \(unused) (no markup file uses it)")) }
            } catch {
                // Not this run's file: the run's verdict stands.
                writeStandardError("typeset: warning: cannot remove \(unused): \(describeFileError(error))\n")
            }
        }
        // A catalog that cannot be read fails the run, as a reference of no markup file does,
        // however many screens use no key and passed.
        if let catalog = settings.layout.unreadableCatalog {
            print(terminalSafe("FAIL \(catalog): the string catalog cannot be read (given above)"))
            report.cases.append(.init(name: catalog, failure: ["the string catalog cannot be read"]))
        }
        let failed = report.failures
        print("\(report.cases.count - failed) passed, \(failed) failed")
        if let junit {
            if files.isEmpty && !update {
                report.cases.append(.init(name: directory, failure: ["no markup files (*.xml): nothing to check"]))
            }
            let made = try makeOutputFolder(Path.folder(junit))
            defer { removeEmptyFolders(made) }
            do {
                try report.write(to: junit)
            } catch {
                printError("\(error)")
                throw ExitCode(ExitStatus.usage)
            }
        }
        if failed > 0 || (files.isEmpty && !update) { throw ExitCode(ExitStatus.inputFailed) }
    }

    /// The command that records the references this run compares with, run as this one was (by
    /// its path: a bare `typeset` is a shell builtin in bash): the folder and every
    /// option that changes the pages. (Without the options, running it recorded references in
    /// another locale or size, and every later check failed.)
    private var updateCommand: String {
        // (A folder named like an option is given as a path.)
        var words = ["snapshot", directory.hasPrefix("-") ? "./" + directory : directory, "--update"]
        if comparison.scale != 2 { words += ["--scale", Typeset.format(comparison.scale)] }
        return ([TypesetCommand.invocation] + (words + layoutArguments.commandLine).map(shellQuoted)).joined(separator: " ")
    }

    /// The lines a failed check prints; none when it passed.
    private func failureLines(_ check: SnapshotCheck, file: String) -> [String] {
        var lines: [String] = []
        let several = check.pages.count + check.conflictingPages.count > 1
        for page in check.pages where !page.passed {
            let label = several || page.page > 1 ? "FAIL \(file) page \(page.page)" : "FAIL \(file)"
            var line: String
            if page.hasReference, let comparison = page.comparison {
                line = "\(label): \(comparison.description(a: "the reference", b: "the page", maxDiff: self.comparison.maxDiff))"
            } else {
                line = check.conflictingPages.isEmpty
                    ? "\(label): no reference \(page.reference) (run `\(updateCommand)` to record it)"
                    // `--update` records none of a document's pages while one would be another's.
                    : "\(label): no reference \(page.reference) (rename the files, then run `\(updateCommand)`)"
                if let comparison = page.comparison {
                    line += "; against a blank page, \(comparison.description(a: "the blank page", b: "the page"))"
                }
            }
            if let diffImage = page.diffImage { line += "; diff image: \(diffImage)" }
            if let problem = page.diffImageProblem { line += "; no diff image: \(problem)" }
            lines.append(line)
        }
        for page in check.conflictingPages {
            lines.append(
                "FAIL \(file) page \(page): its reference would be the first-page reference of \(check.name)-\(page).xml; rename one of the files"
            )
        }
        let pageCount = check.pages.count + check.conflictingPages.count
        for extra in check.extraReferences {
            lines.append(
                "FAIL \(file): \(extra) is the reference of a page the document no longer has (it has \(pageCount)); `--update` removes it"
            )
        }
        return lines
    }

    private static func record(
        _ pages: [Page], name: String, file: String, folder: SnapshotFolder, options: SnapshotOptions,
        others: Set<Path.Key>, diagnostics: Diagnostics
    ) -> FileResult {
        do {
            let record = try folder.record(pages: pages, name: name, options: options, otherNames: others)
            var lines = record.written.map { "recorded \($0)" } + record.removed.map { "removed \($0)" }
            lines += record.conflictingPages.map {
                "FAIL \(file) page \($0): its reference would be the first-page reference of \(name)-\($0).xml; rename one of the files"
            }
            return FileResult(diagnostics: diagnostics, lines: lines, passed: record.conflictingPages.isEmpty)
        } catch {
            return FileResult(diagnostics: diagnostics, lines: ["FAIL \(file): \(error)"], passed: false)
        }
    }
}
