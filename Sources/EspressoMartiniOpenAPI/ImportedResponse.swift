import EspressoMartini

/// One documented response as the import answers it: its headers, its body, and its named examples'
/// bodies (reachable with `Prefer: example=NAME`).
struct ImportedResponse {
    struct NamedBody {
        let name: String
        let body: ResponseDraft.Body
    }

    var headers: [HTTPHeader] = []
    var body: ResponseDraft.Body = .none
    var examples: [NamedBody] = []

    /// The response with `status`, and the body of the example `name` (nil: the response's own body).
    func draft(status: Int, example: NamedBody? = nil) -> ResponseDraft {
        ResponseDraft(statusCode: status, headers: headers, body: example?.body ?? body)
    }
}
