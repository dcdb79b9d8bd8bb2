/// How far a request path is from a route, for a `404`'s `closest` routes (doc/command-line.md): an edit distance over
/// segments, where a `{name}` or `*` segment costs 0.1 wherever it stands, `**` takes one or more
/// segments for 0.1, and two different literal segments cost their own edit distance over their
/// length (`product` against `products`: 1/8). 0 means the route matches.
enum RouteSimilarity {
    /// The distance divided by the longer of the two, in segments: 0 (alike) to about 1 (unrelated).
    /// The most unlike a route may be and still be named among a path's closest (a third).
    static let closeEnough = 0.34

    static func distance(from path: [String], to route: RoutePattern) -> Double {
        let segments = route.segments
        let rows = path.count, columns = segments.count
        // cost[i][j]: the first i request segments against the first j route segments.
        var cost = [[Double]](repeating: [Double](repeating: .infinity, count: columns + 1), count: rows + 1)
        cost[0][0] = 0
        for i in 0...rows {
            for j in 0...columns {
                let here = cost[i][j]
                guard here.isFinite else { continue }
                if i < rows { cost[i + 1][j] = min(cost[i + 1][j], here + 1) }
                if j < columns { cost[i][j + 1] = min(cost[i][j + 1], here + 1) }
                guard i < rows, j < columns else { continue }
                switch segments[j] {
                case .catchAll:
                    for k in (i + 1)...rows { cost[k][j + 1] = min(cost[k][j + 1], here + 0.1) }
                case .parameter, .wildcard:
                    cost[i + 1][j + 1] = min(cost[i + 1][j + 1], here + 0.1)
                case .literal, .encodedLiteral:
                    cost[i + 1][j + 1] = min(
                        cost[i + 1][j + 1], here + literalDistance(path[i], segments[j].literalText!))
                }
            }
        }
        return cost[rows][columns] / Double(max(rows, columns, 1))
    }

    /// The edit distance between two segments over the longer one's length, on bytes.
    private static func literalDistance(_ a: String, _ b: String) -> Double {
        if a == b { return 0 }
        let a = Array(a.utf8), b = Array(b.utf8)
        guard !a.isEmpty, !b.isEmpty else { return 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return Double(previous[b.count]) / Double(max(a.count, b.count))
    }
}
