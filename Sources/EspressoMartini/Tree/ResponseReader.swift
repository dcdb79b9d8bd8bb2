/// Reads a method folder's `configuration.json` (one response object, a non-empty array of them, a
/// sequence `{"responses": …}` or `{"variants": […]}`) into responses and variants, reporting every
/// problem with its line and column. Any response object may name the
/// file's JSON Schema with `"$schema"` (editors read it from the top-level object), which is ignored.
struct ResponseReader {
    static let knownKeys = [
        "status_code", "headers", "response_file", "body", "body_base64", "stream", "stream_repeat", "delay",
        "bandwidth", "network",
        "fault", "template", "content_length",
        "javascript", "javascript_file",
    ]

    /// The requests folder as the user named it, and the method folder's route: paths for messages are
    /// built from them only when there is something to report.
    let requestsFolder: String
    let route: RoutePattern
    /// The folder holding the method folder, open, and the method folder's name in it: plain file names
    /// are checked through it.
    let parentFolder: OpenFolder
    let methodFolderName: String
    /// The method folder's real path (links resolved) when the loader needed it; else it is derived
    /// from the parent's, only when a `response_file` is more than a plain name.
    let knownRealPath: String?
    let parentChain: FolderChain
    /// The requests folder with links resolved: no `response_file` may resolve outside it.
    let rootRealPath: String
    let map: LazyJSONSourceMap
    /// Compiles scripts as they are read; nil records them unchecked.
    var scriptChecker: (any ScriptChecker)? = nil
    /// A runtime exchange's configuration, posted to the admin API: the method folder is the requests
    /// folder itself (`parentFolder` holds it), every file name is resolved in full, and messages name the
    /// request body.
    var isRuntime = false

    var methodFolder: String {
        isRuntime ? requestsFolder : FileSystem.join(requestsFolder, route.folder(named: methodFolderName))
    }
    /// The file as shown in messages.
    var file: String {
        isRuntime ? JournalFilter.bodyName : FileSystem.join(methodFolder, TreeLoader.configurationFileName)
    }
    /// What the files a configuration names are relative to, in messages.
    var filesFolder: String { isRuntime ? "requests folder" : "method folder" }
    /// The method folder on disk with links resolved: a `response_file` path resolves against it.
    var methodFolderRealPath: String { parentChain.realPath(ofChild: methodFolderName, resolved: knownRealPath) }

    /// The exchange's responses and, for `{"variants": [...]}`, its variants (their responses in
    /// `responses`, in turn), and the top-level sequence mode (`repeat_last` with variants or none given).
    func read(
        _ document: JSONValue, into diagnostics: inout Diagnostics
    ) -> (responses: [ConfiguredResponse], variants: [Variant], sequence: SequenceMode) {
        if case .object(let members) = document {
            if members.contains(where: { $0.key == "variants" }) {
                let (responses, variants) = readVariants(members, into: &diagnostics)
                return (responses, variants, .repeatLast)
            }
            if members.contains(where: { $0.key == "responses" }) {
                let (responses, mode) = sequence(members, at: [], known: Self.sequenceKeys, into: &diagnostics)
                return (responses, [], mode)
            }
        }
        return (responses(document, at: [], into: &diagnostics), [], .repeatLast)
    }

    static let sequenceKeys = ["responses", "sequence", "bandwidth", "network"]
    static let variantKeys = ["when", "responses", "sequence", "bandwidth", "network"]

    /// One response object, or a non-empty array of them.
    private func responses(
        _ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics
    ) -> [ConfiguredResponse] {
        switch value {
        case .object:
            return response(value, at: path, into: &diagnostics).map { [$0] } ?? []
        case .array(let elements) where elements.isEmpty:
            diagnostics.error(
                file, map.value(path),
                "the array of responses is empty; give at least one response object, or delete the file to answer 200 with no body"
            )
            return []
        case .array(let elements):
            return elements.enumerated().compactMap { index, element in
                response(element, at: path + [String(index)], into: &diagnostics)
            }
        default:
            diagnostics.error(
                file, map.value(path), "expected a response object or an array of them, found \(value.kindName)")
            return []
        }
    }

    /// `{"responses": …, "sequence": MODE}` at `path` (the top level, or a variant with its `when` read apart).
    private func sequence(
        _ members: [JSONMember], at path: [String], known: [String], into diagnostics: inout Diagnostics
    ) -> ([ConfiguredResponse], SequenceMode) {
        var responses: [ConfiguredResponse] = []
        var mode = SequenceMode.repeatLast
        for member in members {
            let memberPath = path + [member.key]
            switch member.key {
            case "responses": responses = self.responses(member.value, at: memberPath, into: &diagnostics)
            case "sequence": mode = sequenceMode(member.value, at: memberPath, into: &diagnostics) ?? mode
            case "when" where !path.isEmpty: continue  // a variant's, read apart
            case "bandwidth", "network": continue  // read below
            case SchemaReference.key where path.isEmpty:
                SchemaReference.check(member.value, file: file, at: map.value(memberPath), into: &diagnostics)
            default:
                diagnostics.warning(file, map.key(memberPath), Suggestion.unknownKeyMessage(member.key, known: known))
            }
        }
        let network = NetworkParser.parse(members, at: path, file: file, map: map, into: &diagnostics)
        return (responses.map { $0.inheriting(network) }, mode)
    }

    /// `repeat_last`, `loop` or `once`; nil once the reason is in `diagnostics` (with a did-you-mean for a
    /// misspelt name).
    private func sequenceMode(
        _ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics
    ) -> SequenceMode? {
        if case .string(let name) = value, let mode = SequenceMode(rawValue: name) { return mode }
        var message = "'sequence' must be one of 'repeat_last', 'loop' or 'once', found \(value.compactText)"
        if case .string(let name) = value, let closest = Suggestion.closest(to: name, among: SequenceMode.names) {
            message += "; did you mean '\(closest)'?"
        }
        diagnostics.error(file, map.value(path), message)
        return nil
    }

    /// `{"variants": [{"when": …, "responses": …, "sequence": …}, …]}`.
    private func readVariants(
        _ members: [JSONMember], into diagnostics: inout Diagnostics
    ) -> ([ConfiguredResponse], [Variant]) {
        var elements: [JSONValue] = []
        for member in members {
            switch member.key {
            case "variants":
                guard case .array(let array) = member.value, !array.isEmpty else {
                    diagnostics.error(
                        file, map.value(["variants"]),
                        "'variants' must be a non-empty array of variants such as {\"when\": {\"query\": {\"page\": \"2\"}}, \"responses\": {\"status_code\": 200}}, found \(member.value == .array([]) ? "an empty array" : member.value.kindName)"
                    )
                    continue
                }
                elements = array
            case SchemaReference.key:
                SchemaReference.check(member.value, file: file, at: map.value([member.key]), into: &diagnostics)
            case "bandwidth", "network":
                continue  // the whole exchange's, read below
            default:
                diagnostics.error(
                    file, map.key([member.key]),
                    "'\(member.key)' cannot stand beside 'variants'; move it into a variant's responses")
            }
        }
        let captures = route.segments.compactMap(\.parameterName)
        var responses: [ConfiguredResponse] = []
        var variants: [Variant] = []
        var answersEverything: Int?
        for (index, element) in elements.enumerated() {
            let path = ["variants", String(index)]
            guard case .object(let variantMembers) = element else {
                diagnostics.error(
                    file, map.value(path),
                    "a variant must be an object with 'when' and 'responses', found \(element.kindName)")
                continue
            }
            guard variantMembers.contains(where: { $0.key == "responses" }) else {
                diagnostics.error(
                    file, map.value(path),
                    "variant \(index + 1) has no 'responses'; give a response object or an array of them")
                continue
            }
            let when = variantMembers.first { $0.key == "when" }?.value
            let conditions =
                when.map {
                    VariantConditions.compile(
                        $0, at: path + ["when"], pathCaptures: captures, file: file, map: map, into: &diagnostics)
                } ?? VariantConditions([])
            if let first = answersEverything {
                diagnostics.warning(
                    file, map.value(path),
                    "variant \(index + 1) never answers: variant \(first + 1) before it has no condition and answers every request"
                )
            } else if conditions?.alwaysHolds == true {
                answersEverything = index
            }
            let start = responses.count
            let (variantResponses, mode) = sequence(
                variantMembers, at: path, known: Self.variantKeys, into: &diagnostics)
            responses += variantResponses
            if let conditions {
                variants.append(
                    Variant(conditions: conditions, when: when, responses: start..<responses.count, sequence: mode))
            }
        }
        let network = NetworkParser.parse(members, at: [], file: file, map: map, into: &diagnostics)
        return (responses.map { $0.inheriting(network) }, variants)
    }

    private func response(
        _ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics
    ) -> ConfiguredResponse? {
        guard case .object(let members) = value else {
            diagnostics.error(
                file, map.value(path),
                "a response must be an object with keys such as 'status_code' and 'body', found \(value.kindName)")
            return nil
        }
        if members.contains(where: { Self.scriptKeys.contains($0.key) }) {
            return scriptResponse(members, at: path, into: &diagnostics)
        }
        let errorsBefore = diagnostics.errors.count
        var statusCode = 200
        var headers: [HTTPHeader] = []
        var body = ResponseBody.none
        var delay: ResponseDelay?
        var fault: ResponseFault?
        var bodyKey: String?
        var isTemplate = false
        var contentLength: (value: UInt64, path: [String])?
        var stream: (value: JSONValue, path: [String])?
        var streamRepeat: (value: Bool, path: [String])?

        for member in members {
            var memberPath: [String] { path + [member.key] }
            switch member.key {
            case "status_code":
                guard case .integer(let code) = member.value else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "'status_code' must be an integer from 200 to 599, found \(member.value.kindName)")
                    continue
                }
                guard (200...599).contains(code) else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "'status_code' \(code) is out of range; use a status from 200 to 599")
                    continue
                }
                statusCode = Int(code)
            case "headers":
                headers = HeadersParser.parse(member.value, at: memberPath, file: file, map: map, into: &diagnostics)
                if let warning = ConnectionMemory.warning(about: headers) {
                    diagnostics.warning(file, map.key(memberPath), warning)
                }
            case "delay":
                guard
                    let parsed = DelayParser.parseResponseDelay(
                        member.value, at: memberPath, file: file, map: map, into: &diagnostics)
                else { continue }
                delay = parsed
            case "fault":
                guard case .string(let name) = member.value, let named = ResponseFault(rawValue: name) else {
                    var message =
                        "'fault' must be one of 'connection_reset', 'empty_response' or 'truncated_body', found \(member.value.compactText)"
                    if case .string(let name) = member.value,
                        let closest = Suggestion.closest(to: name, among: ResponseFault.names)
                    {
                        message += "; did you mean '\(closest)'?"
                    }
                    diagnostics.error(file, map.value(memberPath), message)
                    continue
                }
                fault = named
            case "stream_repeat":
                guard case .bool(let flag) = member.value else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "'stream_repeat' must be true or false, found \(member.value.kindName)")
                    continue
                }
                streamRepeat = (flag, memberPath)
            case "bandwidth", "network":
                continue  // read below
            case "body", "body_base64", "response_file", "stream":
                if let other = bodyKey {
                    diagnostics.error(
                        file, map.key(memberPath),
                        "'\(member.key)' and '\(other)' cannot both be given; keep one of them")
                    continue
                }
                bodyKey = member.key
                if member.key == "stream" {
                    stream = (member.value, memberPath)
                } else if member.key == "body" {
                    body = .inline(member.value)
                } else if member.key == "body_base64" {
                    body =
                        Base64.decode(
                            member.value, key: member.key, at: memberPath, file: file, map: map, into: &diagnostics
                        ).map(ResponseBody.bytes) ?? body
                } else if let file = responseFile(member.value, at: memberPath, into: &diagnostics) {
                    body = file
                }
            case "template":
                guard case .bool(let flag) = member.value else {
                    diagnostics.error(
                        file, map.value(memberPath), "'template' must be true or false, found \(member.value.kindName)")
                    continue
                }
                isTemplate = flag
            case "content_length":
                guard case .integer(let length) = member.value, length >= 0 else {
                    diagnostics.error(
                        file, map.value(memberPath),
                        "'content_length' must be a whole number of bytes, 0 or more, found \(member.value.compactText)"
                    )
                    continue
                }
                contentLength = (UInt64(length), memberPath)
            case SchemaReference.key:
                SchemaReference.check(member.value, file: file, at: map.value(memberPath), into: &diagnostics)
            default:
                diagnostics.warning(
                    file, map.key(memberPath), Suggestion.unknownKeyMessage(member.key, known: Self.knownKeys))
            }
        }
        let network = NetworkParser.parse(members, at: path, file: file, map: map, into: &diagnostics)
        if let streamRepeat, stream == nil {
            diagnostics.error(
                file, map.key(streamRepeat.path),
                "'stream_repeat' goes with a 'stream'; give the stream's chunks, or remove it")
        }
        if let stream {
            return streamResponse(
                stream, at: path, members: members, statusCode: statusCode, headers: headers,
                repeats: streamRepeat?.value ?? false, isTemplate: isTemplate,
                delay: delay, fault: fault, network: network, errorsBefore: errorsBefore, into: &diagnostics
            )
        }
        if let contentLength {
            if bodyKey != nil || stream != nil || isTemplate {
                diagnostics.error(
                    file, map.key(contentLength.path),
                    "'content_length' announces a body that is not sent; it cannot go with '\(bodyKey ?? (stream != nil ? "stream" : "template"))'"
                )
            } else if statusCode != 304, methodFolderName.uppercased() != "HEAD" {
                diagnostics.error(
                    file, map.key(contentLength.path),
                    "'content_length' is for answers sent without a body: the responses of a HEAD exchange, and 304s"
                )
            }
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        if statusCode == 204 || statusCode == 304, body != .none {
            diagnostics.warning(
                file, map.value(path),
                "a \(statusCode) response has no body; the '\(bodyKey ?? "body")' given is not sent")
            body = .none
        }
        guard isTemplate else {
            return ConfiguredResponse(
                statusCode: statusCode, headers: headers, body: body, contentLength: contentLength?.value, delay: delay,
                fault: fault, network: network)
        }
        guard let template = template(members, at: path, headers: headers, body: body, into: &diagnostics) else {
            return nil
        }
        return ConfiguredResponse(
            .template(ResponseContent(statusCode: statusCode, headers: headers, body: body), template), delay: delay,
            fault: fault, network: network
        )
    }

    /// `path` is built only for a message: nearly every response names a file.
    func responseFile(
        _ value: JSONValue, at path: @autoclosure () -> [String], key: String = "response_file",
        into diagnostics: inout Diagnostics
    ) -> ResponseBody? {
        guard case .string(let name) = value, !name.isEmpty else {
            diagnostics.error(
                file, map.value(path()),
                "'\(key)' must be a file name relative to the \(filesFolder), found \(value.kindName)"
            )
            return nil
        }
        guard name.utf8.first != UInt8(ascii: "/") else {
            diagnostics.error(
                file, map.value(path()),
                "'\(key)' '\(name)' must be relative to the \(filesFolder), not absolute")
            return nil
        }
        // A plain file name that is no link needs no `realpath` (a system call per path component),
        // which matters on trees of thousands of files. Any other name is resolved in full first: it
        // must stay inside the requests folder.
        let plainName = !isRuntime && !name.utf8.contains(UInt8(ascii: "/")) && name != "." && name != ".."
        var check = plainName ? parentFolder.checkFile(name, inFolder: methodFolderName) : .link
        var resolved: String?
        if check == .link {
            if let real = FileSystem.realPath(FileSystem.join(methodFolderRealPath, name)) {
                guard real.hasPrefix(rootRealPath + "/") else {
                    diagnostics.error(
                        file, map.value(path()),
                        "'\(key)' '\(name)' resolves outside the requests folder; keep response files inside it")
                    return nil
                }
                resolved = real
                check = FileSystem.checkFile(real)
            } else {
                check = .missing
            }
        }
        switch check {
        case .regularFile(let size):
            return .file(name: name, path: resolved, size: size)
        case .missing:
            diagnostics.error(
                file, map.value(path()),
                "'\(key)' '\(name)' does not exist; create \(FileSystem.join(methodFolder, name)) or fix the name")
        case .unreadable:
            diagnostics.error(file, map.value(path()), "'\(key)' '\(name)' cannot be read; check its permissions")
        case .notRegular, .link:
            diagnostics.error(file, map.value(path()), "'\(key)' '\(name)' is not a regular file")
        }
        return nil
    }
}
