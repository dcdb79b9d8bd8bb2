internal import CMicroHTTPD
import EspressoMartini
import Glibc

/// A libmicrohttpd response, freed when the last reference goes. libmicrohttpd counts its own references
/// too: a response queued on connections outlives this object until they have sent it.
final class HTTPResponse: @unchecked Sendable {
    let raw: OpaquePointer

    private init?(_ raw: OpaquePointer?, headers: [HTTPHeader]) {
        guard let raw else { return nil }
        self.raw = raw
        for header in headers { add(header) }
    }

    deinit {
        MHD_destroy_response(raw)
    }

    /// A response sending a copy of `bytes`; nil when libmicrohttpd cannot make it (out of memory).
    convenience init?(copying bytes: [UInt8], headers: [HTTPHeader]) {
        let made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        self.init(made, headers: headers)
    }

    /// A response sending `buffer`, which it takes over: memory from `malloc`, freed by libmicrohttpd once it
    /// is done with the response (or at once when the response cannot be made).
    convenience init?(takingMalloced buffer: UnsafeMutableRawBufferPointer, headers: [HTTPHeader]) {
        let made = MHD_create_response_from_buffer(buffer.count, buffer.baseAddress, .RESPMEM_MUST_FREE)
        if made == nil { free(buffer.baseAddress) }
        self.init(made, headers: headers)
    }

    /// A response sending `buffer` without a copy, keeping `owner` (which keeps `buffer` valid) alive as
    /// long as libmicrohttpd holds the response: a connection may still be sending it after a reload has
    /// dropped its tree.
    convenience init?(sharing buffer: UnsafeRawBufferPointer, owner: AnyObject, headers: [HTTPHeader]) {
        let retained = Unmanaged.passRetained(owner)
        let made = MHD_create_response_from_buffer_with_free_callback_cls(
            buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
            { owner in
                Unmanaged<AnyObject>.fromOpaque(owner!).release()
            }, retained.toOpaque()
        )
        if made == nil { retained.release() }
        self.init(made, headers: headers)
    }

    /// A response sending `size` bytes of the open file `descriptor` (with sendfile), which it takes over
    /// (closed at once when the response cannot be made).
    convenience init?(fileDescriptor descriptor: Int32, size: UInt64, headers: [HTTPHeader]) {
        guard let made = MHD_create_response_from_fd64(size, descriptor) else {
            close(descriptor)
            return nil
        }
        self.init(made, headers: headers)
    }

    /// A response whose body `source` produces as libmicrohttpd asks for it: `size` bytes announced (nil:
    /// unknown, sent chunked), in blocks of at most `blockSize`. The source's `closed()` runs once, when
    /// libmicrohttpd is done with it (or at once when the response cannot be made).
    convenience init?(size: UInt64?, blockSize: Int, source: BodySource, headers: [HTTPHeader]) {
        let context = Unmanaged.passRetained(source)
        let made = MHD_create_response_from_callback(
            size ?? UInt64.max /* MHD_SIZE_UNKNOWN */, blockSize,
            { context, position, buffer, room in
                let source = Unmanaged<BodySource>.fromOpaque(context!).takeUnretainedValue()
                guard let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
                switch source.read(at: position, into: UnsafeMutableRawBufferPointer(start: buffer, count: room)) {
                case .bytes(let count): return count
                // Returning no bytes is allowed with the connection suspended: libmicrohttpd asks again once
                // it is resumed (without the suspension it would spin).
                case .suspended: return 0
                case .endOfBody: return MHD_CONTENT_READER_END_OF_STREAM
                case .broken: return MHD_CONTENT_READER_END_WITH_ERROR
                }
            }, context.toOpaque(),
            { context in
                let source = Unmanaged<BodySource>.fromOpaque(context!).takeRetainedValue()
                source.closed()
            })
        if made == nil {
            context.release()
            source.closed()
        }
        self.init(made, headers: headers)
    }

    /// An answer sent without a body that announces `length` (a HEAD answer's, a 304's: RFC 9110 §8.6), or no
    /// length at all when it is nil (the connection is then closed after it).
    static func bodiless(announcing length: UInt64?, headers: [HTTPHeader]) -> HTTPResponse? {
        // The source is never read: libmicrohttpd sends no body with these.
        guard let response = HTTPResponse(size: length, blockSize: 1024, source: BodySource(), headers: headers)
        else { return nil }
        if length == nil { em_response_without_length(response.raw) }
        return response
    }

    /// libmicrohttpd refuses headers it manages itself (`Content-Length`); the rest always go through.
    func add(_ header: HTTPHeader) {
        guard var bytes = HeaderBytes.rawBytes(of: header.value) else {
            _ = MHD_add_response_header(raw, header.name, header.value)
            return
        }
        bytes.append(0)  // a value that keeps bytes that are not UTF-8 goes as those bytes
        bytes.withUnsafeBufferPointer { value in
            value.withMemoryRebound(to: CChar.self) { _ = MHD_add_response_header(raw, header.name, $0.baseAddress) }
        }
    }

    /// `name` and `value` as C strings (kept by the caller), for headers added to many responses.
    func add(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>) {
        _ = MHD_add_response_header(raw, name, value)
    }

    /// Its headers in order (for tests and checks).
    var headers: [HTTPHeader] {
        final class Found { var headers: [HTTPHeader] = [] }
        let found = Found()
        _ = MHD_get_response_headers(
            raw,
            { cls, _, name, value in
                guard let cls, let name else { return .YES }
                let found = Unmanaged<Found>.fromOpaque(cls).takeUnretainedValue()
                found.headers.append(
                    HTTPHeader(name: String(cString: name), value: value.map { String(cString: $0) } ?? ""))
                return .YES
            }, Unmanaged.passUnretained(found).toOpaque())
        return found.headers
    }
}
