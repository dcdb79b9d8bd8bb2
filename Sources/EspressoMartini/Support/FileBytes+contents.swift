#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Equal when the bytes are: the tree keeps one copy of files with the same contents.
extension FileBytes: Hashable {
    public static func == (lhs: FileBytes, rhs: FileBytes) -> Bool {
        lhs.count == rhs.count
            && (lhs.count == 0 || memcmp(lhs.buffer.baseAddress!, rhs.buffer.baseAddress!, lhs.count) == 0)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes: buffer)
    }
}
