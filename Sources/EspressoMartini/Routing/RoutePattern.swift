/// The path part of an exchange: the folders between the requests folder and the method folder.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    public let segments: [RouteSegment]
    /// `/api/*/users`, `/users/{id}`, `/files/**`, or `/` for the root (kept: the journal shows it per request).
    public let description: String
    /// Equal for two patterns that match exactly the same requests.
    public let matchKey: String

    public init(_ segments: [RouteSegment]) {
        self.segments = segments
        self.description = "/" + segments.map(\.spelling).joined(separator: "/")
        self.matchKey = "/" + segments.map(\.matchKey).joined(separator: "/")
    }

    private init(segments: [RouteSegment], description: String, matchKey: String) {
        self.segments = segments
        self.description = description
        self.matchKey = matchKey
    }

    /// This route with one more segment: the loader builds each folder's route from its parent's,
    /// once, and every method folder in it shares the result.
    public func appending(_ segment: RouteSegment) -> RoutePattern {
        let isRoot = segments.isEmpty
        var longer: [RouteSegment] = []
        longer.reserveCapacity(segments.count + 1)
        longer += segments
        longer.append(segment)
        return RoutePattern(
            segments: longer,
            description: .concatenating(isRoot ? "" : description, "/", segment.spelling),
            matchKey: .concatenating(isRoot ? "" : matchKey, "/", segment.matchKey)
        )
    }

    /// Parses `/users/{id}` as the folders would spell it. Split on the byte `/`, as request paths are:
    /// split on characters, a `/` followed by a combining mark would not count.
    public init(parsing text: String) {
        self.init(text.utf8.split(separator: UInt8(ascii: "/")).map { RouteSegment(folderName: String(decoding: $0, as: UTF8.self)) })
    }
}
