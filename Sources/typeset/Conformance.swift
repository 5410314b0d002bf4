// `typeset conformance` (SPEC 5.8): runs the Unicode conformance files.
import ArgumentParser
import Typeset

struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs BidiTest.txt, BidiCharacterTest.txt and LineBreakTest.txt.")

    @Option(help: "Folder holding the Unicode test files.")
    var unicodeDir: String = "/usr/share/unicode"

    func run() throws {
        print("Unicode \(Typeset.unicodeVersion)")
    }
}
