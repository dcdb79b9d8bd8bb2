import Foundation

/// A Python script of the tests run with Debian's Python, which the Debian packages of `make test-deps`
/// (python3-jsonschema, python3-yaml) serve, else with the `python3` on PATH.
enum DebianPython {
    /// A process that runs `script` with `arguments`, not started yet.
    static func process(running script: String, _ arguments: [String]) -> Process {
        let process = Process()
        let debianPython = "/usr/bin/python3"
        if FileManager.default.isExecutableFile(atPath: debianPython) {
            process.executableURL = URL(fileURLWithPath: debianPython)
            process.arguments = [script] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script] + arguments
        }
        return process
    }
}
