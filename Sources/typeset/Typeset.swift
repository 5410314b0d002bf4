// The `typeset` command line (SPEC §5).
import ArgumentParser
import Typeset

@main
struct TypesetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset",
        abstract: "Typesets localized interface mockups to PDF, SVG and PNG.",
        subcommands: [Conformance.self])
}
