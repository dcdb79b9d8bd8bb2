/// A value behind a pthread mutex (see `PthreadMutex` for why not `Synchronization.Mutex`).
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }
}
