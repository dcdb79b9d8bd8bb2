extension RouteTrie {
    /// The most specific route with an exchange for `method`: segment by segment a literal beats
    /// `{name}`/`*`, which beats `**`, backtracking when a branch has no exchange for the method.
    /// `HEAD` falls back to the `GET` exchange, without the body.
    public func resolve(_ path: RequestPath, method: HTTPMethod) -> RouteMatch {
        path.withSegments { segments in
            if let index = find(segments, method: method, node: 0, depth: 0) {
                return .exchange(Int(index))
            }
            if method == .head, let index = find(segments, method: .get, node: 0, depth: 0) {
                return .exchange(Int(index))
            }
            let allowed = allowedMethods(segments)
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
    }

    /// The index of the exchange for exactly `method` (no `HEAD` falling back to `GET`) of the most
    /// specific route matching `path`; nil when none has one.
    public func exchange(for path: RequestPath, method: HTTPMethod) -> Int? {
        path.withSegments { segments in find(segments, method: method, node: 0, depth: 0).map(Int.init) }
    }

    /// The methods of every route that matches the path (`HEAD` included where there is `GET`),
    /// for the `Allow` header of a `405`; empty when no route matches.
    public func allowedMethods(_ path: RequestPath) -> [HTTPMethod] {
        path.withSegments(allowedMethods)
    }

    private func allowedMethods(_ segments: RequestPath.Segments) -> [HTTPMethod] {
        var allowed = Set<HTTPMethod>()
        collectMethods(segments, node: 0, depth: 0, into: &allowed)
        if allowed.contains(.get) { allowed.insert(.head) }
        return allowed.sorted { $0.rawValue < $1.rawValue }
    }

    private func find(_ segments: RequestPath.Segments, method: HTTPMethod, node: Int, depth: Int) -> Int32? {
        if depth == segments.count {
            let index = exchange(at: node, for: method)
            return index >= 0 ? index : nil
        }
        let literal = literalChild(of: node, named: segments[depth])
        if literal >= 0, let found = find(segments, method: method, node: Int(literal), depth: depth + 1) {
            return found
        }
        let current = nodes[node]
        if current.single >= 0, let found = find(segments, method: method, node: Int(current.single), depth: depth + 1)
        {
            return found
        }
        if current.catchAll >= 0 {
            let index = exchange(at: Int(current.catchAll), for: method)
            if index >= 0 { return index }
        }
        return nil
    }

    private func collectMethods(
        _ segments: RequestPath.Segments, node: Int, depth: Int, into allowed: inout Set<HTTPMethod>
    ) {
        if depth == segments.count {
            for method in HTTPMethod.allCases where exchange(at: node, for: method) >= 0 { allowed.insert(method) }
            return
        }
        let literal = literalChild(of: node, named: segments[depth])
        if literal >= 0 {
            collectMethods(segments, node: Int(literal), depth: depth + 1, into: &allowed)
        }
        let current = nodes[node]
        if current.single >= 0 {
            collectMethods(segments, node: Int(current.single), depth: depth + 1, into: &allowed)
        }
        if current.catchAll >= 0 {
            for method in HTTPMethod.allCases where exchange(at: Int(current.catchAll), for: method) >= 0 {
                allowed.insert(method)
            }
        }
    }
}
