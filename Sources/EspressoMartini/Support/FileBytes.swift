#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small response file's bytes, read once by the loader into memory that never moves, so that the
/// server can hand the very same bytes to libmicrohttpd without a copy per tree.
public final class FileBytes: @unchecked Sendable {
    /// Immutable after `init`; freed with the object.
    public let buffer: UnsafeRawBufferPointer

    public var count: Int { buffer.count }

    /// Reads at most `size` bytes from the open file `descriptor` (fewer if it shrank meanwhile).
    init?(reading descriptor: Int32, size: Int) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 1)
        var got = 0
        while got < size {
            let count = FileSystem.readRetrying(descriptor, into: memory.baseAddress! + got, count: size - got)
            if count < 0 {
                memory.deallocate()
                return nil
            }
            if count == 0 { break }
            got += count
        }
        buffer = UnsafeRawBufferPointer(rebasing: memory[..<got])
    }

    public init(_ bytes: [UInt8]) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        memory.copyBytes(from: bytes)
        buffer = UnsafeRawBufferPointer(rebasing: memory[..<bytes.count])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: buffer.baseAddress!).deallocate()
    }
}
