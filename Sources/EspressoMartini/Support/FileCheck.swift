#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What checking a response file found, without opening it: the loader only checks response files; the
/// server reads them once the tree is in service.
public enum FileCheck: Equatable, Sendable {
    case regularFile(size: Int)
    /// The last component is a symbolic link (when links are not followed).
    case link
    case missing
    case notRegular
    case unreadable

    /// Classifies a file from `stat` (fills the information; 0 on success) and, for a file that not
    /// everyone may read, `access` (0 when this process may read it).
    init(stat: (inout stat) -> Int32, access: () -> Int32) {
        var info = Glibc.stat()
        guard stat(&info) == 0 else {
            self = errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            // Readable by everyone needs no second question; otherwise the kernel answers for this
            // process (owner, groups, ACLs, root).
            self = info.st_mode & S_IROTH != 0 || access() == 0 ? .regularFile(size: Int(info.st_size)) : .unreadable
        case S_IFLNK: self = .link
        default: self = .notRegular
        }
    }
}
