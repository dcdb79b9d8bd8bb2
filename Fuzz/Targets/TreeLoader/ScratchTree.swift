import EspressoMartini
import Glibc

/// The tree every input is loaded in, made once per process in memory-backed `/dev/shm` when there is one:
///
///     configuration.json                          the server configuration (inputs starting with `S`)
///     outside.txt                                 a file outside the requests folder
///     network-exchanges/api/list/GET/             a fixed exchange: {"body": [1, 2]}
///     network-exchanges/api/{id}/GET/
///         configuration.json                      the method folder's configuration (other inputs)
///         a.json, notes.txt, big.bin (70 KiB)     files `response_file` can name, small and large
///         sub/b.txt, dir/                         a file in a sub-folder, and a folder
///         outside.txt -> ../../../../outside.txt  a link leading out of the requests folder
///         loop -> .                               a link to the folder itself
final class ScratchTree: Sendable {
    static let shared = ScratchTree()

    let root: String
    var requestsFolder: String { root + "/network-exchanges" }
    var methodFolderConfiguration: String { requestsFolder + "/api/{id}/GET/configuration.json" }
    var serverConfiguration: String { root + "/configuration.json" }

    private init() {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let prefix = "espressomartini-fuzz-"
        root = base + "/" + prefix + "\(getpid())"
        let method = root + "/network-exchanges/api/{id}/GET"
        // Trees left by runs that crashed (their exit handler never ran), and any of this process id.
        for entry in FileSystem.listing(of: base) ?? [] where entry.name.hasPrefix(prefix) {
            let pid = Int32(entry.name.dropFirst(prefix.count)) ?? 0
            if pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) { Self.remove(base + "/" + entry.name) }
        }
        for folder in [
            root, root + "/network-exchanges", root + "/network-exchanges/api", root + "/network-exchanges/api/list",
            root + "/network-exchanges/api/list/GET", root + "/network-exchanges/api/{id}", method, method + "/sub",
            method + "/dir",
        ] {
            precondition(mkdir(folder, 0o755) == 0, "cannot make \(folder)")
        }
        Self.write(Array("outside".utf8), to: root + "/outside.txt")
        Self.write(Array(#"{"body": [1, 2]}"#.utf8), to: root + "/network-exchanges/api/list/GET/configuration.json")
        Self.write(Array("{}".utf8), to: method + "/configuration.json")
        Self.write(Array(#"{"a": 1}"#.utf8), to: method + "/a.json")
        Self.write(Array("notes\n".utf8), to: method + "/notes.txt")
        Self.write([UInt8](repeating: 0x42, count: 70 * 1024), to: method + "/big.bin")
        Self.write(Array("b".utf8), to: method + "/sub/b.txt")
        precondition(
            symlink("../../../../outside.txt", method + "/outside.txt") == 0 && symlink(".", method + "/loop") == 0,
            "cannot make the links")
        atexit { ScratchTree.remove(ScratchTree.shared.root) }
    }

    /// Replaces a file's contents in place (one open, one write), as an editor without atomic saves would.
    func write(_ bytes: [UInt8], to path: String) {
        Self.write(bytes, to: path)
    }

    private static func write(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0, "cannot open \(path)")
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written)
            }
            precondition(count > 0, "cannot write \(path)")
            written += count
        }
    }

    /// Removes a folder and everything in it, without following links.
    private static func remove(_ path: String) {
        for entry in FileSystem.listing(of: path) ?? [] {
            let child = FileSystem.join(path, entry.name)
            if entry.kind == .directory && !entry.isLink { remove(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}
