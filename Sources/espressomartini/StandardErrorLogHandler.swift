import Glibc
import Logging

/// Writes one line per message to standard error, each with a single `write` so that lines from the
/// worker threads never interleave. Under systemd (`JOURNAL_STREAM` set) the line carries a syslog
/// priority prefix and no timestamp, because the journal adds its own.
struct StandardErrorLogHandler: LogHandler {
    static let journal = getenv("JOURNAL_STREAM") != nil

    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line: String
        if Self.journal {
            line = "<\(Self.syslogPriority(event.level))>\(event.message)\n"
        } else {
            line = "\(Self.timestamp()) \(event.level.rawValue.uppercased()) \(event.message)\n"
        }
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// `2026-11-22T10:15:30.123Z`
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        let padded = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        let date = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(date).\(padded)Z"
    }
}
