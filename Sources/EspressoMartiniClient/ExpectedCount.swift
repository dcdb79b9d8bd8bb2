/// How many requests `MockServer.verify` expects to match.
public enum ExpectedCount: Sendable, Hashable {
    case exactly(Int)
    case atLeast(Int)
    case atMost(Int)

    /// None at all: `exactly(0)`.
    public static let never = ExpectedCount.exactly(0)

    /// As `requests/verify` takes it: `{"exactly": 1}`, `{"at_least": 1}`, `{"at_most": 2}`.
    var json: JSONValue {
        switch self {
        case .exactly(let count): ["exactly": .integer(count)]
        case .atLeast(let count): ["at_least": .integer(count)]
        case .atMost(let count): ["at_most": .integer(count)]
        }
    }

    /// Whether a count that may be short (the journal dropped requests) could wrongly hold.
    var hasUpperBound: Bool {
        if case .atLeast = self { false } else { true }
    }
}
