#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The trie's literal edges (a parent node and a folder name to the child node) in one open-addressing
/// hash table, the names' bytes side by side in one buffer. A lookup hashes the request segment's bytes
/// where they lie in the path: no String is made for it, and FNV-1a costs a fraction of the standard
/// library's SipHash. The keys are the tree's own folder names, so a request cannot crowd the table.
struct LiteralEdges: Sendable {
    private struct Slot {
        var parent: Int32 = 0
        /// -1 while the slot is free.
        var child: Int32 = -1
        var nameStart: Int32 = 0
        var nameCount: Int32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 16)
    private var names: [UInt8] = []
    private var count = 0

    /// The child of `parent` by the literal `name`, -1 where none.
    func child(of parent: Int32, named name: UnsafeBufferPointer<UInt8>) -> Int32 {
        slots.withUnsafeBufferPointer { slots in
            names.withUnsafeBufferPointer { names in
                let mask = slots.count - 1
                var index = Self.hash(parent, name) & mask
                while true {
                    let slot = slots[index]
                    if slot.child < 0 { return -1 }
                    if slot.parent == parent, Int(slot.nameCount) == name.count,
                        name.isEmpty
                            || memcmp(names.baseAddress! + Int(slot.nameStart), name.baseAddress!, name.count) == 0
                    {
                        return slot.child
                    }
                    index = (index + 1) & mask
                }
            }
        }
    }

    /// Adds the edge from `parent` by `name` to `child`; the caller has checked that there is none yet.
    mutating func insert(parent: Int32, name: UnsafeBufferPointer<UInt8>, child: Int32) {
        if (count + 1) * 2 > slots.count { rehash(capacity: slots.count * 2) }
        let slot = Slot(parent: parent, child: child, nameStart: Int32(names.count), nameCount: Int32(name.count))
        names.append(contentsOf: name)
        place(slot, hash: Self.hash(parent, name))
        count += 1
    }

    /// The same edges without the spare room: a table at most three quarters full, the names buffer exact.
    func trimmed() -> LiteralEdges {
        var capacity = 16
        while count * 4 > capacity * 3 { capacity *= 2 }
        var trimmed = self
        trimmed.rehash(capacity: capacity)
        trimmed.names = names.withUnsafeBufferPointer { Array($0) }
        return trimmed
    }

    private mutating func rehash(capacity: Int) {
        let old = slots
        slots = [Slot](repeating: Slot(), count: capacity)
        names.withUnsafeBufferPointer { names in
            for slot in old where slot.child >= 0 {
                let name = UnsafeBufferPointer(
                    rebasing: names[Int(slot.nameStart)..<Int(slot.nameStart + slot.nameCount)])
                place(slot, hash: Self.hash(slot.parent, name))
            }
        }
    }

    private mutating func place(_ slot: Slot, hash: Int) {
        let mask = slots.count - 1
        var index = hash & mask
        while slots[index].child >= 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    private static func hash(_ parent: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent))
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
