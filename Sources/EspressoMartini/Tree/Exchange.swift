/// A method and a route, answered by a sequence of responses played in order, the last one repeating.
public struct Exchange: Sendable, Equatable {
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

    /// Identifies the exchange across reloads: the same method and a route matching the same requests.
    public var counterKey: String { method.name + " " + route.matchKey }
}
