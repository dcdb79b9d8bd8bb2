/// What every template of one server sees beside the request: the pan-request cache (doc/scripts.md) and the
/// base URL the server listens on. One per server, shared by every request.
public final class TemplateEnvironment: Sendable {
    public let cache: PanRequestCache
    private let baseURL: Locked<String>

    /// `mockServer` is empty until the server knows its address (`setMockServer`).
    public init(cache: PanRequestCache = PanRequestCache(), mockServer: String = "") {
        self.cache = cache
        baseURL = Locked(mockServer)
    }

    /// `http://127.0.0.1:8080`: what `{{mockServer}}` renders. Any thread.
    public var mockServer: String { baseURL.withLock { $0 } }

    /// Set by the server once its socket is bound, before it answers. Any thread.
    public func setMockServer(_ url: String) {
        baseURL.withLock { $0 = url }
    }
}
