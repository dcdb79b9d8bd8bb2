/// A request as conditions (and later templates and scripts) read it: each part parsed on first use and
/// kept for the request, so several conditions and variants share one parse. Built only for exchanges
/// that read the request; a static exchange's request never makes one. One per request, on one thread.
public final class RequestModel: VariantInput {
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

    public private(set) lazy var bodyJSON: JSONValue? = {
        guard !bodyTooLarge, let body = request.body, !body.isEmpty, case .success(let value) = parser.parse(body) else { return nil }
        return value
    }()

    public private(set) lazy var formParameters: URLEncodedForm = URLEncodedForm(parsing: bodyText ?? "")

    public private(set) lazy var graphQLOperation: GraphQLOperation? = {
        if request.knownMethod == .get { return GraphQLOperation.selected(inQuery: queryParameters) }
        return bodyJSON.flatMap(GraphQLOperation.selected(inRequestBody:))
    }()

    public var bodyTooLarge: Bool { request.bodySize > (request.body?.count ?? 0) }

    public func queryValues(_ name: String) -> [String] { queryParameters.values(named: name) }

    public func headerValues(_ lowercasedName: String) -> [String] {
        headers.compactMap { $0.name.lowercased() == lowercasedName ? $0.value : nil }
    }

    public func pathParameter(_ name: String) -> String? {
        pathParameters.first { $0.name == name }?.value
    }

    public func formValues(_ name: String) -> [String] { formParameters.values(named: name) }
}
