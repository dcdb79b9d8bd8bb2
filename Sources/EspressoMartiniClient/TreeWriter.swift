import Foundation

/// Writes exchanges as an ordinary tree (doc/tree.md): `REQUESTS/<route folders>/<METHOD>/configuration.json`
/// and the body files beside it.
enum TreeWriter {
    static let configurationFile = "configuration.json"

    /// Throws `MockServerError.invalidArgument` for an exchange that cannot be written, `treeNotWritten` for
    /// what the file system refused.
    static func write(_ exchanges: [NetworkExchange], into requestsFolder: URL) throws {
        try checkNoTwoAnswerTheSameRequests(exchanges)
        do {
            try writeFolders(exchanges, into: requestsFolder)
        } catch {
            throw error as? MockServerError ?? .treeNotWritten("\(requestsFolder.path): \(error)")
        }
    }

    private static func writeFolders(_ exchanges: [NetworkExchange], into requestsFolder: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: requestsFolder, withIntermediateDirectories: true)
        for exchange in exchanges {
            var folder = requestsFolder
            for name in try exchange.request.folderNames() { folder.appendPathComponent(name, isDirectory: true) }
            folder.appendPathComponent(exchange.request.method.rawValue, isDirectory: true)
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            var encoder = ConfigurationEncoder(placement: FolderBodies(folder: folder))
            let configuration = try encoder.configuration(of: exchange)
            try Data((configuration.jsonText(pretty: true) + "\n").utf8)
                .write(to: folder.appendingPathComponent(configurationFile))
        }
    }

    /// The server refuses a tree where two exchanges of one method match the same requests; said here in
    /// this API's words rather than as a load error in a temporary folder.
    private static func checkNoTwoAnswerTheSameRequests(_ exchanges: [NetworkExchange]) throws {
        for (index, exchange) in exchanges.enumerated() {
            for earlier in exchanges[..<index] where earlier.request.answersTheSameRequests(as: exchange.request) {
                throw MockServerError.invalidArgument(
                    "\(earlier) and \(exchange) answer the same requests; make them one exchange, with a "
                        + "sequence of responses or with variants")
            }
        }
    }
}

extension NetworkExchange.Request {
    /// The same method, and routes that match the same paths (`{id}`, `{uid}` and `*` alike).
    fileprivate func answersTheSameRequests(as other: Self) -> Bool {
        method == other.method && path.count == other.path.count
            && zip(path, other.path).allSatisfy { $0.matchesSameSegments(as: $1) }
    }
}
