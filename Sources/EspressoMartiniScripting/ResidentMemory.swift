import Glibc
import EspressoMartini
import Synchronization

/// The server's resident memory, as the kernel counts it (`/proc/self/statm`): what a script's call may
/// grow by at most `script_memory`. JavaScriptCore's own figure for a VM's heap costs tens of milliseconds
/// to read for a heap of many small objects, and it leaves out much of what a script makes; reading this
/// one costs a microsecond.
enum ResidentMemory {
    /// Bytes now; nil when it cannot be read.
    static func bytes() -> Int? {
        guard statm >= 0 else { return nil }
        var text = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &text) { pread(statm, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        // "SIZE RESIDENT SHARED …" in pages: the second number.
        return withUnsafeBytes(of: &text) { bytes -> Int? in
            var field = 0, value = 0
            for byte in bytes.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    if field == 1 { break }
                    field += 1
                    value = 0
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
            }
            return field == 1 ? value * pageSize : nil
        }
    }

    /// As `bytes()`, read at most every 10 ms of the coarse clock across all threads: what a call that
    /// is starting compares its growth against, without a system call per call.
    static func recent() -> Int? {
        let stamp = Int(MonotonicClock.coarseNow() / 10_000_000) & Sample.stampMask
        let last = sample.load(ordering: .relaxed)
        if last.stamp == stamp, last.bytes > 0 { return last.bytes }
        guard let bytes = bytes() else { return nil }
        sample.store(Sample(stamp: stamp, bytes: bytes), ordering: .relaxed)
        return bytes
    }

    /// A reading and the 10 ms slot it was taken in, packed in one word (slot in the high bits).
    private struct Sample: AtomicRepresentable {
        let stamp: Int
        let bytes: Int

        static func encodeAtomicRepresentation(_ value: Sample) -> Int.AtomicRepresentation {
            Int.encodeAtomicRepresentation(value.stamp << 40 | value.bytes >> 12)
        }

        static func decodeAtomicRepresentation(_ storage: consuming Int.AtomicRepresentation) -> Sample {
            let word = Int.decodeAtomicRepresentation(storage)
            return Sample(stamp: word >> 40, bytes: (word & (1 << 40 - 1)) << 12)
        }

        static let stampMask = 1 << 23 - 1
    }

    private static let sample = Atomic<Sample>(Sample(stamp: 0, bytes: 0))
    private static let statm: Int32 = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    private static let pageSize = sysconf(Int32(_SC_PAGESIZE))
}
