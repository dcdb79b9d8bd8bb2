#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long a response (or a stream's chunk) waits before it is sent (doc/faults-and-sessions.md): a fixed
/// number of seconds, or a time drawn for each request from a uniform range or a log-normal distribution.
public enum ResponseDelay: Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    case fixed(Double)
    /// `0 ≤ min ≤ max`, checked when the configuration is read.
    case uniform(min: Double, max: Double)
    /// Half the draws below `median`, spread by `sigma` (the standard deviation of the logarithm), never
    /// above `max` when it is given: the long tail of real latency. `median > 0`, `sigma ≥ 0`.
    case lognormal(median: Double, sigma: Double, max: Double?)

    public init(floatLiteral value: Double) { self = .fixed(value) }
    public init(integerLiteral value: Int) { self = .fixed(Double(value)) }

    /// The seconds one request waits: the fixed delay, or a fresh draw. Any thread.
    public var seconds: Double {
        switch self {
        case .fixed(let seconds): return seconds
        case .uniform(let min, let max): return min == max ? min : Double.random(in: min...max)
        case .lognormal(let median, let sigma, let max):
            let drawn = median * exp(sigma * Self.standardNormal())
            return max.map { Swift.min(drawn, $0) } ?? drawn
        }
    }

    /// Whether every request waits the same time (a fixed delay, or a range or spread of nothing).
    public var isFixed: Bool {
        switch self {
        case .fixed: true
        case .uniform(let min, let max): min == max
        case .lognormal(_, let sigma, _): sigma == 0
        }
    }

    /// A draw from the standard normal distribution (Box–Muller).
    private static func standardNormal() -> Double {
        let u = Double.random(in: Double.leastNonzeroMagnitude..<1)
        let v = Double.random(in: 0..<1)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// `2s`, `0.5s`, `0.1–0.5s` for a range, `lognormal 0.2s ±0.5 ≤5s` for a spread, as the listing and
    /// `explain` show it.
    public var summary: String {
        switch self {
        case .fixed(let seconds): ExchangeTree.seconds(seconds)
        case .uniform(let min, let max): ExchangeTree.number(min) + "–" + ExchangeTree.seconds(max)
        case .lognormal(let median, let sigma, let max):
            "lognormal " + ExchangeTree.seconds(median) + " ±" + ExchangeTree.number(sigma)
                + (max.map { " ≤" + ExchangeTree.seconds($0) } ?? "")
        }
    }

    /// A number of seconds, `{"min": A, "max": B}`, or `{"distribution": "lognormal", "median", "sigma",
    /// "max"}`, as the configuration gives it.
    public var json: JSONValue {
        switch self {
        case .fixed(let seconds): .real(seconds)
        case .uniform(let min, let max):
            .object([JSONMember(key: "min", value: .real(min)), JSONMember(key: "max", value: .real(max))])
        case .lognormal(let median, let sigma, let max):
            .object(
                [
                    JSONMember(key: "distribution", value: .string("lognormal")),
                    JSONMember(key: "median", value: .real(median)),
                    JSONMember(key: "sigma", value: .real(sigma)),
                ] + (max.map { [JSONMember(key: "max", value: .real($0))] } ?? []))
        }
    }
}
