extension RequestHeaders {
    /// The value of the first header named `name` (compared without regard to ASCII case), nil when the
    /// request has none. Reads the headers in place; only the value found becomes a string.
    public func firstValue(named name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            var found: String?
            forEach { candidate, value in
                guard found == nil, candidate.count == wanted.count else { return }
                for index in 0..<wanted.count where candidate[index].lowercasedASCII != wanted[index].lowercasedASCII {
                    return
                }
                found = String(decoding: value, as: UTF8.self)
            }
            return found
        }
    }
}
