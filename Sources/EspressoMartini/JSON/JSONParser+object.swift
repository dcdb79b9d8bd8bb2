extension JSONParser {
    /// `bytes` read as one JSON object, for a reader that reports every problem with its position: its
    /// members and where each lies, or nil once the syntax error, or `notAnObject` with the kind of value
    /// found (`"an array"`), is reported against `file`.
    func object(
        _ bytes: [UInt8], file: String, into diagnostics: inout Diagnostics, notAnObject: (String) -> String
    ) -> (members: [JSONMember], map: LazyJSONSourceMap)? {
        switch parse(bytes) {
        case .failure(let syntax):
            diagnostics.error(file, syntax.position, syntax.message)
            return nil
        case .success(let document):
            let map = LazyJSONSourceMap(bytes)
            guard case .object(let members) = document else {
                diagnostics.error(file, map.value([]), notAnObject(document.kindName))
                return nil
            }
            return (members, map)
        }
    }
}
