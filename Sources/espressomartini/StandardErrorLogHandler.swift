import EspressoMartini
import Glibc
import Logging

/// Writes one line per message to standard error, each with a single `write` so that lines from the
/// worker threads never interleave. Under systemd (`JOURNAL_STREAM` set) the line carries a syslog
/// priority prefix and no timestamp, because the journal adds its own.
struct StandardErrorLogHandler: LogHandler {
    static let journal = standardErrorIsJournal()

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
            line = "\(Timestamp.now.iso8601) \(event.level.rawValue.uppercased()) \(event.message)\n"
        }
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// systemd sets `JOURNAL_STREAM=DEVICE:INODE` for the stream connected to the journal; a child
    /// process whose standard error was redirected elsewhere inherits the variable, hence the comparison.
    static func standardErrorIsJournal() -> Bool {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return String(cString: value) == "\(info.st_dev):\(info.st_ino)"
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
}
