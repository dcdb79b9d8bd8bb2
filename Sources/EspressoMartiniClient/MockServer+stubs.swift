import Foundation

extension MockServer {
    /// Adds `exchange` to the running server (`POST /__espressomartini/exchanges`), for this view's session's
    /// requests only in a session view, for every request otherwise. Its route joins the tree's and is chosen
    /// as any route is (a literal beats `{id}`); where it matches the same requests as a tree exchange of the
    /// same method, the stub answers (and a session's over a server-wide one). Bodies travel inline.
    ///
    /// Throws `refused` with every problem the server found (`request body:1:37: error: …`), with 429 past
    /// `max_runtime_exchanges`, with 413 for a body over 1 MiB.
    @discardableResult
    public func stub(_ exchange: NetworkExchange) async throws -> Stub {
        let body: JSONValue = [
            "method": .string(exchange.request.method.rawValue), "route": .string(try exchange.request.route()),
            "configuration": try exchange.inlineConfiguration(),
        ]
        let answer = try object(try await send("POST", "exchanges", body: Data(body.jsonText().utf8)))
        guard let id = answer["id"] as? String ?? (answer["id"] as? Int).map(String.init) else {
            throw MockServerError.unreachable("exchanges answered no id: \(answer)")
        }
        return Stub(id: id, exchange: exchange, session: answer["session"] as? String, server: self)
    }

    /// Removes stubs: in a session view, that session's; otherwise every stub of the server, every session's.
    public func removeAllStubs() async throws {
        _ = try await send("DELETE", "exchanges")
    }
}
