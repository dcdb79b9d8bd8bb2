import EspressoMartini
import Glibc

/// An HTTP/1.1 client of its own for a plain-HTTP target given by address (`http://127.0.0.1:9000`,
/// `http://[::1]:9000`, `http://localhost:3000`): a serving loop's thread sends each request and reads its
/// answer on kept-alive connections in the loop's epoll set, with one system call each way for a small answer.
/// libcurl costs several times as much per request (doc/performance.md); it stays for `https://` targets
/// and targets named by a host name, which it resolves and verifies.
///
/// Connections are edge-triggered in the set for reading and writing, added once and never changed: a
/// socket is read until a read comes back short (then every new byte raises an event again), written until
/// the socket is full (then room raises one). A kept-alive connection closed by the target is found on the
/// next request, which is then sent once more on a new connection if no byte of its body was taken.
/// The proxy's timeout (the forwarder's) bounds connecting as it bounds waiting for an answer.
final class PlainUpstreamClient: UpstreamClient, @unchecked Sendable {
    private struct Address {
        var storage = sockaddr_storage()
        var length: socklen_t = 0
    }

    private let addresses: [Address]
    /// `127.0.0.1 port 9000`, as failures name the target.
    private let place: String
    private let connectionsKept: Int
    private let poll: EventPoll
    private static let bufferSize = 64 << 10
    /// Where answers are read and bodies written, one at a time (allocated once the client is sure to be made).
    private let buffer: UnsafeMutableRawBufferPointer

    // On the loop's thread only.
    private var connections: [Int32: UpstreamConnection] = [:]
    private var idle: [UpstreamConnection] = []
    private var endedTransfers: [(transfer: any UpstreamTransfer, failure: TransferFailure?)] = []
    /// What `takeEnded` hands over, swapped with `endedTransfers` (neither allocates once it has grown).
    private var handingOver: [(transfer: any UpstreamTransfer, failure: TransferFailure?)] = []
    private var serial: UInt64 = 0

    /// Whether this client reaches `target`: a plain-HTTP URL whose host is an IP address or `localhost`.
    static func reaches(_ target: ProxyTarget) -> Bool {
        addresses(of: target) != nil
    }

    /// A client for `target` (one it `reaches`, else nil) whose connections are watched in `poll`.
    init?(target: ProxyTarget, connectionsKept: Int, poll: EventPoll) {
        guard let (host, port, addresses) = Self.addresses(of: target) else { return nil }
        self.addresses = addresses
        place = "\(host) port \(port)"
        self.connectionsKept = connectionsKept
        self.poll = poll
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        for connection in connections.values { close(connection.socket) }
        buffer.deallocate()
    }

    func makeTransfer() -> (any UpstreamTransfer)? {
        PlainUpstreamTransfer(client: self)
    }

    func add(_ transfer: any UpstreamTransfer) {
        let transfer = transfer as! PlainUpstreamTransfer
        transfer.prepareToSend()
        transfer.retried = false
        transfer.bodyTaken = false
        start(transfer)
    }

    func remove(_ transfer: any UpstreamTransfer) {
        let transfer = transfer as! PlainUpstreamTransfer
        if let connection = transfer.connection { discard(connection) }
        if !endedTransfers.isEmpty { endedTransfers.removeAll { $0.transfer === transfer } }
    }

    func runTimers() {}

    func takeEnded(_ body: (any UpstreamTransfer, TransferFailure?) -> Void) {
        guard !endedTransfers.isEmpty else { return }
        swap(&endedTransfers, &handingOver)
        for (transfer, failure) in handingOver { body(transfer, failure) }
        handingOver.removeAll(keepingCapacity: true)
    }

    func prepareWait(milliseconds: Int) -> Int {
        milliseconds
    }

    func ready(token: UInt64, events: UInt32) {
        guard let connection = connections[Int32(truncatingIfNeeded: token)], connection.token == token else { return }
        ready(connection, events: events)
    }

    /// The receiver takes bytes again, or has body bytes for the target.
    func unpause(_ transfer: PlainUpstreamTransfer) {
        guard let connection = transfer.connection else { return }
        if transfer.uploadWaits {
            transfer.uploadWaits = false
            send(connection)
        }
        if transfer.receivingPaused, transfer.connection === connection {
            transfer.receivingPaused = false
            let held = transfer.heldBack
            transfer.heldBack.removeAll()
            let goesOn = held.withUnsafeBytes { take($0, for: transfer) }
            // To the end: the target may have closed its side during the pause, an event not raised again.
            if goesOn { receive(connection, toTheEnd: true) }
        }
    }

    // MARK: Connections

    /// Sends `transfer` on a kept-alive connection, or a new one.
    private func start(_ transfer: PlainUpstreamTransfer) {
        if let connection = idle.popLast() {
            attach(transfer, to: connection)
            send(connection)
        } else {
            connect(transfer, from: 0, lastError: 0)
        }
    }

    private func attach(_ transfer: PlainUpstreamTransfer, to connection: UpstreamConnection) {
        connection.transfer = transfer
        transfer.connection = connection
        connection.unsent.removeAll(keepingCapacity: true)
    }

    /// Opens a connection for `transfer` to the target's addresses from `index` on.
    private func connect(_ transfer: PlainUpstreamTransfer, from index: Int, lastError: Int32) {
        var error = lastError
        for addressIndex in index..<addresses.count {
            var address = addresses[addressIndex]
            let socket = Glibc.socket(
                Int32(address.storage.ss_family),
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else {
                error = errno
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let result = withUnsafePointer(to: &address.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, address.length) }
            }
            guard result == 0 || errno == EINPROGRESS else {
                error = errno
                close(socket)
                continue
            }
            serial += 1
            let connection = UpstreamConnection(
                socket: socket, token: EventToken.upstream(serial << 32 | UInt64(UInt32(bitPattern: socket))),
                addressIndex: addressIndex, isConnecting: result != 0)
            guard
                poll.watch(
                    socket,
                    for: EventPoll.readable | EventPoll.writable | EventPoll.peerClosed | EventPoll.edgeTriggered,
                    token: connection.token)
            else {
                error = errno
                close(socket)
                continue
            }
            connections[socket] = connection
            attach(transfer, to: connection)
            if !connection.isConnecting { send(connection) }
            return
        }
        fail(transfer, "Failed to connect to \(place): \(Self.describe(error))")
    }

    /// What the epoll set says of `connection`.
    private func ready(_ connection: UpstreamConnection, events: UInt32) {
        guard let transfer = connection.transfer else {
            // A kept-alive connection the target closed (or wrote to unasked): of no use any more.
            if events & (EventPoll.readable | EventPoll.peerClosed | EventPoll.hungUp | EventPoll.failed) != 0 {
                idle.removeAll { $0 === connection }
                discard(connection)
            }
            return
        }
        if connection.isConnecting {
            guard events & (EventPoll.writable | EventPoll.failed | EventPoll.hungUp) != 0 else { return }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(connection.socket, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 {
                discard(connection)
                connect(transfer, from: connection.addressIndex + 1, lastError: error)
                return
            }
            connection.isConnecting = false
        }
        if events & EventPoll.writable != 0 { send(connection) }
        let ended = events & (EventPoll.peerClosed | EventPoll.hungUp | EventPoll.failed) != 0
        if transfer.connection === connection, ended || events & EventPoll.readable != 0 {
            receive(connection, toTheEnd: ended)
        }
    }

    /// Writes the head, then what is unsent, then the body as the client gives it, until the socket is full,
    /// the body waits for the client, or it is all sent.
    private func send(_ connection: UpstreamConnection) {
        guard let transfer = connection.transfer, !connection.isConnecting else { return }
        let head = transfer.text.written
        if transfer.headSent < head.count {
            let sent = Glibc.send(
                connection.socket, head.baseAddress! + transfer.headSent, head.count - transfer.headSent,
                Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                connectionBroke(connection, transfer, "Send failure: \(Self.describe(errno))")
                return
            }
            transfer.headSent += sent
            guard transfer.headSent == head.count else { return }
        }
        while true {
            if !connection.unsent.isEmpty {
                let sent = connection.unsent.withUnsafeBytes {
                    Glibc.send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 {
                    if errno == EAGAIN || errno == EINTR { return }
                    connectionBroke(connection, transfer, "Send failure: \(Self.describe(errno))")
                    return
                }
                guard sent == connection.unsent.count else {
                    connection.unsent.removeFirst(sent)
                    return
                }
                connection.unsent.removeAll(keepingCapacity: true)
            }
            guard transfer.uploading, !transfer.uploadWaits, let receiver = transfer.receiver else { return }
            // Room before the bytes for a chunk's size line, and after them for its CR LF.
            let chunked = transfer.request.body == .chunked
            let before = chunked ? 18 : 0
            let after = chunked ? 2 : 0
            switch receiver.transferUpload(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[before..<(buffer.count - after)]))
            {
            case .bytes(let count):
                transfer.bodyTaken = true
                guard count > 0 else { continue }
                var start = before
                if chunked {
                    let line = Array((String(count, radix: 16) + "\r\n").utf8)
                    start = before - line.count
                    line.withUnsafeBytes {
                        UnsafeMutableRawBufferPointer(rebasing: buffer[start..<before]).copyMemory(from: $0)
                    }
                    buffer[before + count] = 0x0D
                    buffer[before + count + 1] = 0x0A
                }
                connection.unsent.append(contentsOf: buffer[start..<(before + count + after)])
            case .end:
                transfer.uploading = false
                if chunked { connection.unsent.append(contentsOf: "0\r\n\r\n".utf8) }
            case .wait:
                transfer.uploadWaits = true
                return
            case .abort:
                fail(transfer, "the client's body for the target was cut short")
                return
            }
        }
    }

    /// Reads the answer as far as the socket has it: until a read comes back short, or with `toTheEnd`
    /// (the target closed its side, which raises no event again) until the socket has no more or ends.
    private func receive(_ connection: UpstreamConnection, toTheEnd: Bool = false) {
        while let transfer = connection.transfer, !transfer.receivingPaused {
            let count = recv(connection.socket, buffer.baseAddress, buffer.count, 0)
            if count > 0 {
                guard take(UnsafeRawBufferPointer(rebasing: buffer[..<count]), for: transfer),
                    count == buffer.count || toTheEnd
                else { return }
            } else if count == 0 {
                if let problem = transfer.reader.finish() {
                    connectionBroke(connection, transfer, problem)
                } else {
                    complete(transfer, keepingConnection: false)
                }
                return
            } else {
                if errno == EAGAIN || errno == EINTR { return }
                connectionBroke(connection, transfer, "Recv failure: \(Self.describe(errno))")
                return
            }
        }
    }

    /// Hands bytes of the answer to the transfer's receiver; whether more are wanted.
    private func take(_ bytes: UnsafeRawBufferPointer, for transfer: PlainUpstreamTransfer) -> Bool {
        guard let receiver = transfer.receiver else {
            fail(transfer, "the transfer has no receiver")
            return false
        }
        let progress = transfer.reader.read(
            bytes, head: { receiver.transferHead($0) }, body: { receiver.transferBody($0) })
        switch progress {
        case .needsMore:
            return true
        case .paused:
            transfer.receivingPaused = true
            transfer.heldBack.append(contentsOf: bytes[transfer.reader.consumed...])
            return false
        case .complete:
            complete(transfer, keepingConnection: transfer.reader.consumed == bytes.count)
            return false
        case .malformed(let problem):
            fail(transfer, "the target's answer is malformed: \(problem)")
            return false
        }
    }

    /// The answer is whole: the connection is kept for the next request when it can carry one.
    private func complete(_ transfer: PlainUpstreamTransfer, keepingConnection: Bool) {
        guard let connection = transfer.connection else { return }
        transfer.connection = nil
        connection.transfer = nil
        if keepingConnection, transfer.reader.keepsAlive, !transfer.uploading, transfer.headSent == transfer.text.count,
            connection.unsent.isEmpty,
            idle.count < connectionsKept
        {
            connection.wasUsed = true
            idle.append(connection)
        } else {
            discard(connection)
        }
        endedTransfers.append((transfer, nil))
    }

    /// The connection failed under `transfer`: sent again on a new one when it was a kept-alive connection
    /// the target had closed before answering, and nothing is lost by sending it again.
    private func connectionBroke(_ connection: UpstreamConnection, _ transfer: PlainUpstreamTransfer, _ problem: String)
    {
        if connection.wasUsed, !transfer.reader.hasStarted, !transfer.bodyTaken, !transfer.retried {
            discard(connection)
            transfer.retried = true
            transfer.prepareToSend()
            connect(transfer, from: 0, lastError: 0)
            return
        }
        fail(transfer, problem)
    }

    private func fail(_ transfer: PlainUpstreamTransfer, _ reason: String) {
        if let connection = transfer.connection { discard(connection) }
        endedTransfers.append((transfer, TransferFailure(timedOut: false, reason: reason)))
    }

    /// Closes `connection` (which takes it out of the epoll set) and forgets it.
    private func discard(_ connection: UpstreamConnection) {
        if let transfer = connection.transfer, transfer.connection === connection { transfer.connection = nil }
        connection.transfer = nil
        if connections[connection.socket] === connection {
            connections[connection.socket] = nil
            close(connection.socket)
        }
    }

    // MARK: The target's address

    /// The host, port and addresses of a plain-HTTP target given by an IP address or `localhost`.
    private static func addresses(of target: ProxyTarget) -> (String, Int, [Address])? {
        guard !target.isHTTPS, let (host, port) = hostAndPort(target.authority),
            let addresses = resolve(host, port: port), !addresses.isEmpty
        else { return nil }
        return (host, port, addresses)
    }

    /// `127.0.0.1:9000` → ("127.0.0.1", 9000); `[::1]` → ("::1", 80).
    private static func hostAndPort(_ authority: String) -> (String, Int)? {
        var host = Substring(authority)
        var port = 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) ?? 0 }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":") {
            port = Int(host[host.index(after: colon)...]) ?? 0
            host = host[..<colon]
        }
        guard (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// The addresses of an IP address or `localhost`; nil for any other host name (left to libcurl).
    private static func resolve(_ host: String, port: Int) -> [Address]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        if host.lowercased() != "localhost" { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var node: UnsafeMutablePointer<addrinfo>? = list
        while let current = node {
            if let socketAddress = current.pointee.ai_addr,
                Int(current.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
            {
                var address = Address()
                address.length = current.pointee.ai_addrlen
                withUnsafeMutableBytes(of: &address.storage) {
                    $0.copyMemory(
                        from: UnsafeRawBufferPointer(start: socketAddress, count: Int(current.pointee.ai_addrlen)))
                }
                addresses.append(address)
            }
            node = current.pointee.ai_next
        }
        return addresses
    }

    private static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
