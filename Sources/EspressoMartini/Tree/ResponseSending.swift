/// How a response is sent when not plainly at once: its own delay, the fault that breaks it, the network it
/// goes out on. Most responses have none of these, so a `ConfiguredResponse` keeps them apart, behind one
/// reference, and a tree of thousands of plain responses stays small.
final class ResponseSending: Sendable, Equatable {
    let delay: ResponseDelay?
    let fault: ResponseFault?
    let network: NetworkCondition?

    /// Nil when there is nothing to keep.
    static func make(delay: ResponseDelay?, fault: ResponseFault?, network: NetworkCondition?) -> ResponseSending? {
        delay == nil && fault == nil && network == nil
            ? nil : ResponseSending(delay: delay, fault: fault, network: network)
    }

    private init(delay: ResponseDelay?, fault: ResponseFault?, network: NetworkCondition?) {
        self.delay = delay
        self.fault = fault
        self.network = network
    }

    static func == (a: ResponseSending, b: ResponseSending) -> Bool {
        a.delay == b.delay && a.fault == b.fault && a.network == b.network
    }
}
