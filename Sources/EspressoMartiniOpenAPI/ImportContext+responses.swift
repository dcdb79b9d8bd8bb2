import EspressoMartini

extension ImportContext {
    /// A documented response of `operation` (`GET /pets`, as warnings name it): its headers with an example,
    /// its body (the media type's `example`, else its first named example, else the schema's example, else a
    /// value generated from the schema) and its named examples. Nil when it is a `$ref` that cannot be resolved.
    func response(_ located: Located, of operation: Located, named name: String) -> ImportedResponse? {
        guard let response = files.dereference(located, otherwise: "this response is left out") else { return nil }
        var imported = ImportedResponse()
        imported.headers = headers(response.member("headers"))
        switch version {
        case .swagger2: swagger2Body(of: response, operation: operation, named: name, into: &imported)
        case .openAPI30, .openAPI31: contentBody(of: response, operation: name, into: &imported)
        }
        return imported
    }

    /// OpenAPI 3: the body of the first JSON media type of `content`, else the first `text/*` one, else the
    /// first JSON lines or YAML one, else the first of any other type (answered with its type and no body
    /// unless an example gives its text).
    private func contentBody(of response: Located, operation: String, into imported: inout ImportedResponse) {
        guard let content = response.member("content"), !content.members.isEmpty,
            let mediaType = BodyMediaType.choose(content.members.map(\.key)),
            let media = content.member(mediaType.name)
        else { return }
        if let header = mediaType.contentTypeHeader { imported.headers.insert(header, at: 0) }
        for (name, other) in content.members where name != mediaType.name { notServed(name, at: other.location) }
        let schema = media.member("schema")
        for (name, example) in media.member("examples")?.members ?? [] {
            guard let example = files.dereference(example, otherwise: "this example is left out"),
                let body = exampleBody(example, named: name, mediaType: mediaType, schema: schema)
            else { continue }
            imported.examples.append(ImportedResponse.NamedBody(name: name, body: body))
        }
        if let example = media.member("example"),
            let body = exampleBody(value: example, named: nil, mediaType: mediaType, schema: schema)
        {
            imported.body = body
        } else if let first = imported.examples.first {
            imported.body = first.body
        } else if let schema {
            imported.body = schemaBody(schema, mediaType: mediaType)
        }
        if imported.body == .none, mediaType.kind == .other {
            noBody(operation, mediaType: mediaType, at: media.location)
        }
    }

    /// Swagger 2.0: the body in the operation's `produces` (else the document's; JSON when neither says),
    /// from the response's `examples` for that media type, else from its schema.
    private func swagger2Body(
        of response: Located, operation: Located, named name: String, into imported: inout ImportedResponse
    ) {
        let schema = response.member("schema")
        let examples = response.member("examples")
        guard schema != nil || examples != nil else { return }
        let produces = (operation.member("produces") ?? root.member("produces"))
        let names = produces?.elements.compactMap(\.string) ?? []
        let mediaType = BodyMediaType.choose(names) ?? BodyMediaType(ContentType.json)
        if let header = mediaType.contentTypeHeader { imported.headers.insert(header, at: 0) }
        for (index, name) in names.enumerated() where name != mediaType.name {
            notServed(name, at: produces.map { $0.location.appending(String(index)) } ?? operation.location)
        }
        // An example of another media type of the same kind stands in (JSON for `application/vnd.x+json`);
        // another type's bytes would not be this one's.
        let example = examples.flatMap { examples in
            examples.member(mediaType.name)
                ?? (mediaType.kind == .other
                    ? nil : examples.members.first { BodyMediaType($0.key).kind == mediaType.kind }?.value)
        }
        if let example, let body = exampleBody(value: example, named: nil, mediaType: mediaType, schema: schema) {
            imported.body = body
        } else if let schema {
            if schema.value.member("type") == .string("file") {
                // A file's bytes: answered with the type it is produced in, and no body.
                if !mediaType.name.contains("*"), !imported.headers.contains(where: { $0.name == "Content-Type" }) {
                    imported.headers.insert(HTTPHeader(name: "Content-Type", value: mediaType.name), at: 0)
                }
                noBody(name, mediaType: mediaType, at: schema.location)
                return
            }
            imported.body = schemaBody(schema, mediaType: mediaType)
        }
        if imported.body == .none, mediaType.kind == .other {
            noBody(name, mediaType: mediaType, at: schema?.location ?? response.location)
        }
    }

    /// A body from the schema: its value (the schema's example, else one generated) in the media type; for a
    /// type whose bytes cannot be made, the text of the schema's example where it is a string, else none.
    private func schemaBody(_ schema: Located, mediaType: BodyMediaType) -> ResponseDraft.Body {
        guard mediaType.kind == .other else { return mediaType.body(schemaValue(schema)) }
        if let target = files.target(of: schema), let example = SchemaGenerator.example(in: [target]),
            case .string(let text) = example.value
        {
            return mediaType.text(text)
        }
        return .none
    }

    /// Says that `operation` is answered in `mediaType` without a body, since none of that type can be made.
    private func noBody(_ operation: String, mediaType: BodyMediaType, at location: JSONLocation) {
        report.warning(
            at: location,
            "\(operation): a body of '\(mediaType.name)' cannot be generated; it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)"
        )
    }

    /// Counts a media type a response is not answered in (it is answered in another).
    private func notServed(_ mediaType: String, at location: JSONLocation) {
        if let index = mediaTypesNotServed.firstIndex(where: { $0.name == mediaType }) {
            mediaTypesNotServed[index].count += 1
        } else {
            mediaTypesNotServed.append((mediaType, location, 1))
        }
    }

    /// One warning per media type some responses are not answered in, at the first of them.
    func reportMediaTypesNotServed() {
        for (name, first, count) in mediaTypesNotServed {
            let elsewhere =
                count == 1 ? "" : count == 2 ? " and in 1 other response" : " and in \(count - 1) other responses"
            report.warning(
                at: first,
                "'\(name)' is not served here\(elsewhere): a response is answered in one media type (its first JSON one, else text/*, else JSON lines or YAML, else any other)"
            )
        }
    }

    /// An Example Object's body: its `value`, or the file its `externalValue` names beside the description.
    private func exampleBody(
        _ example: Located, named name: String, mediaType: BodyMediaType, schema: Located?
    ) -> ResponseDraft.Body? {
        if let value = example.member("value") {
            return exampleBody(value: value, named: name, mediaType: mediaType, schema: schema)
        }
        guard let external = example.member("externalValue"), let reference = external.string else {
            report.warning(
                at: example.location, "the example '\(name)' has neither 'value' nor 'externalValue'; it is left out")
            return nil
        }
        guard !reference.contains(":"), !reference.hasPrefix("/") else {
            report.warning(
                at: external.location,
                "'\(reference)' is not a file beside the description; the example '\(name)' is left out")
            return nil
        }
        let path = DescriptionFiles.normalize(
            FileSystem.join(FileSystem.parent(of: external.location.file), DescriptionFiles.percentDecoded(reference)))
        guard let bytes = FileSystem.contents(of: path) else {
            report.warning(at: external.location, "\(path) cannot be read; the example '\(name)' is left out")
            return nil
        }
        return .bytes(bytes, fileExtension: mediaType.fileExtension)
    }

    /// An example value's body, with a warning naming it when it breaks its schema (it is imported as it is).
    /// A JSON example written as a string holding a JSON object or array is that object or array. For JSON
    /// lines and YAML, a string is the body's text as written (unless the schema says the values are strings);
    /// for another type, only a string can be its body: any other value is left out (nil), with a warning.
    private func exampleBody(
        value example: Located, named name: String?, mediaType: BodyMediaType, schema: Located?
    ) -> ResponseDraft.Body? {
        var value = example.value
        let what = name.map { "the example '\($0)'" } ?? "the example"
        switch (mediaType.kind, value) {
        case (.json, .string(let text)):
            if !describesString(schema), case .success(let parsed) = jsonParser.parse(Array(text.utf8)),
                parsed.isContainer
            {
                value = parsed
            }
        case (.jsonLines, .string(let text)), (.yaml, .string(let text)):
            if !describesString(schema) { return mediaType.text(text) }
        case (.other, .string(let text)): return mediaType.text(text)
        case (.other, _):
            report.warning(
                at: example.location,
                "\(what) is \(value.kindName), and a body of '\(mediaType.name)' can only be given as a string; it is left out"
            )
            return nil
        default: break
        }
        if let schema, let problem = validator.problem(in: value, against: schema) {
            report.warning(
                at: example.location,
                "\(what) does not validate against its schema (\(problem)); it is imported as it is")
        }
        return mediaType.body(value)
    }

    /// Whether the schema (through its `$ref`s) says its values are strings.
    private func describesString(_ schema: Located?) -> Bool {
        guard let schema, let target = files.target(of: schema) else { return false }
        return SchemaKeywords.types(target.value)?.contains("string") ?? false
    }

    /// The value of a body from its schema: the schema's own example (imported as it is, with a warning when
    /// it breaks the schema), else one generated (with a warning where the schema cannot be met).
    func schemaValue(_ schema: Located) -> JSONValue {
        if let target = files.target(of: schema), let example = SchemaGenerator.example(in: [target]) {
            if let problem = validator.problem(in: example.value, against: schema) {
                report.warning(
                    at: example.location,
                    "the schema's example does not validate against it (\(problem)); it is imported as it is")
            }
            return example.value
        }
        return generator.value(for: schema)
    }

    /// Response headers with an example (`example`, the first of `examples`, the schema's `example`; in
    /// Swagger 2.0 `x-example`), written as they are; `Content-Type` comes from the media type.
    private func headers(_ located: Located?) -> [HTTPHeader] {
        var headers: [HTTPHeader] = []
        for (name, header) in located?.members ?? [] {
            guard !["content-type", "content-length", "transfer-encoding"].contains(name.lowercased()),
                let header = files.dereference(header, otherwise: "this header is left out")
            else { continue }
            guard let example = headerExample(header) else { continue }
            let value: String
            switch example.value {
            case .string(let text): value = text
            case .array(let items):
                value = items.map { if case .string(let text) = $0 { text } else { $0.compactAnswerText } }.joined(
                    separator: ", ")
            default: value = example.value.compactAnswerText
            }
            guard HeadersParser.isToken(name), !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
            else {
                report.warning(
                    at: header.location, "'\(name)' with this example cannot be sent as a header; it is left out")
                continue
            }
            headers.append(HTTPHeader(name: name, value: value))
        }
        return headers
    }

    private func headerExample(_ header: Located) -> Located? {
        if let example = header.member("example") ?? header.member("x-example") { return example }
        if let first = header.member("examples")?.members.first?.value {
            return files.dereference(first, otherwise: "this example is left out")?.member("value")
        }
        if let schema = header.member("schema"), let target = files.target(of: schema),
            let example = SchemaGenerator.example(in: [target])
        {
            return example
        }
        return header.member("content")?.members.first?.value.member("example")
    }
}

private extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
