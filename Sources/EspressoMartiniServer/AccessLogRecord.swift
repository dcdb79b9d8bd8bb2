import EspressoMartini

/// What the access log says about one answered request. The server hands these to an `AccessLog`
/// sink instead of formatting a message, so that logging every request costs little more than copying
/// a few strings (`GET /users/42 200 GET /users/{id} 2/3 0.12ms`).
public struct AccessLogRecord: Sendable {
    public let method: String
    public let path: String
    public let status: UInt32
    /// The exchange that answered (logged as `GET /users/{id}`), nil for errors and the admin API.
    public let exchange: Exchange?
    /// The response's position counting from 1, and the sequence's length.
    public let position: Int
    public let responseCount: Int
    /// Time from arrival to answer, in hundredths of a millisecond.
    public let hundredthsOfMilliseconds: Int
}

/// Where access-log records go; nil on the server when the log level is above INFO.
public typealias AccessLog = @Sendable (AccessLogRecord) -> Void
