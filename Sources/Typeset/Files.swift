// Files without Foundation: paths as NSString spelled them, reading a file, a failed file
// operation in words. (NSString and FileHandle are not part of FoundationEssentials, which is
// all typeset links; Strings.swift has the string helpers.)
import FoundationEssentials
import Glibc

public enum Path {
    // Paths are split and compared on their UTF-8 bytes, as the file system does. As Strings,
    // by Characters, a slash was part of a grapheme cluster with a combining mark after it, or
    // a prepended mark before it ("x\u{6DD}/a.xml": U+06DD ARABIC END OF AYAH), and was not
    // found: the output went to a folder that did not exist; and Swift's == compares canonical
    // equivalence, where "café.xml" composed and decomposed are two files (`Key`).

    /// A path as the file system tells paths apart: byte for byte.
    public struct Key: Hashable, Sendable, ExpressibleByStringLiteral {
        public let bytes: [UInt8]
        public init(_ path: String) { bytes = Array(path.utf8) }
        public init(stringLiteral path: String) { self.init(path) }
        public var path: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Whether `a` and `b` are the same path, byte for byte (`Key`).
    public static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// `path` without `suffix` (".png"), or nil when it does not end so. (As Characters, a
    /// prepended mark before the dot took it in: "x\u{6DD}.png" did not end in ".png".)
    public static func dropping(_ suffix: String, from path: String) -> String? {
        let count = suffix.utf8.count
        guard path.utf8.count >= count, path.utf8.suffix(count).elementsEqual(suffix.utf8) else { return nil }
        return String(decoding: path.utf8.dropLast(count), as: UTF8.self)
    }

    /// Whether `path` starts at the root.
    public static func isAbsolute(_ path: String) -> Bool { path.utf8.first == slash }

    /// Whether the file name `name` is hidden: it begins with a dot.
    public static func isHidden(_ name: String) -> Bool { name.utf8.first == UInt8(ascii: ".") }

    /// Whether `path` ends in a slash (names a folder).
    public static func endsInSlash(_ path: String) -> Bool { path.utf8.last == slash }

    private static let slash = UInt8(ascii: "/")

    /// `path[from..<to]` by UTF-8 offsets (at ASCII bytes, so whole characters).
    private static func piece(_ path: String, _ from: Int, _ to: Int) -> String {
        let utf8 = path.utf8
        return String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)], as: UTF8.self)
    }

    /// The UTF-8 offset of the last `byte` in `path`.
    private static func lastOffset(of byte: UInt8, in path: String) -> Int? {
        path.utf8.lastIndex(of: byte).map { path.utf8.distance(from: path.utf8.startIndex, to: $0) }
    }

    /// The names between the slashes of `path`, without empty ones.
    public static func components(_ path: String) -> [String] {
        path.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `b.xml` of `a/b.xml` (trailing slashes ignored; `/` of `/`).
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return trimmed }
        guard let slash = lastOffset(of: slash, in: trimmed) else { return trimmed }
        return piece(trimmed, slash + 1, trimmed.utf8.count)
    }

    /// `a` of `a/b.xml`, `/` of `/b.xml`, empty for a bare name.
    public static func folder(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = lastOffset(of: slash, in: trimmed) else { return "" }
        if slash == 0 { return "/" }
        return trimmingTrailingSlashes(piece(trimmed, 0, slash))
    }

    /// `xml` of `a/b.xml`; empty without one (and for names that only start with a dot).
    public static func fileExtension(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = lastOffset(of: UInt8(ascii: "."), in: name), dot != 0 else { return "" }
        return piece(name, dot + 1, name.utf8.count)
    }

    /// The file name without its extension: `b` of `a/b.xml`.
    public static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        let ext = fileExtension(name)
        return ext.isEmpty && name.utf8.last != UInt8(ascii: ".") ? name : piece(name, 0, name.utf8.count - ext.utf8.count - 1)
    }

    /// `path` made absolute against `base`, with `.`, `..` and repeated slashes removed (by
    /// their names: symbolic links are left as they are).
    public static func normalized(_ path: String, relativeTo base: String) -> String {
        // On UTF-8 bytes, component by component (splitting the String would break it into
        // grapheme clusters): the document's folder is worked out for every document.
        var output: [UInt8] = []  // "/a/b", or empty for the root
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
                    let component = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    if component.elementsEqual("..".utf8) {
                        output.removeSubrange((output.lastIndex(of: UInt8(ascii: "/")) ?? 0)...)
                    } else if !component.isEmpty && !component.elementsEqual(".".utf8) {
                        output.append(UInt8(ascii: "/"))
                        output.append(contentsOf: component)
                    }
                    start = end + 1
                }
            }
        }
        if !isAbsolute(path) { add(base) }
        add(path)
        return output.isEmpty ? "/" : String(decoding: output, as: UTF8.self)
    }

    /// The current folder, by getcwd(3): FileManager's `currentDirectoryPath` took most of the
    /// time of setting up a document's conversion.
    public static func currentDirectory() -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
            guard let base = buffer.baseAddress, getcwd(base, buffer.count) != nil else {
                return FileManager.default.currentDirectoryPath
            }
            return String(cString: base)
        }
    }

    /// `path` absolute with every symbolic link resolved, or nil when nothing is there.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Makes `folder` and the folders above it where missing (an output's folder, before the
    /// output is written). Empty: the current one. Returns why it could not, in the system's
    /// words.
    public static func makeFolder(_ folder: String) -> String? { makeFolderFailure(folder)?.reason }

    /// As `makeFolder`, and whether the path is at fault (a file, or a link to nothing, where a
    /// folder is wanted) rather than the system (no permission, a read-only or full disk).
    public static func makeFolderFailure(_ folder: String) -> (reason: String, pathIsWrong: Bool)? {
        guard !folder.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return nil
        } catch {
            // "File exists" said that a file stands where a folder is wanted: say which.
            var path = isAbsolute(folder) ? "/" : ""
            for part in components(folder) {
                path += (path.isEmpty || endsInSlash(path) ? "" : "/") + part
                var status = stat()
                if stat(path, &status) == 0 {
                    if status.st_mode & S_IFMT != S_IFDIR { return ("'\(path)' is a file, not a folder", true) }
                } else if brokenLinkReason(path) != nil {  // a link to nothing, or in a loop
                    return ("'\(path)' is a symbolic link that leads to no folder", true)
                }
            }
            // A name longer than a folder can hold, or a path longer than the system takes, is
            // the path's fault too.
            let tooLong = folder.utf8.count >= PATH_MAX
                || components(folder).contains { $0.utf8.count > AtomicFileWriter.nameBytes }
            return (describeFileError(error), tooLong)
        }
    }

    /// `path` made absolute from `folder` (the working folder), with `.`, `..` and repeated
    /// slashes resolved by their spelling alone (symbolic links are not followed): one name for
    /// `a.xml`, `./a.xml` and `sub/../a.xml`.
    public static func lexicallyAbsolute(_ path: String, in folder: String) -> String {
        let joined = isAbsolute(path) ? path : folder + "/" + path
        // Most paths have nothing to resolve: no parts to split. (Searched as bytes: "/./"
        // after a prepended mark was no match as Characters.)
        let bytes = Array(joined.utf8)
        func has(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            return bytes.count >= needle.count && (0...bytes.count - needle.count).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        let plain = !has("//") && !has("/./") && !has("/../") && dropping("/.", from: joined) == nil
            && dropping("/..", from: joined) == nil && !(bytes.count > 1 && endsInSlash(joined))
        if plain { return joined }
        var parts: [String] = []
        for part in components(joined) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `paths` without the folders they all lie in (made absolute from `folder` first): a sheet's
    /// captions, the same wherever the command runs and however the paths are typed
    /// (`lt/a.xml`, `./lt/b.xml` and `/tmp/lt/c.xml` from /tmp are `a.xml`, `b.xml`, `c.xml`).
    /// Each keeps at least its name.
    public static func withoutCommonFolders(_ paths: [String], in folder: String) -> [String] {
        let parts = paths.map { components(lexicallyAbsolute($0, in: folder)) }
        guard let first = parts.first else { return [] }
        var common = max(0, first.count - 1)  // `/` itself has no part
        for other in parts.dropFirst() {
            common = max(0, min(common, other.count - 1))
            common = (0..<common).first { !same(other[$0], first[$0]) } ?? common
        }
        return parts.map { $0[common...].joined(separator: "/") }
    }

    /// `folder/name`, with one slash between.
    public static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return endsInSlash(folder) ? folder + name : folder + "/" + name
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var end = path.utf8.count
        while end > 1 && path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: end - 1)] == slash { end -= 1 }
        return end == path.utf8.count ? path : piece(path, 0, end)
    }
}

/// A regular file (or a folder) as it is now, by stat(2): a cache key that changes when the
/// file is replaced or written to (a folder's, when a name in it is added or removed).
struct FileVersion: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int
    var modifiedNanoseconds: Int

    /// nil when nothing, or no regular file (no folder, for `folder`), is at `path`.
    init?(path: String, folder: Bool = false) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == (folder ? S_IFDIR : S_IFREG) else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        modified = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
    }
}

/// Why `readRegularFile` gave no bytes.
public enum FileProblem: Error, Equatable {
    case missing
    /// A path given on the command line in bytes that are not UTF-8 (`argumentsNotInUTF8`),
    /// or listed so from a folder: no file has the name Swift decoded (U+FFFD for what is not).
    case nameNotUTF8
    /// With the system's reason in lower case (`permission denied`), when it gives one.
    case unreadable(String?)
    /// A folder, pipe, device or socket: reading a pipe could wait forever, a device be endless.
    case notRegular
    /// The file's size in bytes, over the limit.
    case tooLarge(Int)

    /// The end of a message: "cannot read the file 'x': it does not exist".
    public var reason: String {
        switch self {
        case .missing: "it does not exist"
        case .nameNotUTF8: "its name is not UTF-8 (U+FFFD stands for what is not); typeset reads file names as UTF-8: rename it"
        case .unreadable(let why?): "it cannot be read (\(why))"
        case .unreadable(nil): "it cannot be read"
        case .notRegular: "it is not a regular file"
        case .tooLarge(let size): "it is \(size) bytes"
        }
    }

    /// This process's command line arguments whose bytes are not UTF-8, as Swift decoded them
    /// (U+FFFD for what is not): read as a path, one is no file's name, though a file may have
    /// the decoded name.
    public static let argumentsNotInUTF8: Set<String> = {
        var found: Set<String> = []
        for index in 1..<Int(CommandLine.argc) {
            guard let bytes = CommandLine.unsafeArgv[index] else { continue }
            let raw = UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: strlen(bytes))
            let decoded = String(decoding: raw, as: UTF8.self)
            if !decoded.utf8.elementsEqual(raw) { found.insert(decoded) }
        }
        return found
    }()
}

/// The bytes of the regular file at `path` (symbolic links followed), refused by its size
/// before it is read when larger than `limit`, and again if it grew past `limit` since.
public func readRegularFile(_ path: String, limit: Int) throws(FileProblem) -> [UInt8] {
    let status = try regularFileStatus(path)
    guard Int(status.st_size) <= limit else { throw .tooLarge(Int(status.st_size)) }
    // One byte more than the limit is enough to refuse a file that grew since `stat`.
    guard let bytes = readFile(path, limit: limit + 1) else {
        // (Too many files open is no reason `access` gives.)
        let failure = errno
        let tooMany = failure == EMFILE || failure == ENFILE ? String(cString: strerror(failure)) : nil
        throw .unreadable((unreadableReason(path) ?? tooMany).map(lowercasedFirst))
    }
    guard bytes.count <= limit else { throw .tooLarge(bytes.count) }
    return bytes
}

/// Up to `limit` bytes of the regular file at `path`; nil when it cannot be opened or read, or
/// is no regular file (opened without waiting: a FIFO made `diff` wait for a writer forever).
public func readFile(_ path: String, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    if status.st_size > 0 { bytes.reserveCapacity(min(limit, Int(status.st_size))) }
    // An uninitialized chunk: zeroing 64 KB cost more than parsing a small document.
    let failed = withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 16) { chunk in
        while bytes.count < limit {
            let count = read(descriptor, chunk.baseAddress, min(chunk.count, limit - bytes.count))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return true }
            if count == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        return false
    }
    return failed ? nil : bytes
}

/// The status of the regular file at `path` (symbolic links followed); what else is there, if not.
private func regularFileStatus(_ path: String) throws(FileProblem) -> stat {
    if FileProblem.argumentsNotInUTF8.contains(path) { throw .nameNotUTF8 }
    var status = stat()
    guard stat(path, &status) == 0 else {
        throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(lowercasedFirst(String(cString: strerror(errno))))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
    return status
}

/// The system's words for an error in the middle of a sentence: `permission denied`.
private func lowercasedFirst(_ reason: String) -> String { reason.prefix(1).lowercased() + reason.dropFirst() }

/// Why `path` cannot be read as a regular file, without reading it; nil when it can be tried.
public func regularFileProblem(_ path: String) -> FileProblem? {
    do {
        _ = try regularFileStatus(path)
        return nil
    } catch {
        return error
    }
}

/// Why the file at `path` cannot be read, or the folder listed and entered, in the system's
/// words (`Permission denied`); nil when it can.
public func unreadableReason(_ path: String, folder: Bool = false) -> String? {
    access(path, folder ? R_OK | X_OK : R_OK) == 0 ? nil : String(cString: strerror(errno))
}

/// What a failed file operation says, in the system's words: `No such file or directory` rather
/// than the error's type and user info.
public func describeFileError(_ error: any Error) -> String {
    if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
        return String(cString: strerror(underlying.code.rawValue))
    }
    if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
    return "\(error)"
}

/// Why the symbolic link at `path` leads to nothing ("no such file or directory", "too many
/// levels of symbolic links" for one to itself); nil when `path` is no such link.
func brokenLinkReason(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) != 0 else { return nil }
    let failure = errno
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
    return lowercasedFirst(String(cString: strerror(failure)))
}

/// Whether `path` is a folder itself (lstat(2): a symbolic link to a folder is not).
public func isFolder(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
}
