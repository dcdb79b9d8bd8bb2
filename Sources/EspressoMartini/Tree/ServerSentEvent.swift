/// One Server-Sent Event as it goes on the wire (the `text/event-stream` format): a comment, `event:`,
/// `id:`, `retry:`, then the data one `data:` line per line of it, and a blank line that dispatches it.
/// Values are bytes already rendered; a line break in a one-line field (an event name, an id, from a
/// template) becomes a space, so nothing from a request can start a field of its own.
struct ServerSentEvent {
    var comment: [UInt8]?
    var event: [UInt8]?
    var id: [UInt8]?
    /// Milliseconds before a client reconnects.
    var retry: Int?
    var data: [UInt8]?

    func framed() -> [UInt8] {
        var output: [UInt8] = []
        if let comment { Self.appendLines(of: comment, prefix: ":", to: &output) }
        if let event { Self.appendField("event", event, to: &output) }
        if let id { Self.appendField("id", id, to: &output) }
        if let retry { Self.appendField("retry", Array(String(retry).utf8), to: &output) }
        if let data { Self.appendLines(of: data, prefix: "data:", to: &output) }
        output.append(Self.lineFeed)
        return output
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    private static func appendField(_ name: StaticString, _ value: [UInt8], to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(UInt8(ascii: ":"))
        if !value.isEmpty { output.append(UInt8(ascii: " ")) }
        output.append(
            contentsOf: value.map { $0 == lineFeed || $0 == carriageReturn || $0 == 0 ? UInt8(ascii: " ") : $0 })
        output.append(lineFeed)
    }

    /// `prefix value` for each line of `text`, lines ending at CR LF, LF or CR as the format reads them.
    private static func appendLines(of text: [UInt8], prefix: StaticString, to output: inout [UInt8]) {
        var start = 0, index = 0
        func line(_ range: Range<Int>) {
            output.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
            if !range.isEmpty { output.append(UInt8(ascii: " ")) }
            output.append(contentsOf: text[range])
            output.append(lineFeed)
        }
        while index < text.count {
            let byte = text[index]
            if byte == lineFeed || byte == carriageReturn {
                line(start..<index)
                if byte == carriageReturn, index + 1 < text.count, text[index + 1] == lineFeed { index += 1 }
                start = index + 1
            }
            index += 1
        }
        line(start..<text.count)
    }
}
