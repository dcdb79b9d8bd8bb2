/// Headers kept packed as `name NUL value NUL …` (the journal's form), read in place: a journal entry's
/// headers are matched by conditions without being split into strings first.
public struct PackedHeaders: RequestHeaderReader {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func forEachHeader(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void)
    {
        bytes.withUnsafeBufferPointer { packed in
            var start = 0
            var name: UnsafeBufferPointer<UInt8>?
            for index in 0..<packed.count where packed[index] == 0 {
                let field = UnsafeBufferPointer(rebasing: packed[start..<index])
                start = index + 1
                if let known = name {
                    body(known, field)
                    name = nil
                } else {
                    name = field
                }
            }
        }
    }

    public func pack(into packed: inout [UInt8]) {
        packed.append(contentsOf: bytes)
    }
}
