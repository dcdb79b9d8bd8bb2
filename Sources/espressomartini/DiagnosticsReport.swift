import EspressoMartini
import EspressoMartiniCommandLine

/// Prints diagnostics on standard error, one `PATH:LINE:COLUMN: error: MESSAGE` line each, and
/// stops with exit code 78 (EX_CONFIG) after a summary when there is any error.
enum DiagnosticsReport {
    static func check(_ diagnostics: Diagnostics, outcome: String) throws(ExitStatus) {
        for diagnostic in diagnostics.all { StandardError.printLine(diagnostic.description) }
        guard diagnostics.hasErrors else {
            if !diagnostics.all.isEmpty { StandardError.printLine("espressomartini: \(diagnostics.summary)") }
            return
        }
        StandardError.printLine("espressomartini: \(diagnostics.summary); \(outcome)")
        throw .configurationError
    }
}
