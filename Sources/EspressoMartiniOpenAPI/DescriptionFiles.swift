import EspressoMartini

/// The files of one description, each read once: the one given, and those its `$ref`s name by a relative
/// path. Resolves `$ref`s (`#/components/schemas/Pet`, `Pet.yaml`, `../common.yaml#/Error`), each once.
final class DescriptionFiles {
    let parser: DescriptionParser
    let report: ImportReport
    private var documents: [String: Result<JSONValue, DescriptionProblem>]
    private var resolved: [Reference: Result<Located, DescriptionProblem>] = [:]

    private struct Reference: Hashable {
        let text: String
        let fromFile: String
    }

    /// `rootFile`: the given file's path as `normalize` spells it, holding `root`.
    init(rootFile: String, root: JSONValue, parser: DescriptionParser, report: ImportReport) {
        self.parser = parser
        self.report = report
        documents = [rootFile: .success(root)]
    }

    /// The value a `$ref` names, following a `$ref` found there in turn; nil with a warning at `located`
    /// (saying what became of it: `consequence`) when it cannot be resolved.
    func dereference(_ located: Located, otherwise consequence: String) -> Located? {
        var current = located
        var visited: Set<JSONLocation> = []
        while case .string(let reference)? = current.value.member("$ref") {
            guard visited.insert(current.location).inserted else {
                report.warning(
                    at: located.location, "$ref '\(reference)' leads back to itself through $refs alone; \(consequence)"
                )
                return nil
            }
            switch resolve(reference, from: current.location.file) {
            case .success(let target): current = target
            case .failure(let why):
                report.warning(
                    at: current.location, "$ref '\(reference)' cannot be resolved: \(why.message); \(consequence)")
                return nil
            }
        }
        return current
    }

    /// What a value stands for through its `$ref`s, without a warning; nil when one cannot be resolved.
    func target(of located: Located) -> Located? {
        var current = located
        for _ in 0..<32 {
            guard case .string(let reference)? = current.value.member("$ref") else { return current }
            guard case .success(let next) = resolve(reference, from: current.location.file) else { return nil }
            current = next
        }
        return nil
    }

    /// The value `reference` names, seen from a `$ref` in `file`; or why there is none.
    func resolve(_ reference: String, from file: String) -> Result<Located, DescriptionProblem> {
        let key = Reference(text: reference, fromFile: file)
        if let known = resolved[key] { return known }
        let outcome = lookUp(reference, from: file)
        resolved[key] = outcome
        return outcome
    }

    private func lookUp(_ reference: String, from file: String) -> Result<Located, DescriptionProblem> {
        let hash = reference.firstIndex(of: "#")
        let filePart = String(reference[..<(hash ?? reference.endIndex)])
        let fragment = hash.map { String(reference[reference.index(after: $0)...]) } ?? ""
        var targetFile = file
        if !filePart.isEmpty {
            if let colon = filePart.firstIndex(of: ":"), !filePart[..<colon].contains("/") {
                return .failure(
                    DescriptionProblem(
                        "references to other servers are not fetched; save the file beside the description and refer to it by a relative path"
                    ))
            }
            targetFile = Self.normalize(FileSystem.join(FileSystem.parent(of: file), Self.percentDecoded(filePart)))
        }
        let document: JSONValue
        switch self.document(targetFile) {
        case .success(let value): document = value
        case .failure(let why): return .failure(why)
        }
        let pointerText = Self.percentDecoded(fragment)
        guard pointerText.isEmpty || pointerText.hasPrefix("/"), let pointer = try? JSONPointer(parsing: pointerText)
        else {
            return .failure(
                DescriptionProblem("'#\(fragment)' is not a JSON Pointer (only '#/…' fragments are followed)"))
        }
        guard let value = pointer.value(in: document) else {
            return .failure(
                DescriptionProblem(
                    "nothing is at \(pointerText.isEmpty ? "the root" : pointerText) in \(report.displayName(targetFile))"
                ))
        }
        return .success(Located(value: value, location: JSONLocation(file: targetFile, tokens: pointer.tokens)))
    }

    /// A file's document, read and parsed the first time it is named.
    private func document(_ file: String) -> Result<JSONValue, DescriptionProblem> {
        if let known = documents[file] { return known }
        let outcome: Result<JSONValue, DescriptionProblem>
        if let bytes = FileSystem.contents(of: file) {
            switch parser.parse(bytes, named: file) {
            case .success(let value): outcome = .success(value)
            case .failure(.syntax(let problem)):
                outcome = .failure(
                    DescriptionProblem(
                        "\(file):\(problem.position.line):\(problem.position.column): \(problem.message)"))
            case .failure(.yamlUnavailable):
                outcome = .failure(
                    DescriptionProblem("\(file) is YAML, which needs libyaml (\(DescriptionParser.yamlPackage))"))
            }
        } else {
            outcome = .failure(DescriptionProblem("\(file) cannot be read"))
        }
        documents[file] = outcome
        return outcome
    }

    /// A path with `.` and `folder/..` taken out, so that one file named two ways is read once.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part != ".." || !absolute {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `%20` → ` `; a `%` not followed by two hexadecimal digits stays as it is.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                decoded.append(value)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
