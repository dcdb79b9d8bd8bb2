import CYAML
import EspressoMartini
import Glibc

/// Reads a YAML body (`request.bodyYAML`, doc/scripts.md) into a JSON value with libyaml, loaded with `dlopen` the
/// first time: mappings become objects (keys as text), sequences arrays, plain scalars `null`, booleans,
/// integers and numbers as YAML 1.2's core schema says (`~`, `true`, `0x1F`, `1.5e3`; `.inf`, which JSON
/// cannot hold, stays text), any
/// quoted or block scalar text; an alias repeats its anchor's value. The first document only. Nil when
/// the body is not YAML, the library is missing, or the document grows past `nodeLimit` values (aliases
/// can make a small text huge).
public enum YAMLReader {
    static let nodeLimit = 100_000

    private struct Library: @unchecked Sendable {
        let initialize: EMYAMLParserInitialize
        let delete: EMYAMLParserDelete
        let setInput: EMYAMLParserSetInputString
        let parse: EMYAMLParserParse
        let deleteEvent: EMYAMLEventDelete
    }

    private static let library: Library? = {
        guard let handle = dlopen("libyaml-0.so.2", RTLD_NOW | RTLD_LOCAL),
              let initialize = dlsym(handle, "yaml_parser_initialize"), let delete = dlsym(handle, "yaml_parser_delete"),
              let setInput = dlsym(handle, "yaml_parser_set_input_string"), let parse = dlsym(handle, "yaml_parser_parse"),
              let deleteEvent = dlsym(handle, "yaml_event_delete") else { return nil }
        return Library(
            initialize: unsafeBitCast(initialize, to: EMYAMLParserInitialize.self), delete: unsafeBitCast(delete, to: EMYAMLParserDelete.self),
            setInput: unsafeBitCast(setInput, to: EMYAMLParserSetInputString.self), parse: unsafeBitCast(parse, to: EMYAMLParserParse.self),
            deleteEvent: unsafeBitCast(deleteEvent, to: EMYAMLEventDelete.self)
        )
    }()

    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard let library, !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard library.initialize(&parser) != 0 else { return nil }
        defer { library.delete(&parser) }
        return bytes.withUnsafeBufferPointer { input in
            library.setInput(&parser, input.baseAddress, input.count)
            var reader = EventReader(library: library, parser: &parser)
            return reader.document()
        }
    }

    private struct EventReader {
        let library: Library
        let parser: UnsafeMutablePointer<yaml_parser_t>
        /// Each anchor's value and how many values it holds, which an alias adds again.
        var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
        var nodes = 0

        init(library: Library, parser: UnsafeMutablePointer<yaml_parser_t>) {
            self.library = library
            self.parser = parser
        }

        /// The next event, handed to `body` and deleted after; nil at a syntax error.
        mutating func next<Result>(_ body: (inout yaml_event_t) -> Result) -> Result? {
            var event = yaml_event_t()
            guard library.parse(parser, &event) != 0 else { return nil }
            defer { library.deleteEvent(&event) }
            return body(&event)
        }

        mutating func document() -> JSONValue? {
            while let type = next({ $0.type }) {
                switch type {
                case YAML_STREAM_START_EVENT: continue
                case YAML_DOCUMENT_START_EVENT:
                    var ended = false
                    return value(ended: &ended)
                default: return nil
                }
            }
            return nil
        }

        /// The value that starts with the next event; nil at an error, past the node limit, or at the end of
        /// a collection (then `ended` is set).
        mutating func value(ended: inout Bool) -> JSONValue? {
            nodes += 1
            guard nodes <= YAMLReader.nodeLimit else { return nil }
            let nodesBefore = nodes - 1
            enum Start { case scalar(JSONValue, anchor: String?), alias(String), sequence(String?), mapping(String?), end, other }
            guard let start = next({ event -> Start in
                switch event.type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
                    return .scalar(plain ? Self.resolve(text) : .string(text), anchor: Self.text(scalar.anchor))
                case YAML_ALIAS_EVENT: return .alias(Self.text(event.data.alias.anchor) ?? "")
                case YAML_SEQUENCE_START_EVENT: return .sequence(Self.text(event.data.sequence_start.anchor))
                case YAML_MAPPING_START_EVENT: return .mapping(Self.text(event.data.mapping_start.anchor))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT, YAML_DOCUMENT_END_EVENT: return .end
                default: return .other
                }
            }) else { return nil }
            switch start {
            case .scalar(let value, let anchor):
                if let anchor { anchors[anchor] = (value, 1) }
                return value
            case .alias(let name):
                guard let anchored = anchors[name] else { return nil }
                nodes += anchored.nodes
                return nodes <= YAMLReader.nodeLimit ? anchored.value : nil
            case .sequence(let anchor):
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
            if text.contains(where: \.isNumber), text.allSatisfy(numberCharacters.contains), let number = Double(text), number.isFinite {
                return .real(number)
            }
            return .string(text)
        }
    }
}
