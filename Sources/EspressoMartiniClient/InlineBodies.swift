import Foundation

/// Bodies inside the configuration, as the admin API takes it: text as `body`, bytes as `body_base64`
/// (a template as `body`, since templates are text).
struct InlineBodies: BodyPlacement {
    func place(_ body: EncodedBody, template: Bool) throws -> (members: [String: JSONValue], contentType: String?) {
        switch body {
        case .text(let text):
            return (["body": .string(text)], nil)
        case .json(let data):
            // A string keeps the encoder's bytes exactly; the server would send a string as text/plain.
            return (["body": .string(String(decoding: data, as: UTF8.self))], FileContentType.json)
        case .bytes(let data):
            return (try Self.members(data, template: template), template ? FileContentType.unknown : nil)
        case .file(let url):
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw MockServerError.invalidArgument("fileContent: \(url.path) cannot be read: \(error)")
            }
            return (try Self.members(data, template: template), FileContentType.forFile(url.lastPathComponent))
        }
    }

    private static func members(_ data: Data, template: Bool) throws -> [String: JSONValue] {
        guard template else { return ["body_base64": .string(data.base64EncodedString())] }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MockServerError.invalidArgument("a template body must be UTF-8 text")
        }
        return ["body": .string(text)]
    }
}
