extension JournalFilter {
    /// A journaled request that fails the filter, and the first part of it that fails, in the words of a
    /// `404`'s `mismatches` (`json /customer/tier is "silver", expected "gold"`).
    public struct NearMiss: Sendable {
        public let entry: JournalEntry
        public let mismatch: String
    }

    /// Up to `limit` requests most like the filter that fail it, for `requests/verify`, of the first kind
    /// there are: those with its method and path that fail on a status or a condition; else those with its
    /// path and another method; else those with its method and a path like its route. The newest first, a
    /// request alike an earlier one (method, path, query and mismatch) left out. A request unlike on both
    /// method and path is no near miss.
    public func nearMisses(
        in parts: [ArraySlice<JournalEntry>], parser: any JSONParser, limit: Int = 3
    )
        -> [NearMiss]
    {
        var ranked: [[NearMiss]] = [[], [], []]
        var seen = Set<[String]>()
        for part in parts.reversed() {
            for entry in part.reversed() {
                guard let (rank, mismatch) = nearMiss(entry, parser: parser), ranked[rank].count < limit,
                    seen.insert([entry.method, entry.path, entry.query, mismatch]).inserted
                else { continue }
                ranked[rank].append(NearMiss(entry: entry, mismatch: mismatch))
                if ranked[0].count == limit { return ranked[0] }
            }
        }
        return ranked.first { !$0.isEmpty } ?? []
    }

    /// How `entry` misses the filter (0: only on a status or a condition, 1: on its method, 2: on its
    /// path) and the first thing that fails; nil when it matches, is another session's, or is unlike on
    /// both method and path.
    private func nearMiss(_ entry: JournalEntry, parser: any JSONParser) -> (Int, String)? {
        if let session, entry.session != session { return nil }
        let methodHolds = method.map { Self.sameWithoutCase($0, entry.method) } ?? true
        let pathHolds = path.map { $0.matches(entry.segments) } ?? true
        switch (methodHolds, pathHolds) {
        case (false, false): return nil
        case (false, true): return (1, "method \(entry.method), expected \(method!.uppercased())")
        case (true, false):
            // Another path is a near miss only when it is like the route, as a 404's closest routes are.
            guard
                RouteSimilarity.distance(from: entry.segments.segments, to: path!)
                    <= RouteSimilarity.closeEnough
            else {
                return nil
            }
            return (2, "path \(entry.path), expected \(path!)")
        case (true, true): break
        }
        if let status, !status.holds(for: entry.status) {
            let had = entry.status.map { String($0) } ?? "none"
            return (0, "status \(had), expected \(status.description)")
        }
        if unmatched, let route = entry.route {
            return (0, "answered by \(route), expected a request no exchange answered")
        }
        guard let conditions,
            let mismatch = conditions.firstMismatch(
                for: RequestModel(entry.recordedRequest, route: path ?? Self.noRoute, parser: parser))
        else { return nil }
        return (0, mismatch)
    }
}

extension JournalFilter.Status {
    /// `404`, or `4xx` for a class.
    var description: String {
        switch self {
        case .exactly(let status): String(status)
        case .inClass(let hundreds): "\(hundreds)xx"
        }
    }
}
