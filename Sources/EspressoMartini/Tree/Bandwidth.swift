/// How fast a body may go (doc/streams-and-networks.md): bytes per second, and the spelling the
/// configuration gave (`"56kbit"`, `"1.5mbit"`, `"100KB"`), nil for a plain number.
public struct Bandwidth: Sendable, Equatable {
    public let bytesPerSecond: Double
    public let spelling: String?

    public init(bytesPerSecond: Double, spelling: String? = nil) {
        self.bytesPerSecond = bytesPerSecond
        self.spelling = spelling
    }

    /// The units a bandwidth string may end with, and the bytes per second one of them is: bits in
    /// thousands (`kbit`, `mbit`, `gbit`), bytes in 1024s (`KB`, `MB`, `GB`); `/s` may follow.
    static let units: [(name: String, bytesPerSecond: Double)] = [
        ("bit", 1.0 / 8), ("kbit", 1000.0 / 8), ("mbit", 1_000_000.0 / 8), ("gbit", 1_000_000_000.0 / 8),
        ("B", 1), ("KB", 1024), ("MB", 1024 * 1024), ("GB", 1024 * 1024 * 1024),
    ]

    /// `"56kbit"`, `"1.5 mbit/s"`, `"100KB"`; nil when `text` is none of these or not above 0.
    public init?(parsing text: String) {
        var rest = Substring(text)
        if rest.hasSuffix("/s") { rest = rest.dropLast(2) }
        let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = rest.dropFirst(digits.count).drop { $0 == " " }
        guard digits.first?.isNumber == true, let number = Double(digits), number > 0, number.isFinite,
            let scale = Self.units.first(where: {
                $0.name == unit || ($0.name.hasSuffix("bit") && $0.name == unit.lowercased())
            })
        else { return nil }
        self.init(bytesPerSecond: number * scale.bytesPerSecond, spelling: text)
    }

    /// As the configuration gave it, or `7000 B/s` for a number.
    public var summary: String {
        spelling ?? ExchangeTree.number(bytesPerSecond) + " B/s"
    }

    /// A number of bytes per second, or the string given.
    public var json: JSONValue {
        spelling.map(JSONValue.string) ?? .real(bytesPerSecond)
    }
}
