// `typeset diff` (SPEC §5.5): compares two PNG images or markup files pixel by pixel.
import FoundationEssentials
import Typeset

struct Diff: Command {
    /// (1 is its verdict: what it printed not written is an error.)
    static let failedOutputStatus = ExitStatus.usage
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Compares two PNG images or markup files pixel by pixel.",
        discussion: """
            A and B are PNG files or markup files; markup is rendered to PNG at --scale with the \
            layout options given, every page of it. Pages are compared in order: page 1 of A with \
            page 1 of B, and so on; a different number of pages is a difference, and so are \
            pages of different size. A page only one side has is compared with a blank page \
            of its background, so that its diff image shows what is on it.

            Prints, per page, the number and share of differing pixels, the largest channel \
            difference and the box around the differences, then the verdict: identical, within \
            tolerance, or different.

            The diff image shows A faded to grey with every differing pixel in magenta. With \
            --out it is always written (pages after the first as DIFF-2.png, ...); without it, \
            only for pages that differ, beside A as NAME.diff.png (NAME-2.diff.png, ...), and \
            one an earlier run left there for a page that no longer differs is removed.

            Exit status: 0 within tolerance, 1 different, 2 error (unreadable input, markup \
            errors, bad arguments).
            """,
        arguments: [
            PositionalSpec(name: "a", help: "The first image or markup file (the reference)."),
            PositionalSpec(name: "b", help: "The second image or markup file."),
        ],
        options: [.value("out", "Where to write the diff image.")] + ComparisonOptions.options(
            maxDiff: "Share of pixels allowed to differ: a fraction (0.001) or a percentage (0.1%)",
            scale: "PNG resolution for markup inputs, as a multiple of 72 dpi (default: 2).")
            + LayoutArguments.options)

    var a: String
    var b: String
    var out: String?
    var comparison: ComparisonOptions
    var layoutArguments: LayoutArguments

    init(_ arguments: ParsedArguments) throws {
        a = arguments.positionals[0]
        b = arguments.positionals[1]
        out = arguments.string("out")
        // Refused before any page is drawn, as render's -o is ("cannot write o/" came after).
        try checkOutput(file: out, folder: nil, oneFilePerInput: false, option: "--out")
        comparison = try ComparisonOptions(arguments)
        layoutArguments = try LayoutArguments(arguments)
    }

    var tolerance: Int { comparison.tolerance }
    var scale: Double { comparison.scale }

    func run() throws {
        ProtectedFiles.protect([a, b] + layoutArguments.strings)
        try refuseOverwritingMarkup(output: out)
        let maxShare = comparison.maxDiff
        let settings = layoutArguments.settings(pngScale: scale)
        // A broken string catalog: settings() has printed why.
        if settings.layout.unreadableCatalog != nil { throw ExitCode(ExitStatus.usage) }
        if let out { warnIfFormatDiffers(out, .png, because: "the diff image is always PNG") }
        let pagesA: ComparedPages
        let pagesB: ComparedPages
        do {
            let renderer = MarkupRenderer(
                fontDirectories: layoutArguments.fontDir, settings: settings, scale: scale)
            // Both inputs are tried, so that the errors of both are told at once; one file given
            // twice, however it is spelt, tells its errors and warnings once.
            let same = resolvedPath(self.a) == resolvedPath(self.b)
            let a = Result { try renderer.pages(of: self.a) }
            let b = Result { try renderer.pages(of: self.b, printingWarnings: !same) }
            for case .failure(let failure as DiffInputFailure) in same ? [a] : [a, b] {
                printDiagnostics(failure.diagnostics)
            }
            (pagesA, pagesB) = (try a.get(), try b.get())
        } catch {
            throw ExitCode(ExitStatus.usage)
        }

        let common = min(pagesA.count, pagesB.count)
        let pageCount = max(pagesA.count, pagesB.count)
        let diffPaths = diffImagePaths(pageCount: pageCount)
        // Before any comparison: a diff image must never replace an input (the markup, the
        // PNGs, the string catalog) or a picture the markup shows (it did, without a word).
        let pictures = pagesA.shownPictures.union(pagesB.shownPictures)
        ProtectedFiles.protect(pictures.sorted(), as: "an image a document shows")
        let inputs = Set(([a, b] + layoutArguments.strings).map(resolvedPath))
        for path in diffPaths {
            let resolved = resolvedPath(path)
            guard inputs.contains(resolved) || pictures.contains(resolved) else { continue }
            let what = inputs.contains(resolved) ? "an input" : "an image the markup shows"
            printError("the diff image \(path) would overwrite \(what); name another with --out")
            throw ExitCode(ExitStatus.usage)
        }
        var different = pagesA.count != pagesB.count
        var identical = !different
        var written = Set<Int>()
        var images: [DiffImage] = []  // written together at the end: all or none
        var blocked = Set<Int>()  // pages whose diff image cannot be written (`mayWrite`): then none is
        // Page K's diff image, not written where it may be another comparison's (comparing
        // login.xml wrote its page 2 over login-2.xml's login-2.diff.png), said instead.
        func mayWrite(_ index: Int, _ path: String, _ prefix: String) -> Bool {
            // Beside A, and `--out`'s pages after the first, which the user did not name; the
            // file `--out` names is written as `render -o` writes.
            if out == nil || index > 0, let problem = ImageDiff.unwritableProblem(path) {
                print(prefix + "no diff image: \(problem) (\(out == nil ? "give --out" : "name --out otherwise"))")
                blocked.insert(index)
                return false
            }
            // (A's own page K, `NAME-K.png` beside the markup as `render` writes it, makes no
            // other comparison: its diff image was refused, and no page after the first of a
            // rendered document had one. A screenshot of the user's so named still does.)
            guard index > 0, isAnotherInputsDiffImage(path, pngsAreItsPages: out == nil && index < pagesA.count) else { return true }
            print(prefix + "no diff image: \(path) may be another comparison's (\(out == nil ? "give --out" : "name --out otherwise"))")
            // Blocked as an unwritable one is: the other pages' images beside it looked like one
            // set with it (login.diff.png, login-2.diff.png of login-2.xml, login-3.diff.png).
            blocked.insert(index)
            return false
        }
        for index in 0..<pageCount {
            let prefix = pageCount > 1 ? "page \(index + 1): " : ""
            let path = diffPaths[index]
            do {
                guard index < common else {
                    // A page only one side has is a difference, shown against a blank page.
                    let pageIsA = index < pagesA.count
                    let comparison = try ImageDiff.compare(
                        lonePage: index, of: pageIsA ? pagesA : pagesB, pageIsA: pageIsA, tolerance: tolerance)
                    print(prefix + "only in \(pageIsA ? "A" : "B"); against a blank page, \(comparison.result.description)")
                    if mayWrite(index, path, prefix) {
                        images.append(try comparison.diffImage(for: path))
                        written.insert(index)
                    }
                    continue
                }
                let comparison = try ImageDiff.compare(page: index, of: pagesA, pagesB, tolerance: tolerance)
                let result = comparison.result
                // The counts first: they stand even if the diff image cannot be written.
                print(prefix + result.description(a: "A", b: "B", maxDiff: maxShare))
                if result.diffImageIsTooLarge {
                    print("no diff image: it would be \(result.width) × \(result.height) pixels")
                } else if (out != nil || !result.passes(maxDiff: maxShare)) && mayWrite(index, path, prefix) {
                    images.append(try comparison.diffImage(for: path))
                    written.insert(index)
                }
                different = different || !result.passes(maxDiff: maxShare)
                identical = identical && result.matches && result.maxChannelDifference == 0
            } catch let error as ImageDiffError {
                // At the file, as every other error of an input is reported.
                guard let (path, message) = error.inputProblem else {
                    printDiffError(error)
                    throw ExitCode(ExitStatus.usage)
                }
                var diagnostics = Diagnostics()
                diagnostics.report(.error(SourceLocation(file: path, line: 1, column: 1), message))
                printDiagnostics(diagnostics)
                throw ExitCode(ExitStatus.usage)
            } catch {
                printError("\(error)")
                throw ExitCode(ExitStatus.usage)
            }
        }
        // The verdict stands even if the diff images cannot be written (a read-only folder):
        // printed before that error, which makes the exit status 2.
        func printVerdict() {
            if pagesA.count != pagesB.count {
                print("A has \(pagesA.count) page\(pagesA.count == 1 ? "" : "s"), B has \(pagesB.count)")
            }
            print(identical ? "identical" : different ? "different" : "within tolerance")
        }
        // A comparison's diff images are all or none, as `snapshot` writes a document's.
        if !blocked.isEmpty {
            for image in images { print("no diff image: \(image.path), since another page's cannot be written") }
            images = []
            written = []
        }
        do {
            for image in images { try makeFolder(of: image.path) }  // as render and sheet make theirs
            try ImageDiff.write(images)
        } catch {
            printVerdict()
            printDiffError(error)
            throw ExitCode(ExitStatus.usage)
        }
        for image in images { print("diff image: \(image.path)") }
        if out == nil { removeEarlierDiffImages(keeping: written.union(blocked), pageCount: pageCount, inputs: inputs) }
        if let warning = leftoverWarning(
            leftoverDiffImages(pageCount: pageCount, pictures: pictures), pageCount: max(pageCount, 1), of: "comparison")
        {
            writeStandardError("typeset: warning: \(warning)\n")
        }
        printVerdict()
        if different { throw ExitCode(ExitStatus.inputFailed) }
    }

    /// An error of the diff image (at its file) or another.
    private func printDiffError(_ error: any Error) {
        if case .write(let path, _)? = error as? ImageDiffError { printError("\(error)", at: path) } else { printError("\(error)") }
    }

    /// Makes the folder of the diff image at `path` where missing.
    private func makeFolder(of path: String) throws {
        if let problem = Path.makeFolder(Path.folder(path)) {
            throw ImageDiffError.write(path: path, reason: "cannot make its folder: \(problem)")
        }
    }

    /// Removes the diff images beside A of the pages this run compared and wrote none for:
    /// files only, never an input. (Not those of pages past the last: `NAME-3.diff.png` may be
    /// the diff image of an input named `NAME-3`; nor, for that reason, page 3's when there is
    /// such an input: comparing login.xml removed login-2.xml's.) Only one typeset wrote: a
    /// file of the user's so named was removed; one of an older typeset, without its mark, is
    /// named instead.
    private func removeEarlierDiffImages(keeping written: Set<Int>, pageCount: Int, inputs: Set<String>) {
        for page in 1...max(pageCount, 1) where !written.contains(page - 1) {
            let path = diffImageBesideA(page: page)
            var isFolder = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder,
                !inputs.contains(resolvedPath(path)), page == 1 || !isAnotherInputsDiffImage(path)
            else { continue }
            guard OutputFormat.png.isOurs(path) else {
                writeStandardError(
                    "typeset: warning: \(path) is not a diff image of this comparison (typeset did not write it, or an older "
                        + "version did) and is left as it is\n")
                continue
            }
            // Said when it stays (a read-only folder): it is not this comparison's.
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                writeStandardError(
                    "typeset: warning: cannot remove the diff image \(path) of an earlier comparison: "
                        + "\(describeFileError(error))\n")
            }
        }
    }

    /// The diff images of pages past the last that an earlier comparison of more pages left
    /// (`NAME-5.diff.png`, or `--out`'s `-5.png`), in page order, whichever pages they are
    /// (without `--out` only failing pages have one). Not removed: said, as `render` says its
    /// leftover pages, since a CI job that keeps every diff image would show them. One that may
    /// be the diff image of another input (`isAnotherInputsDiffImage`) is no leftover, nor is
    /// one of `pictures`, those the markup shows, nor a file typeset did not write.
    private func leftoverDiffImages(pageCount: Int, pictures: Set<String>) -> [String] {
        let first = out ?? diffImageBesideA(page: 1)
        let folder = Path.folder(first)
        let firstName = Path.lastComponent(first)
        // A page's name is the first's with "-K" before its extension (".diff.png" beside A).
        let suffix = out == nil ? ".diff.png" : Path.fileExtension(firstName).isEmpty ? "" : "." + Path.fileExtension(firstName)
        let prefix = String(firstName.dropLast(suffix.count)) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        var leftovers: [(page: Int, path: String)] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count > prefix.count + suffix.count {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.allSatisfy({ ("0"..."9").contains($0) }), digits.first != "0", let page = Int(digits),
                page > max(pageCount, 1)
            else { continue }
            let path = Path.join(folder, name)
            if !isAnotherInputsDiffImage(path), !pictures.contains(resolvedPath(path)), OutputFormat.png.isOurs(path) {
                leftovers.append((page, path))
            }
        }
        return leftovers.sorted { $0.page < $1.page }.map(\.path)
    }

    /// Whether `path`, the diff image of a page (`login-2.diff.png`, or `--out`'s
    /// `diffs/login-2.png`), may be another comparison's: `login-2.xml` or `login-2.png` is
    /// beside A or beside the diff image (`pngsAreItsPages`: but a `login-2.png` typeset wrote,
    /// A's own page as `render` writes it beside the markup).
    private func isAnotherInputsDiffImage(_ path: String, pngsAreItsPages: Bool = false) -> Bool {
        var stem = Path.stem(path)
        if let page = Path.dropping(".diff", from: stem) { stem = page }
        // (`--out`'s `login-2.png` is no input beside itself.)
        let folders = [Path.folder(a)]
        if numberedScreen(of: path, stem: stem, beside: folders, extensions: [".xml"]) != nil { return true }
        guard let png = numberedScreen(of: path, stem: stem, beside: folders, extensions: [".png"]) else { return false }
        return !(pngsAreItsPages && OutputFormat.png.isOurs(png))
    }

    /// --out and --out-2.png, ... or, without --out, NAME.diff.png beside A.
    private func diffImagePaths(pageCount: Int) -> [String] {
        let count = max(pageCount, 1)
        if let out { return OutputFormat.png.outputPaths(for: out, pageCount: count) }
        return (1...count).map(diffImageBesideA)
    }

    /// NAME.diff.png beside A for page 1, NAME-K.diff.png for page K.
    private func diffImageBesideA(page: Int) -> String {
        let stem = Path.join(Path.folder(a), Path.stem(a))
        return page == 1 ? "\(stem).diff.png" : "\(stem)-\(page).diff.png"
    }
}

/// A share given as a fraction (0.001) or a percentage (0.1%), nil unless within 0...1.
func parseShare(_ text: String) -> Double? {
    let trimmed = text.trimmingWhitespace()
    let share: Double?
    if trimmed.hasSuffix("%") {
        // "0.7%" read as "0.7e-2": the double nearest 0.007, as "0.007" gives (0.7 / 100 is one
        // above it, and 7 pixels of 1,000 failed a limit of 0.7%).
        let number = trimmed.dropLast()
        share = number.contains(where: { $0 == "e" || $0 == "E" }) ? decimalNumber(number).map { $0 / 100 } : decimalNumber(number + "e-2")
    } else {
        share = decimalNumber(trimmed)
    }
    guard let share, share.isFinite, (0...1).contains(share) else { return nil }
    return share
}

/// Why an input of `diff` could not be turned into PNG pages.
struct DiffInputFailure: Error {
    var diagnostics: Diagnostics
}

/// Turns `diff`'s inputs into pages to compare: a PNG is used as it is, markup is laid out.
struct MarkupRenderer {
    let settings: JobSettings
    let scale: Double
    private let typesetter: Typesetter

    init(fontDirectories: [String], settings: JobSettings, scale: Double) {
        self.settings = settings
        self.scale = scale
        typesetter = LayoutArguments.typesetter(fontDirectories: fontDirectories)
    }

    /// The PNG pages of `input`: itself when it is a PNG (by its first bytes), else its markup
    /// laid out, its pages drawn as they are compared (its warnings printed, unless not
    /// `printingWarnings`).
    func pages(of input: String, printingWarnings: Bool = true) throws -> ComparedPages {
        let location = SourceLocation(file: input, line: 1, column: 1)
        func failure(_ message: String) -> DiffInputFailure {
            var diagnostics = Diagnostics()
            diagnostics.report(.error(location, message))
            return DiffInputFailure(diagnostics: diagnostics)
        }
        var isFolder = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder {
            throw failure("cannot read the file '\(input)': it is a folder")
        }
        guard let head = readFile(input, limit: 12) else {  // a WebP says so in bytes 8 to 11
            let reason =
                switch regularFileProblem(input) {
                case .notRegular?: "it is not a regular file (a pipe or a device)"
                case .missing?: "no such file"
                case .nameNotUTF8?: FileProblem.nameNotUTF8.reason
                default: "permission denied"
                }
            throw failure("cannot read the file '\(input)': \(reason)")
        }
        if head.starts(with: PNGFile.signature) {
            return ComparedPages(file: input)
        }
        if Path.fileExtension(input).lowercased() == "png" {
            throw failure("not a PNG file (its first bytes are not the PNG signature)")
        }
        // Other images are neither PNG nor markup ("not valid UTF-8, save it as UTF-8" misled).
        if let kind = MarkupParser.binaryKind(of: head) {
            throw failure("'\(input)' is \(kind), not a PNG image or a markup file; diff compares PNGs (convert it) or markup")
        }
        let outcome = typesetter.layoutFile(input, settings: settings)
        guard let layout = outcome.layout, !outcome.failed else {
            throw DiffInputFailure(diagnostics: outcome.diagnostics)
        }
        if printingWarnings { printDiagnostics(outcome.diagnostics) }
        do {
            return try ComparedPages(pages: layout.pages, of: input, scale: scale)
        } catch {
            throw failure("cannot render it: \(error)")
        }
    }
}
