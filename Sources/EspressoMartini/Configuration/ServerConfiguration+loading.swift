extension ServerConfiguration {
    static let knownKeys = [
        "hostname", "port", "delay", "log_level", "logLevel", "requests_folder", "headers", "admin", "watch", "connection_timeout", "connection_limit",
        "cors", "tls", "session_header", "max_sessions", "script_timeout", "script_memory", "journal_size", "bandwidth", "network", "admin_token",
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
        guard let (members, map) = parser.object(bytes, file: file, into: &diagnostics, notAnObject: {
            "the server configuration must be a JSON object, found \($0)"
        }) else { return (configuration, diagnostics) }

        for member in members {
            let path = [member.key]
            let at = map.value(path)
            func wrongType(_ expected: String) {
                diagnostics.error(file, at, "'\(member.key)' must be \(expected), found \(member.value.kindName)")
            }
            switch member.key {
            case "hostname":
                guard case .string(let host) = member.value else { wrongType("an address such as \"127.0.0.1\" or \"::\""); continue }
                guard !host.isEmpty else {
                    diagnostics.error(file, at, "'hostname' is empty; use an address such as \"127.0.0.1\" or \"::\"")
                    continue
                }
                configuration.hostname = host
            case "port":
                if case .string(let text) = member.value {
                    guard let (first, last) = portBounds(text) else {
                        wrongType("an integer from 0 to 65535 or a range such as \"8080-8090\"")
                        continue
                    }
                    if let problem = portRangeProblem(first: first, last: last) {
                        diagnostics.error(file, at, "the port range '\(text)' \(problem)")
                        continue
                    }
                    configuration.port = first
                    configuration.portRange = first...last
                    continue
                }
                guard case .integer(let port) = member.value else { wrongType("an integer from 0 to 65535 or a range such as \"8080-8090\""); continue }
                guard (0...65535).contains(port) else {
                    diagnostics.error(file, at, "'port' \(port) is out of range; use 0 to 65535 (0 lets the system pick)")
                    continue
                }
                configuration.port = Int(port)
                configuration.portRange = nil
            case "delay":
                if case .object = member.value {
                    diagnostics.error(file, at, "the global 'delay' is one number of seconds; a range {\"min\", \"max\"} is taken by a response's own 'delay' only")
                    continue
                }
                guard let seconds = DelayParser.parse(member.value, at: path, file: file, map: map, into: &diagnostics) else { continue }
                configuration.delay = seconds
            case "log_level", "logLevel":
                guard case .string(let name) = member.value else { wrongType("a string"); continue }
                guard let level = logLevel(named: name) else {
                    diagnostics.error(file, at, "'\(member.key)' '\(name)' is not a log level; use one of \(logLevelNames.joined(separator: ", "))")
                    continue
                }
                configuration.logLevel = level
            case "requests_folder":
                guard case .string(let path) = member.value else { wrongType("a folder path"); continue }
                guard !path.isEmpty else {
                    diagnostics.error(file, at, "'requests_folder' is empty; name a folder such as \"network-exchanges\"")
                    continue
                }
                configuration.requestsFolder = resolve(path, against: folder)
            case "headers":
                configuration.headers = HeadersParser.parse(member.value, at: path, file: file, map: map, into: &diagnostics)
            case "admin", "watch", "cors":
                guard case .bool(let flag) = member.value else { wrongType("true or false"); continue }
                switch member.key {
                case "admin": configuration.admin = flag
                case "watch": configuration.watch = flag
                default: configuration.cors = flag
                }
            case "tls":
                configuration.tls = TLSFiles.parse(member.value, at: path, file: file, folder: folder, map: map, into: &diagnostics)
            case "connection_timeout", "connection_limit":
                let range = member.key == "connection_timeout" ? 1...86_400 : 1...65_536
                guard case .integer(let number) = member.value else { wrongType("an integer from \(range.lowerBound) to \(range.upperBound)"); continue }
                guard range.contains(Int(number)) else {
                    diagnostics.error(file, at, "'\(member.key)' \(number) is out of range; use \(range.lowerBound) to \(range.upperBound)")
                    continue
                }
                if member.key == "connection_timeout" { configuration.connectionTimeout = Int(number) } else { configuration.connectionLimit = Int(number) }
            case "session_header":
                guard case .string(let name) = member.value else { wrongType("a header name such as \"X-Test-Run\""); continue }
                guard HeadersParser.isToken(name) else {
                    diagnostics.error(file, at, "'session_header' '\(name)' is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)")
                    continue
                }
                configuration.sessionHeader = name
            case "max_sessions", "journal_size":
                let range = 1...1_000_000
                guard case .integer(let number) = member.value else { wrongType("an integer from \(range.lowerBound) to \(range.upperBound)"); continue }
                guard range.contains(Int(number)) else {
                    diagnostics.error(file, at, "'\(member.key)' \(number) is out of range; use \(range.lowerBound) to \(range.upperBound)")
                    continue
                }
                if member.key == "max_sessions" { configuration.maxSessions = Int(number) } else { configuration.journalSize = Int(number) }
            case "script_timeout":
                guard let seconds = member.value.numberValue else { wrongType("a number of seconds from 0.01 to 3600"); continue }
                guard seconds >= 0.01, seconds <= 3600 else {
                    diagnostics.error(file, at, "'script_timeout' \(member.value.compactText) is out of range; use 0.01 to 3600 seconds")
                    continue
                }
                configuration.scriptTimeout = seconds
            case "script_memory":
                let range = 8...65536
                guard case .integer(let number) = member.value else { wrongType("a whole number of MiB from \(range.lowerBound) to \(range.upperBound)"); continue }
                guard range.contains(Int(number)) else {
                    diagnostics.error(file, at, "'script_memory' \(number) is out of range; use \(range.lowerBound) to \(range.upperBound) MiB")
                    continue
                }
                configuration.scriptMemory = Int(number)
            case "bandwidth", "network":
                continue  // read below
            case "proxy":
                configuration.proxy = ProxyConfiguration.parse(member.value, at: path, file: file, folder: folder, map: map, into: &diagnostics)
            case "admin_token":
                guard case .string(let token) = member.value else { wrongType("a string"); continue }
                guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    diagnostics.error(file, at, "'admin_token' must be a non-empty string of visible ASCII characters (no spaces), as sent in 'Authorization: Bearer TOKEN'")
                    continue
                }
                configuration.adminToken = token
            case "admin_access":
                guard case .string(let name) = member.value, let access = AdminAccess(rawValue: name) else {
                    diagnostics.error(file, at, "'admin_access' must be \"loopback\" (the default: only clients on this machine) or \"any\" (every client), found \(member.value.compactText)")
                    continue
                }
                configuration.adminAccess = access
            case SchemaReference.key:
                SchemaReference.check(member.value, file: file, at: at, into: &diagnostics)
            case "environment":
                break  // accepted for compatibility with the original tool; it has no effect
            default:
                diagnostics.warning(file, map.key(path), Suggestion.unknownKeyMessage(member.key, known: knownKeys))
            }
        }
        configuration.network = NetworkParser.parse(members, at: [], file: file, map: map, into: &diagnostics)
        return (configuration, diagnostics)
    }

    /// A relative path against a folder, leaving paths relative to the current folder readable.
    static func resolve(_ path: String, against folder: String) -> String {
        folder == "." ? path : FileSystem.join(folder, path)
    }
}
