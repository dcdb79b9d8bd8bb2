import CMicroHTTPD
import EspressoMartini
import Glibc

/// Making libmicrohttpd responses: from bytes it copies, from bytes it shares, or from a file it sends
/// with sendfile. libmicrohttpd responses are reference counted and may be queued on many connections
/// at once. Each maker returns nil when libmicrohttpd cannot make the response (out of memory, a file
/// that cannot be opened).
enum LibMicroHTTPDResponse {
    /// Frees a response kept in a tree's `ResponseSlots`; connections still sending it keep their reference.
    static let release: @Sendable (UnsafeMutableRawPointer) -> Void = { MHD_destroy_response(OpaquePointer($0)) }

    static func copying(_ bytes: [UInt8], headers: [HTTPHeader]) -> OpaquePointer? {
        let response = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let response { add(headers, to: response) }
        return response
    }

    /// A response sending the bytes without a copy. libmicrohttpd holds a reference to them until its
    /// own reference count drops to zero: a connection may still be sending them after a reload has
    /// dropped their tree.
    static func sharing(_ bytes: FileBytes, headers: [HTTPHeader]) -> OpaquePointer? {
        sharing(bytes.buffer, owner: bytes.owner, headers: headers)
    }

    /// A response sending `buffer` without a copy, keeping `owner` (which keeps `buffer` valid) alive
    /// as long as libmicrohttpd holds the response.
    static func sharing(_ buffer: UnsafeRawBufferPointer, owner: AnyObject, headers: [HTTPHeader]) -> OpaquePointer? {
        let owner = Unmanaged.passRetained(owner)
        let response = MHD_create_response_from_buffer_with_free_callback_cls(
            buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), { owner in
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

    /// A response sending the file as it is now, nil when it cannot be opened.
    static func sendingFile(_ path: String, headers: [HTTPHeader]) -> OpaquePointer? {
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
