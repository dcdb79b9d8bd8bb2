import Glibc

/// Why an exchange with the server failed: the test using it fails with this description.
struct HTTPClientError: Error, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case address
        case connect
        case send
        case timeout
        case receive
        case malformed
    }

    let kind: Kind
    let errorNumber: Int32
    let description: String

    init(_ kind: Kind, _ message: String, errorNumber: Int32 = 0) {
        self.kind = kind
        self.errorNumber = errorNumber
        let reason = errorNumber == 0 ? "" : ": \(String(cString: strerror(errorNumber)))"
        self.description = "\(message)\(reason)"
    }

    var isConnectionRefused: Bool { kind == .connect && errorNumber == ECONNREFUSED }
}
