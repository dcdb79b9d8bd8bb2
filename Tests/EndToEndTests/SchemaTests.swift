import Foundation
import Testing

/// doc/tree.md, doc/server-configuration.md, doc/service.md: the JSON Schemas of `schemas/` (for editors) against the example trees and the loader.
/// A real validator checks them: Python's `jsonschema` (python3-jsonschema, installed by `make test-deps`);
/// without it these tests fail and say so.
@Suite("JSON Schemas")
struct SchemaTests {
    /// Tests/EndToEndTests/SchemaTests.swift → the package root.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schemaFileNames: [SchemaKind: String] = [
        .exchange: "exchange-configuration.schema.json", .server: "server-configuration.schema.json",
    ]

    enum SchemaKind: String, Sendable { case exchange, server }

    /// What the loader says of a file: nothing, warnings only, or errors.
    enum LoaderVerdict: String, Sendable { case clean, warning, error }

    // MARK: - The examples

    @Test("every configuration.json of the example trees is valid against its schema and loads without a warning")
    func examplesAreValid() async throws {
        let trees = ["network-exchanges", "debian/etc/espressomartini/network-exchanges"]
        let exchangeFiles = try trees.flatMap { try Self.configurationFiles(under: $0) }
        #expect(exchangeFiles.count >= 15)
        let serverFiles = ["configuration.json", "debian/etc/espressomartini/configuration.json"]
        for (kind, files) in [(SchemaKind.exchange, exchangeFiles), (.server, serverFiles)] {
            let verdicts = try Self.validate(kind, files.map { Self.packageRoot.appendingPathComponent($0).path })
            for file in files {
                #expect(verdicts[Self.packageRoot.appendingPathComponent(file).path] == "valid", "\(file)")
            }
        }
        for configuration in serverFiles {
            let outcome = try await ServerProcess.runToCompletion(
                ["endpoints", "--configuration", Self.packageRoot.appendingPathComponent(configuration).path],
                in: Self.packageRoot
            )
            #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty, "\(configuration): \(outcome)")
        }
    }

    /// A file that is an object names its schema, so that editors find it: the repository's examples by a
    /// path relative to the file, the package's by the installed schema's file URL. (An array cannot.)
    @Test("the example files that are objects name their schema")
    func examplesNameTheirSchema() throws {
        var files = try Self.configurationFiles(under: "network-exchanges").map { ($0, SchemaKind.exchange) }
        files += try Self.configurationFiles(under: "debian/etc/espressomartini/network-exchanges").map {
            ($0, SchemaKind.exchange)
        }
        files += [("configuration.json", .server), ("debian/etc/espressomartini/configuration.json", .server)]
        var named = 0
        for (file, kind) in files {
            let url = Self.packageRoot.appendingPathComponent(file)
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
            guard let object = document as? [String: Any] else { continue }
            let reference = try #require(object["$schema"] as? String, "\(file) does not name its schema")
            let schemaName = try #require(Self.schemaFileNames[kind])
            if file.hasPrefix("debian/") {
                #expect(reference == "file:///usr/share/espressomartini/schemas/" + schemaName, "\(file)")
            } else {
                #expect(
                    reference.hasPrefix("."), "\(file): editors resolve a relative $schema only when it starts with '.'"
                )
                let target = url.deletingLastPathComponent().appendingPathComponent(reference).standardizedFileURL
                #expect(
                    target.path == Self.packageRoot.appendingPathComponent("schemas/" + schemaName).path,
                    "\(file): \(reference)")
            }
            named += 1
        }
        #expect(named >= 15)
    }

    // MARK: - Schema and loader agree

    /// One file, what the loader says of it, and whether the rule it breaks is beyond what a schema can
    /// check (a file that must exist, a key given twice, an integer written with a fraction).
    struct AgreementCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let kind: SchemaKind
        let json: String
        let loader: LoaderVerdict
        let beyondTheSchema: Bool

        init(_ name: String, _ kind: SchemaKind, _ json: String, _ loader: LoaderVerdict, beyondTheSchema: Bool = false)
        {
            testDescription = "\(kind.rawValue): \(name)"
            self.kind = kind
            self.json = json
            self.loader = loader
            self.beyondTheSchema = beyondTheSchema
        }

        /// The schema flags what the loader warns about (unknown keys, a body that is not sent, a header
        /// the server sets) as well as its errors: it accepts exactly the files that load without a word,
        /// except for the rules beyond it.
        var schemaAccepts: Bool { loader == .clean || beyondTheSchema }
    }

    static let cases: [AgreementCase] = [
        .init("the empty object", .exchange, "{}", .clean),
        .init(
            "every key", .exchange,
            #"{"$schema": "x.json", "status_code": 201, "headers": {"X-A": "1", "Set-Cookie": ["a=1", "b=2"]}, "response_file": "data.json", "delay": 0.5}"#,
            .clean),
        .init(
            "a sequence", .exchange,
            #"[{"status_code": 202, "delay": 1}, {"body": {"a": [1, 2]}}, {"$schema": "x.json"}]"#, .clean),
        .init("an inline string", .exchange, #"{"body": "text", "status_code": 599}"#, .clean),
        .init("an inline null", .exchange, #"{"body": null}"#, .clean),
        .init("204 without a body", .exchange, #"{"status_code": 204, "headers": {"ETag": "\"1\""}}"#, .clean),
        .init("an unknown key", .exchange, #"{"status": 201}"#, .warning),
        .init("a body on 204", .exchange, #"{"status_code": 204, "body": "x"}"#, .warning),
        .init("a file on 304", .exchange, #"[{}, {"status_code": 304, "response_file": "data.json"}]"#, .warning),
        .init("Content-Length in headers", .exchange, #"{"headers": {"Content-Length": "5"}}"#, .warning),
        .init("Transfer-Encoding in headers", .exchange, #"{"headers": {"transfer-encoding": "chunked"}}"#, .warning),
        .init("$schema that is no string", .exchange, #"{"$schema": 1}"#, .warning),
        .init("an empty array", .exchange, "[]", .error),
        .init("a string", .exchange, #""text""#, .error),
        .init("a number in a sequence", .exchange, "[{}, 1]", .error),
        .init("status 199", .exchange, #"{"status_code": 199}"#, .error),
        .init("status 600", .exchange, #"{"status_code": 600}"#, .error),
        .init("status as a string", .exchange, #"{"status_code": "200"}"#, .error),
        .init("status with a fraction", .exchange, #"{"status_code": 200.5}"#, .error),
        .init("a negative delay", .exchange, #"{"delay": -1}"#, .error),
        .init("a delay as a string", .exchange, #"{"delay": "1"}"#, .error),
        .init("body and response_file", .exchange, #"{"body": "a", "response_file": "data.json"}"#, .error),
        .init("an empty response_file", .exchange, #"{"response_file": ""}"#, .error),
        .init("an absolute response_file", .exchange, #"{"response_file": "/etc/hostname"}"#, .error),
        .init("response_file as a number", .exchange, #"{"response_file": 3}"#, .error),
        .init("headers as an array", .exchange, #"{"headers": ["X-A: 1"]}"#, .error),
        .init("a header name with a space", .exchange, #"{"headers": {"Bad Name": "x"}}"#, .error),
        .init("a header value as a number", .exchange, #"{"headers": {"X-A": 1}}"#, .error),
        .init("an empty header array", .exchange, #"{"headers": {"X-A": []}}"#, .error),
        .init("a header value with a line break", .exchange, #"{"headers": {"X-A": "a\nb"}}"#, .error),
        .init("a number among header values", .exchange, #"{"headers": {"X-A": ["a", 2]}}"#, .error),
        .init(
            "a missing response_file", .exchange, #"{"response_file": "missing.json"}"#, .error, beyondTheSchema: true),
        .init(
            "a response_file outside the tree", .exchange, #"{"response_file": "../../outside.json"}"#, .error,
            beyondTheSchema: true),
        .init("a status written 200.0", .exchange, #"{"status_code": 200.0}"#, .error, beyondTheSchema: true),
        .init(
            "a key given twice", .exchange, #"{"status_code": 201, "status_code": 202}"#, .error, beyondTheSchema: true),
        // Templates (doc/templates.md).
        .init(
            "a templated JSON body and header", .exchange,
            #"{"template": true, "status_code": 201, "headers": {"Location": "/o/{{request.pathParameters.id}}"}, "body": {"id": "{{request.pathParameters.id}}"}}"#,
            .clean),
        .init("template false on a file", .exchange, #"{"template": false, "response_file": "data.json"}"#, .clean),
        .init("template as a string", .exchange, #"{"template": "true", "body": "x"}"#, .error),
        .init(
            "a template that does not parse", .exchange, #"{"template": true, "body": "{{#a}}"}"#, .error,
            beyondTheSchema: true),
        // Sequences with a mode and variants (doc/variants.md, doc/faults-and-sessions.md).
        .init(
            "a sequence object", .exchange,
            #"{"$schema": "x.json", "responses": [{"status_code": 202}, {"$schema": "x.json"}], "sequence": "repeat_last"}"#,
            .clean),
        .init("a sequence object of one response", .exchange, #"{"responses": {"body": "x"}}"#, .clean),
        .init(
            "variants, the last without when", .exchange,
            #"{"$schema": "x.json", "variants": [{"when": {"query": {"page": "2"}}, "responses": {"response_file": "data.json"}}, {"responses": [{"status_code": 503}, {}], "sequence": "repeat_last"}]}"#,
            .clean),
        .init(
            "every condition and matcher", .exchange,
            #"{"variants": [{"when": {"query": {"a": "1", "b": {"present": false}}, "headers": {"X-Key": {"present": true}, "Accept-Language": {"prefix": "it"}}, "cookies": {"session": {"regex": "(?i)[a-f0-9]+"}}, "body": {"contains": "espresso"}, "json": {"": {"present": true}, "/a~1b/0": {"equals": {"c": [1, null]}}, "/n": {"equals": 1.5}, "/s": "text"}, "form": {"size": "large"}, "graphql": {"operation": {"prefix": "Get"}, "type": "query"}}, "responses": {}}]}"#,
            .clean),
        .init("an empty when", .exchange, #"{"variants": [{"when": {}, "responses": {}}]}"#, .clean),
        .init("an unknown key beside responses", .exchange, #"{"responses": {}, "status_code": 201}"#, .warning),
        .init(
            "an unknown key in a variant", .exchange, #"{"variants": [{"when": {}, "responses": {}, "delay": 1}]}"#,
            .warning),
        .init("$schema in a variant", .exchange, #"{"variants": [{"$schema": "x.json", "responses": {}}]}"#, .warning),
        .init(
            "$schema beside variants that is no string", .exchange, #"{"$schema": 1, "variants": [{"responses": {}}]}"#,
            .warning),
        .init("an empty variants", .exchange, #"{"variants": []}"#, .error),
        .init("variants as an object", .exchange, #"{"variants": {"responses": {}}}"#, .error),
        .init("a key beside variants", .exchange, #"{"variants": [{"responses": {}}], "status_code": 201}"#, .error),
        .init("responses beside variants", .exchange, #"{"variants": [{"responses": {}}], "responses": {}}"#, .error),
        .init("a variant that is no object", .exchange, #"{"variants": [{"responses": {}}, 1]}"#, .error),
        .init("a variant without responses", .exchange, #"{"variants": [{"when": {"query": {"a": "1"}}}]}"#, .error),
        .init("a variant with an empty array of responses", .exchange, #"{"variants": [{"responses": []}]}"#, .error),
        .init(
            "a variant with a status 700", .exchange, #"{"variants": [{"responses": {"status_code": 700}}]}"#, .error),
        .init("when as an array", .exchange, #"{"variants": [{"when": [], "responses": {}}]}"#, .error),
        .init(
            "an unknown condition", .exchange, #"{"variants": [{"when": {"qurey": {"a": "1"}}, "responses": {}}]}"#,
            .error),
        .init("query as a string", .exchange, #"{"variants": [{"when": {"query": "a=1"}, "responses": {}}]}"#, .error),
        .init(
            "an unknown matcher key", .exchange,
            #"{"variants": [{"when": {"headers": {"X-A": {"regexp": "x"}}}, "responses": {}}]}"#, .error),
        .init(
            "two matcher keys in one matcher", .exchange,
            #"{"variants": [{"when": {"query": {"a": {"equals": "1", "prefix": "2"}}}, "responses": {}}]}"#, .error),
        .init(
            "an empty matcher", .exchange, #"{"variants": [{"when": {"cookies": {"a": {}}}, "responses": {}}]}"#, .error
        ),
        .init(
            "a number as a text matcher", .exchange,
            #"{"variants": [{"when": {"query": {"page": 2}}, "responses": {}}]}"#, .error),
        .init(
            "a text that equals a number", .exchange,
            #"{"variants": [{"when": {"form": {"n": {"equals": 2}}}, "responses": {}}]}"#, .error),
        .init(
            "present as a string", .exchange,
            #"{"variants": [{"when": {"headers": {"X-A": {"present": "yes"}}}, "responses": {}}]}"#, .error),
        .init(
            "a number as a JSON matcher", .exchange, #"{"variants": [{"when": {"json": {"/a": 1}}, "responses": {}}]}"#,
            .error),
        .init(
            "a JSON contains a number", .exchange,
            #"{"variants": [{"when": {"json": {"/a": {"contains": 1}}}, "responses": {}}]}"#, .error),
        .init(
            "a pointer without a leading slash", .exchange,
            #"{"variants": [{"when": {"json": {"items/0": "x"}}, "responses": {}}]}"#, .error),
        .init(
            "a pointer with a bad escape", .exchange,
            #"{"variants": [{"when": {"json": {"/a~2": "x"}}, "responses": {}}]}"#, .error),
        .init("body as names", .exchange, #"{"variants": [{"when": {"body": {"a": "b"}}, "responses": {}}]}"#, .error),
        .init(
            "body_base64 and multipart conditions", .exchange,
            #"{"variants": [{"when": {"body_base64": "AP8A", "multipart": {"note": "text", "tag": {"prefix": "a"}, "gone": {"present": false}, "photo": {"filename": "a.png", "content_type": {"prefix": "image/"}, "body_base64": {"prefix": "iVBORw=="}}, "doc": {"body": {"contains": "x"}}}}, "responses": {}}, {"when": {"body_base64": {"contains": "AA=="}}, "responses": {}}]}"#,
            .clean),
        .init(
            "body_base64 that is no base64", .exchange,
            #"{"variants": [{"when": {"body_base64": "AP8*"}, "responses": {}}]}"#, .error),
        .init(
            "body_base64 with a regex", .exchange,
            #"{"variants": [{"when": {"body_base64": {"regex": "A+"}}, "responses": {}}]}"#, .error),
        .init(
            "a multipart part with an unknown key", .exchange,
            #"{"variants": [{"when": {"multipart": {"photo": {"filename": "a.png", "name": "photo"}}}, "responses": {}}]}"#,
            .error),
        .init(
            "multipart as an array", .exchange, #"{"variants": [{"when": {"multipart": ["photo"]}, "responses": {}}]}"#,
            .error),
        .init(
            "an unknown graphql key", .exchange,
            #"{"variants": [{"when": {"graphql": {"name": "GetUser"}}, "responses": {}}]}"#, .error),
        .init(
            "an unknown graphql type", .exchange,
            #"{"variants": [{"when": {"graphql": {"type": "queries"}}, "responses": {}}]}"#, .error),
        .init("the sequence mode loop", .exchange, #"{"responses": [{}, {}], "sequence": "loop"}"#, .clean),
        .init(
            "the sequence mode once in a variant", .exchange,
            #"{"variants": [{"responses": [{}, {}], "sequence": "once"}]}"#, .clean),
        .init("a misspelt sequence mode", .exchange, #"{"responses": [{}, {}], "sequence": "loops"}"#, .error),
        .init(
            "every fault", .exchange,
            #"[{"fault": "connection_reset"}, {"fault": "empty_response"}, {"fault": "truncated_body", "body": "x"}]"#,
            .clean),
        .init("an unknown fault", .exchange, #"{"fault": "timeout"}"#, .error),
        .init("a delay range", .exchange, #"{"delay": {"min": 0.1, "max": 2}}"#, .clean),
        .init("a delay range with an unknown key", .exchange, #"{"delay": {"min": 0.1, "max": 2, "mean": 1}}"#, .error),
        .init("a delay range without max", .exchange, #"{"delay": {"min": 0.1}}"#, .error),
        .init("a delay range with a negative bound", .exchange, #"{"delay": {"min": -1, "max": 2}}"#, .error),
        .init("a global delay range", .server, #"{"delay": {"min": 0.1, "max": 2}}"#, .error),
        .init(
            "an inline script", .exchange,
            #"{"javascript": "function response() { return Response.ok(); }", "delay": 0.1}"#, .clean),
        .init(
            "a script file that does not exist", .exchange, #"{"javascript_file": "response.js"}"#, .error,
            beyondTheSchema: true),
        .init(
            "a script with a status", .exchange,
            #"{"javascript": "function response() { return Response.ok(); }", "status_code": 201}"#, .error),
        .init("a script file and a body", .exchange, #"{"javascript_file": "response.js", "body": "x"}"#, .error),
        .init("a script file not ending in .js", .exchange, #"{"javascript_file": "response.txt"}"#, .error),
        .init(
            "a script that defines no response", .exchange, #"{"javascript": "function answer() {}"}"#, .error,
            beyondTheSchema: true),
        .init("a sequence mode as a number", .exchange, #"{"responses": {}, "sequence": 1}"#, .error),
        .init(
            "a regex that does not compile", .exchange,
            #"{"variants": [{"when": {"query": {"a": {"regex": "(unclosed"}}}, "responses": {}}]}"#, .error,
            beyondTheSchema: true),
        .init(
            "a path name the route does not capture", .exchange,
            #"{"variants": [{"when": {"path": {"id": "7"}}, "responses": {}}]}"#, .error, beyondTheSchema: true),
        .init(
            "a variant after one without when", .exchange,
            #"{"variants": [{"responses": {}}, {"when": {"query": {"a": "1"}}, "responses": {}}]}"#, .warning,
            beyondTheSchema: true),
        // Streams and slow networks (doc/streams-and-networks.md).
        .init(
            "an event stream", .exchange,
            #"{"headers": {"Content-Type": "text/event-stream"}, "stream": [{"delay": 0.2, "event": "token", "id": "1", "data": "Hel", "retry": 3000}, {"data": {"done": true}, "comment": "end"}, {"delay": 1}]}"#,
            .clean),
        .init(
            "a repeated raw stream with templates", .exchange,
            #"{"template": true, "stream": [{"body": {"n": "{{call}}"}}, {"delay": {"distribution": "lognormal", "median": 0.1, "sigma": 0.5, "max": 1}, "body": "x\n"}], "stream_repeat": true, "network": "3g"}"#,
            .clean),
        .init(
            "every network place", .exchange,
            #"{"variants": [{"responses": [{"bandwidth": "56kbit"}, {"network": "none"}], "network": "edge"}], "bandwidth": 2048}"#,
            .clean),
        .init(
            "a network beside responses", .exchange,
            #"{"responses": {"body": "x"}, "network": "slow-wifi", "bandwidth": "1.5 mbit/s"}"#, .clean),
        .init(
            "a script on a slow link", .exchange,
            #"{"javascript": "function response() { return Response.ok(); }", "network": "lte", "bandwidth": "100KB"}"#,
            .clean),
        .init(
            "delay distributions", .exchange,
            #"[{"delay": {"distribution": "uniform", "min": 0.1, "max": 0.2}}, {"delay": {"distribution": "lognormal", "median": 0.2, "sigma": 0}}]"#,
            .clean),
        .init("a bandwidth that is no rate", .exchange, #"{"bandwidth": "fast"}"#, .error),
        .init("a bandwidth of 0", .exchange, #"{"bandwidth": 0}"#, .error),
        .init("a bandwidth of 0 kbit", .exchange, #"{"bandwidth": "0kbit"}"#, .error, beyondTheSchema: true),
        .init("an unknown network", .exchange, #"{"network": "4g"}"#, .error),
        .init(
            "a network beside variants that is unknown", .exchange,
            #"{"variants": [{"responses": {}}], "network": "wifi"}"#, .error),
        .init("an empty stream", .exchange, #"{"stream": []}"#, .error),
        .init("a negative chunk delay", .exchange, #"{"stream": [{"delay": -1, "data": "x"}]}"#, .error),
        .init("an unknown chunk key", .exchange, #"{"stream": [{"data": "x", "evnt": "e"}]}"#, .error),
        .init("event and raw chunks mixed", .exchange, #"{"stream": [{"data": "x"}, {"body": "y"}]}"#, .error),
        .init(
            "a raw chunk in a named event stream", .exchange,
            #"{"headers": {"Content-Type": "text/event-stream"}, "stream": [{"body": "y"}]}"#, .error,
            beyondTheSchema: true),
        .init("a retry that is negative", .exchange, #"{"stream": [{"retry": -1}]}"#, .error),
        .init("a stream beside a body", .exchange, #"{"stream": [{"data": "x"}], "body": "y"}"#, .error),
        .init("a stream with a fault", .exchange, #"{"stream": [{"data": "x"}], "fault": "truncated_body"}"#, .error),
        .init("stream_repeat alone", .exchange, #"{"stream_repeat": true}"#, .error),
        .init("a stream on 204", .exchange, #"{"status_code": 204, "stream": [{"data": "x"}]}"#, .error),
        .init(
            "a repeated stream without pause", .exchange, #"{"stream": [{"data": "x"}], "stream_repeat": true}"#,
            .error, beyondTheSchema: true),
        .init(
            "a stream beside a script", .exchange,
            #"{"javascript": "function response() { return Response.ok(); }", "stream": [{"data": "x"}]}"#, .error),
        .init(
            "a lognormal delay without sigma", .exchange, #"{"delay": {"distribution": "lognormal", "median": 0.2}}"#,
            .error),
        .init(
            "a lognormal delay with a range's key", .exchange,
            #"{"delay": {"distribution": "lognormal", "median": 0.2, "sigma": 1, "min": 0}}"#, .error),
        .init(
            "an unknown distribution", .exchange, #"{"delay": {"distribution": "normal", "min": 0, "max": 1}}"#, .error),

        .init("the empty object", .server, "{}", .clean),
        .init(
            "every key", .server,
            #"{"$schema": "x.json", "hostname": "::", "port": 0, "delay": 0.25, "log_level": "debug", "requests_folder": "network-exchanges", "headers": {"X-Mock": "1", "Set-Cookie": ["a=1", "b=2"]}, "admin": false, "watch": false, "connection_timeout": 86400, "connection_limit": 1, "session_header": "X-Test-Run", "max_sessions": 10, "script_timeout": 0.5, "script_memory": 256, "journal_size": 1000000, "environment": {"any": "thing"}}"#,
            .clean),
        .init("a session header that is no header name", .server, #"{"session_header": "X Run"}"#, .error),
        .init("max_sessions of 0", .server, #"{"max_sessions": 0}"#, .error),
        .init("journal_size over a million", .server, #"{"journal_size": 1000001}"#, .error),
        .init("journal_size as a string", .server, #"{"journal_size": "5000"}"#, .error),
        .init("logLevel in mixed case", .server, #"{"logLevel": "Warning", "port": 65535}"#, .clean),
        .init("an unknown key", .server, #"{"hostnme": "0.0.0.0"}"#, .warning),
        .init("$schema that is no string", .server, #"{"$schema": false}"#, .warning),
        .init("Content-Length in headers", .server, #"{"headers": {"CONTENT-LENGTH": "1"}}"#, .warning),
        .init("an array", .server, "[]", .error),
        .init("port 65536", .server, #"{"port": 65536}"#, .error),
        .init("a negative port", .server, #"{"port": -1}"#, .error),
        .init("port as a string", .server, #"{"port": "8080"}"#, .error),
        .init("a port range", .server, #"{"port": "8080-8090"}"#, .clean),
        .init("a reversed port range", .server, #"{"port": "9000-8000"}"#, .error, beyondTheSchema: true),
        .init("a negative delay", .server, #"{"delay": -0.5}"#, .error),
        .init("an unknown log level", .server, #"{"log_level": "verbose"}"#, .error),
        .init("a log level as a number", .server, #"{"log_level": 3}"#, .error),
        .init("an empty requests folder", .server, #"{"requests_folder": ""}"#, .error),
        .init("an empty hostname", .server, #"{"hostname": ""}"#, .error),
        .init("admin as a string", .server, #"{"admin": "yes"}"#, .error),
        .init("watch as a number", .server, #"{"watch": 1}"#, .error),
        .init(
            "cors and tls", .server, #"{"cors": true, "tls": {"certificate": "tls/cert.pem", "key": "tls/key.pem"}}"#,
            .clean),
        .init("cors as a string", .server, #"{"cors": "yes"}"#, .error),
        .init("tls as a path", .server, #"{"tls": "cert.pem"}"#, .error),
        .init("tls without a key", .server, #"{"tls": {"certificate": "cert.pem"}}"#, .error),
        .init("tls with an empty key", .server, #"{"tls": {"certificate": "cert.pem", "key": ""}}"#, .error),
        .init(
            "tls with an unknown key", .server,
            #"{"tls": {"certificate": "cert.pem", "key": "key.pem", "chain": "x.pem"}}"#, .warning),
        .init("connection_timeout 0", .server, #"{"connection_timeout": 0}"#, .error),
        .init("connection_limit 65537", .server, #"{"connection_limit": 65537}"#, .error),
        .init("script_timeout 0", .server, #"{"script_timeout": 0}"#, .error),
        .init("script_timeout as a string", .server, #"{"script_timeout": "1"}"#, .error),
        .init("script_memory 4", .server, #"{"script_memory": 4}"#, .error),
        .init("script_memory as a fraction", .server, #"{"script_memory": 64.5}"#, .error),
        .init("a header value as a number", .server, #"{"headers": {"X-A": 1}}"#, .error),
        .init(
            "a proxy and the admin API's access", .server,
            #"{"proxy": {"target": "https://api.example.com/v2", "timeout": 5, "verify_tls": false, "headers": {"X-Api-Key": "k"}, "record": true}, "admin_token": "t0k-en", "admin_access": "any"}"#,
            .clean),
        .init("a proxy without a target", .server, #"{"proxy": {"timeout": 5}}"#, .error),
        .init("a proxy target that is no URL", .server, #"{"proxy": {"target": "api.example.com"}}"#, .error),
        .init(
            "a proxy target with credentials", .server, #"{"proxy": {"target": "https://me:pw@api.example.com"}}"#,
            .error),
        .init("a proxy timeout of 0", .server, #"{"proxy": {"target": "http://127.0.0.1:9", "timeout": 0}}"#, .error),
        .init(
            "an unknown proxy key", .server, #"{"proxy": {"target": "http://127.0.0.1:9", "recrod": true}}"#, .warning),
        .init(
            "a proxy ca_file that does not exist", .server,
            #"{"proxy": {"target": "https://a.example", "ca_file": "missing.pem"}}"#, .error, beyondTheSchema: true),
        .init("admin_access lan", .server, #"{"admin_access": "lan"}"#, .error),
        .init("an admin_token with a space", .server, #"{"admin_token": "a b"}"#, .error),
        .init(
            "a requests folder that does not exist", .server, #"{"requests_folder": "missing"}"#, .error,
            beyondTheSchema: true),
        .init("a port written 8080.0", .server, #"{"port": 8080.0}"#, .error, beyondTheSchema: true),
        .init("a key given twice", .server, #"{"port": 1, "port": 2}"#, .error, beyondTheSchema: true),
        .init("a network and a bandwidth", .server, #"{"network": "edge", "bandwidth": "1MB"}"#, .clean),
        .init("a bandwidth in kbps", .server, #"{"bandwidth": "56kbps"}"#, .error),
        .init("an unknown network", .server, #"{"network": "dialup"}"#, .error),
    ]

    /// Every case's file checked against its schema in one validator run per kind, by case description.
    static let schemaVerdicts: Result<[String: String], SchemaValidationError> = {
        do {
            let folder = try TemporaryTree()
            defer { folder.remove() }
            var verdicts: [String: String] = [:]
            for kind in [SchemaKind.exchange, .server] {
                var paths: [String: String] = [:]
                for (index, agreementCase) in cases.enumerated() where agreementCase.kind == kind {
                    let path = folder.url.appendingPathComponent("case-\(index).json").path
                    try Data(agreementCase.json.utf8).write(to: URL(fileURLWithPath: path))
                    paths[path] = agreementCase.testDescription
                }
                for (path, verdict) in try validate(kind, Array(paths.keys)) {
                    verdicts[paths[path] ?? path] = verdict
                }
            }
            return .success(verdicts)
        } catch let error as SchemaValidationError {
            return .failure(error)
        } catch {
            return .failure(SchemaValidationError(description: "\(error)"))
        }
    }()

    @Test(
        "the schema accepts exactly the files the loader reads without a word, except rules beyond a schema",
        arguments: cases)
    func schemaAndLoaderAgree(_ agreementCase: AgreementCase) async throws {
        let verdict = try #require(try Self.schemaVerdicts.get()[agreementCase.testDescription])
        #expect(try await Self.loaderVerdict(agreementCase) == agreementCase.loader)
        #expect(verdict.hasPrefix("valid") == agreementCase.schemaAccepts, "the schema says \(verdict)")
    }

    /// Loads the case's file with `endpoints`: as a method folder's configuration.json beside a data.json,
    /// or as the server configuration beside a one-exchange tree.
    static func loaderVerdict(_ agreementCase: AgreementCase) async throws -> LoaderVerdict {
        let tree: TemporaryTree
        let arguments: [String]
        switch agreementCase.kind {
        case .exchange:
            tree = try TemporaryTree(
                exchanges: ["GET/configuration.json": .text(agreementCase.json), "GET/data.json": "{}"],
                files: ["outside.json": "{}"]
            )
            arguments = ["endpoints", "--requests-folder", TemporaryTree.requestsFolder]
        case .server:
            tree = try TemporaryTree(exchanges: ["GET/": .folder], configuration: agreementCase.json)
            arguments = ["endpoints", "--configuration", "configuration.json"]
        }
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(arguments, in: tree.url)
        switch outcome.exitCode {
        case 78: return .error
        case 0 where outcome.standardError.isEmpty: return .clean
        case 0 where outcome.standardError.contains(": warning: ") && !outcome.standardError.contains(": error: "):
            return .warning
        default: throw SchemaValidationError(description: "unexpected outcome of endpoints: \(outcome)")
        }
    }

    // MARK: - Helpers

    struct SchemaValidationError: Error, CustomStringConvertible {
        let description: String
    }

    /// The `configuration.json` files under a folder of the repository, relative to its root.
    static func configurationFiles(under folder: String) throws -> [String] {
        let root = packageRoot.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix("configuration.json") }
            .map { folder + "/" + $0 }
            .sorted()
    }

    /// Runs Tests/Schemas/validate.py with Debian's Python (which python3-jsonschema serves), else the
    /// `python3` on PATH; returns each file's verdict, `valid` or `invalid: MESSAGE`.
    static func validate(_ kind: SchemaKind, _ files: [String]) throws -> [String: String] {
        let process = DebianPython.process(
            running: packageRoot.appendingPathComponent("Tests/Schemas/validate.py").path,
            [packageRoot.appendingPathComponent("schemas").path, kind.rawValue] + files
        )
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw SchemaValidationError(
                description: "cannot run python3 (\(error)); install python3 and python3-jsonschema (make test-deps)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SchemaValidationError(description: "validate.py exited \(process.terminationStatus): \(errorText)")
        }
        var verdicts: [String: String] = [:]
        for line in text.split(separator: "\n") {
            for file in files where line.hasPrefix(file + ": ") {
                verdicts[file] = String(line.dropFirst(file.count + 2))
            }
        }
        guard verdicts.count == files.count else {
            throw SchemaValidationError(
                description: "validate.py answered for \(verdicts.count) of \(files.count) files: \(text)\(errorText)")
        }
        return verdicts
    }
}
