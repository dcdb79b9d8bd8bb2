import EspressoMartini
import Glibc
import Logging

/// What one call of a script may reach while it runs: the pan-request cache (the call's use of it, which
/// takes it on first use until the call ends) and the log. The host functions find it as the current
/// thread's: a VM runs on one thread, and its host functions run within its calls.
final class ScriptCall {
    let cache: CacheCall
    let parser: any JSONParser
    let logger: Logger
    let route: String

    init(cache: CacheCall, parser: any JSONParser, logger: Logger, route: String) {
        self.cache = cache
        self.parser = parser
        self.logger = logger
        self.route = route
    }

    /// Runs `body` as the current thread's call.
    func run<Result>(_ body: () -> Result) -> Result {
        let key = Self.key
        pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return body()
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
