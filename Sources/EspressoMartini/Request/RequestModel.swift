/// A request as conditions, templates and scripts read it: each part parsed on first use and kept for the
/// request, so several conditions, variants and templates share one parse. Built only for exchanges that
/// read the request; a static exchange's request never makes one. One per request, used by one thread at a
/// time (a script's thread takes it over while the request's connection is suspended), hence sendable.
public final class RequestModel: VariantInput, @unchecked Sendable {
    public let request: Request
    /// The route that answers, whose `{name}` captures are the path parameters.
    public let route: RoutePattern
    private let parser: any JSONParser

    public init(_ request: Request, route: RoutePattern, parser: any JSONParser) {
        self.request = request
        self.route = route
        self.parser = parser
    }

    public private(set) lazy var queryParameters: URLEncodedForm = request.queryParameters

    /// In arrival order, names as sent.
    public private(set) lazy var headers: [HTTPHeader] = request.headers.all

    public private(set) lazy var pathParameters: [PathParameter] = request.pathParameters(of: route)

    public private(set) lazy var bodyText: String? = request.body.map { String(decoding: $0, as: UTF8.self) }

    public var bodyBytes: [UInt8]? { request.body }

    public private(set) lazy var multipartForm: MultipartForm? = {
        guard let body = request.body, let contentType = headerValues("content-type").first else { return nil }
        return MultipartForm(parsing: body, contentType: contentType)
    }()

    public var bodyJSON: JSONValue? {
        if let built = builtBodyJSON { return built }
        var value: JSONValue?
        if !bodyTooLarge, let body = request.body, !body.isEmpty, case .success(let parsed) = parser.parse(body) {
            value = parsed
        }
        builtBodyJSON = .some(value)
        return value
    }

    public private(set) lazy var formParameters: URLEncodedForm = URLEncodedForm(parsing: bodyText ?? "")

    public private(set) lazy var graphQLOperation: GraphQLOperation? = {
        if request.knownMethod == .get { return GraphQLOperation.selected(inQuery: queryParameters) }
        return bodyJSON.flatMap(GraphQLOperation.selected(inRequestBody:))
    }()

    /// The values found at each pointer asked so far (the body scanned, not built, once per pointer): the
    /// first one here, others in a short list, since conditions mostly ask about one pointer.
    private var firstBodyJSONValue: (pointer: String, value: JSONValue??)?
    private var bodyJSONValues: [(pointer: String, value: JSONValue??)] = []

    /// Scans the body for the value at `pointer` without building the document (`JSONScanner`), parsing
    /// only the value found; the whole document is built only when `bodyJSON` is asked for.
    public func bodyJSON(at pointer: JSONPointer) -> JSONValue?? {
        if let first = firstBodyJSONValue {
            if first.pointer == pointer.text { return first.value }
            if let known = bodyJSONValues.first(where: { $0.pointer == pointer.text }) { return known.value }
        }
        let value: JSONValue??
        if let built = builtBodyJSON {
            value = built.map { pointer.value(in: $0) }
        } else if bodyTooLarge || (request.body?.isEmpty ?? true) {
            value = nil
        } else {
            value = request.body!.withUnsafeBufferPointer { bytes in
                JSONScanner.locate(pointer.tokens, in: bytes, parser: parser).map { range in
                    range.flatMap { JSONScanner.value(at: $0, in: bytes, parser: parser) }
                }
            }
        }
        if firstBodyJSONValue == nil {
            firstBodyJSONValue = (pointer.text, value)
        } else {
            bodyJSONValues.append((pointer.text, value))
        }
        return value
    }

    /// `bodyJSON` once built (nil inside when the body is not JSON); nil before.
    private var builtBodyJSON: JSONValue??

    public var bodyTooLarge: Bool { request.bodySize > (request.body?.count ?? 0) }

    /// The values asked for so far, by name: the variants of one exchange mostly ask about the same few
    /// names, and a short list beats hashing.
    private var queryValuesAsked: [(name: String, values: [String])] = []
    private var headerValuesAsked: [(name: String, values: [String])] = []

    public func queryValues(_ name: String) -> [String] {
        if let known = queryValuesAsked.first(where: { $0.name == name }) { return known.values }
        let values = URLEncodedForm.values(named: name, in: request.rawQuery)
        queryValuesAsked.append((name, values))
        return values
    }

    public func headerValues(_ lowercasedName: String) -> [String] {
        if let known = headerValuesAsked.first(where: { $0.name == lowercasedName }) { return known.values }
        let values = request.headers.values(named: lowercasedName)
        headerValuesAsked.append((lowercasedName, values))
        return values
    }

    public func pathParameter(_ name: String) -> String? {
        pathParameters.first { $0.name == name }?.value
    }

    public func formValues(_ name: String) -> [String] { formParameters.values(named: name) }
}
