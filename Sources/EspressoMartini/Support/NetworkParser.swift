/// Reads the `bandwidth` and `network` members a response, a variant, an exchange (beside `responses` or
/// `variants`) and the server configuration may have (doc/streams-and-networks.md).
enum NetworkParser {
    static let keys = ["bandwidth", "network"]

    /// The condition the members `bandwidth` and `network` of `members` (an object at `path`) give; nil
    /// when they give none, or once the reason in `diagnostics`.
    static func parse(
        _ members: [JSONMember], at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> NetworkCondition? {
        var profile: NetworkProfile?
        var bandwidth: Bandwidth?
        for member in members {
            switch member.key {
            case "network":
                profile = self.profile(member.value, at: path + [member.key], file: file, map: map, into: &diagnostics)
            case "bandwidth":
                bandwidth = self.bandwidth(
                    member.value, at: path + [member.key], file: file, map: map, into: &diagnostics)
            default: continue
            }
        }
        guard profile != nil || bandwidth != nil else { return nil }
        return NetworkCondition(profile: profile, bandwidth: bandwidth)
    }

    /// `"edge"`, `"3g"`, `"lte"`, `"slow-wifi"` or `"none"`.
    static func profile(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> NetworkProfile? {
        if case .string(let name) = value, let profile = NetworkProfile(rawValue: name.lowercased()) { return profile }
        var message =
            "'network' must be one of \(NetworkProfile.names.map { "\"\($0)\"" }.joined(separator: ", ")), found \(value.compactText)"
        if case .string(let name) = value, let closest = Suggestion.closest(to: name, among: NetworkProfile.names) {
            message += "; did you mean '\(closest)'?"
        }
        diagnostics.error(file, map.value(path), message)
        return nil
    }

    /// Bytes per second (a number above 0), or a string such as `"56kbit"`, `"1.5mbit"`, `"100KB"`.
    static func bandwidth(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> Bandwidth? {
        let example = "bytes per second (a number) or a string such as \"56kbit\", \"1.5mbit\" or \"100KB\""
        switch value {
        case .integer, .real:
            guard let number = value.numberValue, number > 0, number.isFinite else {
                diagnostics.error(
                    file, map.value(path),
                    "'bandwidth' must be more than 0 bytes per second; leave it out for full speed")
                return nil
            }
            return Bandwidth(bytesPerSecond: number)
        case .string(let text):
            if let parsed = Bandwidth(parsing: text) { return parsed }
            var message =
                "'bandwidth' \"\(text)\" is not a rate; give \(example) (kbit and mbit count 1000 bits, KB and MB 1024 bytes)"
            if let hint = hint(for: text) { message += "; did you mean '\(hint)'?" }
            diagnostics.error(file, map.value(path), message)
            return nil
        default:
            diagnostics.error(file, map.value(path), "'bandwidth' must be \(example), found \(value.kindName)")
            return nil
        }
    }

    /// `56kbps` → `56kbit`, `100kb` → `100KB`: a number with a unit close to a known one.
    private static func hint(for text: String) -> String? {
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = text.dropFirst(digits.count).trimmingSpaces
        guard Double(digits) != nil, !unit.isEmpty else { return nil }
        let spoken = [
            "kbps": "kbit", "mbps": "mbit", "gbps": "gbit", "bps": "bit", "kib": "KB", "mib": "MB", "gib": "GB",
        ][unit.lowercased()]
        if let spoken { return digits + spoken }
        if let upper = Bandwidth.units.first(where: { $0.name.lowercased() == unit.lowercased() }) {
            return digits + upper.name
        }
        return Suggestion.closest(to: unit, among: Bandwidth.units.map(\.name)).map { digits + $0 }
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
