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

    /// Starts `executable` (found on `PATH` when nil) serving `requestsFolder`, with the server
    /// configuration file `configuration` if given, and waits up to `timeout` seconds for its listening line.
    static func start(
        requestsFolder: String, executable: String?, configuration: String?, timeout: Double
    ) throws -> ServerProcess {
        let path = try executable.map(absolute) ?? findOnPath()
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MockServerError.executableNotFound("\(path) is not an executable file")
        }
        var arguments = ["run", "--port", "0", "--requests-folder", absolute(requestsFolder)]
        if let configuration { arguments += ["--configuration", absolute(configuration)] }
        let server = ServerProcess()
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

    /// Stops the server: SIGTERM, then SIGKILL after `stopTimeout`. Idempotent; returns once it has ended.
    func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first, process.processIdentifier > 0 else { return }
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

/// One output stream of the process, read on a thread of its own until it ends: its first line, and its
/// last `ServerProcess.keptOutput` bytes.
final class OutputTail: @unchecked Sendable {
    private let condition = NSCondition()
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    private var ended = false

    func drain(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                condition.withLock {
                    if data.isEmpty {
                        ended = true
                    } else {
                        if head.count < ServerProcess.keptOutput {
                            head += data.prefix(ServerProcess.keptOutput - head.count)
                        }
                        tail += data
                        if tail.count > ServerProcess.keptOutput {
                            tail.removeFirst(tail.count - ServerProcess.keptOutput)
                        }
                    }
                    condition.broadcast()
                }
                if data.isEmpty { return }
            }
        }
        thread.name = "espressomartini output"
        thread.start()
    }

    /// The first line, once it is whole.
    var firstLine: String? {
        condition.withLock {
            head.firstIndex(of: UInt8(ascii: "\n")).map { String(decoding: head[..<$0], as: UTF8.self) }
        }
    }

    var text: String {
        condition.withLock { String(decoding: tail, as: UTF8.self) }
    }

    func waitForChange(until deadline: Date) {
        condition.withLock { _ = ended || condition.wait(until: deadline) }
    }

    func waitForEnd(until deadline: Date) {
        condition.withLock {
            while !ended, condition.wait(until: deadline) {}
        }
    }
}
