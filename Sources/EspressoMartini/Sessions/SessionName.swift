/// What a request's session header says: no session (no header, or an empty value), a session's name,
/// or a value no session can be named (answered `400`).
public enum SessionName: Equatable, Sendable {
    case none
    case named(String)
    case refused(String)

    /// Why a request whose `header` says `reason` names no session, as its `400` says.
    public static func refusal(_ reason: String, header: String) -> String {
        "the \(header) header cannot name a session: \(reason)"
    }

    /// Names longer than this are refused: a session's name is kept while it lives.
    public static let lengthLimit = 256

    /// Reads the header's value bytes: spaces and tabs around it are dropped; control bytes, invalid
    /// UTF-8 or more than `lengthLimit` bytes are refused with the reason.
    public init(headerValue bytes: UnsafeBufferPointer<UInt8>) {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        let value = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if value.isEmpty {
            self = .none
        } else if value.count > Self.lengthLimit {
            self = .refused("the session name is \(value.count) bytes long; use at most \(Self.lengthLimit)")
        } else if value.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            self = .refused("the session name has control characters; use printable text")
        } else if let name = String(validating: value, as: UTF8.self) {
            self = .named(name)
        } else {
            self = .refused("the session name is not valid UTF-8")
        }
    }
}
