@testable import EspressoMartiniCommandLine
import Foundation
import Testing

/// Each completion script of `TestProgram` read by its shell, where the shell is installed.
@Suite struct CompletionScriptSyntaxTests {
    static let shellPaths: [(CompletionShell, String)] = [
        (.bash, "/bin/bash"), (.zsh, "/usr/bin/zsh"), (.fish, "/usr/bin/fish"),
    ]

    /// `SHELL -n` reads the script without running it: the quoting of `'`, `[`, `]` and `:` in the texts holds.
    @Test(arguments: shellPaths)
    func isValidForItsShellWhenInstalled(_ shell: CompletionShell, _ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tool-completion-\(UUID().uuidString).\(shell)")
        try Data(shell.script(for: TestProgram.root).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-n", file.path]
        let errors = Pipe()
        check.standardError = errors
        try check.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while check.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if check.isRunning { check.terminate() }
        check.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(check.terminationStatus == 0, "\(shell) -n: \(message)")
    }
}
