@testable import EspressoMartini
import Testing

/// Warnings never stop a tree from loading; they point at the key or response they are about.
@Suite struct LoaderWarningTests {
    @Test func unknownKeysAreWarningsNamingTheClosestKnownKey() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: """
                {
                  "status": 201,
                  "header": {"X-A": "1"},
                  "response": "data.json",
                  "zzz": true
                }
                """
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):2:3: warning: unknown key 'status' is ignored; did you mean 'status_code'?",
                "\(LoaderErrorCase.at):3:3: warning: unknown key 'header' is ignored; did you mean 'headers'?",
                "\(LoaderErrorCase.at):4:3: warning: unknown key 'response' is ignored; did you mean 'response_file'?",
                "\(LoaderErrorCase.at):5:3: warning: unknown key 'zzz' is ignored",
            ])
        #expect(!diagnostics.hasErrors)
        // The unknown keys change nothing: the default response.
        #expect(tree?.exchanges.map(\.responses) == [[ConfiguredResponse()]])
    }

    /// `$schema` names the file's JSON Schema for editors: silent in the top-level object and in the
    /// objects of a sequence alike, and changing nothing.
    @Test(arguments: [
        #"{"$schema": "../../schemas/exchange-configuration.schema.json", "status_code": 201}"#,
        #"[{"$schema": "file:///usr/share/espressomartini/schemas/exchange-configuration.schema.json", "status_code": 201}]"#,
    ])
    func aSchemaKeyIsAcceptedSilently(json: String) throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(FolderFixture(files: [LoaderErrorCase.configuration: json]))
        #expect(diagnostics.errors.isEmpty && diagnostics.warnings.isEmpty)
        #expect(tree?.exchanges.map(\.responses) == [[ConfiguredResponse(statusCode: 201)]])
    }

    @Test func aSchemaKeyThatIsNoStringIsAWarning() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: #"[{"status_code": 201}, {"$schema": true}]"#
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):1:36: warning: '$schema' names the file's JSON Schema for editors and should be a string, found a boolean; it is ignored"
            ])
        #expect(tree?.exchanges.map(\.responses) == [[ConfiguredResponse(statusCode: 201), ConfiguredResponse()]])
    }

    @Test func aBodyOn204IsAWarningAndIsDropped() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: #"{"status_code": 204, "body": {"a": 1}}"#
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):1:1: warning: a 204 response has no body; the 'body' given is not sent"
            ])
        #expect(tree?.exchanges.first?.responses == [ConfiguredResponse(statusCode: 204)])
    }

    @Test func headersTakingHalfAConnectionsMemoryAreAWarningAndAreKept() throws {
        let value = String(repeating: "c", count: 9000)
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration:
                    #"[{"headers": {"X-Small": "a"}}, {"headers": {"Content-Security-Policy": "\#(value)"}}]"#
            ]))
        let size = "Content-Security-Policy: ".utf8.count + 9000 + 2
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):1:34: warning: these headers take \(size) bytes of the 16 KiB a connection has for the request's headers and the answer's: a request bringing more than about \(16 * 1024 - size - 256) bytes of its own gets no answer; keep a response's headers to a few KiB (doc/limits.md)"
            ])
        #expect(
            tree?.exchanges.first?.responses.last?.content?.headers == [
                HTTPHeader(name: "Content-Security-Policy", value: value)
            ])
    }

    @Test func aResponseFileOn304IsAWarningAndIsDropped() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration:
                    #"[{"status_code": 200}, {"status_code": 304, "response_file": "data.json"}]"#,
                "exchanges/GET/data.json": "{}",
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):1:24: warning: a 304 response has no body; the 'response_file' given is not sent"
            ])
        #expect(
            tree?.exchanges.first?.responses == [
                ConfiguredResponse(statusCode: 200), ConfiguredResponse(statusCode: 304),
            ])
    }

    @Test func aTreeWithOnlyWarningsStillServesEveryExchange() throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(
                files: ["exchanges/a/GET/configuration.json": #"{"dealy": 1}"#],
                folders: ["exchanges/b/POST"]
            ))
        #expect(diagnostics.warnings.count == 1)
        #expect(diagnostics.errors.isEmpty)
        #expect(LoaderFixture.routes(tree) == ["GET /a", "POST /b"])
    }
}
