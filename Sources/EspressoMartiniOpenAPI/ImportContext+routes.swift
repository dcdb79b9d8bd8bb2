import EspressoMartini

extension ImportContext {
    /// The path segments of the first server's URL (`servers[0].url` with its variables at their defaults;
    /// the operation's own servers first, then its path's, then the document's), or of `basePath` in 2.0.
    func basePath(operation: Located, pathItem: Located) -> [SegmentDraft] {
        if version == .swagger2 {
            guard let basePath = root.member("basePath")?.string else { return [] }
            return Self.literalSegments(of: basePath)
        }
        guard
            let servers = [operation, pathItem, root].lazy.compactMap({ $0.member("servers") }).first(where: {
                !$0.elements.isEmpty
            }),
            let server = servers.elements.first, let url = server.member("url")?.string
        else { return [] }
        var text = url
        for (name, variable) in server.member("variables")?.members ?? [] {
            let value = variable.member("default") ?? variable.member("enum")?.elements.first
            guard let replacement = value?.string else { continue }
            text = text.replacing("{\(name)}", with: replacement)
        }
        let path = Self.urlPath(text)
        if path.contains("{") {
            report.warning(
                at: server.location,
                "the server URL '\(url)' has a variable without a default in its path; the path is taken as it is")
        }
        return Self.literalSegments(of: path)
    }

    /// The path of a URL: `https://host:8080/v1?x` → `/v1`; a relative URL is a path already.
    static func urlPath(_ url: String) -> String {
        var rest = Substring(url)
        if let schemeEnd = rest.firstRange(of: "://"), !rest[..<schemeEnd.lowerBound].contains("/") {
            rest = rest[schemeEnd.upperBound...]
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        } else if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        return String(rest.prefix { $0 != "?" && $0 != "#" })
    }

    private static func literalSegments(of path: String) -> [SegmentDraft] {
        path.split(separator: "/").map { .literal(DescriptionFiles.percentDecoded(String($0))) }
    }

    /// The segments of a path template: `{name}` a parameter; a segment mixing text and a parameter
    /// (`{id}.json`) becomes the parameter it names first, with a warning (a folder matches whole segments).
    func segments(of template: String, at location: JSONLocation) -> [SegmentDraft] {
        template.split(separator: "/").map { part -> SegmentDraft in
            guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else {
                return .literal(DescriptionFiles.percentDecoded(String(part)))
            }
            let name = String(part[part.index(after: open)..<close])
            if part.first != "{" || part.index(after: close) != part.endIndex {
                report.warning(
                    at: location,
                    "the segment '\(part)' is matched as a whole by the parameter {\(name)}: a folder matches whole segments"
                )
            }
            return .parameter(name)
        }
    }
}
