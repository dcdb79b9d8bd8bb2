import Foundation

/// The large public descriptions beside the project (`../shared/data/openapi-public/`, see its README for
/// where they come from and their licences): read from there, never copied into the project. A checkout
/// without them skips the tests that need them.
enum PublicDescriptions {
    static let folder = SchemaTests.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data/openapi-public")

    static let github = "github-api.github.com.json"
    static let stripe = "stripe-spec3.yaml"
    static let kubernetes = "kubernetes-swagger.json"

    static var available: Bool {
        [github, stripe, kubernetes].allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
    }

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
