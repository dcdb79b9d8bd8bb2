import EspressoMartini
import EspressoMartiniJansson
import Logging

/// One fuzz input, loaded the way `run`, `endpoints` and a reload load it, with properties checked on the
/// way: whatever the bytes, nothing traps, and
/// - valid JSON printed back as compact text (as inline bodies and `endpoints --json` are sent) parses
///   to the same value;
/// - a configuration that does not parse is an error and no tree; a tree always has both exchanges;
/// - every position in a message is at line and column 1 or more;
/// - a server configuration keeps every setting in its documented range, whatever the file says;
/// - a runtime exchange's body (an input starting with `R`, as `POST /__espressomartini/exchanges` reads it)
///   is added exactly when it has no error, and then serves a request to its route.
struct TreeLoaderCase {
    static let parser = JanssonParser()
    static let loader = TreeLoader(parser: parser)
    /// The service runtime exchanges are added to, over the scratch tree.
    static let service: TreeService = {
        let tree = ScratchTree.shared
        // The method folder holds whatever input came before: a valid configuration for this one load.
        tree.write(Array(#"{"body": 1}"#.utf8), to: tree.methodFolderConfiguration)
        guard let loaded = loader.load(folder: tree.requestsFolder).tree else {
            fatalError("the scratch tree does not load")
        }
        var configuration = ServerConfiguration()
        configuration.requestsFolder = tree.requestsFolder
        return TreeService(
            tree: loaded, configuration: configuration, loader: loader, logger: Logger(label: "fuzz"))
    }()

    let bytes: [UInt8]
    let isServerConfiguration: Bool
    let isRuntimeExchange: Bool

    init(input: [UInt8]) {
        isServerConfiguration = input.first == UInt8(ascii: "S")
        isRuntimeExchange = input.first == UInt8(ascii: "R")
        bytes = isServerConfiguration || isRuntimeExchange ? Array(input.dropFirst()) : input
    }

    func check() {
        let parsed = Self.parser.parse(bytes)
        if case .success(let document) = parsed {
            checkRoundTrip(document)
            let map = JSONSourceMap(bytes)
            checkPosition(map.value([]))
            if case .object(let members) = document {
                for member in members.prefix(8) {
                    checkPosition(map.key([member.key]))
                    checkPosition(map.value([member.key]))
                }
            }
        }
        let tree = ScratchTree.shared
        if isRuntimeExchange {
            checkRuntimeExchange(parsed: parsed)
        } else if isServerConfiguration {
            tree.write(bytes, to: tree.serverConfiguration)
            let (configuration, diagnostics) = ServerConfiguration.load(
                file: tree.serverConfiguration, parser: Self.parser)
            check(diagnostics, parsed: parsed)
            require((0...65535).contains(configuration.port), "port \(configuration.port)")
            require(configuration.delay >= 0 && !configuration.delay.isNaN, "delay \(configuration.delay)")
            require(
                (1...86_400).contains(configuration.connectionTimeout),
                "connection_timeout \(configuration.connectionTimeout)")
            require(
                (1...65_536).contains(configuration.connectionLimit),
                "connection_limit \(configuration.connectionLimit)")
            require(
                !configuration.hostname.isEmpty && !configuration.requestsFolder.isEmpty,
                "empty hostname or requests folder")
        } else {
            tree.write(bytes, to: tree.methodFolderConfiguration)
            let (loaded, diagnostics) = Self.loader.load(folder: tree.requestsFolder)
            check(diagnostics, parsed: parsed)
            require((loaded == nil) == diagnostics.hasErrors, "a tree with errors, or no tree without any")
            guard let loaded else { return }
            require(loaded.exchanges.count == 2, "\(loaded.exchanges.count) exchanges instead of 2")
            for response in loaded.exchanges.flatMap(\.responses) {
                let status = response.content?.statusCode ?? 200
                require((200...599).contains(status), "status \(status)")
                require(
                    response.delay.map { delay in
                        switch delay {
                        case .fixed(let seconds): seconds >= 0
                        case .uniform(let min, let max): 0 <= min && min <= max
                        case .lognormal(let median, let sigma, let max):
                            median > 0 && sigma >= 0 && (max ?? median) >= median
                        }
                    } ?? true, "delay \(String(describing: response.delay))")
                require(
                    response.network?.bytesPerSecond.map { $0 > 0 } ?? true,
                    "bandwidth \(String(describing: response.network))")
                require(response.stream.map { !$0.chunks.isEmpty } ?? true, "an empty stream")
            }
            _ = loaded.listing  // `endpoints`
            checkRoundTrip(loaded.listingJSON)  // `endpoints --json`
            for path in ["/api/7", "/api/list", "/api"] {
                _ = loaded.resolve(RequestPath(path), method: .get)
            }
        }
    }

    private func checkRuntimeExchange(parsed: Result<JSONValue, JSONSyntaxError>) {
        let service = Self.service
        switch service.addRuntimeExchange(bytes, session: nil) {
        case .added(let runtime, let diagnostics):
            check(diagnostics, parsed: parsed)
            require(!diagnostics.hasErrors, "a runtime exchange added with errors")
            let exchange = runtime.exchange
            let path = RequestPath(exchange.route.segments.map { $0.literalText ?? "x" }.joined(separator: "/"))
            let served = service.served
            let route = served.runtime?.resolve(
                path, method: exchange.method, session: nil, base: served.tree.exchangeTree)
            require(route != nil, "a runtime exchange added but not seen")
            require(service.removeRuntimeExchange(id: exchange.runtimeID), "a runtime exchange that cannot be removed")
        case .refused(let diagnostics):
            check(diagnostics, parsed: parsed)
            require(diagnostics.hasErrors, "a runtime exchange refused without an error")
        case .full:
            require(false, "runtime exchanges left behind")
        }
    }

    private func check(_ diagnostics: Diagnostics, parsed: Result<JSONValue, JSONSyntaxError>) {
        for diagnostic in diagnostics.all {
            if let position = diagnostic.position { checkPosition(position) }
            require(!diagnostic.description.isEmpty, "an empty message")
        }
        if case .failure = parsed {
            require(diagnostics.hasErrors, "invalid JSON loaded without an error")
        }
        _ = diagnostics.summary
    }

    private func checkRoundTrip(_ value: JSONValue) {
        let text = value.compactText
        guard case .success(let again) = Self.parser.parse(Array(text.utf8)) else {
            return require(false, "compact text does not parse: \(text.prefix(200))")
        }
        require(again == value, "compact text parses to another value: \(text.prefix(200))")
    }

    private func checkPosition(_ position: SourcePosition) {
        require(position.line >= 1 && position.column >= 1, "position \(position.line):\(position.column)")
    }

    private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("tree loader property broken: \(message())") }
    }
}
