/// One path segment of an exchange to write: a literal segment, written so that it matches only itself
/// (`FolderNameEscapes`), or a named parameter, written `{name}`.
public enum SegmentDraft: Sendable, Hashable {
    case literal(String)
    case parameter(String)
}
