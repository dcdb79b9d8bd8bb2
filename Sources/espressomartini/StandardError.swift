import Glibc

/// Lines for standard error written straight away, each with one `write`: usage errors, diagnostics, a failed
/// start. Log lines go through `LogWriter` instead.
enum StandardError {
    static func printLine(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        bytes.withUnsafeMutableBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
