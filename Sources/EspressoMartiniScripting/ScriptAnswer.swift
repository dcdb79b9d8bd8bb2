import EspressoMartini

/// Turns what the prelude answers into the bytes sent: the script's status and headers, the content type
/// its body implies, then the global headers (`HTTPHeader.merging`: the script's own `Content-Type` wins);
/// `Body.file` and `Body.template` read their file here, inside the requests folder only, and a template
/// sees what every template sees (`ScriptJob.templateContext`). Every failure is a `500` with
/// `{"error", "route", "line"}`.
public enum ScriptAnswer {
    /// `failed` hears of every failure, for the log.
    public static func make(fromAnswer text: String, job: ScriptJob, parser: any JSONParser, failed: (ScriptProblem) -> Void) -> GeneratedAnswer {
        let script = job.script, globalHeaders = job.answer.tree.globalHeaders
        func failure(_ problem: ScriptProblem, script: ResponseScript, globalHeaders: [HTTPHeader]) -> GeneratedAnswer {
            failed(problem)
            return Self.failure(problem, script: script, globalHeaders: globalHeaders)
        }
        guard case .success(.object(let members)) = parser.parse(Array(text.utf8)) else {
            return failure(ScriptProblem(message: "the script's answer could not be read"), script: script, globalHeaders: globalHeaders)
        }
        if let problem = problem(from: members) { return failure(problem, script: script, globalHeaders: globalHeaders) }
        guard case .integer(let status)? = members.value("status"), case .array(let headerPairs)? = members.value("headers"),
              case .object(let body)? = members.value("body") else {
            return failure(ScriptProblem(message: "the script's answer could not be read"), script: script, globalHeaders: globalHeaders)
        }
        var headers: [HTTPHeader] = []
        for case .array(let pair) in headerPairs where pair.count == 2 {
            guard case .string(let name) = pair[0], case .string(let value) = pair[1] else { continue }
            guard isSendable(name: name, value: value) else {
                return failure(ScriptProblem(message: "the header \(JSONValue.string(name).compactText) cannot be sent: a name is a token and a value has no line break"), script: script, globalHeaders: globalHeaders)
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        let bytes: [UInt8], derivedType: String?
        switch content(of: body, job: job) {
        case .success(let made): (bytes, derivedType) = made
        case .failure(let problem): return failure(problem, script: script, globalHeaders: globalHeaders)
        }
        let hasBody = status != 204 && status != 304
        headers = HTTPHeader.merging(own: headers, derivedContentType: hasBody ? derivedType : nil, global: globalHeaders)
        return GeneratedAnswer(statusCode: UInt32(status), headers: headers, body: hasBody ? bytes : [])
    }

    /// `{"error": MESSAGE, "route": ROUTE, "line": N}` with status 500; the line as the user finds it
    /// (an inline script's in its configuration.json), null when unknown.
    public static func failure(_ problem: ScriptProblem, script: ResponseScript, globalHeaders: [HTTPHeader]) -> GeneratedAnswer {
        .json(500, .object([
            JSONMember(key: "error", value: .string(problem.message)),
            JSONMember(key: "route", value: .string(script.route)),
            JSONMember(key: "line", value: problem.line.map { .integer(Int64(script.fileLine($0))) } ?? .null),
        ]), globalHeaders: globalHeaders)
    }

    /// The prelude's `{"error", "line", "column"}`.
    static func problem(fromDescription text: String, parser: any JSONParser) -> ScriptProblem? {
        guard case .success(.object(let members)) = parser.parse(Array(text.utf8)) else { return nil }
        return problem(from: members)
    }

    private static func problem(from members: [JSONMember]) -> ScriptProblem? {
        guard case .string(let message)? = members.value("error") else { return nil }
        func number(_ key: String) -> Int? {
            if case .integer(let value)? = members.value(key) { return Int(value) }
            return nil
        }
        return ScriptProblem(message: message, line: number("line"), column: number("column"))
    }

    /// The body's bytes and the content type it implies.
    private static func content(of body: [JSONMember], job: ScriptJob) -> Result<([UInt8], String?), ScriptProblem> {
        let script = job.script
        func string(_ key: String) -> String? {
            if case .string(let value)? = body.value(key) { return value }
            return nil
        }
        switch string("kind") {
        case "text": return .success((Array((string("text") ?? "").utf8), ContentType.plainText))
        case "json": return .success((Array((string("text") ?? "null").utf8), ContentType.json))
        case "yaml": return .success((Array((string("text") ?? "").utf8), "application/yaml"))
        case "file":
            let path = string("path") ?? ""
            return ScriptFiles.read(path, for: script, function: "Body.file").map { ($0, string("contentType") ?? ContentType.forFile(path)) }
        case "template":
            let path = string("path") ?? ""
            let type = string("contentType") ?? ContentType.forFile(path)
            return ScriptFiles.read(path, for: script, function: "Body.template").flatMap { bytes in
                do throws(MustacheSyntaxError) {
                    let template = try MustacheTemplate(parsing: bytes)
                    var output: [UInt8] = []
                    template.render(job.templateContext(adding: body.value("data")), escaping: MustacheEscaping(contentType: type), into: &output)
                    return .success((output, type))
                } catch {
                    return .failure(ScriptProblem(message: "Body.template: \(path) line \(error.position.line), column \(error.position.column): \(error.message)"))
                }
            }
        default: return .success(([], nil))
        }
    }
}

/// A header libmicrohttpd sends: a name of token characters, a value without control characters but tab.
private func isSendable(name: String, value: String) -> Bool {
    let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
    return !name.isEmpty && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && !separators.contains($0) }
        && value.utf8.allSatisfy { $0 >= 32 && $0 != 127 || $0 == 9 }
}

extension [JSONMember] {
    func value(_ key: String) -> JSONValue? {
        first { $0.key == key }?.value
    }
}
