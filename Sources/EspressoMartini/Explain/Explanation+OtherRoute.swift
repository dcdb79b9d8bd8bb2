extension Explanation {
    /// A route that matches the path but does not answer, and why.
    public struct OtherRoute: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// It has an exchange for the method, but a more specific route answers (or has the variants).
            case lessSpecific
            /// It has no exchange for the method the search asked for.
            case noExchangeForMethod
        }

        /// As the folders spell it.
        public let route: RoutePattern
        /// The methods of its exchanges, in `HTTPMethod` order.
        public let methods: [HTTPMethod]
        public let reason: Reason
    }
}
