import CMicroHTTPD
import EspressoMartini

/// The response chosen for a request, and what the access log says about it.
struct Answer {
    enum Content {
        case prepared(PreparedResponse)
        case generated(GeneratedResponse)
    }

    let content: Content
    /// The exchange's route and the response's position, counting from 1 (`GET /users/{id} 2/3`).
    let exchangeDescription: String?

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
