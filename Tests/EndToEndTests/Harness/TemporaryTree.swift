import Foundation

/// A fresh folder holding an exchanges tree (under `network-exchanges/` unless told otherwise), other
/// files, and optionally the server's `configuration.json` at its root. Call `remove()` when done
/// (in a `defer`, declared before the server's so that the server stops first).
struct TemporaryTree: Sendable {
    static let requestsFolder = "network-exchanges"

    let url: URL
    var path: String { url.path }

    /// - Parameters:
    ///   - exchanges: paths relative to `network-exchanges/`; a key ending in `/` is a folder.
    ///   - files: paths relative to the tree's root.
    ///   - configuration: the text of the root `configuration.json` (the server configuration), if any.
    init(exchanges: [String: TreeEntry] = [:], files: [String: TreeEntry] = [:], configuration: String? = nil) throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("espressomartini-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        url = base.resolvingSymlinksInPath()
        var all = files
        for (relative, entry) in exchanges {
            all[Self.requestsFolder + "/" + relative] = entry
        }
        if !exchanges.isEmpty || all.isEmpty {
            all[Self.requestsFolder + "/"] = all[Self.requestsFolder + "/"] ?? .folder
        }
        if let configuration {
            all["configuration.json"] = .text(configuration)
        }
        for (relative, entry) in all {
            try write(entry, at: relative)
        }
    }

    /// Writes (or replaces) one entry.
    func write(_ entry: TreeEntry, at relative: String) throws {
        let fileManager = FileManager.default
        let target = url.appendingPathComponent(relative)
        switch entry {
        case .folder:
            try fileManager.createDirectory(at: target, withIntermediateDirectories: true)
        case .text(let text):
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target)
        case .bytes(let bytes):
            try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: target)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
