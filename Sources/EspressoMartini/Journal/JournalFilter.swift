/// Which journal entries a test asks about (doc/testing.md): the admin API's `requests` filters and the
/// bodies of `requests/count` and `requests/find`. Every part is optional; an entry must satisfy each one given.
public struct JournalFilter: Sendable {
    /// A status, or a class of them (`4xx`).
    public enum Status: Sendable, Equatable {
        case exactly(Int)
        /// The hundreds digit: 4 for `4xx`.
        case inClass(Int)

        func holds(for status: Int?) -> Bool {
            guard let status else { return false }
            switch self {
            case .exactly(let wanted): return status == wanted
            case .inClass(let hundreds): return status / 100 == hundreds
            }
        }
    }

    /// Compared without regard to case: `post` finds `POST`.
    public var method: String?
    /// A route pattern in the tree's spelling, matched against each request's path with the tree's
    /// rules, whichever exchange answered it, if any.
    public var path: RoutePattern?
    public var status: Status?
    /// Only the requests no exchange answered.
    public var unmatched = false
    /// A variant's `when`, compiled by the same code; `path` conditions read the captures of `path`.
    public var conditions: VariantConditions?
    /// Only this session's requests; nil: every session's.
    public var session: String?

    public init() {}

    /// Whether `entry` satisfies every part given; `parser` reads bodies for `json` and `graphql`
    /// conditions. The cheap parts are checked first, the conditions last.
    public func matches(_ entry: JournalEntry, parser: any JSONParser) -> Bool {
        if let session, entry.session != session { return false }
        if unmatched, entry.route != nil { return false }
        if let status, !status.holds(for: entry.status) { return false }
        if let method, !Self.sameWithoutCase(method, entry.method) { return false }
        guard path != nil || conditions != nil else { return true }
        if let path, !path.matches(entry.segments) { return false }
        guard let conditions, !conditions.alwaysHolds else { return true }
        return conditions.holds(for: RequestModel(entry.recordedRequest, route: path ?? Self.noRoute, parser: parser))
    }

    /// The entries that match, in order: of a snapshot's parts, or of an array.
    public func matching(_ parts: [ArraySlice<JournalEntry>], parser: any JSONParser) -> [JournalEntry] {
        Array(inParts(parts) { part in part.filter { matches($0, parser: parser) } }.joined())
    }

    public func matching(_ entries: [JournalEntry], parser: any JSONParser) -> [JournalEntry] {
        matching(Self.parts(of: entries), parser: parser)
    }

    /// How many entries match: of a snapshot's parts, or of an array.
    public func count(in parts: [ArraySlice<JournalEntry>], parser: any JSONParser) -> Int {
        inParts(parts) { part in
            part.withUnsafeBufferPointer { entries in
                var count = 0
                for index in entries.indices where matches(entries[index], parser: parser) { count += 1 }
                return count
            }
        }.reduce(0, +)
    }

    public func count(in entries: [JournalEntry], parser: any JSONParser) -> Int {
        count(in: Self.parts(of: entries), parser: parser)
    }

    /// The route conditions see without `path`: it captures nothing.
    static let noRoute = RoutePattern([])

    /// Above this many entries, a filter that reads more than a few fields (a path or conditions) reads
    /// the parts on every core: a count over a full journal of a hundred thousand requests is a test's
    /// assertion, and the test waits for it.
    public static let serialLimit = 4096

    /// `body` on each part, on every core when there are many entries; the parts' results in order.
    private func inParts<Result: Sendable>(
        _ parts: [ArraySlice<JournalEntry>], _ body: @Sendable (ArraySlice<JournalEntry>) -> Result
    ) -> [Result] {
        let total = parts.reduce(0) { $0 + $1.count }
        guard total > Self.serialLimit, path != nil || conditions != nil else { return parts.map(body) }
        return parts.concurrentMap(body)
    }

    /// An array as parts of a journal's chunk size.
    private static func parts(of entries: [JournalEntry]) -> [ArraySlice<JournalEntry>] {
        stride(from: 0, to: entries.count, by: RequestJournal.chunkSize).map {
            entries[$0..<min($0 + RequestJournal.chunkSize, entries.count)]
        }
    }

    static func sameWithoutCase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { $0.lowercasedASCII == $1.lowercasedASCII }
    }
}
