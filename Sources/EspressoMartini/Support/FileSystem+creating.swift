#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Creates the new file `path` for writing, closed on exec, readable by all like any other tree file
    /// (`0644`, whatever the process's umask: the service's is `0077`); -1 with `errno` set when it exists or
    /// cannot be made.
    public static func createTreeFile(_ path: String) -> Int32 {
        createTreeFile(path, in: AT_FDCWD)
    }

    /// `createTreeFile` for `path` relative to the open folder `folder`.
    public static func createTreeFile(_ path: String, in folder: Int32) -> Int32 {
        let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0, umaskHidesTreeFiles { fchmod(descriptor, 0o644) }
        return descriptor
    }

    /// Whether the process's umask takes read bits from `0644`, read once from `/proc/self/status` (setting
    /// the umask to read it would race with other threads); true when it cannot be read.
    private static let umaskHidesTreeFiles: Bool = {
        guard let status = contents(of: "/proc/self/status") else { return true }
        let text = String(decoding: status, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = Int(line.dropFirst("Umask:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }), radix: 8)
        else { return true }
        return mask & 0o044 != 0
    }()
}
