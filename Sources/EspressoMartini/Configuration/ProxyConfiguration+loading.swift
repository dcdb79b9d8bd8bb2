extension ProxyConfiguration {
    static let knownKeys = ["target", "timeout", "verify_tls", "ca_file", "headers", "record"]

    /// Reads the `proxy` member of a server configuration, `{"target": URL, "timeout": S, "verify_tls": B,
    /// "ca_file": FILE, "headers": {…}, "record": B}`, with `ca_file` resolved against `folder`. Every
    /// problem is reported; nil when there was an error.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, folder: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> ProxyConfiguration? {
        guard case .object(let members) = value else {
            diagnostics.error(
                file, map.value(path),
                "'proxy' must be an object such as {\"target\": \"https://api.example.com\"}, found \(value.kindName)")
            return nil
        }
        let errorsBefore = diagnostics.errors.count
        var target: ProxyTarget?
        var proxy = ProxyConfiguration(target: ProxyTarget(isHTTPS: false, authority: "", basePath: ""))
        ConfigurationMember.read(
            members, at: path, of: "'proxy'", known: knownKeys, file: file, map: map, into: &diagnostics
        ) { member, diagnostics in
            switch member.key {
            case "target":
                guard let text = member.string("a URL such as \"https://api.example.com\"", into: &diagnostics) else {
                    return
                }
                switch ProxyTarget.parse(text) {
                case .success(let parsed): target = parsed
                case .failure(let problem): member.error("'proxy' 'target' \(problem.message)", into: &diagnostics)
                }
            case "timeout":
                guard let seconds = member.seconds(in: 0.1...3600, written: "0.1 to 3600", into: &diagnostics) else {
                    return
                }
                proxy.timeout = seconds
            case "verify_tls":
                guard let flag = member.flag(into: &diagnostics) else { return }
                proxy.verifiesTLS = flag
            case "record":
                guard let flag = member.flag(into: &diagnostics) else { return }
                proxy.records = flag
            case "ca_file":
                guard case .string(let name) = member.value, !name.isEmpty else {
                    return member.wrongType("the path of a PEM file of certificate authorities", into: &diagnostics)
                }
                let resolved = ServerConfiguration.resolve(name, against: folder)
                guard FileSystem.kind(of: resolved) == .regularFile else {
                    return member.error(
                        "'proxy' 'ca_file' \(resolved) does not exist or is not a file; give a PEM file of certificate authorities",
                        into: &diagnostics)
                }
                proxy.certificateAuthorities = resolved
            case "headers":
                proxy.headers = HeadersParser.parse(
                    member.value, at: member.path, file: file, map: map, into: &diagnostics)
            default:
                break
            }
        }
        guard let target else {
            if diagnostics.errors.count == errorsBefore {
                diagnostics.error(
                    file, map.value(path),
                    "'proxy' has no 'target'; give the URL to forward to, such as \"https://api.example.com\"")
            }
            return nil
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        proxy.target = target
        return proxy
    }
}
