import EspressoMartini
import EspressoMartiniJansson
import Testing

/// What many exchanges of a tree hold alike is held once: an imported tree's `Prefer` variants share a
/// dozen regexes and one error file per operation, all with the same contents.
@Suite struct SharedTreePartsTests {
    static let preferVariants = #"""
        {"variants": [
          {"when": {"headers": {"Prefer": {"regex": "(.*,)?\\s*code\\s*=\\s*\"?404\"?"}}},
           "responses": {"status_code": 404, "response_file": "error.json"}},
          {"when": {"headers": {"Prefer": {"regex": "(.*,)?\\s*code\\s*=\\s*\"?500\"?"}}},
           "responses": {"status_code": 500, "response_file": "error.json"}},
          {"responses": {"response_file": "ok.json"}}
        ]}
        """#

    @Test func eachDistinctRegexIsCompiledOnceForTheWholeTree() throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [
                "exchanges/a/GET/configuration.json": Self.preferVariants,
                "exchanges/a/GET/error.json": #"{"error": "no"}"#, "exchanges/a/GET/ok.json": "{}",
                "exchanges/b/GET/configuration.json": Self.preferVariants,
                "exchanges/b/GET/error.json": #"{"error": "no"}"#, "exchanges/b/GET/ok.json": "{}",
            ]))
        #expect(diagnostics.all.isEmpty)
        let regexes = (tree?.exchanges ?? []).map { exchange in
            exchange.variants.flatMap { variant in
                variant.conditions.conditions.compactMap { condition -> CompiledRegex? in
                    guard case .header(_, let matcher) = condition, case .regex(let regex) = matcher.rule else {
                        return nil
                    }
                    return regex
                }
            }
        }
        try #require(regexes.count == 2 && regexes.allSatisfy { $0.count == 2 })
        let identities = regexes.map { $0.map(ObjectIdentifier.init) }
        #expect(identities[0] == identities[1], "each pattern compiled once for both exchanges")
        #expect(identities[0][0] != identities[0][1])
    }

    @Test func aFileOfManyResponsesAndFilesOfEqualContentsAreKeptOnce() throws {
        let fixture = FolderFixture(files: [
            "exchanges/a/GET/configuration.json": Self.preferVariants,
            "exchanges/a/GET/error.json": #"{"error": "no"}"#, "exchanges/a/GET/ok.json": #"{"a": 1}"#,
            "exchanges/b/GET/configuration.json": Self.preferVariants,
            "exchanges/b/GET/error.json": #"{"error": "no"}"#, "exchanges/b/GET/ok.json": #"{"b": 2}"#,
        ])
        try withTemporaryFolder(fixture) { root in
            let loaded = TreeLoader(parser: JanssonParser()).load(folder: root + "/" + LoaderFixture.requestsFolder)
            let tree = try #require(loaded.tree)
            let serving = ServingTree(tree, counters: CallCounters(), configuration: ServerConfiguration())
            serving.readFilesAhead()
            // Slots in tree order: a's 404, 500 and default answers, then b's.
            let owners = try (0..<6).map { slot -> ObjectIdentifier in
                let exchange = tree.exchanges[slot / 3]
                let name = ["error.json", "error.json", "ok.json"][slot % 3]
                let path = tree.path(ofFile: name, at: nil, in: exchange)
                return ObjectIdentifier(try #require(serving.bytes(ofFileIn: slot, at: path)).owner)
            }
            #expect(owners[0] == owners[1], "one read of a file two variants answer with")
            #expect(owners[0] == owners[3], "one copy of two files of equal contents")
            #expect(owners[2] != owners[5], "files of other contents are their own")
        }
    }
}
