import Foundation

extension MockServer {
    /// Writes `exchanges` as an ordinary tree into a fresh temporary folder (`requestsFolder`), starts
    /// `espressomartini run` on it as `start(requestsFolder:…)` does, and returns once it listens. The folder
    /// is removed at `stop()`, or when the last reference to the server and its session views goes.
    ///
    /// ```swift
    /// let server = try await MockServer.start(exchanges: [
    ///     NetworkExchange(request: .init(method: .get, path: "api/v1/user"), responses: [.init(kind: .json(ada))])
    /// ])
    /// ```
    ///
    /// Throws `MockServerError.invalidArgument` for exchanges that cannot be written (two answering the same
    /// requests, one without a response, a missing file), and what `start(requestsFolder:…)` throws.
    public static func start(
        exchanges: [NetworkExchange], executable: String? = nil, configuration: String? = nil,
        adminToken: String? = nil, timeout: Double = 10
    ) async throws -> MockServer {
        try await offCooperativeThreads {
            try launch(
                .exchanges(exchanges), executable: executable, configuration: configuration, adminToken: adminToken,
                timeout: timeout)
        }
    }

    /// Replaces the exchanges of a server `start(exchanges:)` began: writes the new tree beside the old one,
    /// swaps them in one step, and reloads it (`POST /__espressomartini/reload`), on the same port. Returns
    /// once the server serves the new tree; when it refuses it (`refused`, with every load error), it keeps
    /// serving the old one. As with any reload, call counters carry over for the exchanges that remain, and
    /// the journal, the cache and stubs stay; `reset()` starts the sequences over. Calls on one server are
    /// not meant to overlap. Throws `MockServerError.notStartedFromExchanges` on any other server.
    public func restart(exchanges: [NetworkExchange]) async throws {
        guard let tree = process?.declaredTree else {
            throw MockServerError.notStartedFromExchanges(
                "restart(exchanges:) replaces the exchanges of a server started with MockServer.start(exchanges:); "
                    + "this one serves \(requestsFolder ?? baseURL.absoluteString): edit that tree and call reload()")
        }
        let previous = try await Self.offCooperativeThreads { try tree.replace(with: exchanges) }
        do {
            try await reload()
        } catch {
            if let previous { try? tree.restore(previous) }
            throw error
        }
        if let previous { tree.discard(previous) }
    }
}
