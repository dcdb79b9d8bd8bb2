/// The path part of an exchange: the folders between the requests folder and the method folder.
public struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    public let segments: [RouteSegment]
    /// `/api/*/users`, `/users/{id}`, `/files/**`, or `/` for the root (kept: the journal shows it per
    /// request). Also the method folder's parent, relative to the requests folder, with a leading `/`.
    public let description: String

    public init(_ segments: [RouteSegment]) {
        self.segments = segments
        self.description = "/" + segments.map(\.spelling).joined(separator: "/")
    }

    private init(segments: [RouteSegment], description: String) {
        self.segments = segments
        self.description = description
    }

    /// This route with one more segment: the loader builds each folder's route from its parent's,
    /// once, and every method folder in it shares the result.
    public func appending(_ segment: RouteSegment) -> RoutePattern {
        var longer: [RouteSegment] = []
        longer.reserveCapacity(segments.count + 1)
        longer += segments
        longer.append(segment)
        return RoutePattern(
            segments: longer, description: .concatenating(segments.isEmpty ? "" : description, "/", segment.spelling))
    }

    /// The folder this route stands for, relative to the requests folder (`api/users/{id}`; empty for
    /// the root): built only for messages and listings, so the loader keeps no path string per folder.
    public var folder: String { String(Substring(description.utf8.dropFirst())) }

    /// The folder `name` inside this route's folder, relative to the requests folder (`api/users/GET`).
    public func folder(named name: String) -> String {
        segments.isEmpty ? name : .concatenating(folder, "/", name)
    }

    /// Parses `/users/{id}` as the folders would spell it. Split on the byte `/`, as request paths are:
    /// split on characters, a `/` followed by a combining mark would not count.
    public init(parsing text: String) {
        self.init(
            text.utf8.split(separator: UInt8(ascii: "/")).map {
                RouteSegment(folderName: String(decoding: $0, as: UTF8.self))
            })
    }

    /// Whether both patterns match exactly the same requests (`/users/{id}`, `/users/:id`, `/users/*`).
    public func matchesSameRequests(as other: RoutePattern) -> Bool {
        segments.count == other.segments.count
            && zip(segments, other.segments).allSatisfy { $0.matchesSameRequests(as: $1) }
    }

    /// Hashes what `matchesSameRequests` compares.
    func hashMatchedRequests(into hasher: inout Hasher) {
        hasher.combine(segments.count)
        for segment in segments { segment.hashMatchedRequests(into: &hasher) }
    }
}
