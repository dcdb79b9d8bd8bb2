import Foundation

/// A parsed HTTP/1.1 response, as received byte for byte: repeated header names are kept in order,
/// `body` is every byte the server sent after the header block (the connection is read to its end).
struct HTTPResponse: Sendable {
    let statusCode: Int
    let reason: String
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// Parses `raw`, the whole byte stream of a `Connection: close` exchange.
    init(raw: [UInt8]) throws {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = raw.firstRange(of: separator) else {
            throw HTTPClientError(
                .malformed,
                "no complete header block in \(raw.count) bytes: \(String(decoding: raw.prefix(200), as: UTF8.self))")
        }
        // Lines split on the bytes, in one pass (Foundation's string search is slow under the sanitizers).
        var lines = raw[..<end.lowerBound].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw HTTPClientError(.malformed, "bad status line '\(statusLine)'")
        }
        statusCode = code
        reason = parts.count > 2 ? String(parts[2]) : ""
        headers = try lines.map { line in
            guard let colon = line.firstIndex(of: ":") else {
                throw HTTPClientError(.malformed, "bad header line '\(line)'")
            }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = Array(raw[end.upperBound...])
    }

    private init(statusCode: Int, reason: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.statusCode = statusCode
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Splits the bytes of several responses sent on one kept-alive connection, each delimited by its
    /// `Content-Length` (absent: no body). `bodiless` lists the indexes answering HEAD requests.
    static func sequence(from raw: [UInt8], bodiless: Set<Int> = []) throws -> [HTTPResponse] {
        var responses: [HTTPResponse] = []
        var rest = raw[...]
        while !rest.isEmpty {
            let head = try HTTPResponse(raw: Array(rest))
            let headLength = rest.count - head.body.count
            let length = bodiless.contains(responses.count) ? 0 : head.contentLength ?? 0
            guard head.body.count >= length else {
                throw HTTPClientError(
                    .malformed,
                    "response \(responses.count + 1) is cut short: \(head.body.count) of \(length) body bytes")
            }
            responses.append(
                HTTPResponse(
                    statusCode: head.statusCode, reason: head.reason, headers: head.headers,
                    body: Array(head.body.prefix(length))))
            rest = rest.dropFirst(headLength + length)
        }
        return responses
    }

    /// The first value of a header, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of a header, in order, by case-insensitive name.
    func headers(named name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    var contentLength: Int? { header("Content-Length").flatMap { Int($0) } }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (fragments allowed).
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    }
}
