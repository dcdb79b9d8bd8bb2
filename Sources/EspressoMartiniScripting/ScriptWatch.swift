import CJavaScriptCore
import EspressoMartini

/// What stops a VM's script, through JavaScriptCore's time-limit callback: the engine calls it on the
/// script's own thread every `tick` of processor time the script runs, and stops the script (with an
/// exception scripts cannot catch) when it answers true. Each time it counts the time run and looks at the
/// memory the server holds, and says why it stops in `stop`, which the VM reads once the run ends: a run
/// stopped for its time, its memory, its budget on the receiving thread, or because it was abandoned.
/// Memory is the server's resident memory against what it was when the run began; when that has grown past
/// the limit, the VM's own heap decides whether the growth is this run's (another call's runaway grows the
/// same figure): at least half the limit, and it is (the heap's figure leaves out some of what a script
/// holds); else the run goes on, measured from there.
final class ScriptWatch {
    enum Stop: Equatable {
        /// Ran `limit` seconds: the call's timeout.
        case timeout
        /// Grew the server's memory by more than `memoryLimit` bytes.
        case memory
        /// Ran out of the shorter budget of a run on the thread that received the request.
        case budget
        /// Given up from within (`abandon()`): its outcome does not count.
        case abandoned
    }

    /// How often the callback runs, in seconds of the script's processor time.
    static let tick = 0.01

    private let js: JavaScriptCoreLibrary
    private let group: JSContextGroupRef
    /// Seconds the current run may take, and whether reaching them is its timeout or only its budget.
    private var limit = 0.0
    private var limitIsTimeout = true
    let memoryLimit: Int
    /// Seconds the current run has run, counted by ticks.
    private var elapsed = 0.0
    /// The server's memory when the run began.
    private var baseline: Int?
    /// The limit armed on the group; `tick` but for a run's last, shorter tick (or an abandoned run's).
    private var armed = 0.0
    private(set) var stop: Stop?

    init(js: JavaScriptCoreLibrary, group: JSContextGroupRef, memoryLimit: Int) {
        self.js = js
        self.group = group
        self.memoryLimit = memoryLimit
        arm(Self.tick)
    }

    /// Before a run: it may take `seconds`; `isTimeout`: reaching them is a timeout, else a budget.
    func begin(seconds: Double, isTimeout: Bool) {
        limit = seconds
        limitIsTimeout = isTimeout
        elapsed = 0
        stop = nil
        baseline = ResidentMemory.recent()
        if armed != Self.tick || seconds < Self.tick { arm(min(Self.tick, seconds)) }
    }

    /// Gives up the run from within (a host function that cannot go on): the engine stops it at its next
    /// check, within microseconds.
    func abandon() {
        stop = .abandoned
        arm(1e-6)
    }

    /// The callback's work: true stops the script.
    fileprivate func shouldStop(_ context: JSContextRef) -> Bool {
        if stop == .abandoned { return true }
        if let start = baseline, let now = ResidentMemory.bytes(), now - start > memoryLimit {
            if heapBytes(context) >= memoryLimit / 2 {
                stop = .memory
                return true
            }
            baseline = now
        }
        elapsed += armed
        if elapsed >= limit * 0.999 {
            stop = limitIsTimeout ? .timeout : .budget
            return true
        }
        // Returning false leaves the limit disarmed: arm it for the next tick (the last one up to `limit`).
        arm(min(Self.tick, limit - elapsed))
        return false
    }

    private func arm(_ seconds: Double) {
        armed = seconds
        js.contextGroupSetExecutionTimeLimit(
            group, seconds,
            { context, watch in
                guard let context else { return true }
                return Unmanaged<ScriptWatch>.fromOpaque(watch!).takeUnretainedValue().shouldStop(context)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The bytes the VM's heap holds, its objects and what they keep outside it (long strings).
    private func heapBytes(_ context: JSContextRef) -> Int {
        let name = ScriptVM.jsString(js, "heapCapacity")
        defer { js.stringRelease(name) }
        guard let statistics = js.getMemoryUsageStatistics(context),
            let capacity = js.objectGetProperty(context, statistics, name, nil)
        else {
            return Int.max
        }
        return Int(exactly: js.valueToNumber(context, capacity, nil).rounded()) ?? Int.max
    }
}
