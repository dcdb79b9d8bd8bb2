import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `espressomartini run` child process: started on a free port, its output drained all along (so that a
/// chatty server never blocks on a full pipe) and kept in part for messages, stopped with SIGTERM, then
/// SIGKILL when it does not end in time. Every wait is bounded.
final class ServerProcess: @unchecked Sendable {
    static let executableName = "espressomartini"
    /// Output kept for messages: the first line and the last bytes of each stream.
    static let keptOutput = 16 * 1024
    /// How long `stop` lets requests in flight finish before it kills the process (the server's own
    /// grace for them is 10 s).
    static let stopTimeout: Double = 12

    private let process = Process()
    private let standardOutput = OutputTail()
    private let standardError = OutputTail()
    private let lock = NSLock()
    private var stopped = false

    /// `http://127.0.0.1:PORT`, from the listening line.
    private(set) var baseURL: URL!
    /// The requests folder it serves, absolute.
    let requestsFolder: String
    /// The exchanges' temporary tree when it serves one (`MockServer.start(exchanges:)`), removed with the
    /// process.
    let declaredTree: DeclaredTree?

    private init(requestsFolder: String, declaredTree: DeclaredTree?) {
        self.requestsFolder = requestsFolder
        self.declaredTree = declaredTree
    }

    /// Starts `executable` (found on `PATH` when nil) serving `requestsFolder` (the folder of `declaredTree`,
    /// when given, which it then owns), with the server configuration file `configuration` if given, and
    /// waits up to `timeout` seconds for its listening line.
    static func start(
        requestsFolder: String, declaredTree: DeclaredTree? = nil, executable: String?, configuration: String?,
        timeout: Double
    ) throws -> ServerProcess {
        let server = ServerProcess(requestsFolder: absolute(requestsFolder), declaredTree: declaredTree)
        let path = try executable.map(absolute) ?? findOnPath()
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MockServerError.executableNotFound("\(path) is not an executable file")
        }
        var arguments = ["run", "--port", "0", "--requests-folder", server.requestsFolder]
        if let configuration { arguments += ["--configuration", absolute(configuration)] }
        try server.run(path, arguments)
        do {
            try server.waitForListeningLine(timeout: timeout)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    deinit {
        stop()
    }

    /// The executable named `espressomartini` in the first folder of `PATH` that has one.
    static func findOnPath() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(executableName)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw MockServerError.executableNotFound(
            "no \(executableName) in any folder of PATH (\(path)); install it (make install), or pass executable: with its path"
        )
    }

    /// `path` against the current folder: the server runs in a folder of its own.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    private func run(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Not the test's current folder: a configuration.json there would be read in place of the defaults.
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw MockServerError.didNotStart("cannot run \(executable): \(error)")
        }
        standardOutput.drain(output.fileHandleForReading)
        standardError.drain(errors.fileHandleForReading)
    }

    /// Waits for `espressomartini listening on http://HOST:PORT`; throws with what the process printed
    /// when it ends first, prints something else, or says nothing in time.
    private func waitForListeningLine(timeout: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let line = standardOutput.firstLine {
                guard let url = Self.baseURL(fromListeningLine: line) else {
                    throw MockServerError.didNotStart("its first line was not the listening line: \(line)\(outputs)")
                }
                baseURL = url
                return
            }
            if !process.isRunning {
                standardOutput.waitForEnd(until: Date(timeIntervalSinceNow: 1))
                standardError.waitForEnd(until: Date(timeIntervalSinceNow: 1))
                throw MockServerError.didNotStart("it ended with \(exitDescription) before listening\(outputs)")
            }
            guard Date() < deadline else {
                throw MockServerError.didNotStart("no listening line within \(timeout) s\(outputs)")
            }
            standardOutput.waitForChange(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
        }
    }

    /// The URL to reach the server at: `http://127.0.0.1:8080` from `… listening on http://127.0.0.1:8080`,
    /// a wildcard address (`0.0.0.0`, `::`) replaced by loopback.
    static func baseURL(fromListeningLine line: String) -> URL? {
        let marker = " listening on "
        guard line.hasPrefix(executableName + marker), let range = line.range(of: "://") else { return nil }
        let scheme = line[line.index(line.startIndex, offsetBy: executableName.count + marker.count)..<range.lowerBound]
        var address = String(line[range.upperBound...])
        if address.hasPrefix("0.0.0.0:") { address = "127.0.0.1" + address.dropFirst("0.0.0.0".count) }
        if address.hasPrefix("[::]:") { address = "[::1]" + address.dropFirst("[::]".count) }
        return URL(string: "\(scheme)://\(address)")
    }

    /// Stops the server: SIGTERM, then SIGKILL after `stopTimeout`; then removes the declared tree.
    /// Idempotent; returns once it has ended.
    func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        defer { declaredTree?.remove() }
        guard process.processIdentifier > 0 else { return }
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date(timeIntervalSinceNow: Self.stopTimeout)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            let last = Date(timeIntervalSinceNow: 5)
            while process.isRunning, Date() < last { usleep(2_000) }
        }
    }

    var isRunning: Bool { process.isRunning }

    private var exitDescription: String {
        process.terminationReason == .uncaughtSignal
            ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    }

    /// What the process printed, for messages.
    private var outputs: String {
        var text = ""
        for (name, tail) in [("standard output", standardOutput), ("standard error", standardError)] {
            let printed = tail.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !printed.isEmpty { text += "\n--- \(name) ---\n\(printed)" }
        }
        return text.isEmpty ? "; it printed nothing" : text
    }
}
