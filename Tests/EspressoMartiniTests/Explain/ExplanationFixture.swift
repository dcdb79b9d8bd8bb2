import EspressoMartini
import EspressoMartiniJansson

/// A tree with variants, routes that overlap (`{id}`, `:sku`, `**`, a literal) and a body condition, for
/// explanations and the decisions they must agree with.
enum ExplanationFixture {
    static let files = [
        "products/{id}/GET/configuration.json": #"""
        {"variants": [
          {"when": {"query": {"page": "2"}}, "responses": [{"body": "page 2"}, {"status_code": 202, "response_file": "later.json"}]},
          {"when": {"headers": {"Authorization": {"present": false}}}, "responses": {"status_code": 401}},
          {"responses": {"body": {"page": 1}}}
        ]}
        """#,
        "products/{id}/GET/later.json": "{}",
        "products/**/GET/configuration.json": #"{"body": "any product file"}"#,
        "products/:sku/DELETE/configuration.json": #"{"status_code": 204}"#,
        "products/new/POST/configuration.json": #"{"status_code": 201}"#,
        "orders/{id}/POST/configuration.json": #"""
        {"variants": [{"when": {"json": {"/express": {"equals": true}}}, "responses": {"status_code": 201, "delay": 0.5}}]}
        """#,
    ]

    /// A request from a client on this machine, as `explain` explains them.
    static func request(_ method: String, _ target: String, headers: [HTTPHeader] = [], body: String = "") -> Request {
        let target = RequestTarget(target)
        var request = Request(
            method: method, path: target.path, rawQuery: target.rawQuery, headers: RequestHeaders(headers),
            body: Array(body.utf8))
        request.client = ClientAddress(text: "127.0.0.1", isLoopback: true)
        return request
    }

    /// The plan in one line: `200 GET /products/{id} variant 0 response 1`, `405 GET, HEAD`, `404 closest …`.
    static func summary(_ explanation: Explanation) -> String {
        let status = explanation.statusCode.map(String.init) ?? "admin"
        switch explanation.plan {
        case .exchange(let choice):
            let exchange = explanation.tree.exchanges[choice.exchange]
            let variant = choice.variant.map { " variant \($0)" } ?? ""
            guard let position = choice.position else { return "\(status) sequence over \(exchange.route)" + variant }
            return "\(status) \(exchange.method.name) \(exchange.route)" + variant + " response \(position)"
        case .noVariant(let index, _, _): return "\(status) no variant of \(explanation.tree.exchanges[index].route)"
        case .methodNotAllowed(let allowed): return "\(status) allowed \(allowed.map(\.name).joined(separator: ", "))"
        case .preflight(let allowed): return "\(status) preflight \(allowed.map(\.name).joined(separator: ", "))"
        case .notFound:
            return
                "\(status) closest \(explanation.closest.map { "\($0.method.name) \($0.route)" }.joined(separator: ", "))"
        case .dotSegment: return "\(status) dot segment"
        case .refused(let refusal): return "\(status) refused: \(refusal.message)"
        case .admin: return "admin API"
        case .forward(let miss):
            return "forwarded to \(explanation.forwardTarget.map(\.description) ?? "?")"
                + (miss.map { " (\($0.name))" } ?? "")
        }
    }
}
