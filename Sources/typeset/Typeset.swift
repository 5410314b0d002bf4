// The `typeset` command line (SPEC §5). Exit codes: 0 success, 1 an input failed, 2 usage.
import ArgumentParser
import Foundation
import Typeset

@main
struct TypesetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset",
        abstract: "Typesets localized interface mockups to PDF, SVG and PNG, following Apple's HIG for right-to-left text.",
        subcommands: [Render.self, Layout.self, Sheet.self, Diff.self, Snapshot.self, Conformance.self, Bench.self])

    /// ArgumentParser exits with 64 on usage errors; the spec says 2.
    static func main() {
        keepFreedMemory()  // Batch/FreedMemory.swift
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == Render.configuration.commandName {
                let split = Render.setAsideInputs(Array(arguments.dropFirst()))
                arguments = [arguments[0]] + split.parsed
                Render.inputsSetAside = split.setAside
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

/// Named exit codes (SPEC §5).
enum ExitStatus {
    static let success: Int32 = 0
    static let inputFailed: Int32 = 1
    static let usage: Int32 = 2
}

/// Prints diagnostics as `FILE:LINE:COLUMN: severity: message`, on standard error.
func printDiagnostics(_ diagnostics: Diagnostics) {
    guard !diagnostics.items.isEmpty else { return }
    let text = diagnostics.items.map(\.description).joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("typeset: error: \(message)\n".utf8))
}
