#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new method folder made whole under a hidden name beside where it goes (`.NAME.espressomartini-PID-N`,
/// which the loader ignores), its files written directly, then renamed into place: it appears complete at
/// once. Every step goes through a descriptor of the folder it is made in, so that the kernel walks the
/// tree's long paths once, not at every file. `close()` it once done.
struct HiddenFolder {
    /// The folder it is made in, open, and its path.
    private let parent: Int32
    private let parentPath: String
    /// Its hidden name in `parent`.
    let name: String
    /// Its path, for messages.
    var path: String { FileSystem.join(parentPath, name) }

    /// Makes a hidden folder beside `path`, whose parent folder must be there.
    init(beside path: String) throws(TreeWritingError) {
        parentPath = FileSystem.parent(of: path)
        parent = open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else {
            throw TreeWritingError(path: path, message: "cannot be written: \(TreeFiles.describe(errno))")
        }
        let prefix = String.concatenating(".", FileSystem.lastComponent(of: path), TreeFiles.hiddenMark)
        while true {
            let name = prefix + String(TreeFiles.hiddenNumber.add(1, ordering: .relaxed).newValue)
            if mkdirat(parent, name, 0o755) == 0 {
                self.name = name
                return
            }
            guard errno == EEXIST else {
                let error = errno
                Glibc.close(parent)
                throw TreeWritingError(path: path, message: "cannot be written: \(TreeFiles.describe(error))")
            }
        }
    }

    /// Writes `bytes` into its new file `file`.
    func write(_ bytes: [UInt8], file: String) throws(TreeWritingError) {
        let relative = String.concatenating(name, "/", file)
        let descriptor = FileSystem.createTreeFile(relative, in: parent)
        guard descriptor >= 0 else {
            throw TreeWritingError(
                path: FileSystem.join(path, file), message: "cannot be written: \(TreeFiles.describe(errno))")
        }
        try TreeFiles.writeAll(bytes, to: descriptor, path: FileSystem.join(path, file)) {
            unlinkat(parent, relative, 0)
        }
    }

    /// Moves the file at `source` into it as `file` (a body recorded into the scratch folder, on the same
    /// file system); across file systems, copies it.
    func move(_ source: String, file: String) throws(TreeWritingError) {
        if renameat(AT_FDCWD, source, parent, String.concatenating(name, "/", file)) == 0 { return }
        let error = errno
        guard error == EXDEV, let bytes = FileSystem.contents(of: source) else {
            unlink(source)
            throw TreeWritingError(
                path: FileSystem.join(path, file), message: "cannot be written: \(TreeFiles.describe(error))")
        }
        try write(bytes, file: file)
        unlink(source)
    }

    /// Renames it to `final` in the same folder; false (with `errno`) when that fails.
    func rename(to final: String) -> Bool {
        renameat(parent, name, parent, final) == 0
    }

    /// Removes it and the files in it (a write that failed).
    func remove() {
        for entry in FileSystem.listing(of: path) ?? [] {
            unlinkat(parent, String.concatenating(name, "/", entry.name), 0)
        }
        unlinkat(parent, name, AT_REMOVEDIR)
    }

    func close() {
        Glibc.close(parent)
    }
}
