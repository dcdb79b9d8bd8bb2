#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response file's bytes, read once per tree into memory that never moves, so that the server can
/// hand the very same bytes to libmicrohttpd without a copy. The bytes live in the
/// storage object itself (one allocation per file, which counts on trees of thousands of files); its
/// header is their count. Immutable once made, hence sendable.
public struct FileBytes: @unchecked Sendable {
    private final class Storage: ManagedBuffer<Int, UInt8> {}

    private let storage: Storage

    /// The object that owns the bytes: whoever keeps the bytes beyond this value's life (libmicrohttpd)
    /// retains it.
    public var owner: AnyObject { storage }

    public var count: Int { storage.header }

    /// The bytes; valid as long as `owner` lives.
    public var buffer: UnsafeRawBufferPointer {
        storage.withUnsafeMutablePointers { count, start in UnsafeRawBufferPointer(start: start, count: count.pointee) }
    }

    private init(capacity: Int) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: max(capacity, 1)) { _ in 0 }, to: Storage.self)
    }

    /// Reads at most `size` bytes from the open file `descriptor` (fewer if it shrank meanwhile); nil
    /// when reading fails.
    private static func reading(_ descriptor: Int32, size: Int) -> FileBytes? {
        let bytes = FileBytes(capacity: size)
        let complete = bytes.storage.withUnsafeMutablePointers { count, start in
            while count.pointee < size {
                let got = FileSystem.readRetrying(descriptor, into: start + count.pointee, count: size - count.pointee)
                if got < 0 { return false }
                if got == 0 { break }
                count.pointee += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// The whole file at `path` as it is now; nil when it cannot be opened or read.
    public static func reading(path: String) -> FileBytes? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return reading(descriptor, size: Int(info.st_size))
    }
}
