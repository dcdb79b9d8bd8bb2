#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Array where Element: Sendable {
    /// `map` on every core, results in order. For work that is mostly system calls (a large tree's
    /// folders and files), which the kernel then serves on several cores at once. The calling thread
    /// works too, with one `SystemThread` per other core; all have ended when it returns.
    public func concurrentMap<Result>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        let threads = Swift.min(count, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        guard threads > 1 else { return map(transform) }
        let next = Locked(0)
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each index is handed out once, and its slot written by that thread only.
            nonisolated(unsafe) let slots = buffer.baseAddress!
            withoutActuallyEscaping(transform) { transform in
                let work: @Sendable () -> Void = {
                    while true {
                        let index = next.withLock { next in
                            defer { next += 1 }
                            return next
                        }
                        guard index < count else { return }
                        (slots + index).initialize(to: transform(self[index]))
                    }
                }
                let helpers = (1..<threads).map { _ in SystemThread(work) }
                work()
                for helper in helpers { helper.join() }
            }
            initialized = count
        }
    }
}
