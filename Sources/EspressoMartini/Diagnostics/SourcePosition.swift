/// A place in a text file, both counted from 1.
public struct SourcePosition: Sendable, Hashable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = max(line, 1)
        self.column = max(column, 1)
    }
}
