import FuzzSupport

/// Fuzz target: the loader's JSON path. Each input is a method folder's `configuration.json` (JanssonParser,
/// then the response reader with its `response_file` checks, then the `endpoints` listings), or, when it
/// starts with `S`, the rest is a server configuration file (`ServerConfiguration.load`). The loader reads
/// from disk, so each input is written into a small scratch tree first.
@main
enum FuzzTreeLoader {
    static func main() {
        FuzzEntry.main(target: "TreeLoader") { TreeLoaderCase(input: $0).check() }
    }
}
