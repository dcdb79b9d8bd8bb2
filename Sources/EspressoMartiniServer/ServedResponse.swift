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
    /// first request. A file sent from disk that can no longer be opened is a `500`.
    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        let slot = tree.slot(exchangeAt: exchangeIndex, position: position)
        let status = statusCode
        if let shared = tree.built.existing(slot) {
            return (MHD_queue_response(connection, status, shared), status)
        }
        guard let diskFile = tree.diskFiles[slot] else {
            guard let shared = build(slot) else { return (MHD_Result.NO, status) }
            return (MHD_queue_response(connection, status, shared), status)
        }
        guard let perRequest = LibMicroHTTPDResponse.sendingFile(diskFile.path, headers: diskFile.headers) else {
            let failure = GeneratedResponse.error(500, "the response file \(diskFile.path) cannot be read", globalHeaders: tree.globalHeaders)
            return failure.queue(on: connection)
        }
        defer { MHD_destroy_response(perRequest) }
        return (MHD_queue_response(connection, status, perRequest), status)
    }

    /// Builds and publishes the shared response of `slot` (not a file sent from disk: that one gets a
    /// response of its own per request, so the file is sent whole as it is now).
    private func build(_ slot: Int) -> OpaquePointer? {
        let response = exchange.responses[position]
        let headers = response.effectiveHeaders(global: tree.globalHeaders)
        let made: OpaquePointer?
        switch response.body {
        case .loadedFile(_, let bytes):
            made = LibMicroHTTPDResponse.sharing(bytes, headers: headers)
        case .file(_, let path, _):
            // A file that vanished since the tree was loaded is answered with an empty body.
            made = LibMicroHTTPDResponse.sharing(FileBytes.reading(path: path) ?? .holding([]), headers: headers)
        case .inline, .none:
            made = LibMicroHTTPDResponse.copying(response.body.inlineBytes, headers: headers)
        }
        return made.map { tree.built.publish($0, in: slot) }
    }
}
