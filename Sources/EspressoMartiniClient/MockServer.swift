import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An espressomartini server for a test suite (doc/testing.md): started from declared exchanges or a tree on a
/// free port and stopped with the test, or one already running; stubs added while it runs; what the app sent,
/// checked, counted and found with the admin API.
///
/// ```swift
/// let server = try await MockServer.start(exchanges: [
///     NetworkExchange(request: .init(method: .post, path: "api/v1/orders"), responses: [.init(status: 201)])
/// ])
/// defer { server.stop() }
/// try await CheckoutClient(baseURL: server.baseURL).placeOrder(tier: "gold")
/// try await server.verify(.post, "/api/v1/orders", when: [.json("/tier", "gold")], count: .exactly(1))
/// ```
///
/// Every call is `async` and throws a `MockServerError` carrying the server's message (or, from the checks,
/// a `VerificationError` or `UnmatchedRequestsError`). Tests that share a server keep apart with
/// `session(_:)`, or the `.mockServer` trait and `MockServerTestCase`, which give each test a session.
public final class MockServer: Sendable {
    /// The header that names a session unless the server configuration's `session_header` says otherwise.
    public static let defaultSessionHeader = "X-Espressomartini-Session"

    /// Where the server answers: `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The session every call names; nil for the default session (and, for the journal and counts, every session).
    public let sessionName: String?
    /// The header that names the session on the app's requests.
    public let sessionHeader: String
    let adminToken: String?
    /// The process `start` began, shared with the session views made from this object; nil for a server
    /// already running. The process stops when the last of them is released, or at `stop()`.
    let process: ServerProcess?

    /// The requests folder the server was started on, absolute: for `start(exchanges:)`, the temporary
    /// folder holding them (removed at `stop()`). Nil for a server already running.
    public var requestsFolder: String? { process?.requestsFolder }

    /// A server already running at `baseURL`. `adminToken` is sent as `Authorization: Bearer TOKEN` on
    /// admin calls, for a server configured with `admin_token`.
    public convenience init(baseURL: URL, adminToken: String? = nil) {
        self.init(
            baseURL: baseURL, sessionName: nil, sessionHeader: Self.defaultSessionHeader, adminToken: adminToken,
            process: nil)
    }

    init(baseURL: URL, sessionName: String?, sessionHeader: String, adminToken: String?, process: ServerProcess?) {
        self.baseURL = baseURL
        self.sessionName = sessionName
        self.sessionHeader = sessionHeader
        self.adminToken = adminToken
        self.process = process
    }

    /// Starts `espressomartini run` serving `requestsFolder` on a free port of 127.0.0.1 (or of the
    /// configuration's `hostname`) and returns once it listens. `executable` is the binary's path (found on
    /// `PATH` when nil); `configuration` a server configuration file (the defaults when nil); relative paths
    /// resolve against the current folder. Waits at most `timeout` seconds for the server to listen, then
    /// throws `MockServerError.didNotStart` with what the process printed.
    public static func start(
        requestsFolder: String, executable: String? = nil, configuration: String? = nil, adminToken: String? = nil,
        timeout: Double = 10
    ) async throws -> MockServer {
        try await offCooperativeThreads {
            try launch(
                .tree(requestsFolder), executable: executable, configuration: configuration, adminToken: adminToken,
                timeout: timeout)
        }
    }

    /// What `launch` serves.
    enum Served {
        case tree(String)
        case exchanges([NetworkExchange])
    }

    /// Starts a server and waits for it, blocking the calling thread: the body of every `start`.
    static func launch(
        _ served: Served, executable: String?, configuration: String?, adminToken: String?, timeout: Double
    ) throws -> MockServer {
        let process: ServerProcess
        switch served {
        case .tree(let folder):
            process = try ServerProcess.start(
                requestsFolder: folder, executable: executable, configuration: configuration, timeout: timeout)
        case .exchanges(let exchanges):
            let tree = try DeclaredTree(exchanges: exchanges)
            process = try ServerProcess.start(
                requestsFolder: tree.requestsFolder.path, declaredTree: tree, executable: executable,
                configuration: configuration, timeout: timeout)
        }
        return MockServer(
            baseURL: process.baseURL, sessionName: nil, sessionHeader: defaultSessionHeader, adminToken: adminToken,
            process: process)
    }

    /// Stops the server `start` began (SIGTERM; requests in flight may finish; SIGKILL after 12 s), and
    /// returns once it has ended. Does nothing for a server this object did not start, or one already
    /// stopped. Releasing the last reference to the server (and to its session views) stops it too.
    public func stop() {
        process?.stop()
    }

    /// The same server, every call naming the session `name`: the admin calls with `?session=NAME` (that
    /// session's counters, cache, and part of the journal), and `urlRequest(_:)` and `sessionHeaders` for
    /// the app's requests. `header` is the server's `session_header`.
    public func session(_ name: String, header: String = MockServer.defaultSessionHeader) -> MockServer {
        MockServer(baseURL: baseURL, sessionName: name, sessionHeader: header, adminToken: adminToken, process: process)
    }

    /// The header the app's requests must carry to be in this object's session; empty for the default session.
    public var sessionHeaders: [String: String] {
        sessionName.map { [sessionHeader: $0] } ?? [:]
    }

    /// A request for `path` (with its query, if any) on this server, carrying `sessionHeaders`.
    public func urlRequest(_ path: String, method: String = "GET") -> URLRequest {
        var request = URLRequest(
            url: URL(string: path, relativeTo: baseURL)?.absoluteURL ?? baseURL.appendingPathComponent(path))
        request.httpMethod = method
        for (name, value) in sessionHeaders { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    // MARK: The journal

    /// How many requests the app sent that match: `method` (any case), `path` (a route pattern in the
    /// tree's spelling, `/api/v1/orders/{id}` or `/files/**`, whether or not that route answered), `when`
    /// (a variant's conditions, `["json": ["/tier": "gold"]]`). Throws `incompleteJournal` when the journal
    /// dropped requests since it was last emptied, and `refused` with the server's words for a bad filter.
    public func count(method: String? = nil, path: String? = nil, when: [String: Any]? = nil) async throws -> Int {
        let body = try Self.filterBody(method: method, path: path, when: when)
        let answer = try object(try await send("POST", "requests/count", body: body))
        guard let count = answer["count"] as? Int, let complete = answer["complete"] as? Bool else {
            throw MockServerError.unreachable("requests/count answered no count: \(answer)")
        }
        guard complete else { throw MockServerError.incompleteJournal(count: count) }
        return count
    }

    /// The requests that match, oldest first, as `count` selects them.
    public func requests(
        method: String? = nil, path: String? = nil, when: [String: Any]? = nil
    ) async throws -> [RecordedRequest] {
        let body = try Self.filterBody(method: method, path: path, when: when)
        return try decode(try await send("POST", "requests/find", body: body))
    }

    /// The requests no exchange answered, oldest first, each with the routes most like it (`closest`).
    public func unmatchedRequests() async throws -> [RecordedRequest] {
        try decode(try await send("GET", "requests", query: [URLQueryItem(name: "unmatched", value: "true")]))
    }

    /// Empties the journal (with a session, that session's part).
    public func clearRequests() async throws {
        _ = try await send("DELETE", "requests")
    }

    // MARK: Counters, cache, reload

    /// Puts every call counter back to 0 (with a session, that session's): sequences start over.
    public func reset() async throws {
        _ = try await send("POST", "reset")
    }

    /// The cache templates and scripts share (with a session, that session's).
    public func cache() async throws -> sending [String: Any] {
        try object(try await send("GET", "cache"))
    }

    public func clearCache() async throws {
        _ = try await send("DELETE", "cache")
    }

    /// Reads the tree again (for every session: the tree is the server's); returns how many exchanges it
    /// serves. A tree with errors throws `refused` with every error, and the server keeps serving the tree
    /// it had.
    @discardableResult
    public func reload() async throws -> Int {
        let answer = try object(try await send("POST", "reload", inSession: false))
        guard let exchanges = answer["exchanges"] as? Int else {
            throw MockServerError.unreachable("reload answered no exchange count: \(answer)")
        }
        return exchanges
    }
}
