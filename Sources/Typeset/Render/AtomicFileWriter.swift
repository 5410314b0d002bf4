// Atomic output files (SPEC §5: "write each output file atomically (never a partial file)").
// Each file is written to a temporary file in its own folder, then renamed over the target;
// rename(2) within one folder is atomic, so readers see the old file or the new one, never part
// of one. Files are not fsync'ed: that guards only against a power cut, and cost 2.4 ms a file
// here (a quarter of the time of rendering a page to PNG); like compilers, typeset leaves
// writing back to the kernel.
import Glibc
import Synchronization

/// A file that could not be written, and why (from `errno`).
struct FileWriteFailure: Error {
    var path: String
    var reason: String
}

public enum AtomicFileWriter {
    /// Writes every file or none of them: all contents go to temporary files first, and only
    /// when they are all on disk are they renamed into place (`StagedFiles`).
    static func write(_ files: [(path: String, bytes: [UInt8])]) throws(FileWriteFailure) {
        let staged = try StagedFiles(files.map(\.path))
        for (index, file) in files.enumerated() { try staged.stage(index, file.bytes) }
        try staged.commit()
    }

    /// The file that writing `path` replaces: the one a symbolic link points to (the link
    /// stays; `-o` through a link to a file replaced the link and left the file as it was),
    /// also where that file is not there yet, link after link, as many as the system follows (a
    /// link replaced itself until its file was made, then was written through: which of two
    /// inputs' outputs won depended on their order), else `path`.
    public static func target(of path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
        if let resolved = Path.realPath(path) { return resolved }
        var path = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<40 {
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
                case let count = readlink(path, &buffer, buffer.count - 1), count > 0
            else { break }
            let destination = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = Path.folder(path)
            path = Path.isAbsolute(destination) || folder.isEmpty ? destination : Path.join(folder, destination)
        }
        return path
    }

    /// Refuses a target that a rename would wrongly replace: a folder (rename(2) cannot), a
    /// device, a pipe or a socket, even through a symbolic link (as root, `-o /dev/null` turned
    /// /dev/null into a PDF file), a file the command reads (`ProtectedFiles`), or a font file
    /// (`.ttf`, `.otf`, `.ttc`, `.otc`, `.woff`, `.woff2`). `output` is
    /// the path as given, which the error names.
    /// A name longer than a folder can hold is refused here too: its temporary is cut to fit,
    /// so the rename was the first to fail, and a document's second page (`…-2.png`, two bytes
    /// longer) failed after its first was in place.
    static func checkTarget(_ path: String, for output: String) throws(FileWriteFailure) {
        if isFolder(path) { throw FileWriteFailure(path: output, reason: "it is a folder") }
        if Path.lastComponent(path).utf8.count > nameBytes {
            throw FileWriteFailure(path: output, reason: "its name is longer than the \(nameBytes) bytes a file name can have")
        }
        var status = stat()
        // (A link `target(of:)` cannot follow by its text, the kernel can: /dev/stdout into a
        // pipe reads "pipe:[461602]", and was taken for a file not there yet.)
        guard stat(path, &status) == 0 || path != output && stat(output, &status) == 0 else {
            // A link to itself, or in a loop, was replaced by the output.
            if let reason = brokenLinkReason(path) {
                throw FileWriteFailure(path: output, reason: "it is a symbolic link that cannot be followed (\(reason))")
            }
            guard path != output else { return }
            // Nothing there yet: but a link does not make a markup file of an output.
            if isMarkupOrCatalogName(path) {
                throw FileWriteFailure(path: output, reason: "it leads to '\(path)', named as a markup file or string catalog; name another output")
            }
            // (The error named only the link's target, a path the user never typed.)
            if !Path.folder(path).isEmpty, stat(Path.folder(path), &status) != 0 {
                throw FileWriteFailure(path: output, reason: "it is a symbolic link to '\(path)', whose folder does not exist")
            }
            return
        }
        let kind = status.st_mode & S_IFMT
        if kind != S_IFREG && kind != S_IFDIR {
            throw FileWriteFailure(path: output, reason: "it is a device, a pipe or a socket, not a file, and would be replaced by one")
        }
        if let (input, role) = ProtectedFiles.file(at: path, status: status) {
            // `path` is not `output` when `output` is a symbolic link.
            let what = path != output ? "it leads to '\(input)', " : input == output ? "it is " : "it is '\(input)', "
            throw FileWriteFailure(path: output, reason: what + role + "; writing it would replace it; name another output")
        }
        // Nor any font file: a user's or the system's is read only when a run needs it (a
        // multi-page render's `-2` page name, or `diff --out`, replaced one).
        if kind == S_IFREG, FontDatabase.isFontFileName(path) {
            throw FileWriteFailure(path: output, reason: "it is a font file; writing it would replace it; name another output")
        }
        // Nor a markup file or string catalog that no input is: named so, the command line
        // refuses it at once; through a symbolic link (`out/a.pdf` → `../notes.xml`) it was
        // replaced by the output.
        if kind == S_IFREG, isMarkupOrCatalogName(path), !holdsAnOutput(path) {
            let what = path != output ? "it leads to '\(path)', " : "it is "
            throw FileWriteFailure(path: output, reason: what + "a markup file or string catalog; writing it would replace it; name another output")
        }
        // A file its owner made read-only is not replaced (a reference kept with chmod a-w was
        // replaced silently); root's are, as root's `cp` writes them, and so are another
        // user's in a folder this one may write, as before.
        if kind == S_IFREG && geteuid() != 0 && status.st_uid == geteuid() && status.st_mode & S_IWUSR == 0 {
            throw FileWriteFailure(
                path: output,
                reason: "it is read-only (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "make it writable or name another output")
        }
    }

    /// Whether the file at `path` is an output typeset wrote (`OutputFormat.isOurs`: a PDF, PNG
    /// or SVG of its own, by its producer, chunk or comment; a snapshot's JUnit report), not
    /// markup or a catalog: an output named `.json` was refused the second time. (By its first
    /// bytes alone, a markup file with "<svg" in a comment was written over.)
    public static func holdsAnOutput(_ path: String) -> Bool {
        [OutputFormat.pdf, .png, .svg].contains { $0.isOurs(path) } || JUnitReport.isOurs(path)
    }

    /// Whether `path` is named as markup or a string catalog is (`.xml`, `.xcstrings`,
    /// `.strings`, `.stringsdict`, `.json`): an output seldom is.
    public static func isMarkupOrCatalogName(_ path: String) -> Bool {
        [".xml", ".xcstrings", ".strings", ".stringsdict", ".json"].contains(where: { path.lowercased().hasSuffix($0) })
    }

    /// Writes `bytes` to a new hidden file in the folder of `path` and returns its path.
    static func writeTemporary(_ bytes: [UInt8], beside path: String) throws(FileWriteFailure)
        -> String
    {
        let (descriptor, temporary) = try createTemporary(beside: path)
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            if !writeAll(descriptor, buffer) { failure = lastError() }
        }
        if close(descriptor) != 0, failure == nil { failure = lastError() }
        if let failure {
            removeTemporary(temporary)
            throw FileWriteFailure(path: path, reason: failure)
        }
        return temporary
    }

    /// Removes a temporary file that will not be renamed into place.
    static func removeTemporary(_ temporary: String) {
        PendingTemporaries.uninterrupted {
            unlink(temporary)
            PendingTemporaries.remove(temporary)
        }
    }

    /// Creates a new hidden file in the folder of `path`; returns its descriptor and path.
    static func createTemporary(beside path: String) throws(FileWriteFailure) -> (descriptor: Int32, path: String) {
        if isFolder(path) { throw FileWriteFailure(path: path, reason: "it is a folder") }
        let (folder, name) = (Path.folder(path), Path.lastComponent(path))
        var descriptor: Int32 = -1
        var temporary = ""
        var failure: Int32 = 0
        for _ in 0..<16 {
            let suffix = "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            temporary = Path.join(folder, "." + prefix(of: name, bytes: Self.nameBytes - 1 - suffix.utf8.count) + suffix)
            // Recorded before it exists, and made in one step a signal does not cut: a signal
            // is delivered as a system call returns, so one that came during open(2) found the
            // new file not yet recorded, and a SIGTERM in a render of many pages left a
            // temporary behind nearly every time (with --jobs 2, the other job's, still).
            PendingTemporaries.uninterrupted {
                PendingTemporaries.add(temporary)
                // 0o666 through the umask: the same permissions a plain new file would get.
                descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                failure = errno
                if descriptor < 0 { PendingTemporaries.remove(temporary) }  // not made: not ours to remove
            }
            if descriptor >= 0 || failure != EEXIST { break }
        }
        guard descriptor >= 0 else {
            errno = failure
            // The file is made in its folder: a writable file in a folder that is not said
            // only "Permission denied".
            let folderNote =
                failure == EACCES ? " (the folder '\(folder.isEmpty ? "." : folder)' may not be written to)" : ""
            throw FileWriteFailure(path: path, reason: lastError() + folderNote)
        }
        // The file it replaces keeps its owner, group and permissions, as an editor keeps them
        // (a shared 0664 file came back 0644, in the writer's group). Only where the owner and
        // group could be kept (root keeps both; a user, a group of theirs): another group's
        // permissions are not given to the writer's.
        var replaced = stat()
        if stat(path, &replaced) == 0 && replaced.st_mode & S_IFMT == S_IFREG {
            let owner = geteuid() == 0 ? replaced.st_uid : uid_t.max  // (-1: kept as made)
            let kept = fchown(descriptor, owner, replaced.st_gid) == 0
                && (geteuid() == 0 || replaced.st_uid == geteuid())
            if kept { _ = fchmod(descriptor, replaced.st_mode & 0o777) }
        }
        return (descriptor, temporary)
    }

    /// The longest file name (NAME_MAX): a temporary's name is cut to fit, so that any name a
    /// folder can hold can be written (a 240-byte name failed: "File name too long").
    static let nameBytes = 255

    /// The longest start of `name` of at most `bytes` UTF-8 bytes, whole characters only.
    private static func prefix(of name: String, bytes: Int) -> String {
        guard name.utf8.count > bytes else { return name }
        var kept = 0
        var result = ""
        for scalar in name.unicodeScalars {
            kept += UTF8.width(scalar)
            if kept > bytes { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Writes all of `buffer` to `descriptor`; false (with `errno` set) on failure.
    static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// Several files written all or none: each goes to a temporary file beside its target as soon
/// as its bytes are ready (from any thread), and `commit` renames them all into place once every
/// one is staged. Dropped without a commit, the temporaries are removed: every failure path
/// leaves none. A document's pages are staged as they are drawn, so that their bytes are not all
/// held until the last one is (a 2,223-page document at `--scale 8` held 6.4 GB of PNG).
/// Targets are checked first, so that a refusal never leaves some of the files new and some old;
/// after that a rename within a folder does not fail, short of the disk failing.
final class StagedFiles: Sendable {
    /// The files the paths replace (`AtomicFileWriter.target`).
    private let targets: [String]
    /// Each file's temporary, once staged; emptied as they are renamed.
    private let temporaries: Locked<[String?]>

    init(_ paths: [String]) throws(FileWriteFailure) {
        let targets = paths.map(AtomicFileWriter.target(of:))
        for (path, target) in zip(paths, targets) { try AtomicFileWriter.checkTarget(target, for: path) }
        self.targets = targets
        temporaries = Locked(Array(repeating: nil, count: paths.count))
    }

    deinit {
        // Only temporaries not yet renamed are left.
        for case let temporary? in temporaries.withLock({ $0 }) { AtomicFileWriter.removeTemporary(temporary) }
    }

    /// Writes the bytes of file `index` to its temporary (replacing one staged before).
    func stage(_ index: Int, _ bytes: [UInt8]) throws(FileWriteFailure) {
        let temporary = try AtomicFileWriter.writeTemporary(bytes, beside: targets[index])
        let earlier = temporaries.withLock { temporaries in
            defer { temporaries[index] = temporary }
            return temporaries[index]
        }
        if let earlier { AtomicFileWriter.removeTemporary(earlier) }
    }

    /// Renames every file into place, in order: all of them, or none by a signal (a document is
    /// never left with some pages new). Every file must be staged.
    func commit() throws(FileWriteFailure) {
        let staged = temporaries.withLock { $0 }
        // Checked again: a render takes long, and a target that became a folder meanwhile
        // failed its rename after the pages before it were in place.
        for target in targets { try AtomicFileWriter.checkTarget(target, for: target) }
        try PendingTemporaries.uninterrupted { () throws(FileWriteFailure) in
            for (index, temporary) in staged.enumerated() {
                guard let temporary else { preconditionFailure("file \(index) is not staged") }
                if rename(temporary, targets[index]) != 0 {
                    throw FileWriteFailure(path: targets[index], reason: AtomicFileWriter.lastError())
                }
                PendingTemporaries.remove(temporary)
                temporaries.withLock { $0[index] = nil }
            }
        }
    }
}

/// A file written in steps into a hidden temporary file beside its target, and renamed over the
/// target by `commit()` (atomic, like `AtomicFileWriter`). Dropped without a commit, or on
/// `discard()`, the temporary file is removed. Writes are buffered; the first failure is kept
/// and reported by `commit()`. Used from one thread at a time.
final class TemporaryFile {
    let path: String
    /// `path`, or the file its symbolic link points to (`AtomicFileWriter.target`).
    private let target: String
    private let temporary: String
    private let descriptor: Int32
    /// Small writes are gathered here.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: TemporaryFile.bufferSize, alignment: 16)
    private var buffered = 0
    private var failure: String?
    /// Renamed into place, or removed: nothing left to clean up.
    private var settled = false
    /// Bytes written so far, buffered ones included.
    private(set) var count = 0
    private static let bufferSize = 1 << 16

    init(beside path: String) throws(FileWriteFailure) {
        target = AtomicFileWriter.target(of: path)
        try AtomicFileWriter.checkTarget(target, for: path)
        (descriptor, temporary) = try AtomicFileWriter.createTemporary(beside: target)
        self.path = path
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
        if !settled { AtomicFileWriter.removeTemporary(temporary) }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        guard failure == nil, let base = bytes.baseAddress else { return }
        if buffered + bytes.count > Self.bufferSize { flush() }
        if bytes.count >= Self.bufferSize {
            if !AtomicFileWriter.writeAll(descriptor, bytes) { failure = AtomicFileWriter.lastError() }
        } else {
            (buffer + buffered).copyMemory(from: base, byteCount: bytes.count)
            buffered += bytes.count
        }
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the buffered bytes out.
    func flush() {
        guard failure == nil, buffered > 0 else { return }
        if !AtomicFileWriter.writeAll(descriptor, UnsafeRawBufferPointer(start: buffer, count: buffered)) {
            failure = AtomicFileWriter.lastError()
        }
        buffered = 0
    }

    /// Renames the file over its target; throws the first write failure instead.
    func commit() throws(FileWriteFailure) {
        flush()
        if let failure { throw FileWriteFailure(path: path, reason: failure) }
        try PendingTemporaries.uninterrupted { () throws(FileWriteFailure) in
            if rename(temporary, target) != 0 { throw FileWriteFailure(path: path, reason: AtomicFileWriter.lastError()) }
            PendingTemporaries.remove(temporary)
        }
        settled = true
    }

    /// Removes the temporary file now (after a failure); later writes go nowhere.
    func discard() {
        guard !settled else { return }
        AtomicFileWriter.removeTemporary(temporary)
        settled = true
        failure = failure ?? "discarded"
    }
}

/// The files a command reads (its markup, its string catalog, the pictures it shows), which no
/// output may replace: one named on the command line is refused before anything is read, but a
/// symbolic link to an input, a later page named like one (`x-2.png`) or a snapshot reference
/// is known only as it is written, and each was written over the input without a word.
/// A file is found by its device and inode, then compared by its path with symbolic links
/// resolved: a rename replaces that name only, so a hard link to an input is not the input.
/// (Each file's resolved path, kept for 10,000 inputs, took 2 MB: 7% of the run's memory.)
public enum ProtectedFiles {
    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }
    /// The paths given to each `protect`, with what the errors call them.
    private struct Group {
        let paths: [String]
        let role: String
    }
    private struct State {
        var groups: [Group] = []
        /// Each protected file: its group and its index in the group's paths.
        var files: [Identity: (group: Int32, index: Int32)] = [:]
    }
    private static let state = Locked(State())

    /// Protects the files at `paths` that exist (the first path names a file in errors), as
    /// `role` ("an image a document shows").
    public static func protect(_ paths: [String], as role: String = "a file this command reads") {
        var found: [(Identity, Int32)] = []
        for (index, path) in paths.enumerated() {
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            found.append((Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)), Int32(index)))
        }
        guard !found.isEmpty else { return }
        state.withLock { state in
            let group = Int32(state.groups.count)
            state.groups.append(Group(paths: paths, role: role))
            for (identity, index) in found where state.files[identity] == nil { state.files[identity] = (group, index) }
        }
    }

    /// The protected file at `path` (through symbolic links), by the path it was protected under.
    public static func input(at path: String) -> String? {
        var status = stat()
        return stat(path, &status) == 0 ? file(at: path, status: status)?.path : nil
    }

    /// The protected file at `path`, whose stat(2) is `status`.
    static func file(at path: String, status: stat) -> (path: String, role: String)? {
        let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        guard let (input, role) = state.withLock({ state -> (String, String)? in
            state.files[identity].map { found in
                let group = state.groups[Int(found.group)]
                return (group.paths[Int(found.index)], group.role)
            }
        }), let real = Path.realPath(path), real == Path.realPath(input) else { return nil }
        return (input, role)
    }
}

/// The temporary files not yet renamed into place or removed. On SIGINT, SIGTERM, SIGHUP,
/// SIGPIPE and the other signals that end a process (Ctrl-C, a CI job's time limit, `typeset
/// render … 2>&1 | head` when the reader goes away) the command line removes them and dies of
/// the signal as before (`removeOnTermination`): an interrupted PDF of many pages left its
/// hidden `.NAME.pdf.*.tmp` behind; and the output folders it made that are still empty. A
/// signal handler may read memory and call unlink and rmdir, no more:
/// the paths are copied into fixed slots (a long one's copy apart), flagged in use.
public enum PendingTemporaries {
    /// Slots come in blocks of this many, a block made when the ones before are full: an
    /// output of more pages than one block holds (`AtomicFileWriter.write` makes a temporary
    /// for each page before renaming any; `-o` for many inputs is one output) is recorded whole
    /// (past 16,384 pages, a signal left the rest behind). Up to `maximumBlocks`, a million.
    private static let slotCount = 16_384
    private static let maximumBlocks = 64
    /// A path longer than this (up to PATH_MAX) is copied apart, its slot holding where (in
    /// use as `longPath`): a path of over 1,023 bytes was not recorded, and SIGTERM left its
    /// temporary behind.
    private static let slotBytes = 1024
    private static let longPath: sig_atomic_t = 2

    /// The blocks' memory, never freed: block b's paths and in-use flags. The first
    /// `blockCount` are made; a block is made under `book`'s lock before it is counted.
    private struct Blocks: @unchecked Sendable {
        // @unchecked: written under `book`'s lock; the signal handler only reads them.
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>>.allocate(capacity: maximumBlocks)
        let used = UnsafeMutablePointer<UnsafeMutablePointer<sig_atomic_t>>.allocate(capacity: maximumBlocks)
    }
    private static let blocks = Blocks()
    private static let blockCount = Atomic<Int>(0)

    /// The path and in-use flag of slot `slot`, counted over all blocks.
    private static func slot(_ slot: Int) -> (path: UnsafeMutablePointer<CChar>, used: UnsafeMutablePointer<sig_atomic_t>) {
        let (block, offset) = slot.quotientAndRemainder(dividingBy: slotCount)
        return (blocks.paths[block] + offset * slotBytes, blocks.used[block] + offset)
    }

    /// The slot of each recorded path, and the slots free again (`fresh`: never used yet).
    private struct Book {
        var slotOf: [String: Int] = [:]
        var freed: [Int] = []
        var fresh = 0
    }
    private static let book = Locked(Book())

    /// Set when a handler begins: from then on no temporary is made or renamed.
    private static let dying = Atomic<Bool>(false)
    /// Threads in an `uninterrupted` step; a handler waits for them.
    private static let busy = Atomic<Int>(0)
    /// Those that end a process by default and that a user or a limit sends (Ctrl-\'s SIGQUIT,
    /// a CPU-time limit's SIGXCPU): each left its temporary behind.
    private static let handledSignals = [
        SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXCPU, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
    ]

    /// Runs `body` (making a temporary and recording it, or renaming temporaries into place) as
    /// one step a termination signal does not cut: the signals wait while this thread runs it,
    /// and a handler in another thread waits for it to end (up to 2 s) before it removes the
    /// temporaries. After a handler has begun, the thread waits to die instead: nothing more is
    /// written. (Without this, the other job of `--jobs 2` made temporaries while the handler
    /// was removing them, and a signal between two renames left a document with some of its
    /// pages new.)
    static func uninterrupted<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in handledSignals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        busy.add(1, ordering: .sequentiallyConsistent)
        if dying.load(ordering: .sequentiallyConsistent) {
            busy.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }  // the handler's thread ends the process
        }
        defer { busy.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// Records `path`.
    static func add(_ path: String) {
        let bytes = path.utf8CString
        // A long path's copy (freed by `remove`).
        let long = bytes.count > slotBytes ? strdup(path) : nil
        if bytes.count > slotBytes && long == nil { return }
        book.withLock { book in
            let made = blockCount.load(ordering: .acquiring)
            if book.freed.isEmpty && book.fresh == made * slotCount {
                guard made < maximumBlocks else { return }
                blocks.paths[made] = .allocate(capacity: slotCount * slotBytes)
                blocks.used[made] = .allocate(capacity: slotCount)
                blocks.used[made].initialize(repeating: 0, count: slotCount)
                blockCount.store(made + 1, ordering: .releasing)  // a handler reads it from now on
            }
            let number = book.freed.popLast() ?? book.fresh
            if number == book.fresh { book.fresh += 1 }
            let slot = slot(number)
            if let long {
                UnsafeMutableRawPointer(slot.path).storeBytes(of: long, as: UnsafeMutablePointer<CChar>.self)
                slot.used.pointee = longPath
            } else {
                bytes.withUnsafeBufferPointer { path in
                    guard let base = path.baseAddress else { return }
                    slot.path.update(from: base, count: path.count)
                    slot.used.pointee = 1
                }
            }
            book.slotOf[path] = number
        }
    }

    /// The path a slot holds: its bytes, or, for a long path, where its copy is.
    private static func path(in slot: UnsafeMutablePointer<CChar>, used: sig_atomic_t) -> UnsafeMutablePointer<CChar> {
        used == longPath ? UnsafeMutableRawPointer(slot).load(as: UnsafeMutablePointer<CChar>.self) : slot
    }

    /// Forgets `path` (a long path's copy freed: callers are `uninterrupted`, which a handler
    /// waits for before it reads the slots).
    static func remove(_ path: String) {
        book.withLock { book in
            guard let number = book.slotOf.removeValue(forKey: path) else { return }
            let slot = slot(number)
            let copy = slot.used.pointee == longPath ? Self.path(in: slot.path, used: longPath) : nil
            slot.used.pointee = 0
            free(copy)
            book.freed.append(number)
        }
    }

    /// The output folders the command made (`madeFolders`), the deepest first: copies a
    /// handler reads, `madeCount` of them. It removes those still empty, as a command that
    /// wrote nothing there does (a SIGTERM before the first output left them behind).
    private static let madeCapacity = 64
    private struct MadeFolders: @unchecked Sendable {
        // @unchecked: written before `madeCount` counts them; the handler only reads them.
        let paths = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: madeCapacity)
    }
    private static let made = MadeFolders()
    private static let madeCount = Atomic<Int>(0)

    /// Records `folders`, made by the command for its outputs (the deepest first), for a
    /// handler to remove while they are empty.
    public static func madeFolders(_ folders: [String]) {
        for folder in folders {
            let count = madeCount.load(ordering: .acquiring)
            guard count < madeCapacity, let copy = strdup(folder) else { return }
            made.paths[count] = copy
            madeCount.store(count + 1, ordering: .releasing)
        }
    }

    /// The paths the signal handler would remove, as it reads them.
    static var recorded: [String] {
        book.withLock { _ in
            (0..<blockCount.load(ordering: .acquiring) * slotCount).map(slot).filter { $0.used.pointee != 0 }
                .map { String(cString: path(in: $0.path, used: $0.used.pointee)) }
        }
    }

    /// Installs the handlers (for signals the process does not ignore: `nohup` and background
    /// jobs keep theirs), and unblocks those signals on the calling thread, the main one: a
    /// parent that spawned typeset from a thread that blocks them (a test runner's; Python's
    /// subprocess after `pthread_sigmask`) passed the mask on, and SIGTERM and SIGINT stayed
    /// pending (a render hung in Cairo outlived `timeout`'s SIGTERM; another ran to its end).
    /// A file size limit (`ulimit -f`) is a failed write, as a full disk is
    /// (EFBIG: the input fails with its reason, the others are rendered): its SIGXFSZ killed
    /// the batch without a word and left the temporary it was writing.
    public static func removeOnTermination() {
        signal(SIGXFSZ, SIG_IGN)
        // Made before a handler can read them (a first use initializes, which a handler may not).
        _ = blocks
        _ = blockCount.load(ordering: .acquiring)
        _ = dying.load(ordering: .sequentiallyConsistent)
        _ = busy.load(ordering: .sequentiallyConsistent)
        _ = made
        _ = madeCount.load(ordering: .acquiring)
        var installed = sigset_t()
        sigemptyset(&installed)
        defer { pthread_sigmask(SIG_UNBLOCK, &installed, nil) }
        for signal in handledSignals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != 1  // SIG_IGN
            else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                PendingTemporaries.dying.store(true, ordering: .sequentiallyConsistent)
                var step = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                var waited = 0
                while PendingTemporaries.busy.load(ordering: .sequentiallyConsistent) > 0 && waited < 2000 {
                    nanosleep(&step, nil)
                    waited += 1
                }
                let blocks = PendingTemporaries.blocks
                for block in 0..<PendingTemporaries.blockCount.load(ordering: .acquiring) {
                    for slot in 0..<PendingTemporaries.slotCount {
                        let used = blocks.used[block][slot]  // (read once: a late writer may change it)
                        guard used != 0 else { continue }
                        let bytes = blocks.paths[block] + slot * PendingTemporaries.slotBytes
                        unlink(PendingTemporaries.path(in: bytes, used: used))
                    }
                }
                // (rmdir leaves a folder with anything in it.)
                for index in 0..<PendingTemporaries.madeCount.load(ordering: .acquiring) {
                    if let folder = PendingTemporaries.made.paths[index] { rmdir(folder) }
                }
                // Dies of the signal, as without the handler (the shell sees 130, 143, ...).
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            sigaddset(&installed, signal)
        }
    }
}
