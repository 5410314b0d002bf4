// The `typeset` command line (SPEC §5). Exit codes: 0 success, 1 an input failed, 2 usage.
import Glibc
import Typeset

@main
enum TypesetCommand {
    static let abstract =
        "Typesets localized interface mockups to PDF, SVG and PNG, following Apple's HIG for right-to-left text."
    static var commands: [any Command.Type] {
        [Render.self, Layout.self, Sheet.self, Diff.self, Snapshot.self, Conformance.self, Bench.self]
    }

    static func main() {
        keepFreedMemory()  // Batch/FreedMemory.swift
        PendingTemporaries.removeOnTermination()  // Render/AtomicFileWriter.swift
        if let problem = raiseOpenFileLimit() {
            printError(problem)
            exit(ExitStatus.usage)
        }
        Threads.onFallback.withLock {
            $0 = { writeStandardError("typeset: warning: cannot start another thread (\($0)): working with one job\n") }
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status = run(arguments)
        // What `print` buffered must reach standard output: `conformance > /dev/full` exited 0.
        flushStandardOutput()
        if let problem = standardOutputProblem.withLock({ $0 }) {
            printError("cannot write to standard output: \(String(cString: strerror(problem)))")
            // Where 1 says what the command found (`diff`: the images differ), an output that
            // could not be written is an error, 2: `diff a b > /dev/full` said they differ.
            let command = commands.first { $0.spec.name == arguments.first }
            exit(max(status, command?.failedOutputStatus ?? ExitStatus.inputFailed))
        }
        exit(status)
    }

    /// The fewest files typeset works with open at once (standard streams, an input, an
    /// output's temporary, a font being read, libdispatch's epoll, eventfd and timer).
    static let fewestOpenFiles: rlim_t = 8

    /// Raises the soft limit of open files (`ulimit -n`) to 4,096 or the hard limit, as far as
    /// it may go; an error when that is fewer than `fewestOpenFiles`. At 5, libdispatch's epoll
    /// could not be made and the process died of SIGILL; at 6 or 7, inputs "could not be read"
    /// and fonts were "damaged".
    private static func raiseOpenFileLimit() -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < 4096 && limit.rlim_max > limit.rlim_cur {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        guard limit.rlim_cur < fewestOpenFiles else { return nil }
        return "only \(limit.rlim_cur) files may be open at once (ulimit -n); typeset needs \(fewestOpenFiles)"
    }

    /// The command as the user ran it, for a command line to copy: its path, or `env typeset`
    /// for the bare name, which bash, ksh and zsh take for their `typeset` builtin.
    static var invocation: String {
        guard let name = CommandLine.arguments.first, !name.isEmpty else { return "env typeset" }
        return name.contains("/") ? shellQuoted(name) : "env " + shellQuoted(name)
    }

    /// Runs the command line's subcommand; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        let specs = commands.map { $0.spec }
        guard var name = arguments.first else {
            // No command is a usage error (the overview goes to standard error).
            writeStandardError(Help.root(abstract: abstract, commands: specs))
            return ExitStatus.usage
        }
        if name == "-h" || name == "--help" {
            print(Help.root(abstract: abstract, commands: specs), terminator: "")
            return ExitStatus.success
        }
        var rest = arguments.dropFirst()
        if name == "help" {
            guard let topic = rest.first else {
                print(Help.root(abstract: abstract, commands: specs), terminator: "")
                return ExitStatus.success
            }
            name = topic
            rest = ["--help"]
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            let hint = closestName(to: name, among: specs.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            writeStandardError("typeset: error: unknown command '\(name)'\(hint)\n  See `\(invocation) --help` for the commands.\n")
            return ExitStatus.usage
        }
        let spec = command.spec
        do {
            try command.init(ParsedArguments(rest, spec: spec)).run()
            return ExitStatus.success
        } catch is HelpRequest {
            print(Help.text(spec), terminator: "")
            return ExitStatus.success
        } catch let usage as UsageError {
            writeStandardError(
                "typeset: error: \(usage.message)\nUsage: \(Help.usage(spec))\n  See `\(invocation) \(spec.name) --help` for more information.\n")
            return ExitStatus.usage
        } catch let exit as ExitCode {
            return exit.status
        } catch {
            printError("\(error)")
            return ExitStatus.inputFailed
        }
    }
}

/// Named exit codes (SPEC §5).
enum ExitStatus {
    static let success: Int32 = 0
    static let inputFailed: Int32 = 1
    static let usage: Int32 = 2
}

/// Prints diagnostics as `FILE:LINE:COLUMN: severity: message`, on standard error, repeated
/// warnings condensed (`Diagnostics.condensed`), then `notes`, what the command says of the
/// outputs, whatever came before them.
func printDiagnostics(_ diagnostics: Diagnostics, notes: [Diagnostic] = []) {
    let lines = diagnostics.condensed() + notes
    guard !lines.isEmpty else { return }
    writeStandardError(lines.map(\.description).joined(separator: "\n") + "\n")
}

func printError(_ message: String) {
    writeStandardError("typeset: error: \(message)\n")
}

/// An error of a file that is no input (an output that cannot be written, its folder), at
/// the file as every error of SPEC 5 is (`typeset: error: cannot write ro/x.pdf` escaped a CI
/// log's matcher, where `--out-dir` said it at each input).
func printError(_ message: String, at file: String) {
    writeStandardError(Diagnostic.error(SourceLocation(file: file, line: 1, column: 1), message).description + "\n")
}

/// Writes `text` to standard error at once (unbuffered, like the diagnostics before it), its
/// lines `terminalSafe`: a file name or value quoted in a message sends no escape code or bidi
/// override to the terminal.
func writeStandardError(_ text: String) {
    let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { terminalSafe(String($0)) }
    _ = writeAll(safe.joined(separator: "\n"), to: STDERR_FILENO)
}

/// Writes `text` to standard error as it is: the progress line's own escape codes.
func writeRawStandardError(_ text: String) {
    _ = writeAll(text, to: STDERR_FILENO)
}

/// The first error (errno) of a flush of standard output, which `main` reports: a command that
/// flushed as it went (`conformance`, `snapshot`) lost its failure to the next flush, which
/// found nothing to write, and `conformance > /dev/full` exited 0.
private let standardOutputProblem = Locked<Int32?>(nil)

/// Writes what `print` buffered to standard output (fflush(nil) flushes it without naming the
/// C global), keeping the first failure for `main`.
func flushStandardOutput() {
    if fflush(nil) != 0 {
        let problem = errno
        standardOutputProblem.withLock { $0 = $0 ?? problem }
    }
}

/// Writes `text` to standard output, after what `print` has buffered; throws when it cannot be
/// written whole (`layout > /dev/full` exited 0 with no JSON).
/// Writes what `produce` gives its writer to standard output; throws the first problem.
func writeStandardOutput(_ produce: ((UnsafeBufferPointer<UInt8>) -> String?) -> String?) throws {
    flushStandardOutput()
    if let problem = produce({ writeAll($0, to: STDOUT_FILENO) }) {
        throw OutputError(description: "cannot write to standard output: \(problem)")
    }
}

struct OutputError: Error, CustomStringConvertible {
    var description: String
}

/// Writes all of `text` to `descriptor`; the system's reason when it cannot.
private func writeAll(_ text: String, to descriptor: Int32) -> String? {
    var text = text
    return text.withUTF8 { writeAll($0, to: descriptor) }
}

private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> String? {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written < 0 { return String(cString: strerror(errno)) }
        if written == 0 { return "nothing was written" }
        offset += written
    }
    return nil
}
