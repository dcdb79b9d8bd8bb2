/// One response header line. Repeated names (several `Set-Cookie`) are several headers.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The value of a header a response names with `null` (`"Content-Type": null`): that header is not sent,
    /// neither derived from the body nor global. No configured value can hold a NUL.
    public static let withheld = "\u{0}"

    /// A header named only to be left out (`withheld`).
    public var isWithheld: Bool { value == Self.withheld }

    /// Every answer's headers, by one precedence rule: the answer's own (`own`, in order), then the
    /// `Content-Type` its body implies, then the global ones; each name (without case) only from the first
    /// source that has it.
    public static func merging(
        own: [HTTPHeader], derivedContentType: String? = nil, global: [HTTPHeader]
    ) -> [HTTPHeader] {
        var result = own
        if let derivedContentType, !result.contains(named: "Content-Type") {
            result.append(HTTPHeader(name: "Content-Type", value: derivedContentType))
        }
        if !global.isEmpty {
            let named = Set(result.map { $0.name.lowercased() })
            result += global.filter { !named.contains($0.name.lowercased()) }
        }
        if result.contains(where: \.isWithheld) { result.removeAll(where: \.isWithheld) }
        return result
    }
}

extension HTTPHeader {
    /// Whether this header's name is `lowercasedName` in any case (ASCII), compared byte by byte without
    /// making a string: for the per-request paths.
    public func isNamed(_ lowercasedName: String) -> Bool {
        Self.name(name, equalsLowercased: lowercasedName)
    }

    /// Whether `name` is `lowercasedName` in any case (ASCII).
    public static func name(_ name: String, equalsLowercased lowercasedName: String) -> Bool {
        var name = name, wanted = lowercasedName
        return name.withUTF8 { name in
            wanted.withUTF8 { wanted in
                guard name.count == wanted.count else { return false }
                for index in 0..<name.count {
                    let byte = name[index]
                    if (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) != wanted[index] {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// Whether `name` and `other` are the same name in any case (ASCII).
    public static func name(_ name: String, equalsCaseInsensitively other: String) -> Bool {
        var name = name, other = other
        return name.withUTF8 { name in
            other.withUTF8 { other in
                guard name.count == other.count else { return false }
                for index in 0..<name.count where name[index].lowercasedASCII != other[index].lowercasedASCII {
                    return false
                }
                return true
            }
        }
    }

    /// Whether `name` can be a header's name (RFC 9110 token characters).
    public static func isValidName(_ name: String) -> Bool {
        HeadersParser.isToken(name)
    }
}

extension [HTTPHeader] {
    public func contains(named name: String) -> Bool {
        contains { $0.name.lowercased() == name.lowercased() }
    }
}
