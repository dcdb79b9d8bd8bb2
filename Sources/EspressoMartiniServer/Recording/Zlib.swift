internal import CZlib
import EspressoMartini

/// zlib's inflate (libz.so.1, loaded with dlopen on first use): the only file that sees zlib. Decodes the
/// `gzip` coding (concatenated members too) and `deflate` (zlib-wrapped as the standard says, or raw as
/// some servers send it).
final class ZlibInflater: ContentDecoder {
    enum Format {
        case gzip, deflate
    }

    private struct Library: @unchecked Sendable {
        let initialize: EMInflateInit2
        let inflate: EMInflate
        let reset: EMInflateReset2
        let end: EMInflateEnd
    }

    private static let library = try? DynamicLibrary.load(
        "libz.so.1", package: "zlib1g", neededBy: "decoding a gzip or deflate body needs zlib"
    ) { zlib in
        Library(
            initialize: zlib("inflateInit2_"), inflate: zlib("inflate"), reset: zlib("inflateReset2"),
            end: zlib("inflateEnd"))
    }.get()

    private let library: Library
    private let format: Format
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var started = false
    private(set) var isComplete = false

    /// Nil when zlib cannot be loaded.
    init?(format: Format) {
        guard let library = Self.library else { return nil }
        self.library = library
        self.format = format
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { _ = library.end(stream) }
        stream.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard !input.isEmpty else { return true }
        if !started {
            // gzip: 15 bits of window, gzip header (+16); deflate: a zlib header when the first two bytes are one.
            let zlibWrapped =
                input.count >= 2 && input[0] & 0x0F == 8 && (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0
            let windowBits: Int32 = format == .gzip ? 15 + 16 : zlibWrapped ? 15 : -15
            guard em_inflate_init2(library.initialize, stream, windowBits) == Z_OK else { return false }
            started = true
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        return withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { buffer in
            while stream.pointee.avail_in > 0 {
                if isComplete {
                    // Another gzip member follows.
                    guard format == .gzip, library.reset(stream, 15 + 16) == Z_OK else { return false }
                    isComplete = false
                }
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = library.inflate(stream, Z_NO_FLUSH)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { return false }
                let produced = buffer.count - Int(stream.pointee.avail_out)
                if produced > 0, !output(UnsafeRawBufferPointer(rebasing: buffer[..<produced])) { return false }
                if status == Z_STREAM_END { isComplete = true }
                if status == Z_BUF_ERROR, produced == 0 { return false }
            }
            return true
        }
    }
}
