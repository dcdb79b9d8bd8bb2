/// What `requests/verify` found, in a sentence a failing test prints (doc/testing.md): `expected exactly 1
/// request POST /api/v1/orders when json /customer/tier is "gold", 0 matched; closest: POST /api/v1/orders:
/// json /customer/tier is "silver", expected "gold"`.
struct Verification {
    let filter: JournalFilter
    let expected: CountExpectation
    let count: Int
    let complete: Bool
    let closest: [JournalFilter.NearMiss]

    var message: String {
        let noun = if case .exactly(1) = expected { "request" } else { "requests" }
        var text = "expected \(expected.description) \(noun) \(wanted), \(count) matched"
        if !complete { text += " (the journal dropped older requests, so the count may be short)" }
        guard !expected.holds(for: count) else { return text }
        if closest.isEmpty { return text + "; no request came close" }
        return text + "; closest: "
            + closest.map { "\($0.entry.method) \($0.entry.path): \($0.mismatch)" }.joined(separator: "; ")
    }

    /// `POST /api/v1/orders with status 201 when …, in session "a"`.
    private var wanted: String {
        var text = (filter.method?.uppercased() ?? "of any method") + " " + (filter.path?.description ?? "to any path")
        if let status = filter.status { text += " answered \(status.description)" }
        if filter.unmatched { text += " that no exchange answered" }
        if let conditions = filter.conditions, !conditions.alwaysHolds { text += " when " + conditions.summary }
        if let session = filter.session { text += " in session \"\(session)\"" }
        return text
    }
}
