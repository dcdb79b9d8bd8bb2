import Dispatch
import EspressoMartini
import Glibc

/// Watches every folder of the requests tree with inotify (new sub-folders included) and calls
/// `onChange` once per burst of changes: after 150 ms without a new event, or 500 ms after the
/// first one at the latest, so that a change is served within a second.
public final class TreeWatcher: @unchecked Sendable {
    static let quiet: DispatchTimeInterval = .milliseconds(150)
    static let longest: DispatchTimeInterval = .milliseconds(500)
    static let longestForWriters: DispatchTimeInterval = .seconds(2)
    static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    private let folder: String
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "espressomartini.watcher")
    private let onChange: @Sendable () -> Void
    private var source: DispatchSourceRead?
    // Touched on `queue` only.
    private var pending: DispatchWorkItem?
    private var firstEvent: DispatchTime?
    /// Files modified and not yet closed by their writer (watch and name): a file rewritten in place
    /// is empty between its truncation and the write, so the reload waits for the close, up to `longestForWriters`.
    private var beingWritten: Set<String> = []

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
            for entry in FileSystem.listing(of: current) ?? [] where entry.isVisibleFolder {
                folders.append(FileSystem.join(current, entry.name))
            }
        }
    }

    private func drainEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var sawEvent = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            sawEvent = true
            noteWriters(in: buffer[..<count])
        }
        guard sawEvent else { return }
        let now = DispatchTime.now()
        if firstEvent == nil { firstEvent = now }
        schedule(after: now)
    }

    /// Reloads after `quiet` without events, or at `longest` after the first one, but not while a file
    /// is still being written (within `longestForWriters`).
    private func schedule(after now: DispatchTime) {
        pending?.cancel()
        let first = firstEvent ?? now
        let work = DispatchWorkItem { [unowned self] in
            if !beingWritten.isEmpty && DispatchTime.now() < first + Self.longestForWriters {
                schedule(after: DispatchTime.now())
                return
            }
            firstEvent = nil
            pending = nil
            beingWritten.removeAll()
            watchAll()  // before reloading, so a change made during the reload is seen too
            onChange()
        }
        pending = work
        let latest = beingWritten.isEmpty ? first + Self.longest : first + Self.longestForWriters
        queue.asyncAfter(deadline: min(now + Self.quiet, latest), execute: work)
    }

    /// Follows `IN_MODIFY` and `IN_CLOSE_WRITE` in a batch of `inotify_event`s (a 16-byte header, then
    /// the name padded with NULs).
    private func noteWriters(in events: ArraySlice<UInt8>) {
        events.withUnsafeBytes { raw in
            var offset = 0
            while offset + 16 <= raw.count {
                let watch = raw.load(fromByteOffset: offset, as: Int32.self)
                let mask = raw.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + 16)..<min(offset + 16 + length, raw.count)].prefix { $0 != 0 }
                let key = "\(watch)/" + String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_MODIFY) != 0 { beingWritten.insert(key) }
                if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 { beingWritten.remove(key) }
                offset += 16 + length
            }
        }
    }
}
