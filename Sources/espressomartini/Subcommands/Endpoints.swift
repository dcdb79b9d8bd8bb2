import ArgumentParser
import EspressoMartini
import EspressoMartiniServer

struct Endpoints: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every exchange the tree serves, sorted by route then method.",
        version: EspressoMartiniVersion.current
    )

    @OptionGroup var source: SourceOptions

    @Flag(help: "Print a JSON array of exchanges and their responses.")
    var json = false

    func run() throws {
        let (configuration, diagnostics) = source.resolve()
        var all = diagnostics
        let (tree, treeDiagnostics) = TreeLoader(parser: JanssonParser()).load(folder: configuration.requestsFolder)
        all.append(contentsOf: treeDiagnostics)
        try DiagnosticsReport.check(all, outcome: "nothing listed")
        guard let tree else { return }
        print(json ? tree.listingJSON.compactText : tree.listing, terminator: json ? "\n" : "")
    }
}
