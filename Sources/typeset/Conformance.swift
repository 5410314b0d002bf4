// `typeset conformance` (SPEC 5.8): runs the Unicode conformance files and counts every case.
import FoundationEssentials
import Glibc
import Typeset

struct Conformance: Command {
    /// (1 is its verdict: what it printed not written is an error.)
    static let failedOutputStatus = ExitStatus.usage
    static let spec = CommandSpec(
        name: "conformance",
        abstract: "Runs BidiTest.txt, BidiCharacterTest.txt and LineBreakTest.txt against the built-in algorithms.",
        options: [
            .value(
                "unicode-dir",
                "Folder of the Unicode data files (default: /usr/share/unicode, where Debian's unicode-data installs them)."
            ),
            .flag("verbose", "Print the first 20 failures of each file, not only the first 5."),
        ])

    var unicodeDir: String
    var verbose: Bool

    init(_ arguments: ParsedArguments) throws {
        unicodeDir = arguments.string("unicode-dir") ?? "/usr/share/unicode"
        if let given = arguments.string("unicode-dir") { try checkFolders([given], option: "unicode-dir") }
        verbose = arguments.flag("verbose")
    }

    func run() throws {
        let suites: [(name: String, path: String, run: (String) throws -> ConformanceResult)] = [
            ("BidiTest.txt", unicodeDir + "/BidiTest.txt", { try .bidiTest(file: $0) }),
            ("BidiCharacterTest.txt", unicodeDir + "/BidiCharacterTest.txt", { try .bidiCharacterTest(file: $0) }),
            (
                "LineBreakTest.txt", Conformance.locate("LineBreakTest.txt", in: unicodeDir),
                { try .lineBreakTest(file: $0) }
            ),
        ]
        // Every file is run and reported, whatever the one before did. A file that cannot be
        // read fails, and so does one of fewer or more cases than Unicode 15.0.0's (a run that
        // checked nothing, or part of the file, cannot pass).
        var failed = false
        for suite in suites {
            do {
                let result = try suite.run(suite.path)
                print(result.summary)
                flushStandardOutput()
                for failure in result.failures.prefix(verbose ? 20 : 5) {
                    writeStandardError(Conformance.located(failure, in: suite.path) + "\n")
                }
                if let shortfall = result.total == 0 ? "no test cases in this file" : result.shortfall {
                    flushStandardOutput()
                    writeStandardError("\(suite.path):1:1: error: \(shortfall)\n")
                    failed = true
                }
                failed = failed || result.failed > 0
            } catch {
                print("\(suite.name): not run")
                flushStandardOutput()
                let reason = (error as? ConformanceError)?.reason ?? "\(error)"
                writeStandardError("\(suite.path):1:1: error: \(reason)\n")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// A failed case as an error at its line of the file, as every command gives errors; the
    /// line it quotes cut to 200 Unicode scalars, each as `visible` writes it (a file of binary
    /// garbage was echoed to the terminal).
    static func located(_ failure: ConformanceResult.Failure, in path: String) -> String {
        let message = failure.message
        var shown = message.unicodeScalars.prefix(200).map(visible).joined()
        if message.unicodeScalars.count > 200 { shown += "…" }
        return "\(path):\(failure.line):1: error: \(shown)"
    }

    /// Debian keeps the segmentation tests under auxiliary/; a flat folder works too.
    static func locate(_ name: String, in folder: String) -> String {
        let auxiliary = folder + "/auxiliary/" + name
        return FileManager.default.fileExists(atPath: auxiliary) ? auxiliary : folder + "/" + name
    }
}
