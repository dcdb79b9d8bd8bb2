extension ProxyConfiguration {
    static let knownKeys = ["target", "timeout", "verify_tls", "ca_file", "headers", "record"]

    /// Reads the `proxy` member of a server configuration, `{"target": URL, "timeout": S, "verify_tls": B,
    /// "ca_file": FILE, "headers": {…}, "record": B}`, with `ca_file` resolved against `folder`. Every
    /// problem is reported; nil when there was an error.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, folder: String, map: some JSONPositions, into diagnostics: inout Diagnostics
    ) -> ProxyConfiguration? {
        guard case .object(let members) = value else {
            diagnostics.error(file, map.value(path), "'proxy' must be an object such as {\"target\": \"https://api.example.com\"}, found \(value.kindName)")
            return nil
        }
        let errorsBefore = diagnostics.errors.count
        var target: ProxyTarget?
        var proxy = ProxyConfiguration(target: ProxyTarget(isHTTPS: false, authority: "", basePath: ""))
        for member in members {
            let memberPath = path + [member.key]
            let at = map.value(memberPath)
            func wrongType(_ expected: String) {
                diagnostics.error(file, at, "'proxy' '\(member.key)' must be \(expected), found \(member.value.kindName)")
            }
            switch member.key {
            case "target":
                guard case .string(let text) = member.value else { wrongType("a URL such as \"https://api.example.com\""); continue }
                switch ProxyTarget.parse(text) {
                case .success(let parsed): target = parsed
                case .failure(let problem): diagnostics.error(file, at, "'proxy' 'target' \(problem.message)")
                }
            case "timeout":
                guard let seconds = member.value.numberValue else { wrongType("a number of seconds from 0.1 to 3600"); continue }
                guard seconds >= 0.1, seconds <= 3600 else {
                    diagnostics.error(file, at, "'proxy' 'timeout' \(member.value.compactText) is out of range; use 0.1 to 3600 seconds")
                    continue
                }
                proxy.timeout = seconds
            case "verify_tls", "record":
                guard case .bool(let flag) = member.value else { wrongType("true or false"); continue }
                if member.key == "record" { proxy.records = flag } else { proxy.verifiesTLS = flag }
            case "ca_file":
                guard case .string(let name) = member.value, !name.isEmpty else { wrongType("the path of a PEM file of certificate authorities"); continue }
                let resolved = ServerConfiguration.resolve(name, against: folder)
                guard FileSystem.kind(of: resolved) == .regularFile else {
                    diagnostics.error(file, at, "'proxy' 'ca_file' \(resolved) does not exist or is not a file; give a PEM file of certificate authorities")
                    continue
                }
                proxy.certificateAuthorities = resolved
            case "headers":
                proxy.headers = HeadersParser.parse(member.value, at: memberPath, file: file, map: map, into: &diagnostics)
            default:
                diagnostics.warning(file, map.key(memberPath), Suggestion.unknownKeyMessage(member.key, known: knownKeys))
            }
        }
        guard let target else {
            if diagnostics.errors.count == errorsBefore {
                diagnostics.error(file, map.value(path), "'proxy' has no 'target'; give the URL to forward to, such as \"https://api.example.com\"")
            }
            return nil
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        proxy.target = target
        return proxy
    }
}
