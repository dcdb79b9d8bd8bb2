/// A `JSONSourceMap` built on first use: positions are only needed when something is wrong, and
/// scanning every file of a large tree for nothing would slow every load.
final class LazyJSONSourceMap: JSONPositions {
    let bytes: [UInt8]
    /// Where the document read lies in `bytes`: a runtime exchange's configuration is one member of the
    /// body posted, and its positions are the body's.
    private let prefix: [String]
    private lazy var map = JSONSourceMap(bytes)

    init(_ bytes: [UInt8], prefix: [String] = []) {
        self.bytes = bytes
        self.prefix = prefix
    }

    func value(_ path: [String]) -> SourcePosition { map.value(prefix + path) }
    func key(_ path: [String]) -> SourcePosition { map.key(prefix + path) }
    func position(_ target: SourcePosition, inStringAt path: [String]) -> SourcePosition {
        JSONStringPosition.locate(target, inStringAt: value(path), in: bytes)
    }
}
