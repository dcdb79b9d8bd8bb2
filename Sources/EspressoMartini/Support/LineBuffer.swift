/// One log line being written into memory the caller provides (on the stack), with plain stores: no
/// array growth or uniqueness check per byte. The caller sizes the memory for the longest line it can
/// write; a write past the end is dropped.
public struct LineBuffer {
    private let memory: UnsafeMutableBufferPointer<UInt8>
    public private(set) var count = 0

    public init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
        self.memory = memory
    }

    /// What has been written so far.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: memory[..<count]) }

    public mutating func append(_ byte: UInt8) {
        guard count < memory.count else { return }
        memory[count] = byte
        count += 1
    }

    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = min(bytes.count, memory.count - count)
        guard length > 0 else { return }
        (memory.baseAddress! + count).update(from: bytes.baseAddress!, count: length)
        count += length
    }

    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` in decimal, at least `digits` digits (zero-padded); `value` is not negative. Written in
    /// place, last digit first, once its length is known.
    public mutating func appendDecimal(_ value: Int, digits: Int = 1) {
        var length = 1, rest = value / 10
        while rest > 0 { length += 1; rest /= 10 }
        length = max(length, digits)
        guard count + length <= memory.count else { return }
        rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            memory[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }

    /// The most bytes `appendDecimal` writes for any `Int`.
    public static let decimalLimit = 20
}
