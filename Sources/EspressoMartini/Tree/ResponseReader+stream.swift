extension ResponseReader {
    /// The keys of a Server-Sent Event chunk, and of a raw chunk.
    static let eventChunkKeys = ["delay", "event", "id", "retry", "data", "comment"]
    static let rawChunkKeys = ["delay", "body"]

    /// A response's `stream` (at `path`), framed as its `Content-Type` says (`headers`), or as its chunks'
    /// keys imply when it names none; with `isTemplate`, each chunk's strings compiled as templates. Nil
    /// once every reason is in `diagnostics`.
    func stream(
        _ value: JSONValue, at path: [String], repeats: Bool, headers: [HTTPHeader], isTemplate: Bool,
        into diagnostics: inout Diagnostics
    ) -> ResponseStream? {
        guard case .array(let elements) = value, !elements.isEmpty else {
            let found = value == .array([]) ? "an empty array" : value.kindName
            diagnostics.error(
                file, map.value(path),
                "'stream' must be a non-empty array of chunks such as {\"delay\": 0.2, \"data\": \"Hello\"}, found \(found)"
            )
            return nil
        }
        let namedType = headers.last { $0.name.lowercased() == "content-type" }?.value
        let framing: ResponseStream.Framing
        if let namedType {
            framing = ContentType.mediaType(of: namedType) == ResponseStream.eventStream ? .serverSentEvents : .raw
        } else {
            let eventFields = Self.eventChunkKeys.dropFirst()
            let usesEvents = elements.contains { element in
                guard case .object(let members) = element else { return false }
                return members.contains { eventFields.contains($0.key) }
            }
            framing = usesEvents ? .serverSentEvents : .raw
        }
        let derivedType: String
        if framing == .serverSentEvents {
            derivedType = ResponseStream.eventStream
        } else {
            let bodies = elements.compactMap { element -> JSONValue? in
                guard case .object(let members) = element else { return nil }
                return members.last { $0.key == "body" }?.value
            }
            let allJSON =
                !bodies.isEmpty && !bodies.contains { if case .string = $0 { return true } else { return false } }
            derivedType = allJSON ? ResponseStream.ndjson : ContentType.plainText
        }
        let typedHeaders = namedType == nil ? headers + [HTTPHeader(name: "Content-Type", value: derivedType)] : headers
        let errorsBefore = diagnostics.errors.count
        var chunks: [StreamChunk] = []
        for (index, element) in elements.enumerated() {
            let chunkPath = path + [String(index)]
            guard case .object(let members) = element else {
                diagnostics.error(
                    file, map.value(chunkPath),
                    "a stream chunk must be an object such as {\"delay\": 0.2, \"data\": \"Hello\"}, found \(element.kindName)"
                )
                continue
            }
            let chunk =
                framing == .serverSentEvents
                ? eventChunk(
                    members, at: chunkPath, headers: typedHeaders, isTemplate: isTemplate, contentType: namedType,
                    into: &diagnostics)
                : rawChunk(
                    members, at: chunkPath, headers: typedHeaders, isTemplate: isTemplate,
                    contentType: namedType ?? derivedType, into: &diagnostics)
            if let chunk { chunks.append(chunk) }
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        if repeats, chunks.allSatisfy({ $0.delay.isFixed && $0.delay.seconds == 0 }) {
            diagnostics.error(
                file, map.value(path),
                "a repeated stream needs a chunk with a delay above 0, or it would send without pause; give one a 'delay'"
            )
            return nil
        }
        return ResponseStream(
            framing: framing, chunks: chunks, repeats: repeats, derivedContentType: derivedType, configured: value)
    }

    private func eventChunk(
        _ members: [JSONMember], at path: [String], headers: [HTTPHeader], isTemplate: Bool, contentType: String?,
        into diagnostics: inout Diagnostics
    ) -> StreamChunk? {
        let errorsBefore = diagnostics.errors.count
        var delay = ResponseDelay.fixed(0)
        var texts: [String: (text: String, path: [String])] = [:]
        var retry: Int?
        var data: (value: JSONValue, path: [String])?
        for member in members {
            let memberPath = path + [member.key]
            switch member.key {
            case "delay":
                delay =
                    DelayParser.parseResponseDelay(
                        member.value, at: memberPath, file: file, map: map, into: &diagnostics) ?? delay
            case "event", "id", "comment":
                guard case .string(let text) = member.value else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "a chunk's '\(member.key)' must be a string, found \(member.value.kindName)")
                    continue
                }
                texts[member.key] = (text, memberPath)
            case "retry":
                guard case .integer(let milliseconds) = member.value, milliseconds >= 0 else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "a chunk's 'retry' must be a whole number of milliseconds, 0 or more, found \(member.value.compactText)"
                    )
                    continue
                }
                retry = Int(milliseconds)
            case "data":
                data = (member.value, memberPath)
            case "body":
                let sentAs =
                    contentType.map { "its Content-Type is \($0)" } ?? "its chunks have Server-Sent Event fields"
                diagnostics.error(
                    file, map.key(memberPath),
                    "this stream is sent as Server-Sent Events (\(sentAs)): a chunk's text goes in 'data', with 'event', 'id', 'retry' and 'comment' beside it; did you mean 'data'?"
                )
            default:
                diagnostics.error(
                    file, map.key(memberPath), Self.unknownChunkKey(member.key, known: Self.eventChunkKeys))
            }
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        guard isTemplate else {
            let event = ServerSentEvent(
                comment: texts["comment"].map { Array($0.text.utf8) },
                event: texts["event"].map { Array($0.text.utf8) },
                id: texts["id"].map { Array($0.text.utf8) }, retry: retry,
                data: data.map { ResponseBody.inline($0.value).inlineBytes }
            )
            return StreamChunk(delay: delay, content: .literal(event.framed()))
        }
        func field(_ name: String) -> MustacheTemplate? {
            texts[name].flatMap { inlineTemplate($0.text, at: $0.path, into: &diagnostics) }
        }
        let template = StreamChunk.EventTemplate(
            comment: field("comment"), event: field("event"), id: field("id"), retry: retry,
            data: data.flatMap { bodyTemplate(.inline($0.value), at: $0.path, headers: headers, into: &diagnostics) }
        )
        guard diagnostics.errors.count == errorsBefore else { return nil }
        return StreamChunk(delay: delay, content: .event(template))
    }

    private func rawChunk(
        _ members: [JSONMember], at path: [String], headers: [HTTPHeader], isTemplate: Bool, contentType: String,
        into diagnostics: inout Diagnostics
    ) -> StreamChunk? {
        let errorsBefore = diagnostics.errors.count
        var delay = ResponseDelay.fixed(0)
        var body: (value: JSONValue, path: [String])?
        for member in members {
            let memberPath = path + [member.key]
            switch member.key {
            case "delay":
                delay =
                    DelayParser.parseResponseDelay(
                        member.value, at: memberPath, file: file, map: map, into: &diagnostics) ?? delay
            case "body":
                body = (member.value, memberPath)
            case "event", "id", "retry", "data", "comment":
                diagnostics.error(
                    file, map.key(memberPath),
                    "'\(member.key)' is a Server-Sent Event field, and this stream is sent raw (its Content-Type is \(contentType)); give the chunk's bytes as 'body', or send the stream as text/event-stream"
                )
            default:
                diagnostics.error(file, map.key(memberPath), Self.unknownChunkKey(member.key, known: Self.rawChunkKeys))
            }
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        guard let body else { return StreamChunk(delay: delay, content: .literal([])) }
        let newline: Bool = if case .string = body.value { false } else { true }
        guard isTemplate else {
            var bytes = ResponseBody.inline(body.value).inlineBytes
            if newline { bytes.append(UInt8(ascii: "\n")) }
            return StreamChunk(delay: delay, content: .literal(bytes))
        }
        guard let template = bodyTemplate(.inline(body.value), at: body.path, headers: headers, into: &diagnostics)
        else { return nil }
        return StreamChunk(delay: delay, content: .raw(template, newline: newline))
    }

    private static func unknownChunkKey(_ key: String, known: [String]) -> String {
        var message = "unknown key '\(key)' in a stream chunk; it takes '\(known.joined(separator: "', '"))'"
        if let closest = Suggestion.closest(to: key, among: known) { message += "; did you mean '\(closest)'?" }
        return message
    }
}

extension ResponseReader {
    /// A response with `stream` (read after its other members): no fault beside it, and a status that
    /// has a body.
    func streamResponse(
        _ stream: (value: JSONValue, path: [String]), at path: [String], members: [JSONMember], statusCode: Int,
        headers: [HTTPHeader], repeats: Bool,
        isTemplate: Bool, delay: ResponseDelay?, fault: ResponseFault?, network: NetworkCondition?, errorsBefore: Int,
        into diagnostics: inout Diagnostics
    ) -> ConfiguredResponse? {
        if fault != nil {
            diagnostics.error(
                file, map.key(path + ["fault"]),
                "'fault' cannot stand beside 'stream'; a stream is sent whole, chunk by chunk")
        }
        if statusCode == 204 || statusCode == 304 {
            diagnostics.error(
                file, map.key(stream.path),
                "a \(statusCode) response has no body, so it cannot stream; use a status such as 200")
        }
        let parsed = self.stream(
            stream.value, at: stream.path, repeats: repeats, headers: headers, isTemplate: isTemplate,
            into: &diagnostics)
        guard diagnostics.errors.count == errorsBefore, let parsed else { return nil }
        var template: ResponseTemplate?
        if isTemplate {
            guard
                let headerTemplates = self.template(
                    members, at: path, headers: headers, body: .none, into: &diagnostics)
            else { return nil }
            template = headerTemplates
        }
        return ConfiguredResponse(
            .stream(ResponseContent(statusCode: statusCode, headers: headers), parsed, template), delay: delay,
            network: network)
    }
}
