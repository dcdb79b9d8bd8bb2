import Foundation

extension NetworkExchange {
    /// What a method folder's `configuration.json` would hold for this exchange, with every body inline
    /// (`body`, `body_base64` for bytes and files): the `configuration` the admin API's
    /// `POST /__espressomartini/exchanges` takes. Throws `MockServerError.invalidArgument` for what cannot
    /// be written (no response, a body that does not encode, a file that is not there).
    public func inlineConfiguration() throws -> JSONValue {
        var encoder = ConfigurationEncoder(placement: InlineBodies())
        return try encoder.configuration(of: self)
    }

    /// Writes `exchanges` as an ordinary tree into `requestsFolder` (made if missing): a method folder each,
    /// `REQUESTS/api/v1/user/POST/configuration.json`, with its data, JSON and file bodies in files beside it
    /// (`response.json`, `response.bin`, a file's own name). `espressomartini run --requests-folder` serves it.
    public static func writeTree(_ exchanges: [NetworkExchange], into requestsFolder: URL) throws {
        try TreeWriter.write(exchanges, into: requestsFolder)
    }
}
