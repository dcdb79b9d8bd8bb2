import CMicroHTTPD
import EspressoMartini

/// The response an exchange gives one request: its tree (kept alive while the request waits out its
/// delay, even across a reload), the exchange and the response's 0-based position in the sequence.
struct ServedResponse {
    let tree: ServingTree
    let exchangeIndex: Int
    let position: Int

    var exchange: Exchange { tree.tree.exchanges[exchangeIndex] }

    var statusCode: UInt32 { UInt32(exchange.responses[position].statusCode) }

    /// The response's own delay in seconds, else the global one.
    var delay: Double { exchange.responses[position].delay ?? tree.globalDelay }

    /// Queues the response on `connection`: the tree's shared response, built now if this is its
    /// first request. A response file that cannot be read now (deleted since the tree was loaded) is a
    /// `500`, and a later request tries it again.
    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        let slot = tree.slot(exchangeAt: exchangeIndex, position: position)
        let status = statusCode
        if let shared = tree.built.existing(slot) {
            return (MHD_queue_response(connection, status, shared), status)
        }
        if let diskFile = tree.diskFiles[slot] {
            guard let perRequest = LibMicroHTTPDResponse.sendingFile(diskFile.path, headers: diskFile.headers) else {
                return unreadable(diskFile.path, on: connection)
            }
            defer { MHD_destroy_response(perRequest) }
            return (MHD_queue_response(connection, status, perRequest), status)
        }
        var fileBytes: FileBytes?
        if case .file(let name, let resolved, _) = exchange.responses[position].body {
            let path = tree.tree.path(ofFile: name, at: resolved, in: exchange)
            guard let bytes = tree.bytes(ofFileIn: slot, at: path) else { return unreadable(path, on: connection) }
            fileBytes = bytes
        }
        guard let shared = build(slot, fileBytes: fileBytes) else { return (MHD_Result.NO, status) }
        return (MHD_queue_response(connection, status, shared), status)
    }

    /// Builds and publishes the shared response of `slot`, with the file's bytes if it has a file. Two
    /// first requests may both read the file; only the response published first is ever sent, so every
    /// answer from this tree is one version of the file.
    private func build(_ slot: Int, fileBytes: FileBytes?) -> OpaquePointer? {
        let response = exchange.responses[position]
        let headers = response.effectiveHeaders(global: tree.globalHeaders)
        let made: OpaquePointer?
        if let fileBytes {
            made = LibMicroHTTPDResponse.sharing(fileBytes, headers: headers)
        } else {
            made = LibMicroHTTPDResponse.copying(response.body.inlineBytes, headers: headers)
        }
        return made.map { tree.built.publish($0, in: slot) }
    }

    private func unreadable(_ path: String, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        GeneratedResponse.error(500, "the response file \(path) cannot be read", globalHeaders: tree.globalHeaders).queue(on: connection)
    }
}
