import EspressoMartini
import Glibc
import Logging

/// Collects log lines in memory and writes them to standard error from one background thread, so that
/// a serving loop answering a request never waits on a `write` (a terminal or a slow pipe can block).
/// The writer thread sleeps until a line comes, then writes what `batchWindow` gathers in one `write`:
/// lines reach standard error within about 10 ms, in the order they were logged, and are flushed at
/// exit. While nothing is logged, nothing wakes.
final class LogWriter: Sendable {
    static let shared = LogWriter()

    /// Beyond this much unwritten text (standard error not being read), new lines are counted, not kept.
    static let backlogLimit = 8 * 1024 * 1024
    /// Largest buffer kept between writes.
    static let keptCapacity = 256 * 1024
    /// How long the writer lets lines gather after it wakes, in microseconds: a busy server's lines
    /// go out in one `write` per window.
    static let batchWindow: useconds_t = 10_000

    private struct Backlog {
        var bytes: [UInt8] = []
        var dropped = 0
        /// The writer thread sleeps until a line comes: the first line after it fell asleep wakes it.
        var writerSleeps = false
    }

    private let backlog = Monitor(Backlog())
    /// The buffer last written, handed back to the backlog at the next flush with its capacity: no
    /// line waits on the buffer growing again after every write.
    private let spare = Locked([UInt8]())

    private init() {
        SystemThread.detached { [self] in
            while true {
                waitForLines()
                usleep(Self.batchWindow)
                flush()
            }
        }
    }

    /// Returns once the backlog holds a line (or a count of dropped ones), sleeping until then.
    private func waitForLines() {
        backlog.wait { backlog in
            let empty = backlog.bytes.isEmpty && backlog.dropped == 0
            backlog.writerSleeps = empty
            return !empty
        }
    }

    /// Adds the line `level`'s prefix, then `message`.
    func append(_ level: Logger.Level, _ message: String) {
        appendLine(level, longest: message.utf8.count) { $0.append(message) }
    }

    /// Adds an access-log line: the prefix, then the record's own line (`AccessLogRecord.write(into:)`).
    func append(_ level: Logger.Level, _ record: AccessLogRecord) {
        appendLine(level, longest: record.longestLine) { record.write(into: &$0) }
    }

    /// Writes the prefix, what `body` writes (at most `longest` bytes) and a newline into a line on the
    /// stack, then copies it into the backlog under the lock, which is held for that copy only. Past
    /// the backlog limit the line is only counted. Two threads may take their timestamps in one order
    /// and their turns at the lock in the other: lines are in the backlog's order, to the millisecond.
    /// The writer thread is signalled only when it sleeps: a busy server pays no system call a line.
    private func appendLine(_ level: Logger.Level, longest: Int, _ body: (inout LineBuffer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: StandardErrorLogHandler.prefixLimit + longest + 1) {
            memory in
            var line = LineBuffer(memory)
            StandardErrorLogHandler.appendPrefix(level, to: &line)
            body(&line)
            line.append(UInt8(ascii: "\n"))
            let wakeWriter = backlog.withLock { backlog in
                if backlog.bytes.count <= Self.backlogLimit {
                    backlog.bytes.append(contentsOf: line.bytes)
                } else {
                    backlog.dropped += 1
                }
                let sleeps = backlog.writerSleeps
                backlog.writerSleeps = false
                return sleeps
            }
            if wakeWriter { backlog.signal() }
        }
    }

    /// Writes everything logged so far. The spare buffer's lock serializes the writes (the writer
    /// thread's and a final flush), keeping lines in order.
    func flush() {
        spare.withLock { spare in
            let dropped = backlog.withLock { backlog in
                swap(&backlog.bytes, &spare)
                defer { backlog.dropped = 0 }
                return backlog.dropped
            }
            Self.write(spare)
            // Kept for the next swap, unless a burst made it larger than one window of a busy server's lines.
            if spare.capacity > Self.keptCapacity { spare = [] } else { spare.removeAll(keepingCapacity: true) }
            if dropped > 0 {
                Self.write(
                    Array(
                        "espressomartini: \(dropped) log lines dropped: standard error was not read fast enough\n".utf8)
                )
            }
        }
    }

    private static func write(_ bytes: [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
