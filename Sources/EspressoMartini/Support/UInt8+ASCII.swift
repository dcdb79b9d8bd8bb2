extension UInt8 {
    /// The byte with an ASCII capital letter made small: names compared without regard to case, in place.
    @inlinable
    var lowercasedASCII: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
    }
}
