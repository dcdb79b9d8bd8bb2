/// What the tree writer wrote for one exchange.
public struct WrittenExchange: Sendable {
    /// The method folder, relative to the requests folder (`api/pets/{petId}/GET`).
    public let folder: String
    /// The body files written or kept, by name, in the order the configuration names them.
    public let bodyFiles: [String]
    /// The `configuration.json` written.
    public let configuration: JSONValue
}
