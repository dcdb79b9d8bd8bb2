/// The `"$schema"` key of either kind of `configuration.json`: it names the file's JSON Schema for
/// editors, and espressomartini ignores it.
enum SchemaReference {
    static let key = "$schema"

    /// Accepts a string silently; any other value is a warning (the shipped schemas want a string),
    /// and is ignored like the string. `position` (the value's) is only computed for the warning.
    static func check(
        _ value: JSONValue, file: String, at position: @autoclosure () -> SourcePosition,
        into diagnostics: inout Diagnostics
    ) {
        guard case .string = value else {
            diagnostics.warning(
                file, position(),
                "'$schema' names the file's JSON Schema for editors and should be a string, found \(value.kindName); it is ignored"
            )
            return
        }
    }
}
