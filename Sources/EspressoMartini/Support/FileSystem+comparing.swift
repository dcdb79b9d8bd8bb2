#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Whether the files at `first` and `second` hold the same bytes, read side by side in blocks (a body of
    /// any size compared in little memory); false when either cannot be read.
    public static func sameContents(_ first: String, _ second: String) -> Bool {
        let one = open(first, O_RDONLY | O_CLOEXEC)
        guard one >= 0 else { return false }
        defer { close(one) }
        let other = open(second, O_RDONLY | O_CLOEXEC)
        guard other >= 0 else { return false }
        defer { close(other) }
        var oneInfo = stat(), otherInfo = stat()
        guard fstat(one, &oneInfo) == 0, fstat(other, &otherInfo) == 0, oneInfo.st_size == otherInfo.st_size else {
            return false
        }
        let block = 64 * 1024
        return withUnsafeTemporaryAllocation(byteCount: 2 * block, alignment: 16) { buffer in
            let left = buffer.baseAddress!, right = buffer.baseAddress! + block
            while true {
                let got = readFully(one, into: left, count: block)
                guard got >= 0, readFully(other, into: right, count: block) == got else { return false }
                if got == 0 { return true }
                if memcmp(left, right, got) != 0 { return false }
            }
        }
    }

    /// Reads until `count` bytes or the end: the byte count, -1 on an error.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var total = 0
        while total < count {
            let got = readRetrying(descriptor, into: buffer + total, count: count - total)
            if got < 0 { return -1 }
            if got == 0 { break }
            total += got
        }
        return total
    }
}
