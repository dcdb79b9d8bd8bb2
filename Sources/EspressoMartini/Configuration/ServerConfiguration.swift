import Logging

/// How the server runs: from defaults, then the configuration file, then command-line flags.
public struct ServerConfiguration: Sendable, Equatable {
    public static let defaultFileName = "configuration.json"
    public static let defaultRequestsFolder = "network-exchanges"

    public var hostname = "127.0.0.1"
    public var port = 8080
    /// Seconds before every response that has no delay of its own.
    public var delay: Double = 0
    public var logLevel: Logger.Level = .info
    /// Resolved against the configuration file's folder (or the current folder when there is no file).
    public var requestsFolder = ServerConfiguration.defaultRequestsFolder
    /// Added to every response, below the exchange's own headers.
    public var headers: [HTTPHeader] = []
    public var admin = true
    public var watch = true
    /// Seconds a connection may stay idle (nothing received or sent) before it is closed.
    public var connectionTimeout = 30
    /// Connections open at once; more are refused until some close.
    public var connectionLimit = 1024
    /// Seconds one JavaScript call may run before it is stopped and answered `500` (§12).
    public var scriptTimeout: Double = 1

    public init() {}

    /// `TRACE DEBUG INFO NOTICE WARNING ERROR CRITICAL`, any case.
    public static func logLevel(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }

    public static let logLevelNames = Logger.Level.allCases.map { $0.rawValue.uppercased() }
}
