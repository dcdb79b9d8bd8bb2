/// Reads a method folder's `configuration.json` (one response object or a non-empty array of them)
/// into responses, reporting every problem with its line and column. Any response object may name the
/// file's JSON Schema with `"$schema"` (editors read it from the top-level object), which is ignored.
struct ResponseReader {
    static let knownKeys = ["status_code", "headers", "response_file", "body", "delay"]

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

    var methodFolder: String { FileSystem.join(requestsFolder, route.folder(named: methodFolderName)) }
    /// The file as shown in messages.
    var file: String { FileSystem.join(methodFolder, TreeLoader.configurationFileName) }
    /// The method folder on disk with links resolved: a `response_file` path resolves against it.
    var methodFolderRealPath: String { parentChain.realPath(ofChild: methodFolderName, resolved: knownRealPath) }

    func read(_ document: JSONValue, into diagnostics: inout Diagnostics) -> [ConfiguredResponse] {
        switch document {
        case .object:
            return response(document, at: [], into: &diagnostics).map { [$0] } ?? []
        case .array(let elements) where elements.isEmpty:
            diagnostics.error(file, map.value([]), "the array of responses is empty; give at least one response object, or delete the file to answer 200 with no body")
            return []
        case .array(let elements):
            return elements.enumerated().compactMap { index, element in
                response(element, at: [String(index)], into: &diagnostics)
            }
        default:
            diagnostics.error(file, map.value([]), "expected a response object or an array of them, found \(document.kindName)")
            return []
        }
    }

    private func response(_ value: JSONValue, at path: [String], into diagnostics: inout Diagnostics) -> ConfiguredResponse? {
        guard case .object(let members) = value else {
            diagnostics.error(file, map.value(path), "a response must be an object with keys such as 'status_code' and 'body', found \(value.kindName)")
            return nil
        }
        let errorsBefore = diagnostics.errors.count
        var statusCode = 200
        var headers: [HTTPHeader] = []
        var body = ResponseBody.none
        var delay: Double?
        var bodyKey: String?

        for member in members {
            var memberPath: [String] { path + [member.key] }
            switch member.key {
            case "status_code":
                guard case .integer(let code) = member.value else {
                    diagnostics.error(file, map.value(memberPath), "'status_code' must be an integer from 200 to 599, found \(member.value.kindName)")
                    continue
                }
                guard (200...599).contains(code) else {
                    diagnostics.error(file, map.value(memberPath), "'status_code' \(code) is out of range; use a status from 200 to 599")
                    continue
                }
                statusCode = Int(code)
            case "headers":
                headers = HeadersParser.parse(member.value, at: memberPath, file: file, map: map, into: &diagnostics)
            case "delay":
                guard let seconds = DelayParser.parse(member.value, at: memberPath, file: file, map: map, into: &diagnostics) else { continue }
                delay = seconds
            case "body", "response_file":
                if let other = bodyKey {
                    diagnostics.error(file, map.key(memberPath), "'\(member.key)' and '\(other)' cannot both be given; keep one of them")
                    continue
                }
                bodyKey = member.key
                if member.key == "body" {
                    body = .inline(member.value)
                } else if let file = responseFile(member.value, at: memberPath, into: &diagnostics) {
                    body = file
                }
            case SchemaReference.key:
                SchemaReference.check(member.value, file: file, at: map.value(memberPath), into: &diagnostics)
            default:
                diagnostics.warning(file, map.key(memberPath), Suggestion.unknownKeyMessage(member.key, known: Self.knownKeys))
            }
        }
        guard diagnostics.errors.count == errorsBefore else { return nil }
        if statusCode == 204 || statusCode == 304, body != .none {
            diagnostics.warning(file, map.value(path), "a \(statusCode) response has no body; the '\(bodyKey ?? "body")' given is not sent")
            body = .none
        }
        return ConfiguredResponse(statusCode: statusCode, headers: headers, body: body, delay: delay)
    }

    /// `path` is built only for a message: nearly every response names a file.
    private func responseFile(_ value: JSONValue, at path: @autoclosure () -> [String], into diagnostics: inout Diagnostics) -> ResponseBody? {
        guard case .string(let name) = value, !name.isEmpty else {
            diagnostics.error(file, map.value(path()), "'response_file' must be a file name relative to the method folder, found \(value.kindName)")
            return nil
        }
        guard name.utf8.first != UInt8(ascii: "/") else {
            diagnostics.error(file, map.value(path()), "'response_file' '\(name)' must be relative to the method folder, not absolute")
            return nil
        }
        // A plain file name that is no link needs no `realpath` (a system call per path component),
        // which matters on trees of thousands of files. Any other name is resolved in full first: it
        // must stay inside the requests folder.
        let plainName = !name.utf8.contains(UInt8(ascii: "/")) && name != "." && name != ".."
        var check = plainName ? parentFolder.checkFile(name, inFolder: methodFolderName) : .link
        var resolved: String?
        if check == .link {
            if let real = FileSystem.realPath(FileSystem.join(methodFolderRealPath, name)) {
                guard real.hasPrefix(rootRealPath + "/") else {
                    diagnostics.error(file, map.value(path()), "'response_file' '\(name)' resolves outside the requests folder; keep response files inside it")
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
            diagnostics.error(file, map.value(path()), "'response_file' '\(name)' does not exist; create \(FileSystem.join(methodFolder, name)) or fix the name")
        case .unreadable:
            diagnostics.error(file, map.value(path()), "'response_file' '\(name)' cannot be read; check its permissions")
        case .notRegular, .link:
            diagnostics.error(file, map.value(path()), "'response_file' '\(name)' is not a regular file")
        }
        return nil
    }
}
