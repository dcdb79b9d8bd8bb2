/// How long a response waits before it is sent (§4, §13): a fixed number of seconds, or a time drawn
/// uniformly from a range for each request.
public enum ResponseDelay: Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    case fixed(Double)
    /// `0 ≤ min ≤ max`, checked when the configuration is read.
    case uniform(min: Double, max: Double)

    public init(floatLiteral value: Double) { self = .fixed(value) }
    public init(integerLiteral value: Int) { self = .fixed(Double(value)) }

    /// The seconds one request waits: the fixed delay, or a fresh draw from the range. Any thread.
    public var seconds: Double {
        switch self {
        case .fixed(let seconds): seconds
        case .uniform(let min, let max): min == max ? min : Double.random(in: min...max)
        }
    }

    /// `2s`, `0.5s`, or `0.1–0.5s` for a range, as the listing and `explain` show it.
    public var summary: String {
        switch self {
        case .fixed(let seconds): ExchangeTree.seconds(seconds)
        case .uniform(let min, let max): ExchangeTree.number(min) + "–" + ExchangeTree.seconds(max)
        }
    }

    /// A number of seconds, or `{"min": A, "max": B}`, as the configuration gives it.
    public var json: JSONValue {
        switch self {
        case .fixed(let seconds): .real(seconds)
        case .uniform(let min, let max): .object([JSONMember(key: "min", value: .real(min)), JSONMember(key: "max", value: .real(max))])
        }
    }
}
