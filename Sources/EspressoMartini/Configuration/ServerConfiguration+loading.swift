extension ServerConfiguration {
    static let knownKeys = [
        "hostname", "port", "delay", "log_level", "logLevel", "requests_folder", "headers", "admin", "watch",
        "connection_timeout", "connection_limit",
        "cors", "tls", "session_header", "max_sessions", "script_timeout", "script_memory", "journal_size", "bandwidth",
        "network", "admin_token", "max_runtime_exchanges",
        "admin_access", "proxy", "environment",
    ]

    /// Reads a server configuration file over the defaults. Every problem is reported; the returned
    /// configuration keeps the defaults where a value was wrong.
    public static func load(file: String, parser: any JSONParser) -> (ServerConfiguration, Diagnostics) {
        var configuration = ServerConfiguration()
        var diagnostics = Diagnostics()
        let folder = FileSystem.parent(of: file)
        configuration.requestsFolder = resolve(defaultRequestsFolder, against: folder)

        guard FileSystem.kind(of: file) == .regularFile, let bytes = FileSystem.contents(of: file) else {
            let problem = FileSystem.kind(of: file) == nil ? "does not exist" : "cannot be read as a file"
            diagnostics.error(file, nil, "the configuration file \(problem); create it or pass another --configuration")
            return (configuration, diagnostics)
        }
        guard
            let (members, map) = parser.object(
                bytes, file: file, into: &diagnostics,
                notAnObject: {
                    "the server configuration must be a JSON object, found \($0)"
                })
        else { return (configuration, diagnostics) }

        ConfigurationMember.read(
            members, at: [], of: nil, known: knownKeys + [SchemaReference.key], file: file, map: map, into: &diagnostics
        ) { member, diagnostics in
            read(member, into: &configuration, folder: folder, map: map, diagnostics: &diagnostics)
        }
        configuration.network = NetworkParser.parse(members, at: [], file: file, map: map, into: &diagnostics)
        return (configuration, diagnostics)
    }

    /// Reads one known member of the server configuration into `configuration`.
    private static func read(
        _ member: ConfigurationMember, into configuration: inout ServerConfiguration, folder: String,
        map: some JSONPositions, diagnostics: inout Diagnostics
    ) {
        let file = member.file
        switch member.key {
        case "hostname":
            guard let host = member.string("an address such as \"127.0.0.1\" or \"::\"", into: &diagnostics) else {
                return
            }
            guard !host.isEmpty else {
                return member.error(
                    "'hostname' is empty; use an address such as \"127.0.0.1\" or \"::\"", into: &diagnostics)
            }
            configuration.hostname = host
        case "port":
            let expected = "an integer from 0 to 65535 or a range such as \"8080-8090\""
            if case .string(let text) = member.value {
                guard let (first, last) = portBounds(text) else {
                    return member.wrongType(expected, into: &diagnostics)
                }
                if let problem = portRangeProblem(first: first, last: last) {
                    return member.error("the port range '\(text)' \(problem)", into: &diagnostics)
                }
                configuration.port = first
                configuration.portRange = first...last
                return
            }
            guard case .integer(let port) = member.value else { return member.wrongType(expected, into: &diagnostics) }
            guard (0...65535).contains(port) else {
                return member.error(
                    "'port' \(port) is out of range; use 0 to 65535 (0 lets the system pick)", into: &diagnostics)
            }
            configuration.port = Int(port)
            configuration.portRange = nil
        case "delay":
            if case .object = member.value {
                return member.error(
                    "the global 'delay' is one number of seconds; a range {\"min\", \"max\"} is taken by a response's own 'delay' only",
                    into: &diagnostics)
            }
            guard
                let seconds = DelayParser.parse(member.value, at: member.path, file: file, map: map, into: &diagnostics)
            else { return }
            configuration.delay = seconds
        case "log_level", "logLevel":
            guard let name = member.string("a string", into: &diagnostics) else { return }
            guard let level = logLevel(named: name) else {
                return member.error(
                    "'\(member.key)' '\(name)' is not a log level; use one of \(logLevelNames.joined(separator: ", "))",
                    into: &diagnostics)
            }
            configuration.logLevel = level
        case "requests_folder":
            guard let path = member.string("a folder path", into: &diagnostics) else { return }
            guard !path.isEmpty else {
                return member.error(
                    "'requests_folder' is empty; name a folder such as \"network-exchanges\"", into: &diagnostics)
            }
            configuration.requestsFolder = resolve(path, against: folder)
        case "headers":
            configuration.headers = HeadersParser.parse(
                member.value, at: member.path, file: file, map: map, into: &diagnostics)
        case "admin", "watch", "cors":
            guard let flag = member.flag(into: &diagnostics) else { return }
            switch member.key {
            case "admin": configuration.admin = flag
            case "watch": configuration.watch = flag
            default: configuration.cors = flag
            }
        case "tls":
            configuration.tls = TLSFiles.parse(
                member.value, at: member.path, file: file, folder: folder, map: map, into: &diagnostics)
        case "connection_timeout":
            guard let seconds = member.integer(in: 1...86_400, into: &diagnostics) else { return }
            configuration.connectionTimeout = seconds
        case "connection_limit":
            guard let limit = member.integer(in: 1...65_536, into: &diagnostics) else { return }
            configuration.connectionLimit = limit
        case "session_header":
            guard let name = member.string("a header name such as \"X-Test-Run\"", into: &diagnostics) else { return }
            guard HeadersParser.isToken(name) else {
                return member.error(
                    "'session_header' '\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)",
                    into: &diagnostics)
            }
            configuration.sessionHeader = name
        case "max_sessions":
            guard let sessions = member.integer(in: 1...1_000_000, into: &diagnostics) else { return }
            configuration.maxSessions = sessions
        case "journal_size":
            guard let size = member.integer(in: 1...1_000_000, into: &diagnostics) else { return }
            configuration.journalSize = size
        case "max_runtime_exchanges":
            guard let limit = member.integer(in: 0...1_000_000, into: &diagnostics) else { return }
            configuration.maxRuntimeExchanges = limit
        case "script_timeout":
            guard let seconds = member.seconds(in: 0.01...3600, written: "0.01 to 3600", into: &diagnostics) else {
                return
            }
            configuration.scriptTimeout = seconds
        case "script_memory":
            guard
                let megabytes = member.integer(
                    in: 8...65536, expected: "a whole number of MiB from 8 to 65536", unit: " MiB", into: &diagnostics)
            else { return }
            configuration.scriptMemory = megabytes
        case "proxy":
            configuration.proxy = ProxyConfiguration.parse(
                member.value, at: member.path, file: file, folder: folder, map: map, into: &diagnostics)
        case "admin_token":
            guard let token = member.string("a string", into: &diagnostics) else { return }
            guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return member.error(
                    "'admin_token' must be a non-empty string of visible ASCII characters (no spaces), as sent in 'Authorization: Bearer TOKEN'",
                    into: &diagnostics)
            }
            configuration.adminToken = token
        case "admin_access":
            guard case .string(let name) = member.value, let access = AdminAccess(rawValue: name) else {
                return member.error(
                    "'admin_access' must be \"loopback\" (the default: only clients on this machine) or \"any\" (every client), found \(member.value.compactText)",
                    into: &diagnostics)
            }
            configuration.adminAccess = access
        case SchemaReference.key:
            SchemaReference.check(member.value, file: file, at: member.position, into: &diagnostics)
        default:
            // "bandwidth" and "network", read together afterwards; "environment", accepted for compatibility with
            // the original tool, has no effect.
            break
        }
    }

    /// A relative path against a folder, leaving paths relative to the current folder readable.
    static func resolve(_ path: String, against folder: String) -> String {
        folder == "." ? path : FileSystem.join(folder, path)
    }
}
