import EspressoMartini
import Glibc

/// A body of known size sent no faster than a bandwidth (doc/streams-and-networks.md): bytes in memory
/// (shared with the tree, or made for the request), or a large file read from disk as it goes (never
/// sent with sendfile, which would send it at full speed).
final class ThrottledBody: ArrivingBody, @unchecked Sendable {
    enum Bytes {
        /// `buffer`, kept valid by `owner`.
        case memory(UnsafeRawBufferPointer, owner: AnyObject)
        /// An open file, closed with the body.
        case file(descriptor: Int32)
    }

    private let bytes: Bytes
    let count: Int
    private var throttle: Throttle

    init(
        _ bytes: Bytes, count: Int, bytesPerSecond: Double, connection: any RequestConnection, watchesHangUps: Bool = true,
        onClose: (@Sendable (ArrivingBody) -> Void)?
    ) {
        self.bytes = bytes
        self.count = count
        throttle = Throttle(bytesPerSecond: bytesPerSecond)
        super.init(connection: connection, watchesHangUps: watchesHangUps, onClose: onClose)
    }

    /// Opens the file at `path` as it is now; nil when it cannot be read.
    static func file(at path: String) -> (Bytes, count: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        return (.file(descriptor: descriptor), Int(info.st_size))
    }

    deinit {
        if case .file(let descriptor) = bytes { close(descriptor) }
    }

    /// The most bytes libmicrohttpd should ask for at once.
    var blockSize: Int { throttle.burst }

    override func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        let start = Int(position)
        guard start < count else { return .endOfBody }
        let allowed = throttle.allowance(at: MonotonicClock.now())
        guard allowed > 0 else {
            wake(after: throttle.wait(for: count - start))
            return nil
        }
        let wanted = min(buffer.count, allowed, count - start)
        let copied: Int
        switch bytes {
        case .memory(let memory, _):
            buffer.baseAddress!.copyMemory(from: memory.baseAddress! + start, byteCount: wanted)
            copied = wanted
        case .file(let descriptor):
            copied = pread(descriptor, buffer.baseAddress!, wanted, off_t(start))
            guard copied > 0 else { return .broken }  // the file shrank or cannot be read: cut short
        }
        throttle.spend(copied)
        return .bytes(copied)
    }
}
