/// A copy of some bytes at an address that never moves, freed with this object: the body of a
/// configured inline response, which libmicrohttpd responses send without copying while they hold it.
final class HeapBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    let count: Int

    init(copying bytes: [UInt8]) {
        count = bytes.count
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
    }

    /// Valid as long as this object lives; never written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[..<count]) }

    deinit { storage.deallocate() }
}
