import Dispatch
import EspressoMartini
import EspressoMartiniServer
import Glibc

/// Collects log lines in memory and writes them to standard error from one background thread, so that
/// a worker thread answering a request never waits on a `write` (a terminal or a slow pipe can block).
/// Lines reach standard error within about 10 ms, in the order they were logged, and are flushed at exit.
final class LogWriter: Sendable {
    static let shared = LogWriter()

    /// Beyond this much unwritten text (standard error not being read), new lines are counted, not kept.
    static let backlogLimit = 8 * 1024 * 1024

    private struct Backlog {
        var bytes: [UInt8] = []
        var dropped = 0
    }

    private let backlog = Locked(Backlog())
    /// Bytes written so far; its lock serializes the writes (the background loop and `flush`), keeping
    /// lines in order.
    private let written = Locked(0)

    private init() {
        DispatchQueue(label: "espressomartini.log-writer").async { [self] in
            while true {
                usleep(10_000)
                flush()
            }
        }
    }

    /// Adds the line `prefix + message`, copying the bytes once.
    func append(_ prefix: String, _ message: String) {
        appendLine(prefix) { $0.append(contentsOf: message.utf8) }
    }

    /// Adds an access-log line, `prefix` then `GET /users/42 200 GET /users/{id} 2/3 0.12ms`, copying
    /// bytes straight into the backlog: no message string is built for a request.
    func append(_ prefix: String, _ record: AccessLogRecord) {
        appendLine(prefix) { bytes in
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

    /// Adds `prefix`, what `body` writes, and a newline under the lock; past the backlog limit the line is
    /// only counted.
    private func appendLine(_ prefix: String, _ body: (inout [UInt8]) -> Void) {
        backlog.withLock { backlog in
            guard backlog.bytes.count <= Self.backlogLimit else {
                backlog.dropped += 1
                return
            }
            backlog.bytes.append(contentsOf: prefix.utf8)
            body(&backlog.bytes)
            backlog.bytes.append(UInt8(ascii: "\n"))
        }
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Writes everything logged so far.
    func flush() {
        written.withLock { written in
            let (bytes, dropped) = backlog.withLock { backlog in
                defer { backlog = Backlog() }
                return (backlog.bytes, backlog.dropped)
            }
            Self.write(bytes)
            written += bytes.count
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
