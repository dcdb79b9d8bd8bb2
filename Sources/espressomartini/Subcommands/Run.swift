import EspressoMartini
import EspressoMartiniCommandLine
import EspressoMartiniDaemon
import EspressoMartiniJansson
import EspressoMartiniScripting
import EspressoMartiniServer
import Glibc
import Logging

struct Run: Command {
    static let hostnameOption = OptionDefinition.option(
        "hostname", valueName: "host",
        help: "The address to bind: 127.0.0.1, 0.0.0.0, ::1 or :: (which takes IPv4 too)."
    )
    static let portOption = OptionDefinition.option(
        "port", .integerRange, valueName: "n|a-b",
        help: "The port; 0 lets the system pick; a range such as 8080-8090 takes its first free port."
    )
    static let delayOption = OptionDefinition.option(
        "delay", .number, valueName: "seconds",
        help: "Seconds to wait before every response that has no delay of its own."
    )
    static let logLevelOption = OptionDefinition.option(
        "log-level", valueName: "level", help: "TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR or CRITICAL.",
        completion: .words(ServerConfiguration.logLevelNames)
    )

    static let corsOption = OptionDefinition.flag(
        "cors", help: "Answer CORS preflights and add CORS headers to every answer, for web pages on other origins."
    )
    static let tlsCertificateOption = OptionDefinition.option(
        "tls-certificate", valueName: "file",
        help: "Serve HTTPS with this PEM certificate (and chain); needs a key too.", completion: .files
    )
    static let tlsKeyOption = OptionDefinition.option(
        "tls-key", valueName: "file", help: "The PEM private key of the HTTPS certificate.", completion: .files
    )
    static let proxyOption = OptionDefinition.option(
        "proxy", valueName: "url",
        help: "Forward the requests the tree has no answer for to this URL (http:// or https://)."
    )
    static let recordFlag = OptionDefinition.flag(
        "record",
        help: "With a proxy: write each forwarded request and its answer into the tree, which then answers it."
    )

    static let definition = CommandDefinition(
        name: "run", abstract: "Serve the requests folder over HTTP or HTTPS until SIGINT or SIGTERM.",
        options: SourceOptions.options + [
            hostnameOption, portOption, delayOption, logLevelOption, corsOption, tlsCertificateOption, tlsKeyOption,
            proxyOption, recordFlag,
        ],
        make: { arguments throws(UsageError) in try Run(arguments) }
    )

    var source: SourceOptions
    var hostname: String?
    var port: Int?
    var portRange: ClosedRange<Int>?
    var delay: Double?
    var logLevel: Logger.Level?
    var cors: Bool
    var tlsCertificate: String?
    var tlsKey: String?
    var proxy: ProxyTarget?
    var record: Bool

    /// Reads the options and rejects values the server cannot use.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = SourceOptions(arguments)
        hostname = arguments.text(Self.hostnameOption)
        delay = arguments.number(Self.delayOption)
        cors = arguments.isSet(Self.corsOption)
        tlsCertificate = arguments.text(Self.tlsCertificateOption)
        tlsKey = arguments.text(Self.tlsKeyOption)
        (port, portRange) = try Self.port(arguments, command: Self.definition)
        if let delay, !(delay >= 0) { throw Self.invalid("\(Self.delayOption.longSpelling) must be 0 or more seconds") }
        logLevel = try Self.logLevel(arguments, command: Self.definition)
        proxy = try Self.target(arguments, option: Self.proxyOption, command: Self.definition)
        record = arguments.isSet(Self.recordFlag)
    }

    /// `--port N` or `--port A-B`.
    static func port(
        _ arguments: ParsedArguments, command: CommandDefinition
    ) throws(UsageError) -> (Int?, ClosedRange<Int>?) {
        guard let (first, last) = arguments.integerRange(portOption) else { return (nil, nil) }
        if first == last {
            guard (0...65535).contains(first) else {
                throw UsageError(message: "\(portOption.longSpelling) must be from 0 to 65535", command: command)
            }
            return (first, nil)
        }
        if let problem = ServerConfiguration.portRangeProblem(first: first, last: last) {
            throw UsageError(message: "\(portOption.longSpelling) \(first)-\(last) \(problem)", command: command)
        }
        return (first, first...last)
    }

    /// `--log-level L`.
    static func logLevel(_ arguments: ParsedArguments, command: CommandDefinition) throws(UsageError) -> Logger.Level? {
        guard let name = arguments.text(logLevelOption) else { return nil }
        guard let level = ServerConfiguration.logLevel(named: name) else {
            throw UsageError(
                message:
                    "\(logLevelOption.longSpelling) must be one of \(ServerConfiguration.logLevelNames.joined(separator: ", "))",
                command: command)
        }
        return level
    }

    /// A proxy target URL given with `option`.
    static func target(
        _ arguments: ParsedArguments, option: OptionDefinition, command: CommandDefinition
    ) throws(UsageError) -> ProxyTarget? {
        guard let text = arguments.text(option) else { return nil }
        switch ProxyTarget.parse(text) {
        case .success(let target): return target
        case .failure(let problem):
            throw UsageError(message: "\(option.longSpelling) \(problem.message)", command: command, option: option)
        }
    }

    /// `--tls-certificate` and `--tls-key` over the configuration's `tls`: one flag replaces that file
    /// of the configuration's pair; without a pair in the configuration, both flags are needed.
    private func applyTLSFlags(to configuration: inout ServerConfiguration) throws(UsageError) {
        guard tlsCertificate != nil || tlsKey != nil else { return }
        guard let certificate = tlsCertificate ?? configuration.tls?.certificate,
            let key = tlsKey ?? configuration.tls?.key
        else {
            let missing = tlsCertificate == nil ? Self.tlsCertificateOption : Self.tlsKeyOption
            throw Self.invalid("HTTPS needs \(missing.longSpelling) too (or \"tls\" in the configuration file)")
        }
        configuration.tls = TLSFiles(certificate: certificate, key: key)
    }

    private static func invalid(_ message: String) -> UsageError { UsageError(message: message, command: definition) }

    /// `--hostname`, `--port` and `--log-level` over the configuration (`run` and `record` take them).
    static func apply(
        hostname: String?, port: Int?, portRange: ClosedRange<Int>?, logLevel: Logger.Level?,
        to configuration: inout ServerConfiguration
    ) {
        if let hostname { configuration.hostname = hostname }
        if let port {
            configuration.port = port
            configuration.portRange = portRange
        }
        if let logLevel { configuration.logLevel = logLevel }
    }

    func run() throws {
        StopSignals.block()
        var (configuration, diagnostics) = source.resolve()
        Self.apply(hostname: hostname, port: port, portRange: portRange, logLevel: logLevel, to: &configuration)
        if let delay { configuration.delay = delay }
        if cors { configuration.cors = true }
        try applyTLSFlags(to: &configuration)
        if let proxy {
            var proxied = configuration.proxy ?? ProxyConfiguration(target: proxy)
            proxied.target = proxy
            configuration.proxy = proxied
        }
        if record {
            guard configuration.proxy != nil else {
                throw Self.invalid(
                    "\(Self.recordFlag.longSpelling) records what a proxy forwards: give \(Self.proxyOption.longSpelling) URL too (or \"proxy\" in the configuration file)"
                )
            }
            configuration.proxy?.records = true
        }
        try Self.serve(configuration, diagnostics: diagnostics, recording: RecordingOptions())
    }

    /// Serves the tree of `configuration` until SIGINT or SIGTERM (after the problems found so far,
    /// `diagnostics`, are reported); with a proxy that records, writes its answers with `recording`, and says
    /// what it recorded when it stops.
    static func serve(
        _ configuration: ServerConfiguration, diagnostics: Diagnostics, recording: RecordingOptions
    ) throws {
        var diagnostics = diagnostics
        let level = configuration.logLevel
        LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level) }
        let logger = Logger(label: "espressomartini")
        // A recording proxy writes the tree: it starts from an empty one when the folder is missing.
        if configuration.proxy?.records == true, FileSystem.kind(of: configuration.requestsFolder) == nil {
            do {
                try TreeWriter.makeFolders(configuration.requestsFolder)
            } catch {
                StandardError.printLine("espressomartini: \(error)")
                throw ExitStatus.cannotCreate
            }
        }

        // Bound before the tree is read: a client that connects while a large tree loads is answered
        // once it is ready, instead of being refused. The tree's errors are still reported first.
        let socket = Result { () throws(ListenSocket.BindError) in
            if let range = configuration.portRange {
                return try ListenSocket.firstFree(hostname: configuration.hostname, ports: range)
            }
            return try ListenSocket(hostname: configuration.hostname, port: configuration.port)
        }
        let parser = JanssonParser()
        let loader = TreeLoader(
            parser: parser, scriptChecker: JavaScriptCoreChecker(limits: ScriptLimits(configuration), parser: parser))
        let (tree, treeDiagnostics) = loader.load(folder: configuration.requestsFolder)
        diagnostics.append(contentsOf: treeDiagnostics)
        if let files = configuration.tls {
            guard HTTPServer.servesTLS else {
                StandardError.printLine(
                    "espressomartini: this libmicrohttpd was built without TLS (GnuTLS); 'tls' cannot be served")
                throw ExitStatus.unavailable
            }
            // Installed now when good: the listener presents it from its first handshake.
            diagnostics.append(contentsOf: HTTPServer.installCertificate(files))
        }
        try DiagnosticsReport.check(diagnostics, outcome: "espressomartini did not start")
        guard let tree else { return }

        var accessLog: AccessLog?
        if level <= .info {
            accessLog = { record in LogWriter.shared.append(.info, record) }
        }
        let observer = TreeService.ReloadObserver(
            started: { ServiceManager.reloading() },
            ended: { exchanges in ServiceManager.ready(status: "serving \(exchanges) exchanges") }
        )
        // Everything the server uses, made here.
        let service = TreeService(
            tree: tree, configuration: configuration, loader: loader, logger: logger, observer: observer)
        let journal =
            configuration.admin
            ? RequestJournal(capacity: configuration.journalSize, redactsCredentials: configuration.proxy != nil) : nil
        let decider = Decider(
            configuration: configuration, admin: journal.map { AdminAPI(service: service, journal: $0) },
            parser: parser,
            templates: TemplateEnvironment(cache: service.cache)
        )
        let scripts = ScriptRunner(
            limits: ScriptLimits(configuration), parser: parser, logger: logger, threads: HTTPServer.coreCount)
        var recording = recording
        if let proxy = configuration.proxy {
            recording.targetURL = TargetURLRewrite(target: proxy.target)
            recording.mockScheme = configuration.tls == nil ? "http" : "https"
        }
        let recorder =
            configuration.proxy?.records == true
            ? ExchangeRecorder(
                requestsFolder: configuration.requestsFolder, schema: StarterTree.installedExchangeSchema,
                options: recording, parser: parser) : nil
        let server: HTTPServer
        do {
            server = try HTTPServer(
                configuration: configuration, service: service, decider: decider, journal: journal, scripts: scripts,
                accessLog: accessLog,
                recorder: recorder, logger: logger
            )
            try server.start(on: socket.get())
        } catch {
            StandardError.printLine("espressomartini: \(error)")
            throw ExitStatus.unavailable
        }
        let signals = StopSignals {
            server.service.reload(reason: "SIGHUP")
            server.reloadCertificate(logger: logger)
        }
        // Watching before saying it listens: an edit made as soon as the server listens is served.
        var watcher: TreeWatcher?
        if configuration.watch {
            do {
                watcher = try TreeWatcher(folder: configuration.requestsFolder) {
                    server.service.reload(reason: "files changed")
                }
            } catch {
                logger.warning("\(error); reload with SIGHUP or POST /__espressomartini/reload instead")
            }
        }
        // Exactly one line on standard output, written at once so that a reader sees it while we run.
        var ready = Array("espressomartini listening on \(server.scheme)://\(server.address)\n".utf8)
        ready.withUnsafeMutableBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        logger.notice("serving \(tree.exchanges.count) exchanges from \(configuration.requestsFolder)")
        if let proxy = configuration.proxy {
            switch (proxy.forwards, proxy.records) {
            case (.everything, _):
                logger.notice(
                    "forwarding every request to \(proxy.target) and recording it into \(configuration.requestsFolder)")
            case (.misses, true):
                logger.notice("forwarding the requests the tree does not answer to \(proxy.target), and recording them")
            case (.misses, false): logger.notice("forwarding the requests the tree does not answer to \(proxy.target)")
            }
        }
        ServiceManager.ready(status: "serving \(tree.exchanges.count) exchanges on \(server.address)")

        signals.wait()
        watcher?.stop()
        ServiceManager.stopping()
        logger.notice("stopping: finishing the requests in flight")
        server.stop()
        LogWriter.shared.flush()
        if let (exchanges, responses, notRecorded) = server.recorded {
            let missed =
                notRecorded == 0
                ? "" : "; \(notRecorded) answer\(notRecorded == 1 ? "" : "s") not recorded (the log says why)"
            print(
                "recorded \(exchanges) exchange\(exchanges == 1 ? "" : "s"), \(responses) response\(responses == 1 ? "" : "s") into \(configuration.requestsFolder)\(missed)"
            )
        }
    }
}
