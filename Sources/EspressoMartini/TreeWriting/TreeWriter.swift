#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes exchanges into a requests folder as ordinary tree folders a person can read and edit: recording
/// and `import openapi` both write through it.
///
/// - Each path segment becomes a folder named so that it matches exactly that segment
///   (`FolderNameEscapes`: `*`, `{id}`, `GET`, `.x` escaped), a parameter `{name}`; the method folder last.
/// - Body files are written beside `configuration.json` as `response-N.EXT`, numbered in the order the
///   configuration names them; identical bodies of one exchange share one file. `configuration.json` is
///   written last, indented, with its keys in a fixed order, so that the same draft always gives the same bytes.
/// - Every file is written whole or not at all (a temporary file renamed; a new method folder is made whole
///   under a hidden name and renamed). `response-N.*` files of an earlier
///   write of the same method folder that the new configuration no longer names are removed, unless the
///   write keeps the folder's files (recording adds to a folder a person may have edited).
/// - Bodies of `204` and `304` responses are not written (the server sends none), nor `Content-Length` or
///   `Transfer-Encoding` headers (the server sets them).
public struct TreeWriter: Sendable {
    public let requestsFolder: String
    /// Written as `"$schema"` at the top of each configuration (editors find the JSON Schema); nil writes none.
    public let schema: String?

    public init(requestsFolder: String, schema: String? = nil) {
        self.requestsFolder = requestsFolder
        self.schema = schema
    }

    /// The method folder of `method` and `path`, relative to the requests folder (`api/%2A/{id}/GET`), as
    /// written into a tree without folders of that path yet (`folder(method:path:)` looks at the tree).
    public static func methodFolder(method: HTTPMethod, path: [SegmentDraft]) throws(TreeWritingError) -> String {
        var folders: [String] = []
        for (index, segment) in path.enumerated() {
            folders.append(try folderName(segment, atRoot: index == 0, in: folders))
        }
        folders.append(method.name)
        return folders.joined(separator: "/")
    }

    /// `methodFolder(method:path:)` in this tree: a segment named like a method in another case than the
    /// writer's (`get`) is written escaped (`%67et`) where the plain folder is already a method folder (a
    /// person's `get/`, which a sub-folder would make a path component) or the escaped folder is already
    /// there (a tree written with it): two folders for one segment would be two exchanges for the same requests.
    public func folder(method: HTTPMethod, path: [SegmentDraft]) throws(TreeWritingError) -> String {
        let written = try Self.methodFolder(method: method, path: path)
        guard path.contains(where: { if case .literal(let text) = $0 { HTTPMethod(name: text) != nil } else { false } })
        else { return written }
        var folders = written.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var parent = requestsFolder
        for (index, segment) in path.enumerated() {
            if case .literal(let text) = segment,
                let escaped = FolderNameEscapes.escapedSpelling(ofMethodNamedSegment: text),
                FileSystem.kind(of: FileSystem.join(parent, escaped)) == .directory
                    || Self.isMethodFolder(FileSystem.join(parent, folders[index]))
            {
                folders[index] = escaped
            }
            parent = FileSystem.join(parent, folders[index])
        }
        return folders.joined(separator: "/")
    }

    /// Whether the loader reads the folder at `path` as a method folder (false when it is not there).
    private static func isMethodFolder(_ path: String) -> Bool {
        guard let entries = FileSystem.listing(of: path) else { return false }
        return TreeLoader.methodFolderConfiguration(entries) != nil
    }

    private static func folderName(
        _ segment: SegmentDraft, atRoot: Bool, in folders: [String]
    ) throws(TreeWritingError) -> String {
        let name: String
        switch segment {
        case .literal(let text):
            if let problem = FolderNameEscapes.problem(withSegment: text) {
                throw TreeWritingError(
                    path: "/" + folders.joined(separator: "/"), message: "\(problem) cannot be written as a folder")
            }
            name = FolderNameEscapes.folderName(forSegment: text, atRoot: atRoot)
        case .parameter(let parameter):
            name = "{" + parameter + "}"
            guard !parameter.isEmpty, RouteSegment(folderName: name).parameterName == parameter,
                !parameter.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") || $0 < 0x20 })
            else {
                throw TreeWritingError(
                    path: "/" + folders.joined(separator: "/"),
                    message:
                        "the parameter name '\(parameter)' cannot be written as a folder {\(parameter)}; use letters, digits, '-' or '_'"
                )
            }
        }
        guard name.utf8.count <= Self.longestFolderName else {
            throw TreeWritingError(
                path: "/" + folders.joined(separator: "/"),
                message:
                    "the path segment '\(name.prefix(40))…' is longer than a folder name can be (\(Self.longestFolderName) bytes)"
            )
        }
        return name
    }

    /// Creates the folder `path` and those above it that are missing (a requests folder to write into).
    public static func makeFolders(_ path: String) throws(TreeWritingError) {
        try TreeFiles.makeFolders(path)
    }

    /// Linux's NAME_MAX.
    static let longestFolderName = 255

    /// Writes one exchange: its folders, its body files, then its `configuration.json`. With
    /// `keepingFiles`, every file already in the method folder stays, and new body files are numbered after
    /// the folder's highest `response-N`. A method folder that is not there yet is made whole in a hidden
    /// folder beside it, its files written directly, then renamed into place: it appears complete at once,
    /// with no temporary file per file.
    @discardableResult
    public func write(_ exchange: ExchangeDraft, keepingFiles: Bool = false) throws(TreeWritingError) -> WrittenExchange
    {
        try write(
            exchange, keepingFiles: keepingFiles,
            folder: try folder(method: exchange.method, path: exchange.path), isNew: nil)
    }

    /// `write`, with the method folder already known (`methodFolder`), and whether it is there when the
    /// caller has just looked (nil: look).
    @discardableResult
    func write(
        _ exchange: ExchangeDraft, keepingFiles: Bool, folder: String, isNew: Bool?
    ) throws(TreeWritingError) -> WrittenExchange {
        let folderPath = FileSystem.join(requestsFolder, folder)
        if isNew ?? (FileSystem.kind(of: folderPath) == nil) {
            return try writeNew(exchange, folder: folder, at: folderPath)
        }
        var bodies = BodyFiles(
            folder: folderPath, drafts: exchange.allResponses.map(\.body), numberingAfterFolder: keepingFiles)
        let configuration = try configuration(exchange.answers, bodies: &bodies)
        try TreeFiles.write(
            configuration.indentedBytes, to: FileSystem.join(folderPath, TreeLoader.configurationFileName))
        if !keepingFiles { try bodies.removeUnnamed() }
        return WrittenExchange(folder: folder, bodyFiles: bodies.named, configuration: configuration)
    }

    /// A method folder made whole beside where it goes, then renamed into place. When a folder of that name
    /// appeared meanwhile (a person writing into the tree), nothing is written.
    private func writeNew(
        _ exchange: ExchangeDraft, folder: String, at folderPath: String
    ) throws(TreeWritingError) -> WrittenExchange {
        try TreeFiles.makeFolders(FileSystem.parent(of: folderPath))
        let hidden = try HiddenFolder(beside: folderPath)
        defer { hidden.close() }
        do throws(TreeWritingError) {
            var bodies = BodyFiles(writingInto: hidden, drafts: exchange.allResponses.map(\.body))
            let configuration = try configuration(exchange.answers, bodies: &bodies)
            try hidden.write(configuration.indentedBytes, file: TreeLoader.configurationFileName)
            guard hidden.rename(to: FileSystem.lastComponent(of: folderPath)) else {
                let error = errno
                throw TreeWritingError(
                    path: folderPath,
                    message: error == EEXIST || error == ENOTEMPTY
                        ? "appeared while it was being written; it is left as it is"
                        : "cannot be written: \(TreeFiles.describe(error))"
                )
            }
            return WrittenExchange(folder: folder, bodyFiles: bodies.named, configuration: configuration)
        } catch {
            hidden.remove()
            throw error
        }
    }

    /// The configuration of `answers`, its body files written on the way.
    private func configuration(
        _ answers: ExchangeDraft.Answers, bodies: inout BodyFiles
    ) throws(TreeWritingError) -> JSONValue {
        var members = schema.map { [JSONMember(key: SchemaReference.key, value: .string($0))] } ?? []
        switch answers {
        case .responses(let responses, let sequence) where responses.count == 1 && sequence == nil:
            guard case .object(let response) = try Self.response(responses[0], bodies: &bodies) else { return .null }
            members += response
        case .responses(let responses, let sequence):
            members += try Self.sequence(responses, sequence, bodies: &bodies)
        case .variants(let variants):
            var written: [JSONValue] = []
            for variant in variants {
                if let kept = variant.kept {
                    written.append(kept)
                    continue
                }
                var variantMembers = variant.when.map { [JSONMember(key: "when", value: $0)] } ?? []
                variantMembers += try Self.sequence(variant.responses, variant.sequence, bodies: &bodies)
                written.append(.object(variantMembers))
            }
            members.append(JSONMember(key: "variants", value: .array(written)))
        }
        return .object(members)
    }

    /// `"responses"` (one object, or an array for several) and `"sequence"` when given.
    private static func sequence(
        _ responses: [ResponseDraft], _ mode: SequenceMode?, bodies: inout BodyFiles
    ) throws(TreeWritingError) -> [JSONMember] {
        var written: [JSONValue] = []
        for response in responses { written.append(try Self.response(response, bodies: &bodies)) }
        var members = [JSONMember(key: "responses", value: written.count == 1 ? written[0] : .array(written))]
        if let mode { members.append(JSONMember(key: "sequence", value: .string(mode.rawValue))) }
        return members
    }

    private static func response(
        _ response: ResponseDraft, bodies: inout BodyFiles
    ) throws(TreeWritingError) -> JSONValue {
        guard (200...599).contains(response.statusCode) else {
            throw TreeWritingError(
                path: bodies.folder,
                message: "status \(response.statusCode) cannot be written; a response's status is from 200 to 599")
        }
        var members = [JSONMember(key: "status_code", value: .integer(Int64(response.statusCode)))]
        if response.isTemplate { members.insert(JSONMember(key: "template", value: .bool(true)), at: 0) }
        if let length = response.contentLength {
            members.append(JSONMember(key: "content_length", value: .integer(Int64(clamping: length))))
        }
        if let headers = try headers(response.headers, in: bodies.folder) {
            members.append(JSONMember(key: "headers", value: headers))
        }
        guard response.statusCode != 204, response.statusCode != 304 else { return .object(members) }
        switch response.body {
        case .none: break
        case .inline(let value): members.append(JSONMember(key: "body", value: value))
        default: members.append(JSONMember(key: "response_file", value: .string(try bodies.name(response.body))))
        }
        return .object(members)
    }

    /// `{"Name": "value", "Set-Cookie": ["a", "b"]}`: names in order of first appearance, a repeated name
    /// (in any case) as an array; nil when there are none. A header's few names are compared in place, no
    /// table made.
    private static func headers(
        _ headers: [HTTPHeader], in folder: @autoclosure () -> String
    ) throws(TreeWritingError) -> JSONValue? {
        var written: [(name: String, values: [String])] = []
        for header in headers where !header.isNamed("content-length") && !header.isNamed("transfer-encoding") {
            guard HeadersParser.isToken(header.name) else {
                throw TreeWritingError(path: folder(), message: "'\(header.name)' is not a valid header name")
            }
            guard header.isWithheld || !header.value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
            else {
                throw TreeWritingError(
                    path: folder(), message: "the value of header '\(header.name)' holds a line break")
            }
            if let index = written.firstIndex(where: { HTTPHeader.name($0.name, equalsCaseInsensitively: header.name) })
            {
                written[index].values.append(header.value)
            } else {
                written.append((header.name, [header.value]))
            }
        }
        guard !written.isEmpty else { return nil }
        return .object(
            written.map {
                JSONMember(
                    key: $0.name,
                    value: $0.values == [HTTPHeader.withheld]
                        ? .null
                        : $0.values.count == 1
                            ? HeaderBytes.json($0.values[0]) : .array($0.values.map(HeaderBytes.json)))
            })
    }
}
