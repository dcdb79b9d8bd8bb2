import Glibc

/// One answer read as it arrives, on a connection of its own: the status and headers, then each HTTP
/// chunk (`Transfer-Encoding: chunked`) with the time it was complete, or the body of a
/// `Content-Length` answer as it comes.
final class StreamingResponse: @unchecked Sendable {
    fileprivate(set) var statusCode = 0
    fileprivate(set) var headers: [(name: String, value: String)] = []
    /// When the header block was complete, from the request's sending.
    fileprivate(set) var headersAt: Duration?
    /// Each chunk's bytes and when it was complete, from the request's sending.
    fileprivate(set) var chunks: [(bytes: [UInt8], at: Duration)] = []
    /// The body of an answer with a `Content-Length`, and when its last byte came.
    fileprivate(set) var body: [UInt8] = []
    fileprivate(set) var bodyCompleteAt: Duration?
    /// The chunked body's last chunk (size 0) came: the answer is complete.
    fileprivate(set) var ended = false
    /// The server closed the connection.
    fileprivate(set) var closed = false

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The chunks' bytes as one text.
    var text: String { String(decoding: chunks.flatMap(\.bytes), as: UTF8.self) }

    /// Bytes received and not parsed yet.
    fileprivate(set) var buffer: [UInt8] = []
    fileprivate var contentLength: Int?
}

/// Many answers read at once on one thread (`poll`), each on a connection of its own, so that a test can
/// open hundreds of streams without a thread each and see when each chunk arrives. Every wait is bounded.
final class StreamingClients: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var descriptors: [Int32] = []
    private var sentAt: [ContinuousClock.Instant] = []
    let responses: [StreamingResponse]

    /// Opens `count` connections to 127.0.0.1:`port` and sends each `GET target` (HTTP/1.1, kept alive)
    /// with `headers`; `method` may be `HEAD`.
    init(port: Int, target: String, count: Int = 1, method: String = "GET", headers: [(String, String)] = []) throws {
        responses = (0..<count).map { _ in StreamingResponse() }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                close(); throw Failure(description: "socket: \(String(cString: strerror(errno)))")
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            descriptors.append(descriptor)
            guard connected == 0 else {
                close(); throw Failure(description: "connect: \(String(cString: strerror(errno)))")
            }
        }
        for descriptor in descriptors {
            sentAt.append(.now)
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == bytes.count else {
                close(); throw Failure(description: "send: \(String(cString: strerror(errno)))")
            }
        }
    }

    deinit { close() }

    /// Closes every connection still open (the client leaves).
    func close() {
        for descriptor in descriptors where descriptor >= 0 { Glibc.close(descriptor) }
        descriptors = descriptors.map { _ in -1 }
    }

    /// Closes the connection of answer `index`.
    func close(_ index: Int) {
        if descriptors[index] >= 0 { Glibc.close(descriptors[index]) }
        descriptors[index] = -1
    }

    /// Reads whatever arrives until `done` holds for every answer still read (or it is closed), or until
    /// `timeout`; returns whether every answer got there.
    @discardableResult
    func read(timeout: Duration, until done: (StreamingResponse) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let waiting = descriptors.indices.filter {
                descriptors[$0] >= 0 && !responses[$0].closed && !done(responses[$0])
            }
            if waiting.isEmpty { return responses.indices.allSatisfy { descriptors[$0] < 0 || done(responses[$0]) } }
            let left = deadline - .now
            if left <= .zero { return false }
            var polled = waiting.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(
                min(100, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
            guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { continue }
            for (slot, index) in waiting.enumerated() where polled[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes {
                    recv(descriptors[index], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    responses[index].buffer += chunk[..<count]
                    parse(responses[index], at: ContinuousClock.now - sentAt[index])
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    responses[index].closed = true
                }
            }
        }
    }

    private func parse(_ response: StreamingResponse, at time: Duration) {
        if response.headersAt == nil {
            guard let end = response.buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let lines = String(decoding: response.buffer[..<end.lowerBound], as: UTF8.self).components(
                separatedBy: "\r\n")
            response.statusCode =
                lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
            response.headers = lines.dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
            }
            response.headersAt = time
            response.buffer.removeSubrange(..<end.upperBound)
            response.contentLength = response.header("Content-Length").flatMap { Int($0) }
            if response.header("Transfer-Encoding") == nil && response.contentLength == nil {
                response.contentLength = 0
            }
        }
        if let length = response.contentLength {
            response.body += response.buffer
            response.buffer = []
            if response.body.count >= length, response.bodyCompleteAt == nil { response.bodyCompleteAt = time }
            return
        }
        // Chunked: SIZE CRLF DATA CRLF, a size of 0 ends it.
        while !response.ended, let lineEnd = response.buffer.firstRange(of: Array("\r\n".utf8)) {
            let sizeText =
                String(decoding: response.buffer[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first
                ?? ""
            guard let size = Int(sizeText, radix: 16) else { response.closed = true; return }
            let start = lineEnd.upperBound
            guard response.buffer.count >= start + size + 2 else { return }
            if size == 0 {
                response.ended = true
            } else {
                response.chunks.append((Array(response.buffer[start..<start + size]), time))
            }
            response.buffer.removeSubrange(..<(start + size + 2))
        }
    }
}
