import Foundation

extension MockServer {
    /// Checks that the requests of `method` to `path` (a route pattern in the tree's spelling,
    /// `/api/v1/orders/{id}`) for which every condition holds number `count` (at least one by default), with
    /// `POST /__espressomartini/requests/verify`; in a session view, among that session's requests only.
    /// Returns how many matched. When it does not hold, throws a `VerificationError` saying what was expected,
    /// how many matched and the closest requests with the first condition each failed; when the journal
    /// dropped requests and the count could wrongly hold, `MockServerError.incompleteJournal`.
    @discardableResult
    public func verify(
        _ method: NetworkExchange.Method, _ path: String, when conditions: [Condition] = [],
        count: ExpectedCount = .atLeast(1)
    ) async throws -> Int {
        var filter: [String: JSONValue] = [
            "method": .string(method.rawValue), "path": .string(path), "count": count.json,
        ]
        if !conditions.isEmpty { filter["when"] = try Condition.whenJSON(conditions) }
        let body = Data(JSONValue.object(filter).jsonText().utf8)
        let answer = try object(try await send("POST", "requests/verify", body: body))
        guard let holds = answer["holds"] as? Bool, let matched = answer["count"] as? Int else {
            throw MockServerError.unreachable("requests/verify answered no verdict: \(answer)")
        }
        guard holds else { throw VerificationError(answer: answer) }
        if answer["complete"] as? Bool == false, count.hasUpperBound {
            throw MockServerError.incompleteJournal(count: matched)
        }
        return matched
    }

    /// Throws an `UnmatchedRequestsError` listing every request no exchange answered (in a session view, of
    /// that session), each with the routes most like it; returns when there is none.
    public func verifyNoUnmatchedRequests() async throws {
        let unmatched = try await unmatchedRequests()
        guard unmatched.isEmpty else { throw UnmatchedRequestsError(requests: unmatched) }
    }

    /// `count(method:path:when:)` with typed conditions: `when: [.json("/tier", "gold")]`.
    public func count(method: String? = nil, path: String? = nil, when conditions: [Condition]) async throws -> Int {
        try await count(method: method, path: path, when: try Condition.whenObject(conditions))
    }

    /// `requests(method:path:when:)` with typed conditions.
    public func requests(
        method: String? = nil, path: String? = nil, when conditions: [Condition]
    ) async throws -> [RecordedRequest] {
        try await requests(method: method, path: path, when: try Condition.whenObject(conditions))
    }
}
