/// Reads the body of `POST /__espressomartini/exchanges`, `{"method": "POST", "route": "/api/v1/orders/{id}",
/// "configuration": C}`, C being what a method folder's `configuration.json` may hold, read by the loader's
/// own `ResponseReader`: files it names resolve against the requests folder and must stay inside it.
/// Problems are positioned in the body (`request body:3:17: error: …`).
struct RuntimeExchangeReader {
    static let keys = ["method", "route", "configuration"]
    static let example = #"{"method": "GET", "route": "/api/v1/user", "configuration": {"status_code": 200}}"#

    let loader: TreeLoader
    /// The requests folder as the user named it, and with links resolved.
    let requestsFolder: String
    let rootRealPath: String

    /// The exchange `body` declares, numbered `id`; nil when it has an error. Every problem is in the
    /// diagnostics, warnings too.
    func read(_ body: [UInt8], id: Int) -> (exchange: Exchange?, diagnostics: Diagnostics) {
        var diagnostics = Diagnostics()
        let file = JournalFilter.bodyName
        guard
            let (members, map) = loader.parser.object(
                body, file: file, into: &diagnostics,
                notAnObject: { "the body must be a JSON object such as \(Self.example), found \($0)" })
        else { return (nil, diagnostics) }
        var method: HTTPMethod?
        var route: RoutePattern?
        var configuration: JSONValue?
        for member in members {
            let at = map.value([member.key])
            switch member.key {
            case "method":
                guard case .string(let name) = member.value, let named = HTTPMethod(name: name) else {
                    let methods = HTTPMethod.allCases.map(\.name).joined(separator: ", ")
                    diagnostics.error(file, at, "'method' must be one of \(methods), found \(member.value.compactText)")
                    continue
                }
                method = named
            case "route":
                guard case .string(let text) = member.value else {
                    diagnostics.error(
                        file, at,
                        "'route' must be a route such as \"/api/v1/orders/{id}\", found \(member.value.kindName)")
                    continue
                }
                switch Self.route(text) {
                case .success(let pattern): route = pattern
                case .failure(let problem): diagnostics.error(file, at, problem.message)
                }
            case "configuration":
                configuration = member.value
            default:
                var message = "unknown key '\(member.key)'; the body takes \(VariantConditions.list(Self.keys))"
                if let suggestion = Suggestion.closest(to: member.key, among: Self.keys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.error(file, map.key([member.key]), message)
            }
        }
        for (key, given) in [("method", method != nil), ("route", route != nil)]
        where !given && !members.contains(where: { $0.key == key }) {
            diagnostics.error(file, map.value([]), "the body has no '\(key)'; give one, as in \(Self.example)")
        }
        // The configuration is read whatever the rest holds, so that every problem is reported at once.
        let (responses, variants, sequence) = read(
            configuration, route: route ?? RoutePattern([]), method: method ?? .get, body: body, into: &diagnostics)
        guard let method, let route, !diagnostics.hasErrors else { return (nil, diagnostics) }
        let exchange = Exchange(
            method: method, route: route, methodFolderName: method.name, responses: responses, variants: variants,
            sequence: sequence, runtimeID: id)
        return (exchange, diagnostics)
    }

    /// The responses of `configuration`, as a method folder's configuration.json gives them (one `200`
    /// with no body without one).
    private func read(
        _ configuration: JSONValue?, route: RoutePattern, method: HTTPMethod, body: [UInt8],
        into diagnostics: inout Diagnostics
    ) -> (responses: [ConfiguredResponse], variants: [Variant], sequence: SequenceMode) {
        guard let configuration else { return ([ConfiguredResponse()], [], .repeatLast) }
        guard let folder = OpenFolder(path: rootRealPath) else {
            diagnostics.error(
                requestsFolder, nil, "the requests folder cannot be opened, and runtime exchanges may name its files")
            return ([], [], .repeatLast)
        }
        let reader = ResponseReader(
            requestsFolder: requestsFolder, route: route, parentFolder: folder, methodFolderName: method.name,
            knownRealPath: rootRealPath, parentChain: FolderChain(rootRealPath), rootRealPath: rootRealPath,
            map: LazyJSONSourceMap(body, prefix: ["configuration"]), scriptChecker: loader.scriptChecker,
            isRuntime: true)
        defer { loader.scriptChecker?.loadEnded() }
        return reader.read(configuration, into: &diagnostics)
    }

    /// A route as folders spell it, refused where the loader would refuse its folders.
    static func route(_ text: String) -> Result<RoutePattern, JournalFilter.Problem> {
        let parsed = JournalFilter.route(text)
        if case .success(let pattern) = parsed, pattern.segments.first?.literalText == TreeLoader.reservedFolder {
            return .failure(
                JournalFilter.Problem(
                    message: "the route '\(text)' is under \(TreeLoader.reservedFolder), which is the admin API's"))
        }
        return parsed
    }
}
