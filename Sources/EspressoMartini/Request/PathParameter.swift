/// A value a route's `{name}` or `:name` folder captured from the request path (already percent-decoded).
public struct PathParameter: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
