internal import CBrotli
import EspressoMartini

/// Brotli's decoder (libbrotlidec.so.1, loaded with dlopen on first use): the only file that sees Brotli.
/// Decodes the `br` coding.
final class BrotliDecoder: ContentDecoder {
    private struct Library: @unchecked Sendable {
        let create: EMBrotliDecoderCreateInstance
        let decompress: EMBrotliDecoderDecompressStream
        let destroy: EMBrotliDecoderDestroyInstance
    }

    private static let library = try? DynamicLibrary.load(
        "libbrotlidec.so.1", package: "libbrotli1", neededBy: "decoding a br body needs Brotli"
    ) { brotli in
        Library(
            create: brotli("BrotliDecoderCreateInstance"), decompress: brotli("BrotliDecoderDecompressStream"),
            destroy: brotli("BrotliDecoderDestroyInstance"))
    }.get()

    private let library: Library
    private let state: OpaquePointer
    private(set) var isComplete = false

    /// Nil when Brotli's decoder cannot be loaded.
    init?() {
        guard let library = Self.library, let state = library.create(nil, nil, nil) else { return nil }
        self.library = library
        self.state = state
    }

    deinit {
        library.destroy(state)
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        guard !input.isEmpty else { return true }
        guard !isComplete else { return false }  // bytes after the end
        var availableIn = input.count
        var nextIn: UnsafePointer<UInt8>? = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { buffer in
            while true {
                var availableOut = buffer.count
                var nextOut: UnsafeMutablePointer<UInt8>? = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let result = library.decompress(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                let produced = buffer.count - availableOut
                if produced > 0, !output(UnsafeRawBufferPointer(rebasing: buffer[..<produced])) { return false }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    isComplete = true
                    return availableIn == 0
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return true
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return false
                }
            }
        }
    }
}
