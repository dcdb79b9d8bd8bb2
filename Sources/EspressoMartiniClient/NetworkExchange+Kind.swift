import Foundation

extension NetworkExchange {
    /// What a response sends after its headers. The `Content-Type` follows from the kind unless the
    /// response's headers name one: none for `.empty`, `text/plain; charset=utf-8` for `.string`,
    /// `application/json` for `.json`, `application/octet-stream` for `.data`, the file's extension for
    /// `.fileContent` (the table of doc/tree.md), `text/event-stream` or NDJSON for `.stream`.
    public enum Kind: Sendable {
        /// No body.
        case empty
        /// These bytes, as they are.
        case data(Data)
        /// This text, in UTF-8.
        case string(String)
        /// `value` encoded by `encoder`, byte for byte as the encoder writes it.
        case json(any Encodable & Sendable, encoder: JSONEncoder = JSONEncoder())
        /// The bytes of the file at this path (relative to the current folder), read when the exchange is
        /// written or stubbed.
        case fileContent(pathToFile: String)
        /// `stream`: chunks sent one after another on one connection, each after its own delay
        /// (doc/streams-and-networks.md); `repeats` starts again after the last until the client goes.
        case stream([StreamChunk], repeats: Bool = false)
    }
}
