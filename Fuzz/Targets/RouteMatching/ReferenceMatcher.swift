import EspressoMartini

/// The matching rules written the slow, obvious way, to check the trie against: every route is tried;
/// among those that match, the one whose segment kinds (literal, then one-segment wildcard, then `**`)
/// come first position by position wins, which is what "a literal beats `{name}`/`*`, which beats `**`,
/// with backtracking" means.
struct ReferenceMatcher {
    let routes: [(method: HTTPMethod, pattern: RoutePattern)]

    /// The answer the server gives a request with a known method.
    func resolve(_ segments: [String], method: HTTPMethod) -> RouteMatch {
        if let index = best(segments, method: method) ?? (method == .head ? best(segments, method: .get) : nil) {
            return .exchange(index)
        }
        let allowed = allowedMethods(segments)
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    func allowedMethods(_ segments: [String]) -> [HTTPMethod] {
        var methods = Set(routes.filter { Self.matches($0.pattern, segments) }.map(\.method))
        if methods.contains(.get) { methods.insert(.head) }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }

    private func best(_ segments: [String], method: HTTPMethod) -> Int? {
        routes.indices
            .filter { routes[$0].method == method && Self.matches(routes[$0].pattern, segments) }
            .min { Self.rank(routes[$0].pattern).lexicographicallyPrecedes(Self.rank(routes[$1].pattern)) }
    }

    static func matches(_ pattern: RoutePattern, _ segments: [String]) -> Bool {
        for (position, segment) in pattern.segments.enumerated() {
            switch segment {
            case .catchAll:
                return segments.count > position  // one or more segments left
            case .literal, .encodedLiteral:
                guard position < segments.count, segments[position] == segment.literalText else { return false }
            case .parameter, .wildcard:
                guard position < segments.count else { return false }
            }
        }
        return segments.count == pattern.segments.count
    }

    /// 0 for a literal, 1 for `{name}`, `:name` or `*`, 2 for `**`, per position.
    static func rank(_ pattern: RoutePattern) -> [Int] {
        pattern.segments.map { segment in
            switch segment {
            case .literal, .encodedLiteral: 0
            case .parameter, .wildcard: 1
            case .catchAll: 2
            }
        }
    }
}
