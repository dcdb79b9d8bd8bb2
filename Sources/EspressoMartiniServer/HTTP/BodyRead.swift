/// What a callback response's body source gives for one call.
enum BodyRead: Equatable {
    /// This many bytes were written (at least one).
    case bytes(Int)
    /// Nothing yet: the source has suspended the connection, and will resume it when it has more
    /// (`ArrivingBody`); libmicrohttpd then asks again.
    case suspended
    /// The body is complete.
    case endOfBody
    /// The connection is closed now, the body cut short.
    case broken
}
