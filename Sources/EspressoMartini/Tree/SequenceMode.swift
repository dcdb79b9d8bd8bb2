/// What a sequence of responses does once its last response has been served (doc/faults-and-sessions.md): `repeat_last` (the
/// default) keeps serving the last one, `loop` starts again from the first, `once` answers `410`.
public enum SequenceMode: String, Sendable, CaseIterable {
    case repeatLast = "repeat_last"
    case loop
    case once

    /// The spellings a configuration accepts, in documentation order.
    public static let names = allCases.map(\.rawValue)

    /// The 0-based position served to the call that finds the counter at `calls`, for a sequence of
    /// `count` responses; nil when a `once` sequence is over.
    @inline(__always)
    public func position(forCall calls: Int, count: Int) -> Int? {
        switch self {
        case .repeatLast: min(calls, count - 1)
        case .loop: calls % count
        case .once: calls < count ? calls : nil
        }
    }
}
