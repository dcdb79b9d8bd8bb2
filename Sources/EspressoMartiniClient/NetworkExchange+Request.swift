extension NetworkExchange {
    /// The requests an exchange answers: a method and a route, spelled as the tree's folders are
    /// (doc/tree.md): `*` any one segment, `{id}` (or `:id`) one segment captured as `id`, `**` one or more
    /// remaining segments, anything else a literal segment.
    public struct Request: Sendable, Hashable {
        public var method: Method
        /// The route's segments, from the root; empty for `/`.
        public var path: [PathComponent]

        /// `path` as components: `["api", "*", "users"]`, `["api", "v1", .parameter("id")]`.
        public init(method: Method, path: [PathComponent]) {
            self.method = method
            self.path = path
        }

        /// `path` as text, `"api/v1/users/{id}"` (a leading `/` or not): split at each `/`, every segment
        /// read as a folder name is (percent-escapes such as `%2A` mean a literal segment).
        public init(method: Method, path: String) {
            self.init(method: method, path: path.split(separator: "/").map { PathComponent(reading: String($0)) })
        }

        /// The route as the admin API and the listings spell it: `/api/v1/users/{id}`. Throws for a segment
        /// no request can have, or a `**` that is not last.
        public func route() throws -> String {
            "/" + (try folderNames()).joined(separator: "/")
        }

        /// The folder names between the requests folder and the method folder.
        func folderNames() throws -> [String] {
            if path.dropLast().contains(.remainingSegments) {
                throw MockServerError.invalidArgument(
                    "\(self): '**' matches the remaining segments, so it can only be the last component")
            }
            return try path.enumerated().map { index, component in try component.folderName(atRoot: index == 0) }
        }
    }
}

extension NetworkExchange.Request: CustomStringConvertible {
    /// `GET /api/v1/users/{id}`.
    public var description: String {
        "\(method.rawValue) /" + path.map(\.description).joined(separator: "/")
    }
}
