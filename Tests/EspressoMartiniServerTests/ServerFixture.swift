import Foundation
@testable import EspressoMartiniServer
import EspressoMartini
import EspressoMartiniJansson
import Logging

/// A tree built in memory (one exchange per route, inline bodies or files named by path) and everything the
/// server is given, as `run` makes it, with a fake script engine: requests go through `HTTPServer.receive`
/// on fake connections, without a daemon.
struct ServerFixture {
    let service: TreeService
    let journal = RequestJournal()
    let decider: Decider
    let scripts: FakeScriptEngine
    let server: HTTPServer
    let accessLog = AccessLogRecords()
    private let connections = ConnectionsMade()

    /// `variants`, when given, are each exchange's in turn.
    init(
        _ exchanges: [(HTTPMethod, String, [ConfiguredResponse])], variants: [[Variant]]? = nil,
        configuration: ServerConfiguration = ServerConfiguration(),
        scriptAnswer: GeneratedAnswer = GeneratedAnswer(statusCode: 418, headers: [], body: Array("teapot".utf8))
    ) {
        var builder = RouteTrie.Builder()
        let made = exchanges.enumerated().map { index, exchange in
            let route = RoutePattern(parsing: exchange.1)
            _ = builder.insert(route, method: exchange.0, exchange: index)
            return Exchange(
                method: exchange.0, route: route, methodFolderName: exchange.0.name, responses: exchange.2,
                variants: variants?[index] ?? [])
        }
        let tree = ExchangeTree(
            exchanges: made, trie: builder.freeze(), folder: "/nonexistent", realFolder: "/nonexistent")
        var configuration = configuration
        configuration.requestsFolder = "/nonexistent"
        service = TreeService(
            tree: tree, configuration: configuration, loader: TreeLoader(parser: JanssonParser()),
            logger: Logger(label: "test"))
        decider = Decider(
            configuration: configuration, admin: AdminAPI(service: service, journal: journal), parser: JanssonParser(),
            templates: TemplateEnvironment(cache: service.cache, mockServer: "http://127.0.0.1:8080")
        )
        scripts = FakeScriptEngine(answering: scriptAnswer)
        let records = accessLog
        server = try! HTTPServer(
            configuration: configuration, service: service, decider: decider, journal: journal, scripts: scripts,
            accessLog: { records.append($0) }
        )
    }

    /// Sends one request through the server's handler as libmicrohttpd would: the headers, the body in
    /// one piece, then the end; then, while the connection is suspended (a delay, a script), waits for it to
    /// resume and ends the request again. Returns the connection, to see what was queued on it.
    @discardableResult
    func request(
        _ method: String, _ path: String, headers: [HTTPHeader] = [], body: String = ""
    ) -> (FakeConnection, handled: Bool) {
        let connection = FakeConnection(headers: headers)
        connections.append(connection)
        let (rawPath, query) = path.split(separator: "?", maxSplits: 1).map(String.init).pair
        let state = server.requestStarted(uri: query.isEmpty ? rawPath : rawPath + "?" + query)
        var handled = method.withCString { method in
            rawPath.withCString { url in
                var handled = server.receive(
                    state, on: connection, url: url, method: method, body: UnsafeRawBufferPointer(start: nil, count: 0))
                if !body.isEmpty {
                    handled =
                        handled
                        && Array(body.utf8).withUnsafeBytes {
                            server.receive(state, on: connection, url: url, method: method, body: $0)
                        }
                }
                return handled
                    && server.receive(
                        state, on: connection, url: url, method: method,
                        body: UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
        var ended = 0
        while handled, connection.suspensions > ended {
            ended += 1
            guard connection.wait(until: { connection.resumptions >= ended }) else { break }
            handled = method.withCString { method in
                rawPath.withCString { url in
                    server.receive(
                        state, on: connection, url: url, method: method,
                        body: UnsafeRawBufferPointer(start: nil, count: 0))
                }
            }
        }
        server.requestCompleted(state)
        return (connection, handled)
    }
}

/// The access log's records, kept for the test.
final class AccessLogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [AccessLogRecord] = []

    func append(_ record: AccessLogRecord) { lock.withLock { records.append(record) } }
    var all: [AccessLogRecord] { lock.withLock { records } }
}

extension [String] {
    fileprivate var pair: (String, String) { (self.first ?? "", count > 1 ? self[1] : "") }
}
