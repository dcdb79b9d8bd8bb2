import Foundation

/// Another program the tests drive (`openssl`, `curl`, `chromium`): found on the PATH, run to its end
/// within a bounded time, its output captured in files so that a chatty tool never blocks on a pipe.
enum ExternalTool {
    /// The full path of `name` on the PATH, nil when it is not installed.
    static func path(of name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Outcome: Sendable, CustomStringConvertible {
        let status: Int32
        let timedOut: Bool
        let standardOutput: String
        let standardError: String

        var description: String {
            "\(timedOut ? "timed out (killed)" : "exit \(status)")\n--- stdout ---\n\(standardOutput)\n--- stderr ---\n\(standardError)"
        }
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `name ARGUMENTS` in `directory`; killed after `timeout` seconds.
    static func run(
        _ name: String, _ arguments: [String], in directory: URL? = nil, timeout: Double = 20
    ) async throws -> Outcome {
        guard let executable = path(of: name) else {
            throw Missing(description: "\(name) is not installed (make test-deps installs it)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout"), errorURL = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        func read(_ url: URL) -> String {
            String(decoding: FileManager.default.contents(atPath: url.path) ?? Data(), as: UTF8.self)
        }
        return Outcome(
            status: timedOut ? -1 : process.terminationStatus, timedOut: timedOut, standardOutput: read(outputURL),
            standardError: read(errorURL))
    }
}
