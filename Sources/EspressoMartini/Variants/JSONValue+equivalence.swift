extension JSONValue {
    /// Equality as JSON means it, for `equals` in `json` conditions: numbers compare by value whatever
    /// their spelling (`1` equals `1.0`, exactly: no rounding of large integers), objects compare
    /// their members whatever the order, arrays element by element in order.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null):
            return true
        case (.bool(let a), .bool(let b)):
            return a == b
        case (.string(let a), .string(let b)):
            return a == b
        case (.integer(let a), .integer(let b)):
            return a == b
        case (.real(let a), .real(let b)):
            return a == b
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)):
            return Int64(exactly: b) == a
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            // Same count, and each member of one has an equivalent member of the same key in the other.
            return a.count == b.count
                && a.allSatisfy { member in
                    b.contains { $0.key == member.key && $0.value.isEquivalent(to: member.value) }
                }
                && b.allSatisfy { member in
                    a.contains { $0.key == member.key && $0.value.isEquivalent(to: member.value) }
                }
        default:
            return false
        }
    }
}
