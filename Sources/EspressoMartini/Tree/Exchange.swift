/// A method and a route, answered by a sequence of responses played in order (after the last: as its
/// `SequenceMode` says); or by variants, each with its conditions and its own sequence (doc/variants.md). A class: the loader sorts and
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
    /// variants, the variant's position; for a runtime exchange, its id too, so that it counts apart from a
    /// tree's exchange with the same route.
    public struct CounterKey: Sendable, Hashable {
        let exchange: Key
        let variant: Int?
        let runtimeID: Int
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
    /// What its sequence does after its last response (without variants; each variant has its own).
    public let sequence: SequenceMode
    /// Whether a variant's conditions, a template or a script read the request's body, which the server then keeps.
    public let readsBody: Bool
    /// A runtime exchange's id (added over the admin API, doc/admin-api.md); 0 for an exchange of the tree.
    public let runtimeID: Int

    public init(
        method: HTTPMethod, route: RoutePattern, methodFolderName: String, responses: [ConfiguredResponse],
        variants: [Variant] = [],
        sequence: SequenceMode = .repeatLast, runtimeID: Int = 0
    ) {
        self.runtimeID = runtimeID
        self.sequence = sequence
        self.method = method
        self.route = route
        self.methodFolderName = methodFolderName
        self.responses = responses
        self.variants = variants
        readsBody =
            variants.contains { $0.conditions.readsBody }
            || responses.contains { $0.template != nil || $0.script != nil }
    }

    /// Its call counters: one, or one per variant.
    public var counterCount: Int { max(1, variants.count) }

    /// The key of its counter `index` (0 without variants).
    public func counterKey(_ index: Int) -> CounterKey {
        CounterKey(exchange: key, variant: variants.isEmpty ? nil : index, runtimeID: runtimeID)
    }

    /// The sequence mode of variant `variant`, or the exchange's own without variants.
    public func sequenceMode(variant: Int?) -> SequenceMode {
        variant.map { variants[$0].sequence } ?? sequence
    }

    /// The 0-based position of the response at `position` (in `responses`) in its sequence (its variant's,
    /// with variants), and the sequence's length.
    public func sequencePosition(of position: Int, variant: Int?) -> (index: Int, count: Int) {
        guard let variant else { return (position, responses.count) }
        let range = variants[variant].responses
        return (position - range.lowerBound, range.count)
    }

    /// The responses of variant `variant`'s sequence, or the exchange's own without variants.
    public func sequenceResponses(variant: Int?) -> Range<Int> {
        variant.map { variants[$0].responses } ?? 0..<responses.count
    }

    /// The method folder, relative to the requests folder (`api/user/POST`).
    public var folder: String { route.folder(named: methodFolderName) }

    /// Call counters carry over between exchanges with the same key.
    public var key: Key { Key(method: method, route: route) }

    public static func == (a: Exchange, b: Exchange) -> Bool {
        a.method == b.method && a.route == b.route && a.methodFolderName == b.methodFolderName
            && a.runtimeID == b.runtimeID && a.responses == b.responses
            && a.sequence == b.sequence
            && a.variants.map(\.responses) == b.variants.map(\.responses)
            && a.variants.map(\.sequence) == b.variants.map(\.sequence)
            && a.variants.map(\.conditions.summary) == b.variants.map(\.conditions.summary)
    }
}
