/// Decides every answer: the admin API, `400` for dot segments, then the tree (most specific route
/// first, `405` or `404` when none answers), the call counter and the delay. Pure and synchronous: it
/// reads the request, moves one counter and returns; the sender does the rest.
public struct Decider: Sendable {
    /// The admin API's path prefix (§5), as the request's first segment.
    public static let adminPrefix: StaticString = "__espressomartini"

    private let globalHeaders: [HTTPHeader]
    /// Nil when the admin API is off: its paths are then routed like any other.
    private let admin: AdminAPI?

    public init(configuration: ServerConfiguration, admin: AdminAPI?) {
        globalHeaders = configuration.headers
        self.admin = admin
    }

    /// The answer to `request` from `tree`. An exchange's call counter moves here, in one atomic step, so
    /// the caller must carry out the decision it gets (a request decided is a call counted).
    public func decide(_ request: Request, tree: ServingTree) -> Decision {
        let segments = request.segments
        if segments.hasDotSegment {
            return .generated(.error(400, "the path \(request.path) has a '.' or '..' segment", globalHeaders: globalHeaders))
        }
        if let admin, segments.startsWith(segment: Self.adminPrefix) {
            return .admin(admin.answer(request, tree: tree))
        }
        switch tree.tree.resolve(segments, method: request.knownMethod) {
        case .exchange(let index):
            let answer = tree.answer(exchangeAt: index)
            let delay = answer.delay
            return delay > 0 ? .delayed(seconds: delay, .exchange(answer)) : .exchange(answer)
        case .methodNotAllowed(let methods):
            let allow = HTTPHeader(name: "Allow", value: methods.map(\.name).joined(separator: ", "))
            let message = "no \(request.method) exchange for \(request.path); allowed: \(allow.value)"
            return .generated(.error(405, message, extraHeaders: [allow], globalHeaders: globalHeaders))
        case .notFound:
            return .generated(.error(404, "no exchange for \(request.method) \(request.path)", globalHeaders: globalHeaders))
        }
    }
}
