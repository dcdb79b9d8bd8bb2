/// Reads a template in one pass, building `MustacheTemplate`'s nodes. Tags are found with the
/// delimiters in force; a section, inverted section, closing, comment or delimiter tag alone on its
/// line (only spaces or tabs beside it) takes the whole line with it, line break included.
struct MustacheParser {
    private struct OpenSection {
        let nodeIndex: Int
        let name: String
        let tagStart: Int
    }

    private enum TagKind {
        case variable(escaped: Bool)
        case section(inverted: Bool)
        case closing
        case comment
        case delimiters
    }

    private let bytes: [UInt8]
    private let origin: SourcePosition
    private var openDelimiter: [UInt8] = Array("{{".utf8)
    private var closeDelimiter: [UInt8] = Array("}}".utf8)
    /// Where the text not yet copied into a node starts.
    private var position = 0
    private var nodes: [MustacheNode] = []
    private var names: [MustacheName] = []
    private var text: [UInt8] = []
    private var openSections: [OpenSection] = []
    /// The last node, when it is text that more text may join: no tag but a comment or a delimiter
    /// change stands between them.
    private var joinableTextNode: Int?

    init(bytes: [UInt8], origin: SourcePosition) {
        self.bytes = bytes
        self.origin = origin
    }

    mutating func parse() throws(MustacheSyntaxError) -> MustacheTemplate {
        while let tagStart = find(openDelimiter, from: position) {
            try readTag(at: tagStart)
        }
        appendText(upTo: bytes.count)
        if let section = openSections.last {
            throw error(
                at: section.tagStart,
                "section `\(section.name)` is never closed: add \(spelled("/" + section.name)) after its content")
        }
        return MustacheTemplate(nodes: nodes, names: names, text: text)
    }

    private mutating func readTag(at tagStart: Int) throws(MustacheSyntaxError) {
        let contentStart = tagStart + openDelimiter.count
        let sigil = contentStart < bytes.count ? bytes[contentStart] : nil
        let kind: TagKind
        let content: Range<Int>
        let tagEnd: Int
        switch sigil {
        case UInt8(ascii: "{"), UInt8(ascii: "="):
            let ending = [sigil == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "=")] + closeDelimiter
            guard let end = find(ending, from: contentStart + 1) else {
                throw error(
                    at: tagStart, "this tag is never closed: end it with `\(String(decoding: ending, as: UTF8.self))`")
            }
            kind = sigil == UInt8(ascii: "=") ? .delimiters : .variable(escaped: false)
            content = contentStart + 1..<end
            tagEnd = end + ending.count
        default:
            guard let end = find(closeDelimiter, from: contentStart) else {
                throw error(
                    at: tagStart,
                    "this tag is never closed: end it with `\(String(decoding: closeDelimiter, as: UTF8.self))`")
            }
            tagEnd = end + closeDelimiter.count
            switch sigil {
            case UInt8(ascii: "#"): kind = .section(inverted: false)
            case UInt8(ascii: "^"): kind = .section(inverted: true)
            case UInt8(ascii: "/"): kind = .closing
            case UInt8(ascii: "!"): kind = .comment
            case UInt8(ascii: "&"): kind = .variable(escaped: false)
            case UInt8(ascii: ">"):
                throw error(
                    at: tagStart, "partials (\(spelled("> name"))) are not supported: write the text into this template"
                )
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error(
                    at: tagStart,
                    "template inheritance (\(spelled("< name")) and \(spelled("$ name"))) is not supported: write the text into this template"
                )
            default:
                kind = .variable(escaped: true)
            }
            let hasSigil = if case .variable(escaped: true) = kind { false } else { true }
            content = (hasSigil ? contentStart + 1 : contentStart)..<end
        }

        if case .variable = kind {
            appendText(upTo: tagStart)
            position = tagEnd
        } else if let line = standaloneLine(tagStart: tagStart, tagEnd: tagEnd) {
            appendText(upTo: line.lowerBound)
            position = line.upperBound
        } else {
            appendText(upTo: tagStart)
            position = tagEnd
        }

        switch kind {
        case .variable(let escaped):
            joinableTextNode = nil
            names.append(try name(in: content, tagStart: tagStart))
            nodes.append(.variable(name: names.count - 1, escaped: escaped))
        case .section(let inverted):
            let name = try name(in: content, tagStart: tagStart)
            openSections.append(OpenSection(nodeIndex: nodes.count, name: spelling(of: name), tagStart: tagStart))
            joinableTextNode = nil
            names.append(name)
            nodes.append(.section(name: names.count - 1, inverted: inverted, end: nodes.count + 1))
        case .closing:
            try closeSection(named: spelling(of: name(in: content, tagStart: tagStart)), tagStart: tagStart)
        case .comment:
            break
        case .delimiters:
            try changeDelimiters(to: content, tagStart: tagStart)
        }
    }

    private mutating func closeSection(named name: String, tagStart: Int) throws(MustacheSyntaxError) {
        guard let section = openSections.popLast() else {
            throw error(
                at: tagStart,
                "\(spelled("/" + name)) closes no open section: remove it, or open the section before with \(spelled("#" + name))"
            )
        }
        guard section.name == name else {
            let opened = place(of: section.tagStart)
            throw error(
                at: tagStart,
                "\(spelled("/" + name)) does not close the open section `\(section.name)` (line \(opened.line), column \(opened.column)): close it first with \(spelled("/" + section.name))"
            )
        }
        guard case .section(let openName, let inverted, _) = nodes[section.nodeIndex] else { return }
        nodes[section.nodeIndex] = .section(name: openName, inverted: inverted, end: nodes.count)
        joinableTextNode = nil
    }

    /// `{{=OPEN CLOSE=}}`: two delimiters, separated by whitespace, without whitespace or `=` in them.
    private mutating func changeDelimiters(to content: Range<Int>, tagStart: Int) throws(MustacheSyntaxError) {
        let parts = bytes[content].split(whereSeparator: Self.isWhitespace)
        guard parts.count == 2, parts.allSatisfy({ !$0.contains(UInt8(ascii: "=")) }) else {
            throw error(
                at: tagStart,
                "a delimiter change is written \(spelled("=OPEN CLOSE=")) with two delimiters that have no spaces or `=` in them, such as \(spelled("=<% %>=")); this one is \(spelled("=" + String(decoding: bytes[content], as: UTF8.self) + "="))"
            )
        }
        openDelimiter = Array(parts[0])
        closeDelimiter = Array(parts[1])
    }

    /// A tag's name: trimmed, without inner whitespace, `.` or dot-separated non-empty segments.
    private func name(in content: Range<Int>, tagStart: Int) throws(MustacheSyntaxError) -> MustacheName {
        var trimmed = bytes[content]
        while let first = trimmed.first, Self.isWhitespace(first) { trimmed.removeFirst() }
        while let last = trimmed.last, Self.isWhitespace(last) { trimmed.removeLast() }
        guard !trimmed.isEmpty else {
            throw error(
                at: tagStart,
                "this tag has no name: write one between the delimiters, such as \(spelled("request.path"))")
        }
        if find(openDelimiter, in: trimmed) {
            throw error(
                at: tagStart,
                "this tag is never closed: end it with `\(String(decoding: closeDelimiter, as: UTF8.self))` before the next tag"
            )
        }
        let text = String(decoding: trimmed, as: UTF8.self)
        if text == "." { return MustacheName(segments: []) }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !trimmed.contains(where: Self.isWhitespace), !segments.contains(where: \.isEmpty) else {
            throw error(
                at: tagStart,
                "`\(text)` is not a name: a name has no spaces and no empty part between dots, such as `request.pathParameters.id`, or is `.` alone"
            )
        }
        return MustacheName(segments: segments)
    }

    private func spelling(of name: MustacheName) -> String {
        name.isImplicitIterator ? "." : name.segments.joined(separator: ".")
    }

    /// The bytes a standalone tag removes: from the start of its line to after its line break (or
    /// the end of the template), when nothing but spaces and tabs stand beside it on its line.
    private func standaloneLine(tagStart: Int, tagEnd: Int) -> Range<Int>? {
        var lineStart = tagStart
        while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t") {
            lineStart -= 1
        }
        guard lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n") else { return nil }
        var lineEnd = tagEnd
        while lineEnd < bytes.count, bytes[lineEnd] == UInt8(ascii: " ") || bytes[lineEnd] == UInt8(ascii: "\t") {
            lineEnd += 1
        }
        if lineEnd == bytes.count { return max(lineStart, position)..<lineEnd }
        if bytes[lineEnd] == UInt8(ascii: "\n") { return max(lineStart, position)..<lineEnd + 1 }
        if bytes[lineEnd] == UInt8(ascii: "\r"), lineEnd + 1 < bytes.count, bytes[lineEnd + 1] == UInt8(ascii: "\n") {
            return max(lineStart, position)..<lineEnd + 2
        }
        return nil
    }

    /// Copies the pending text before `end` into a text node, joining it to a text node just before.
    private mutating func appendText(upTo end: Int) {
        guard end > position else { return }
        let start = text.count
        text.append(contentsOf: bytes[position..<end])
        if let joinable = joinableTextNode, case .text(let previous) = nodes[joinable] {
            nodes[joinable] = .text(previous.lowerBound..<text.count)
        } else {
            joinableTextNode = nodes.count
            nodes.append(.text(start..<text.count))
        }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    private func find(_ needle: [UInt8], in slice: ArraySlice<UInt8>) -> Bool {
        slice.indices.contains { slice[$0...].starts(with: needle) }
    }

    /// A tag as written with the delimiters in force, in backquotes: `{{#name}}`.
    private func spelled(_ inner: String) -> String {
        "`" + String(decoding: openDelimiter, as: UTF8.self) + inner + String(decoding: closeDelimiter, as: UTF8.self)
            + "`"
    }

    private func error(at offset: Int, _ message: String) -> MustacheSyntaxError {
        MustacheSyntaxError(position: place(of: offset), message: message)
    }

    /// The line and column of a byte offset, columns counting characters (not UTF-8 continuation
    /// bytes), shifted by the origin.
    private func place(of offset: Int) -> SourcePosition {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return line == 1
            ? SourcePosition(line: origin.line, column: origin.column + column - 1)
            : SourcePosition(line: origin.line + line - 1, column: column)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }
}
