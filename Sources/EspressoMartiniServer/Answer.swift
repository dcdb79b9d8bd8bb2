import CMicroHTTPD
import EspressoMartini

/// The response chosen for a request, and what the access log and the journal say about it.
enum Answer {
    /// An exchange's response.
    case served(ServedResponse)
    /// The `400`/`404`/`405` errors and the admin API's answers.
    case generated(GeneratedResponse)

    var served: ServedResponse? {
        if case .served(let response) = self { return response }
        return nil
    }

    var statusCode: UInt32 {
        switch self {
        case .served(let response): response.statusCode
        case .generated(let response): response.statusCode
        }
    }

    var delay: Double {
        if case .served(let response) = self { return response.delay }
        return 0
    }

    func queue(on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        switch self {
        case .served(let response): response.queue(on: connection)
        case .generated(let response): response.queue(on: connection)
        }
    }
}
