import EspressoMartini
import Glibc
import Logging

/// What the call running in a VM may reach through the host functions: its request (`RequestPart`), the
/// pan-request cache (the call's use of it, which takes the cache on first use until the call ends) and
/// the log. One per VM, made anew for each call's job; the host functions find it as the current
/// thread's: a VM runs on one thread, and its host functions run within its calls.
final class ScriptCall {
    let parser: any JSONParser
    let logger: Logger
    /// The call's job and its use of the cache; nil between calls and while a script's top level runs.
    private(set) var job: ScriptJob?
    private(set) var cache: CacheCall?
    /// Names the call to the request object the prelude makes for it: a request kept by a script past
    /// its call reads nothing.
    private(set) var token = 0
    /// Lines logged by a call whose outcome may be dropped (one on the thread that received its request),
    /// written when it ends; nil: written at once.
    private var heldLines: [(Logger.Level, String)]?
    /// Holds the JSON text of each request part a call reads, reused from call to call.
    var scratch: [UInt8] = []
    /// Told when the call cannot go on (the cache is held by a call that may run long).
    private let watch: ScriptWatch

    init(parser: any JSONParser, logger: Logger, watch: ScriptWatch) {
        self.parser = parser
        self.logger = logger
        self.watch = watch
    }

    /// Runs `body` as the current thread's call of `job`, with `cache`; `holdingLines`: its lines wait
    /// for `finish(keepingLines:)`.
    func run<Result>(_ job: ScriptJob, cache: CacheCall, holdingLines: Bool, _ body: (_ token: Int) -> Result) -> Result
    {
        token &+= 1
        self.job = job
        self.cache = cache
        route = job.script.route
        heldLines = holdingLines ? [] : nil
        let key = Self.key
        pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(key, nil)
            self.job = nil
            self.cache = nil
        }
        return body(token)
    }

    /// Writes the lines held back, unless the call's outcome was dropped.
    func finish(keepingLines: Bool) {
        if keepingLines, let heldLines {
            for (level, message) in heldLines { write(level, message) }
        }
        heldLines = nil
    }

    /// One line in the server's log, with the exchange's route; nothing outside a call.
    func log(_ level: Logger.Level, _ message: String) {
        guard job != nil else { return }
        if heldLines != nil {
            heldLines!.append((level, message))
        } else {
            write(level, message)
        }
    }

    /// The route of the call's exchange, kept after it returns for the lines it held.
    private var route = ""

    private func write(_ level: Logger.Level, _ message: String) {
        logger.log(level: level, "script \(route): \(message)")
    }

    /// Stops the call at once: it cannot go on (the cache is taken by a call that may run long). Its
    /// outcome is dropped.
    func abandon() {
        watch.abandon()
    }

    /// The call running on this thread; nil while a script's top level runs at load.
    static var current: ScriptCall? {
        pthread_getspecific(key).map { Unmanaged<ScriptCall>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
