import EspressoMartini
@testable import EspressoMartiniOpenAPI
import EspressoMartiniYAML
import Testing

/// The YAML of imported `application/yaml` bodies: block style, and read back by libyaml as the same value.
@Suite struct YAMLEmitterTests {
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONMember(key: $0.0, value: $0.1) })
    }

    @Test("block style: two spaces per level, a sequence under its key, objects in a sequence after '- '")
    func blockStyle() {
        let value = Self.object([
            ("name", .string("Rex")),
            ("tags", .array([.string("a"), .string("b")])),
            ("owner", Self.object([("id", .integer(7)), ("emails", .array([]))])),
            ("visits", .array([Self.object([("at", .string("2024-01-01")), ("paid", .bool(true))]), .object([])])),
            ("grid", .array([.array([.integer(1), .integer(2)]), .array([.null])])),
            ("empty", .object([])),
        ])
        #expect(
            YAMLEmitter.text(value) == """
                name: Rex
                tags:
                  - a
                  - b
                owner:
                  id: 7
                  emails: []
                visits:
                  - at: "2024-01-01"
                    paid: true
                  - {}
                grid:
                  - - 1
                    - 2
                  - - null
                empty: {}

                """)
        #expect(YAMLEmitter.text(.string("plain")) == "plain\n")
        #expect(YAMLEmitter.text(.array([])) == "[]\n")
    }

    /// Strings YAML would read as something else, or could not read plain, are quoted.
    static let strings = [
        "", " lead", "trail ", "yes", "No", "ON", "off", "y", "n", "null", "Null", "~", "true", "FALSE", "0", "1.5",
        "-3", "0x1F", "0o17", "1e3", ".inf", "-.inf", ".nan", "2024-01-01", "12:30", "a: b", "a:", "a #b", "#c",
        "- item", "? key", "[x]", "{y}", "*alias", "&anchor", "!tag", "|", ">", "%", "@at", "`tick", "'single'",
        "\"double\"", "back\\slash", "line\nbreak", "tab\there", "cr\r", "\u{0}\u{1}\u{7F}\u{85}\u{9F}",
        "\u{2028}\u{2029}\u{FEFF}\u{FFFE}", "é日本😀", "<<", "=", "---", "...", "plain words", "user@example.com",
        "https://example.com/a?b=c#d", "a,b", "x-y_z.w/v",
    ]

    @Test("strings read back as themselves, as values and as keys", arguments: strings)
    func stringsReadBack(_ text: String) throws {
        let parser = try #require(YAMLParser(valueLimit: 1000))
        for value in [JSONValue.string(text), Self.object([(text, .string(text))]), .array([.string(text)])] {
            let yaml = YAMLEmitter.text(value)
            #expect(try parser.parse(Array(yaml.utf8)).get() == value, "\(yaml)")
        }
    }

    @Test("null, booleans and numbers read back as the same values; whole numbers beyond 64 bits as integers")
    func scalarsReadBack() throws {
        let parser = try #require(YAMLParser(valueLimit: 1000))
        let value = JSONValue.array([
            .null, .bool(true), .bool(false), .integer(0), .integer(Int64.min), .integer(Int64.max), .real(2.5),
            .real(-0.125), .real(1e-7), .real(1e20), .real(-1.2345678901234567e19),
        ])
        let yaml = YAMLEmitter.text(value)
        #expect(yaml.contains("- 1.0e-07\n") && yaml.contains("- 100000000000000000000\n"), "\(yaml)")
        #expect(try parser.parse(Array(yaml.utf8)).get() == value, "\(yaml)")
    }

    @Test("a nested document and a key longer than YAML's 1024 characters of an implicit key read back")
    func nestedReadsBack() throws {
        let parser = try #require(YAMLParser(valueLimit: 1000))
        let long = String(repeating: "k", count: 2000)
        let value = Self.object([
            (long, .array([Self.object([(long, .string(long))])])),
            ("a", .array([.array([.array([Self.object([("b", .array([]))])])])])),
            ("c", Self.object([("d", Self.object([("e", .string("on"))]))])),
        ])
        let yaml = YAMLEmitter.text(value)
        #expect(try parser.parse(Array(yaml.utf8)).get() == value, "\(yaml)")
    }
}
