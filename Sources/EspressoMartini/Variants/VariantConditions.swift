/// A variant's `when`: conditions that must all hold, in file order (doc/variants.md).
public struct VariantConditions: Sendable {
    /// Conditions read the body up to this many bytes; a longer body fails body, JSON and form conditions.
    public static let bodyLimit = 1_048_576

    public let conditions: [VariantCondition]

    public init(_ conditions: [VariantCondition]) {
        self.conditions = conditions
    }

    /// No condition (`when` absent or `{}`): every request satisfies it.
    public var alwaysHolds: Bool { conditions.isEmpty }

    /// Whether some condition needs the request's body.
    public var readsBody: Bool { conditions.contains { $0.readsBody } }

    /// Whether every condition holds. Builds no message: the per-request path, and the journal's per entry,
    /// so the conditions are read in place rather than copied out one by one.
    public func holds(for request: some VariantInput) -> Bool {
        conditions.withUnsafeBufferPointer { conditions in
            for index in conditions.indices where !conditions[index].holds(for: request) { return false }
            return true
        }
    }

    /// Nil when every condition holds; else the first failing condition's message
    /// (`query "page" is "3", expected "2"`), for a `404`'s `mismatches` and `explain`.
    public func firstMismatch(for request: some VariantInput) -> String? {
        for condition in conditions {
            if let mismatch = condition.mismatch(for: request) { return mismatch }
        }
        return nil
    }

    /// The short form in listings, `query page=2, header authorization absent`; empty when there is no condition.
    public var summary: String {
        conditions.map(\.summary).joined(separator: ", ")
    }
}
