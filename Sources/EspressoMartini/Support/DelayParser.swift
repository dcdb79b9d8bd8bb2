/// Reads a `delay` member: a number of seconds, 0 or more (the server configuration's and a response's),
/// or for a response also a range `{"min": A, "max": B}` with `0 ≤ A ≤ B`.
enum DelayParser {
    static let rangeKeys = ["min", "max"]

    /// The seconds `value` gives, or nil once the reason it gives none is in `diagnostics`.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions, into diagnostics: inout Diagnostics
    ) -> Double? {
        guard let seconds = value.numberValue else {
            diagnostics.error(file, map.value(path), "'delay' must be a number of seconds, found \(value.kindName)")
            return nil
        }
        return nonNegative(seconds, named: "delay", at: path, file: file, map: map, into: &diagnostics)
    }

    /// A response's delay: a number of seconds or `{"min": A, "max": B}`; nil once the reason it gives none
    /// is in `diagnostics` (every problem of a range is reported, each at its own position).
    static func parseResponseDelay(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions, into diagnostics: inout Diagnostics
    ) -> ResponseDelay? {
        guard case .object(let members) = value else {
            guard value.numberValue != nil else {
                diagnostics.error(file, map.value(path), "'delay' must be a number of seconds or a range such as {\"min\": 0.1, \"max\": 2}, found \(value.kindName)")
                return nil
            }
            return parse(value, at: path, file: file, map: map, into: &diagnostics).map(ResponseDelay.fixed)
        }
        let errorsBefore = diagnostics.errors.count
        var bounds: [String: Double] = [:]
        for member in members {
            let memberPath = path + [member.key]
            guard rangeKeys.contains(member.key) else {
                var message = "unknown key '\(member.key)' in a delay range; it takes 'min' and 'max'"
                if let closest = Suggestion.closest(to: member.key, among: rangeKeys) { message += "; did you mean '\(closest)'?" }
                diagnostics.error(file, map.key(memberPath), message)
                continue
            }
            guard let seconds = member.value.numberValue else {
                diagnostics.error(file, map.value(memberPath), "'\(member.key)' must be a number of seconds, found \(member.value.kindName)")
                continue
            }
            bounds[member.key] = nonNegative(seconds, named: member.key, at: memberPath, file: file, map: map, into: &diagnostics)
        }
        let missing = rangeKeys.filter { key in !members.contains { $0.key == key } }
        if !missing.isEmpty {
            diagnostics.error(file, map.value(path), "a delay range needs 'min' and 'max'; '\(missing.joined(separator: "' and '"))' is missing")
        }
        guard diagnostics.errors.count == errorsBefore, let min = bounds["min"], let max = bounds["max"] else { return nil }
        guard min <= max else {
            diagnostics.error(file, map.value(path), "the delay range's 'min' \(ExchangeTree.seconds(min)) is above its 'max' \(ExchangeTree.seconds(max)); give 'min' ≤ 'max'")
            return nil
        }
        return .uniform(min: min, max: max)
    }

    private static func nonNegative(
        _ seconds: Double, named name: String, at path: [String], file: String, map: some JSONPositions, into diagnostics: inout Diagnostics
    ) -> Double? {
        guard seconds >= 0, seconds.isFinite else {
            diagnostics.error(file, map.value(path), "'\(name)' must not be negative; use 0 or more seconds")
            return nil
        }
        return seconds
    }
}
