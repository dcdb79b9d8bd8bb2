import EspressoMartini
import Glibc

/// Decodes a body from one content coding, piece by piece.
protocol ContentDecoder: AnyObject {
    /// Decodes `input` (the next encoded bytes), handing the decoded bytes to `output` as they come; false
    /// when they do not decode (or `output` refuses them).
    func decode(_ input: UnsafeRawBufferPointer, into output: (UnsafeRawBufferPointer) -> Bool) -> Bool
    /// Whether the encoded data ended where it should.
    var isComplete: Bool { get }
}

/// Turns a recorded body file back into what the target's content codings (`gzip`, `deflate`, `br`)
/// encoded, so the tree holds the body itself: a person can read and edit it, and the server sends it
/// as it is.
enum ContentDecoding {
    /// The decoder for one coding (`gzip`, `x-gzip`, `deflate`, `br`), nil for any other or when its library
    /// cannot be loaded.
    static func decoder(for coding: String) -> ContentDecoder? {
        switch coding {
        case "gzip", "x-gzip": ZlibInflater(format: .gzip)
        case "deflate": ZlibInflater(format: .deflate)
        case "br": BrotliDecoder()
        default: nil
        }
    }

    /// Decodes `bytes`, encoded with `encoding` (`gzip`, or several codings in the order they were applied:
    /// `gzip, br`); nil when a coding is not one of those or the body does not decode.
    static func decode(_ bytes: [UInt8], encoding: String) -> [UInt8]? {
        var current = bytes
        for coding in encoding.split(separator: ",").map({ $0.trimmingWhitespace }).reversed() {
            guard let decoder = decoder(for: coding) else { return nil }
            var decoded: [UInt8] = []
            let fine = current.withUnsafeBytes { input in
                decoder.decode(input) { output in
                    decoded.append(contentsOf: output)
                    return true
                }
            }
            guard fine, decoder.isComplete else { return nil }
            current = decoded
        }
        return current
    }

    /// Decodes the file at `path`, encoded with `encoding` (`gzip`, or several codings in the order they
    /// were applied: `gzip, br`), into a new file beside it, and removes `path`; returns the new file's path.
    /// Nil, `path` untouched, when a coding is not one of those or the body does not decode.
    static func decodeFile(_ path: String, encoding: String) -> String? {
        let codings = encoding.split(separator: ",").map { $0.trimmingWhitespace }
        var current = path
        for coding in codings.reversed() {
            guard let decoded = decodeFile(current, coding: coding) else {
                if current != path { unlink(current) }
                return nil
            }
            if current != path { unlink(current) }
            current = decoded
        }
        unlink(path)
        return current
    }

    private static func decodeFile(_ path: String, coding: String) -> String? {
        guard let decoder = decoder(for: coding) else { return nil }
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        // Beside a file of the recorder's own (a unique name), readable by all like any other tree file.
        let outputPath = path + ".decoded"
        let output = FileSystem.createTreeFile(outputPath)
        guard output >= 0 else { return nil }
        var decoded = true
        withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { buffer in
            while decoded {
                let got = read(input, buffer.baseAddress, buffer.count)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    decoded = got == 0 && decoder.isComplete
                    return
                }
                decoded = decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[..<got])) { bytes in
                    writeAll(output, bytes)
                }
            }
        }
        close(output)
        guard decoded else {
            unlink(outputPath)
            return nil
        }
        return outputPath
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
