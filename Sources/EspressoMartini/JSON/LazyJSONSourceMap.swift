/// A `JSONSourceMap` built on first use: positions are only needed when something is wrong, and
/// scanning every file of a large tree for nothing would slow every load.
final class LazyJSONSourceMap: JSONPositions {
    let bytes: [UInt8]
    private lazy var map = JSONSourceMap(bytes)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func value(_ path: [String]) -> SourcePosition { map.value(path) }
    func key(_ path: [String]) -> SourcePosition { map.key(path) }
}
