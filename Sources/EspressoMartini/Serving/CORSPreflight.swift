/// Answering a CORS preflight (doc/browsers-and-https.md): an `OPTIONS` request with `Access-Control-Request-Method`, on a route
/// that has no `OPTIONS` exchange. Pure; the `Decider` asks it only when `"cors": true`.
public enum CORSPreflight {
    /// Whether `request` is a preflight: `OPTIONS` with `Access-Control-Request-Method`.
    public static func isPreflight(_ request: Request) -> Bool {
        request.knownMethod == .options && request.headers.firstValue(named: "Access-Control-Request-Method") != nil
    }

    /// How long a browser may keep the preflight's answer, in seconds (Chromium caps it at 7200).
    public static let maxAgeSeconds = 7200

    /// The `204` for a preflight to a route whose exchanges answer `methods`. The origin headers
    /// (`Access-Control-Allow-Origin` and the rest) are added with every answer's.
    public static func answer(
        _ request: Request, allowing methods: [HTTPMethod], globalHeaders: [HTTPHeader]
    ) -> GeneratedAnswer {
        var headers = [
            HTTPHeader(name: "Access-Control-Allow-Methods", value: methods.map(\.name).joined(separator: ", "))
        ]
        if let requested = request.headers.firstValue(named: "Access-Control-Request-Headers"), !requested.isEmpty {
            headers.append(HTTPHeader(name: "Access-Control-Allow-Headers", value: requested))
        }
        headers.append(HTTPHeader(name: "Access-Control-Max-Age", value: String(maxAgeSeconds)))
        return GeneratedAnswer(
            statusCode: 204, headers: HTTPHeader.merging(own: headers, global: globalHeaders), body: [])
    }
}
