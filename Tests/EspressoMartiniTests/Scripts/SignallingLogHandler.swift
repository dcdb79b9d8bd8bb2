import Dispatch
import Logging

/// A log handler that signals a semaphore for each message containing `text`: a test waits on it to know a
/// script has reached its `console.log`, instead of sleeping and hoping.
struct SignallingLogHandler: LogHandler {
    let semaphore: DispatchSemaphore
    let text: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.message.description.contains(text) { semaphore.signal() }
    }
}
