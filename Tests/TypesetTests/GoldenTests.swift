// Golden tests of every Example (issue 6): a text dump of the layout as the first reference and
// a small PNG per page as the second, kept in Tests/Golden/ and compared with the snapshot
// machinery of `typeset snapshot`. TYPESET_RECORD=1 rewrites the references and fails the run,
// so that recording is never mistaken for passing.
import Foundation
import Testing

@testable import Typeset

private enum Golden {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let examples = root + "/Examples"
    static let folder = root + "/Tests/Golden"
    static let recording = ProcessInfo.processInfo.environment["TYPESET_RECORD"] == "1"
    /// Small enough to keep the repository light, large enough to show any moved line.
    static let options = SnapshotOptions(scale: 0.5, tolerance: 2, maxDiff: 0)
    static let typesetter = Typesetter()

    /// The Examples' names (file names without `.xml`), sorted.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? []
        return files.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }()

    static func dumpPath(_ name: String) -> String { folder + "/\(name).layout.txt" }
}

@Suite("Golden")
struct GoldenTests {
    @Test func examplesExist() {
        #expect(Golden.names.count >= 6, "found \(Golden.names) in \(Golden.examples)")
    }

    @Test(arguments: Golden.names)
    func example(_ name: String) throws {
        let outcome = Golden.typesetter.layoutFile(Golden.examples + "/\(name).xml", settings: JobSettings())
        #expect(!outcome.failed, "\(outcome.diagnostics.items)")
        let layout = try #require(outcome.layout)
        let dump = layout.report.textDump()
        let snapshots = SnapshotFolder(path: Golden.folder)
        let others = Set(Golden.names.map { Path.Key($0) }).subtracting([Path.Key(name)])

        if Golden.recording {
            try FileManager.default.createDirectory(atPath: Golden.folder, withIntermediateDirectories: true)
            try Data(dump.utf8).write(to: URL(fileURLWithPath: Golden.dumpPath(name)))
            let record = try snapshots.record(
                pages: layout.pages, name: name, options: Golden.options, otherNames: others)
            let counts = "\(record.written.count) PNG written, \(record.removed.count) removed"
            Issue.record(
                Comment(
                    rawValue:
                        "TYPESET_RECORD=1: recorded \(name)'s references (\(counts)); look at them, then run the tests without it"
                ))
            return
        }

        // First reference: the layout as text.
        let expected = try? String(contentsOfFile: Golden.dumpPath(name), encoding: .utf8)
        guard let expected else {
            Issue.record("no reference \(Golden.dumpPath(name)); record it with TYPESET_RECORD=1 swift test")
            return
        }
        if expected != dump {
            let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let new = dump.split(separator: "\n", omittingEmptySubsequences: false)
            let line =
                zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
            let was = line < old.count ? String(old[line]) : "(end)"
            let now = line < new.count ? String(new[line]) : "(end)"
            Issue.record(
                "\(name): the layout changed at line \(line + 1) of \(Golden.dumpPath(name))\n  was: \(was)\n  now: \(now)"
            )
        }

        // Second reference: the pages as small PNGs.
        let check = try snapshots.check(pages: layout.pages, name: name, options: Golden.options, otherNames: others)
        for page in check.pages where !page.passed {
            if let comparison = page.comparison {
                Issue.record("\(name) page \(page.page): \(comparison); diff image \(page.diffImage ?? "-")")
            } else {
                Issue.record(
                    "\(name) page \(page.page): no reference \(page.reference); record it with TYPESET_RECORD=1")
            }
        }
        #expect(check.extraReferences.isEmpty, "references of pages \(name) no longer has")
        #expect(check.conflictingPages.isEmpty)
        #expect(check.pages.count == layout.pages.count)
    }

    /// Every file in Tests/Golden belongs to an Example: a dump, a page's PNG, or (ignored by
    /// git) a diff image of a failure.
    @Test func everyReferenceBelongsToAnExample() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Golden.folder).sorted()
        let names = Set(Golden.names)
        let dumps = Set(names.map { "\($0).layout.txt" })
        let unusedPNGs = Set(
            SnapshotFolder(path: Golden.folder).unusedReferences(names: Set(names.map { Path.Key($0) }))
                .map { ($0 as NSString).lastPathComponent })
        let unused = files.filter { file in
            if file == ".gitignore" || dumps.contains(file) || SnapshotFolder.isDiffImage(file) { return false }
            if file.hasSuffix(".png") { return unusedPNGs.contains(file) }
            return true
        }
        #expect(unused.isEmpty, "files in Tests/Golden that no Example uses: \(unused)")
        // And each Example has both references.
        for name in Golden.names {
            #expect(files.contains("\(name).layout.txt") && files.contains("\(name).png"), "\(name) lacks references")
        }
    }

    @Test func unusedReferenceDetectionNamesStrayFiles() throws {
        let folder = NSTemporaryDirectory() + "typeset-golden-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in ["a.png", "a-2.png", "a.diff.png", "a-02.png", "ab.png", "b-x.png", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + file, contents: Data()))
        }
        let unused = SnapshotFolder(path: folder).unusedReferences(names: ["a", "b"]).map {
            ($0 as NSString).lastPathComponent
        }
        #expect(unused == ["a-02.png", "ab.png", "b-x.png"])
    }

    @Test func textDumpIsCompactAndRounded() throws {
        let outcome = Golden.typesetter.layoutFile(Golden.examples + "/download-row.xml", settings: JobSettings())
        let dump = try #require(outcome.layout).report.textDump()
        let lines = dump.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("page 1 430×") == true)
        #expect(lines.contains { $0.hasPrefix("heading line 4 en ltr in ltr, left, frame 16.0 16.0 398.0×") })
        // One line per text line, its runs after the colon, numbers to 0.1 pt.
        #expect(
            lines.contains {
                $0.hasPrefix("  line x 16.0 width 110.3 baseline ")
                    && $0.hasSuffix(": \"Download\" 0 Latn Noto Sans 22 x 16.0 width 110.3")
            })
        // Balanced Arabic in a button (SPEC 4.3): 19 pt, level 1.
        #expect(lines.contains { $0.contains("\"تنزيل\" 1 Arab Noto Sans Arabic 19 x ") })
        #expect(!dump.contains("\"file\"") && !dump.contains(Golden.root))
    }
}
