// The command line's grammar: each command declares its arguments and options as data; one
// parser reads them and one printer writes `--help`. (This replaced swift-argument-parser, which
// builds every command's arguments by reflection on each run: 17 M instructions, about 4 ms,
// before the first input was read, and time quadratic in the number of inputs.)
import FoundationEssentials
import Glibc
import Typeset

/// A subcommand of `typeset`.
protocol Command {
    static var spec: CommandSpec { get }
    /// Reads and checks the parsed arguments; throws `UsageError` for bad ones.
    init(_ arguments: ParsedArguments) throws
    /// Throws `ExitCode` to end with a status other than 0.
    func run() throws
    /// The status when what it printed could not be written: 1, an input failed, unless 1
    /// says what it found (SPEC §5.5: `diff`'s 1 is "they differ", 2 an error).
    static var failedOutputStatus: Int32 { get }
}

extension Command {
    static var failedOutputStatus: Int32 { ExitStatus.inputFailed }
}

/// What a command takes: its positional arguments, options and help.
struct CommandSpec {
    var name: String
    var abstract: String
    var discussion: String? = nil
    var arguments: [PositionalSpec] = []
    var options: [OptionSpec] = []
    /// Hidden from the list of subcommands (still runs).
    var hidden = false
}

struct PositionalSpec {
    var name: String
    var help: String
    /// Takes any number of values (only the last positional can).
    var many = false
}

struct OptionSpec {
    enum Kind { case value, repeated, flag }
    /// Without the leading dashes: `out-dir`.
    var long: String
    var short: Character? = nil
    var kind: Kind
    var help: String

    static func value(_ long: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value, help: help)
    }

    static func repeated(_ long: String, _ help: String) -> OptionSpec {
        OptionSpec(long: long, kind: .repeated, help: help)
    }

    static func flag(_ long: String, _ help: String) -> OptionSpec {
        OptionSpec(long: long, kind: .flag, help: help)
    }

    /// `-o, --output <output>` as help and usage show it.
    var label: String {
        let names = (short.map { "-\($0), " } ?? "") + "--" + long
        return kind == .flag ? names : names + " <\(long)>"
    }
}

/// A bad command line: printed with the command's usage, exit status 2. A long value quoted in
/// it is shortened as a diagnostic's is (a 2,000-character `--locale` was echoed whole).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = Diagnostic.shortened(message) }
}

/// Refuses a command that would write over a file it reads (its markup, its string catalog):
/// `render v.xml -o v.xml --format pdf` would otherwise replace the markup with a PDF, and so
/// would an output that is a symbolic link to it (written through, as links are). The inputs
/// stay protected for the outputs known only later (`ProtectedFiles`: pages after the first).
func refuseOverwriting(inputs: [String], outputs: [String]) throws {
    ProtectedFiles.protect(inputs)
    for output in outputs {
        // `sub/../v.xml` read as `v.xml`: `sub` is made only later.
        let path = output.contains("..") ? URL(fileURLWithPath: output).standardizedFileURL.path : output
        guard let input = ProtectedFiles.input(at: path) else { continue }
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: output)) != nil
        throw UsageError(
            (link ? "'\(output)' leads to the input '\(input)'" : "'\(output)' is an input")
                + ": writing it would replace it; name another output")
    }
}

/// `refuseOverwriting` for the fonts, known once the typesetter has read them: `-o` naming a
/// font of `--font-dir` or of the bundled folder is a usage error too (it was the input's error,
/// exit 1, where `-o` naming the markup or the catalog exits 2).
/// So is one that names any font file (`.ttf`, `.otf`, `.ttc`, `.otc`, `.woff`, `.woff2`) that exists: a system or
/// user font a document uses is read only when a run needs it, and `-o ~/.fonts/F.ttf --format
/// pdf` replaced it with a PDF. And one that names a markup file or string catalog that exists
/// and is no input, as much the user's work (`render b.xml -o notes.xml --format pdf` replaced
/// it with a PDF, with a warning of its extension only).
func refuseOverwritingSources(output: String?) throws {
    guard let output else { return }
    if let font = ProtectedFiles.input(at: output) {
        throw UsageError(
            (font == output ? "'\(output)'" : "'\(output)' (the font '\(font)')")
                + " is a font this command reads: writing it would replace it; name another output")
    }
    if FontDatabase.isFontFileName(output), FileManager.default.fileExists(atPath: output) {
        throw UsageError("'\(output)' is a font file: writing it would replace it; name another output")
    }
    try refuseOverwritingMarkup(output: output)
}

/// Refuses an output that names a markup file or string catalog that exists (part of
/// `refuseOverwritingSources`, and all of it for `diff`, whose inputs are checked apart).
func refuseOverwritingMarkup(output: String?) throws {
    guard let output else { return }
    if AtomicFileWriter.isMarkupOrCatalogName(output), FileManager.default.fileExists(atPath: output),
        !AtomicFileWriter.holdsAnOutput(output)
    {
        throw UsageError("'\(output)' is a markup file or string catalog: writing it would replace it; name another output")
    }
}

/// `path` made absolute, with `.`, `..` and symbolic links resolved.
func resolvedPath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
}

/// Checks that each of `folders`, given with `--option`, is a folder: a mistyped `--font-dir`
/// would otherwise pass unnoticed, and the fonts or images it was meant for silently not be found.
func checkFolders(_ folders: [String], option: String) throws {
    for folder in folders {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            let what = FileManager.default.fileExists(atPath: folder) ? "is not a folder" : "does not exist"
            throw UsageError("--\(option) '\(folder)' \(what)")
        }
        // One that cannot be listed gave nothing, without a word.
        if let reason = unreadableReason(folder, folder: true) {
            throw UsageError("--\(option) '\(folder)' cannot be read: \(reason)")
        }
    }
}

/// An output file named on the command line must not be empty or a folder; an output folder
/// must not be a file: usage errors, found before any input is read (they were each input's
/// error at 1:1, with the system's "Not a directory"). `option` names the file's option
/// (`diff --out`).
func checkOutput(file: String?, folder: String?, oneFilePerInput: Bool = true, option: String = "-o") throws {
    if let file {
        var isFolder = false
        let orOutDir = oneFilePerInput ? " (or --out-dir for one file per input)" : ""
        if file.isEmpty { throw UsageError("\(option) needs a file name") }
        // As an input '-' is: it wrote a file named '-' (`-o - > page.png` left page.png empty).
        if file == "-" {
            throw UsageError("\(option) '-' (standard output) is not written; give a file name ('./-' for a file named '-')")
        }
        // A name ending in a slash names a folder: refused before any work, as a folder is
        // (it failed each input after rendering it, "cannot write y.pdf/").
        if Path.endsInSlash(file) {
            throw UsageError("\(option) '\(file)' ends in '/', which names a folder; give a file name" + orOutDir)
        }
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder {
            throw UsageError("\(option) '\(file)' is a folder; give a file name" + orOutDir)
        }
    }
    if let folder {
        var isFolder = false
        if folder.isEmpty { throw UsageError("--out-dir needs a folder") }
        if folder == "-" { throw UsageError("--out-dir '-' is no folder; give one ('./-' for a folder named '-')") }
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder {
            throw UsageError("--out-dir '\(folder)' is a file, not a folder")
        }
    }
}

/// A number written in decimal (Swift's `Double` also reads hexadecimal: `--scale 0x10` was 16,
/// `--max-diff 0x0.1` 0.0625).
func decimalNumber(_ text: some StringProtocol) -> Double? {
    guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }) else { return nil }
    return Double(text)
}

/// Makes the folder an output goes in, and the folders above it, where missing; returns those
/// it made, the deepest first, for `removeEmptyFolders`. One that cannot be made is a usage
/// error that says why (left to the write, it read "No such file or directory" for each input
/// when the reason was "Permission denied").
func makeOutputFolder(_ folder: String) throws -> [String] {
    var missing: [String] = []
    var path = folder
    var status = stat()
    while !path.isEmpty, path != "/", lstat(path, &status) != 0 {
        missing.append(path)
        path = Path.folder(path)
    }
    if let problem = Path.makeFolderFailure(folder) {
        removeEmptyFolders(missing)  // (a name too long for a folder left those above it)
        let message = "cannot make the folder '\(folder)' for the output: \(problem.reason)"
        if problem.pathIsWrong { throw UsageError(message) }
        // The system said no (permission, a read-only disk): as for a folder that is there
        // and read-only, the inputs fail (exit 1, no usage text; this was exit 2).
        printError(message, at: folder)
        throw ExitCode(ExitStatus.inputFailed)
    }
    PendingTemporaries.madeFolders(missing)  // removed by a signal while empty
    return missing
}

/// Removes the folders of `made` (`makeOutputFolder`'s) that are still empty, the deepest
/// first: a command that wrote nothing there (every input failed) leaves no folder behind.
func removeEmptyFolders(_ made: [String]) {
    // (Stops at one that stays; passes those never made, a name too long among them.)
    for folder in made where rmdir(folder) != 0 && isFolder(folder) { break }
}

/// Ends the process with `status` (what went wrong has been printed).
struct ExitCode: Error {
    var status: Int32
    init(_ status: Int32) { self.status = status }
}

/// `-h` or `--help` was given.
struct HelpRequest: Error {}

/// The command line as the command's spec reads it.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    /// Values by long option name, in the order given; a flag has one empty value per use.
    private var values: [String: [String]] = [:]

    init(_ arguments: some Sequence<String>, spec: CommandSpec) throws {
        var long: [String: OptionSpec] = [:]
        var short: [Character: OptionSpec] = [:]
        for option in spec.options {
            long[option.long] = option
            if let letter = option.short { short[letter] = option }
        }
        // Swift reads the command line as UTF-8 and puts U+FFFD for other bytes: such a file could
        // not be found ("it does not exist", false), and an output was written under another name
        // than the one given. An input of a batch fails alone (one such name in `*.xml` stopped
        // every other input); any other such argument is refused.
        let notUTF8 = FileProblem.argumentsNotInUTF8
        func refuseIfNotUTF8(_ argument: String) throws {
            guard notUTF8.contains(argument) else { return }
            throw UsageError(
                "the argument '\(argument)' is not UTF-8 (U+FFFD stands for what is not); "
                    + "typeset reads its arguments as UTF-8 (a file whose name is not must be renamed)")
        }
        var iterator = arguments.makeIterator()
        var optionsEnded = false
        while let argument = iterator.next() {
            if argument == "-" && !optionsEnded {
                throw UsageError("'-' (standard input) is not read; give the path of a file")
            }
            let isInput = optionsEnded || !argument.hasPrefix("-")
            if !isInput || spec.arguments.last?.many != true { try refuseIfNotUTF8(argument) }
            if isInput {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" { throw HelpRequest() }
            let option: OptionSpec?
            var inline: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    option = long[String(body[..<equals])]
                    inline = String(body[body.index(after: equals)...])
                } else {
                    option = long[String(body)]
                }
            } else {
                let body = argument.dropFirst()
                option = body.count == 1 ? body.first.flatMap { short[$0] } : nil
            }
            guard let option else {
                let name = String(argument.drop { $0 == "-" }.prefix { $0 != "=" })
                let hint = closestName(to: name, among: Array(long.keys)).map { "; did you mean '--\($0)'?" } ?? ""
                throw UsageError("unknown option '\(argument)'\(hint)")
            }
            if option.kind == .flag {
                if inline != nil { throw UsageError("--\(option.long) takes no value") }
                values[option.long, default: []].append("")
                continue
            }
            guard let value = inline ?? iterator.next() else {
                throw UsageError("missing value for '\(argument)'")
            }
            try refuseIfNotUTF8(value)
            // An option where a value belongs is the value missing (`--out-dir --format png` made
            // a folder named '--format'); a file or folder of such a name is written `./--name`.
            if inline == nil && (value.hasPrefix("--")
                || value.count == 2 && value.first == "-" && value.last.map { short[$0] != nil } == true)
            {
                throw UsageError("missing value for '\(argument)' (it is followed by the option '\(value)')")
            }
            // A second value would silently replace the first (a sheet's 'en' column in Arabic).
            if option.kind == .value, let first = values[option.long]?.first {
                throw UsageError("--\(option.long) is given twice ('\(first)' and '\(value)'); it takes one value")
            }
            values[option.long, default: []].append(value)
        }
        for (index, positional) in spec.arguments.enumerated() where !positional.many {
            if index >= positionals.count { throw UsageError("missing the argument <\(positional.name)>") }
        }
        if spec.arguments.last?.many != true && positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }

    /// The option's value.
    func string(_ name: String) -> String? { values[name]?.first }

    /// Every value of a repeatable option, in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    func flag(_ name: String) -> Bool { values[name] != nil }

    func int(_ name: String) throws -> Int? {
        try string(name).map { text in
            guard let value = Int(text) else { throw UsageError("--\(name) takes a whole number, not '\(text)'") }
            return value
        }
    }

    func double(_ name: String) throws -> Double? {
        try string(name).map { text in
            guard let value = decimalNumber(text) else { throw UsageError("--\(name) takes a number, not '\(text)'") }
            return value
        }
    }

    /// `--scale`: PNG resolution as a multiple of 72 dpi, from 0.01 to 16; 2 by default. (A
    /// scale just above 0 made pages of one pixel, and below about 1e-300 Cairo's matrix failed.)
    func scale() throws -> Double {
        let scale = try double("scale") ?? 2
        guard scale >= 0.01 && scale <= 16 else { throw UsageError("--scale must be at least 0.01 and at most 16") }
        return scale
    }

    /// `--jobs`: at least 1; the number of cores by default (1 where no thread can be started:
    /// `Threads`, which the batches and page drawing ask).
    func jobs() throws -> Int {
        let jobs = try int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw UsageError("--jobs must be at least 1") }
        return jobs
    }

    func format(_ name: String) throws -> OutputFormat? {
        try string(name).map { text in
            guard let format = OutputFormat(rawValue: text.lowercased()) else {
                throw UsageError("--\(name) takes pdf, svg or png, not '\(text)'")
            }
            return format
        }
    }
}

/// Help and usage text, as `typeset --help` and `typeset COMMAND --help` print them.
enum Help {
    static func usage(_ spec: CommandSpec) -> String {
        var parts = ["typeset", spec.name]
        for positional in spec.arguments {
            parts.append(positional.many ? "<\(positional.name)> ..." : "<\(positional.name)>")
        }
        if !spec.options.isEmpty { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    static func text(_ spec: CommandSpec) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n\n"
        if let discussion = spec.discussion { text += wrap(discussion) + "\n\n" }
        text += "USAGE: \(usage(spec))\n\n"
        if !spec.arguments.isEmpty {
            text += "ARGUMENTS:\n"
            for positional in spec.arguments { text += row("<\(positional.name)>", positional.help) }
            text += "\n"
        }
        text += "OPTIONS:\n"
        for option in spec.options { text += row(option.label, option.help) }
        text += row("-h, --help", "Show help information.")
        return text
    }

    static func root(abstract: String, commands: [CommandSpec]) -> String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: typeset <subcommand>\n\nOPTIONS:\n"
        text += row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands where !command.hidden { text += row(command.name, command.abstract) }
        // As it was run (`TypesetCommand.invocation`): a bare `typeset help render` is bash's
        // builtin, which prints nothing.
        text += "\n  See `\(TypesetCommand.invocation) help <subcommand>` for detailed help.\n"
        return text
    }

    /// `  label   help`, the help wrapped in a column from 26 on.
    private static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: 26)
        let lines = wrap(help, width: 80 - 26).split(separator: "\n", omittingEmptySubsequences: false)
        var text = "  " + label
        if label.count + 2 < 24 {
            text += String(repeating: " ", count: 24 - label.count) + lines[0] + "\n"
        } else {
            text += "\n" + indent + lines[0] + "\n"
        }
        for line in lines.dropFirst() { text += indent + line + "\n" }
        return text
    }

    /// Paragraphs (separated by blank lines) wrapped at `width` columns.
    static func wrap(_ text: String, width: Int = 80) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: false).map { paragraph in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
