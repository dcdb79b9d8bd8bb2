/// A response computed for each request by a JavaScript function `response(request, cache)` (doc/scripts.md): the
/// source as written, where it came from (for messages and the engine's line numbers), and the folders its
/// `Body.file` and `Body.template` paths resolve against. The core only records it; an engine (the
/// scripting module) compiles and runs it. A class: the engine keeps what it compiled per script.
public final class ResponseScript: Sendable, Equatable {
    public let source: String
    /// As shown in messages and given to the engine as the script's name: the `.js` file, or the
    /// `configuration.json` holding an inline script.
    public let file: String
    /// For an inline script, where its string starts in the `configuration.json`; nil for a file.
    public let inlinePosition: SourcePosition?
    /// `javascript_file` as written in the configuration; nil for an inline script.
    public let fileName: String?
    /// The exchange's route, for the log and the answers of failed calls.
    public let route: String
    /// The method folder with links resolved: `Body.file` and `Body.template` paths resolve against it.
    public let methodFolderRealPath: String
    /// The requests folder with links resolved: no path a script names may resolve outside it.
    public let rootRealPath: String

    public init(
        source: String, file: String, inlinePosition: SourcePosition?, fileName: String? = nil, route: String,
        methodFolderRealPath: String,
        rootRealPath: String
    ) {
        self.source = source
        self.file = file
        self.inlinePosition = inlinePosition
        self.fileName = fileName
        self.route = route
        self.methodFolderRealPath = methodFolderRealPath
        self.rootRealPath = rootRealPath
    }

    /// A line the engine reports, as the user finds it: in the `.js` file as is; for an inline script,
    /// the `configuration.json` line its string is on (a JSON string holds no raw line break).
    public func fileLine(_ scriptLine: Int) -> Int {
        inlinePosition?.line ?? scriptLine
    }

    /// For listings: `script response.js`, or `script (inline)`.
    public var summary: String {
        fileName.map { "script \($0)" } ?? "script (inline)"
    }

    public static func == (a: ResponseScript, b: ResponseScript) -> Bool {
        a.source == b.source && a.file == b.file && a.inlinePosition == b.inlinePosition
    }
}
