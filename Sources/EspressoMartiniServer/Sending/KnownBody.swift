import EspressoMartini
import Glibc

/// A body whose bytes are all known, read as libmicrohttpd asks for them: in memory, kept valid by their
/// owner, or in an open file read as it goes (never with sendfile, so that it can be paced or cut short).
/// Sent whole, or cut short after `cut` bytes, the connection then closed (a `truncated_body` fault).
final class KnownBody: BodySource, @unchecked Sendable {
    enum Bytes {
        /// `buffer`, kept valid by `owner`.
        case memory(UnsafeRawBufferPointer, owner: AnyObject)
        /// An open file, closed with the body.
        case file(descriptor: Int32)
    }

    private let bytes: Bytes
    let count: Int
    /// How many bytes go out before the connection is closed; `count` for the whole body.
    private let cut: Int

    init(_ bytes: Bytes, count: Int, cutAfter cut: Int? = nil) {
        self.bytes = bytes
        self.count = count
        self.cut = cut ?? count
    }

    deinit {
        if case .file(let descriptor) = bytes { close(descriptor) }
    }

    override func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        let start = Int(position)
        guard start < cut else { return cut < count ? .broken : .endOfBody }
        let wanted = min(buffer.count, cut - start)
        switch bytes {
        case .memory(let memory, _):
            buffer.baseAddress!.copyMemory(from: memory.baseAddress! + start, byteCount: wanted)
            return .bytes(wanted)
        case .file(let descriptor):
            let read = pread(descriptor, buffer.baseAddress!, wanted, off_t(start))
            return read > 0 ? .bytes(read) : .broken  // the file shrank or cannot be read: cut short
        }
    }
}
