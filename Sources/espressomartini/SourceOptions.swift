import EspressoMartini
import EspressoMartiniCommandLine
import EspressoMartiniJansson
import EspressoMartiniScripting

/// Where the tree and the server configuration come from; shared by `run`, `endpoints` and `explain`.
struct SourceOptions {
    static let configurationOption = OptionDefinition.option(
        "configuration", valueName: "file",
        help: "The server configuration file (default: configuration.json in the current folder, if there is one).",
        completion: .files
    )
    static let requestsFolderOption = OptionDefinition.option(
        "requests-folder", valueName: "dir",
        help: "The requests folder (default: network-exchanges beside the configuration file).",
        completion: .directories
    )
    static let options = [configurationOption, requestsFolderOption]

    var configuration: String?
    var requestsFolder: String?

    init(_ arguments: ParsedArguments) {
        configuration = arguments.text(Self.configurationOption)
        requestsFolder = arguments.text(Self.requestsFolderOption)
    }

    /// Defaults, then the configuration file, then these flags; with every problem found in the file.
    func resolve() -> (ServerConfiguration, Diagnostics) {
        var (configuration, diagnostics) = (ServerConfiguration(), Diagnostics())
        if let file = self.configuration {
            (configuration, diagnostics) = ServerConfiguration.load(file: file, parser: JanssonParser())
        } else if FileSystem.kind(of: ServerConfiguration.defaultFileName) != nil {
            (configuration, diagnostics) = ServerConfiguration.load(
                file: ServerConfiguration.defaultFileName, parser: JanssonParser())
        }
        if let folder = requestsFolder { configuration.requestsFolder = folder }
        return (configuration, diagnostics)
    }

    /// The configuration and the tree, for the commands that read a tree without serving it. Every problem
    /// is reported on standard error; with an error, exit 78 (EX_CONFIG) after `outcome`.
    func loadTree(outcome: String) throws(ExitStatus) -> (configuration: ServerConfiguration, tree: ExchangeTree) {
        var (configuration, diagnostics) = resolve()
        let checker = JavaScriptCoreChecker(limits: ScriptLimits(configuration), parser: JanssonParser())
        let (tree, treeDiagnostics) = TreeLoader(parser: JanssonParser(), scriptChecker: checker).load(
            folder: configuration.requestsFolder)
        diagnostics.append(contentsOf: treeDiagnostics)
        try DiagnosticsReport.check(diagnostics, outcome: outcome)
        guard let tree else { throw .configurationError }
        return (configuration, tree)
    }
}
