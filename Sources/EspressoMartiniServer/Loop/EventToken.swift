/// What an event of a loop's epoll set carries: its watcher in the top byte (libmicrohttpd's set, a hang-up
/// watch, an upstream client), the watcher's own value below.
enum EventToken {
    static let ownerMask: UInt64 = 0xFF << 56
    /// libmicrohttpd's epoll set, in the loop's own.
    static let daemon: UInt64 = 1 << 56
    /// A client watched for leaving (`HangUpWatches`).
    static let hangUp: UInt64 = 2 << 56
    /// A connection of a proxy's upstream client.
    static let upstream: UInt64 = 3 << 56

    /// `value` (its low 56 bits) as an upstream client's token.
    static func upstream(_ value: UInt64) -> UInt64 {
        upstream | (value & ~ownerMask)
    }
}
