import EspressoMartini

extension ImportContext {
    /// The statuses a `default` response answers with `Prefer: code=S` when the operation documents none of them.
    static let statusesOfDefault = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504]

    /// An operation's answers from its `responses`: the lowest `2xx` (else `default` as `200`, else the lowest
    /// status documented) answers a request without `Prefer`; each other status answers `Prefer: code=S`
    /// (the `default` response those of `statusesOfDefault` not documented), each named example
    /// `Prefer: example=NAME` (the default answer's) or `Prefer: code=S, example=NAME`. Variants in that order
    /// of precedence: status and example, status, example, then the default answer. `name`: `GET /pets`.
    func answers(_ responses: Located?, of operation: Located, named name: String) -> ExchangeDraft.Answers {
        var documented: [(status: Int, response: ImportedResponse)] = []
        var fallback: ImportedResponse?
        var ranges: [(status: Int, located: Located)] = []
        for (key, located) in responses?.members ?? [] {
            if key == "default" {
                fallback = response(located, of: operation, named: name)
            } else if let status = Int(key), key.utf8.count == 3 {
                guard (200...599).contains(status) else {
                    report.warning(
                        at: located.location, "a mock cannot answer with status \(status); this response is left out")
                    continue
                }
                if let imported = response(located, of: operation, named: name) {
                    documented.append((status, imported))
                }
            } else if key.utf8.count == 3, let digit = Int(key.prefix(1)), (2...5).contains(digit),
                key.dropFirst().uppercased() == "XX"
            {
                ranges.append((digit * 100, located))
            } else if !key.hasPrefix("x-") {
                report.warning(at: located.location, "'\(key)' is not a status code; this response is left out")
            }
        }
        // `4XX` answers as 400, unless 400 is documented itself.
        for (status, located) in ranges where !documented.contains(where: { $0.status == status }) {
            if let imported = response(located, of: operation, named: name) { documented.append((status, imported)) }
        }
        documented.sort { $0.status < $1.status }

        let defaultAnswer: (status: Int, response: ImportedResponse)
        if let success = documented.first(where: { (200...299).contains($0.status) }) {
            defaultAnswer = success
        } else if let fallback {
            defaultAnswer = (200, fallback)
        } else {
            defaultAnswer = documented.first ?? (200, ImportedResponse())
        }
        var reachable = documented
        if let fallback {
            reachable += Self.statusesOfDefault.filter { status in !documented.contains { $0.status == status } }.map {
                ($0, fallback)
            }
            reachable.sort { $0.status < $1.status }
        }

        var variants: [VariantDraft] = []
        for (status, response) in reachable {
            for example in response.examples {
                variants.append(
                    VariantDraft(
                        when: PreferCondition.when(code: status, example: example.name),
                        responses: [response.draft(status: status, example: example)]))
            }
        }
        for (status, response) in reachable where status != defaultAnswer.status {
            variants.append(
                VariantDraft(
                    when: PreferCondition.when(code: status, example: nil), responses: [response.draft(status: status)])
            )
        }
        for example in defaultAnswer.response.examples {
            variants.append(
                VariantDraft(
                    when: PreferCondition.when(code: nil, example: example.name),
                    responses: [defaultAnswer.response.draft(status: defaultAnswer.status, example: example)]
                ))
        }
        let plain = defaultAnswer.response.draft(status: defaultAnswer.status)
        guard !variants.isEmpty else { return .responses([plain], sequence: nil) }
        variants.append(VariantDraft(when: nil, responses: [plain]))
        return .variants(variants)
    }
}
