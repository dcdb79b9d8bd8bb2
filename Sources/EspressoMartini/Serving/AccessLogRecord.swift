/// What the access log says about one answered request. The server hands these to an `AccessLog` sink
/// instead of formatting a message, so that logging a request costs little more than copying its path.
public struct AccessLogRecord: Sendable {
    public let method: String
    public let path: String
    public let status: UInt32
    /// The exchange that answered (logged as `GET /users/{id}`), nil for errors and the admin API.
    public let exchange: Exchange?
    /// The variant that answered, counting from 1 (nil without variants).
    public let variant: Int?
    /// The response's position in its sequence counting from 1, and the sequence's length.
    public let position: Int
    public let responseCount: Int
    /// Time from arrival to answer, in hundredths of a millisecond.
    public let hundredthsOfMilliseconds: Int
    /// The session its session header named; nil for the default session.
    public let session: String?
    /// The proxy's target answered (logged as `forwarded` in place of the exchange).
    public let forwarded: Bool

    public init(
        method: String, path: String, status: UInt32, exchange: Exchange?, variant: Int? = nil, position: Int,
        responseCount: Int,
        hundredthsOfMilliseconds: Int, session: String? = nil, forwarded: Bool = false
    ) {
        self.session = session
        self.forwarded = forwarded
        self.variant = variant
        self.method = method
        self.path = path
        self.status = status
        self.exchange = exchange
        self.position = position
        self.responseCount = responseCount
        self.hundredthsOfMilliseconds = hundredthsOfMilliseconds
    }

    /// The most bytes `write(into:)` writes.
    public var longestLine: Int {
        // Plus the exchange's method (7 bytes at most) or `forwarded`, `variant `, ` session `, the separators and `ms`: 48 bytes are plenty.
        method.utf8.count + path.utf8.count + (exchange?.route.description.utf8.count ?? 0) + (session?.utf8.count ?? 0)
            + 5 * LineBuffer.decimalLimit + 48
    }

    /// Writes `GET /users/42 200 GET /users/{id} 2/3 0.12ms` (`POST /login 401 POST /login variant 2 1/1
    /// 0.10ms` for a variant; `-` in place of the exchange, its position and count when no exchange
    /// answered, `forwarded` for the proxy's target; ` session NAME` at the end for a request in a session),
    /// byte by byte: no string is built.
    public func write(into line: inout LineBuffer) {
        line.append(method)
        line.append(UInt8(ascii: " "))
        line.append(path)
        line.append(UInt8(ascii: " "))
        line.appendDecimal(Int(status))
        line.append(UInt8(ascii: " "))
        if let exchange {
            line.append(exchange.method.name)
            line.append(UInt8(ascii: " "))
            line.append(exchange.route.description)
            line.append(UInt8(ascii: " "))
            if let variant {
                line.append("variant " as StaticString)
                line.appendDecimal(variant)
                line.append(UInt8(ascii: " "))
            }
            line.appendDecimal(position)
            line.append(UInt8(ascii: "/"))
            line.appendDecimal(responseCount)
        } else if forwarded {
            line.append("forwarded" as StaticString)
        } else {
            line.append(UInt8(ascii: "-"))
        }
        line.append(UInt8(ascii: " "))
        line.appendDecimal(hundredthsOfMilliseconds / 100)
        line.append(UInt8(ascii: "."))
        line.appendDecimal(hundredthsOfMilliseconds % 100, digits: 2)
        line.append("ms" as StaticString)
        if let session {
            line.append(" session " as StaticString)
            line.append(session)
        }
    }
}

/// Where access-log records go; nil on the server when the log level is above INFO.
public typealias AccessLog = @Sendable (AccessLogRecord) -> Void
