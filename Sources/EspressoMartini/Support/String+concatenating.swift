extension String {
    /// `parts` joined into a string of just their size. `a + "/" + b` grows `a`'s storage on the way and
    /// may keep twice the room; that counts for the paths and routes held for every exchange of a large tree.
    public static func concatenating(_ parts: String...) -> String {
        var result = String()
        result.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { result.append(part) }
        return result
    }
}
