import Foundation

/// Bodies in a method folder: text inline as `body`, anything else in a file of its own named by
/// `response_file` (`response.json`, `response.bin`, or a `.fileContent` file's own name), whose extension
/// gives the server its `Content-Type`.
struct FolderBodies: BodyPlacement {
    let folder: URL
    /// File names already given in this folder; `configuration.json` is the folder's own.
    private var taken: Set<String> = [TreeWriter.configurationFile]

    init(folder: URL) {
        self.folder = folder
    }

    mutating func place(
        _ body: EncodedBody, template: Bool
    ) throws -> (members: [String: JSONValue], contentType: String?) {
        let name: String
        switch body {
        case .text(let text):
            return (["body": .string(text)], nil)
        case .json(let data):
            name = freeName("response.json")
            try write(data, to: name)
        case .bytes(let data):
            name = freeName("response.bin")
            try write(data, to: name)
        case .file(let url):
            name = freeName(url.lastPathComponent)
            do {
                try FileManager.default.copyItem(at: url, to: folder.appendingPathComponent(name))
            } catch {
                throw MockServerError.invalidArgument("fileContent: \(url.path) cannot be copied: \(error)")
            }
        }
        return (["response_file": .string(name)], nil)
    }

    private func write(_ data: Data, to name: String) throws {
        try data.write(to: folder.appendingPathComponent(name))
    }

    /// `preferred`, or `stem-2.ext`, `stem-3.ext`… when taken; never hidden (the server ignores names
    /// starting with `.`).
    private mutating func freeName(_ preferred: String) -> String {
        let visible = preferred.hasPrefix(".") ? "file" + preferred : preferred
        let dot = visible.lastIndex(of: ".") ?? visible.endIndex
        var name = visible
        var number = 2
        while taken.contains(name) {
            name = visible[..<dot] + "-\(number)" + visible[dot...]
            number += 1
        }
        taken.insert(name)
        return name
    }
}
