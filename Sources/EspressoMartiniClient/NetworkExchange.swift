/// One exchange of a mocked API, declared by a test: the request it answers (a method and a route) and
/// what it answers. `MockServer.start(exchanges:)` writes it as a method folder of an ordinary tree
/// (doc/tree.md); `MockServer.stub(_:)` adds it to a running server.
///
/// ```swift
/// NetworkExchange(
///     request: .init(method: .post, path: "api/v1/user"),
///     responses: [.init(status: 201, kind: .json(User(name: "Ada")))])
/// ```
///
/// It answers with `responses`, played in order as a sequence (`sequence` says what follows the last one),
/// or, when it has `variants`, with the first variant whose conditions hold.
public struct NetworkExchange: Sendable {
    public var request: Request
    /// One or more responses, played in order: the first request gets the first, and so on. Empty when
    /// the exchange has `variants`.
    public var responses: [Response]
    /// What comes after the last response.
    public var sequence: SequenceMode
    /// Answers chosen by what the request says, tried in order; empty for an exchange that answers with
    /// `responses`.
    public var variants: [Variant]

    /// An exchange that answers with `responses` in turn (one response: always that one).
    public init(request: Request, responses: [Response], sequence: SequenceMode = .repeatLast) {
        self.request = request
        self.responses = responses
        self.sequence = sequence
        self.variants = []
    }

    /// An exchange that always answers `response` (by default `200` with no body).
    public init(request: Request, response: Response = Response()) {
        self.init(request: request, responses: [response])
    }

    /// An exchange whose answer is the first of `variants` whose conditions hold; when none holds, the
    /// server answers `404` saying, for each, the first condition that failed.
    public init(request: Request, variants: [Variant]) {
        self.request = request
        self.responses = []
        self.sequence = .repeatLast
        self.variants = variants
    }
}

extension NetworkExchange: CustomStringConvertible {
    /// `GET /api/v1/user`.
    public var description: String {
        request.description
    }
}
