/// A request's URL and header lines as libcurl reads them, each ending in a zero byte, in one buffer that a
/// transfer keeps and refills (nothing is allocated per request once it is large enough): the URL first,
/// then `Name: value` lines (`Name;` for an empty value; `Name:` removes a header libcurl would add).
final class UpstreamRequestText {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity = 1024
    private(set) var count = 0
    /// Where each header line starts in `bytes`; the URL starts at 0.
    private(set) var lineStarts: [Int] = []

    init() {
        bytes = .allocate(capacity: capacity)
        lineStarts.reserveCapacity(32)
    }

    deinit { bytes.deallocate() }

    /// Empties it for the next request, keeping its room.
    func removeAll() {
        count = 0
        lineStarts.removeAll(keepingCapacity: true)
    }

    func append(_ source: UnsafeRawBufferPointer) {
        reserve(source.count)
        if let base = source.baseAddress { (bytes + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: source.count) }
        count += source.count
    }

    func append(_ source: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(source))
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func append(byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    /// Appends `source` outside any line (before the next `startLine`), to be copied into a later line with
    /// `appendCopy`; returns where it lies.
    func keep(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = count
        append(source)
        return start..<count
    }

    /// Appends a copy of the bytes at `range` (given by `keep`).
    func appendCopy(_ range: Range<Int>) {
        reserve(range.count)
        (bytes + count).update(from: bytes + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Starts a header line (the URL must be complete).
    func startLine() {
        lineStarts.append(count)
    }

    /// Ends the URL or the current header line.
    func endLine() {
        append(byte: 0)
    }

    /// Forgets the header lines for which `drop` (given each line's bytes, without its zero) says so.
    func removeLines(where drop: (UnsafeBufferPointer<UInt8>) -> Bool) {
        lineStarts.removeAll { start in
            var end = start
            while bytes[end] != 0 { end += 1 }
            return drop(UnsafeBufferPointer(start: bytes + start, count: end - start))
        }
    }

    private func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        while count + more > capacity { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = grown
    }
}
