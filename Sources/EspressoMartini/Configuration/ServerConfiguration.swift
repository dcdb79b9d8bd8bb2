import Logging

/// How the server runs: from defaults, then the configuration file, then command-line flags.
public struct ServerConfiguration: Sendable, Equatable {
    public static let defaultFileName = "configuration.json"
    public static let defaultRequestsFolder = "network-exchanges"

    public var hostname = "127.0.0.1"
    public var port = 8080
    /// Set by a range (`"8080-8090"`): the first free port of it is taken, `port` being its first.
    public var portRange: ClosedRange<Int>?
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
    /// Answer CORS preflights and add CORS headers to every answer to a request with an `Origin` (doc/browsers-and-https.md).
    public var cors = false
    /// Serve HTTPS with this certificate and key; nil serves plain HTTP.
    public var tls: TLSFiles?
    /// The request header that names a session (doc/faults-and-sessions.md).
    public var sessionHeader = "X-Espressomartini-Session"
    /// Sessions kept at most; past that the least recently used one is forgotten.
    public var maxSessions = 1000
    /// The network every exchange's answers go out on, unless the tree gives one closer to them
    /// (doc/streams-and-networks.md); nil for full speed.
    public var network: NetworkCondition?
    /// Seconds one JavaScript call may run before it is stopped and answered `500` (doc/scripts.md).
    public var scriptTimeout: Double = 1
    /// MiB one JavaScript call may grow the server's memory by before it is stopped and answered `500`.
    public var scriptMemory = 64
    /// Who may use the admin API besides clients with `adminToken`.
    public var adminAccess = AdminAccess.loopback
    /// With it, the admin API admits a client that sends `Authorization: Bearer TOKEN`, and only such clients.
    public var adminToken: String?
    /// Forward what the tree does not answer to a real API, recording it or not (doc/recording.md); nil: no forwarding.
    public var proxy: ProxyConfiguration?
    /// Requests the admin API's journal keeps, the last ones (doc/admin-api.md).
    public var journalSize = RequestJournal.defaultCapacity
    /// Runtime exchanges kept at most, server-wide and sessions' together (doc/admin-api.md); 0 refuses every one.
    public var maxRuntimeExchanges = 10_000

    public init() {}

    /// `TRACE DEBUG INFO NOTICE WARNING ERROR CRITICAL`, any case.
    public static func logLevel(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }

    /// `8080-8090` as a range of ports, nil unless both bounds are integers; order and bounds are the
    /// caller's to check.
    public static func portBounds(_ text: String) -> (first: Int, last: Int)? {
        guard let dash = text.dropFirst().firstIndex(of: "-"), let first = Int(text[..<dash]),
            let last = Int(text[text.index(after: dash)...])
        else {
            return nil
        }
        return (first, last)
    }

    /// Why `first-last` is no range of ports to listen on (reversed, or outside 1–65535); nil when it is one.
    public static func portRangeProblem(first: Int, last: Int) -> String? {
        guard (1...65535).contains(first), (1...65535).contains(last) else {
            return "is out of range; use ports from 1 to 65535"
        }
        guard first <= last else { return "is reversed; give the lower port first, as in \(last)-\(first)" }
        return nil
    }

    public static let logLevelNames = Logger.Level.allCases.map { $0.rawValue.uppercased() }
}
