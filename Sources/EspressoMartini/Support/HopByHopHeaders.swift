/// The headers that describe one connection, not the message (RFC 9110 §7.6.1), which a proxy neither
/// forwards nor records: `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Transfer-Encoding`,
/// every `Proxy-*` header, and those the `Connection` header names.
public struct HopByHopHeaders: Sendable {
    private static let always: [[UInt8]] = [
        "connection", "keep-alive", "te", "trailer", "upgrade", "transfer-encoding",
    ].map { Array($0.utf8) }
    private static let proxyPrefix = Array("proxy-".utf8)

    /// The names (in lower case) a message's `Connection` headers list; most messages have none.
    private var named: [[UInt8]] = []

    /// For a message with `headers`.
    public init(in headers: [HTTPHeader]) {
        for header in headers where header.isNamed("connection") {
            var value = header.value
            value.withUTF8 { addConnection($0) }
        }
    }

    /// For a message whose `Connection` headers are given one by one with `addConnection`.
    public init() {}

    /// Takes the value of a `Connection` header: the names it lists are hop-by-hop too.
    public mutating func addConnection(_ value: UnsafeBufferPointer<UInt8>) {
        var token: [UInt8] = []
        for byte in value {
            switch byte {
            case UInt8(ascii: ","):
                if !token.isEmpty { named.append(token) }
                token = []
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            default: token.append(byte.lowercasedASCII)
            }
        }
        if !token.isEmpty { named.append(token) }
    }

    /// Whether a `Connection` header listed names.
    public var namesHeaders: Bool { !named.isEmpty }

    /// Whether the header `name` (any case) is one of them.
    public func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains($0) }
    }

    /// Whether the header named by these bytes (any case) is one of them.
    public func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.isAlwaysHopByHop(name) || named.contains { name.equalsLowercased($0) }
    }

    /// Whether the header `name` is hop-by-hop whatever the `Connection` header says.
    public static func isAlwaysHopByHop(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if name.count > proxyPrefix.count,
            UnsafeBufferPointer(rebasing: name[..<proxyPrefix.count]).equalsLowercased(proxyPrefix)
        {
            return true
        }
        return always.contains { name.equalsLowercased($0) }
    }
}
