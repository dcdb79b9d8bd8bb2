#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder held open while the loader works in it. Its entries and files are opened relative to it,
/// so the kernel looks up one or two names, not the whole path, each time: on a tree of thousands
/// of folders, path lookups are a good part of the load.
/// Shared across cores only to open entries relative to it, which the kernel allows at any time.
public final class OpenFolder: @unchecked Sendable {
    private let descriptor: Int32

    /// Opens `path` (absolute, or relative to the current folder).
    public convenience init?(path: String) {
        self.init(descriptor: open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    }

    /// Opens the sub-folder `name` of `parent`, following a link.
    public convenience init?(named name: String, in parent: OpenFolder) {
        // `withCString`: passing a short (inline) string straight to C copies it to the heap first.
        self.init(descriptor: name.withCString { openat(parent.descriptor, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    }

    private init?(descriptor: Int32) {
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The entries, sorted byte-wise by name, without `.` and `..`; read once (this reads the folder
    /// to its end). The kind comes from the directory entry itself; only links and file systems that
    /// do not tell cost a `stat`. Read with `getdents64` rather than `readdir`: `fdopendir` costs two
    /// more system calls and a 32 KiB buffer per folder, which count on trees of thousands of folders.
    public func entries() -> [FileSystem.Entry] {
        var entries: [FileSystem.Entry] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.directoryBufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let filled = getdents64(descriptor, buffer.baseAddress!, buffer.count)
            if filled < 0 && errno == EINTR { continue }
            guard filled > 0 else { break }
            entries.reserveCapacity(entries.count + filled / Self.shortestRecord)
            var offset = 0
            while offset < filled {
                // struct linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), d_name.
                let record = buffer.baseAddress! + offset
                let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                let type = record.load(fromByteOffset: 18, as: UInt8.self)
                let name = (record + 19).assumingMemoryBound(to: CChar.self)
                offset += length
                if Self.isDotOrDotDot(name) { continue }
                entries.append(entry(String(cString: name), type: Int32(type)))
            }
        }
        entries.sort { $0.name.precedesBytewise($1.name) }
        return entries
    }

    private static let directoryBufferSize = 16 * 1024
    /// A `linux_dirent64` with a name of up to four bytes, padded to 8.
    private static let shortestRecord = 24

    private static func isDotOrDotDot(_ name: UnsafePointer<CChar>) -> Bool {
        let dot = CChar(UInt8(ascii: "."))
        return name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0))
    }

    private func entry(_ name: String, type: Int32) -> FileSystem.Entry {
        switch type {
        case Int32(DT_DIR): FileSystem.Entry(name: name, kind: .directory, isLink: false)
        case Int32(DT_REG): FileSystem.Entry(name: name, kind: .regularFile, isLink: false)
        case Int32(DT_LNK): FileSystem.Entry(name: name, kind: kind(of: name), isLink: true)
        case Int32(DT_UNKNOWN): FileSystem.Entry(name: name, kind: kind(of: name), isLink: isLink(name))
        default: FileSystem.Entry(name: name, kind: .other, isLink: false)
        }
    }

    /// The whole file `name` in the sub-folder `folder`, or nil when it cannot be read.
    public func contents(of name: String, inFolder folder: String) -> [UInt8]? {
        let file = Self.withPath(folder, name) { openat(descriptor, $0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard file >= 0 else { return nil }
        defer { close(file) }
        return FileSystem.readAll(file)
    }

    /// Checks the file `name` in the sub-folder `folder` without opening it or following a link in its
    /// last component: one `stat`, not the open, stat, read and close of reading it, which count on
    /// trees of thousands of files. The server reads it once the tree is in service.
    public func checkFile(_ name: String, inFolder folder: String) -> FileCheck {
        Self.withPath(folder, name) { path in
            FileCheck(
                stat: { fstatat(descriptor, path, &$0, AT_SYMLINK_NOFOLLOW) },
                access: { faccessat(descriptor, path, R_OK, AT_EACCESS) }
            )
        }
    }

    /// Calls `body` with `folder/name` as a C string on the stack: the loader opens a file and checks
    /// another in each of thousands of method folders, and a joined `String` would be an allocation each.
    private static func withPath<Result>(
        _ folder: String, _ name: String, _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        var (folder, name) = (folder, name)
        return folder.withUTF8 { folderBytes in
            name.withUTF8 { nameBytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: folderBytes.count + nameBytes.count + 2) {
                    path in
                    var end = path.initialize(fromContentsOf: folderBytes)
                    path[end] = UInt8(ascii: "/")
                    end = path[(end + 1)...].initialize(fromContentsOf: nameBytes)
                    path[end] = 0
                    return path.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
                }
            }
        }
    }

    /// What the entry `name` is, following a link; nil for a dangling one.
    private func kind(of name: String) -> FileSystem.Kind? {
        var info = stat()
        guard fstatat(descriptor, name, &info, 0) == 0 else { return nil }
        return FileSystem.Kind(mode: info.st_mode)
    }

    private func isLink(_ name: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}

/// glibc's `getdents64` (declared only under `_GNU_SOURCE`, which Swift's Glibc module leaves out).
@_silgen_name("getdents64")
private func getdents64(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ length: Int) -> Int
