extension ResponseReader {
    static let scriptKeys = ["javascript", "javascript_file"]

    /// A response object with `javascript` (inline source) or `javascript_file` (a `.js` file in the
    /// method folder, inside the requests folder); only `delay`, `bandwidth` and `network` may stand beside it. The script is checked
    /// by the loader's `ScriptChecker`: a syntax error or no function `response` is an error at the
    /// script's line (in the `.js` file, or at the inline string in the configuration.json).
    func scriptResponse(
        _ members: [JSONMember], at path: [String], into diagnostics: inout Diagnostics
    ) -> ConfiguredResponse? {
        let errorsBefore = diagnostics.errors.count
        var delay: ResponseDelay?
        var script: ResponseScript?
        var scriptKey: String?
        for member in members {
            let memberPath = path + [member.key]
            switch member.key {
            case "delay":
                delay = DelayParser.parseResponseDelay(
                    member.value, at: memberPath, file: file, map: map, into: &diagnostics)
            case "bandwidth", "network":
                continue  // read below
            case "javascript", "javascript_file":
                if let other = scriptKey {
                    diagnostics.error(
                        file, map.key(memberPath),
                        "'\(member.key)' and '\(other)' cannot both be given; keep one of them")
                    continue
                }
                scriptKey = member.key
                script =
                    member.key == "javascript"
                    ? inlineScript(member.value, at: memberPath, into: &diagnostics)
                    : scriptFile(member.value, at: memberPath, into: &diagnostics)
            case SchemaReference.key:
                SchemaReference.check(member.value, file: file, at: map.value(memberPath), into: &diagnostics)
            default:
                let known = Self.knownKeys.contains(member.key)
                diagnostics.error(
                    file, map.key(memberPath),
                    known
                        ? "'\(member.key)' cannot stand beside '\(Self.scriptKeys.first { key in members.contains { $0.key == key } }!)': the script's Response gives status, headers and body; only 'delay', 'bandwidth' and 'network' may stand beside it"
                        : Suggestion.unknownKeyMessage(member.key, known: Self.knownKeys))
            }
        }
        let network = NetworkParser.parse(members, at: path, file: file, map: map, into: &diagnostics)
        guard diagnostics.errors.count == errorsBefore, let script else { return nil }
        if let problem = scriptChecker?.check(script) {
            report(problem, in: script, into: &diagnostics)
            return nil
        }
        return ConfiguredResponse(.script(script), delay: delay, network: network)
    }

    private func inlineScript(
        _ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics
    ) -> ResponseScript? {
        guard case .string(let source) = value, !source.isEmpty else {
            diagnostics.error(
                file, map.value(path),
                "'javascript' must be the script's source, a string defining function response(request, cache), found \(value.kindName)"
            )
            return nil
        }
        return ResponseScript(
            source: source, file: file, inlinePosition: map.value(path), route: route.description,
            methodFolderRealPath: methodFolderRealPath, rootRealPath: rootRealPath
        )
    }

    private func scriptFile(
        _ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics
    ) -> ResponseScript? {
        guard case .string(let name) = value, name.hasSuffix(".js") else {
            diagnostics.error(
                file, map.value(path),
                "'javascript_file' must name a .js file relative to the method folder, found \(value.compactText)")
            return nil
        }
        guard case .file(_, let resolved, _) = responseFile(value, at: path, key: "javascript_file", into: &diagnostics)
        else { return nil }
        let real = resolved ?? FileSystem.join(methodFolderRealPath, name)
        guard let bytes = FileBytes.reading(path: real) else {
            diagnostics.error(
                file, map.value(path), "'javascript_file' '\(name)' cannot be read; check its permissions")
            return nil
        }
        let source = String(decoding: UnsafeRawBufferPointer(bytes.buffer), as: UTF8.self)
        return ResponseScript(
            source: source, file: FileSystem.join(methodFolder, name), inlinePosition: nil, fileName: name,
            route: route.description,
            methodFolderRealPath: methodFolderRealPath, rootRealPath: rootRealPath
        )
    }

    /// A file script's problem at its own line and column; an inline one's at its string in the
    /// configuration.json, naming the script's line when it has several.
    private func report(_ problem: ScriptProblem, in script: ResponseScript, into diagnostics: inout Diagnostics) {
        if let inline = script.inlinePosition {
            let where_ =
                problem.line.map { line in
                    script.source.utf8.contains(UInt8(ascii: "\n")) ? " (line \(line) of the script)" : ""
                } ?? ""
            diagnostics.error(file, inline, "the script in 'javascript'\(where_): \(problem.message)")
        } else {
            let position = problem.line.map { SourcePosition(line: $0, column: problem.column ?? 1) }
            diagnostics.error(script.file, position, problem.message)
        }
    }
}
