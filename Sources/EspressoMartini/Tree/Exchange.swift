/// A method and a route, answered by a sequence of responses played in order, the last one repeating.
/// A class: the loader sorts and files thousands of them, and a reference copies with one retain.
public final class Exchange: Sendable, Equatable {
    /// What identifies an exchange across reloads: its method and a route matching the same requests.
    public struct Key: Sendable, Hashable {
        let method: HTTPMethod
        let matchKey: String

        public init(method: HTTPMethod, route: RoutePattern) {
            self.method = method
            self.matchKey = route.matchKey
        }
    }

    public let method: HTTPMethod
    public let route: RoutePattern
    /// The method folder, relative to the requests folder (`api/user/POST`).
    public let folder: String
    public let responses: [MockResponse]

    public init(method: HTTPMethod, route: RoutePattern, folder: String, responses: [MockResponse]) {
        self.method = method
        self.route = route
        self.folder = folder
        self.responses = responses
    }

    /// Call counters carry over between exchanges with the same key.
    public var counterKey: Key { Key(method: method, route: route) }

    public static func == (a: Exchange, b: Exchange) -> Bool {
        a.method == b.method && a.route == b.route && a.folder == b.folder && a.responses == b.responses
    }
}
