import EspressoMartini

/// Turns a script's `Response` into the bytes sent: the script's status and headers, the content type
/// its body implies, then the global headers (`HTTPHeader.merging`: the script's own `Content-Type` wins);
/// `Body.file` and `Body.template` read their file here, inside the requests folder only. Template data
/// (`Body.text`, `Body.json`, `Body.yaml` and `Body.template` given `data`) render here, after the call,
/// with the cache as the script left it: a template sees what every template sees
/// (`ScriptJob.templateContext`) with the data's members on top. Every failure is a `500` with
/// `{"error", "route", "line"}`.
public enum ScriptAnswer {
    /// `yaml` writes a JSON value's text as YAML (the prelude's writer); `failed` hears of every failure,
    /// for the log.
    static func make(
        from response: ScriptResponse, job: ScriptJob, parser: any JSONParser, yaml: ([UInt8]) -> [UInt8]?,
        failed: (ScriptProblem) -> Void
    ) -> GeneratedAnswer {
        let globalHeaders = job.answer.tree.globalHeaders
        func failure(_ problem: ScriptProblem) -> GeneratedAnswer {
            failed(problem)
            return Self.failure(problem, script: job.script, globalHeaders: globalHeaders)
        }
        for header in response.headers where !isSendable(name: header.name, value: header.value) {
            return failure(
                ScriptProblem(
                    message:
                        "the header \(JSONValue.string(header.name).compactText) cannot be sent: a name is a token and a value has no line break"
                ))
        }
        let bytes: [UInt8], derivedType: String?
        switch content(of: response.body, job: job, parser: parser, yaml: yaml) {
        case .success(let made): (bytes, derivedType) = made
        case .failure(let problem): return failure(problem)
        }
        // Only a type the script gave (Body.file, Body.template) needs the check: the others are constants.
        var typeIsScripts = false
        if case .file = response.body {
            typeIsScripts = true
        } else if case .template = response.body {
            typeIsScripts = true
        }
        if typeIsScripts, let derivedType, !isSendable(name: "Content-Type", value: derivedType) {
            return failure(
                ScriptProblem(
                    message:
                        "the content type \(JSONValue.string(derivedType).compactText) cannot be sent: it has a line break"
                ))
        }
        let hasBody = response.status != 204 && response.status != 304
        let headers = HTTPHeader.merging(
            own: response.headers, derivedContentType: hasBody ? derivedType : nil, global: globalHeaders)
        return GeneratedAnswer(statusCode: UInt32(response.status), headers: headers, body: hasBody ? bytes : [])
    }

    /// `{"error": MESSAGE, "route": ROUTE, "line": N}` with status 500; the line as the user finds it
    /// (an inline script's in its configuration.json), null when unknown.
    public static func failure(
        _ problem: ScriptProblem, script: ResponseScript, globalHeaders: [HTTPHeader]
    ) -> GeneratedAnswer {
        .json(
            500,
            .object([
                JSONMember(key: "error", value: .string(problem.message)),
                JSONMember(key: "route", value: .string(script.route)),
                JSONMember(key: "line", value: problem.line.map { .integer(Int64(script.fileLine($0))) } ?? .null),
            ]), globalHeaders: globalHeaders)
    }

    /// The prelude's `{"error", "line", "column"}`.
    static func problem(fromDescription text: String, parser: any JSONParser) -> ScriptProblem? {
        guard case .success(.object(let members)) = parser.parse(Array(text.utf8)),
            case .string(let message)? = members.first(where: { $0.key == "error" })?.value
        else { return nil }
        func number(_ key: String) -> Int? {
            if case .integer(let value)? = members.first(where: { $0.key == key })?.value { return Int(value) }
            return nil
        }
        return ScriptProblem(message: message, line: number("line"), column: number("column"))
    }

    /// The body's bytes and the content type it implies.
    private static func content(
        of body: ScriptResponse.Body, job: ScriptJob, parser: any JSONParser, yaml: ([UInt8]) -> [UInt8]?
    ) -> Result<([UInt8], String?), ScriptProblem> {
        switch body {
        case .none: return .success(([], nil))
        case .text(let text, nil): return .success((text, ContentType.plainText))
        case .text(let text, let data?):
            return render(text, as: "Body.text", data: data, job: job, escaping: .none).map {
                ($0, ContentType.plainText)
            }
        case .json(let text, nil): return .success((text, ContentType.json))
        case .json(let text, let data?):
            return renderStrings(of: text, as: "Body.json", data: data, job: job, parser: parser).map {
                ($0, ContentType.json)
            }
        case .yaml(let text): return .success((text, ContentType.yaml))
        case .yamlTemplate(let text, let data):
            return renderStrings(of: text, as: "Body.yaml", data: data, job: job, parser: parser).flatMap { rendered in
                yaml(rendered).map { .success(($0, ContentType.yaml)) }
                    ?? .failure(ScriptProblem(message: "Body.yaml: the rendered value cannot be written as YAML"))
            }
        case .file(let path, let contentType):
            return ScriptFiles.read(path, for: job.script, function: "Body.file").map {
                ($0, contentType ?? ContentType.forFile(path))
            }
        case .template(let path, let contentType, let data):
            let type = contentType ?? ContentType.forFile(path)
            return ScriptFiles.read(path, for: job.script, function: "Body.template").flatMap { bytes in
                render(
                    bytes, as: "Body.template: \(path)", data: data, job: job,
                    escaping: MustacheEscaping(contentType: type)
                ).map { ($0, type) }
            }
        }
    }

    /// `text` as a Mustache template, rendered with what templates see and `data`.
    private static func render(
        _ text: [UInt8], as source: String, data: JSONValue?, job: ScriptJob, escaping: MustacheEscaping
    ) -> Result<[UInt8], ScriptProblem> {
        do throws(MustacheSyntaxError) {
            let template = try MustacheTemplate(parsing: text)
            var output: [UInt8] = []
            template.render(job.templateContext(adding: data), escaping: escaping, into: &output)
            return .success(output)
        } catch {
            return .failure(
                ScriptProblem(
                    message: "\(source) line \(error.position.line), column \(error.position.column): \(error.message)")
            )
        }
    }

    /// JSON text whose strings are Mustache templates (`JSONBodyTemplate`), rendered with what templates
    /// see and `data`.
    private static func renderStrings(
        of text: [UInt8], as source: String, data: JSONValue?, job: ScriptJob, parser: any JSONParser
    ) -> Result<[UInt8], ScriptProblem> {
        guard case .success(let value) = parser.parse(text) else {
            return .failure(ScriptProblem(message: "\(source): the script's value could not be read"))
        }
        do throws(ScriptProblem) {
            let template = try JSONBodyTemplate(compiling: value) { (string, path) throws(ScriptProblem) in
                do throws(MustacheSyntaxError) {
                    return try MustacheTemplate(parsing: Array(string.utf8))
                } catch {
                    let place = path.isEmpty ? "the string" : "the string at /" + path.joined(separator: "/")
                    throw ScriptProblem(
                        message:
                            "\(source): \(place), line \(error.position.line), column \(error.position.column): \(error.message)"
                    )
                }
            }
            var output: [UInt8] = []
            template.render(job.templateContext(adding: data), into: &output)
            return .success(output)
        } catch {
            return .failure(error)
        }
    }
}

/// A header libmicrohttpd sends: a name of token characters, a value without control characters but tab.
private func isSendable(name: String, value: String) -> Bool {
    HeadersParser.isToken(name) && value.utf8.allSatisfy { $0 >= 32 && $0 != 127 || $0 == 9 }
}
