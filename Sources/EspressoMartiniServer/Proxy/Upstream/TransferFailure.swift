/// Why a transfer failed.
struct TransferFailure: Error, Sendable {
    /// It ran out of time.
    let timedOut: Bool
    /// libcurl's words for it (`Failed to connect to 127.0.0.1 port 9: Connection refused`).
    let reason: String
    /// It was stopped because the server stops.
    var serverStopping = false
}
