import EspressoMartini
import EspressoMartiniServer
import Logging

/// A tree loaded from files and made ready to serve, with the `Decider` the server would use: decisions
/// are made and checked in-process, without a socket.
struct DeciderFixture {
    let service: TreeService
    let journal = RequestJournal()
    let decider: Decider

    /// `files` are relative to the requests folder (`users/{id}/GET/configuration.json`); `folders` too.
    init(files: [String: String] = [:], folders: [String] = [], configuration: ServerConfiguration = ServerConfiguration()) throws {
        let fixture = FolderFixture(
            files: Dictionary(uniqueKeysWithValues: files.map { ("exchanges/" + $0.key, $0.value) }), folders: folders.map { "exchanges/" + $0 }
        )
        // The tree keeps no file open: inline bodies only, so the folder may go once loaded.
        let (tree, diagnostics, _) = try LoaderFixture.load(fixture)
        guard let tree else { throw FixtureError(description: diagnostics.all.map(\.description).joined(separator: "\n")) }
        var configuration = configuration
        configuration.requestsFolder = "/nonexistent"
        service = TreeService(
            tree: tree, configuration: configuration, loader: TreeLoader(parser: JanssonParser()), logger: Logger(label: "test"),
            releaseBuilt: { _ in }
        )
        decider = Decider(
            configuration: configuration, admin: configuration.admin ? AdminAPI(service: service, journal: journal, parser: JanssonParser()) : nil,
            parser: JanssonParser(), templates: TemplateEnvironment(cache: service.cache, mockServer: "http://127.0.0.1:8080")
        )
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decides as the server would, in the session named `session` (nil: the default one), and journals
    /// the request as the server does (admin requests aside).
    func decide(_ method: String, _ target: String, headers: [HTTPHeader] = [], session: String? = nil) -> Decision {
        let (path, query) = target.split(separator: "?", maxSplits: 1).map(String.init).splitPair
        var request = Request(method: method, path: path, rawQuery: query, headers: RequestHeaders(headers))
        request.session = session.map { service.sessions.session(named: $0) }
        let decision = decider.decide(request, tree: service.tree)
        if !decision.isAdmin { journal.record(request, answeredBy: decision, body: [], bodySize: 0) }
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
        case .exchange(let answer): "\(answer.statusCode) \(answer.exchange.method.name) \(answer.exchange.route) \(answer.position)"
        case .generated(let answer): "\(answer.statusCode) \(String(decoding: answer.body, as: UTF8.self))"
        case .admin(let answer): "admin \(answer.statusCode) \(String(decoding: answer.body, as: UTF8.self))"
        case .delayed(let seconds, let decision): "after \(seconds) s: \(decision.summary)"
        }
    }

    var headers: [HTTPHeader] {
        switch self {
        case .generated(let answer), .admin(let answer): answer.headers
        case .exchange(let answer): answer.rendered?.headers ?? answer.response.effectiveHeaders(global: answer.tree.globalHeaders)
        case .delayed(_, let decision): decision.headers
        }
    }
}
