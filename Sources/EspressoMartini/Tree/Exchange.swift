/// A method and a route, answered by a sequence of responses played in order, the last one repeating;
/// or by variants, each with its conditions and its own sequence (§10). A class: the loader sorts and
/// files thousands of them, and a reference copies with one retain.
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

    /// What identifies one call counter across reloads: the exchange's key and, for an exchange with
    /// variants, the variant's position.
    public struct CounterKey: Sendable, Hashable {
        let exchange: Key
        let variant: Int?
    }

    public let method: HTTPMethod
    /// Also names the folder holding the method folder (its description), so no path is kept: on a
    /// tree of thousands of exchanges the paths would add up.
    public let route: RoutePattern
    /// The method folder's name as spelled on disk (`POST`, `get`): short enough to need no allocation.
    public let methodFolderName: String
    /// Every response; with variants, each variant's in turn (`Variant.responses` says where).
    public let responses: [ConfiguredResponse]
    /// Empty for an exchange answered by one sequence.
    public let variants: [Variant]
    /// Whether a variant's conditions or a script read the request's body, which the server then keeps.
    public let readsBody: Bool

    public init(method: HTTPMethod, route: RoutePattern, methodFolderName: String, responses: [ConfiguredResponse], variants: [Variant] = []) {
        self.method = method
        self.route = route
        self.methodFolderName = methodFolderName
        self.responses = responses
        self.variants = variants
        readsBody = variants.contains { $0.conditions.readsBody } || responses.contains { $0.script != nil }
    }

    /// Its call counters: one, or one per variant.
    public var counterCount: Int { max(1, variants.count) }

    /// The key of its counter `index` (0 without variants).
    public func counterKey(_ index: Int) -> CounterKey {
        CounterKey(exchange: key, variant: variants.isEmpty ? nil : index)
    }

    /// The method folder, relative to the requests folder (`api/user/POST`).
    public var folder: String { route.folder(named: methodFolderName) }

    /// Call counters carry over between exchanges with the same key.
    public var key: Key { Key(method: method, route: route) }

    public static func == (a: Exchange, b: Exchange) -> Bool {
        a.method == b.method && a.route == b.route && a.methodFolderName == b.methodFolderName && a.responses == b.responses
            && a.variants.map(\.responses) == b.variants.map(\.responses) && a.variants.map(\.conditions.summary) == b.variants.map(\.conditions.summary)
    }
}
