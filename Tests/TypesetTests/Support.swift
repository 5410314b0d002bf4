// Helpers shared by the end-to-end tests: the built binary, programs, temporary folders.
import Foundation
import Testing

/// The repository root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program and collects its output (both pipes drained concurrently).
func runProgram(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// The `typeset` binary the Makefile builds before the tests (or TYPESET_BIN).
func typesetBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["TYPESET_BIN"] { return path }
    for candidate in [".build/debug/typeset", ".build/x86_64-unknown-linux-gnu/debug/typeset"] {
        let path = repositoryRoot + "/" + candidate
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw CommandError(description: "no typeset binary: run `swift build` first (make test does)")
}

struct CommandError: Error, CustomStringConvertible { var description: String }

/// The binary as the command line writes it in a command to copy (`TypesetCommand.invocation`):
/// its path, in single quotes when a POSIX shell would split or expand it (a checkout in
/// "/home/me/My Projects").
func typesetInvocation() throws -> String {
    let path = try typesetBinary()
    let plain = path.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_./,:=@%+-".unicodeScalars.contains(scalar)
    }
    return plain ? path : "'" + path.replacing("'", with: "'\\''") + "'"
}

func typeset(_ arguments: [String], in directory: String? = nil) throws -> CommandResult {
    try runProgram(try typesetBinary(), arguments, in: directory)
}

/// `typeset` run by a user that file modes bind: as root (CI), as `nobody`, for whom a folder
/// of mode 000 cannot be read nor one of 755 written to. `processes`: at most this many
/// processes and threads of the user (RLIMIT_NPROC, which root is not held to), the command
/// ended after a minute.
func typesetUnprivileged(_ arguments: [String], processes: Int? = nil) throws -> CommandResult {
    let limit = processes.map { ["/usr/bin/timeout", "60", "/usr/bin/prlimit", "--nproc=\($0)", "--"] } ?? []
    let user = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    let command = limit + user + [try typesetBinary()] + arguments
    return try runProgram(command[0], Array(command.dropFirst()))
}

/// One field of `pdfinfo`'s output ("Pages", "Tagged", "Title").
func pdfInfo(_ pdf: String, _ field: String) throws -> String? {
    let output = try runProgram("/usr/bin/pdfinfo", [pdf]).stdout
    for line in output.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces)
    }
    return nil
}

/// The page count `pdfinfo` reports, or nil when the file is missing or broken.
func pdfPageCount(_ pdf: String) throws -> Int? {
    try pdfInfo(pdf, "Pages").flatMap { Int($0) }
}

func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("typeset-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func files(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

extension CommandResult {
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}
