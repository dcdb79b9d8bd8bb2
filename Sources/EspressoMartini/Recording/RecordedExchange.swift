/// One request forwarded to the proxy's target and the answer it gave, to write into the tree
/// (`ExchangeRecorder`).
public struct RecordedExchange: Sendable {
    public var method: HTTPMethod
    /// As the request had it: percent-decoded, without the query.
    public var path: String
    /// The path's segments as the server split them (a segment sent with `%2F` holds its `/`, which no
    /// folder can: such an exchange is not written, and the recorder says why).
    public var segments: RequestPath
    /// Without `?`, not decoded; `""` for none.
    public var rawQuery: String
    /// Every request header, as received.
    public var requestHeaders: [HTTPHeader]
    /// The first `VariantConditions.bodyLimit` bytes of the request's body; nil for a request without one.
    public var requestBody: [UInt8]?
    public var requestBodySize: Int
    public var statusCode: Int
    /// The answer's headers, as the target sent them.
    public var responseHeaders: [HTTPHeader]
    /// A file holding the answer's body (on the requests folder's file system, moved into the tree when
    /// written); nil for an answer without one, or one whose body is in `responseBodyBytes`.
    public var responseBodyFile: String?
    /// The answer's body, when it was small enough to be kept in memory (written into the tree as a file);
    /// nil for an answer without one, or one whose body is in `responseBodyFile`.
    public var responseBodyBytes: [UInt8]?
    /// The body file holds the body decoded from its `Content-Encoding`, which is then not written.
    public var contentDecoded: Bool

    public init(
        method: HTTPMethod, path: String, segments: RequestPath? = nil, rawQuery: String, requestHeaders: [HTTPHeader],
        requestBody: [UInt8]?,
        requestBodySize: Int,
        statusCode: Int, responseHeaders: [HTTPHeader], responseBodyFile: String?, responseBodyBytes: [UInt8]? = nil,
        contentDecoded: Bool
    ) {
        self.method = method
        self.path = path
        self.segments = segments ?? RequestPath(path)
        self.rawQuery = rawQuery
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestBodySize = requestBodySize
        self.statusCode = statusCode
        self.responseHeaders = responseHeaders
        self.responseBodyFile = responseBodyFile
        self.responseBodyBytes = responseBodyBytes
        self.contentDecoded = contentDecoded
    }

    /// The request as the variants' conditions read it.
    public var request: Request {
        Request(
            method: method.name, path: path, segments: segments, rawQuery: rawQuery,
            headers: RequestHeaders(requestHeaders),
            body: requestBody, bodySize: requestBodySize)
    }

    /// The answer's headers as they are written: without `Date`, `Content-Length`, the hop-by-hop ones and a
    /// decoded `Content-Encoding`; the values of `--redact` headers, and of credential headers unless
    /// `--keep-header` or `--match-header` names them, as `REDACTED` (a `Set-Cookie` as `NAME=REDACTED` with
    /// its attributes, so that an app still sees a cookie of that name).
    public func writtenResponseHeaders(_ options: RecordingOptions) -> [HTTPHeader] {
        let hopByHop = HopByHopHeaders(in: responseHeaders)
        // A body the target sent without a type is replayed without one, not with the type of its file's name.
        let untyped =
            (responseBodyFile != nil || responseBodyBytes?.isEmpty == false)
            && !responseHeaders.contains { $0.isNamed("content-type") }
        return responseHeaders.compactMap { header in
            if header.isNamed("date") || header.isNamed("content-length") || hopByHop.contains(header.name) {
                return nil
            }
            if contentDecoded, header.isNamed("content-encoding") { return nil }
            let named = { (names: [String]) in
                names.contains { HTTPHeader.name(header.name, equalsCaseInsensitively: $0) }
            }
            if named(options.redactedHeaders)
                || (CredentialHeaders.contains(header.name) && !named(options.keptHeaders)
                    && !named(options.matchHeaders))
            {
                let redacted =
                    header.isNamed("set-cookie")
                    ? Self.redactedCookie(header.value) : CredentialHeaders.redacted
                return HTTPHeader(name: header.name, value: redacted)
            }
            return header
        } + (untyped ? [HTTPHeader(name: "Content-Type", value: HTTPHeader.withheld)] : [])
    }

    /// The length a HEAD or 304 answer announced for the body it did not send (its `Content-Length`), which
    /// its replay announces too; nil for other answers and for one without a length.
    public var announcedLength: UInt64? {
        guard method == .head || statusCode == 304,
            let value = responseHeaders.first(where: { $0.isNamed("content-length") })?.value
        else { return nil }
        return UInt64(value.filter { $0 != " " && $0 != "\t" })
    }

    /// `headers` (written) with the target's URL written as the mock's: a template,
    /// `http://{{request.headers.host}}/…`, which makes the response one; or, when the response holds `{{`
    /// already (which a template would read) or its body is in a file, as a path without the origin
    /// (`/…`, which clients resolve against the mock). Whether the response is then a template.
    public func rewritingTargetURL(
        in headers: [HTTPHeader], _ options: RecordingOptions
    ) -> (headers: [HTTPHeader], isTemplate: Bool) {
        guard let rewrite = options.targetURL,
            headers.contains(where: { TargetURLRewrite.rewrites($0.name) && $0.value.contains(rewrite.targetURL) })
        else { return (headers, false) }  // the common case: nothing to rewrite, no body to search
        let mustache = Array("{{".utf8)
        let holdsMustache =
            responseBodyFile != nil || headers.contains { $0.value.contains("{{") }
            || (responseBodyBytes.map { bytes in
                bytes.indices.dropLast().contains { bytes[$0] == mustache[0] && bytes[$0 + 1] == mustache[1] }
            } ?? false)
        let mockURL = holdsMustache ? "" : options.mockScheme + "://{{request.headers.host}}"
        guard let rewritten = rewrite.rewritten(headers, to: mockURL) else { return (headers, false) }
        return (rewritten, !holdsMustache)
    }

    /// `NAME=REDACTED; Path=/; HttpOnly` for `NAME=VALUE; Path=/; HttpOnly`: the cookie's value hidden, its
    /// name and attributes kept; `REDACTED` and the attributes when there is no name.
    static func redactedCookie(_ value: String) -> String {
        let pair = value.prefix { $0 != ";" }
        let attributes = value[pair.endIndex...]
        guard let equals = pair.firstIndex(of: "="), !pair[..<equals].allSatisfy(\.isWhitespace) else {
            return CredentialHeaders.redacted + attributes
        }
        return String(pair[...equals]) + CredentialHeaders.redacted + attributes
    }

    /// The conditions the request is written with (nil: none): every query parameter, each `--match-header`
    /// (`{"present": false}` when the request has none), each of the `ConditionalRequestHeaders` it has
    /// (`{"present": false}` for one it has not when it is in `absentHeaders`: the exchange has variants
    /// with it), and the body (`bodyCondition`). A body over `VariantConditions.bodyLimit` is not a condition (no condition can read it). A name
    /// given several times is matched on its first value.
    public func conditions(
        _ options: RecordingOptions, parser: any JSONParser, absentHeaders: [String] = []
    ) -> JSONValue? {
        var members: [JSONMember] = []
        // A parameter holding a NUL (`%00`), which no configuration may hold, is left out of the conditions.
        if !rawQuery.isEmpty,
            let query = Self.firstValues(
                URLEncodedForm(
                    fields: URLEncodedForm(parsing: rawQuery).fields.filter {
                        !$0.name.contains("\u{0}") && !$0.value.contains("\u{0}")
                    }))
        {
            members.append(JSONMember(key: "query", value: query))
        }
        var headers: [JSONMember] = []
        for name in options.matchHeaders + ConditionalRequestHeaders.names
        where !headers.contains(where: { HTTPHeader.name($0.key, equalsCaseInsensitively: name) }) {
            let value = requestHeaders.first { HTTPHeader.name($0.name, equalsCaseInsensitively: name) }?.value
            let named = { (names: [String]) in names.contains { HTTPHeader.name($0, equalsCaseInsensitively: name) } }
            if let value {
                headers.append(JSONMember(key: name, value: .string(value)))
            } else if named(options.matchHeaders) || named(absentHeaders) {
                headers.append(JSONMember(key: name, value: Self.absent))
            }
        }
        if !headers.isEmpty { members.append(JSONMember(key: "headers", value: .object(headers))) }
        if let body = requestBody, !body.isEmpty, body.count == requestBodySize {
            let contentType = requestHeaders.first { $0.isNamed("content-type") }?.value
            members.append(Self.bodyCondition(body, contentType: contentType, parser: parser))
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// The matcher of a header the request had not.
    static let absent = JSONValue.object([JSONMember(key: "present", value: .bool(false))])

    /// The condition a body is written with, the first that fits: a form (`application/x-www-form-urlencoded`)
    /// field by field; a `multipart/form-data` body part by part, whatever its boundary; a JSON document whole
    /// (`json` `""`); text as `body`; any other body (bytes that are not UTF-8, a NUL, which no JSON text of the
    /// tree may hold) as `body_base64`, byte for byte.
    private static func bodyCondition(_ body: [UInt8], contentType: String?, parser: any JSONParser) -> JSONMember {
        if let contentType, ContentType.essence(contentType) == "application/x-www-form-urlencoded",
            let text = writableText(body), case let fields = URLEncodedForm(parsing: text),
            fields.fields.allSatisfy({ isWritable($0.name) && isWritable($0.value) }), let form = firstValues(fields)
        {
            return JSONMember(key: "form", value: form)
        }
        if let contentType, let form = MultipartForm(parsing: body, contentType: contentType),
            let parts = multipartCondition(form)
        {
            return JSONMember(key: "multipart", value: parts)
        }
        if case .success(let document) = parser.parse(body) {
            let equals = JSONValue.object([JSONMember(key: "equals", value: document)])
            return JSONMember(key: "json", value: .object([JSONMember(key: "", value: equals)]))
        }
        if let text = writableText(body) { return JSONMember(key: "body", value: .string(text)) }
        return JSONMember(key: "body_base64", value: .string(Base64.encode(body)))
    }

    /// `{NAME: text}` for a plain field whose content is text, `{NAME: {"filename": …, "content_type": …,
    /// "body": …}}` for a file (`body_base64` when its content is not text); the first part of each name.
    /// Nil when a name, file name or type is no text a configuration may hold, or the form has no part.
    private static func multipartCondition(_ form: MultipartForm) -> JSONValue? {
        var members: [JSONMember] = []
        for part in form.parts where !members.contains(where: { $0.key == part.name }) {
            guard isWritable(part.name), part.filename.map(isWritable) ?? true, part.contentType.map(isWritable) ?? true
            else { return nil }
            let text = writableText(part.content)
            if part.filename == nil, part.contentType == nil, let text {
                members.append(JSONMember(key: part.name, value: .string(text)))
                continue
            }
            var fields: [JSONMember] = []
            if let filename = part.filename { fields.append(JSONMember(key: "filename", value: .string(filename))) }
            if let type = part.contentType { fields.append(JSONMember(key: "content_type", value: .string(type))) }
            fields.append(
                text.map { JSONMember(key: "body", value: .string($0)) }
                    ?? JSONMember(key: "body_base64", value: .string(Base64.encode(part.content))))
            members.append(JSONMember(key: part.name, value: .object(fields)))
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// `bytes` as text, when they are UTF-8 without a NUL (which JSON text of the tree may not hold).
    private static func writableText(_ bytes: [UInt8]) -> String? {
        bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)
    }

    /// Whether decoded text can be written and read back as it is: no NUL, and no U+FFFD, which is what bytes
    /// that were not UTF-8 became (`%FF` in a form).
    private static func isWritable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 == "\u{0}" || $0 == "\u{FFFD}" }
    }

    /// `{NAME: first value}` in order of first appearance; nil for no field.
    private static func firstValues(_ form: URLEncodedForm) -> JSONValue? {
        var members: [JSONMember] = []
        for field in form.fields where !members.contains(where: { $0.key == field.name }) {
            members.append(JSONMember(key: field.name, value: .string(field.value)))
        }
        return members.isEmpty ? nil : .object(members)
    }
}
