import CMicroHTTPD
import Dispatch
import EspressoMartini
import Logging

extension MockServer {
    /// The last call for a request (its body, if any, is consumed): choose the answer and send it,
    /// or suspend the connection until its delay has passed. No thread waits for a delay.
    func respond(
        to state: RequestState, connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>
    ) -> MHD_Result {
        if let pending = state.pending {
            state.pending = nil
            return send(pending, for: state, on: connection, method: method, url: url)
        }
        let answer = choose(method: String(cString: method), path: String(cString: url))
        guard answer.delay > 0 else {
            return send(answer, for: state, on: connection, method: method, url: url)
        }
        state.pending = answer
        state.connection = connection
        suspended.withLock { $0[ObjectIdentifier(state)] = state }
        MHD_suspend_connection(connection)
        DispatchQueue.global().asyncAfter(deadline: .now() + answer.delay) { [self] in resume(state) }
        return .YES
    }

    /// Routing: `400` for dot segments, then the tree (most specific route first), `405` or `404`.
    /// The call counter moves here, at arrival, in one atomic step.
    func choose(method methodName: String, path: String) -> Answer {
        let globalHeaders = configuration.headers
        let requestPath = RequestPath(path)
        if requestPath.hasDotSegment {
            return Answer(content: .generated(.error(400, "the path \(path) has a '.' or '..' segment", globalHeaders: globalHeaders)), exchangeDescription: nil)
        }
        let serving = servingTree
        let match: RouteMatch
        if let method = HTTPMethod(requestMethod: methodName) {
            match = serving.tree.resolve(requestPath, method: method)
        } else {
            let allowed = serving.tree.trie.allowedMethods(requestPath.segments)
            match = allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
        switch match {
        case .exchange(let index):
            let serving = serving.exchanges[index]
            let position = serving.counter.next(responseCount: serving.responses.count)
            let exchange = serving.exchange
            return Answer(
                content: .prepared(serving.responses[position]),
                exchangeDescription: "\(exchange.method.name) \(exchange.route) \(position + 1)/\(serving.responses.count)"
            )
        case .methodNotAllowed(let methods):
            let allow = HTTPHeader(name: "Allow", value: methods.map(\.name).joined(separator: ", "))
            let message = "no \(methodName) exchange for \(path); allowed: \(allow.value)"
            return Answer(content: .generated(.error(405, message, extraHeaders: [allow], globalHeaders: globalHeaders)), exchangeDescription: nil)
        case .notFound:
            let message = "no exchange for \(methodName) \(path)"
            return Answer(content: .generated(.error(404, message, globalHeaders: globalHeaders)), exchangeDescription: nil)
        }
    }

    private func send(
        _ answer: Answer, for state: RequestState, on connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>
    ) -> MHD_Result {
        let (result, status) = answer.queue(on: connection)
        if logger.logLevel <= .info {
            let elapsed = ContinuousClock.now - state.started
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let exchange = answer.exchangeDescription ?? "-"
            logger.info("\(String(cString: method)) \(String(cString: url)) \(status) \(exchange) \(formatMilliseconds(milliseconds))")
        }
        return result
    }

    private func formatMilliseconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms"
    }
}
