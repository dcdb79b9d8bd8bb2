extension Explanation {
    /// `explain --json` and the admin API's `explain`: every key always present (null or `[]` where it
    /// does not apply).
    ///
    ///     {"method": "GET", "path": "/products/7", "query": "page=2", "status": 200, "outcome": "exchange",
    ///      "session": null,
    ///      "exchange": {"method", "route", "folder", "source", "id", "session"}, "variant": 0, "sequence": "repeat_last",
    ///      "response": {"position", "count", "calls", "status_code", "response_file" | "body" | "stream", "delay"},
    ///      "network": {"profile", "bytes_per_second", "latency"} | null,
    ///      "variants": [{"variant", "when", "result": "holds" | "fails" | "not_tried", "mismatch"}],
    ///      "other_routes": [{"route", "methods", "reason": "less_specific" | "overridden" | "no_exchange_for_method"}],
    ///      "allowed": [...], "closest": ["GET /products/{id}"], "forwarded_to": "https://api.example.com" | null}
    public var json: JSONValue {
        var allowed: [HTTPMethod] = []
        if case .methodNotAllowed(let methods) = Self.treePlan(plan) { allowed = methods }
        if case .preflight(let methods) = plan { allowed = methods }
        return .object([
            JSONMember(key: "method", value: .string(request.method)),
            JSONMember(key: "path", value: .string(request.path)),
            JSONMember(key: "query", value: .string(request.rawQuery)),
            JSONMember(key: "session", value: request.session.map { .string($0.name) } ?? .null),
            JSONMember(key: "status", value: statusCode.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "outcome", value: .string(plan.name)),
            JSONMember(
                key: "exchange", value: exchange.map { Self.json(exchange: $0, runtime: runtimeExchange) } ?? .null),
            JSONMember(key: "variant", value: choice?.variant.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "sequence", value: sequenceMode.map { .string($0.rawValue) } ?? .null),
            JSONMember(key: "response", value: responseJSON),
            JSONMember(key: "network", value: networkJSON),
            JSONMember(key: "variants", value: .array(variantsJSON)),
            JSONMember(key: "other_routes", value: .array(otherRoutes.map(Self.json(route:)))),
            JSONMember(key: "allowed", value: .array(allowed.map { .string($0.name) })),
            JSONMember(key: "closest", value: .array(closest.map { .string("\($0.method.name) \($0.route)") })),
            JSONMember(key: "forwarded_to", value: forwardTarget.map { .string($0.description) } ?? .null),
        ])
    }

    /// `{"method", "route", "folder", "source": "tree"}`, or for a runtime exchange `"folder": null,
    /// "source": "runtime", "id", "session"`.
    private static func json(exchange: Exchange, runtime: RuntimeExchange?) -> JSONValue {
        var members = [
            JSONMember(key: "method", value: .string(exchange.method.name)),
            JSONMember(key: "route", value: .string(exchange.route.description)),
            JSONMember(key: "folder", value: runtime == nil ? .string(exchange.folder) : .null),
            JSONMember(key: "source", value: .string(runtime == nil ? "tree" : "runtime")),
        ]
        if let runtime {
            members.append(JSONMember(key: "id", value: .string(runtime.id)))
            members.append(JSONMember(key: "session", value: runtime.session.map(JSONValue.string) ?? .null))
        }
        return .object(members)
    }

    private var responseJSON: JSONValue {
        guard let response, let (position, count) = sequencePosition else { return .null }
        let members = [
            JSONMember(key: "position", value: .integer(Int64(position))),
            JSONMember(key: "count", value: .integer(Int64(count))),
            JSONMember(key: "calls", value: .integer(Int64(calls))),
        ]
        return .object(members + response.answerMembers() + response.sendingMembers)
    }

    /// The network the answer goes out on, worked out: `{"profile", "bytes_per_second", "latency"}`.
    private var networkJSON: JSONValue {
        guard let network else { return .null }
        return .object([
            JSONMember(key: "profile", value: network.profile.map { .string($0.rawValue) } ?? .null),
            JSONMember(
                key: "bytes_per_second",
                value: network.bytesPerSecond.map { $0 == $0.rounded() && $0 < 1e15 ? .integer(Int64($0)) : .real($0) }
                    ?? .null),
            JSONMember(key: "latency", value: .real(network.latency)),
        ])
    }

    private var variantsJSON: [JSONValue] {
        guard let exchange else { return [] }
        return zip(exchange.variants, variants).enumerated().map { number, pair in
            let (variant, verdict) = pair
            var members = [
                JSONMember(key: "variant", value: .integer(Int64(number))),
                JSONMember(key: "when", value: variant.when ?? .null),
            ]
            switch verdict {
            case .holds: members.append(JSONMember(key: "result", value: .string("holds")))
            case .fails(let mismatch):
                members.append(JSONMember(key: "result", value: .string("fails")))
                members.append(JSONMember(key: "mismatch", value: .string(mismatch)))
            case .notTried: members.append(JSONMember(key: "result", value: .string("not_tried")))
            }
            return .object(members)
        }
    }

    private static func json(route: OtherRoute) -> JSONValue {
        .object([
            JSONMember(key: "route", value: .string(route.route.description)),
            JSONMember(key: "methods", value: .array(route.methods.map { .string($0.name) })),
            JSONMember(
                key: "reason",
                value: .string(route.reason.name)),
        ])
    }
}
