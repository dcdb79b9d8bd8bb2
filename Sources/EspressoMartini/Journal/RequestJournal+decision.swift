extension RequestJournal {
    /// Records `request` as `decision` answers it, with the first bytes of its body and its full size; the
    /// status is the decision's, or none yet for a script's (`complete` sets it with the status sent). The
    /// headers are packed straight from the request (see `record(_:packingHeaders:)`). Returns what
    /// `complete` needs, and the status recorded.
    @discardableResult
    public func record(
        _ request: Request, answeredBy decision: Decision, body: [UInt8], bodySize: Int
    ) -> (ticket: Ticket, status: Int?) {
        let status = decision.statusCode.map(Int.init)
        var route: String?, variant: Int?, position: Int?
        if let answer = decision.exchangeAnswer {
            let exchange = answer.exchange
            route = exchange.route.description
            variant = answer.variant
            position = exchange.sequencePosition(of: answer.position, variant: answer.variant).index
        }
        let entry = JournalEntry(
            time: .now, method: request.method, path: request.path, segments: request.segments, query: request.rawQuery,
            body: body,
            bodySize: bodySize,
            route: route, variant: variant, response: position, status: status, session: request.session?.name,
            proxied: decision.isForward
        )
        guard redactsCredentials else { return (record(entry) { request.headers.pack(into: &$0) }, status) }
        return (
            record(entry) { packed in
                request.headers.forEach { name, value in
                    if CredentialHeaders.contains(name) {
                        RequestHeaders.pack(name, CredentialHeaders.redacted.utf8, into: &packed)
                    } else {
                        RequestHeaders.pack(name, value, into: &packed)
                    }
                }
            }, status
        )
    }
}
