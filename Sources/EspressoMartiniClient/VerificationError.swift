import Foundation

/// What `MockServer.verify` throws when the requests do not match as expected: the server's account of it,
/// readable where a failing test prints its error.
///
/// ```
/// expected exactly 1 request POST /api/v1/orders when json /customer/tier=gold, 0 matched
/// closest requests, each with the first condition it failed:
///   POST /api/v1/orders: json "/customer/tier" is "silver", expected "gold"
/// ```
public struct VerificationError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What was expected, in the server's words: `exactly 1`.
    public let expected: String
    /// How many requests matched.
    public let count: Int
    /// False when the journal dropped requests since it was last emptied, so `count` may be short (the
    /// message says so too).
    public let complete: Bool
    /// The server's one-line account: expectation, count and closest requests.
    public let message: String
    /// The requests most like the expected one, each with the first condition it failed.
    public let closest: [ClosestRequest]

    /// A request that came close, and why it did not match.
    public struct ClosestRequest: Sendable, Hashable {
        public let method: String
        public let path: String
        /// Its query string without `?`; empty when it had none.
        public let query: String
        /// The first condition it failed, as the server says it: `json "/customer/tier" is "silver", expected
        /// "gold"`.
        public let mismatch: String

        public init(method: String, path: String, query: String, mismatch: String) {
            self.method = method
            self.path = path
            self.query = query
            self.mismatch = mismatch
        }
    }

    public var description: String {
        // The server's message says the expectation first, then "; closest: …", given below a line each.
        let headline = message.range(of: "; closest: ").map { String(message[..<$0.lowerBound]) } ?? message
        var lines = [headline]
        if !closest.isEmpty {
            lines.append("closest requests, each with the first condition it failed:")
            lines += closest.map {
                "  \($0.method) \($0.path)\($0.query.isEmpty ? "" : "?" + $0.query): \($0.mismatch)"
            }
        }
        return lines.joined(separator: "\n")
    }

    public var errorDescription: String? { description }

    /// The answer of `requests/verify` that does not hold.
    init(answer: [String: Any]) {
        expected = answer["expected"] as? String ?? ""
        count = answer["count"] as? Int ?? 0
        complete = answer["complete"] as? Bool ?? true
        message = answer["message"] as? String ?? "expected \(expected); \(count) matched"
        closest = (answer["closest"] as? [[String: Any]] ?? []).map {
            ClosestRequest(
                method: $0["method"] as? String ?? "", path: $0["path"] as? String ?? "",
                query: $0["query"] as? String ?? "", mismatch: $0["mismatch"] as? String ?? "")
        }
    }
}
