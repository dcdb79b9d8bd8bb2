import Foundation
import Glibc
import Testing

/// The real `espressomartini` binary in a child process: standard output and standard error go to
/// files (so a chatty server never blocks on a full pipe, and tests can read them at any time).
/// Every wait is bounded; `stop` is idempotent and safe in a `defer`; `deinit` kills a leftover process.
final class ServerProcess: @unchecked Sendable {
    /// Bounded waits, in seconds.
    static let listeningTimeout: Double = 10
    static let exitTimeout: Double = 30

    let arguments: [String]
    let workingDirectory: URL
    private let process: Process
    private let outputFolder: URL
    private let standardOutputURL: URL
    private let standardErrorURL: URL
    private let lock = NSLock()
    private var outcome: ProcessOutcome?

    /// From the listening line, once `waitForListening` has seen it.
    private(set) var listeningLine = ""
    private(set) var host = ""
    private(set) var port = 0

    var client: HTTPClient { HTTPClient(host: host, port: port) }
    var pid: Int32 { process.processIdentifier }

    private init(arguments: [String], workingDirectory: URL, extraEnvironment: [String: String]) throws {
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        outputFolder = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("espressomartini-e2e-output-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        standardOutputURL = outputFolder.appendingPathComponent("stdout")
        standardErrorURL = outputFolder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: standardOutputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: standardErrorURL.path, contents: nil)

        process = Process()
        process.executableURL = URL(fileURLWithPath: EspressoMartiniBinary.path)
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = nil  // keep the terminal log format even when tests run under systemd
        // A thread-sanitizer build of the binary stops at the first race instead of carrying on
        // (unless the person running the tests chose otherwise in TSAN_OPTIONS).
        let tsan = environment["TSAN_OPTIONS"] ?? ""
        if !tsan.contains("halt_on_error") {
            environment["TSAN_OPTIONS"] = (tsan.isEmpty ? "" : tsan + " ") + "halt_on_error=1"
        }
        for (name, value) in extraEnvironment { environment[name] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let standardOutput = try FileHandle(forWritingTo: standardOutputURL)
        let standardError = try FileHandle(forWritingTo: standardErrorURL)
        process.standardOutput = standardOutput
        process.standardError = standardError
        defer {
            try? standardOutput.close()
            try? standardError.close()
        }
        guard FileManager.default.isExecutableFile(atPath: EspressoMartiniBinary.path) else {
            throw ServerProcessError(
                description:
                    "no executable at \(EspressoMartiniBinary.path); run `swift build` or set ESPRESSOMARTINI_BINARY")
        }
        // Start the server as a shell or systemd would, with the stop signals not blocked: a child
        // inherits the mask of the thread that spawns it, and the test runner's threads block them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopSignals, number) }
        var runnerMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, &runnerMask)
        defer { pthread_sigmask(SIG_SETMASK, &runnerMask, nil) }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: outputFolder)
    }

    // MARK: Starting

    /// Spawns the binary with `arguments` in `directory`; does not wait for anything.
    static func launch(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> ServerProcess {
        try ServerProcess(arguments: arguments, workingDirectory: directory, extraEnvironment: environment)
    }

    /// Spawns the binary and waits (bounded) for its listening line; on failure the process is stopped
    /// and the error carries what it wrote.
    static func start(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let server = try launch(arguments, in: directory, environment: environment)
        do {
            try await server.waitForListening()
        } catch {
            let outcome = server.stop(signal: SIGKILL)
            throw ServerProcessError(description: "\(error)\n\(outcome)")
        }
        return server
    }

    /// `espressomartini run --port 0 ARGUMENTS` in the tree's folder.
    static func serving(_ tree: TemporaryTree, _ arguments: [String] = []) async throws -> ServerProcess {
        try await start(["run", "--port", "0"] + arguments, in: tree.url)
    }

    /// Runs the binary to its end (bounded: killed after `timeout`) and returns how it ended.
    static func runToCompletion(
        _ arguments: [String], in directory: URL, timeout: Double = 10
    ) async throws -> ProcessOutcome {
        let process = try launch(arguments, in: directory)
        return await process.waitForExit(timeout: timeout)
    }

    /// Waits for `espressomartini listening on http://HOST:PORT` and keeps the host and port.
    func waitForListening(timeout: Double = ServerProcess.listeningTimeout) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            let text = standardOutput
            if let newline = text.firstIndex(of: "\n") {
                let line = String(text[..<newline])
                guard let (host, port) = Self.parseListeningLine(line) else {
                    throw ServerProcessError(description: "unexpected first line on standard output: '\(line)'")
                }
                lock.withLock {
                    listeningLine = line
                    self.host = host
                    self.port = port
                }
                return
            }
            if !process.isRunning {
                throw ServerProcessError(description: "\(arguments) ended before printing its listening line")
            }
            if ContinuousClock.now >= deadline {
                throw ServerProcessError(description: "no listening line within \(timeout) s from \(arguments)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// `espressomartini listening on http://127.0.0.1:8080` → ("127.0.0.1", 8080);
    /// `…http://[::1]:8080` → ("::1", 8080); `https://` likewise.
    static func parseListeningLine(_ line: String) -> (host: String, port: Int)? {
        let prefixes = ["espressomartini listening on http://", "espressomartini listening on https://"]
        guard let prefix = prefixes.first(where: line.hasPrefix) else { return nil }
        let address = line.dropFirst(prefix.count)
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { return nil }
        } else if host.contains(":") || host.isEmpty {
            return nil
        }
        return (host, port)
    }

    // MARK: Output

    var standardOutput: String { Self.read(standardOutputURL) }
    var standardError: String { Self.read(standardErrorURL) }

    private static func read(_ url: URL) -> String {
        String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
    }

    /// Waits (bounded) until standard error holds a line for which `predicate` is true; returns it.
    func waitForStandardErrorLine(timeout: Double = 20, where predicate: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            if let line = standardError.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Stopping

    var isRunning: Bool { process.isRunning }

    func send(signal number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Sends `signal` (SIGTERM by default) if the process still runs and waits (bounded) for its exit;
    /// a process that does not exit in time is killed. Idempotent: later calls return the same outcome.
    /// When SIGTERM or SIGINT did not end the process with exit 0 (a crash, a sanitizer report, a hang),
    /// an issue is recorded even where the test does not look at the outcome.
    @discardableResult
    func stop(signal number: Int32 = SIGTERM, timeout: Double = ServerProcess.exitTimeout) -> ProcessOutcome {
        if let known = lock.withLock({ outcome }) { return known }
        send(signal: number)
        let result = waitForExitBlocking(timeout: timeout)
        if number == SIGTERM || number == SIGINT {
            Self.recordUnclean(result, arguments: arguments)
        }
        return result
    }

    static func recordUnclean(_ outcome: ProcessOutcome, arguments: [String]) {
        let sanitizer =
            outcome.standardError.contains("ThreadSanitizer") || outcome.standardError.contains("AddressSanitizer")
        let crash = outcome.standardError.contains("Fatal error") || outcome.signal != nil
        if outcome.exitCode != 0 || sanitizer || crash || outcome.timedOut {
            Issue.record("espressomartini \(arguments.joined(separator: " ")) did not stop cleanly: \(outcome)")
        }
    }

    /// Waits (bounded) for the process to end by itself; killed when it does not.
    func waitForExit(timeout: Double = ServerProcess.exitTimeout) async -> ProcessOutcome {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return finish()
    }

    private func waitForExitBlocking(timeout: Double) -> ProcessOutcome {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while process.isRunning && ContinuousClock.now < deadline {
            usleep(5_000)
        }
        return finish()
    }

    private func finish() -> ProcessOutcome {
        if let known = lock.withLock({ outcome }) { return known }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            let deadline = ContinuousClock.now + .seconds(5)
            while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        }
        let running = process.isRunning
        let byExit = !running && process.terminationReason == .exit
        let result = ProcessOutcome(
            exitCode: running ? nil : byExit ? process.terminationStatus : nil,
            signal: running ? SIGKILL : byExit ? nil : process.terminationStatus,
            timedOut: timedOut,
            standardOutput: standardOutput,
            standardError: standardError
        )
        return lock.withLock {
            if outcome == nil { outcome = result }
            return outcome!
        }
    }
}
