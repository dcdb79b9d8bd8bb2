extension Explanation {
    /// `explain`'s report, one fact a line, ending with a newline:
    ///
    ///     GET /products/7?page=2
    ///     answer:   200 from GET /products/{id}, variant 1 of 2, response 1 of 2
    ///     folder:   products/{id}/GET       (for a runtime exchange: `source:   runtime exchange r3`)
    ///     response: 200 page-2.json
    ///     network:  3g: 0.1s before the first byte, then the body at 780kbit (97500 bytes/s)
    ///     variants:
    ///       1 when query page=2: holds
    ///       2: not tried
    ///     other routes matching the path:
    ///       /products/** (GET): less specific than /products/{id}
    public var text: String {
        var lines = [request.method + " " + request.path + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)]
        if let session = request.session { lines.append("session:  " + session.name) }
        lines.append("answer:   " + answerLine)
        if let runtimeExchange {
            lines.append("source:   runtime exchange " + runtimeExchange.id + runtimeExchange.scopeDescription)
        } else if let exchange {
            lines.append("folder:   " + exchange.folder)
        }
        if let response {
            lines.append("response: \(response.summary)")
        }
        if let network { lines.append("network:  " + Self.describe(network)) }
        if let exchange, !variants.isEmpty {
            lines.append("variants:")
            for (number, (variant, verdict)) in zip(exchange.variants, variants).enumerated() {
                let when = variant.conditions.alwaysHolds ? "" : " when " + variant.conditions.summary
                lines.append("  \(number + 1)\(when): " + Self.describe(verdict))
            }
        }
        if !otherRoutes.isEmpty {
            lines.append(exchange == nil ? "routes matching the path:" : "other routes matching the path:")
            for other in otherRoutes {
                let methods = other.methods.map(\.name).joined(separator: ", ")
                lines.append("  \(other.route) (\(methods)): " + describe(other.reason))
            }
        }
        if case .notFound = Self.treePlan(plan) {
            lines.append("closest routes:" + (closest.isEmpty ? " none" : ""))
            lines += closest.map { "  \($0.method.name) \($0.route)" }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    private var answerLine: String {
        answerLine(plan)
    }

    private func answerLine(_ plan: Plan) -> String {
        switch plan {
        case .exchange(let choice) where choice.position == nil:
            let exchange = tree.exchanges[choice.exchange]
            let which = choice.variant.map { ", variant \($0 + 1) of \(exchange.variants.count)" } ?? ""
            return
                "410 from \(exchange.method.name) \(exchange.route)\(which): its 'once' sequence has served all \(calls) calls"
        case .exchange(let choice):
            let exchange = tree.exchanges[choice.exchange]
            var line =
                "\(statusCode.map(String.init) ?? "a script's answer") from \(exchange.method.name) \(exchange.route)"
            if request.knownMethod == .head, exchange.method == .get {
                line += " (HEAD answered as GET, without the body)"
            }
            if let variant = choice.variant { line += ", variant \(variant + 1) of \(exchange.variants.count)" }
            if let (position, count) = sequencePosition { line += ", response \(position + 1) of \(count)" }
            if let mode = sequenceMode, mode != .repeatLast { line += " (sequence \(mode.rawValue))" }
            return line
        case .noVariant(let index, _, _):
            let exchange = tree.exchanges[index]
            return "404, no variant of \(exchange.method.name) \(exchange.route) holds"
        case .methodNotAllowed(let allowed):
            let methods = allowed.map(\.name).joined(separator: ", ")
            return "405, no route matching the path has a \(request.method) exchange; allowed: \(methods)"
        case .preflight(let allowed):
            let methods = allowed.map(\.name).joined(separator: ", ")
            return "204, a CORS preflight the server answers (cors is on); allowed: \(methods)"
        case .notFound:
            return "404, no route matches the path"
        case .dotSegment:
            return "400, the path has a '.' or '..' segment"
        case .refused(let refusal):
            return "\(refusal.status), refused: \(refusal.message)"
        case .admin:
            return "the admin API (/\(Decider.adminPrefix)) answers"
        case .forward(let miss):
            let target = forwardTarget.map(\.description) ?? "the proxy's target"
            guard let miss else { return "forwarded to \(target) (every request is, while recording)" }
            return "forwarded to \(target), as the tree has no answer: " + answerLine(miss)
        }
    }

    /// `3g: 0.1s before the first byte, then the body at 780kbit`.
    private static func describe(_ network: NetworkCondition) -> String {
        let name = network.profile.map { $0.rawValue } ?? "bandwidth"
        var parts: [String] = []
        if network.latency > 0 { parts.append(ExchangeTree.seconds(network.latency) + " before the first byte") }
        if let rate = network.bandwidth ?? network.profile?.bandwidth {
            parts.append("the body at \(rate.summary) (\(ExchangeTree.number(rate.bytesPerSecond.rounded())) bytes/s)")
        }
        return name + ": " + (parts.isEmpty ? "full speed" : parts.joined(separator: ", then "))
    }

    private static func describe(_ verdict: VariantVerdict) -> String {
        switch verdict {
        case .holds: "holds"
        case .fails(let mismatch): "fails: " + mismatch
        case .notTried: "not tried"
        }
    }

    private func describe(_ reason: OtherRoute.Reason) -> String {
        switch reason {
        case .lessSpecific: "less specific than \(exchange?.route.description ?? "the route chosen")"
        case .overridden: "the same requests as \(exchange?.route.description ?? "the route chosen"), which comes first"
        case .noExchangeForMethod: "no \(request.method) exchange"
        }
    }
}
