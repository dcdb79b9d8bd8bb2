/// Compiles a script when its tree loads, so that a syntax error or a missing `response` function is a
/// load error. The engine lives behind this protocol, so the loader stays free of C (the scripting
/// module supplies JavaScriptCore); a loader without a checker records scripts unchecked.
public protocol ScriptChecker: Sendable {
    /// Nil when `script` compiles and defines a function `response`; else what is wrong.
    func check(_ script: ResponseScript) -> ScriptProblem?

    /// Called once a load has checked its last script: what the checks held can go.
    func loadEnded()
}

extension ScriptChecker {
    public func loadEnded() {}
}

/// Why a script cannot serve, and where in it (a line and column of the script's own text, when the
/// engine knows them).
public struct ScriptProblem: Error, Sendable, Equatable {
    public let message: String
    public let line: Int?
    public let column: Int?

    public init(message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }
}
