import EspressoMartini

/// A string for each `format` the generator knows, valid by its RFC; `variation` > 0 gives others of the same
/// format (for arrays whose items must be unique).
enum StringFormats {
    static func example(of format: String, variation: Int) -> String? {
        let number = variation + 1
        switch format {
        case "date-time": return "2024-01-\(twoDigits(1 + variation % 28))T09:30:00Z"
        case "date": return "2024-01-\(twoDigits(1 + variation % 28))"
        case "time": return "09:30:\(twoDigits(variation % 60))Z"
        case "duration": return "P\(number)D"
        case "email", "idn-email": return variation == 0 ? "user@example.com" : "user\(number)@example.com"
        case "hostname", "idn-hostname": return variation == 0 ? "example.com" : "host\(number).example.com"
        case "ipv4": return "192.0.2.\(1 + variation % 254)"
        case "ipv6": return "2001:db8::" + String(number, radix: 16)
        case "uri", "url", "iri": return variation == 0 ? "https://example.com/" : "https://example.com/\(number)"
        case "uri-reference", "iri-reference": return "/example/\(number)"
        case "uri-template": return "https://example.com/{id}"
        case "uuid":
            guard variation > 0 else { return "3fa85f64-5717-4562-b3fc-2c963f66afa6" }
            let tail = String(variation, radix: 16)
            return "3fa85f64-5717-4562-b3fc-" + String(repeating: "0", count: max(0, 12 - tail.count)) + tail
        case "byte": return Base64.encode(Array("example\(variation == 0 ? "" : String(number))".utf8))
        case "json-pointer": return "/example"
        case "relative-json-pointer": return "0"
        case "regex": return "^example$"
        case "int32", "int64": return String(variation)
        case "float", "double", "decimal": return String(variation) + ".5"
        case "password": return "password"
        default: return nil
        }
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
