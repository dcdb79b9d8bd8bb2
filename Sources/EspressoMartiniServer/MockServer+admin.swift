import CMicroHTTPD
import EspressoMartini

/// The admin API under `/__espressomartini`: health, exchanges with live call counts, reset,
/// reload and the request journal. JSON in and out; never journaled, never delayed.
extension MockServer {
    private struct Endpoint: Sendable {
        let allowed: [HTTPMethod]
        let handle: @Sendable (MockServer, HTTPMethod, OpaquePointer) -> GeneratedResponse
    }

    private static let endpoints: [String: Endpoint] = [
        "health": Endpoint(allowed: [.get, .head]) { server, _, _ in server.health() },
        "exchanges": Endpoint(allowed: [.get, .head]) { server, _, _ in server.exchangeList() },
        "reset": Endpoint(allowed: [.post]) { server, _, connection in server.reset(connection) },
        "reload": Endpoint(allowed: [.post]) { server, _, _ in server.reloadResponse() },
        "requests": Endpoint(allowed: [.get, .head, .delete]) { server, method, _ in server.requests(method) },
    ]

    func adminResponse(method methodName: String, segments: [String], connection: OpaquePointer) -> GeneratedResponse {
        let global = configuration.headers
        guard segments.count == 2, let endpoint = Self.endpoints[segments[1]] else {
            let known = Self.endpoints.keys.sorted().joined(separator: ", ")
            return .error(404, "no admin endpoint /\(segments.joined(separator: "/")); known: \(known)", globalHeaders: global)
        }
        guard let method = HTTPMethod(requestMethod: methodName), endpoint.allowed.contains(method) else {
            let allow = HTTPHeader(name: "Allow", value: endpoint.allowed.map(\.name).joined(separator: ", "))
            return .error(405, "use \(allow.value) for /\(segments.joined(separator: "/"))", extraHeaders: [allow], globalHeaders: global)
        }
        return endpoint.handle(self, method, connection)
    }

    private func health() -> GeneratedResponse {
        .json(200, .object([
            JSONMember(key: "status", value: .string("ok")),
            JSONMember(key: "exchanges", value: .integer(Int64(servingTree.tree.exchanges.count))),
        ]), globalHeaders: configuration.headers)
    }

    private func exchangeList() -> GeneratedResponse {
        let serving = servingTree
        let list = zip(serving.tree.exchanges, serving.counters).map { exchange, counter in
            JSONValue.object([
                JSONMember(key: "method", value: .string(exchange.method.name)),
                JSONMember(key: "route", value: .string(exchange.route.description)),
                JSONMember(key: "folder", value: .string(exchange.folder)),
                JSONMember(key: "responses", value: .integer(Int64(exchange.responses.count))),
                JSONMember(key: "calls", value: .integer(Int64(counter.value))),
            ])
        }
        return .json(200, .array(list), globalHeaders: configuration.headers)
    }

    /// All counters, or with `method=M&route=R` only that exchange's. The route may be spelled as
    /// the folders spell it (`/users/{id}`) or any way that matches the same requests (`/users/*`).
    private func reset(_ connection: OpaquePointer) -> GeneratedResponse {
        let global = configuration.headers
        let method = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "method").map { String(cString: $0) }
        let route = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "route").map { String(cString: $0) }
        switch (method, route) {
        case (nil, nil):
            counters.resetAll()
            return GeneratedResponse(statusCode: 204, body: [], headers: global)
        case (let method?, let route?):
            let pattern = RoutePattern(parsing: route)
            let serving = servingTree
            guard let index = serving.tree.exchanges.firstIndex(where: {
                $0.method.name == method.uppercased() && $0.route.matchesSameRequests(as: pattern)
            }) else {
                return .error(404, "no exchange \(method.uppercased()) \(route) to reset", globalHeaders: global)
            }
            serving.counters[index].reset()
            return GeneratedResponse(statusCode: 204, body: [], headers: global)
        default:
            return .error(400, "give both 'method' and 'route' to reset one exchange, or neither to reset all", globalHeaders: global)
        }
    }

    private func reloadResponse() -> GeneratedResponse {
        switch reload(reason: "admin API") {
        case .reloaded(let exchanges):
            return .json(200, .object([JSONMember(key: "exchanges", value: .integer(Int64(exchanges)))]), globalHeaders: configuration.headers)
        case .failed(let diagnostics):
            let errors = diagnostics.errors.map { JSONValue.string($0.description) }
            return .json(422, .object([JSONMember(key: "errors", value: .array(errors))]), globalHeaders: configuration.headers)
        }
    }

    private func requests(_ method: HTTPMethod) -> GeneratedResponse {
        guard let journal else { return .error(404, "the journal is off", globalHeaders: configuration.headers) }
        if method == .delete {
            journal.clear()
            return GeneratedResponse(statusCode: 204, body: [], headers: configuration.headers)
        }
        return .json(200, .array(journal.entries.map(\.json)), globalHeaders: configuration.headers)
    }
}
