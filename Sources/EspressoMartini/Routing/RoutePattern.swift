/// The path part of an exchange: the folders between the requests folder and the method folder.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    public let segments: [RouteSegment]

    public init(_ segments: [RouteSegment]) {
        self.segments = segments
    }

    /// Parses `/users/{id}` as the folders would spell it.
    public init(parsing text: String) {
        self.init(text.split(separator: "/").map { RouteSegment(folderName: String($0)) })
    }

    /// `/api/*/users`, `/users/{id}`, `/files/**`, or `/` for the root.
    public var description: String {
        "/" + segments.map(\.spelling).joined(separator: "/")
    }

    /// Equal for two patterns that match exactly the same requests.
    public var matchKey: String {
        "/" + segments.map(\.matchKey).joined(separator: "/")
    }
}
