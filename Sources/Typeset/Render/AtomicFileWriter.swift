// Atomic output files (SPEC §5: "write each output file atomically (never a partial file)").
// Each file is written to a temporary file in its own folder, flushed to disk, then renamed over
// the target; rename(2) within one folder is atomic, so readers see the old file or the new one.
import Glibc

/// A file that could not be written, and why (from `errno`).
struct FileWriteFailure: Error {
    var path: String
    var reason: String
}

enum AtomicFileWriter {
    /// Writes every file or none of them: all contents go to temporary files first, and only
    /// when they are all on disk are they renamed into place. Every temporary file is removed on
    /// every failure path. (Targets that are folders are refused first; after that a rename within
    /// a folder does not fail, short of the disk failing.)
    static func write(_ files: [(path: String, bytes: [UInt8])]) throws(FileWriteFailure) {
        // rename(2) cannot replace a folder: refuse before anything is written, so that a
        // failure never leaves some of the files new and some old.
        for file in files {
            var status = stat()
            if lstat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                throw FileWriteFailure(path: file.path, reason: "it is a folder")
            }
        }
        var temporaries: [String] = []
        defer {
            // Only temporaries not yet renamed are left in the list.
            for temporary in temporaries { unlink(temporary) }
        }
        for file in files {
            temporaries.append(try writeTemporary(file.bytes, beside: file.path))
        }
        for file in files {
            if rename(temporaries[0], file.path) != 0 {
                throw FileWriteFailure(path: file.path, reason: lastError())
            }
            temporaries.removeFirst()
        }
    }

    /// Writes `bytes` to a new hidden file in the folder of `path` and returns its path.
    private static func writeTemporary(_ bytes: [UInt8], beside path: String) throws(FileWriteFailure)
        -> String
    {
        let (folder, name) = split(path)
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = folder + "." + name + "." + suffix + ".tmp"
            // 0o666 through the umask: the same permissions a plain new file would get.
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw FileWriteFailure(path: path, reason: lastError()) }

        var failure: String?
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = lastError()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = lastError() }
        if close(descriptor) != 0, failure == nil { failure = lastError() }
        if let failure {
            unlink(temporary)
            throw FileWriteFailure(path: path, reason: failure)
        }
        return temporary
    }

    /// The folder part of `path` (with its trailing slash, or "" for the current folder) and the
    /// file name.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
