extension Base64 {
    /// The bytes of the base64 string `value` that `key` gives at `path` of `file` (a response's or a
    /// condition's `body_base64`); nil once the reason is in `diagnostics`, at the first character that is
    /// not base64.
    static func decode(
        _ value: JSONValue, key: String, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> [UInt8]? {
        guard case .string(let text) = value else {
            diagnostics.error(
                file, map.value(path), "'\(key)' must be a string of base64 (RFC 4648), found \(value.kindName)")
            return nil
        }
        switch decode(text) {
        case .success(let bytes):
            return bytes
        case .failure(let problem):
            diagnostics.error(
                file, map.position(problem.position, inStringAt: path), "'\(key)' is not base64: \(problem.message)")
            return nil
        }
    }
}
