/// Reads a `delay` member, shared by response objects and the server configuration: a number of
/// seconds, 0 or more.
enum DelayParser {
    /// The seconds `value` gives, or nil once the reason it gives none is in `diagnostics`.
    static func parse(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions, into diagnostics: inout Diagnostics
    ) -> Double? {
        guard let seconds = value.numberValue else {
            diagnostics.error(file, map.value(path), "'delay' must be a number of seconds, found \(value.kindName)")
            return nil
        }
        guard seconds >= 0 else {
            diagnostics.error(file, map.value(path), "'delay' must not be negative; use 0 or more seconds")
            return nil
        }
        return seconds
    }
}
