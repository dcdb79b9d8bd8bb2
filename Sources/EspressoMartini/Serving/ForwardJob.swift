/// A request the proxy's target answers (`Decision.forward`): where it goes and whether its answer is
/// written into the tree.
public struct ForwardJob: Sendable {
    public let target: ProxyTarget
    public let records: Bool

    public init(target: ProxyTarget, records: Bool) {
        self.target = target
        self.records = records
    }
}
