import Synchronization

/// One slot per response of a tree, each holding the response as the sender built it for the wire, built
/// by the first request that needs it and shared by all later ones. The core never looks inside a slot: it
/// keeps an object and lets it go with the tree. One allocation for the whole tree: thousands of exchanges
/// cost 8 bytes each until served.
public final class ResponseSlots: @unchecked Sendable {
    /// Each slot's object, retained, as an address; 0 before it is built.
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let count: Int

    public init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            if let object = UnsafeRawPointer(bitPattern: slots[index].load(ordering: .acquiring)) {
                Unmanaged<AnyObject>.fromOpaque(object).release()
            }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The object in `slot`, nil before it is built. Any thread; the caller knows its type.
    @inline(__always)
    public func existing<Built: AnyObject>(_ slot: Int, as type: Built.Type) -> Built? {
        guard let object = UnsafeRawPointer(bitPattern: slots[slot].load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Built>.fromOpaque(object).takeUnretainedValue()
    }

    /// Puts `made` in `slot` and returns what the slot holds then. Two requests racing to build a response
    /// both call this: the one that publishes second gets the first's. Any thread.
    public func publish<Built: AnyObject>(_ made: Built, in slot: Int) -> Built {
        let retained = Unmanaged.passRetained(made)
        let (published, winner) = slots[slot].compareExchange(
            expected: 0, desired: Int(bitPattern: retained.toOpaque()), successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring
        )
        if published { return made }
        retained.release()
        return Unmanaged<Built>.fromOpaque(UnsafeRawPointer(bitPattern: winner)!).takeUnretainedValue()
    }

    /// Whether `slot` holds a built response.
    public func isBuilt(_ slot: Int) -> Bool {
        slots[slot].load(ordering: .acquiring) != 0
    }
}
