extension ResponseReader {
    /// A `"template": true` response's body and header values compiled as templates (doc/templates.md): the inline
    /// string, each string of an inline JSON value, or the `response_file` (read now, once per tree),
    /// and each header value. Nil, with an error at the tag's line and column, when one does not parse.
    func template(
        _ members: [JSONMember], at path: [String], headers: [HTTPHeader], body: ResponseBody,
        into diagnostics: inout Diagnostics
    ) -> ResponseTemplate? {
        let errorsBefore = diagnostics.errors.count
        let headersValue = members.first { $0.key == "headers" }?.value
        var seen: [String: Int] = [:]
        var headerTemplates: [HeaderTemplate] = []
        for header in headers {
            let occurrence = seen[header.name, default: 0]
            seen[header.name] = occurrence + 1
            var valuePath = path + ["headers", header.name]
            if case .object(let headerMembers)? = headersValue,
                case .array? = headerMembers.first(where: { $0.key == header.name })?.value
            {
                valuePath.append(String(occurrence))
            }
            if let value = inlineTemplate(header.value, at: valuePath, into: &diagnostics) {
                headerTemplates.append(HeaderTemplate(name: header.name, value: value))
            }
        }
        let bodyTemplate = self.bodyTemplate(body, at: path + ["body"], headers: headers, into: &diagnostics)
        guard diagnostics.errors.count == errorsBefore, let bodyTemplate else { return nil }
        return ResponseTemplate(body: bodyTemplate, headers: headerTemplates)
    }

    func bodyTemplate(
        _ body: ResponseBody, at path: [String], headers: [HTTPHeader], into diagnostics: inout Diagnostics
    ) -> ResponseBodyTemplate? {
        switch body {
        case .none:
            return ResponseBodyTemplate.none
        case .inline(.string(let text)):
            return inlineTemplate(text, at: path, into: &diagnostics).map {
                .text($0, escaping: escaping(headers: headers, body: body))
            }
        case .inline(let value):
            var failed = false
            let template = JSONBodyTemplate(compiling: value) { text, subpath in
                if let template = inlineTemplate(text, at: path + subpath, into: &diagnostics) { return template }
                failed = true
                return MustacheTemplate.empty
            }
            return failed ? nil : .json(template)
        case .bytes:
            diagnostics.error(
                file, map.value(path), "a 'body_base64' body is bytes, not a template; give the template as 'body'")
            return nil
        case .file(let name, let resolved, _):
            let shownPath = FileSystem.join(methodFolder, name)
            guard
                let bytes = resolved.map(FileSystem.contents(of:))
                    ?? parentFolder.contents(of: name, inFolder: methodFolderName)
            else {
                diagnostics.error(shownPath, nil, "this template file cannot be read; check its permissions")
                return nil
            }
            do {
                return .text(try MustacheTemplate(parsing: bytes), escaping: escaping(headers: headers, body: body))
            } catch {
                diagnostics.error(shownPath, error.position, "the template does not parse: \(error.message)")
                return nil
            }
        }
    }

    /// A string of the configuration as a template; an error points at the tag in the file.
    func inlineTemplate(_ text: String, at path: [String], into diagnostics: inout Diagnostics) -> MustacheTemplate? {
        do {
            return try MustacheTemplate(parsing: text)
        } catch {
            let position = JSONStringPosition.locate(error.position, inStringAt: map.value(path), in: map.bytes)
            diagnostics.error(file, position, "the template does not parse: \(error.message)")
            return nil
        }
    }

    /// How `{{name}}` is escaped in a text body: by the `Content-Type` the response names, else the one
    /// its body gives it.
    private func escaping(headers: [HTTPHeader], body: ResponseBody) -> MustacheEscaping {
        let named = headers.first { $0.name.lowercased() == "content-type" }?.value
        return MustacheEscaping(contentType: named ?? ResponseContent(body: body).derivedContentType ?? "")
    }
}
