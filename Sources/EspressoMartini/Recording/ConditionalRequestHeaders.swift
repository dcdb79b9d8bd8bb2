/// The request headers that decide an answer by themselves (a `Range` answered `206`, an `If-None-Match`
/// answered `304`): the recorder makes them conditions of what it writes, without `--match-header`
/// (doc/recording.md).
public enum ConditionalRequestHeaders {
    /// As conditions spell them.
    public static let names = [
        "Range", "If-Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since",
    ]
}
