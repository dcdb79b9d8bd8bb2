extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are `lowercased` in any case (ASCII): a header name compared where it lies.
    @inlinable
    public func equalsLowercased(_ lowercased: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == lowercased.count else { return false }
        for index in 0..<count where self[index].lowercasedASCII != lowercased[index] { return false }
        return true
    }

    /// Whether these bytes are `lowercased` in any case (ASCII).
    @inlinable
    public func equalsLowercased(_ lowercased: [UInt8]) -> Bool {
        lowercased.withUnsafeBufferPointer { equalsLowercased($0) }
    }
}
