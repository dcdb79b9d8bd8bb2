import EspressoMartini

extension Sender {
    /// A response the same for every request: the tree's shared one, built now if this is its first request;
    /// a large file, sent from disk for every request. A file that cannot be read now (deleted since the tree
    /// was loaded) is sent as `Decision.unreadable`, and a later request tries it again.
    func sendPrebuilt(
        _ answer: ExchangeAnswer, for decision: Decision, answering request: Request, state: RequestState, on connection: some RequestConnection
    ) -> Bool {
        let tree = answer.tree, slot = answer.slot, status = answer.statusCode
        if let built = builtResponse(in: slot, of: tree) {
            return finished(decision, status: status, queued: queue(built, status: status, on: connection), answering: request, state: state)
        }
        if let diskFile = tree.diskFiles[slot] {
            guard let perRequest = HTTPResponse(file: diskFile.path, headers: withCORS(diskFile.headers, on: connection)) else {
                return send(.unreadable(path: diskFile.path, answer), answering: request, state: state, on: connection)
            }
            return finished(decision, status: status, queued: connection.queue(perRequest, status: status), answering: request, state: state)
        }
        guard let content = answer.response.content else { preconditionFailure("a prebuilt response without content") }
        let body: (buffer: UnsafeRawBufferPointer, owner: AnyObject)
        if case .file(let name, let resolved, _) = content.body {
            let path = tree.exchangeTree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let bytes = tree.bytes(ofFileIn: slot, at: path) else {
                return send(.unreadable(path: path, answer), answering: request, state: state, on: connection)
            }
            body = (bytes.buffer, bytes.owner)
        } else {
            let bytes = HeapBytes(copying: content.body.inlineBytes)
            body = (bytes.bytes, bytes)
        }
        let headers = content.effectiveHeaders(global: tree.globalHeaders)
        // Two first requests may both build it; only the one published first is ever sent, so every
        // answer from this tree is one version of the file.
        let built: AnyObject?
        if cors {
            built = CORSReadyResponse(body: body.buffer, owner: body.owner, headers: headers).map { tree.built.publish($0, in: slot) }
        } else {
            built = HTTPResponse(sharing: body.buffer, owner: body.owner, headers: headers).map { tree.built.publish($0, in: slot) }
        }
        guard let built else { return finished(decision, status: status, queued: false, answering: request, state: state) }
        return finished(decision, status: status, queued: queue(built, status: status, on: connection), answering: request, state: state)
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
