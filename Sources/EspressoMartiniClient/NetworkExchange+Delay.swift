extension NetworkExchange {
    /// How long a response (or a stream's chunk) waits, in seconds: a number literal is a fixed wait
    /// (`delay: 0.2`), or a wait drawn for each request (doc/streams-and-networks.md, Uneven latency).
    public enum Delay: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        /// Always this many seconds (0 or more).
        case seconds(Double)
        /// Drawn uniformly from `min...max` for each request (`0 ≤ min ≤ max`).
        case uniform(min: Double, max: Double)
        /// Long-tailed: half the waits below `median` (above 0), spread by `sigma` (the standard deviation
        /// of the wait's logarithm), never above `max` when given.
        case lognormal(median: Double, sigma: Double, max: Double? = nil)

        public init(floatLiteral value: Double) {
            self = .seconds(value)
        }

        public init(integerLiteral value: Int) {
            self = .seconds(Double(value))
        }

        /// As `delay` writes it.
        var json: JSONValue {
            switch self {
            case .seconds(let seconds):
                return .number(seconds)
            case .uniform(let min, let max):
                return ["min": .number(min), "max": .number(max)]
            case .lognormal(let median, let sigma, let max):
                var members: [String: JSONValue] = [
                    "distribution": "lognormal", "median": .number(median), "sigma": .number(sigma),
                ]
                members["max"] = max.map { .number($0) }
                return .object(members)
            }
        }
    }
}
