import Glibc

/// How wide the help page may be: `COLUMNS`, else the terminal's width, else 80 (a pipe, a file).
public enum TerminalWidth {
    public static let fallback = 80

    public static var current: Int {
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return fallback
    }
}
