import EspressoMartini
import Glibc
import Synchronization

/// With `"cors": true`, what a tree's response slot holds instead of a bare response: the shared response
/// (its headers plus `Vary: Origin`) for requests without an `Origin`, and responses for requests with one.
/// Responses are shared between connections, so the origin, which is echoed, needs a response of its own:
/// the first `originLimit` origins seen get one each, made once and shared like the slot's; any further
/// origin gets a response made for its request. All of them send the same body bytes, never copied.
final class CORSReadyResponse: @unchecked Sendable {
    /// Origins that get a shared response of their own; a browser app under development has one or two.
    static let originLimit = 4

    /// The response for requests without an `Origin`.
    let shared: HTTPResponse
    private let body: UnsafeRawBufferPointer
    /// Keeps `body` alive; every response sending it retains it too.
    private let bodyOwner: AnyObject
    /// The response's headers with `Vary: Origin`, then those for any origin, as C strings.
    private let headers: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let originHeaders: [(name: UnsafeMutablePointer<CChar>, value: UnsafeMutablePointer<CChar>)]
    private let echoesOrigin: Bool
    /// The origins with a shared response, and those responses (retained), by index; entries below
    /// `originCount` are published (never changed again), the rest are written only under `adding`.
    private let origins = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: originLimit)
    private let originResponses = UnsafeMutablePointer<Unmanaged<HTTPResponse>?>.allocate(capacity: originLimit)
    private let originCount = Atomic<Int>(0)
    /// Held while an origin's response is added (its value is unused, but not `()`: see `TreeService`).
    private let adding = Locked(false)

    /// Nil when the shared response cannot be made (out of memory).
    init?(body: UnsafeRawBufferPointer, owner: AnyObject, headers: [HTTPHeader]) {
        let cors = CORSHeaders(answering: headers)
        let always = headers + (cors.vary.map { [$0] } ?? [])
        guard let shared = HTTPResponse(sharing: body, owner: owner, headers: always) else { return nil }
        self.shared = shared
        self.body = body
        bodyOwner = owner
        self.headers = always.map { (strdup($0.name)!, strdup($0.value)!) }
        originHeaders = cors.withOrigin.map { (strdup($0.name)!, strdup($0.value)!) }
        echoesOrigin = cors.echoesOrigin
    }

    deinit {
        for index in 0..<originCount.load(ordering: .acquiring) {
            free(origins[index])
            originResponses[index]!.release()
        }
        origins.deallocate()
        originResponses.deallocate()
        for (name, value) in headers + originHeaders {
            free(name)
            free(value)
        }
    }

    /// The response for a request from `origin` (a C string kept for the request), nil when it cannot be
    /// made. Any thread.
    func response(origin: UnsafePointer<CChar>) -> HTTPResponse? {
        if let known = sharedResponse(for: origin) { return known }
        return adding.withLock { _ in
            // Another request may have added it meanwhile.
            let count = originCount.load(ordering: .acquiring)
            if let known = sharedResponse(for: origin) { return known }
            guard let made = make(origin: origin) else { return nil }
            guard count < Self.originLimit, let copy = strdup(origin) else { return made }
            origins[count] = copy
            originResponses[count] = Unmanaged.passRetained(made)
            originCount.store(count + 1, ordering: .releasing)
            return made
        }
    }

    private func sharedResponse(for origin: UnsafePointer<CChar>) -> HTTPResponse? {
        let count = originCount.load(ordering: .acquiring)
        for index in 0..<count where strcmp(origins[index]!, origin) == 0 {
            return originResponses[index]!.takeUnretainedValue()
        }
        return nil
    }

    private func make(origin: UnsafePointer<CChar>) -> HTTPResponse? {
        guard let response = HTTPResponse(sharing: body, owner: bodyOwner, headers: []) else { return nil }
        for (name, value) in headers { response.add(name: name, value: value) }
        if echoesOrigin { CORSHeaders.allowOrigin.withCString { response.add(name: $0, value: origin) } }
        for (name, value) in originHeaders { response.add(name: name, value: value) }
        return response
    }
}
