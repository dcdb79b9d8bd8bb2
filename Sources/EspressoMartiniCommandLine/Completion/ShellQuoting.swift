/// Quoting for the words the completion scripts embed (help texts, option names, value words).
public enum ShellQuoting {
    /// Single quotes for bash and zsh: `it's` → `'it'\''s'`.
    public static func posix(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// Single quotes for fish, where a backslash escapes `'` and `\` inside them.
    static func fish(_ text: String) -> String {
        "'" + text.map { $0 == "'" || $0 == "\\" ? "\\\($0)" : String($0) }.joined() + "'"
    }

    /// The words separated by spaces: `TRACE DEBUG INFO`.
    static func wordList(_ words: [String]) -> String { words.joined(separator: " ") }
}
