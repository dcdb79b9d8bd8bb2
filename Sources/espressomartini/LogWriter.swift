import Dispatch
import EspressoMartini
import EspressoMartiniServer
import Glibc
import Logging

/// Collects log lines in memory and writes them to standard error from one background thread, so that
/// a worker thread answering a request never waits on a `write` (a terminal or a slow pipe can block).
/// Lines reach standard error within about 10 ms, in the order they were logged, and are flushed at exit.
final class LogWriter: Sendable {
    static let shared = LogWriter()

    /// Beyond this much unwritten text (standard error not being read), new lines are counted, not kept.
    static let backlogLimit = 8 * 1024 * 1024
    /// Largest buffer kept between writes.
    static let keptCapacity = 256 * 1024

    private struct Backlog {
        var bytes: [UInt8] = []
        var dropped = 0
    }

    private let backlog = Locked(Backlog())
    /// The buffer last written, handed back to the backlog at the next flush with its capacity: no
    /// line waits on the buffer growing again after every write.
    private let spare = Locked([UInt8]())

    private init() {
        DispatchQueue(label: "espressomartini.log-writer").async { [self] in
            while true {
                usleep(10_000)
                flush()
            }
        }
    }

    /// Adds the line `level`'s prefix, then `message`, copying the bytes once.
    func append(_ level: Logger.Level, _ message: String) {
        appendLine(level) { $0.append(contentsOf: message.utf8) }
    }

    /// Adds an access-log line, the prefix then `GET /users/42 200 GET /users/{id} 2/3 0.12ms`, writing
    /// bytes straight into the backlog: no string is built for a request, not even the timestamp.
    func append(_ level: Logger.Level, _ record: AccessLogRecord) {
        appendLine(level) { bytes in
            bytes.append(contentsOf: record.method.utf8)
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: record.path.utf8)
            bytes.append(UInt8(ascii: " "))
            Self.appendDecimal(Int(record.status), to: &bytes)
            bytes.append(UInt8(ascii: " "))
            if let exchange = record.exchange {
                bytes.append(contentsOf: exchange.method.name.utf8)
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: exchange.route.description.utf8)
                bytes.append(UInt8(ascii: " "))
                Self.appendDecimal(record.position, to: &bytes)
                bytes.append(UInt8(ascii: "/"))
                Self.appendDecimal(record.responseCount, to: &bytes)
            } else {
                bytes.append(UInt8(ascii: "-"))
            }
            bytes.append(UInt8(ascii: " "))
            Self.appendDecimal(record.hundredthsOfMilliseconds / 100, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            let fraction = record.hundredthsOfMilliseconds % 100
            if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
            Self.appendDecimal(fraction, to: &bytes)
            bytes.append(contentsOf: "ms".utf8)
        }
    }

    /// Adds the prefix, what `body` writes, and a newline under the lock; past the backlog limit the line
    /// is only counted.
    private func appendLine(_ level: Logger.Level, _ body: (inout [UInt8]) -> Void) {
        backlog.withLock { backlog in
            guard backlog.bytes.count <= Self.backlogLimit else {
                backlog.dropped += 1
                return
            }
            StandardErrorLogHandler.appendPrefix(level, to: &backlog.bytes)
            body(&backlog.bytes)
            backlog.bytes.append(UInt8(ascii: "\n"))
        }
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Writes everything logged so far. The spare buffer's lock serializes the writes (the background
    /// loop and a final flush), keeping lines in order.
    func flush() {
        spare.withLock { spare in
            let dropped = backlog.withLock { backlog in
                swap(&backlog.bytes, &spare)
                defer { backlog.dropped = 0 }
                return backlog.dropped
            }
            Self.write(spare)
            // Kept for the next swap, unless a burst made it larger than 10 ms of a busy server's lines.
            if spare.capacity > Self.keptCapacity { spare = [] } else { spare.removeAll(keepingCapacity: true) }
            if dropped > 0 {
                Self.write(Array("espressomartini: \(dropped) log lines dropped: standard error was not read fast enough\n".utf8))
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
