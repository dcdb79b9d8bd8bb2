import EspressoMartini

extension Sender {
    /// A response the same for every request: the tree's shared one, built now if this is its first request;
    /// on a slow network its bytes, kept in its slot and paced for each request; a large file, sent from disk
    /// for every request. A file that cannot be read now (deleted since the tree was loaded) is sent as
    /// `Decision.unreadable`, and a later request tries it again.
    func sendPrebuilt(
        _ answer: ExchangeAnswer, pacedAt pace: Double?, for decision: Decision, answering request: Request,
        state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        let tree = answer.tree, slot = answer.slot, status = answer.statusCode
        if pace == nil, let built = builtResponse(in: slot, of: tree) {
            return finished(
                decision, status: status, queued: queue(built, status: status, on: connection), answering: request,
                state: state)
        }
        if let pace, let shared = tree.built.existing(slot, as: SharedBody.self) {
            return deliver(
                shared.body, status: status, headers: shared.headers, pacedAt: pace, for: decision, answering: request,
                state: state, on: connection)
        }
        let (body, headers) = ConfiguredBody.of(answer)
        switch body {
        case .unreadable(let path):
            return send(.unreadable(path: path, answer), answering: request, state: state, on: connection)
        case .disk(let descriptor, let size):
            return deliver(
                .file(descriptor: descriptor, size: size), status: status, headers: headers, pacedAt: pace,
                for: decision, answering: request, state: state, on: connection)
        case .memory(let buffer, let owner):
            if let content = answer.response.content, content.isBodiless {
                // Kept in the slot only when nothing else would look there for another kind of object.
                return sendBodiless(
                    content, headers: headers, keptIn: pace == nil && !cors ? (slot, tree) : nil, status: status,
                    for: decision, answering: request, state: state, on: connection)
            }
            // Two first requests may both build it; only the one published first is ever sent, so every
            // answer from this tree is one version of the file.
            if let pace {
                let shared = tree.built.publish(SharedBody(.memory(buffer, owner: owner), headers: headers), in: slot)
                return deliver(
                    shared.body, status: status, headers: shared.headers, pacedAt: pace, for: decision,
                    answering: request, state: state, on: connection)
            }
            let built: AnyObject?
            if cors {
                built = CORSReadyResponse(body: buffer, owner: owner, headers: headers).map {
                    tree.built.publish($0, in: slot)
                }
            } else {
                built = HTTPResponse(sharing: buffer, owner: owner, headers: headers).map {
                    tree.built.publish($0, in: slot)
                }
            }
            guard let built else {
                return finished(decision, status: status, queued: false, answering: request, state: state)
            }
            return finished(
                decision, status: status, queued: queue(built, status: status, on: connection), answering: request,
                state: state)
        }
    }

    /// A 304, or a HEAD answer given a `content_length`: nothing to pace. Made once and kept in the tree's slot
    /// (`keptIn`), or for each request (with CORS its headers follow the request's `Origin`).
    private func sendBodiless(
        _ content: ResponseContent, headers: [HTTPHeader], keptIn kept: (slot: Int, tree: ServingTree)?,
        status: UInt32, for decision: Decision, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        let made = HTTPResponse.bodiless(announcing: content.contentLength, headers: withCORS(headers, on: connection))
        let response = kept.flatMap { kept in made.map { kept.tree.built.publish($0, in: kept.slot) } } ?? made
        guard let response else {
            return finished(decision, status: status, queued: false, answering: request, state: state)
        }
        return finished(
            decision, status: status, queued: connection.queue(response, status: status), answering: request,
            state: state)
    }

    /// What the slot holds once built: an `HTTPResponse`, or with CORS a `CORSReadyResponse`.
    @inline(__always)
    private func builtResponse(in slot: Int, of tree: ServingTree) -> AnyObject? {
        cors ? tree.built.existing(slot, as: CORSReadyResponse.self) : tree.built.existing(slot, as: HTTPResponse.self)
    }

    /// Queues a response kept in a tree's slot: shared as it is, or, with CORS and a request with an
    /// `Origin`, the slot's response for that origin.
    @inline(__always)
    private func queue(_ built: AnyObject, status: UInt32, on connection: some RequestConnection) -> Bool {
        guard cors else { return connection.queue(unsafeDowncast(built, to: HTTPResponse.self), status: status) }
        let ready = unsafeDowncast(built, to: CORSReadyResponse.self)
        guard let origin = connection.origin else { return connection.queue(ready.shared, status: status) }
        guard let response = ready.response(origin: origin) else { return false }
        return connection.queue(response, status: status)
    }
}

/// A slowed response's body, the same for every request: what its slot in the tree holds, read once (a
/// slot of a response sent slowly never holds a built response, as every request for it is slowed).
private final class SharedBody: @unchecked Sendable {
    let body: OutgoingBody
    let headers: [HTTPHeader]

    init(_ body: OutgoingBody, headers: [HTTPHeader]) {
        self.body = body
        self.headers = headers
    }
}
