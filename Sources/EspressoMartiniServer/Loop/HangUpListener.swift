/// What a loop's `HangUpWatches` tell when a client closes its connection while its answer waits for bytes:
/// the body that waits. `clientLeft()` is called on the loop's thread.
protocol HangUpListener: AnyObject, Sendable {
    func clientLeft()
}
