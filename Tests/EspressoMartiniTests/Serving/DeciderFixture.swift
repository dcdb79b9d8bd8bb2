import EspressoMartini
import EspressoMartiniJansson
import Logging

/// A tree loaded from files and made ready to serve, with the `Decider` the server would use: decisions
/// are made and checked in-process, without a socket.
struct DeciderFixture {
    let service: TreeService
    let journal: RequestJournal
    let decider: Decider

    /// `files` are relative to the requests folder (`users/{id}/GET/configuration.json`); `folders` too.
    init(
        files: [String: String] = [:], folders: [String] = [],
        configuration: ServerConfiguration = ServerConfiguration()
    ) throws {
        let fixture = FolderFixture(
            files: Dictionary(uniqueKeysWithValues: files.map { ("exchanges/" + $0.key, $0.value) }),
            folders: folders.map { "exchanges/" + $0 }
        )
        // The tree keeps no file open: inline bodies only, so the folder may go once loaded.
        let (tree, diagnostics, _) = try LoaderFixture.load(fixture)
        guard let tree else {
            throw FixtureError(description: diagnostics.all.map(\.description).joined(separator: "\n"))
        }
        var configuration = configuration
        configuration.requestsFolder = "/nonexistent"
        self.init(tree: tree, configuration: configuration)
    }

    /// Runs `body` with a fixture whose requests folder stays on disk while it runs (runtime exchanges may
    /// name its files, and read it when they are added).
    static func withRequestsFolder<T>(
        files: [String: String], configuration: ServerConfiguration = ServerConfiguration(),
        _ body: (DeciderFixture) throws -> T
    ) throws -> T {
        let fixture = FolderFixture(
            files: Dictionary(uniqueKeysWithValues: files.map { ("exchanges/" + $0.key, $0.value) }))
        return try withTemporaryFolder(fixture) { root in
            let folder = root + "/exchanges"
            let (tree, diagnostics) = TreeLoader(parser: JanssonParser()).load(folder: folder)
            guard let tree else {
                throw FixtureError(description: diagnostics.all.map(\.description).joined(separator: "\n"))
            }
            var configuration = configuration
            configuration.requestsFolder = folder
            return try body(DeciderFixture(tree: tree, configuration: configuration))
        }
    }

    private init(tree: ExchangeTree, configuration: ServerConfiguration) {
        journal = RequestJournal(capacity: configuration.journalSize)
        service = TreeService(
            tree: tree, configuration: configuration, loader: TreeLoader(parser: JanssonParser()),
            logger: Logger(label: "test"))
        decider = Decider(
            configuration: configuration,
            admin: configuration.admin ? AdminAPI(service: service, journal: journal) : nil,
            parser: JanssonParser(),
            templates: TemplateEnvironment(cache: service.cache, mockServer: "http://127.0.0.1:8080")
        )
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    static let loopback = ClientAddress(text: "127.0.0.1", isLoopback: true)

    /// Decides as the server would, in the session named `session` (nil: the default one), for a request
    /// from `client` (a loopback one by default), and journals the request as the server does (admin
    /// requests aside), with its first `JournalEntry.bodyLimit` bytes.
    func decide(
        _ method: String, _ target: String, headers: [HTTPHeader] = [], body: String? = nil, session: String? = nil,
        client: ClientAddress? = DeciderFixture.loopback
    ) -> Decision {
        let (path, query) = target.split(separator: "?", maxSplits: 1).map(String.init).splitPair
        let bytes = body.map { Array($0.utf8) }
        var request = Request(
            method: method, path: path, rawQuery: query, headers: RequestHeaders(headers), body: bytes)
        request.session = session.map { service.sessions.session(named: $0) }
        request.client = client
        let served = service.served
        request.runtime = served.runtime
        let decision = decider.decide(request, tree: served.tree)
        if !decision.isAdmin {
            journal.record(
                request, answeredBy: decision, body: Array((bytes ?? []).prefix(JournalEntry.bodyLimit)),
                bodySize: bytes?.count ?? 0)
        }
        return decision
    }
}

extension [String] {
    fileprivate var splitPair: (String, String) { (self.first ?? "", count > 1 ? self[1] : "") }
}

extension Decision {
    /// `status route position` for an exchange's answer (`200 GET /users/{id} 0`), `status body` for bytes.
    var summary: String {
        switch self {
        case .prebuilt(let answer):
            "\(answer.statusCode) \(answer.exchange.method.name) \(answer.exchange.route) \(answer.position)"
        case .rendered(let answer, let made):
            "\(made.statusCode) \(answer.exchange.method.name) \(answer.exchange.route) \(answer.position)"
        case .fault(let fault, let answer):
            "fault \(fault.rawValue) \(answer.exchange.method.name) \(answer.exchange.route) \(answer.position)"
        case .script(let job):
            "script \(job.answer.exchange.method.name) \(job.answer.exchange.route) \(job.answer.position)"
        case .generated(let made): "\(made.statusCode) \(String(decoding: made.body, as: UTF8.self))"
        case .admin(let made): "admin \(made.statusCode) \(String(decoding: made.body, as: UTF8.self))"
        case .unavailable(let answer): "503 \(answer.exchange.route)"
        case .unreadable(let path, _): "500 \(path)"
        case .stream(let stream):
            "stream \(stream.answer.statusCode) \(stream.answer.exchange.method.name) \(stream.answer.exchange.route) \(stream.answer.position)"
        case .throttled(let rate, let decision): "at \(rate) B/s: \(decision.summary)"
        case .delayed(let seconds, let decision): "after \(seconds) s: \(decision.summary)"
        case .forward(let job): "forward to \(job.target)\(job.records ? ", recorded" : "")"
        }
    }

    var headers: [HTTPHeader] {
        switch self {
        case .generated(let made), .admin(let made), .rendered(_, let made): made.headers
        case .prebuilt(let answer), .fault(_, let answer):
            answer.response.content!.effectiveHeaders(global: answer.tree.globalHeaders)
        case .script, .unavailable, .unreadable, .forward: []
        case .stream(let stream): stream.headers
        case .throttled(_, let decision), .delayed(_, let decision): decision.headers
        }
    }

    /// The bytes made for this request; nil for a response sent as configured.
    var madeBody: [UInt8]? {
        switch self {
        case .generated(let made), .admin(let made), .rendered(_, let made): made.body
        case .throttled(_, let decision), .delayed(_, let decision): decision.madeBody
        default: nil
        }
    }
}
