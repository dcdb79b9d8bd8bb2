extension RequestJournal {
    /// Records `request` as `decision` answers it, with the first bytes of its body and its full size.
    /// The headers are packed straight from the request (see `record(_:packingHeaders:)`).
    public func record(_ request: Request, answeredBy decision: Decision, body: [UInt8], bodySize: Int) {
        let answer = decision.exchangeAnswer
        let entry = JournalEntry(
            time: .now, method: request.method, path: request.path, query: request.rawQuery, body: body, bodySize: bodySize,
            route: answer?.exchange.route.description, variant: answer?.variant, response: answer?.sequencePosition.index,
            status: Int(decision.statusCode), session: request.session?.name
        )
        record(entry) { request.headers.pack(into: &$0) }
    }
}
