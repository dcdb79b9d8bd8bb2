import CMicroHTTPD
import EspressoMartini
import Glibc
import Synchronization

/// With `"cors": true`, what a tree's response slot holds instead of a bare libmicrohttpd response: the
/// shared response (its headers plus `Vary: Origin`) for requests without an `Origin`, and responses for
/// requests with one. libmicrohttpd responses are shared between connections, so the origin, which is
/// echoed, needs a response of its own: the first `originLimit` origins seen get one each, made once and
/// shared like the slot's; any further origin gets a response made for its request. All of them send the
/// same body bytes, never copied.
final class CORSReadyResponse: @unchecked Sendable {
    /// Origins that get a shared response of their own; a browser app under development has one or two.
    static let originLimit = 4

    /// The libmicrohttpd response for requests without an `Origin`.
    let shared: OpaquePointer
    private let body: UnsafeRawBufferPointer
    /// Keeps `body` alive; every response sending it retains it too.
    private let bodyOwner: AnyObject
    /// The response's headers with `Vary: Origin`, then those for any origin, as C strings.
    private let headers: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let originHeaders: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let echoesOrigin: Bool
    /// The origins with a shared response, and those responses, by index; entries below `originCount`
    /// are published (never changed again), the rest are written only under `adding`.
    private let origins = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: originLimit)
    private let originResponses = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: originLimit)
    private let originCount = Atomic<Int>(0)
    /// Held while an origin's response is added (its value is unused, but not `()`: see `TreeService`).
    private let adding = Locked(false)

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
        for index in 0..<originCount.load(ordering: .acquiring) {
            free(origins[index])
            MHD_destroy_response(originResponses[index]!)
        }
        origins.deallocate()
        originResponses.deallocate()
        for (name, value) in headers + originHeaders {
            free(name)
            free(value)
        }
    }

    /// The response for a request from `origin` (a C string libmicrohttpd keeps for the request), nil when
    /// libmicrohttpd cannot make it. `madeForRequest`: the caller destroys it once queued. Any thread.
    func response(origin: UnsafePointer<CChar>) -> (response: OpaquePointer, madeForRequest: Bool)? {
        if let known = sharedResponse(for: origin) { return (known, false) }
        return adding.withLock { _ in
            // Another request may have added it meanwhile.
            let count = originCount.load(ordering: .acquiring)
            if let known = sharedResponse(for: origin) { return (known, false) }
            guard let made = make(origin: origin) else { return nil }
            guard count < Self.originLimit, let copy = strdup(origin) else { return (made, true) }
            origins[count] = copy
            originResponses[count] = made
            originCount.store(count + 1, ordering: .releasing)
            return (made, false)
        }
    }

    private func sharedResponse(for origin: UnsafePointer<CChar>) -> OpaquePointer? {
        let count = originCount.load(ordering: .acquiring)
        for index in 0..<count where strcmp(origins[index]!, origin) == 0 { return originResponses[index] }
        return nil
    }

    private func make(origin: UnsafePointer<CChar>) -> OpaquePointer? {
        guard let response = LibMicroHTTPDResponse.sharing(body, owner: bodyOwner, headers: []) else { return nil }
        for (name, value) in headers { _ = MHD_add_response_header(response, name, value) }
        if echoesOrigin { _ = MHD_add_response_header(response, CORSHeaders.allowOrigin, origin) }
        for (name, value) in originHeaders { _ = MHD_add_response_header(response, name, value) }
        return response
    }
}
