extension RoutePattern {
    /// Whether the route matches a request path's segments, one route on its own: a literal the same bytes,
    /// `{name}`/`:name`/`*` any one segment, `**` one or more last ones. The trie answers requests; this says
    /// which other routes match too, for `explain`, and the journal's filters ask it of every entry.
    public func matches(_ path: RequestPath) -> Bool {
        path.withSegments { path in
            for (position, segment) in segments.enumerated() {
                if case .catchAll = segment { return path.count > position }
                guard position < path.count else { return false }
                if let text = segment.literalText, !text.utf8.elementsEqual(path[position]) { return false }
            }
            return path.count == segments.count
        }
    }

    /// Whether this route wins over `other` when both match a path (doc/matching.md): at the first position where
    /// their segments' kinds differ, a literal beats `{name}`/`*`, which beats `**`. False when neither wins.
    public func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) where mine.precedence != theirs.precedence {
            return mine.precedence < theirs.precedence
        }
        return false
    }
}

extension RouteSegment {
    /// 0 for a literal, 1 for a one-segment wildcard, 2 for `**`: the lower wins.
    fileprivate var precedence: Int {
        switch self {
        case .literal, .encodedLiteral: 0
        case .parameter, .wildcard: 1
        case .catchAll: 2
        }
    }
}
