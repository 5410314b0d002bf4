// `typeset diff` (SPEC §5.5): compares two PNG images or markup files pixel by pixel.
import ArgumentParser
import Foundation
import Typeset

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compares two PNG images or markup files pixel by pixel.",
        discussion: """
            A and B are PNG files or markup files; markup is rendered to PNG at --scale with the \
            layout options given, every page of it. Pages are compared in order: page 1 of A with \
            page 1 of B, and so on; a different number of pages is a difference, and so are \
            pages of different size.

            Prints, per page, the number and share of differing pixels, the largest channel \
            difference and the box around the differences, then the verdict: identical, within \
            tolerance, or different.

            The diff image shows A faded to grey with every differing pixel in magenta. With \
            --out it is always written (pages after the first as DIFF-2.png, ...); without it, \
            only when the inputs differ, beside A as NAME.diff.png (NAME-2.diff.png, ...).

            Exit status: 0 within tolerance, 1 different, 2 error (unreadable input, markup \
            errors, bad arguments).
            """)

    @Argument(help: "The first image or markup file (the reference).")
    var a: String

    @Argument(help: "The second image or markup file.")
    var b: String

    @Option(help: "Where to write the diff image.")
    var out: String?

    @Option(help: "Channel difference (0–255) up to which pixels count as equal.")
    var tolerance: Int = 0

    @Option(help: "Share of pixels allowed to differ: a fraction (0.001) or a percentage (0.1%).")
    var maxDiff: String = "0"

    @Option(help: "PNG resolution for markup inputs, as a multiple of 72 dpi.")
    var scale: Double = 2

    @OptionGroup var layoutArguments: LayoutArguments

    func validate() throws {
        if !(0...255).contains(tolerance) { throw ValidationError("--tolerance must be between 0 and 255") }
        if parseShare(maxDiff) == nil {
            throw ValidationError("--max-diff takes a share between 0 and 1 (0.001) or a percentage (0.1%)")
        }
        if !(scale > 0 && scale <= 16) { throw ValidationError("--scale must be greater than 0 and at most 16") }
    }

    func run() throws {
        let maxShare = parseShare(maxDiff) ?? 0
        let settings: JobSettings
        do {
            settings = try layoutArguments.settings()
        } catch {
            // A broken string catalog: settings() has printed why.
            throw ExitCode(ExitStatus.usage)
        }
        let folder = NSTemporaryDirectory() + "typeset-diff-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pagesA: [String]
        let pagesB: [String]
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let renderer = MarkupRenderer(
                fontDirectories: layoutArguments.fontDir, settings: settings, scale: scale)
            pagesA = try renderer.pages(of: a, into: folder + "/a.png")
            pagesB = try renderer.pages(of: b, into: folder + "/b.png")
        } catch let failure as DiffInputFailure {
            printDiagnostics(failure.diagnostics)
            throw ExitCode(ExitStatus.usage)
        } catch {
            printError("cannot create a temporary folder: \(error.localizedDescription)")
            throw ExitCode(ExitStatus.usage)
        }

        let common = min(pagesA.count, pagesB.count)
        let several = max(pagesA.count, pagesB.count) > 1
        let diffPaths = diffImagePaths(pageCount: common)
        let inputs = Set([a, b].map(resolvedPath))
        var different = pagesA.count != pagesB.count
        var identical = !different
        for index in 0..<common {
            let prefix = several ? "page \(index + 1): " : ""
            let result: ImageDiffResult
            var written: String?
            do {
                result = try ImageDiff.compare(pagesA[index], pagesB[index], tolerance: tolerance)
                let passes = result.passes(maxDiff: maxShare)
                if out != nil || !passes {
                    if inputs.contains(resolvedPath(diffPaths[index])) {
                        printError(
                            "the diff image \(diffPaths[index]) would overwrite an input; name another with --out")
                        throw ExitCode(ExitStatus.usage)
                    }
                    try ImageDiff.writeDiffImage(
                        pagesA[index], pagesB[index], tolerance: tolerance, to: diffPaths[index])
                    written = diffPaths[index]
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                printError("\(error)")
                throw ExitCode(ExitStatus.usage)
            }
            print(prefix + result.description)
            if let written { print("diff image: \(written)") }
            different = different || !result.passes(maxDiff: maxShare)
            identical = identical && result.matches && result.maxChannelDifference == 0
        }
        if pagesA.count != pagesB.count {
            print("A has \(pagesA.count) page\(pagesA.count == 1 ? "" : "s"), B has \(pagesB.count)")
        }
        print(identical ? "identical" : different ? "different" : "within tolerance")
        if different { throw ExitCode(ExitStatus.inputFailed) }
    }

    /// --out and --out-2.png, ... or, without --out, NAME.diff.png beside A.
    private func diffImagePaths(pageCount: Int) -> [String] {
        let count = max(pageCount, 1)
        if let out { return OutputFormat.png.outputPaths(for: out, pageCount: count) }
        let stem = (a as NSString).deletingPathExtension
        return (1...count).map { $0 == 1 ? "\(stem).diff.png" : "\(stem)-\($0).diff.png" }
    }
}

/// `path` absolute, without `.`, `..` or symbolic links, to tell whether two paths name one file.
private func resolvedPath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
}

/// A share given as a fraction (0.001) or a percentage (0.1%), nil unless within 0...1.
func parseShare(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let share: Double?
    if trimmed.hasSuffix("%") {
        share = Double(trimmed.dropLast()).map { $0 / 100 }
    } else {
        share = Double(trimmed)
    }
    guard let share, share.isFinite, (0...1).contains(share) else { return nil }
    return share
}

/// Why an input of `diff` could not be turned into PNG pages.
struct DiffInputFailure: Error {
    var diagnostics: Diagnostics
}

/// Turns `diff`'s inputs into PNG files: a PNG is used as it is, markup is laid out and rendered.
struct MarkupRenderer {
    let settings: JobSettings
    let scale: Double
    private let typesetter: Typesetter

    init(fontDirectories: [String], settings: JobSettings, scale: Double) {
        self.settings = settings
        self.scale = scale
        typesetter = Typesetter(fontDirectories: fontDirectories)
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG pages of `input`: itself when it is a PNG (by its first bytes), else its markup
    /// rendered to `output` (output, output-2, ... for further pages).
    func pages(of input: String, into output: String) throws -> [String] {
        let location = SourceLocation(file: input, line: 1, column: 1)
        func failure(_ message: String) -> DiffInputFailure {
            var diagnostics = Diagnostics()
            diagnostics.report(.error(location, message))
            return DiffInputFailure(diagnostics: diagnostics)
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue {
            throw failure("cannot read the file '\(input)': it is a folder")
        }
        guard let handle = FileHandle(forReadingAtPath: input) else {
            let reason = FileManager.default.fileExists(atPath: input) ? "permission denied" : "no such file"
            throw failure("cannot read the file '\(input)': \(reason)")
        }
        let data: Data?
        do {
            data = try handle.read(upToCount: 8)
        } catch {
            try? handle.close()
            throw failure("cannot read the file '\(input)': \(error.localizedDescription)")
        }
        try? handle.close()
        let head = [UInt8](data ?? Data())
        if head == MarkupRenderer.pngSignature {
            return [input]
        }
        if (input as NSString).pathExtension.lowercased() == "png" {
            throw failure("not a PNG file (its first bytes are not the PNG signature)")
        }
        let outcome = typesetter.layoutFile(input, settings: settings)
        guard let layout = outcome.layout, !outcome.failed else {
            throw DiffInputFailure(diagnostics: outcome.diagnostics)
        }
        printDiagnostics(outcome.diagnostics)
        do {
            return try render(pages: layout.pages, to: output, options: RenderOptions(format: .png, scale: scale))
        } catch {
            throw failure("cannot render it: \(error)")
        }
    }
}
