import EspressoMartini

/// One fuzz input: `METHOD PATH`, or, without a space, only a path requested with `GET`. Bytes after a NUL
/// are dropped and invalid UTF-8 is repaired, as the server's `String(cString:)` of libmicrohttpd's
/// decoded URL does.
struct RouteMatchingCase {
    let methodName: String
    let path: String

    init(input: [UInt8]) {
        let text = input.prefix { $0 != 0 }
        if let space = text.firstIndex(of: UInt8(ascii: " ")) {
            methodName = String(decoding: text[..<space], as: UTF8.self)
            path = String(decoding: text[(space + 1)...], as: UTF8.self)
        } else {
            methodName = "GET"
            path = String(decoding: text, as: UTF8.self)
        }
    }

    /// What the server decides for the request (`Decider.decide`), checked against the reference and
    /// against the properties of `RequestPath`. A difference stops the fuzzer like a crash.
    func check() {
        let request = Request(method: methodName, path: path)
        let requestPath = request.segments
        // Split on the byte `/`, not on Characters: a `/` followed by a combining mark is one Character.
        let expectedSegments = path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        require(
            requestPath.segments == expectedSegments, "segments \(requestPath.segments) for \(path.debugDescription)")
        let hasDotSegment = expectedSegments.contains { $0 == "." || $0 == ".." }
        require(requestPath.hasDotSegment == hasDotSegment, "dot segment flag for \(path.debugDescription)")

        let decision = RouteTable.decider.decide(request, tree: RouteTable.serving)
        guard !hasDotSegment else {
            require(
                decision.statusCode == 400,
                "\(methodName) \(path.debugDescription) with a dot segment decided \(decision.statusCode.map(String.init) ?? "no status")"
            )
            return
        }
        let reference = ReferenceMatcher(routes: RouteTable.routes)
        let expected: RouteMatch
        if let method = request.knownMethod {
            require(method.name == methodName, "method \(methodName.debugDescription) read as \(method.name)")
            expected = reference.resolve(expectedSegments, method: method)
        } else {
            require(
                HTTPMethod.allCases.allSatisfy { $0.name != methodName },
                "known method \(methodName.debugDescription) not recognised")
            let allowed = reference.allowedMethods(expectedSegments)
            expected = allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
        let found = Self.match(of: decision)
        require(found == expected, "\(methodName) \(path.debugDescription): decided \(found), reference \(expected)")
        if case .exchange(let index) = found, let method = request.knownMethod {
            let route = RouteTable.routes[index]
            require(
                route.method == method || (method == .head && route.method == .get),
                "\(methodName) answered by a \(route.method.name) exchange")
        }
    }

    /// The route match a decision stands for: the exchange that answers, or the `405` (its `Allow` header
    /// read back into methods) or `404` it generated.
    private static func match(of decision: Decision) -> RouteMatch {
        if let answer = decision.exchangeAnswer { return .exchange(answer.exchangeIndex) }
        guard case .generated(let answer) = decision else { return .notFound }
        if answer.statusCode == 405, let allow = answer.headers.first(where: { $0.name == "Allow" }) {
            return .methodNotAllowed(
                allow.value.split(separator: ", ").compactMap { HTTPMethod(requestMethod: String($0)) })
        }
        return .notFound
    }

    private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("route matching differs from the reference: \(message())") }
    }
}
