import CMicroHTTPD
import EspressoMartini
import Glibc
import Synchronization

/// A response of a snapshot, queued for every request that gets it. Its libmicrohttpd response
/// (status, headers and the body in memory) is built by the first request that needs it and shared by
/// all later ones: a tree of thousands of exchanges starts without building any, and only the routes
/// in use cost their memory. Files not kept in memory (see `ServingTree`) are opened per request and
/// sent with sendfile, so a large file never sits in memory and a file replaced on disk is sent whole
/// as it is now.
final class PreparedResponse: @unchecked Sendable {
    /// A file sent from disk: its path and the headers to send with it, worked out once here since the
    /// file's response is built for every request.
    private struct DiskFile {
        let path: String
        let headers: [HTTPHeader]
    }

    let statusCode: UInt32
    /// Effective delay in seconds (the response's own, else the global one).
    let delay: Double
    private let response: MockResponse
    private let globalHeaders: [HTTPHeader]
    /// The body when it is a file kept in memory: the loader's bytes, or a larger file read now.
    private let fileBytes: FileBytes?
    private let diskFile: DiskFile?
    /// The shared libmicrohttpd response once built (its address), 0 before. libmicrohttpd responses
    /// may be queued on many connections at once: they are reference counted.
    private let built = Atomic<Int>(0)

    /// `fileInMemory`: whether a `response_file` left on disk by the loader is read now and served
    /// from memory.
    init(_ response: MockResponse, fileInMemory: Bool, globalHeaders: [HTTPHeader], globalDelay: Double) {
        statusCode = UInt32(response.statusCode)
        delay = response.delay ?? globalDelay
        self.response = response
        self.globalHeaders = globalHeaders
        switch response.body {
        case .loadedFile(_, let bytes):
            fileBytes = bytes
            diskFile = nil
        case .file(_, let path, _) where fileInMemory:
            // A file that vanished since the tree was loaded is answered with an empty body.
            fileBytes = .holding(FileSystem.contents(of: path) ?? [])
            diskFile = nil
        case .file(_, let path, _):
            fileBytes = nil
            diskFile = DiskFile(path: path, headers: response.effectiveHeaders(global: globalHeaders))
        case .inline, .none:
            fileBytes = nil
            diskFile = nil
        }
    }

    deinit {
        if let shared = OpaquePointer(bitPattern: built.load(ordering: .acquiring)) { MHD_destroy_response(shared) }
    }

    /// Queues this response on `connection`. A file on disk that can no longer be opened is a `500`.
    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        if let diskFile {
            guard let perRequest = Self.fileResponse(diskFile.path, headers: diskFile.headers) else {
                let failure = GeneratedResponse.error(500, "the response file \(diskFile.path) cannot be read", globalHeaders: globalHeaders)
                return failure.queue(on: connection)
            }
            defer { MHD_destroy_response(perRequest) }
            return (MHD_queue_response(connection, statusCode, perRequest), statusCode)
        }
        guard let shared = sharedResponse() else { return (MHD_Result.NO, statusCode) }
        return (MHD_queue_response(connection, statusCode, shared), statusCode)
    }

    /// The shared response, built on first use. Two requests racing to build it both do; the one that
    /// publishes second destroys its own and uses the first.
    private func sharedResponse() -> OpaquePointer? {
        if let existing = OpaquePointer(bitPattern: built.load(ordering: .acquiring)) { return existing }
        let made: OpaquePointer?
        let headers = response.effectiveHeaders(global: globalHeaders)
        if let fileBytes {
            made = Self.sharedBytesResponse(fileBytes, headers: headers)
        } else {
            made = Self.memoryResponse(response.body.inlineBytes, headers: headers)
        }
        guard let made else { return nil }
        let (published, winner) = built.compareExchange(
            expected: 0, desired: Int(bitPattern: made), successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring
        )
        if published { return made }
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: winner)
    }

    static func memoryResponse(_ bytes: [UInt8], headers: [HTTPHeader]) -> OpaquePointer? {
        let response = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { add(headers, to: response) }
        return response
    }

    /// A response sending the file's bytes without a copy. libmicrohttpd holds a reference to them
    /// until its own reference count drops to zero: a connection may still be sending them after a
    /// reload has dropped this tree.
    private static func sharedBytesResponse(_ bytes: FileBytes, headers: [HTTPHeader]) -> OpaquePointer? {
        let owner = Unmanaged.passRetained(bytes.owner)
        let response = MHD_create_response_from_buffer_with_free_callback_cls(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.buffer.baseAddress), { owner in
                Unmanaged<AnyObject>.fromOpaque(owner!).release()
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
