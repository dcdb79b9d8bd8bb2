#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system questions the loader asks, answered with plain POSIX calls
/// (fast on trees of thousands of folders, and no Foundation in the binary).
public enum FileSystem {
    public enum Kind: Sendable {
        case directory, regularFile, other

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFDIR: self = .directory
            case S_IFREG: self = .regularFile
            default: self = .other
            }
        }
    }

    /// A folder entry; `kind` follows symbolic links (nil for a dangling one).
    public struct Entry: Sendable {
        public let name: String
        public let kind: Kind?
        public let isLink: Bool

        /// A folder that is not hidden (no leading `.`): what the loader walks and the watcher watches.
        public var isVisibleFolder: Bool { kind == .directory && name.utf8.first != UInt8(ascii: ".") }
    }

    /// What `path` is, following symbolic links; nil when it does not exist.
    public static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Kind(mode: info.st_mode)
    }

    /// What the file at `path` is, following symbolic links, without opening it.
    public static func checkFile(_ path: String) -> FileCheck {
        FileCheck(stat: { stat(path, &$0) }, access: { faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) })
    }

    /// The entries of a folder, sorted byte-wise by name, without `.` and `..`.
    public static func listing(of path: String) -> [Entry]? {
        OpenFolder(path: path)?.entries()
    }

    /// The absolute path with every link and `..` resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The whole file, or nil when it cannot be read. Never blocks: a FIFO in the tree reads as empty.
    public static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readAll(descriptor)
    }

    /// Reads an open file to its end. Most files in a tree are small: one `read` into a buffer on the
    /// stack returns it whole (a short read on a regular file is its end) and it is copied out at its
    /// size; larger files are read on until the end.
    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        let first = 16 * 1024
        var got = 0
        var bytes = withUnsafeTemporaryAllocation(byteCount: first, alignment: 1) { buffer -> [UInt8]? in
            got = readRetrying(descriptor, into: buffer.baseAddress!, count: first)
            return got < 0 ? nil : Array(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
        }
        var chunk = 64 * 1024
        var filledBuffer = got == first
        while filledBuffer, bytes != nil {
            bytes!.append(
                contentsOf: [UInt8](unsafeUninitializedCapacity: chunk) { buffer, count in
                    got = readRetrying(descriptor, into: buffer.baseAddress!, count: buffer.count)
                    count = max(got, 0)
                })
            if got < 0 { return nil }
            filledBuffer = got == chunk
            chunk = min(chunk * 2, 16 * 1024 * 1024)
        }
        return bytes
    }

    /// One `read`, retried when a signal interrupts it: the byte count, 0 at the end, -1 on an error.
    static func readRetrying(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var got: Int
        repeat {
            got = read(descriptor, buffer, count)
        } while got < 0 && errno == EINTR
        return got
    }

    /// `name` joined to `folder`, with no doubled slash; an absolute `name` stands alone.
    /// Looks at bytes: `hasPrefix` and `hasSuffix` compare characters, which costs on thousands of paths.
    public static func join(_ folder: String, _ name: String) -> String {
        let slash = UInt8(ascii: "/")
        if name.utf8.first == slash || folder.isEmpty { return name }
        return folder.utf8.last == slash ? .concatenating(folder, name) : .concatenating(folder, "/", name)
    }

    /// The folder part of a path ("." for a bare file name).
    public static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The name after the last `/` (the whole path when it has none).
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }
}
