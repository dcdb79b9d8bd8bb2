/// How requests and answers are written into the tree (`record`'s flags, doc/recording.md).
public struct RecordingOptions: Sendable, Equatable {
    /// What an identical request seen again does.
    public enum Repeats: String, Sendable, CaseIterable {
        /// Its answer is appended to the variant's sequence (unless it is the same as the last one).
        case sequence
        /// The first answer is kept; later ones are not written.
        case first
    }

    /// Request headers that become conditions (`equals`), in the order given; a credential header named here
    /// is also written where it is a response header (`Set-Cookie`).
    public var matchHeaders: [String] = []
    public var repeats = Repeats.sequence
    /// Response headers whose values are written as `REDACTED` (a `Set-Cookie` as `NAME=REDACTED` and its
    /// attributes).
    public var redactedHeaders: [String] = []
    /// Response headers written as they are, credential ones (`Set-Cookie`) included, unless also redacted.
    public var keptHeaders: [String] = []
    /// The proxy's target, whose URL in an answer's headers is written as the mock's (`TargetURLRewrite`).
    public var targetURL: TargetURLRewrite?
    /// The mock's scheme, `http` or `https`.
    public var mockScheme = "http"

    public init(
        matchHeaders: [String] = [], repeats: Repeats = .sequence, redactedHeaders: [String] = [],
        keptHeaders: [String] = []
    ) {
        self.matchHeaders = matchHeaders
        self.repeats = repeats
        self.redactedHeaders = redactedHeaders
        self.keptHeaders = keptHeaders
    }
}
