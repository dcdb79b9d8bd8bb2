/// Reads a `delay` member: a number of seconds, 0 or more (the server configuration's, a response's, a
/// stream chunk's), or for a response and a chunk also a distribution drawn per request:
/// `{"min": A, "max": B}` (uniform, `0 ≤ A ≤ B`; `"distribution": "uniform"` may name it), or
/// `{"distribution": "lognormal", "median": M, "sigma": S, "max": X}` (`M > 0`, `S ≥ 0`, `X ≥ M`, `max`
/// optional).
enum DelayParser {
    static let distributions = ["uniform", "lognormal"]
    static let uniformKeys = ["distribution", "min", "max"]
    static let lognormalKeys = ["distribution", "median", "sigma", "max"]

    /// The seconds `value` gives, or nil once the reason it gives none is in `diagnostics`.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> Double? {
        guard let seconds = value.numberValue else {
            diagnostics.error(file, map.value(path), "'delay' must be a number of seconds, found \(value.kindName)")
            return nil
        }
        return nonNegative(seconds, named: "delay", at: path, file: file, map: map, into: &diagnostics)
    }

    /// A response's or a chunk's delay: a number of seconds or a distribution; nil once the reason it gives
    /// none is in `diagnostics` (every problem of a distribution is reported, each at its own position).
    static func parseResponseDelay(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> ResponseDelay? {
        guard case .object(let members) = value else {
            guard value.numberValue != nil else {
                diagnostics.error(
                    file, map.value(path),
                    "'delay' must be a number of seconds or a distribution such as {\"min\": 0.1, \"max\": 2}, found \(value.kindName)"
                )
                return nil
            }
            return parse(value, at: path, file: file, map: map, into: &diagnostics).map(ResponseDelay.fixed)
        }
        var distribution = "uniform"
        if let named = members.first(where: { $0.key == "distribution" }) {
            guard case .string(let name) = named.value, distributions.contains(name) else {
                var message = "'distribution' must be \"uniform\" or \"lognormal\", found \(named.value.compactText)"
                if case .string(let name) = named.value,
                    let closest = Suggestion.closest(to: name, among: distributions)
                {
                    message += "; did you mean '\(closest)'?"
                }
                diagnostics.error(file, map.value(path + ["distribution"]), message)
                return nil
            }
            distribution = name
        }
        let lognormal = distribution == "lognormal"
        let keys = lognormal ? lognormalKeys : uniformKeys
        let errorsBefore = diagnostics.errors.count
        var numbers: [String: Double] = [:]
        for member in members where member.key != "distribution" {
            let memberPath = path + [member.key]
            guard keys.contains(member.key) else {
                let takes = lognormal ? "'median', 'sigma' and 'max'" : "'min' and 'max'"
                var message: String
                if (lognormal ? uniformKeys : lognormalKeys).contains(member.key) {
                    message =
                        lognormal
                        ? "'\(member.key)' belongs to a delay range; a lognormal delay takes \(takes)"
                        : "'\(member.key)' belongs to a lognormal delay; a delay range takes \(takes) (add \"distribution\": \"lognormal\" for a lognormal one)"
                } else {
                    message =
                        "unknown key '\(member.key)' in \(lognormal ? "a lognormal delay" : "a delay range"); it takes \(takes)"
                    if let closest = Suggestion.closest(to: member.key, among: keys.filter { $0 != "distribution" }) {
                        message += "; did you mean '\(closest)'?"
                    }
                }
                diagnostics.error(file, map.key(memberPath), message)
                continue
            }
            guard let number = member.value.numberValue else {
                let what = member.key == "sigma" ? "a number" : "a number of seconds"
                diagnostics.error(
                    file, map.value(memberPath), "'\(member.key)' must be \(what), found \(member.value.kindName)")
                continue
            }
            numbers[member.key] = nonNegative(
                number, named: member.key, at: memberPath, file: file, map: map, into: &diagnostics)
        }
        let required = lognormal ? ["median", "sigma"] : ["min", "max"]
        let missing = required.filter { key in !members.contains { $0.key == key } }
        if !missing.isEmpty {
            let needs =
                lognormal
                ? "a lognormal delay needs 'median' and 'sigma' (and may cap it with 'max')"
                : "a delay range needs 'min' and 'max'"
            diagnostics.error(file, map.value(path), "\(needs); '\(missing.joined(separator: "' and '"))' is missing")
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        if lognormal {
            guard let median = numbers["median"], let sigma = numbers["sigma"] else { return nil }
            guard median > 0 else {
                diagnostics.error(
                    file, map.value(path + ["median"]), "a lognormal delay's 'median' must be more than 0 seconds")
                return nil
            }
            if let max = numbers["max"], max < median {
                diagnostics.error(
                    file, map.value(path + ["max"]),
                    "the lognormal delay's 'max' \(ExchangeTree.seconds(max)) is below its 'median' \(ExchangeTree.seconds(median)); give 'max' ≥ 'median'"
                )
                return nil
            }
            return .lognormal(median: median, sigma: sigma, max: numbers["max"])
        }
        guard let min = numbers["min"], let max = numbers["max"] else { return nil }
        guard min <= max else {
            diagnostics.error(
                file, map.value(path),
                "the delay range's 'min' \(ExchangeTree.seconds(min)) is above its 'max' \(ExchangeTree.seconds(max)); give 'min' ≤ 'max'"
            )
            return nil
        }
        return .uniform(min: min, max: max)
    }

    private static func nonNegative(
        _ seconds: Double, named name: String, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> Double? {
        guard seconds >= 0, seconds.isFinite else {
            let unit = name == "sigma" ? "0 or more" : "0 or more seconds"
            diagnostics.error(file, map.value(path), "'\(name)' must not be negative; use \(unit)")
            return nil
        }
        return seconds
    }
}
