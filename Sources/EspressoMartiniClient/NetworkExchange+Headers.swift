extension NetworkExchange {
    /// A response's headers, in the order given. Written as a dictionary literal, where a name may come
    /// more than once for a repeated header:
    /// `["Set-Cookie": "session=4f; Path=/", "Set-Cookie": "theme=dark"]`.
    public struct Headers: Sendable, Hashable, ExpressibleByDictionaryLiteral {
        /// Every name and value, in order; a name is written as given.
        public var fields: [Field]

        /// One header line.
        public struct Field: Sendable, Hashable {
            public var name: String
            public var value: String

            public init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }

        public init(dictionaryLiteral elements: (String, String)...) {
            fields = elements.map { Field(name: $0.0, value: $0.1) }
        }

        /// The headers of a dictionary, sorted by name so that the same dictionary always writes the same file.
        public init(_ dictionary: [String: String]) {
            fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
        }

        /// Whether a header of this name is given, in any case.
        public func contains(_ name: String) -> Bool {
            fields.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }

        /// As `headers` writes them: each value a string, or an array of strings for a repeated name.
        var json: JSONValue {
            var values: [String: [String]] = [:]
            for field in fields { values[field.name, default: []].append(field.value) }
            return .object(
                values.mapValues { $0.count == 1 ? .string($0[0]) : .array($0.map { .string($0) }) })
        }
    }
}
