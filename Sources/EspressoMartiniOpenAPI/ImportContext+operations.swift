import EspressoMartini

extension ImportContext {
    /// The methods an OpenAPI path item names operations by.
    static let methods: [(key: String, method: HTTPMethod)] = [
        ("get", .get), ("put", .put), ("post", .post), ("delete", .delete), ("options", .options), ("head", .head),
        ("patch", .patch),
        ("trace", .trace),
    ]

    /// One exchange per operation of `paths`, in the description's order. Two operations whose routes match
    /// the same requests with the same method (`/pets/{id}` and `/pets/{petId}`): the first is imported,
    /// the other left out with a warning.
    func exchanges() -> [ExchangeDraft] {
        var exchanges: [ExchangeDraft] = []
        var routes: [String: String] = [:]
        for (template, item) in root.member("paths")?.members ?? [] {
            guard template.hasPrefix("/") else {
                if !template.hasPrefix("x-") {
                    report.warning(at: item.location, "a path starts with '/'; '\(template)' is left out")
                }
                continue
            }
            guard let item = files.dereference(item, otherwise: "its operations are left out") else { continue }
            for (key, method) in Self.methods {
                // An operation given as a `$ref` is not in the specification, but tools write it and read it.
                guard let written = item.member(key),
                    let operation = files.dereference(written, otherwise: "this operation is left out")
                else { continue }
                let path =
                    basePath(operation: operation, pathItem: item) + segments(of: template, at: operation.location)
                let route =
                    "\(method.name) /"
                    + path.map { segment in
                        switch segment {
                        case .literal(let text): text
                        case .parameter: "{}"
                        }
                    }.joined(separator: "/")
                if let earlier = routes[route] {
                    report.warning(
                        at: operation.location,
                        "\(method.name) \(template) matches the same requests as \(earlier), imported before it; it is left out"
                    )
                    continue
                }
                do throws(TreeWritingError) {
                    _ = try TreeWriter.methodFolder(method: method, path: path)
                } catch {
                    report.warning(at: operation.location, "\(error.message); this operation is left out")
                    continue
                }
                let name = "\(method.name) \(template)"
                routes[route] = name
                exchanges.append(
                    ExchangeDraft(
                        method: method, path: path,
                        answers: answers(operation.member("responses"), of: operation, named: name)))
            }
        }
        return exchanges
    }
}
