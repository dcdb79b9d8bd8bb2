#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder held open while the loader works in it. Its entries and files are opened relative to it,
/// so the kernel looks up one or two names instead of the whole path each time: on a tree of
/// thousands of folders, path lookups were a good part of the load.
/// Shared across cores only to open entries relative to it, which the kernel allows at any time.
public final class OpenFolder: @unchecked Sendable {
    /// What opening a response file found.
    public enum FileOpening {
        /// A regular file; its bytes when it was no larger than the limit asked for.
        case regularFile(size: Int, bytes: FileBytes?)
        /// The name is a symbolic link (not followed here).
        case link
        case missing
        case notRegular
        case unreadable
    }

    private let stream: OpaquePointer
    private var descriptor: Int32 { dirfd(stream) }

    /// Opens `path` (absolute, or relative to the current folder).
    public convenience init?(path: String) {
        self.init(descriptor: open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    }

    /// Opens the sub-folder `name` of `parent`, following a link.
    public convenience init?(named name: String, in parent: OpenFolder) {
        self.init(descriptor: openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    }

    private init?(descriptor: Int32) {
        guard descriptor >= 0 else { return nil }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        self.stream = stream
    }

    deinit {
        closedir(stream)
    }

    /// The entries, sorted byte-wise by name, without `.` and `..`; read once (this consumes the
    /// folder's stream). The kind comes from `readdir` itself; only links and file systems that do
    /// not tell cost a `stat`.
    public func entries() -> [FileSystem.Entry] {
        var entries: [FileSystem.Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): entries.append(FileSystem.Entry(name: name, kind: .directory, isLink: false))
            case Int32(DT_REG): entries.append(FileSystem.Entry(name: name, kind: .regularFile, isLink: false))
            case Int32(DT_LNK): entries.append(FileSystem.Entry(name: name, kind: kind(of: name, followingLinks: true), isLink: true))
            case Int32(DT_UNKNOWN): entries.append(FileSystem.Entry(name: name, kind: kind(of: name, followingLinks: true), isLink: isLink(name)))
            default: entries.append(FileSystem.Entry(name: name, kind: .other, isLink: false))
            }
        }
        return entries.sorted { $0.name.precedesBytewise($1.name) }
    }

    /// The whole file at `relativePath`, or nil when it cannot be read.
    public func contents(of relativePath: String) -> [UInt8]? {
        let file = openat(descriptor, relativePath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return FileSystem.readAll(file)
    }

    /// Opens the file at `relativePath` without following a link in its last component, and reads it
    /// when it is a regular file of at most `limit` bytes: one pass for what the loader checks and what
    /// the server sends. Never blocks: a FIFO is `notRegular`.
    public func openFile(_ relativePath: String, readingUpTo limit: Int) -> FileOpening {
        let file = openat(descriptor, relativePath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard file >= 0 else {
            switch errno {
            case ELOOP: return .link
            case ENOENT, ENOTDIR: return .missing
            case EACCES, EPERM: return .unreadable
            default: return .notRegular
            }
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { return .unreadable }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        let size = Int(info.st_size)
        guard size <= limit else { return .regularFile(size: size, bytes: nil) }
        guard let bytes = FileBytes.reading(file, size: size) else { return .unreadable }
        return .regularFile(size: bytes.count, bytes: bytes)
    }

    private func kind(of name: String, followingLinks: Bool) -> FileSystem.Kind? {
        var info = stat()
        guard fstatat(descriptor, name, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileSystem.Kind(mode: info.st_mode)
    }

    private func isLink(_ name: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
