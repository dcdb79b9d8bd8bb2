#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The file operations of the tree writer, with plain POSIX calls. Every file appears whole or not at all: it
/// is written under a hidden temporary name in its folder (which the loader ignores) and renamed into place,
/// or written directly into a new hidden folder that is renamed into place whole (`HiddenFolder`).
/// Nothing is synced to disk: the point is that a loader running meanwhile (the watcher of a server) never
/// reads half a file, not that a power cut keeps it.
enum TreeFiles {
    /// Creates `path` and the folders above it that are missing; returns whether `path` itself was made now
    /// (false: it was there). Tries `path` alone first, then the folder above it, and so on up: the folders
    /// above are usually there already (made for the exchanges written before), and one `mkdir` settles it.
    @discardableResult
    static func makeFolders(_ path: String) throws(TreeWritingError) -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        let error = errno
        // A folder above is missing, or is a file (reported where it is).
        if error == ENOENT || error == ENOTDIR, case let parent = FileSystem.parent(of: path), parent != path,
            parent != "."
        {
            try makeFolders(parent)
            if mkdir(path, 0o755) == 0 { return true }
            return try existingFolder(path, errno)
        }
        return try existingFolder(path, error)
    }

    /// After `mkdir` of `path` failed with `error`: fine when a folder is there.
    private static func existingFolder(_ path: String, _ error: Int32) throws(TreeWritingError) -> Bool {
        guard error == EEXIST, FileSystem.kind(of: path) == .directory else {
            let problem = error == EEXIST ? "exists and is not a folder" : "cannot be created: \(describe(error))"
            throw TreeWritingError(path: path, message: "\(problem); move it away or choose another requests folder")
        }
        return false
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it.
    static func write(_ bytes: [UInt8], to path: String) throws(TreeWritingError) {
        let temporary = try temporaryFile(beside: path)
        try writeAll(bytes, to: temporary.descriptor, path: path) { unlink(temporary.path) }
        try move(temporary.path, to: path)
    }

    /// Writes `bytes` into the open file `descriptor` (for `path`) and closes it; `discard` removes the
    /// file when that fails.
    static func writeAll(
        _ bytes: [UInt8], to descriptor: Int32, path: @autoclosure () -> String, discard: () -> Void
    ) throws(TreeWritingError) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let error = errno
                close(descriptor)
                discard()
                throw TreeWritingError(path: path(), message: "cannot be written: \(describe(error))")
            }
            remaining = remaining.dropFirst(written)
        }
        guard close(descriptor) == 0 else {
            let error = errno
            discard()
            throw TreeWritingError(path: path(), message: "cannot be written: \(describe(error))")
        }
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

    /// A new file `.NAME.espressomartini-PID-N` in the folder of `path` (the loader ignores hidden files).
    private static func temporaryFile(beside path: String) throws(TreeWritingError) -> (path: String, descriptor: Int32)
    {
        let prefix = hiddenPrefix(beside: path)
        while true {
            let temporary = prefix + String(hiddenNumber.add(1, ordering: .relaxed).newValue)
            let descriptor = FileSystem.createTreeFile(temporary)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST else {
                throw TreeWritingError(path: path, message: "cannot be written: \(describe(errno))")
            }
        }
    }

    /// `FOLDER/.NAME.espressomartini-PID-`, for hidden names beside `FOLDER/NAME` that no other writer uses.
    private static func hiddenPrefix(beside path: String) -> String {
        .concatenating(FileSystem.parent(of: path), "/.", FileSystem.lastComponent(of: path), hiddenMark)
    }

    /// `.espressomartini-PID-`: glibc does not cache the process id.
    static let hiddenMark = ".espressomartini-\(getpid())-"

    static let hiddenNumber = Atomic<Int>(0)

    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}
