import CMicroHTTPD
import Dispatch
import EspressoMartini

extension MockServer {
    static let adminPrefix: StaticString = "__espressomartini"

    /// The last call for a request (its body, if any, is consumed): choose the answer and send it,
    /// or suspend the connection until its delay has passed. No thread waits for a delay.
    func respond(
        to state: RequestState, connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>
    ) -> MHD_Result {
        let knownMethod = HTTPMethod(requestMethod: method)
        let methodName = knownMethod?.name ?? String(cString: method)
        let path = String(cString: url)
        if let pending = state.pending {
            state.pending = nil
            return send(pending, for: state, on: connection, method: methodName, path: path)
        }
        let requestPath = RequestPath(path)
        if configuration.admin, !requestPath.hasDotSegment, requestPath.startsWith(segment: Self.adminPrefix) {
            let answer = Answer.generated(adminResponse(method: methodName, segments: requestPath.segments, connection: connection))
            return send(answer, for: state, on: connection, method: methodName, path: path)
        }
        let answer = choose(method: knownMethod, named: methodName, path: path, requestPath: requestPath)
        journal?.record(journalEntry(for: answer, state: state, method: methodName, path: path)) { packRequestHeaders(connection, into: &$0) }
        guard answer.delay > 0 else {
            return send(answer, for: state, on: connection, method: methodName, path: path)
        }
        state.pending = answer
        state.connection = connection
        suspended.withLock { $0[ObjectIdentifier(state)] = state }
        MHD_suspend_connection(connection)
        DispatchQueue.global().asyncAfter(deadline: .now() + answer.delay) { [self] in resume(state) }
        return .YES
    }

    /// Routing: `400` for dot segments, then the tree (most specific route first), `405` or `404`.
    /// `method` is nil for a method no folder can name. The call counter moves here, at arrival, in
    /// one atomic step.
    func choose(method: HTTPMethod?, named methodName: String, path: String, requestPath: RequestPath) -> Answer {
        let globalHeaders = configuration.headers
        if requestPath.hasDotSegment {
            return .generated(.error(400, "the path \(path) has a '.' or '..' segment", globalHeaders: globalHeaders))
        }
        let serving = servingTree
        let match: RouteMatch
        if let method {
            match = serving.tree.resolve(requestPath, method: method)
        } else {
            let allowed = serving.tree.trie.allowedMethods(requestPath)
            match = allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
        switch match {
        case .exchange(let index):
            return .served(serving.serve(exchangeAt: index))
        case .methodNotAllowed(let methods):
            let allow = HTTPHeader(name: "Allow", value: methods.map(\.name).joined(separator: ", "))
            let message = "no \(methodName) exchange for \(path); allowed: \(allow.value)"
            return .generated(.error(405, message, extraHeaders: [allow], globalHeaders: globalHeaders))
        case .notFound:
            return .generated(.error(404, "no exchange for \(methodName) \(path)", globalHeaders: globalHeaders))
        }
    }

    private func journalEntry(for answer: Answer, state: RequestState, method: String, path: String) -> JournalEntry {
        JournalEntry(
            time: .now, method: method, path: path, query: state.query, body: state.bodyPrefix,
            bodySize: state.bodySize, route: answer.served?.exchange.route.description, response: answer.served?.position,
            status: Int(answer.statusCode)
        )
    }

    /// Appends the request's headers in arrival order, packed as `JournalEntry.packedHeaders`: no strings.
    private func packRequestHeaders(_ connection: OpaquePointer, into packed: inout [UInt8]) {
        withUnsafeMutablePointer(to: &packed) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                guard let cls, let name else { return .YES }
                let packed = cls.assumingMemoryBound(to: [UInt8].self)
                name.withMemoryRebound(to: UInt8.self, capacity: nameSize) { packed.pointee.append(contentsOf: UnsafeBufferPointer(start: $0, count: nameSize)) }
                packed.pointee.append(0)
                if let value {
                    value.withMemoryRebound(to: UInt8.self, capacity: valueSize) { packed.pointee.append(contentsOf: UnsafeBufferPointer(start: $0, count: valueSize)) }
                }
                packed.pointee.append(0)
                return .YES
            }, pointer)
        }
    }

    private func send(_ answer: Answer, for state: RequestState, on connection: OpaquePointer, method: String, path: String) -> MHD_Result {
        let (result, status) = answer.queue(on: connection)
        if let accessLog, let started = state.started {
            let served = answer.served
            let elapsed = ContinuousClock.now - started
            accessLog(AccessLogRecord(
                method: method, path: path, status: status, exchange: served?.exchange,
                position: (served?.position ?? 0) + 1, responseCount: served?.exchange.responses.count ?? 0,
                hundredthsOfMilliseconds: Int(elapsed.components.seconds) * 100_000 + Int(elapsed.components.attoseconds / 10_000_000_000_000)
            ))
        }
        return result
    }
}
