/// A named network (doc/streams-and-networks.md): its bandwidth and the latency added before the first
/// byte of every answer; `none` is a full-speed link, to lift a profile given further out.
public enum NetworkProfile: String, Sendable, CaseIterable {
    case edge
    case threeG = "3g"
    case lte
    case slowWiFi = "slow-wifi"
    case none

    public static let names = allCases.map(\.rawValue)

    /// Nil for `none`.
    public var bandwidth: Bandwidth? {
        switch self {
        case .edge: Bandwidth(bytesPerSecond: 240_000 / 8, spelling: "240kbit")
        case .threeG: Bandwidth(bytesPerSecond: 780_000 / 8, spelling: "780kbit")
        case .lte: Bandwidth(bytesPerSecond: 12_000_000 / 8, spelling: "12mbit")
        case .slowWiFi: Bandwidth(bytesPerSecond: 2_000_000 / 8, spelling: "2mbit")
        case .none: nil
        }
    }

    /// Seconds before the first byte of an answer.
    public var latency: Double {
        switch self {
        case .edge: 0.4
        case .threeG: 0.1
        case .lte: 0.05
        case .slowWiFi: 0.03
        case .none: 0
        }
    }
}
