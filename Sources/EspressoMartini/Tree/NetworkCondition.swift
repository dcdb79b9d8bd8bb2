/// The link an answer goes out on (doc/streams-and-networks.md): a `network` profile and a `bandwidth`,
/// each optional, as a response, a variant or an exchange (`beside responses`), or the server
/// configuration gives them. The most specific place that gives either decides the bandwidth (there, an
/// explicit `bandwidth` wins over its profile's); the most specific profile decides the latency.
public struct NetworkCondition: Sendable, Equatable {
    public let profile: NetworkProfile?
    public let bandwidth: Bandwidth?

    public init(profile: NetworkProfile? = nil, bandwidth: Bandwidth? = nil) {
        self.profile = profile
        self.bandwidth = bandwidth
    }

    /// This condition given where `outer` is given further out (a response inside its exchange).
    public func over(_ outer: NetworkCondition?) -> NetworkCondition {
        guard let outer else { return self }
        return NetworkCondition(
            profile: profile ?? outer.profile, bandwidth: bandwidth ?? (profile == nil ? outer.bandwidth : nil))
    }

    /// The body's rate; nil for full speed.
    public var bytesPerSecond: Double? {
        (bandwidth ?? profile?.bandwidth)?.bytesPerSecond
    }

    /// Seconds added before the first byte.
    public var latency: Double { profile?.latency ?? 0 }

    /// Whether answers are slowed at all.
    public var slows: Bool { bytesPerSecond != nil || latency > 0 }

    /// ` network 3g bandwidth 56kbit`, as the listing and `explain` show it after a response.
    public var summary: String {
        (profile.map { " network \($0.rawValue)" } ?? "") + (bandwidth.map { " bandwidth \($0.summary)" } ?? "")
    }

    /// `network` and `bandwidth` as given, for `endpoints --json` and `explain --json`.
    var members: [JSONMember] {
        (profile.map { [JSONMember(key: "network", value: .string($0.rawValue))] } ?? [])
            + (bandwidth.map { [JSONMember(key: "bandwidth", value: $0.json)] } ?? [])
    }
}
