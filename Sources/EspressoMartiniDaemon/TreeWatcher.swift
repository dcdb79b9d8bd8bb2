import EspressoMartini
import Glibc

/// Watches every folder of the requests tree with inotify (new sub-folders included) and calls
/// `onChange` once per burst of changes: after 150 ms without a new event, or 500 ms after the
/// first one at the latest, so that a change is served within a second. One thread of its own waits
/// in `poll` (with no timeout while no change is pending: an idle watcher does not wake) and calls
/// `onChange`; `stop()` ends it.
public final class TreeWatcher: @unchecked Sendable {
    /// In nanoseconds of `MonotonicClock`.
    static let quiet: UInt64 = 150_000_000
    static let longest: UInt64 = 500_000_000
    static let longestForWriters: UInt64 = 2_000_000_000
    static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF
            | IN_MOVE_SELF)

    private let folder: String
    private let descriptor: Int32
    /// A pipe (read end, write end): `stop()` writes a byte to end the thread's `poll`.
    private let stopPipe: (reading: Int32, writing: Int32)
    private let onChange: @Sendable () -> Void
    private var thread: SystemThread?
    // Touched on the watcher's thread only.
    /// When the pending reload is due; nil while no change is pending.
    private var due: UInt64?
    private var firstEvent: UInt64?
    /// Files modified and not yet closed by their writer (watch and name): a file rewritten in place
    /// is empty between its truncation and the write, so the reload waits for the close, up to `longestForWriters`.
    private var beingWritten: Set<String> = []

    public struct WatchError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(folder: String, onChange: @escaping @Sendable () -> Void) throws {
        self.folder = folder
        self.onChange = onChange
        var pipeEnds: [Int32] = [-1, -1]
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, pipe(&pipeEnds) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw WatchError(description: "cannot watch \(folder) for changes: \(reason)")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (pipeEnds[0], pipeEnds[1])
        watchAll()
        thread = SystemThread { [self] in run() }
    }

    deinit {
        close(descriptor)
        close(stopPipe.reading)
        close(stopPipe.writing)
    }

    /// Ends the watching: returns once the thread has ended, after any `onChange` it was running.
    /// Call it once.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.writing, &byte, 1)
        thread?.join()
    }

    /// The thread's loop: waits for events, `stop()`, or the pending reload's time.
    private func run() {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe.reading, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutUntilDue())
            if ready < 0 && errno != EINTR { return }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0 { drainEvents() }
            if let due, MonotonicClock.now() >= due { reloadIfSettled() }
        }
    }

    /// Milliseconds until the pending reload is due (rounded up), or -1 (no timeout) when none is.
    private func timeoutUntilDue() -> Int32 {
        guard let due else { return -1 }
        let now = MonotonicClock.now()
        guard due > now else { return 0 }
        return Int32(clamping: (due - now + 999_999) / 1_000_000)
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
        let now = MonotonicClock.now()
        if firstEvent == nil { firstEvent = now }
        schedule(after: now)
    }

    /// Sets the reload for `quiet` after `now`, or `longest` after the first event at the latest
    /// (`longestForWriters` while a file is still being written).
    private func schedule(after now: UInt64) {
        let first = firstEvent ?? now
        let latest = beingWritten.isEmpty ? first + Self.longest : first + Self.longestForWriters
        due = min(now + Self.quiet, latest)
    }

    /// The reload, when due: put off while a file is still being written (within `longestForWriters`).
    private func reloadIfSettled() {
        let now = MonotonicClock.now()
        if !beingWritten.isEmpty, let first = firstEvent, now < first + Self.longestForWriters {
            schedule(after: now)
            return
        }
        due = nil
        firstEvent = nil
        beingWritten.removeAll()
        watchAll()  // before reloading, so a change made during the reload is seen too
        onChange()
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
