import Synchronization

/// One slot per response of a tree, each holding the response as the sender built it for the wire (for
/// libmicrohttpd, an `MHD_Response`), built by the first request that needs it and shared by all later
/// ones. The core never looks inside a slot: it only keeps it, and hands it to `release` when the tree
/// goes. One allocation for the whole tree: thousands of exchanges cost 8 bytes each until served.
public final class ResponseSlots: @unchecked Sendable {
    /// The address of each slot's response, 0 before it is built.
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int
    private let release: @Sendable (UnsafeMutableRawPointer) -> Void

    /// `release` is called once for each built response, when these slots are freed.
    public init(count: Int, release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
        self.count = count
        self.release = release
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            if let response = existing(index) { release(response) }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The response in `slot`, nil before it is built. Any thread.
    public func existing(_ slot: Int) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: slots[slot].load(ordering: .acquiring))
    }

    /// Puts `made` in `slot` and returns what the slot holds then. Two requests racing to build a response
    /// both call this: the one that publishes second has its own released and gets the first. Any thread.
    public func publish(_ made: UnsafeMutableRawPointer, in slot: Int) -> UnsafeMutableRawPointer {
        let (published, winner) = slots[slot].compareExchange(
            expected: 0, desired: Int(bitPattern: made), successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring
        )
        if published { return made }
        release(made)
        return UnsafeMutableRawPointer(bitPattern: winner)!
    }
}
