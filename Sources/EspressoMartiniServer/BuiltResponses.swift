import CMicroHTTPD
import Synchronization

/// A tree's libmicrohttpd responses, one slot per response of every exchange, each built by the first
/// request that needs it and shared by all later ones. One allocation for the whole tree: thousands of
/// exchanges start without building any response, and cost 8 bytes each for those never served.
final class BuiltResponses: @unchecked Sendable {
    /// The address of each slot's response, 0 before it is built.
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            if let response = existing(index) { MHD_destroy_response(response) }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The response in `slot`, nil before it is built.
    func existing(_ slot: Int) -> OpaquePointer? {
        OpaquePointer(bitPattern: slots[slot].load(ordering: .acquiring))
    }

    /// Puts `made` in `slot` and returns it. Two requests racing to build a response both do: the one
    /// that publishes second destroys its own and gets the first.
    func publish(_ made: OpaquePointer, in slot: Int) -> OpaquePointer {
        let (published, winner) = slots[slot].compareExchange(
            expected: 0, desired: Int(bitPattern: made), successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring
        )
        if published { return made }
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: winner)!
    }
}
