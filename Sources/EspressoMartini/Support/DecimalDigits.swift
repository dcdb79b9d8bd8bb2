/// The decimal digits of a number, written on the stack: for text appended as bytes, without making a string.
public enum DecimalDigits {
    /// Calls `body` with the digits of `value` (ASCII, no sign), valid during the call only.
    public static func with<Result>(_ value: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var at = digits.count
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: digits[at...])))
        }
    }
}
