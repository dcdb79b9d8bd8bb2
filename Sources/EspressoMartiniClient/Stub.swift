/// An exchange `MockServer.stub(_:)` added to a running server (a runtime exchange): it answers until
/// `remove()`, a `removeAllStubs()` or the server's stop, beside the tree's routes and over the tree's
/// exchange of the same route.
public struct Stub: Sendable {
    /// The server's name for it (`r1`), as `GET /__espressomartini/exchanges` lists it.
    public let id: String
    public let exchange: NetworkExchange
    /// The session whose requests it answers; nil for every request.
    public let session: String?
    let server: MockServer

    /// Removes it (`DELETE /__espressomartini/exchanges/ID`); throws `refused` with status 404 when the
    /// server no longer has it.
    public func remove() async throws {
        _ = try await server.send("DELETE", "exchanges/\(id)", inSession: false)
    }
}
