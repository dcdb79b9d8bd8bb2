import EspressoMartini
import EspressoMartiniJansson

/// Every loader test keeps its requests folder at `$TMP/exchanges`, so expected messages can spell
/// paths with `$TMP` and stay readable.
enum LoaderFixture {
    static let requestsFolder = "exchanges"

    /// Writes the fixture, loads `$TMP/exchanges` with jansson, and hands back the result with the
    /// temporary folder's path (already removed by then; only for building expected strings).
    static func load(_ fixture: FolderFixture) throws -> (tree: ExchangeTree?, diagnostics: Diagnostics, root: String) {
        try withTemporaryFolder(fixture) { root in
            let result = TreeLoader(parser: JanssonParser()).load(folder: root + "/" + requestsFolder)
            return (result.tree, result.diagnostics, root)
        }
    }

    /// The diagnostics as printed, with the temporary folder written `$TMP`.
    static func descriptions(_ diagnostics: Diagnostics, root: String) -> [String] {
        diagnostics.all.map { $0.description.replacingOccurrences(of: root, with: "$TMP") }
    }

    /// `method route` of every exchange, in tree order.
    static func routes(_ tree: ExchangeTree?) -> [String] {
        (tree?.exchanges ?? []).map { "\($0.method.name) \($0.route)" }
    }
}
