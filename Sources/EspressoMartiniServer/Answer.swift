import CMicroHTTPD
import EspressoMartini

/// The response chosen for a request, and what the access log and the journal say about it.
struct Answer {
    enum Content {
        case prepared(PreparedResponse)
        case generated(GeneratedResponse)
    }

    let content: Content
    /// The exchange that answers and the 0-based position of its response; nil for errors and the admin API.
    var served: ServingTree.ServingExchange?
    var position: Int?

    static func generated(_ response: GeneratedResponse) -> Answer {
        Answer(content: .generated(response))
    }

    var statusCode: UInt32 {
        switch content {
        case .prepared(let response): response.statusCode
        case .generated(let response): response.statusCode
        }
    }

    var delay: Double {
        if case .prepared(let response) = content { return response.delay }
        return 0
    }

    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        switch content {
        case .prepared(let response): response.queue(on: connection)
        case .generated(let response): response.queue(on: connection)
        }
    }
}
