/// The clients a loop watches for leaving while their answer waits for bytes (a stream between chunks, a
/// slowed body, an answer still arriving from the target). libmicrohttpd does not watch the socket of a
/// suspended connection, so without this a client that left would keep its connection and descriptor until
/// the next bytes were due, which for a quiet stream may be never.
///
/// A socket is watched in the loop's epoll set for the peer's close (and the hang-ups and errors epoll always
/// reports), once, and never removed by number: it leaves the set when libmicrohttpd closes it, so a number
/// reused by a later connection is never touched by mistake. Each watch has a token of its own, so a late
/// report for a listener already gone reaches no other. The loop's thread only.
final class HangUpWatches {
    private let poll: EventPoll
    private var listeners: [UInt64: any HangUpListener] = [:]
    private var tokens: [ObjectIdentifier: UInt64] = [:]
    private var nextToken: UInt64 = 0

    init(poll: EventPoll) {
        self.poll = poll
    }

    /// Whether a listener waits: the loop then waits on its own set.
    var isEmpty: Bool { listeners.isEmpty }

    /// Whether `token` is one of a hang-up watch.
    static func owns(_ token: UInt64) -> Bool {
        token & EventToken.ownerMask == EventToken.hangUp
    }

    func watch(_ socket: Int32, for listener: any HangUpListener) {
        guard socket >= 0 else { return }
        nextToken += 1
        let token = EventToken.hangUp | (nextToken & ~EventToken.ownerMask)
        let events = EventPoll.peerClosed | EventPoll.once
        // A connection kept alive may have been watched for an earlier answer: its entry is armed again.
        guard poll.watch(socket, for: events, token: token) || poll.modify(socket, for: events, token: token) else {
            return
        }
        if let earlier = tokens.updateValue(token, forKey: ObjectIdentifier(listener)) { listeners[earlier] = nil }
        listeners[token] = listener
    }

    func forget(_ listener: any HangUpListener) {
        guard let token = tokens.removeValue(forKey: ObjectIdentifier(listener)) else { return }
        listeners[token] = nil
    }

    /// The socket watched with `token` reported its client's close: its listener hears it, once.
    func reported(_ token: UInt64) {
        guard let listener = listeners.removeValue(forKey: token) else { return }
        tokens[ObjectIdentifier(listener)] = nil
        listener.clientLeft()
    }
}
