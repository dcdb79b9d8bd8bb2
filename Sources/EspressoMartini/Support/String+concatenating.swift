extension String {
    /// `parts` joined into a string of just their size, written once. `a + "/" + b` grows `a`'s storage
    /// on the way and may keep twice the room; that counts for the paths and routes held for every
    /// exchange of a large tree.
    public static func concatenating(_ parts: String...) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var end = 0
            for var part in parts {
                end = part.withUTF8 { buffer[end...].initialize(fromContentsOf: $0) }
            }
            return end
        }
    }
}
