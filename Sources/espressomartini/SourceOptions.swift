import ArgumentParser
import EspressoMartini
import EspressoMartiniServer

/// Where the tree and the server configuration come from; shared by `run` and `endpoints`.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The server configuration file (default: configuration.json in the current folder, if there is one).", valueName: "file"))
    var configuration: String?

    @Option(name: .long, help: ArgumentHelp("The requests folder (default: network-exchanges beside the configuration file).", valueName: "dir"))
    var requestsFolder: String?

    /// Defaults, then the configuration file, then these flags; with every problem found in the file.
    func resolve() -> (ServerConfiguration, Diagnostics) {
        var (configuration, diagnostics) = (ServerConfiguration(), Diagnostics())
        if let file = self.configuration {
            (configuration, diagnostics) = ServerConfiguration.load(file: file, parser: JanssonParser())
        } else if FileSystem.kind(of: ServerConfiguration.defaultFileName) != nil {
            (configuration, diagnostics) = ServerConfiguration.load(file: ServerConfiguration.defaultFileName, parser: JanssonParser())
        }
        if let folder = requestsFolder { configuration.requestsFolder = folder }
        return (configuration, diagnostics)
    }
}
