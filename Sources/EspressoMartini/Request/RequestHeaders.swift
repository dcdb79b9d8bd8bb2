/// A request's headers in arrival order, repeated names kept. Either a list (tests, kept requests) or read
/// where they lie through a `RequestHeaderReader` (the server, for every request: no header is copied
/// unless something reads it).
public struct RequestHeaders: Sendable {
    private enum Storage: Sendable {
        case list([HTTPHeader])
        case reader(any RequestHeaderReader)
    }

    private let storage: Storage

    public init(_ headers: [HTTPHeader]) {
        storage = .list(headers)
    }

    /// Headers read through `reader`, which must stay valid as long as this value is read.
    public init(reading reader: some RequestHeaderReader) {
        storage = .reader(reader)
    }

    /// Calls `body` with each header's name and value bytes, in arrival order; the bytes are valid only
    /// during the call.
    public func forEach(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        switch storage {
        case .list(let headers):
            for header in headers {
                var name = header.name, value = header.value
                name.withUTF8 { name in value.withUTF8 { value in body(name, value) } }
            }
        case .reader(let reader):
            reader.forEachHeader(body)
        }
    }

    /// Every header as strings, in arrival order (invalid UTF-8 repaired).
    public var all: [HTTPHeader] {
        if case .list(let headers) = storage { return headers }
        var headers: [HTTPHeader] = []
        forEach { name, value in
            headers.append(
                HTTPHeader(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return headers
    }

    /// The values of every header named `lowercasedName` (compared in ASCII without case), in order. Only
    /// the matching values become strings.
    public func values(named lowercasedName: String) -> [String] {
        var wanted = lowercasedName
        var values: [String] = []
        wanted.withUTF8 { wanted in
            forEach { name, value in
                if name.equalsLowercased(wanted) { values.append(String(decoding: value, as: UTF8.self)) }
            }
        }
        return values
    }

    /// Appends the headers packed as `name NUL value NUL …`, the journal's form: no strings made.
    public func pack(into packed: inout [UInt8]) {
        switch storage {
        case .list(let headers):
            for header in headers { Self.pack(header.name.utf8, header.value.utf8, into: &packed) }
        case .reader(let reader):
            reader.pack(into: &packed)
        }
    }

    /// Appends one header as `name NUL value NUL`. Inlinable, so that a server's call is specialised for
    /// its bytes (unspecialised, each append looked up generic metadata at run time).
    @inlinable
    public static func pack(_ name: some Collection<UInt8>, _ value: some Collection<UInt8>, into packed: inout [UInt8])
    {
        packed.append(contentsOf: name)
        packed.append(0)
        packed.append(contentsOf: value)
        packed.append(0)
    }
}

/// Reads a request's headers where the server keeps them.
public protocol RequestHeaderReader: Sendable {
    /// Calls `body` with each header's name and value bytes, in arrival order.
    func forEachHeader(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void)

    /// Appends every header packed as `RequestHeaders.pack` does; a reader may do it in one pass of its own.
    func pack(into packed: inout [UInt8])
}

extension RequestHeaderReader {
    public func pack(into packed: inout [UInt8]) {
        forEachHeader { name, value in RequestHeaders.pack(name, value, into: &packed) }
    }
}
