extension NetworkExchange {
    /// The methods a method folder can be named by.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
        case options = "OPTIONS"
        case trace = "TRACE"
        case connect = "CONNECT"
    }
}
