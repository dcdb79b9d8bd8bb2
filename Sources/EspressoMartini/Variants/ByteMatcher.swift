/// A test on bytes (a body or a multipart part as sent, `body_base64` in a condition), compiled once at load:
/// the bytes are given in base64, so that any body, text or not, can be written in `configuration.json`
/// (doc/variants.md "Bodies that are not text").
public struct ByteMatcher: Sendable {
    public enum Rule: Sendable {
        /// The bytes are exactly these.
        case equals([UInt8])
        case contains([UInt8])
        case prefix([UInt8])
        /// `true`: there are bytes (a body, even an empty one); `false`: there are none.
        case present(Bool)
    }

    public let rule: Rule

    public init(_ rule: Rule) {
        self.rule = rule
    }

    /// Whether `bytes` (nil when there are none: no body, no such part) satisfy the matcher.
    public func holds(for bytes: [UInt8]?) -> Bool {
        if case .present(let wanted) = rule { return wanted == (bytes != nil) }
        guard let bytes else { return false }
        switch rule {
        case .equals(let expected): return bytes == expected
        case .prefix(let start): return bytes.starts(with: start)
        case .contains(let part):
            guard !part.isEmpty else { return true }
            guard bytes.count >= part.count else { return false }
            return (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
        case .present: return true
        }
    }

    /// Nil when the matcher holds for `bytes`; else what they were against what was expected
    /// (`body_base64 is "AAE=" (2 bytes), expected "AAI=" (2 bytes)`). `subject` names what was looked at.
    public func mismatch(for bytes: [UInt8]?, subject: String) -> String? {
        guard !holds(for: bytes) else { return nil }
        guard let bytes else {
            if case .present = rule { return "\(subject) is missing" }
            return "\(subject) is missing, expected \(expectation)"
        }
        if case .present(false) = rule { return "\(subject) is \(Self.shown(bytes)), expected it to be absent" }
        return "\(subject) is \(Self.shown(bytes)), expected \(expectation)"
    }

    private var expectation: String {
        switch rule {
        case .equals(let bytes): Self.shown(bytes)
        case .contains(let part): "bytes containing \(Self.shown(part))"
        case .prefix(let start): "bytes starting with \(Self.shown(start))"
        case .present(true): "it to be present"
        case .present(false): "it to be absent"
        }
    }

    /// The short form in listings, after the name: `=AAE=`, ` contains AAE=`, ` present`; the bytes in base64
    /// whole, as a text matcher's summary has its whole text.
    public var summary: String {
        switch rule {
        case .equals(let bytes): "=" + Base64.encode(bytes)
        case .contains(let part): " contains " + Base64.encode(part)
        case .prefix(let start): " starts with " + Base64.encode(start)
        case .present(let wanted): wanted ? " present" : " absent"
        }
    }

    /// `"AAE=" (2 bytes)`, the base64 quoted and shortened as `Matcher.quoted` does.
    private static func shown(_ bytes: [UInt8]) -> String {
        Matcher.quoted(Base64.encode(bytes)) + (bytes.count == 1 ? " (1 byte)" : " (\(bytes.count) bytes)")
    }
}
