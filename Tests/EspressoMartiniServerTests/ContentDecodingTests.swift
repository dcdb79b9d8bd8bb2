@testable import EspressoMartiniServer
import Foundation
import Testing

/// Recorded bodies decoded from `gzip`, `deflate` (zlib-wrapped or raw) and `br` into the bytes they encode.
@Suite struct ContentDecodingTests {
    static let text = #"{"encoding": "br", "text": "espresso martini, shaken hard, served cold"}"#
    /// `text`, encoded by libbrotlienc.
    static let brotli =
        "1b47000044b779bd63b7c7e5f7194a4a605067040e3901ff9e50201a061339e1a07b7b1e9fd7edea4905c7a18029862a1897e9c6ce6e096eda8a46da714170008734f801"
    /// "hello" with gzip (two members: "hel" then "lo"), zlib and raw deflate, made by Python's zlib.
    static let gzipTwoMembers =
        "1f8b0800000000000203cb48cd01001bf10be503000000" + "1f8b0800000000000203cbc907009d4a9c5502000000"
    static let zlib = "789ccb48cdc9c90700062c0215"
    static let rawDeflate = "cb48cdc9c90700"

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map {
            UInt8(hex[hex.index(hex.startIndex, offsetBy: $0)...].prefix(2), radix: 16)!
        }
    }

    /// Writes `bytes` to a file, decodes it, returns what came out (nil when it did not decode).
    static func decode(_ bytes: [UInt8], _ encoding: String) throws -> [UInt8]? {
        let path = NSTemporaryDirectory() + "espressomartini-decoding-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let decoded = ContentDecoding.decodeFile(path, encoding: encoding) else {
            #expect(FileManager.default.fileExists(atPath: path), "the encoded file is kept when decoding fails")
            return nil
        }
        defer { try? FileManager.default.removeItem(atPath: decoded) }
        #expect(!FileManager.default.fileExists(atPath: path))
        return FileManager.default.contents(atPath: decoded).map { Array($0) }
    }

    @Test func eachCodingDecodes() throws {
        #expect(try Self.decode(Self.bytes(Self.brotli), "br") == Array(Self.text.utf8))
        #expect(try Self.decode(Self.bytes(Self.gzipTwoMembers), "gzip") == Array("hello".utf8))
        #expect(try Self.decode(Self.bytes(Self.gzipTwoMembers), "x-gzip") == Array("hello".utf8))
        #expect(try Self.decode(Self.bytes(Self.zlib), "deflate") == Array("hello".utf8))
        #expect(try Self.decode(Self.bytes(Self.rawDeflate), "deflate") == Array("hello".utf8))
    }

    @Test func aBodyOfSeveralMegabytesDecodesInPieces() throws {
        let large = [UInt8]((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 5) })
        let path = NSTemporaryDirectory() + "espressomartini-decoding-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(large))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let gzipped = try ExternalToolForUnits.gzip(path)
        #expect(try Self.decode(gzipped, "gzip") == large)
    }

    @Test func whatDoesNotDecodeIsKept() throws {
        #expect(try Self.decode(Array("not gzip at all".utf8), "gzip") == nil)
        #expect(try Self.decode(Self.bytes(Self.brotli).dropLast(3).map { $0 }, "br") == nil, "cut short")
        #expect(try Self.decode(Self.bytes(Self.zlib), "zstd") == nil)
        #expect(try Self.decode(Self.bytes(Self.zlib), "deflate, zstd") == nil)
    }
}

/// `gzip -c FILE`, for a large encoded body.
enum ExternalToolForUnits {
    static func gzip(_ path: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }
}
