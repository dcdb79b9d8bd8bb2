import Foundation

/// A raw-socket HTTP/1.1 client: the request goes out byte for byte as given (no path normalisation,
/// no percent-decoding), with `Connection: close`, and the response is read to the end of the connection.
struct HTTPClient: Sendable {
    let host: String
    let port: Int
    /// Seconds for connecting, and for each send and each receive.
    var timeout: Double = 5

    /// `127.0.0.1:8080` or `[::1]:8080`, for the `Host` header.
    var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The request bytes: request line, `Host`, the headers given, `Content-Length` when there is a body,
    /// `Connection: close`, then the body.
    func requestBytes(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// One exchange on a new connection, blocking the calling thread (bounded by `timeout`).
    func sendBlocking(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> HTTPResponse {
        let connection = try HTTPConnection(host: host, port: port, timeout: timeout)
        defer { connection.close() }
        try connection.write(requestBytes(method, target, headers: headers, body: body))
        return try HTTPResponse(raw: connection.readToEnd())
    }

    /// One exchange on a new connection, on a thread of its own.
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> HTTPResponse {
        let client = self
        return try await BlockingCall.run { try client.sendBlocking(method, target, headers: headers, body: body) }
    }

    /// One exchange timed on the thread that performs it, so that a busy cooperative thread pool
    /// (many tests in parallel) cannot inflate the measure.
    func timedBlocking(_ method: String, _ target: String) -> TimedResponse {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try sendBlocking(method, target)
            return TimedResponse(response: response, error: nil, elapsed: clock.now - start)
        } catch {
            return TimedResponse(response: nil, error: "\(method) \(target): \(error)", elapsed: clock.now - start)
        }
    }

    func timed(_ method: String = "GET", _ target: String) async throws -> TimedResponse {
        let client = self
        return try await BlockingCall.run { client.timedBlocking(method, target) }
    }

    func get(_ target: String, headers: [(String, String)] = []) async throws -> HTTPResponse {
        try await send("GET", target, headers: headers)
    }

    func head(_ target: String) async throws -> HTTPResponse {
        try await send("HEAD", target)
    }

    /// Writes arbitrary bytes and returns whatever comes back before the server closes (or the timeout).
    func sendRaw(_ bytes: [UInt8]) async throws -> [UInt8] {
        let client = self
        return try await BlockingCall.run {
            let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
            defer { connection.close() }
            do {
                try connection.write(bytes)
            } catch let error as HTTPClientError where error.kind == .send {
                return []  // the server may hang up on garbage before reading all of it
            }
            return try connection.readToEnd(partialOnTimeout: true)
        }
    }

    /// Several requests on one kept-alive connection: all written at once (pipelined) or each after the
    /// previous answer; the last one asks to close. Returns the responses in order.
    func keepAlive(_ requests: [(method: String, target: String)], pipelined: Bool) async throws -> [HTTPResponse] {
        let client = self
        return try await BlockingCall.run {
            let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
            defer { connection.close() }
            func bytes(_ index: Int) -> [UInt8] {
                let (method, target) = requests[index]
                let last = index == requests.count - 1
                return Array(
                    "\(method) \(target) HTTP/1.1\r\nHost: \(client.authority)\r\n\(last ? "Connection: close\r\n" : "")\r\n"
                        .utf8)
            }
            let bodiless = Set(requests.indices.filter { requests[$0].method == "HEAD" })
            if pipelined {
                try connection.write(requests.indices.flatMap(bytes))
                return try HTTPResponse.sequence(from: connection.readToEnd(), bodiless: bodiless)
            }
            var responses: [HTTPResponse] = []
            for index in requests.indices {
                try connection.write(bytes(index))
                if index == requests.count - 1 {
                    let tail = try HTTPResponse.sequence(
                        from: connection.readToEnd(), bodiless: bodiless.contains(index) ? [0] : [])
                    responses.append(contentsOf: tail)
                } else {
                    responses.append(try connection.readResponse(bodiless: bodiless.contains(index)))
                }
            }
            return responses
        }
    }

    /// Whether a TCP connection is accepted right now (the error when not).
    func connectionError() -> HTTPClientError? {
        do {
            let connection = try HTTPConnection(host: host, port: port, timeout: timeout)
            connection.close()
            return nil
        } catch let error as HTTPClientError {
            return error
        } catch {
            return HTTPClientError(.connect, "\(error)")
        }
    }
}
