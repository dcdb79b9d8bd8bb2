import Dispatch
import EspressoMartini
import Glibc

/// Watches every folder of the requests tree with inotify (new sub-folders included) and calls
/// `onChange` once per burst of changes: after 150 ms without a new event, or 500 ms after the
/// first one at the latest, so that a change is served within a second.
public final class TreeWatcher: @unchecked Sendable {
    static let quiet: DispatchTimeInterval = .milliseconds(150)
    static let longest: DispatchTimeInterval = .milliseconds(500)
    static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    private let folder: String
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "espressomartini.watcher")
    private let onChange: @Sendable () -> Void
    private var source: DispatchSourceRead?
    // Touched on `queue` only.
    private var pending: DispatchWorkItem?
    private var firstEvent: DispatchTime?

    public struct WatchError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(folder: String, onChange: @escaping @Sendable () -> Void) throws {
        self.folder = folder
        self.onChange = onChange
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw WatchError(description: "cannot watch \(folder) for changes: \(String(cString: strerror(errno)))")
        }
        watchAll()
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in drainEvents() }
        source.resume()
        self.source = source
    }

    deinit {
        source?.cancel()
        close(descriptor)
    }

    /// Adds a watch on every folder of the tree; folders already watched keep their watch. A folder
    /// that cannot be watched is skipped with everything below it (the requests folder itself never is).
    private func watchAll() {
        var folders = [folder]
        while let current = folders.popLast() {
            if inotify_add_watch(descriptor, current, Self.mask) < 0 && current != folder { continue }
            for entry in FileSystem.listing(of: current) ?? [] where !entry.name.hasPrefix(".") && entry.kind == .directory {
                folders.append(FileSystem.join(current, entry.name))
            }
        }
    }

    private func drainEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var sawEvent = false
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 { sawEvent = true }
        guard sawEvent else { return }
        let now = DispatchTime.now()
        if firstEvent == nil { firstEvent = now }
        pending?.cancel()
        let work = DispatchWorkItem { [unowned self] in
            firstEvent = nil
            pending = nil
            watchAll()  // before reloading, so a change made during the reload is seen too
            onChange()
        }
        pending = work
        let latest = firstEvent! + Self.longest
        let soon = now + Self.quiet
        queue.asyncAfter(deadline: min(soon, latest), execute: work)
    }
}
