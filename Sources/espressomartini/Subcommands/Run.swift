import ArgumentParser
import Dispatch
import EspressoMartini
import EspressoMartiniServer
import Glibc
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the requests folder over HTTP until SIGINT or SIGTERM.",
        version: EspressoMartiniVersion.current
    )

    static let unavailableExitCode: Int32 = 69

    @OptionGroup var source: SourceOptions

    @Option(help: ArgumentHelp("The address to bind: 127.0.0.1, 0.0.0.0, ::1 or :: (which takes IPv4 too).", valueName: "host"))
    var hostname: String?

    // `.unconditional` so that `--port -1` and `--delay -1` are read as values and get a clear error.
    @Option(parsing: .unconditional, help: ArgumentHelp("The port; 0 lets the system pick.", valueName: "n"))
    var port: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait before every response that has no delay of its own.", valueName: "seconds"))
    var delay: Double?

    @Option(help: ArgumentHelp("TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR or CRITICAL.", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if let delay, !(delay >= 0) { throw ValidationError("--delay must be 0 or more seconds") }
        if let logLevel, ServerConfiguration.logLevel(named: logLevel) == nil {
            throw ValidationError("--log-level must be one of \(ServerConfiguration.logLevelNames.joined(separator: ", "))")
        }
    }

    func run() throws {
        var (configuration, diagnostics) = source.resolve()
        if let hostname { configuration.hostname = hostname }
        if let port { configuration.port = port }
        if let delay { configuration.delay = delay }
        if let logLevel, let level = ServerConfiguration.logLevel(named: logLevel) { configuration.logLevel = level }

        let level = configuration.logLevel
        LoggingSystem.bootstrap { _ in StandardErrorLogHandler(logLevel: level) }
        let logger = Logger(label: "espressomartini")

        let loader = TreeLoader(parser: JanssonParser())
        let (tree, treeDiagnostics) = loader.load(folder: configuration.requestsFolder)
        diagnostics.append(contentsOf: treeDiagnostics)
        try DiagnosticsReport.check(diagnostics, outcome: "espressomartini did not start")
        guard let tree else { return }

        var accessLog: AccessLog?
        if level <= .info {
            accessLog = { record in LogWriter.shared.append(StandardErrorLogHandler.prefix(.info), record) }
        }
        let server = MockServer(configuration: configuration, tree: tree, loader: loader, logger: logger, accessLog: accessLog)
        do {
            try server.start()
        } catch let error as MockServer.StartError {
            DiagnosticsReport.printError("espressomartini: \(error.description)")
            throw ExitCode(Self.unavailableExitCode)
        }
        // Exactly one line on standard output, written at once so that a reader sees it while we run.
        var ready = Array("espressomartini listening on http://\(server.address)\n".utf8)
        ready.withUnsafeMutableBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        logger.notice("serving \(tree.exchanges.count) exchanges from \(configuration.requestsFolder)")
        ServiceManager.ready(status: "serving \(tree.exchanges.count) exchanges on \(server.address)")

        var watcher: TreeWatcher?
        if configuration.watch {
            do {
                watcher = try TreeWatcher(folder: configuration.requestsFolder) { server.reload(reason: "files changed") }
            } catch {
                logger.warning("\(error); reload with SIGHUP or POST /__espressomartini/reload instead")
            }
        }
        withExtendedLifetime(watcher) {
            waitForStopSignal { server.reload(reason: "SIGHUP") }
        }
        ServiceManager.stopping()
        logger.notice("stopping: finishing the requests in flight")
        server.stop()
        LogWriter.shared.flush()
    }

    /// Blocks until SIGINT or SIGTERM, calling `onHangUp` for every SIGHUP. The signal sources must
    /// stay alive for real: an optimised build releases sources only assigned to `_`, and the signals
    /// are then ignored.
    private func waitForStopSignal(onHangUp: @escaping @Sendable () -> Void) {
        let stop = DispatchSemaphore(value: 0)
        signal(SIGPIPE, SIG_IGN)
        let sources = [SIGINT, SIGTERM, SIGHUP].map { (number: Int32) in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { if number == SIGHUP { onHangUp() } else { _ = stop.signal() } }
            source.resume()
            return source
        }
        withExtendedLifetime(sources) { stop.wait() }
    }
}
