import EspressoMartini
import Glibc
import Logging

/// One line per message on standard error, through `LogWriter` so that no serving loop waits on the
/// terminal. Under systemd (`JOURNAL_STREAM` set) the line carries a syslog priority prefix and no
/// timestamp, because the journal adds its own.
struct StandardErrorLogHandler: LogHandler {
    static let journal = standardErrorIsJournal()

    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        LogWriter.shared.append(event.level, event.message.description)
    }

    /// Appends what starts a line: the time and level, or for the journal the syslog priority.
    static func appendPrefix(_ level: Logger.Level, to line: inout LineBuffer) {
        if journal {
            line.append(UInt8(ascii: "<"))
            line.appendDecimal(syslogPriority(level))
            line.append(UInt8(ascii: ">"))
        } else {
            timestamps.append(to: &line)
            line.append(levelName(level))
        }
    }

    /// The most bytes `appendPrefix` writes.
    static let prefixLimit = TimestampFormatter.length + 10

    private static let timestamps = TimestampFormatter()

    /// ` INFO ` and the like, between the timestamp and the message.
    private static func levelName(_ level: Logger.Level) -> StaticString {
        switch level {
        case .trace: " TRACE "
        case .debug: " DEBUG "
        case .info: " INFO "
        case .notice: " NOTICE "
        case .warning: " WARNING "
        case .error: " ERROR "
        case .critical: " CRITICAL "
        }
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
