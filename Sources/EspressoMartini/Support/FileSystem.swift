#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system questions the loader asks, answered with plain POSIX calls
/// (fast on trees of thousands of folders, and no Foundation in the binary).
public enum FileSystem {
    public enum Kind: Sendable { case directory, regularFile, other }

    /// A folder entry; `kind` follows symbolic links (nil for a dangling one).
    public struct Entry: Sendable {
        public let name: String
        public let kind: Kind?
        public let isLink: Bool
    }

    /// What `path` is, following symbolic links; nil when it does not exist.
    public static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// What `path` itself is (a link is `.other`) and its size; nil when it does not exist.
    public static func linkStatus(of path: String) -> (kind: Kind, size: Int)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind: Kind = switch info.st_mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .regularFile
        default: .other
        }
        return (kind, Int(info.st_size))
    }

    /// Size in bytes of a file, following symbolic links.
    public static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The entries of a folder, sorted byte-wise by name, without `.` and `..`. The kind comes from
    /// `readdir` itself; only links and file systems that do not tell cost a `stat`.
    public static func listing(of path: String) -> [Entry]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): entries.append(Entry(name: name, kind: .directory, isLink: false))
            case Int32(DT_REG): entries.append(Entry(name: name, kind: .regularFile, isLink: false))
            case Int32(DT_LNK): entries.append(Entry(name: name, kind: kind(of: join(path, name)), isLink: true))
            case Int32(DT_UNKNOWN): entries.append(Entry(name: name, kind: kind(of: join(path, name)), isLink: isLink(join(path, name))))
            default: entries.append(Entry(name: name, kind: .other, isLink: false))
            }
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Whether `path` itself is a symbolic link.
    public static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The absolute path with every link and `..` resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The whole file, or nil when it cannot be read. Most files in a tree are small: one `read` into
    /// a buffer larger than the file returns it whole (a short read on a regular file is its end), so
    /// they cost three system calls; larger files are read on until the end.
    /// Never blocks: a FIFO in the tree reads as empty.
    public static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = 64 * 1024
        while true {
            var failed = false
            var got = 0
            bytes.append(contentsOf: [UInt8](unsafeUninitializedCapacity: chunk) { buffer, count in
                repeat {
                    got = read(descriptor, buffer.baseAddress!, buffer.count)
                } while got < 0 && errno == EINTR
                failed = got < 0
                count = max(got, 0)
            })
            if failed { return nil }
            if got < chunk { return bytes }
            chunk = min(chunk * 2, 16 * 1024 * 1024)
        }
    }

    public static var currentDirectory: String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// `name` joined to `folder`, with no doubled slash; an absolute `name` stands alone.
    public static func join(_ folder: String, _ name: String) -> String {
        if name.hasPrefix("/") || folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder part of a path ("." for a bare file name).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
