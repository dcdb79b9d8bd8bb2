import CMicroHTTPD
import EspressoMartini
import Glibc

/// With `"cors": true`, what a tree's response slot holds instead of a bare libmicrohttpd response: the
/// shared response (its headers plus `Vary: Origin`) for requests without an `Origin`, and what a response
/// for one request with an `Origin` is made of: the same body bytes, shared rather than copied, and the
/// headers as C strings made once. libmicrohttpd responses are shared between connections, so the
/// origin, which differs per request, can only go on a response of the request's own.
final class CORSReadyResponse: @unchecked Sendable {
    /// The libmicrohttpd response for requests without an `Origin`.
    let shared: OpaquePointer
    private let body: UnsafeRawBufferPointer
    /// Keeps `body` alive; every response sending it retains it too.
    private let bodyOwner: AnyObject
    /// The response's headers with `Vary: Origin`, then those for any origin, as C strings.
    private let headers: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let originHeaders: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let echoesOrigin: Bool

    /// Nil when libmicrohttpd cannot make the shared response (out of memory).
    init?(body: UnsafeRawBufferPointer, owner: AnyObject, headers: [HTTPHeader]) {
        let cors = CORSHeaders(answering: headers)
        let always = headers + (cors.vary.map { [$0] } ?? [])
        guard let shared = LibMicroHTTPDResponse.sharing(body, owner: owner, headers: always) else { return nil }
        self.shared = shared
        self.body = body
        bodyOwner = owner
        self.headers = always.map { (strdup($0.name)!, strdup($0.value)!) }
        originHeaders = cors.withOrigin.map { (strdup($0.name)!, strdup($0.value)!) }
        echoesOrigin = cors.echoesOrigin
    }

    deinit {
        MHD_destroy_response(shared)
        for (name, value) in headers + originHeaders {
            free(name)
            free(value)
        }
    }

    /// A response of its own for a request from `origin` (a C string libmicrohttpd keeps for the request);
    /// nil when libmicrohttpd cannot make it. The caller destroys it once queued.
    func response(origin: UnsafePointer<CChar>) -> OpaquePointer? {
        guard let response = LibMicroHTTPDResponse.sharing(body, owner: bodyOwner, headers: []) else { return nil }
        for (name, value) in headers { _ = MHD_add_response_header(response, name, value) }
        if echoesOrigin { _ = MHD_add_response_header(response, CORSHeaders.allowOrigin, origin) }
        for (name, value) in originHeaders { _ = MHD_add_response_header(response, name, value) }
        return response
    }
}
