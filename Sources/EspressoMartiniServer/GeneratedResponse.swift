import CMicroHTTPD
import EspressoMartini

/// A response made for one request: the `400`/`404`/`405` errors and (later) the admin API's answers.
struct GeneratedResponse {
    let statusCode: UInt32
    let body: [UInt8]
    let headers: [HTTPHeader]

    /// `{"error": message}` as JSON, with the global headers below the JSON type.
    static func error(_ status: UInt32, _ message: String, extraHeaders: [HTTPHeader] = [], globalHeaders: [HTTPHeader]) -> GeneratedResponse {
        json(status, .object([JSONMember(key: "error", value: .string(message))]), extraHeaders: extraHeaders, globalHeaders: globalHeaders)
    }

    static func json(_ status: UInt32, _ value: JSONValue, extraHeaders: [HTTPHeader] = [], globalHeaders: [HTTPHeader]) -> GeneratedResponse {
        let response = MockResponse(statusCode: Int(status), headers: extraHeaders, body: .inline(value))
        return GeneratedResponse(statusCode: status, body: response.body.inlineBytes, headers: response.effectiveHeaders(global: globalHeaders))
    }

    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        guard let response = LibMicroHTTPDResponse.copying(body, headers: headers) else { return (MHD_Result.NO, statusCode) }
        defer { MHD_destroy_response(response) }
        return (MHD_queue_response(connection, statusCode, response), statusCode)
    }
}
