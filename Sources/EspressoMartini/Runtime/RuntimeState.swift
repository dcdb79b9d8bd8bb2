/// The runtime exchanges a `TreeService` keeps, oldest first, what requests see of them, and the number
/// the next one gets (ids are never reused while the server runs, so that a removed stub's id stays unknown).
struct RuntimeState: Sendable {
    var routes: RuntimeRoutes?
    var nextID = 1

    var exchanges: [RuntimeExchange] { routes?.exchanges ?? [] }
}
