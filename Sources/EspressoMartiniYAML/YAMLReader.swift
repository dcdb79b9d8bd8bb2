import CYAML
import EspressoMartini
import Glibc

/// Reads YAML into a JSON value with libyaml, loaded with `dlopen` the first time (so a process that never
/// reads YAML does not map it): mappings become objects (keys as text), sequences arrays, plain scalars
/// `null`, booleans, integers and numbers as YAML 1.2's core schema says (`~`, `true`, `0x1F`, `1.5e3`;
/// `.inf`, which JSON cannot hold, stays text), any quoted or block scalar text; an alias repeats its
/// anchor's value. The first document only. Scripts read YAML bodies with it (`request.bodyYAML`), and
/// `import openapi` reads descriptions.
public enum YAMLReader {
    /// Values a script's YAML body may hold once aliases are expanded (aliases can make a small text huge).
    public static let bodyValueLimit = 100_000
    /// Collections nested in one another at most; deeper documents are refused rather than recursed into.
    static let depthLimit = 1000

    /// Why a text was not read.
    public enum Failure: Error, Sendable, Equatable {
        /// libyaml (`libyaml-0.so.2`) cannot be loaded.
        case unavailable
        /// Not YAML, or more than the limits allow: where, and why.
        case invalid(JSONSyntaxError)
    }

    private struct Library: @unchecked Sendable {
        let initialize: EMYAMLParserInitialize
        let delete: EMYAMLParserDelete
        let setInput: EMYAMLParserSetInputString
        let parse: EMYAMLParserParse
        let deleteEvent: EMYAMLEventDelete
    }

    private static let library = try? DynamicLibrary.load(
        libraryName, package: "libyaml-0-2", neededBy: "reading YAML needs libyaml"
    ) { yaml in
        Library(
            initialize: yaml("yaml_parser_initialize"), delete: yaml("yaml_parser_delete"),
            setInput: yaml("yaml_parser_set_input_string"),
            parse: yaml("yaml_parser_parse"), deleteEvent: yaml("yaml_event_delete")
        )
    }.get()

    /// The library's file name, as Debian's `libyaml-0-2` installs it.
    public static let libraryName = "libyaml-0.so.2"

    /// Whether libyaml can be loaded (loading it now if it is not yet).
    public static var isAvailable: Bool { library != nil }

    /// A script's YAML body: nil when it is empty, not YAML, the library is missing, or it holds more than
    /// `bodyValueLimit` values.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard !bytes.isEmpty else { return nil }
        return try? read(bytes, valueLimit: bodyValueLimit).get()
    }

    /// The first document of `bytes`, or where and why it is not YAML (line and column from 1, as libyaml
    /// reports them). An empty text is the document `null`.
    public static func read(_ bytes: [UInt8], valueLimit: Int) -> Result<JSONValue, Failure> {
        guard let library else { return .failure(.unavailable) }
        var parser = yaml_parser_t()
        guard library.initialize(&parser) != 0 else { return .failure(.unavailable) }
        defer { library.delete(&parser) }
        return bytes.withUnsafeBufferPointer { input in
            library.setInput(&parser, input.baseAddress, input.count)
            var reader = EventReader(library: library, parser: &parser, valueLimit: valueLimit)
            guard let document = reader.document() else {
                return .failure(.invalid(reader.problem ?? reader.parserProblem()))
            }
            return .success(document)
        }
    }

    private struct EventReader {
        let library: Library
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let valueLimit: Int
        /// Each anchor's value and how many values it holds, which an alias adds again.
        var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
        var nodes = 0
        var depth = 0
        /// Why reading stopped, when it is not libyaml's own error.
        var problem: JSONSyntaxError?

        init(library: Library, parser: UnsafeMutablePointer<yaml_parser_t>, valueLimit: Int) {
            self.library = library
            self.parser = parser
            self.valueLimit = valueLimit
        }

        /// The next event, handed to `body` and deleted after; nil at a syntax error.
        mutating func next<Result>(_ body: (inout yaml_event_t) -> Result) -> Result? {
            var event = yaml_event_t()
            guard library.parse(parser, &event) != 0 else { return nil }
            defer { library.deleteEvent(&event) }
            return body(&event)
        }

        /// libyaml's account of its error: `did not find expected key (while parsing a block mapping)`.
        func parserProblem() -> JSONSyntaxError {
            let state = parser.pointee
            var message = state.problem.map { String(cString: $0) } ?? "unexpected end of the document"
            if let context = state.context { message += " (\(String(cString: context)))" }
            return JSONSyntaxError(position: Self.position(state.problem_mark), message: "invalid YAML: " + message)
        }

        static func position(_ mark: yaml_mark_t) -> SourcePosition {
            SourcePosition(line: mark.line + 1, column: mark.column + 1)
        }

        mutating func stop(at mark: yaml_mark_t, _ message: String) -> JSONValue? {
            problem = JSONSyntaxError(position: Self.position(mark), message: message)
            return nil
        }

        mutating func document() -> JSONValue? {
            while let type = next({ $0.type }) {
                switch type {
                case YAML_STREAM_START_EVENT: continue
                case YAML_DOCUMENT_START_EVENT:
                    var ended = false
                    return value(ended: &ended)
                case YAML_STREAM_END_EVENT: return .null
                default: return nil
                }
            }
            return nil
        }

        /// The value that starts with the next event; nil at an error, past a limit, or at the end of a
        /// collection (then `ended` is set).
        mutating func value(ended: inout Bool) -> JSONValue? {
            nodes += 1
            let nodesBefore = nodes - 1
            enum Start {
                case scalar(JSONValue, anchor: String?), alias(String), sequence(String?), mapping(String?), end, other
            }
            var mark = yaml_mark_t()
            guard
                let start = next({ event -> Start in
                    mark = event.start_mark
                    switch event.type {
                    case YAML_SCALAR_EVENT:
                        let scalar = event.data.scalar
                        let text = String(
                            decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                        let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
                        return .scalar(plain ? Self.resolve(text) : .string(text), anchor: Self.text(scalar.anchor))
                    case YAML_ALIAS_EVENT: return .alias(Self.text(event.data.alias.anchor) ?? "")
                    case YAML_SEQUENCE_START_EVENT: return .sequence(Self.text(event.data.sequence_start.anchor))
                    case YAML_MAPPING_START_EVENT: return .mapping(Self.text(event.data.mapping_start.anchor))
                    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT, YAML_DOCUMENT_END_EVENT: return .end
                    default: return .other
                    }
                })
            else { return nil }
            guard nodes <= valueLimit else { return tooManyValues(at: mark) }
            switch start {
            case .scalar(let value, let anchor):
                if let anchor { anchors[anchor] = (value, 1) }
                return value
            case .alias(let name):
                guard let anchored = anchors[name] else {
                    return stop(at: mark, "invalid YAML: the alias *\(name) names no anchor before it")
                }
                nodes += anchored.nodes
                return nodes <= valueLimit ? anchored.value : tooManyValues(at: mark)
            case .sequence(let anchor):
                guard depth < YAMLReader.depthLimit else { return tooDeep(at: mark) }
                depth += 1
                defer { depth -= 1 }
                var items: [JSONValue] = []
                while true {
                    var end = false
                    guard let item = value(ended: &end) else {
                        if end { break }
                        return nil
                    }
                    items.append(item)
                }
                if let anchor { anchors[anchor] = (.array(items), nodes - nodesBefore) }
                return .array(items)
            case .mapping(let anchor):
                guard depth < YAMLReader.depthLimit else { return tooDeep(at: mark) }
                depth += 1
                defer { depth -= 1 }
                var members: [JSONMember] = []
                while true {
                    var end = false
                    guard let key = value(ended: &end) else {
                        if end { break }
                        return nil
                    }
                    var valueEnded = false
                    guard let member = value(ended: &valueEnded) else { return nil }
                    let name: String
                    if case .string(let text) = key { name = text } else { name = key.compactText }
                    members.removeAll { $0.key == name }
                    members.append(JSONMember(key: name, value: member))
                }
                if let anchor { anchors[anchor] = (.object(members), nodes - nodesBefore) }
                return .object(members)
            case .end:
                ended = true
                return nil
            case .other:
                return nil
            }
        }

        mutating func tooManyValues(at mark: yaml_mark_t) -> JSONValue? {
            stop(at: mark, "the YAML document holds more than \(valueLimit) values once its aliases are expanded")
        }

        mutating func tooDeep(at mark: yaml_mark_t) -> JSONValue? {
            stop(at: mark, "the YAML document nests collections more than \(YAMLReader.depthLimit) deep")
        }

        static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }

        /// A plain scalar by YAML 1.2's core schema.
        static func resolve(_ text: String) -> JSONValue {
            switch text {
            case "", "~", "null", "Null", "NULL": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            if let integer = Int64(text) { return .integer(integer) }
            if text.hasPrefix("0x"), let integer = Int64(text.dropFirst(2), radix: 16) { return .integer(integer) }
            if text.hasPrefix("0o"), let integer = Int64(text.dropFirst(2), radix: 8) { return .integer(integer) }
            let numberCharacters = Set("0123456789+-.eE")
            if text.contains(where: \.isNumber), text.allSatisfy(numberCharacters.contains), let number = Double(text),
                number.isFinite
            {
                return .real(number)
            }
            return .string(text)
        }
    }
}
