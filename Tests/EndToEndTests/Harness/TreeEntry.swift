import Foundation

/// One entry of a `TemporaryTree`: text, raw bytes, or an (empty) folder.
enum TreeEntry: ExpressibleByStringLiteral, Sendable {
    case text(String)
    case bytes([UInt8])
    case folder

    init(stringLiteral value: String) {
        self = .text(value)
    }
}
