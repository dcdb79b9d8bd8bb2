/// Where a response's body goes when an exchange is encoded: `InlineBodies` for the admin API,
/// `FolderBodies` for a method folder of a tree. Everything else of the configuration is the same in both.
protocol BodyPlacement {
    /// The members that give a response `body`, and the `Content-Type` to add when the response's headers
    /// name none, for a body whose type the server could not tell from the configuration.
    mutating func place(
        _ body: EncodedBody, template: Bool
    ) throws -> (members: [String: JSONValue], contentType: String?)
}
