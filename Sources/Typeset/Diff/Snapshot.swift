// Snapshot tests (SPEC §5.6 `typeset snapshot`, and the project's own golden tests): pages
// rendered to PNG and compared with reference PNGs kept in one folder — NAME.png for the first
// page, NAME-2.png, NAME-3.png, … for the others — with a diff image NAME.diff.png
// (NAME-2.diff.png, …) beside each reference that fails.
import FoundationEssentials

/// How pages are rendered and compared with their references.
public struct SnapshotOptions: Sendable {
    /// PNG pixels per point.
    public var scale: Double
    /// Channel difference (0...255) up to which pixels count as equal; see `ImageDiff.compare`.
    public var tolerance: Int
    /// The share (0...1) of pixels allowed to differ beyond the tolerance.
    public var maxDiff: Double

    public init(scale: Double = 2, tolerance: Int = 0, maxDiff: Double = 0) {
        self.scale = scale
        self.tolerance = tolerance
        self.maxDiff = maxDiff
    }
}

extension ImageDiffResult {
    /// True when the sizes are the same and at most `maxDiff` (a share, 0...1) of the pixels
    /// differ beyond the tolerance. Pages of different size never pass.
    public func passes(maxDiff: Double) -> Bool {
        sizeA == sizeB && (differingPixels == 0 || share <= maxDiff)
    }
}

/// One page compared with its reference.
public struct SnapshotPageCheck: Sendable {
    /// From 1.
    public var page: Int
    public var reference: String
    /// With the reference, or, where it is missing (`hasReference`), with a blank page.
    public var comparison: ImageDiffResult?
    public var hasReference = true
    /// The diff image written for a page that failed its comparison.
    public var diffImage: String?
    /// Why the diff image could not be written (a read-only folder): the page still fails
    /// with its figures (they were lost to the error).
    public var diffImageProblem: String?
    public var passed: Bool
}

/// A document's pages compared with their references.
public struct SnapshotCheck: Sendable {
    public var name: String
    public var pages: [SnapshotPageCheck]
    /// References of pages the document no longer has (NAME-3.png for a two-page document).
    public var extraReferences: [String]
    /// Pages whose reference file is another input's first-page reference (page 2 of `a`
    /// against `a-2.png` when `a-2` is an input too): such a page cannot be checked.
    public var conflictingPages: [Int]

    public var passed: Bool {
        pages.allSatisfy(\.passed) && extraReferences.isEmpty && conflictingPages.isEmpty
    }
}

/// What recording references changed.
public struct SnapshotRecord: Sendable {
    /// References written because they were new or different.
    public var written: [String]
    /// References of pages the document no longer has, and diff images, removed.
    public var removed: [String]
    /// As in `SnapshotCheck`: nothing is written for these pages.
    public var conflictingPages: [Int]
}

/// A folder of reference PNGs (`__snapshots__` for `typeset snapshot`).
///
/// It lists the folder once, when it is made, however many documents are checked (listing it
/// for each took time that grew with the square of their number, 6 s of 14 for 5,000 screens):
/// references and diff images written since are not seen (make another value), and those
/// removed since are passed over.
public struct SnapshotFolder: Sendable {
    public let path: String
    /// The folder's references and diff images, sorted, by the names whose pages they can be.
    /// Names and files are told apart by their bytes, as the file system does (`Path.Key`): a
    /// reference `café.png` composed was taken for one of a screen `café.xml` decomposed, and
    /// never named as the reference of no markup file.
    private let references: [Path.Key: [(page: Int, file: String)]]
    private let diffImages: [Path.Key: [(page: Int, file: String)]]
    /// Every reference (a PNG file that is not a diff image), sorted.
    private let referenceFiles: [String]
    /// The hidden temporary files of references and diff images (`.NAME.png.*.tmp`,
    /// `AtomicFileWriter`) that a run killed before it could remove them left (SIGKILL: a CI
    /// job's time limit, the OOM killer), as paths: `git add` of the folder took them in.
    public let leftoverTemporaries: [String]
    /// Files named as diff images that typeset did not write (a note, a picture), as paths:
    /// never replaced nor removed, and named (`typeset diff` keeps them too; a check run
    /// removed them without a word).
    public let foreignDiffImages: [String]

    public init(path: String) {
        self.path = path
        // A folder, even one named like a PNG, is no reference nor diff image: no run writes
        // one, and `--update` removed `old.png/` with all it held as a reference no markup used.
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            .filter { Path.dropping(".png", from: $0) == nil || !isFolder(Path.join(path, $0)) }
        var references: [Path.Key: [(page: Int, file: String)]] = [:]
        var diffImages: [Path.Key: [(page: Int, file: String)]] = [:]
        var referenceFiles: [String] = []
        for file in files where Path.dropping(".png", from: file) != nil {
            if let stem = Path.dropping(".diff.png", from: file) {
                for (name, page) in SnapshotFolder.owners(of: stem + ".png") {
                    diffImages[Path.Key(name), default: []].append((page, file))
                }
            } else {
                referenceFiles.append(file)
                for (name, page) in SnapshotFolder.owners(of: file) {
                    references[Path.Key(name), default: []].append((page, file))
                }
            }
        }
        self.references = references
        self.diffImages = diffImages
        self.referenceFiles = referenceFiles
        leftoverTemporaries = files.filter { Path.isHidden($0) && Path.dropping(".tmp", from: $0) != nil && $0.contains(".png.") }
            .map { Path.join(path, $0) }
        foreignDiffImages = files.filter(SnapshotFolder.isDiffImage).map { Path.join(path, $0) }.filter { file in
            SnapshotFolder.symbolicLink(file) == nil && ProtectedFiles.input(at: file) == nil && !OutputFormat.png.isOurs(file)
        }
    }

    /// NAME.png for page 1, NAME-K.png for page K.
    public func referencePath(name: String, page: Int) -> String {
        join(page == 1 ? "\(name).png" : "\(name)-\(page).png")
    }

    /// NAME.diff.png for page 1, NAME-K.diff.png for page K.
    public func diffImagePath(name: String, page: Int) -> String {
        join(page == 1 ? "\(name).diff.png" : "\(name)-\(page).diff.png")
    }

    /// Whether `file` (a file name in the folder) is a diff image rather than a reference.
    public static func isDiffImage(_ file: String) -> Bool {
        Path.dropping(".diff.png", from: file) != nil
    }

    /// The page a file name is the reference of for `name` (NAME.png → 1, NAME-K.png → K ≥ 2),
    /// nil when it is not one of `name`'s references.
    public static func referencePage(of file: String, name: String) -> Int? {
        guard let stem = Path.dropping(".png", from: file), !isDiffImage(file) else { return nil }
        if Path.same(stem, name) { return 1 }
        let prefix = name.utf8.count + 1
        guard stem.utf8.starts(with: (name + "-").utf8) else { return nil }
        let digits = stem.utf8.dropFirst(prefix)
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.first != UInt8(ascii: "0"), let page = Int(String(decoding: digits, as: UTF8.self)), page >= 2
        else { return nil }
        return page
    }

    /// The names and pages the reference file `file` can be of (`referencePage`): NAME.png is
    /// page 1 of NAME, and NAME-K.png also page K of NAME (a page number has no dash).
    static func owners(of file: String) -> [(name: String, page: Int)] {
        guard let stem = Path.dropping(".png", from: file), let first = referencePage(of: file, name: stem) else { return [] }
        var owners = [(name: stem, page: first)]
        if let dash = file.utf8.lastIndex(of: UInt8(ascii: "-")) {
            let name = String(decoding: file.utf8[..<dash], as: UTF8.self)
            if let page = referencePage(of: file, name: name) { owners.append((name, page)) }
        }
        return owners
    }

    /// `name`'s existing references by page, leaving out files that are another input's
    /// first-page reference (`otherNames`: the names of the other inputs; `name` may be among
    /// them).
    func existingReferences(name: String, otherNames: Set<Path.Key>) -> [Int: String] {
        var found: [Int: String] = [:]
        for (page, file) in references[Path.Key(name)] ?? [] {
            if page > 1, let stem = Path.dropping(".png", from: file), otherNames.contains(Path.Key(stem)) { continue }
            found[page] = join(file)
        }
        return found
    }

    /// References (PNG files that are not diff images) that are no page of any of `names`.
    public func unusedReferences(names: Set<Path.Key>) -> [String] {
        referenceFiles.filter { file in !SnapshotFolder.owners(of: file).contains { names.contains(Path.Key($0.name)) } }
            .map(join).filter(isUnprotected)
    }

    /// Diff images that are of no page of any of `names`: a screen's whose markup is gone
    /// (its reference removed by `--update`, the diff image stayed, and a CI job that keeps
    /// every diff image showed it after each run that passed).
    public func unusedDiffImages(names: Set<Path.Key>) -> [String] {
        let used = Set(names.flatMap { diffImages[$0] ?? [] }.map(\.file))
        return Set(diffImages.values.joined().map(\.file)).subtracting(used).sorted().map(join)
            .filter(isRemovableDiffImage)
    }

    /// Whether the file at `path` is none the command reads (`ProtectedFiles`: the pictures
    /// the documents show, which the command protects): a picture kept in the folder is never
    /// taken for a reference or a diff image and removed (a document showing
    /// `__snapshots__/p.diff.png` lost it when its check passed).
    private func isUnprotected(_ path: String) -> Bool { ProtectedFiles.input(at: path) == nil }

    /// Removes the diff image at `path` an earlier run left, unless it is a picture, or a folder
    /// (no run writes one, and it would go with all it holds).
    private func removeDiffImage(_ path: String) {
        if isRemovableDiffImage(path) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Whether the diff image at `path` is one this command may remove: a symbolic link (the
    /// link goes, what it leads to stays) or a file typeset wrote (`isRemovable`).
    private func isRemovableDiffImage(_ path: String) -> Bool {
        SnapshotFolder.symbolicLink(path) != nil || isRemovable(path) && OutputFormat.png.isOurs(path)
    }

    /// Where the symbolic link at `path` leads (`AtomicFileWriter.target`), nil when `path` is none.
    private static func symbolicLink(_ path: String) -> String? {
        let target = AtomicFileWriter.target(of: path)
        return target == path ? nil : target
    }

    /// Whether `path` is a file this command may remove: there, not a folder, not a picture.
    private func isRemovable(_ path: String) -> Bool {
        var isFolder = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder && isUnprotected(path)
    }

    /// Renders `pages` to PNG and compares each with its reference. A page that fails gets a
    /// diff image (the reference faded, differences in magenta; see `ImageDiff.writeDiffImage`),
    /// and so does a page without a reference of a screen that has others, compared with a
    /// blank page; a page that passes or is a new screen's loses any diff image an earlier run
    /// left. Throws when rendering or writing fails. `otherNames` are the names of the other
    /// documents whose references the folder holds (the names of them all will do: `name` is
    /// passed over).
    ///
    /// A reference with the page's very bytes has its pixels and is not decoded: a check that
    /// passes renders the page and compares bytes (decoding both images and measuring every
    /// pixel took 20 times as long as rendering the page).
    public func check(pages: [Page], name: String, options: SnapshotOptions, otherNames: Set<Path.Key> = [])
        throws -> SnapshotCheck
    {
        let existing = existingReferences(name: name, otherNames: otherNames)
        var checks: [SnapshotPageCheck] = []
        var conflicts: [Int] = []
        // The diff images made, each with the index of its page's check.
        var made: [(check: Int, image: DiffImage)] = []
        var blocked: String?  // why one of them cannot be written (`ImageDiff.unwritableProblem`)
        try forEachPNGPage(pages, scale: options.scale) { index, bytes, surface in
            let page = index + 1
            let reference = referencePath(name: name, page: page)
            if page > 1, otherNames.contains(Path.Key("\(name)-\(page)")) {
                conflicts.append(page)
                return
            }
            let diffImage = diffImagePath(name: name, page: page)
            /// A failure's figures and diff image (written with the others at the end).
            func fail(_ comparison: Comparison, hasReference: Bool, resolution: [UInt8]?) {
                var failed = SnapshotPageCheck(
                    page: page, reference: reference, comparison: comparison.result, hasReference: hasReference,
                    passed: false)
                if let problem = ImageDiff.unwritableProblem(diffImage) {
                    blocked = blocked ?? problem
                    failed.diffImageProblem = problem
                } else {
                    do {
                        let image = try ImageDiff.diffImage(comparison, for: diffImage, resolution: resolution)
                        made.append((checks.count, image))
                        failed.diffImage = diffImage
                    } catch {
                        removeDiffImage(diffImage)  // an earlier run's is not this one's
                        failed.diffImageProblem = "\(error)"
                    }
                }
                checks.append(failed)
            }
            // A page without a reference is compared with a blank page of its size and
            // background, as `diff` compares a page only one side has, where the screen has
            // references (it has grown): its diff image shows what is new (it had none). A new
            // screen's pages are not: nothing is beside them.
            guard FileManager.default.fileExists(atPath: reference) else {
                guard !existing.isEmpty else {
                    removeDiffImage(diffImage)
                    checks.append(
                        SnapshotPageCheck(page: page, reference: reference, hasReference: false, passed: false))
                    return
                }
                let blank = try ComparedPages.blankImage(like: pages[index], pageNumber: page, scale: options.scale)
                let comparison = Comparison(
                    lonePage: try PixelImage(drawn: surface), blank: blank, pageIsA: false,
                    tolerance: options.tolerance)
                fail(comparison, hasReference: false, resolution: PNGFile.resolution(of: bytes))
                return
            }
            let referenceBytes = PixelImage.bytes(of: reference)
            // The same bytes, or the same image data with other chunks around it (a reference
            // an earlier version wrote): the same pixels, not decoded.
            if let size = PNGFile.headerSize(bytes),
                referenceBytes == bytes || referenceBytes.map({ PNGFile.samePixelData($0, bytes) }) == true
            {
                let identical = Comparison.identical(
                    width: size.width, height: size.height, tolerance: options.tolerance)
                removeDiffImage(diffImage)
                checks.append(SnapshotPageCheck(page: page, reference: reference, comparison: identical, passed: true))
                return
            }
            let comparison = try Comparison(
                referenceImage(reference, referenceBytes), PixelImage(drawn: surface),
                tolerance: options.tolerance)
            if comparison.result.passes(maxDiff: options.maxDiff) {
                removeDiffImage(diffImage)
                checks.append(
                    SnapshotPageCheck(page: page, reference: reference, comparison: comparison.result, passed: true))
            } else {
                fail(comparison, hasReference: true, resolution: PNGFile.resolution(ofFileAt: reference))
            }
        }
        // The document's diff images are written together, all or none: an interrupted run
        // left a screen with some of its pages' new diff images beside older ones.
        var failure = blocked
        if failure == nil {
            do { try ImageDiff.write(made.map(\.image)) } catch { failure = "\(error)" }
        }
        if let failure {
            for (index, image) in made {
                checks[index].diffImage = nil
                checks[index].diffImageProblem = failure
                removeDiffImage(image.path)
            }
        }
        // Those still there: this value's listing is older than the last `record`.
        let extra = existing.filter { $0.key > pages.count }.sorted { $0.key < $1.key }.map(\.value)
            .filter(isRemovable)
        // A page the document no longer has has no diff image of this run either: a CI job
        // that keeps every diff image showed those of pages cut from a screen after each run
        // that passed.
        for file in diffImages(of: name, otherNames: otherNames, beyond: pages.count) { removeDiffImage(file) }
        return SnapshotCheck(name: name, pages: checks, extraReferences: extra, conflictingPages: conflicts)
    }

    /// Renders `pages` to PNG and makes them `name`'s references: writes those that are new or
    /// that fail the comparison `check` makes (creating the folder), removes references of
    /// pages the document no longer has, and removes `name`'s diff images. When a page's
    /// reference would be another document's (`conflictingPages`), it changes nothing.
    /// `otherNames` as in `check`.
    ///
    /// A reference that passes is kept whatever its bytes: one written by another version
    /// (before PNGs carried their resolution, or by another encoder), or within the tolerance
    /// that the checks allow (another machine's rasterizing), is not rewritten, so that
    /// updating changes only the screens that changed in the repository that keeps them.
    public func record(pages: [Page], name: String, options: SnapshotOptions, otherNames: Set<Path.Key> = []) throws
        -> SnapshotRecord
    {
        var record = SnapshotRecord(written: [], removed: [], conflictingPages: [])
        var changed: [(path: String, bytes: [UInt8])] = []
        try forEachPNGPage(pages, scale: options.scale) { index, bytes, surface in
            let page = index + 1
            if page > 1, otherNames.contains(Path.Key("\(name)-\(page)")) {
                record.conflictingPages.append(page)
                return
            }
            let reference = referencePath(name: name, page: page)
            if let old = PixelImage.bytes(of: reference) {
                if old == bytes || PNGFile.samePixelData(old, bytes) { return }
                let same = try? Comparison(
                    referenceImage(reference, old), PixelImage(drawn: surface), tolerance: options.tolerance)
                if same?.result.passes(maxDiff: options.maxDiff) == true { return }
            }
            changed.append((reference, bytes))
        }
        // A document that fails records none of its pages, rather than some.
        guard record.conflictingPages.isEmpty else { return record }
        // A reference that is a link (identical references kept once in git, in one folder or
        // across locales) is not written through: `b.png` a link to `a.png` put b's page in a's
        // reference, and the next run failed a.xml, which nobody had touched.
        for (reference, _) in changed {
            // (One that leads to a file the command reads is refused by the writer, which says which.)
            let target = AtomicFileWriter.target(of: reference)
            guard target != reference, ProtectedFiles.input(at: reference) == nil else { continue }
            throw ImageDiffError.write(
                path: reference,
                reason: "it is a link to '\(target)', which it would replace (another screen's reference, maybe); "
                    + "put a copy in its place to record this page")
        }
        if !changed.isEmpty {
            // Path.makeFolder names a file in the way ("File exists" did not say which).
            if let problem = Path.makeFolder(path) {
                throw ImageDiffError.write(path: path, reason: "cannot create the folder: \(problem)")
            }
            do {
                try AtomicFileWriter.write(changed)
            } catch {
                throw ImageDiffError.write(path: error.path, reason: error.reason)
            }
            record.written = changed.map(\.path)
        }
        let stale = existingReferences(name: name, otherNames: otherNames).filter { $0.key > pages.count }
        let removable = stale.sorted(by: { $0.key < $1.key }).map(\.value).filter(isRemovable)  // as in `check`
            + diffImages(of: name, otherNames: otherNames).filter(isRemovableDiffImage)
        for file in removable {
            do {
                try FileManager.default.removeItem(atPath: file)
                record.removed.append(file)
            } catch {
                throw ImageDiffError.write(path: file, reason: "cannot remove it: \(describeFileError(error))")
            }
        }
        return record
    }

    /// The diff images of `name`'s pages after page `beyond` an earlier run left (not those of
    /// another document whose name is `name-K`, one of `otherNames`).
    private func diffImages(of name: String, otherNames: Set<Path.Key>, beyond: Int = 0) -> [String] {
        (diffImages[Path.Key(name)] ?? []).filter { page, file in
            let stem = Path.dropping(".diff.png", from: file) ?? file
            return page > beyond && (Path.same(stem, name) || !otherNames.contains(Path.Key(stem)))
        }.map { join($0.file) }
    }

    /// Removes the diff images an earlier run left for `name`, when this run has none to show:
    /// its document fails to lay out, or its check fails before comparing (a reference that is
    /// no PNG). Kept, they would be taken for this run's.
    public func removeDiffImages(of name: String, otherNames: Set<Path.Key> = []) {
        for file in diffImages(of: name, otherNames: otherNames) { removeDiffImage(file) }
    }

    private func join(_ file: String) -> String { Path.join(path, file) }
}

/// The reference at `path` from its `bytes` as already read (nil when they could not be).
private func referenceImage(_ path: String, _ bytes: [UInt8]?) throws -> PixelImage {
    try bytes.map { try PixelImage(png: $0, of: path) } ?? PixelImage(contentsOf: path)
}
