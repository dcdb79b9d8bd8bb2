#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations of the tree writer, with plain POSIX calls. Every file appears whole or not at all: it
/// is written under a hidden temporary name in its folder (which the loader ignores) and renamed into place.
/// Nothing is synced to disk: the point is that a loader running meanwhile (the watcher of a server) never
/// reads half a file, not that a power cut keeps it.
enum TreeFiles {
    /// Creates `path` and the folders above it that are missing. Tries `path` alone first: the folders above it
    /// are usually there already (made for the exchanges written before), and one `mkdir` settles it.
    static func makeFolders(_ path: String) throws(TreeWritingError) {
        if mkdir(path, 0o755) == 0 || (errno == EEXIST && FileSystem.kind(of: path) == .directory) { return }
        var built = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            built = FileSystem.join(built, String(component))
            if mkdir(built, 0o755) == 0 { continue }
            let error = errno
            guard error == EEXIST, FileSystem.kind(of: built) == .directory else {
                let problem = error == EEXIST ? "exists and is not a folder" : "cannot be created: \(describe(error))"
                throw TreeWritingError(path: built, message: "\(problem); move it away or choose another requests folder")
            }
        }
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it.
    static func write(_ bytes: [UInt8], to path: String) throws(TreeWritingError) {
        let temporary = try temporaryFile(beside: path)
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(temporary.descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let error = errno
                close(temporary.descriptor)
                unlink(temporary.path)
                throw TreeWritingError(path: path, message: "cannot be written: \(describe(error))")
            }
            remaining = remaining.dropFirst(written)
        }
        guard close(temporary.descriptor) == 0 else {
            let error = errno
            unlink(temporary.path)
            throw TreeWritingError(path: path, message: "cannot be written: \(describe(error))")
        }
        try move(temporary.path, to: path)
    }

    /// Renames `source` to `path`; across file systems, copies it beside `path` first.
    static func move(_ source: String, to path: String) throws(TreeWritingError) {
        if rename(source, path) == 0 { return }
        let error = errno
        guard error == EXDEV, let bytes = FileSystem.contents(of: source) else {
            unlink(source)
            throw TreeWritingError(path: path, message: "cannot be written: \(describe(error))")
        }
        try write(bytes, to: path)
        unlink(source)
    }

    /// Removes a file the writer wrote earlier and no longer names; one already gone is fine.
    static func remove(_ path: String) throws(TreeWritingError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw TreeWritingError(path: path, message: "cannot be removed: \(describe(errno))")
        }
    }

    /// A new file `.NAME.XXXXXX` in the folder of `path`, readable by all like any other tree file.
    private static func temporaryFile(beside path: String) throws(TreeWritingError) -> (path: String, descriptor: Int32) {
        let folder = FileSystem.parent(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array(FileSystem.join(folder, "." + name + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TreeWritingError(path: path, message: "cannot be written: \(describe(errno))")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        fchmod(descriptor, 0o644)
        return (String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), descriptor)
    }

    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
