/// One response header line. Repeated names (several `Set-Cookie`) are several headers.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPHeader] {
    public func contains(named name: String) -> Bool {
        contains { $0.name.lowercased() == name.lowercased() }
    }
}
