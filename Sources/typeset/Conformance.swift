// `typeset conformance` (SPEC 5.8): runs the Unicode conformance files and counts every case.
import ArgumentParser
import Foundation
import Typeset

struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Runs BidiTest.txt, BidiCharacterTest.txt and LineBreakTest.txt against the built-in algorithms.")

    @Option(help: "Folder of the Unicode data files (Debian's unicode-data installs them here).")
    var unicodeDir: String = "/usr/share/unicode"

    @Flag(help: "Print every failure, not only the first ones.")
    var verbose = false

    func run() throws {
        let suites: [(String) throws -> ConformanceResult] = [
            { try .bidiTest(file: $0 + "/BidiTest.txt") },
            { try .bidiCharacterTest(file: $0 + "/BidiCharacterTest.txt") },
            { try .lineBreakTest(file: Conformance.locate("LineBreakTest.txt", in: $0)) },
        ]
        var failed = false
        for suite in suites {
            let result = try suite(unicodeDir)
            print(result.summary)
            for failure in result.failures.prefix(verbose ? 20 : 5) { print("  \(failure)") }
            failed = failed || result.failed > 0
        }
        if failed { throw ExitCode(1) }
    }

    /// Debian keeps the segmentation tests under auxiliary/; a flat folder works too.
    static func locate(_ name: String, in folder: String) -> String {
        let auxiliary = folder + "/auxiliary/" + name
        return FileManager.default.fileExists(atPath: auxiliary) ? auxiliary : folder + "/" + name
    }
}
