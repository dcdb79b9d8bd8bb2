import EspressoMartini
import EspressoMartiniCommandLine

struct Endpoints: Command {
    static let jsonOption = OptionDefinition.flag("json", help: "Print a JSON array of exchanges and their responses.")

    static let definition = CommandDefinition(
        name: "endpoints", abstract: "List every exchange the tree serves, sorted by route then method.",
        options: SourceOptions.options + [jsonOption], make: { Endpoints($0) }
    )

    var source: SourceOptions
    var json: Bool

    init(_ arguments: ParsedArguments) {
        source = SourceOptions(arguments)
        json = arguments.isSet(Self.jsonOption)
    }

    func run() throws {
        let (configuration, tree) = try source.loadTree(outcome: "nothing listed")
        print(json ? tree.listingJSON.compactText : tree.listing, terminator: json ? "\n" : "")
        if !json, let proxy = configuration.proxy {
            print("other requests: forwarded to \(proxy.target)\(proxy.records ? ", and recorded" : "")")
        }
    }
}
