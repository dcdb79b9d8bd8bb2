extension ExchangeTree {
    /// One line per exchange: method, route as the folders spell it, then its responses
    /// (`1: 202 pending.json · 2: 200 done.json delay 0.5s`, `template` after a templated one); for an exchange with variants, one more
    /// line per variant under it (`variant 1 when query page=2: 1: 200 page-2.json`).
    public var listing: String {
        let methodWidth = exchanges.map(\.method.name.count).max() ?? 0
        let routeWidth = exchanges.map { $0.route.description.count }.max() ?? 0
        return exchanges.map { exchange in
            let method = exchange.method.name.padding(to: methodWidth)
            let route = exchange.route.description.padding(to: routeWidth)
            guard !exchange.variants.isEmpty else {
                return "\(method)  \(route)  \(Self.summary(of: exchange.responses[...], mode: exchange.sequence))\n"
            }
            let indent = String(repeating: " ", count: methodWidth + 2)
            let variants = exchange.variants.enumerated().map { index, variant in
                let when = variant.conditions.alwaysHolds ? "" : " when \(variant.conditions.summary)"
                return
                    "\(indent)variant \(index + 1)\(when): \(Self.summary(of: exchange.responses[variant.responses], mode: variant.sequence))\n"
            }
            let count = exchange.variants.count == 1 ? "1 variant" : "\(exchange.variants.count) variants"
            return "\(method)  \(route)  \(count)\n" + variants.joined()
        }.joined()
    }

    /// `1: 202 pending.json · 2: 200 done.json delay 0.5s`, then ` (sequence loop)` for a mode other
    /// than the default.
    private static func summary(of responses: ArraySlice<ConfiguredResponse>, mode: SequenceMode) -> String {
        responses.enumerated().map { index, response in
            "\(index + 1): \(response.summary)"
        }.joined(separator: " · ") + (mode == .repeatLast ? "" : " (sequence \(mode.rawValue))")
    }

    /// `endpoints --json`: every exchange with its responses as the configuration gives them
    /// (`"template": true` on a templated one).
    public var listingJSON: JSONValue {
        .array(
            exchanges.map { exchange in
                var members = [
                    JSONMember(key: "method", value: .string(exchange.method.name)),
                    JSONMember(key: "route", value: .string(exchange.route.description)),
                    JSONMember(key: "folder", value: .string(exchange.folder)),
                ]
                if exchange.variants.isEmpty {
                    members.append(JSONMember(key: "responses", value: .array(exchange.responses.map(\.listingJSON))))
                    members.append(JSONMember(key: "sequence", value: .string(exchange.sequence.rawValue)))
                } else {
                    members.append(
                        JSONMember(
                            key: "variants",
                            value: .array(
                                exchange.variants.map { variant in
                                    .object([
                                        JSONMember(key: "when", value: variant.when ?? .null),
                                        JSONMember(
                                            key: "responses",
                                            value: .array(exchange.responses[variant.responses].map(\.listingJSON))),
                                        JSONMember(key: "sequence", value: .string(variant.sequence.rawValue)),
                                    ])
                                })))
                }
                return .object(members)
            })
    }

    /// `2s`, `0.5s`; whole numbers too large for an `Int` keep Swift's own spelling (`1e+300s`).
    static func seconds(_ value: Double) -> String {
        number(value) + "s"
    }

    /// `2`, `0.5`: a whole number without its fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}

extension ConfiguredResponse {
    var listingJSON: JSONValue {
        .object(answerMembers(headers: true) + sendingMembers)
    }
}

extension ResponseBody {
    /// A short description for the listing: the file name, the inline body (cut), or `no body`.
    var summary: String {
        switch self {
        case .none: return "no body"
        case .file(let name, _, _): return name
        case .inline(let value):
            let text = value.compactText
            return "body " + (text.count > 40 ? text.prefix(39) + "…" : text)
        case .bytes(let bytes): return "body of \(bytes.count) bytes"
        }
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
