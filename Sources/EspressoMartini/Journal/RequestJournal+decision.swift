extension RequestJournal {
    /// Records `request` as `decision` answers it, with the first bytes of its body and its full size; the
    /// status is the decision's, or none yet for a script's (`complete` sets it). The headers are packed
    /// straight from the request (see `record(_:packingHeaders:)`).
    @discardableResult
    public func record(_ request: Request, answeredBy decision: Decision, body: [UInt8], bodySize: Int) -> Ticket {
        let answer = decision.exchangeAnswer
        let entry = JournalEntry(
            time: .now, method: request.method, path: request.path, query: request.rawQuery, body: body, bodySize: bodySize,
            route: answer?.exchange.route.description, variant: answer?.variant, response: answer?.sequencePosition.index,
            status: decision.statusCode.map(Int.init), session: request.session?.name
        )
        return record(entry) { request.headers.pack(into: &$0) }
    }
}
