#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes forwarded requests and their answers into a requests folder through the `TreeWriter`
/// (doc/recording.md), one at a time: call it from one thread.
///
/// Each request becomes a variant of its exchange (`api/users/GET/`) whose conditions are the request's
/// own (`RecordedExchange.conditions`), with no fallback, so a request that differs is still a miss. The
/// variant goes before the first one that would answer the request, so that it answers it (a variant with
/// fewer conditions comes after one with more). A request with the same conditions as a variant (in any
/// order: `?a=1&b=2` and `?b=2&a=1`, JSON documents equal as JSON) appends its answer to that variant's
/// sequence (`"sequence": "repeat_last"`), unless `repeats` is `first`. An answer the same as the last one
/// of its sequence is held back, counted in memory, since `repeat_last` plays it anyway: the repeats held
/// are written before the next different answer of that variant, so that answers A, A, B replay as A, A, B
/// and a polled endpoint's unchanged answers do not pile up. Variants a person wrote (templates, delays,
/// other conditions) are written back as they are, and an exchange without variants becomes the last
/// variant, without conditions.
public final class ExchangeRecorder: @unchecked Sendable {
    /// What one recording did.
    public enum Outcome: Sendable, Equatable {
        /// `responses` responses (the answer, after the repeats held back before it) were written into the
        /// method folder `folder` (relative to the requests folder), a new exchange or not.
        case added(folder: String, newExchange: Bool, responses: Int = 1)
        /// Nothing written now: the same answer as the last again (held back), or a repeat with `repeats` `first`.
        case unchanged(folder: String)
    }

    public let writer: TreeWriter
    public let options: RecordingOptions
    private let parser: any JSONParser
    /// The answers held back by method folder: a variant's conditions, its last response, and how many
    /// times that response came again since it was written.
    private var heldRepeats: [String: [(when: JSONValue?, last: ResponseDraft, count: Int)]] = [:]

    /// `schema`: the `"$schema"` each `configuration.json` written names (nil: none).
    public init(requestsFolder: String, schema: String? = nil, options: RecordingOptions, parser: any JSONParser) {
        writer = TreeWriter(requestsFolder: requestsFolder, schema: schema)
        self.options = options
        self.parser = parser
    }

    /// Writes `exchange`; its body file is moved into the tree, or removed when nothing new is written.
    /// Throws (the body file removed) when the request cannot be written as a tree (a segment too long for a
    /// folder name) or its method folder's `configuration.json` does not parse.
    public func record(_ exchange: RecordedExchange) throws(TreeWritingError) -> Outcome {
        do {
            return try write(exchange)
        } catch {
            if let file = exchange.responseBodyFile { unlink(file) }
            throw error
        }
    }

    private func write(_ exchange: RecordedExchange) throws(TreeWritingError) -> Outcome {
        let path = exchange.segments.segments.map(SegmentDraft.literal)
        let folder = try writer.folder(method: exchange.method, path: path)
        let folderPath = FileSystem.join(writer.requestsFolder, folder)
        let configurationPath = FileSystem.join(folderPath, TreeLoader.configurationFileName)
        var variants: [VariantDraft] = []
        // A missing method folder is a new exchange (one stat); an existing one may still lack its configuration.
        let folderIsNew = FileSystem.kind(of: folderPath) == nil
        let isNew = folderIsNew || FileSystem.kind(of: configurationPath) == nil
        if !isNew {
            guard let bytes = FileSystem.contents(of: configurationPath) else {
                throw TreeWritingError(path: configurationPath, message: "cannot be read; nothing was recorded into it")
            }
            switch parser.parse(bytes) {
            case .success(let existing): variants = Self.variants(of: existing)
            case .failure(let syntax):
                throw TreeWritingError(
                    path: configurationPath,
                    message:
                        "does not parse (\(syntax.message), line \(syntax.position.line)); nothing was recorded into it until it is fixed"
                )
            }
        }
        // A conditional header an exchange's recorded variants have conditions on is a condition of every one:
        // absent, when the request has none; a request that brings one up first says it of those before it.
        let absentHeaders = ConditionalRequestHeaders.names.filter { name in
            variants.contains { $0.kept == nil && Self.hasCondition(onHeader: name, $0.when) }
        }
        let when = exchange.conditions(options, parser: parser, absentHeaders: absentHeaders)
        let broughtUp = ConditionalRequestHeaders.names.filter { name in
            !absentHeaders.contains(name) && Self.hasCondition(onHeader: name, when)
                && !options.matchHeaders.contains { HTTPHeader.name($0, equalsCaseInsensitively: name) }
        }
        for name in broughtUp {
            for index in variants.indices where variants[index].kept == nil {
                variants[index].when = Self.adding(absentHeader: name, to: variants[index].when)
            }
        }
        var bodyFile = exchange.responseBodyFile
        var bodyBytes = exchange.responseBodyBytes
        if exchange.statusCode == 204 || exchange.statusCode == 304 {
            if let file = bodyFile { unlink(file) }  // the server sends no body with these
            bodyFile = nil
            bodyBytes = nil
        }
        let fileExtension =
            bodyFile == nil && bodyBytes == nil
            ? "" : ContentType.fileExtension(for: Self.contentType(of: exchange.responseHeaders))
        let body: ResponseDraft.Body =
            bodyFile.map { .movedFile(path: $0, fileExtension: fileExtension) } ?? bodyBytes.map {
                .bytes($0, fileExtension: fileExtension)
            } ?? .none
        let (headers, isTemplate) = exchange.rewritingTargetURL(in: exchange.writtenResponseHeaders(options), options)
        var response = ResponseDraft(statusCode: exchange.statusCode, headers: headers, body: body)
        response.isTemplate = isTemplate
        response.contentLength = exchange.announcedLength
        if body != .none, !variants.isEmpty,
            let same = Self.existingFile(sameAs: body, fileExtension: fileExtension, in: variants, folder: folderPath)
        {
            if let file = bodyFile { unlink(file) }  // identical bodies of one exchange share one file
            response.body = .existingFile(same)
            bodyFile = nil
        }
        var written = 1
        if let index = variants.firstIndex(where: { $0.kept == nil && Self.same($0.when, when) }) {
            let last = variants[index].responses.last!
            if options.repeats == .first || Self.same(response, last) {
                if options.repeats == .sequence { hold(last, of: when, in: folder) }
                if let file = bodyFile { unlink(file) }
                return .unchanged(folder: folder)
            }
            let held =
                heldRepeats[folder]?.first { Self.same($0.when, when) && Self.same($0.last, last) }?.count ?? 0
            variants[index].responses += Array(repeating: last, count: held) + [response]
            variants[index].sequence = .repeatLast
            written += held
        } else if variants.isEmpty {
            variants = [VariantDraft(when: when, responses: [response])]
        } else {
            let request = RequestModel(exchange.request, route: RoutePattern([]), parser: parser)
            let position = variants.firstIndex { holds($0, for: request) } ?? variants.endIndex
            variants.insert(VariantDraft(when: when, responses: [response]), at: position)
        }
        try writer.write(
            ExchangeDraft(method: exchange.method, path: path, answers: .variants(variants)), keepingFiles: true,
            folder: folder, isNew: folderIsNew)
        if var held = heldRepeats[folder] {
            held.removeAll { Self.same($0.when, when) }
            for name in broughtUp {
                for index in held.indices { held[index].when = Self.adding(absentHeader: name, to: held[index].when) }
            }
            heldRepeats[folder] = held.isEmpty ? nil : held
        }
        return .added(folder: folder, newExchange: isNew, responses: written)
    }

    /// Counts one more repeat of `last`, the last response of the variant with the conditions `when`.
    private func hold(_ last: ResponseDraft, of when: JSONValue?, in folder: String) {
        var held = heldRepeats[folder] ?? []
        if let index = held.firstIndex(where: { Self.same($0.when, when) }), Self.same(held[index].last, last) {
            held[index].count += 1
        } else {
            held.removeAll { Self.same($0.when, when) }
            held.append((when, last, 1))
        }
        heldRepeats[folder] = held
    }

    /// Whether two variants' conditions are the same conditions: JSON equality (as `json`'s `equals` has
    /// it), the members of an object in any order.
    private static func same(_ when: JSONValue?, _ other: JSONValue?) -> Bool {
        guard let when, let other else { return when == nil && other == nil }
        return when.isEquivalent(to: other)
    }

    /// Whether the conditions `when` have one on the request header `name`.
    private static func hasCondition(onHeader name: String, _ when: JSONValue?) -> Bool {
        guard case .object(let members)? = when,
            case .object(let headers)? = members.first(where: { $0.key == "headers" })?.value
        else { return false }
        return headers.contains { HTTPHeader.name($0.key, equalsCaseInsensitively: name) }
    }

    /// `when` with the condition that the request has no header `name` (after the query's, when it has none
    /// on headers yet).
    private static func adding(absentHeader name: String, to when: JSONValue?) -> JSONValue {
        let condition = JSONMember(key: name, value: RecordedExchange.absent)
        guard case .object(var members)? = when else {
            return .object([JSONMember(key: "headers", value: .object([condition]))])
        }
        if let index = members.firstIndex(where: { $0.key == "headers" }),
            case .object(let headers) = members[index].value
        {
            members[index] = JSONMember(key: "headers", value: .object(headers + [condition]))
        } else {
            let position = members.firstIndex { $0.key == "query" }.map { $0 + 1 } ?? 0
            members.insert(JSONMember(key: "headers", value: .object([condition])), at: position)
        }
        return .object(members)
    }

    /// The variants of a method folder's configuration: each one the recorder can read back as a draft,
    /// the others kept as they are; an exchange without variants as one kept variant without conditions.
    static func variants(of configuration: JSONValue) -> [VariantDraft] {
        switch configuration {
        case .object(let members) where members.contains(where: { $0.key == "variants" }):
            guard case .array(let written)? = members.first(where: { $0.key == "variants" })?.value else { return [] }
            return written.map { draft(of: $0) ?? .kept($0) }
        case .object(let members) where members.contains(where: { $0.key == "responses" }):
            return [.kept(.object(members.filter { $0.key != SchemaReference.key }))]
        case .object(let members):
            return [
                .kept(
                    .object([
                        JSONMember(key: "responses", value: .object(members.filter { $0.key != SchemaReference.key }))
                    ]))
            ]
        default:
            return [.kept(.object([JSONMember(key: "responses", value: configuration)]))]
        }
    }

    /// A variant holding only conditions, responses a draft can say, and a sequence mode.
    private static func draft(of variant: JSONValue) -> VariantDraft? {
        guard case .object(let members) = variant else { return nil }
        var draft = VariantDraft(when: nil, responses: [])
        for member in members {
            switch (member.key, member.value) {
            case ("when", let when): draft.when = when
            case ("responses", .array(let responses)) where !responses.isEmpty:
                for response in responses {
                    guard let response = ResponseDraft(written: response) else { return nil }
                    draft.responses.append(response)
                }
            case ("responses", let response):
                guard let response = ResponseDraft(written: response) else { return nil }
                draft.responses = [response]
            case ("sequence", .string(let mode)):
                guard let mode = SequenceMode(rawValue: mode) else { return nil }
                draft.sequence = mode
            default:
                return nil
            }
        }
        return draft.responses.isEmpty ? nil : draft
    }

    /// Whether `variant` answers `request` (a variant without conditions answers every request; conditions
    /// that do not compile answer none).
    private func holds(_ variant: VariantDraft, for request: RequestModel) -> Bool {
        let when: JSONValue?
        if let kept = variant.kept {
            guard case .object(let members) = kept else { return false }
            when = members.first { $0.key == "when" }?.value
        } else {
            when = variant.when
        }
        guard let when else { return true }
        var diagnostics = Diagnostics()
        let compiled = VariantConditions.compile(
            when, at: [], pathCaptures: [], file: "", map: JSONSourceMap(Array(when.compactText.utf8)),
            into: &diagnostics
        )
        return compiled?.holds(for: request) ?? false
    }

    /// Whether `response` says what `last` says: status, headers, and body bytes (the same file of the folder).
    private static func same(_ response: ResponseDraft, _ last: ResponseDraft) -> Bool {
        guard last.statusCode == response.statusCode, sorted(last.headers) == sorted(response.headers) else {
            return false
        }
        switch (response.body, last.body) {
        case (.none, .none): return true
        case (.existingFile(let name), .existingFile(let lastName)): return name == lastName
        default: return false
        }
    }

    /// The body file of a recorded response of the exchange that holds the same bytes as `body` (a file
    /// to move, or bytes).
    private static func existingFile(
        sameAs body: ResponseDraft.Body, fileExtension: String, in variants: [VariantDraft], folder: String
    ) -> String? {
        var seen: Set<String> = []
        for case .existingFile(let name) in variants.flatMap(\.responses).map(\.body) where seen.insert(name).inserted {
            guard name.hasSuffix("." + fileExtension) else { continue }
            let existing = FileSystem.join(folder, name)
            switch body {
            case .movedFile(let path, _): if FileSystem.sameContents(path, existing) { return name }
            case .bytes(let bytes, _): if FileSystem.contents(of: existing) == bytes { return name }
            default: break
            }
        }
        return nil
    }

    /// Headers by name (without case), each name's values in their order.
    private static func sorted(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.enumerated().sorted { a, b in
            let (left, right) = (a.element.name.lowercased(), b.element.name.lowercased())
            return left == right ? a.offset < b.offset : left < right
        }.map { HTTPHeader(name: $0.element.name.lowercased(), value: $0.element.value) }
    }

    private static func contentType(of headers: [HTTPHeader]) -> String {
        headers.first { $0.isNamed("content-type") }?.value ?? ""
    }
}
