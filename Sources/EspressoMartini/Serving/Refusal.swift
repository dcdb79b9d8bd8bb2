/// A request refused before any exchange is looked at (`Plan.refused`): its session header names no
/// session, or the admin API does not let its client in.
public struct Refusal: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The session header's value cannot name a session (`400`).
        case sessionHeader
        /// The admin API's access rules (doc/admin-api.md) turn the client away (`401` or `403`).
        case adminAccess
    }

    public let reason: Reason
    public let status: UInt32
    public let message: String
    /// Headers the answer carries besides the global ones (`WWW-Authenticate`).
    public let headers: [HTTPHeader]

    public init(_ reason: Reason, status: UInt32, message: String, headers: [HTTPHeader] = []) {
        self.reason = reason
        self.status = status
        self.message = message
        self.headers = headers
    }
}
