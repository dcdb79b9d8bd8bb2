@testable import EspressoMartini
import EspressoMartiniJansson
import Logging
import Testing

/// `ServerConfiguration.load(file:parser:)` (doc/server-configuration.md): defaults, every key, and every kind of mistake.
@Suite struct ServerConfigurationTests {
    /// Loads `json` from `$TMP/config/server.json`; paths in the result are written with `$TMP`.
    static func load(_ json: String) throws -> (configuration: ServerConfiguration, diagnostics: [String], root: String)
    {
        try withTemporaryFolder(FolderFixture(files: ["config/server.json": json])) { root in
            let (configuration, diagnostics) = ServerConfiguration.load(
                file: root + "/config/server.json", parser: JanssonParser())
            return (configuration, LoaderFixture.descriptions(diagnostics, root: root), root)
        }
    }

    static let file = "$TMP/config/server.json"

    @Test func anEmptyObjectGivesEveryDefault() throws {
        let (configuration, diagnostics, root) = try Self.load("{}")
        #expect(diagnostics == [])
        #expect(configuration.hostname == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.delay == 0)
        #expect(configuration.logLevel == .info)
        #expect(configuration.requestsFolder == root + "/config/network-exchanges")
        #expect(configuration.headers == [])
        #expect(configuration.admin == true)
        #expect(configuration.watch == true)
        #expect(configuration.sessionHeader == "X-Espressomartini-Session")
        #expect(configuration.maxSessions == 1000)
        #expect(configuration.scriptTimeout == 1)
        #expect(configuration.scriptMemory == 64)
        #expect(configuration.journalSize == 1000)
    }

    @Test func theDefaultsWithoutAFile() {
        let configuration = ServerConfiguration()
        #expect(configuration.hostname == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.requestsFolder == "network-exchanges")
        #expect(configuration.logLevel == .info)
    }

    @Test func everyKeyIsRead() throws {
        let (configuration, diagnostics, _) = try Self.load(
            """
            {
              "hostname": "::",
              "port": 0,
              "delay": 1.5,
              "log_level": "debug",
              "requests_folder": "/srv/mocks",
              "headers": {"X-Env": "dev", "Vary": ["Accept", "Origin"]},
              "admin": false,
              "watch": false,
              "session_header": "X-Test-Run",
              "max_sessions": 20,
              "script_timeout": 0.25,
              "script_memory": 128,
              "journal_size": 250000,
              "network": "3g",
              "bandwidth": "1mbit",
              "environment": "staging"
            }
            """)
        #expect(diagnostics == [])
        var expected = ServerConfiguration()
        expected.hostname = "::"
        expected.port = 0
        expected.delay = 1.5
        expected.logLevel = .debug
        expected.requestsFolder = "/srv/mocks"
        expected.scriptTimeout = 0.25
        expected.scriptMemory = 128
        expected.journalSize = 250_000
        expected.headers = [
            HTTPHeader(name: "X-Env", value: "dev"), HTTPHeader(name: "Vary", value: "Accept"),
            HTTPHeader(name: "Vary", value: "Origin"),
        ]
        expected.admin = false
        expected.watch = false
        expected.sessionHeader = "X-Test-Run"
        expected.maxSessions = 20
        expected.network = NetworkCondition(
            profile: .threeG, bandwidth: Bandwidth(bytesPerSecond: 125_000, spelling: "1mbit"))
        #expect(configuration == expected)
    }

    @Test(arguments: [
        (#"{"port": "8080-8090"}"#, 8080, 8080...8090 as ClosedRange<Int>?),
        (#"{"port": "8080-8080"}"#, 8080, 8080...8080),
        (#"{"port": 9000}"#, 9000, nil),
    ])
    func readsAPortRange(_ text: String, _ port: Int, _ range: ClosedRange<Int>?) throws {
        let (configuration, diagnostics, _) = try Self.load(text)
        #expect(diagnostics.filter { $0.contains("error") } == [])
        #expect(configuration.port == port && configuration.portRange == range)
    }

    @Test(arguments: [
        ("mocks", "$TMP/config/mocks"),
        ("../shared/mocks", "$TMP/config/../shared/mocks"),
        ("/absolute/mocks", "/absolute/mocks"),
    ])
    func requestsFolderResolvesAgainstTheConfigurationFilesFolder(_ given: String, _ resolved: String) throws {
        let (configuration, diagnostics, root) = try Self.load(#"{"requests_folder": ""# + given + #""}"#)
        #expect(diagnostics == [])
        #expect(configuration.requestsFolder.replacingOccurrences(of: root, with: "$TMP") == resolved)
    }

    @Test func aConfigurationFileInTheCurrentFolderKeepsPathsRelative() {
        #expect(ServerConfiguration.resolve("network-exchanges", against: ".") == "network-exchanges")
        #expect(ServerConfiguration.resolve("mocks", against: "etc") == "etc/mocks")
        #expect(ServerConfiguration.resolve("/srv", against: "etc") == "/srv")
    }

    @Test(arguments: [
        ("TRACE", Logger.Level.trace), ("debug", .debug), ("Info", .info), ("NOTICE", .notice),
        ("warning", .warning), ("ERROR", .error), ("critical", .critical),
    ])
    func logLevelsInAnyCase(_ name: String, _ level: Logger.Level) throws {
        #expect(try Self.load(#"{"log_level": ""# + name + #""}"#).configuration.logLevel == level)
        #expect(try Self.load(#"{"logLevel": ""# + name + #""}"#).configuration.logLevel == level)
    }

    @Test func environmentIsAcceptedSilently() throws {
        let (configuration, diagnostics, _) = try Self.load(#"{"environment": {"anything": [1, 2]}}"#)
        #expect(diagnostics == [])
        #expect(configuration == Self.defaults(requestsFolderIn: configuration))
    }

    /// The defaults, with the requests folder a load resolved (it depends on the temporary folder).
    static func defaults(requestsFolderIn other: ServerConfiguration) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.requestsFolder = other.requestsFolder
        return configuration
    }

    @Test func unknownKeysAreWarningsWithASuggestion() throws {
        let (configuration, diagnostics, _) = try Self.load(
            """
            {
              "hostnme": "0.0.0.0",
              "folder": "x",
              "verbose": true
            }
            """)
        #expect(
            diagnostics == [
                "\(Self.file):2:3: warning: unknown key 'hostnme' is ignored; did you mean 'hostname'?",
                "\(Self.file):3:3: warning: unknown key 'folder' is ignored; did you mean 'requests_folder'?",
                "\(Self.file):4:3: warning: unknown key 'verbose' is ignored",
            ])
        #expect(configuration.hostname == "127.0.0.1")
    }

    @Test func aSchemaKeyIsAcceptedSilently() throws {
        let (configuration, diagnostics, _) = try Self.load(
            """
            {
              "$schema": "/usr/share/espressomartini/schemas/server-configuration.schema.json",
              "port": 9000
            }
            """)
        #expect(diagnostics == [])
        #expect(configuration.port == 9000)
    }

    @Test func aSchemaKeyThatIsNoStringIsAWarning() throws {
        let (configuration, diagnostics, _) = try Self.load(#"{"$schema": 1, "port": 9000}"#)
        #expect(
            diagnostics == [
                "\(Self.file):1:13: warning: '$schema' names the file's JSON Schema for editors and should be a string, found an integer; it is ignored"
            ])
        #expect(configuration.port == 9000)
    }

    struct MistakeCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let json: String
        let expected: [String]
        init(_ name: String, _ json: String, _ expected: [String]) {
            self.testDescription = name
            self.json = json
            self.expected = expected.map { ServerConfigurationTests.file + $0 }
        }
    }

    static let mistakes: [MistakeCase] = [
        .init(
            "port as a string", #"{"port": "8080"}"#,
            [#":1:10: error: 'port' must be an integer from 0 to 65535 or a range such as "8080-8090", found a string"#]
        ),
        .init(
            "port as a real", #"{"port": 80.5}"#,
            [#":1:10: error: 'port' must be an integer from 0 to 65535 or a range such as "8080-8090", found a number"#]
        ),
        .init(
            "a reversed port range", #"{"port": "9000-8000"}"#,
            [":1:10: error: the port range '9000-8000' is reversed; give the lower port first, as in 8000-9000"]),
        .init(
            "a port range from 0", #"{"port": "0-8000"}"#,
            [":1:10: error: the port range '0-8000' is out of range; use ports from 1 to 65535"]),
        .init(
            "port above 65535", #"{"port": 65536}"#,
            [":1:10: error: 'port' 65536 is out of range; use 0 to 65535 (0 lets the system pick)"]),
        .init(
            "negative port", #"{"port": -1}"#,
            [":1:10: error: 'port' -1 is out of range; use 0 to 65535 (0 lets the system pick)"]),
        .init(
            "delay as a string", #"{"delay": "2"}"#,
            [":1:11: error: 'delay' must be a number of seconds, found a string"]),
        .init(
            "a session header that is no header name", #"{"session_header": "X Run"}"#,
            [
                ":1:20: error: 'session_header' 'X Run' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"
            ]),
        .init(
            "an empty session header", #"{"session_header": ""}"#,
            [
                ":1:20: error: 'session_header' '' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)"
            ]),
        .init(
            "max_sessions of 0", #"{"max_sessions": 0}"#,
            [":1:18: error: 'max_sessions' 0 is out of range; use 1 to 1000000"]),
        .init(
            "max_sessions as a string", #"{"max_sessions": "10"}"#,
            [":1:18: error: 'max_sessions' must be an integer from 1 to 1000000, found a string"]),
        .init(
            "journal_size of 0", #"{"journal_size": 0}"#,
            [":1:18: error: 'journal_size' 0 is out of range; use 1 to 1000000"]),
        .init(
            "journal_size over a million", #"{"journal_size": 1000001}"#,
            [":1:18: error: 'journal_size' 1000001 is out of range; use 1 to 1000000"]),
        .init(
            "journal_size as a number", #"{"journal_size": 1e4}"#,
            [":1:18: error: 'journal_size' must be an integer from 1 to 1000000, found a number"]),
        .init(
            "negative delay", #"{"delay": -1}"#, [":1:11: error: 'delay' must not be negative; use 0 or more seconds"]),
        .init(
            "a delay range", #"{"delay": {"min": 1, "max": 2}}"#,
            [
                #":1:11: error: the global 'delay' is one number of seconds; a range {"min", "max"} is taken by a response's own 'delay' only"#
            ]),
        .init(
            "unknown log level", #"{"log_level": "LOUD"}"#,
            [
                ":1:15: error: 'log_level' 'LOUD' is not a log level; use one of TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL"
            ]),
        .init(
            "logLevel not a string", #"{"logLevel": 3}"#,
            [":1:14: error: 'logLevel' must be a string, found an integer"]),
        .init(
            "empty hostname", #"{"hostname": ""}"#,
            [#":1:14: error: 'hostname' is empty; use an address such as "127.0.0.1" or "::""#]),
        .init(
            "hostname not a string", #"{"hostname": 127}"#,
            [#":1:14: error: 'hostname' must be an address such as "127.0.0.1" or "::", found an integer"#]),
        .init(
            "empty requests_folder", #"{"requests_folder": ""}"#,
            [#":1:21: error: 'requests_folder' is empty; name a folder such as "network-exchanges""#]),
        .init(
            "requests_folder not a string", #"{"requests_folder": ["a"]}"#,
            [":1:21: error: 'requests_folder' must be a folder path, found an array"]),
        .init(
            "admin as a string", #"{"admin": "yes"}"#, [":1:11: error: 'admin' must be true or false, found a string"]),
        .init("watch as a number", #"{"watch": 1}"#, [":1:11: error: 'watch' must be true or false, found an integer"]),
        .init(
            "script_timeout as a string", #"{"script_timeout": "1"}"#,
            [":1:20: error: 'script_timeout' must be a number of seconds from 0.01 to 3600, found a string"]),
        .init(
            "script_timeout 0", #"{"script_timeout": 0}"#,
            [":1:20: error: 'script_timeout' 0 is out of range; use 0.01 to 3600 seconds"]),
        .init(
            "script_memory as a fraction", #"{"script_memory": 64.5}"#,
            [":1:19: error: 'script_memory' must be a whole number of MiB from 8 to 65536, found a number"]),
        .init(
            "script_memory 4", #"{"script_memory": 4}"#,
            [":1:19: error: 'script_memory' 4 is out of range; use 8 to 65536 MiB"]),
        .init(
            "headers not an object", #"{"headers": "X-A: 1"}"#,
            [":1:13: error: 'headers' must be an object of header names to strings, found a string"]),
        .init(
            "a bandwidth that is no rate", #"{"bandwidth": "fast"}"#,
            [
                #":1:15: error: 'bandwidth' "fast" is not a rate; give bytes per second (a number) or a string such as "56kbit", "1.5mbit" or "100KB" (kbit and mbit count 1000 bits, KB and MB 1024 bytes)"#
            ]),
        .init(
            "an unknown network", #"{"network": "edgy"}"#,
            [
                #":1:13: error: 'network' must be one of "edge", "3g", "lte", "slow-wifi", "none", found "edgy"; did you mean 'edge'?"#
            ]),
        .init(
            "not an object", "\n [1]", [":2:2: error: the server configuration must be a JSON object, found an array"]),
        .init(
            "malformed JSON", "{\n  \"port\": 80\n  \"delay\": 1\n}",
            [":3:9: error: invalid JSON: '}' expected near '\"delay\"'"]),
        .init(
            "duplicate key", #"{"port": 1, "port": 2}"#,
            [":1:18: error: invalid JSON: duplicate object key near '\"port\"'"]),
        .init(
            "every mistake at once",
            """
            {
              "port": true,
              "delay": null,
              "log_level": "x",
              "admni": false
            }
            """,
            [
                ":2:11: error: 'port' must be an integer from 0 to 65535 or a range such as \"8080-8090\", found a boolean",
                ":3:12: error: 'delay' must be a number of seconds, found null",
                ":4:16: error: 'log_level' 'x' is not a log level; use one of TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL",
                ":5:3: warning: unknown key 'admni' is ignored; did you mean 'admin'?",
            ]),
    ]

    @Test(arguments: mistakes)
    func mistakesAreReportedWithTheirPosition(_ mistake: MistakeCase) throws {
        let (configuration, diagnostics, _) = try Self.load(mistake.json)
        #expect(diagnostics == mistake.expected)
        // A wrong value leaves the default in place.
        #expect(configuration == Self.defaults(requestsFolderIn: configuration))
    }

    @Test func aMissingFileIsAnErrorWithoutPosition() throws {
        let (configuration, diagnostics) = try withTemporaryFolder(FolderFixture()) { root in
            let (configuration, diagnostics) = ServerConfiguration.load(
                file: root + "/absent.json", parser: JanssonParser())
            return (configuration, LoaderFixture.descriptions(diagnostics, root: root))
        }
        #expect(
            diagnostics == [
                "$TMP/absent.json: error: the configuration file does not exist; create it or pass another --configuration"
            ])
        #expect(configuration.port == 8080)
    }

    @Test func aFolderInPlaceOfTheFileIsAnError() throws {
        let diagnostics = try withTemporaryFolder(FolderFixture(folders: ["server.json"])) { root in
            LoaderFixture.descriptions(
                ServerConfiguration.load(file: root + "/server.json", parser: JanssonParser()).1, root: root)
        }
        #expect(
            diagnostics == [
                "$TMP/server.json: error: the configuration file cannot be read as a file; create it or pass another --configuration"
            ])
    }
}
