import Dispatch

extension Array where Element: Sendable {
    /// `map` on every core, results in order. For work that is mostly system calls (a large tree's
    /// folders and files), where two cores nearly halve the time.
    public func concurrentMap<Result>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each iteration writes its own slot only.
            nonisolated(unsafe) let slots = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: count) { index in
                (slots + index).initialize(to: transform(self[index]))
            }
            initialized = count
        }
    }
}
