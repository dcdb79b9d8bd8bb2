import CMicroHTTPD
import EspressoMartini
import Glibc

/// A response built once per snapshot and queued for every request that gets it: status, headers and
/// the body (inline, or a file read at load time) live in one libmicrohttpd response. Files that are
/// not kept in memory (see `ServingTree`) are opened per request and sent with sendfile, so a large
/// file never sits in memory and a file replaced on disk is sent whole as it is now.
final class PreparedResponse: @unchecked Sendable {
    /// A large file's path and the headers to send with it, built into a response per request; the
    /// global headers alone go with the `500` when the file can no longer be read.
    private struct LargeFile {
        let path: String
        let headers: [HTTPHeader]
        let globalHeaders: [HTTPHeader]
    }

    let statusCode: UInt32
    /// Effective delay in seconds (the response's own, else the global one).
    let delay: Double
    /// libmicrohttpd responses may be queued on many connections at once (they are reference counted).
    private let shared: OpaquePointer?
    private let largeFile: LargeFile?

    /// `fileInMemory`: whether a `response_file` is read now and served from memory.
    init(_ response: MockResponse, fileInMemory: Bool, globalHeaders: [HTTPHeader], globalDelay: Double) {
        statusCode = UInt32(response.statusCode)
        delay = response.delay ?? globalDelay
        let headers = response.effectiveHeaders(global: globalHeaders)
        switch response.body {
        case .file(_, _, _, let bytes?):
            largeFile = nil
            shared = Self.sharedBytesResponse(bytes, headers: headers)
        case .file(_, let path, _, _) where !fileInMemory:
            largeFile = LargeFile(path: path, headers: headers, globalHeaders: globalHeaders)
            shared = nil
        case .file(_, let path, _, _):
            largeFile = nil
            // Read at load time; a file that vanished since validation is answered as an empty body.
            shared = Self.memoryResponse(FileSystem.contents(of: path) ?? [], headers: headers)
        case .inline, .none:
            largeFile = nil
            shared = Self.memoryResponse(response.body.inlineBytes, headers: headers)
        }
    }

    deinit {
        if let shared { MHD_destroy_response(shared) }
    }

    /// Queues this response on `connection`. A large file that can no longer be opened is a `500`.
    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        if let shared {
            return (MHD_queue_response(connection, statusCode, shared), statusCode)
        }
        guard let largeFile, let response = Self.fileResponse(largeFile.path, headers: largeFile.headers) else {
            let failure = GeneratedResponse.error(500, "the response file \(largeFile?.path ?? "") cannot be read", globalHeaders: largeFile?.globalHeaders ?? [])
            return failure.queue(on: connection)
        }
        defer { MHD_destroy_response(response) }
        return (MHD_queue_response(connection, statusCode, response), statusCode)
    }

    static func memoryResponse(_ bytes: [UInt8], headers: [HTTPHeader]) -> OpaquePointer? {
        let response = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { add(headers, to: response) }
        return response
    }

    /// A response sending the loader's bytes without a copy. libmicrohttpd holds a reference to them
    /// until its own reference count drops to zero: a connection may still be sending them after a
    /// reload has dropped this tree.
    private static func sharedBytesResponse(_ bytes: FileBytes, headers: [HTTPHeader]) -> OpaquePointer? {
        let owner = Unmanaged.passRetained(bytes)
        let response = MHD_create_response_from_buffer_with_free_callback_cls(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.buffer.baseAddress), { owner in
                Unmanaged<FileBytes>.fromOpaque(owner!).release()
            }, owner.toOpaque()
        )
        guard let response else {
            owner.release()
            return nil
        }
        add(headers, to: response)
        return response
    }

    private static func fileResponse(_ path: String, headers: [HTTPHeader]) -> OpaquePointer? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let response = MHD_create_response_from_fd64(UInt64(info.st_size), descriptor) else {
            close(descriptor)
            return nil
        }
        add(headers, to: response)
        return response
    }

    static func add(_ headers: [HTTPHeader], to response: OpaquePointer) {
        for header in headers {
            // libmicrohttpd refuses headers it manages itself (Content-Length); the rest always go through.
            _ = MHD_add_response_header(response, header.name, header.value)
        }
    }
}
