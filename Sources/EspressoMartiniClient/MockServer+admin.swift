import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MockServer {
    /// Admin calls wait this long for an answer (a reload of a large tree takes a while).
    static let adminTimeout: TimeInterval = 60

    /// The session admin calls go through: no cache, no cookies, no proxy (the server is on this machine).
    static let urlSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = adminTimeout
        configuration.connectionProxyDictionary = [:]
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// `/__espressomartini/ENDPOINT` with `query` and, in a session when `inSession`, `session=NAME`: its
    /// body. An answer of 400 or more throws `refused` with the server's `error` and `errors`.
    func send(
        _ method: String, _ endpoint: String, query: [URLQueryItem] = [], body: Data? = nil, inSession: Bool = true
    ) async throws -> Data {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("__espressomartini/" + endpoint), resolvingAgainstBaseURL: false)
        let session = inSession ? sessionName.map { [URLQueryItem(name: "session", value: $0)] } : nil
        let items = query + (session ?? [])
        if !items.isEmpty { components?.queryItems = items }
        guard let url = components?.url else {
            throw MockServerError.invalidArgument("no URL for \(endpoint) on \(baseURL)")
        }
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.adminTimeout)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await Self.urlSession.data(for: request)
        } catch {
            throw MockServerError.unreachable("\(method) \(url.absoluteString): \(error.localizedDescription)")
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw MockServerError.unreachable("\(method) \(url.absoluteString): not an HTTP answer")
        }
        guard status < 400 else { throw Self.refusal(status: status, body: data) }
        return data
    }

    /// The server's `{"error": …, "errors": […]}` as an error; the body as text when it is not that.
    static func refusal(status: Int, body: Data) -> MockServerError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let errors = object?["errors"] as? [String] ?? []
        let message = object?["error"] as? String ?? errors.first ?? String(decoding: body, as: UTF8.self)
        return .refused(status: status, message: message, errors: errors.isEmpty ? [message] : errors)
    }

    /// The body of `requests/count` and `requests/find`.
    static func filterBody(method: String?, path: String?, when: [String: Any]?) throws -> Data {
        var filter: [String: Any] = [:]
        if let method { filter["method"] = method }
        if let path { filter["path"] = path }
        if let when {
            guard JSONSerialization.isValidJSONObject(when) else {
                throw MockServerError.invalidArgument(
                    "'when' must hold only strings, numbers, booleans, null, arrays and dictionaries: \(when)")
            }
            filter["when"] = when
        }
        return try JSONSerialization.data(withJSONObject: filter, options: [.sortedKeys])
    }

    func object(_ data: Data) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw MockServerError.unreachable(
                "the answer is not a JSON object: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return object
    }

    func decode(_ data: Data) throws -> [RecordedRequest] {
        do {
            return try JSONDecoder().decode([RecordedRequest].self, from: data)
        } catch {
            throw MockServerError.unreachable(
                "the answer is not a list of requests (\(error)): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }

    /// Runs blocking work (starting a process and waiting for its first line) on a thread of its own, so
    /// that tests running in parallel never starve the cooperative thread pool.
    static func offCooperativeThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
