/// One response to write: status, headers in order (a repeated name is written as an array of values) and
/// a body.
public struct ResponseDraft: Sendable {
    public enum Body: Sendable, Equatable {
        case none
        /// Written into `configuration.json` as `body` (a string is sent as it is, any other value as JSON).
        case inline(JSONValue)
        /// Written beside `configuration.json` as `response-N.EXT`; identical bodies of one exchange share a file.
        case bytes([UInt8], fileExtension: String)
        /// A file already written elsewhere on the same file system (a body streamed to disk), renamed into
        /// the method folder as `response-N.EXT`.
        case movedFile(path: String, fileExtension: String)
        /// A file already in the method folder, named as it is (an earlier response of a sequence kept as written).
        case existingFile(String)
    }

    public var statusCode: Int
    public var headers: [HTTPHeader]
    public var body: Body
    /// Written with `"template": true`: its header values (and body) are rendered for each request.
    public var isTemplate = false
    /// `content_length`: what a HEAD or 304 answer announces for a body it does not send.
    public var contentLength: UInt64?

    public init(statusCode: Int, headers: [HTTPHeader] = [], body: Body = .none) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}
