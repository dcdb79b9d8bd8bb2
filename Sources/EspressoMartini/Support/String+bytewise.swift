#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// Byte-wise order of the UTF-8 text, the order the tree's listings and routes are sorted in:
    /// negative, zero or positive as `self` comes before, equals or comes after `other`. Compares the
    /// stored bytes at once (`memcmp`): the loader sorts thousands of names and routes.
    public func compareBytewise(_ other: String) -> Int {
        var (left, right) = (self, other)
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : Int(memcmp(a.baseAddress!, b.baseAddress!, common))
                return order != 0 ? order : a.count - b.count
            }
        }
    }

    public func precedesBytewise(_ other: String) -> Bool { compareBytewise(other) < 0 }
}
