import EspressoMartini
import Logging

/// A thread's VM, made on its first call and again when the tree changes or a call spent it, and, on a
/// thread that receives requests, the scripts of the tree that ran past the budget there: twice, and they
/// run on script threads from then on (once may be a first call, which compiles the script). One thread.
final class VMSlot {
    private let limits: ScriptLimits
    private let parser: any JSONParser
    private let logger: Logger
    private var vm: ScriptVM?
    /// The tree `longScripts` belong to.
    private weak var tree: AnyObject?
    private var longRuns: [ObjectIdentifier: Int] = [:]

    init(limits: ScriptLimits, parser: any JSONParser, logger: Logger) {
        self.limits = limits
        self.parser = parser
        self.logger = logger
    }

    /// The VM for a call from `tree`.
    func vm(for tree: AnyObject) throws(ScriptProblem) -> ScriptVM {
        if let vm, vm.tree === tree { return vm }
        vm = nil
        let made = try ScriptVM(limits: limits, parser: parser, logger: logger)
        made.tree = tree
        vm = made
        return made
    }

    /// After a call: a VM the call spent is let go, and the memory it held given back to the system now.
    func settle() {
        guard vm?.isSpent == true else { return }
        vm = nil
        if let js = try? JavaScriptCoreLibrary.shared.get() { js.releaseFreeMemory?() }
    }

    func runsLong(_ script: ResponseScript, of tree: AnyObject) -> Bool {
        if self.tree !== tree {
            self.tree = tree
            longRuns.removeAll()
            return false
        }
        return !longRuns.isEmpty && longRuns[ObjectIdentifier(script), default: 0] >= 2
    }

    func noteRanLong(_ script: ResponseScript) {
        longRuns[ObjectIdentifier(script), default: 0] += 1
    }
}
