/// How one response of a serving tree is sent, worked out once per tree so that answering a request
/// never reads the configured response itself on the common path: four bytes per response.
public struct SendingPlan: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        /// The same bytes for every request, kept in the tree's slot once built (from memory).
        case prebuilt
        /// A file too large for memory, sent from disk for every request.
        case fromDisk
        /// Rendered for every request.
        case template
        /// Computed by a script for every request.
        case script
        /// Broken on purpose (`ConfiguredResponse.fault` says how).
        case fault
        /// Chunks over time (`ConfiguredResponse.stream`).
        case stream
    }

    public let kind: Kind
    private let flags: UInt8
    /// The configured status; 0 for a script's (its script says).
    public let statusCode: UInt16

    private static let ownDelay: UInt8 = 1
    private static let slowed: UInt8 = 2

    /// `slowed`: the response goes out on a slow network (`ServingTree.network(_:)` says which).
    init(_ response: ConfiguredResponse, fromDisk: Bool, slowed: Bool) {
        flags = (response.delay != nil ? Self.ownDelay : 0) | (slowed ? Self.slowed : 0)
        statusCode = UInt16(response.content?.statusCode ?? 0)
        switch response.kind {
        case _ where response.fault != nil: kind = .fault
        case .fixed: kind = fromDisk ? .fromDisk : .prebuilt
        case .template: kind = .template
        case .script: kind = .script
        case .stream: kind = .stream
        }
    }

    /// Whether the response has a delay of its own (else the global one applies).
    public var hasOwnDelay: Bool { flags & Self.ownDelay != 0 }

    /// Whether the response goes out on a slow network (latency, bandwidth).
    public var isSlowed: Bool { flags & Self.slowed != 0 }
}
