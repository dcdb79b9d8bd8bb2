import ArgumentParser
import EspressoMartini
import Glibc

/// Prints diagnostics on standard error, one `PATH:LINE:COLUMN: error: MESSAGE` line each, and
/// stops with exit code 78 (EX_CONFIG) after a summary when there is any error.
enum DiagnosticsReport {
    static let configurationErrorExitCode: Int32 = 78

    static func check(_ diagnostics: Diagnostics, outcome: String) throws {
        for diagnostic in diagnostics.all { printError(diagnostic.description) }
        guard diagnostics.hasErrors else {
            if !diagnostics.all.isEmpty { printError("espressomartini: \(diagnostics.summary)") }
            return
        }
        printError("espressomartini: \(diagnostics.summary); \(outcome)")
        throw ExitCode(configurationErrorExitCode)
    }

    static func printError(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        bytes.withUnsafeMutableBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
