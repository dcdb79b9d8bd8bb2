import ArgumentParser
import EspressoMartini

@main
struct EspressoMartiniCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "espressomartini",
        abstract: "A folder-driven HTTP mock server.",
        discussion: """
            A folder tree is the whole configuration: network-exchanges/api/user/POST/configuration.json \
            holds the responses for POST /api/user.
            """,
        version: EspressoMartiniVersion.current,
        subcommands: [Run.self, Endpoints.self]
    )
}
