import EspressoMartini
import Logging
import Synchronization

/// Forwards requests to the proxy's target (doc/recording.md): what every forwarded request shares (the
/// proxy's settings, the recording), and one `ForwardingLane` per serving loop, which sends the requests of
/// that loop's connections on kept-alive connections of its own and reads the answers on the loop's thread.
final class Forwarder: @unchecked Sendable {
    let proxy: ProxyConfiguration
    /// `http` or `https`: how clients reach this server, for `X-Forwarded-Proto`.
    let scheme: String
    /// Writes what is recorded; nil when nothing is.
    let recording: RecordingWriter?
    /// Spy mode: each recording reloads the tree, and the client's answer ends once it has.
    let recordingReloads: Bool
    let logger: Logger
    let timeoutNanoseconds: UInt64
    /// How often transfers are looked at for the proxy's timeout: every second, or four times within a
    /// shorter timeout.
    let overdueCheckInterval: UInt64
    /// What every forwarded request's URL and headers share, as bytes (`Forwarder+request.swift`).
    let requestParts: ForwardedRequestParts
    /// The target's URL in its answers' headers, given back as this server's (`Location`).
    let targetURL: TargetURLRewrite
    /// `targetURL`'s bytes, looked for in each head.
    let targetURLBytes: [UInt8]
    /// The client of its own reaches the target (plain HTTP to an address); else libcurl.
    private let usesOwnClient: Bool
    private let lanes = Locked<[ForwardingLane]>([])

    /// Throws when the target needs libcurl and it cannot be loaded.
    init(
        proxy: ProxyConfiguration, scheme: String, recording: RecordingWriter?, logger: Logger
    ) throws(LibraryUnavailable) {
        usesOwnClient = PlainUpstreamClient.reaches(proxy.target)
        if !usesOwnClient, let problem = CurlLibrary.unavailability { throw problem }
        self.proxy = proxy
        self.scheme = scheme
        self.recording = recording
        recordingReloads = recording != nil && proxy.forwards == .misses
        self.logger = logger
        timeoutNanoseconds = UInt64(proxy.timeout * 1_000_000_000)
        overdueCheckInterval = max(1_000_000, min(1_000_000_000, timeoutNanoseconds / 4))
        requestParts = ForwardedRequestParts(proxy: proxy, scheme: scheme)
        targetURL = TargetURLRewrite(target: proxy.target)
        targetURLBytes = Array(targetURL.targetURL.utf8)
    }

    /// The lane `loop` forwards through, its connections in the loop's epoll set: the client of its own for a
    /// plain-HTTP target given by address, else libcurl. Nil when the client cannot be made.
    func makeLane(on loop: ServingLoop) -> ForwardingLane? {
        let client: (any UpstreamClient)?
        if usesOwnClient {
            client = PlainUpstreamClient(target: proxy.target, connectionsKept: 256, poll: loop.poll)
        } else {
            let settings = CurlSettings(
                connectTimeout: proxy.timeout, verifiesTLS: proxy.verifiesTLS,
                certificateAuthorities: proxy.certificateAuthorities)
            client = CurlUpstreamClient(connectionsKept: 256, settings: settings, poll: loop.poll)
        }
        guard let client else { return nil }
        let lane = ForwardingLane(forwarder: self, loop: loop, client: client)
        lanes.withLock { $0.append(lane) }
        return lane
    }

    /// Starts forwarding `request` (`rawTarget` its path and query as the request line had them), decided by
    /// `decision`, answering on `connection`, through the lane of the connection's loop; its body, if it has
    /// one (`body`), comes through the exchange's `push`. On the connection's loop; nil when no transfer can
    /// be made.
    func forward(
        _ request: Request, decision: Decision, rawTarget: String, body: UpstreamRequest.Body,
        on connection: any RequestConnection
    ) -> ForwardedExchange? {
        connection.loop.lane?.forward(request, decision: decision, rawTarget: rawTarget, body: body, on: connection)
    }

    /// Ends every transfer (a request not answered yet gets `503`, an answer being sent is cut short); no
    /// request is forwarded after. Returns once every lane has. Call once, from none of the loops.
    func stop() {
        for lane in lanes.withLock({ $0 }) { lane.stop() }
    }
}
