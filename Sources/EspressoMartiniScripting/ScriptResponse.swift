import EspressoMartini

/// What a script's `Response` says, as the VM reads it from the prelude's answer: the status, the
/// headers the script gave, and the body as `Body` made it. `ScriptAnswer` turns it into the bytes sent.
struct ScriptResponse: Equatable {
    enum Body: Equatable {
        case none
        /// A text body; with `data`, a Mustache template.
        case text([UInt8], data: JSONValue?)
        /// JSON text; with `data`, each string in it is a Mustache template.
        case json([UInt8], data: JSONValue?)
        /// YAML text.
        case yaml([UInt8])
        /// A value to write as YAML once each string in it is rendered with `data` (JSON text).
        case yamlTemplate(json: [UInt8], data: JSONValue?)
        case file(path: String, contentType: String?)
        case template(path: String, contentType: String?, data: JSONValue?)
    }

    var status: Int
    var headers: [HTTPHeader]
    var body: Body
}
