/// One response header line. Repeated names (several `Set-Cookie`) are several headers.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Every answer's headers, by one precedence rule: the answer's own (`own`, in order), then the
    /// `Content-Type` its body implies, then the global ones; each name (without case) only from the first
    /// source that has it.
    public static func merging(own: [HTTPHeader], derivedContentType: String? = nil, global: [HTTPHeader]) -> [HTTPHeader] {
        var result = own
        if let derivedContentType, !result.contains(named: "Content-Type") {
            result.append(HTTPHeader(name: "Content-Type", value: derivedContentType))
        }
        guard !global.isEmpty else { return result }
        let named = Set(result.map { $0.name.lowercased() })
        result += global.filter { !named.contains($0.name.lowercased()) }
        return result
    }
}

extension HTTPHeader {
    /// Whether `name` can be a header's name (RFC 9110 token characters).
    public static func isValidName(_ name: String) -> Bool {
        HeadersParser.isToken(name)
    }
}

extension [HTTPHeader] {
    public func contains(named name: String) -> Bool {
        contains { $0.name.lowercased() == name.lowercased() }
    }
}
