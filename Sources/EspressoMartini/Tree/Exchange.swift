/// A method and a route, answered by a sequence of responses played in order, the last one repeating.
/// A class: the loader sorts and files thousands of them, and a reference copies with one retain.
public final class Exchange: Sendable, Equatable {
    /// What identifies an exchange across reloads: its method and a route matching the same requests.
    public struct Key: Sendable, Hashable {
        let method: HTTPMethod
        let route: RoutePattern

        public init(method: HTTPMethod, route: RoutePattern) {
            self.method = method
            self.route = route
        }

        public static func == (a: Key, b: Key) -> Bool {
            a.method == b.method && a.route.matchesSameRequests(as: b.route)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            route.hashMatchedRequests(into: &hasher)
        }
    }

    public let method: HTTPMethod
    /// Also names the folder holding the method folder (its description), so no path is kept: on a
    /// tree of thousands of exchanges the paths would add up.
    public let route: RoutePattern
    /// The method folder's name as spelled on disk (`POST`, `get`): short enough to need no allocation.
    public let methodFolderName: String
    public let responses: [ConfiguredResponse]

    public init(method: HTTPMethod, route: RoutePattern, methodFolderName: String, responses: [ConfiguredResponse]) {
        self.method = method
        self.route = route
        self.methodFolderName = methodFolderName
        self.responses = responses
    }

    /// The method folder, relative to the requests folder (`api/user/POST`).
    public var folder: String { route.folder(named: methodFolderName) }

    /// Call counters carry over between exchanges with the same key.
    public var counterKey: Key { Key(method: method, route: route) }

    public static func == (a: Exchange, b: Exchange) -> Bool {
        a.method == b.method && a.route == b.route && a.methodFolderName == b.methodFolderName && a.responses == b.responses
    }
}
