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

    /// What the server does with the request (MockServer.choose), checked against the reference and
    /// against the properties of `RequestPath`. A difference stops the fuzzer like a crash.
    func check() {
        let requestPath = RequestPath(path)
        // Split on the byte `/`, not on Characters: a `/` followed by a combining mark is one Character.
        let expectedSegments = path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        require(requestPath.segments == expectedSegments, "segments \(requestPath.segments) for \(path.debugDescription)")
        require(requestPath.hasDotSegment == expectedSegments.contains { $0 == "." || $0 == ".." }, "dot segment flag for \(path.debugDescription)")
        guard !requestPath.hasDotSegment else { return }  // answered 400 before any matching

        let reference = ReferenceMatcher(routes: RouteTable.routes)
        let segments = requestPath.segments
        if let method = HTTPMethod(requestMethod: methodName) {
            require(method.name == methodName, "method \(methodName.debugDescription) read as \(method.name)")
            let found = RouteTable.trie.resolve(requestPath, method: method)
            let expected = reference.resolve(segments, method: method)
            require(found == expected, "\(methodName) \(path.debugDescription): trie \(found), reference \(expected)")
            if case .exchange(let index) = found {
                let route = RouteTable.routes[index]
                require(route.method == method || (method == .head && route.method == .get), "\(methodName) answered by a \(route.method.name) exchange")
            }
        } else {
            require(HTTPMethod.allCases.allSatisfy { $0.name != methodName }, "known method \(methodName.debugDescription) not recognised")
            let found = RouteTable.trie.allowedMethods(requestPath)
            let expected = reference.allowedMethods(segments)
            require(found == expected, "allowed methods for \(path.debugDescription): trie \(found), reference \(expected)")
        }
    }

    private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("route matching differs from the reference: \(message())") }
    }
}
