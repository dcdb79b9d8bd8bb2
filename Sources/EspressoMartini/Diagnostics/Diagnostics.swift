/// Collects every problem instead of stopping at the first, so one run shows the user all there is to fix.
public struct Diagnostics: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    public mutating func error(_ path: String, _ position: SourcePosition? = nil, _ message: String) {
        all.append(Diagnostic(.error, path: path, position: position, message: message))
    }

    public mutating func warning(_ path: String, _ position: SourcePosition? = nil, _ message: String) {
        all.append(Diagnostic(.warning, path: path, position: position, message: message))
    }

    public mutating func append(contentsOf other: Diagnostics) {
        all.append(contentsOf: other.all)
    }

    /// "2 errors and 1 warning", for the summary line.
    public var summary: String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        let errorCount = errors.count
        let warningCount = warnings.count
        if warningCount == 0 { return count(errorCount, "error") }
        if errorCount == 0 { return count(warningCount, "warning") }
        return "\(count(errorCount, "error")) and \(count(warningCount, "warning"))"
    }
}
