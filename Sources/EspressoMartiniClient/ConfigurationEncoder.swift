/// Writes an exchange as what its method folder's `configuration.json` holds (doc/tree.md): one response
/// object, an array of them, `{"responses": […], "sequence": MODE}`, or `{"variants": […]}`. The same for
/// a tree and for the admin API; only where the bodies go differs, which `placement` decides.
struct ConfigurationEncoder<Placement: BodyPlacement> {
    var placement: Placement

    mutating func configuration(of exchange: NetworkExchange) throws -> JSONValue {
        do {
            guard !exchange.variants.isEmpty else {
                return try responses(exchange.responses, sequence: exchange.sequence)
            }
            guard exchange.responses.isEmpty else {
                throw MockServerError.invalidArgument(
                    "an exchange answers with its responses or with its variants, not both; "
                        + "make the responses a last variant without conditions")
            }
            var variants: [JSONValue] = []
            for (index, variant) in exchange.variants.enumerated() {
                do {
                    variants.append(try self.variant(variant))
                } catch let MockServerError.invalidArgument(problem) {
                    throw MockServerError.invalidArgument("variant \(index + 1): \(problem)")
                }
            }
            return ["variants": .array(variants)]
        } catch let MockServerError.invalidArgument(problem) {
            throw MockServerError.invalidArgument("\(exchange): \(problem)")
        }
    }

    private mutating func variant(_ variant: NetworkExchange.Variant) throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        if !variant.conditions.isEmpty { members["when"] = try Condition.whenJSON(variant.conditions) }
        members["responses"] = try responses(variant.responses, sequence: .repeatLast)
        if variant.sequence != .repeatLast { members["sequence"] = .string(variant.sequence.rawValue) }
        return .object(members)
    }

    /// One object for one response, an array for a sequence; with the mode named when it is not the default.
    private mutating func responses(
        _ responses: [NetworkExchange.Response], sequence: NetworkExchange.SequenceMode
    ) throws -> JSONValue {
        guard !responses.isEmpty else {
            throw MockServerError.invalidArgument("it has no response; give at least one")
        }
        var encoded: [JSONValue] = []
        for (index, response) in responses.enumerated() {
            do {
                encoded.append(try self.response(response))
            } catch let MockServerError.invalidArgument(problem) where responses.count > 1 {
                throw MockServerError.invalidArgument("response \(index + 1): \(problem)")
            }
        }
        let written: JSONValue = encoded.count == 1 ? encoded[0] : .array(encoded)
        guard sequence != .repeatLast else { return written }
        return ["responses": written, "sequence": .string(sequence.rawValue)]
    }

    private mutating func response(_ response: NetworkExchange.Response) throws -> JSONValue {
        var members: [String: JSONValue] = ["status_code": .integer(response.status)]
        var headers = response.headers
        // A 204 or 304 has no body: the server would warn and not send one.
        let kind = [204, 304].contains(response.status) ? .empty : response.kind
        if case .stream(let chunks, let repeats) = kind {
            members["stream"] = .array(chunks.map(\.json))
            if repeats { members["stream_repeat"] = true }
        } else if let body = try EncodedBody(kind) {
            let placed = try placement.place(body, template: response.template)
            members.merge(placed.members) { _, body in body }
            if let contentType = placed.contentType, !headers.contains("Content-Type") {
                headers.fields.append(.init(name: "Content-Type", value: contentType))
            }
        }
        if !headers.fields.isEmpty { members["headers"] = headers.json }
        members["delay"] = response.delay?.json
        members["fault"] = response.fault.map { .string($0.rawValue) }
        if response.template { members["template"] = true }
        return .object(members)
    }
}
