/// What a `multipart` condition asks of the parts of one name (doc/variants.md "Multipart forms"): their
/// content as text (`"NAME": MATCHER`, like a form field), or a part whose file name, type and content all
/// hold (`"NAME": {"filename": "a.png", "body_base64": "…"}`).
public enum PartMatcher: Sendable {
    /// Some part's content, read as text, satisfies the matcher; `{"present": false}`: no part has the name.
    case content(Matcher)
    /// Some part satisfies every matcher given.
    case part(Fields)

    /// The keys of a part object, each optional, at least one given.
    public struct Fields: Sendable {
        /// On the part's `filename` (missing for a plain field).
        public var filename: Matcher?
        /// On the part's own `Content-Type` as sent (missing when it has none).
        public var contentType: Matcher?
        /// On the content read as text.
        public var body: Matcher?
        /// On the content's bytes.
        public var bodyBytes: ByteMatcher?

        public init(
            filename: Matcher? = nil, contentType: Matcher? = nil, body: Matcher? = nil, bodyBytes: ByteMatcher? = nil
        ) {
            self.filename = filename
            self.contentType = contentType
            self.body = body
            self.bodyBytes = bodyBytes
        }

        /// Builds no message: the per-request path.
        func holds(for part: MultipartForm.Part) -> Bool {
            (filename?.holds(for: part.filename.map { [$0] } ?? []) ?? true)
                && (contentType?.holds(for: part.contentType.map { [$0] } ?? []) ?? true)
                && (body?.holds(for: [part.text]) ?? true) && (bodyBytes?.holds(for: part.content) ?? true)
        }

        /// The first of the part's keys that fails, in the order `filename`, `content_type`, `body`,
        /// `body_base64`.
        func mismatch(for part: MultipartForm.Part, subject: String) -> String? {
            if let filename,
                let mismatch = filename.mismatch(for: part.filename.map { [$0] } ?? [], subject: subject + " filename")
            {
                return mismatch
            }
            if let contentType,
                let mismatch = contentType.mismatch(
                    for: part.contentType.map { [$0] } ?? [], subject: subject + " content_type")
            {
                return mismatch
            }
            if let body, let mismatch = body.mismatch(for: [part.text], subject: subject + " body") { return mismatch }
            return bodyBytes?.mismatch(for: part.content, subject: subject + " body_base64")
        }

        var summary: String {
            var words: [String] = []
            if let filename { words.append("filename" + filename.summary) }
            if let contentType { words.append("content_type" + contentType.summary) }
            if let body { words.append("body" + body.summary) }
            if let bodyBytes { words.append("body_base64" + bodyBytes.summary) }
            return words.joined(separator: " ")
        }
    }

    /// Whether `parts`, those of one name, satisfy the matcher.
    public func holds(for parts: [MultipartForm.Part]) -> Bool {
        switch self {
        case .content(let matcher): matcher.holds(for: parts.map(\.text))
        case .part(let fields): parts.contains { fields.holds(for: $0) }
        }
    }

    /// Nil when `parts` satisfy the matcher; else what the first part had against what was expected
    /// (`multipart "photo" filename is "b.png", expected "a.png"`). `subject` names the parts
    /// (`multipart "photo"`).
    public func mismatch(for parts: [MultipartForm.Part], subject: String) -> String? {
        switch self {
        case .content(let matcher):
            return matcher.mismatch(for: parts.map(\.text), subject: subject)
        case .part(let fields):
            guard !parts.contains(where: fields.holds) else { return nil }
            guard let first = parts.first else { return "\(subject) is missing" }
            return fields.mismatch(for: first, subject: subject)
        }
    }

    /// The short form in listings, after the name: `=text`, ` filename=a.png body_base64=iVBORw==`.
    public var summary: String {
        switch self {
        case .content(let matcher): matcher.summary
        case .part(let fields): " " + fields.summary
        }
    }
}
