import EspressoMartini
import Glibc
import Synchronization

/// The body of an answer being recorded, when it is too large to keep in memory: written as it arrives (on
/// the forwarded exchange's loop) into a hidden file of the requests folder's scratch folder, which the loader and
/// the watcher ignore; the recorder moves it into the tree (a rename: the same file system). Writes go to the
/// page cache: no thread waits on the disk.
final class RecordingFile {
    let path: String
    private var descriptor: Int32
    private(set) var size = 0
    /// Why the body could not be written whole (a full disk); the exchange is then not recorded.
    private(set) var failure: String?

    /// A new file in `folder` (`body-PID-N`); nil when it cannot be made.
    init?(folder: String) {
        while true {
            let path = FileSystem.join(
                folder, "body-\(getpid())-\(Self.nextNumber.add(1, ordering: .relaxed).newValue)")
            descriptor = FileSystem.createTreeFile(path)
            if descriptor >= 0 {
                self.path = path
                return
            }
            guard errno == EEXIST else { return nil }
        }
    }

    private static let nextNumber = Atomic<Int>(0)

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, descriptor >= 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                failure = String(cString: strerror(errno))
                return
            }
            offset += written
        }
        size += bytes.count
    }

    /// Closes the file; false (the file removed) when it was not written whole.
    func close() -> Bool {
        guard descriptor >= 0 else { return false }
        if Glibc.close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        descriptor = -1
        if failure != nil { unlink(path) }
        return failure == nil
    }

    /// Closes and removes the file.
    func discard() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
        unlink(path)
    }
}
