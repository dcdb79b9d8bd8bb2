/// One TCP connection of `PlainUpstreamClient` to the target: carrying one transfer at a time, or kept alive
/// for the next one. On its client's loop only.
final class UpstreamConnection {
    let socket: Int32
    /// What its epoll events carry: its socket and a serial number, so that an event for a closed socket
    /// is not taken for a new one of the same number.
    let token: UInt64
    /// Which of the target's addresses it connects to.
    let addressIndex: Int
    var isConnecting: Bool
    /// It carried an answer before: the target may have closed it meanwhile.
    var wasUsed = false
    var transfer: PlainUpstreamTransfer?
    /// Bytes sent only in part, the rest waiting for room in the socket.
    var unsent: [UInt8] = []

    init(socket: Int32, token: UInt64, addressIndex: Int, isConnecting: Bool) {
        self.socket = socket
        self.token = token
        self.addressIndex = addressIndex
        self.isConnecting = isConnecting
    }
}
