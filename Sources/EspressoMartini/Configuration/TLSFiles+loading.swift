extension TLSFiles {
    static let knownKeys = ["certificate", "key"]

    /// Reads the `tls` member of a server configuration, `{"certificate": FILE, "key": FILE}`, with both
    /// paths resolved against `folder`. Every problem is reported; nil when there was one.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, folder: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> TLSFiles? {
        guard case .object(let members) = value else {
            diagnostics.error(
                file, map.value(path),
                "'tls' must be an object {\"certificate\": FILE, \"key\": FILE}, found \(value.kindName)")
            return nil
        }
        var certificate: String?, key: String?, valid = true
        ConfigurationMember.read(
            members, at: path, of: "'tls'", known: knownKeys, file: file, map: map, into: &diagnostics
        ) { member, diagnostics in
            guard case .string(let name) = member.value, !name.isEmpty else {
                let found = member.value == .string("") ? "an empty string" : member.value.kindName
                member.error("'tls' '\(member.key)' must be the path of a PEM file, found \(found)", into: &diagnostics)
                valid = false
                return
            }
            let resolved = ServerConfiguration.resolve(name, against: folder)
            if member.key == "certificate" { certificate = resolved } else { key = resolved }
        }
        for (name, found) in [("certificate", certificate), ("key", key)] where found == nil && valid {
            diagnostics.error(
                file, map.value(path), "'tls' has no '\(name)'; give both the certificate and its key as PEM files")
            valid = false
        }
        guard valid, let certificate, let key else { return nil }
        return TLSFiles(certificate: certificate, key: key)
    }
}
