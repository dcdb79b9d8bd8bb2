/// What variant conditions read from a request. The request model conforms; each part should be
/// parsed on first use and cached, since several conditions and variants read the same parts.
public protocol VariantInput {
    /// The values of query parameter `name` (percent-decoded, `+` as a space), in order.
    func queryValues(_ name: String) -> [String]
    /// The values of the header named `lowercasedName`, whatever case the request used, in order.
    func headerValues(_ lowercasedName: String) -> [String]
    /// The values of cookie `name` from the `Cookie` headers. Default: `CookieHeader` on them.
    func cookieValues(_ name: String) -> [String]
    /// The route's capture `name`, percent-decoded; nil when the route does not capture it.
    func pathParameter(_ name: String) -> String?
    /// The body as text (bytes that are not UTF-8 repaired); nil when the request has none.
    /// Not read when `bodyTooLarge`.
    var bodyText: String? { get }
    /// The body's bytes as sent (its first `VariantConditions.bodyLimit`); nil when the request has none.
    /// Not read when `bodyTooLarge`. Default: `bodyText`'s UTF-8.
    var bodyBytes: [UInt8]? { get }
    /// The body is longer than `VariantConditions.bodyLimit`: body, JSON and form conditions fail.
    var bodyTooLarge: Bool { get }
    /// The body parsed as JSON, whatever its `Content-Type`; nil when there is none or it is not JSON.
    var bodyJSON: JSONValue? { get }
    /// The value at `pointer` in the body read as JSON: nil when the body is not JSON, `.some(nil)` when
    /// nothing is at the pointer. Default: `pointer` on `bodyJSON`.
    func bodyJSON(at pointer: JSONPointer) -> JSONValue??
    /// The values of field `name` of the body read as `application/x-www-form-urlencoded`.
    /// Default: `URLEncodedForm` on `bodyText`.
    func formValues(_ name: String) -> [String]
    /// The body read as `multipart/form-data` with the boundary of the `Content-Type` header; nil when it is
    /// not one. Default: `MultipartForm` on `bodyBytes`.
    var multipartForm: MultipartForm? { get }
    /// The GraphQL operation the request runs (`GraphQLOperation.selected(inRequestBody:)` for a
    /// POST with a JSON body, `selected(inQuery:)` for a GET); nil when there is none.
    var graphQLOperation: GraphQLOperation? { get }
}

extension VariantInput {
    public func bodyJSON(at pointer: JSONPointer) -> JSONValue?? {
        bodyJSON.map { pointer.value(in: $0) }
    }

    public func cookieValues(_ name: String) -> [String] {
        CookieHeader.values(named: name, in: headerValues("cookie"))
    }

    public func formValues(_ name: String) -> [String] {
        guard let bodyText else { return [] }
        return URLEncodedForm(parsing: bodyText).values(named: name)
    }

    public var bodyBytes: [UInt8]? { bodyText.map { Array($0.utf8) } }

    public var multipartForm: MultipartForm? {
        guard let bodyBytes, let contentType = headerValues("content-type").first else { return nil }
        return MultipartForm(parsing: bodyBytes, contentType: contentType)
    }
}
