import FuzzSupport

/// Fuzz target: request-path matching. Each input is a request line as the server sees it after
/// libmicrohttpd (`METHOD PATH`, the path already percent-decoded), matched against a fixed trie with
/// literal, `{id}`, `:name`, `*` and `**` routes; the answer must be the one a naive reference gives.
@main
enum FuzzRouteMatching {
    static func main() {
        FuzzEntry.main(target: "RouteMatching") { RouteMatchingCase(input: $0).check() }
    }
}
