import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary folder `MockServer.start(exchanges:)` serves: `ROOT/network-exchanges`, a symbolic link to
/// the generation in service (`ROOT/tree-1`, `ROOT/tree-2`…). A new set of exchanges is written as a new
/// generation and the link replaced in one `rename`, so the server's watcher and loader never see a tree
/// half written. The folder goes at `remove()`, or when the object goes.
final class DeclaredTree: @unchecked Sendable {
    static let linkName = "network-exchanges"

    let root: URL
    private let lock = NSLock()
    private var generation = 0
    private var removed = false

    /// The requests folder to serve: the link.
    var requestsFolder: URL { root.appendingPathComponent(Self.linkName) }

    init(exchanges: [NetworkExchange]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-exchanges-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            _ = try replace(with: exchanges)
        } catch {
            remove()
            throw error as? MockServerError ?? .treeNotWritten("\(root.path): \(error)")
        }
    }

    deinit {
        remove()
    }

    /// Writes `exchanges` as the next generation and points the link at it; returns the one it replaced
    /// (nil at the first), for `discard(_:)` once the server serves the new one, or `restore(_:)` if it
    /// refuses it. A tree that cannot be written leaves the link as it was.
    func replace(with exchanges: [NetworkExchange]) throws -> String? {
        try lock.withLock {
            generation += 1
            let name = "tree-\(generation)"
            let folder = root.appendingPathComponent(name, isDirectory: true)
            do {
                try TreeWriter.write(exchanges, into: folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            let previous = try? FileManager.default.destinationOfSymbolicLink(atPath: requestsFolder.path)
            try point(to: name)
            return previous
        }
    }

    /// Points the link back at `previous` and removes the generation it pointed at.
    func restore(_ previous: String) throws {
        try lock.withLock {
            let refused = try? FileManager.default.destinationOfSymbolicLink(atPath: requestsFolder.path)
            try point(to: previous)
            if let refused { try? FileManager.default.removeItem(at: root.appendingPathComponent(refused)) }
        }
    }

    /// Removes a generation no longer served.
    func discard(_ previous: String) {
        try? FileManager.default.removeItem(at: root.appendingPathComponent(previous))
    }

    /// Removes the whole folder; idempotent.
    func remove() {
        let first: Bool = lock.withLock {
            defer { removed = true }
            return !removed
        }
        if first { try? FileManager.default.removeItem(at: root) }
    }

    /// A new link beside the old, renamed over it: `rename` replaces it atomically.
    private func point(to name: String) throws {
        let temporary = root.appendingPathComponent(".link-\(UUID().uuidString)")
        do {
            try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: name)
        } catch {
            throw MockServerError.treeNotWritten("cannot make a link in \(root.path): \(error)")
        }
        guard rename(temporary.path, requestsFolder.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw MockServerError.treeNotWritten("cannot replace \(requestsFolder.path): \(reason)")
        }
    }
}
