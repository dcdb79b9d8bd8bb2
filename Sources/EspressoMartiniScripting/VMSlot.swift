import EspressoMartini
import Logging

/// A thread's VMs, one per tree whose scripts it answers (the tree in service, and the trees of runtime
/// exchanges: a session's, the server-wide one), each made on its tree's first call and again when a call
/// spent it; and, on a thread that receives requests, the scripts of each tree that ran past the budget
/// there: twice, and they run on script threads from then on (once may be a first call, which compiles the
/// script). A VM is never shared between trees: it knows a script by its identity, which a later tree's
/// script may take once the first tree is gone. One thread.
final class VMSlot {
    /// Trees whose VMs a thread keeps at once; past it, the one kept longest is let go.
    static let treesKept = 3

    private struct Kept {
        weak var tree: AnyObject?
        var vm: ScriptVM?
        var longRuns: [ObjectIdentifier: Int] = [:]
    }

    private let limits: ScriptLimits
    private let parser: any JSONParser
    private let logger: Logger
    /// The newest tree first.
    private var kept: [Kept] = []
    /// Where in `kept` the tree of the call under way is.
    private var current = 0

    init(limits: ScriptLimits, parser: any JSONParser, logger: Logger) {
        self.limits = limits
        self.parser = parser
        self.logger = logger
    }

    /// The VM for a call from `tree`.
    func vm(for tree: AnyObject) throws(ScriptProblem) -> ScriptVM {
        select(tree)
        if let vm = kept[current].vm { return vm }
        let made = try ScriptVM(limits: limits, parser: parser, logger: logger)
        made.tree = tree
        kept[current].vm = made
        return made
    }

    /// After a call: a VM the call spent is let go, and the memory it held given back to the system now.
    func settle() {
        guard current < kept.count, kept[current].vm?.isSpent == true else { return }
        kept[current].vm = nil
        if let js = try? JavaScriptCoreLibrary.shared.get() { js.releaseFreeMemory?() }
    }

    func runsLong(_ script: ResponseScript, of tree: AnyObject) -> Bool {
        select(tree)
        let longRuns = kept[current].longRuns
        return !longRuns.isEmpty && longRuns[ObjectIdentifier(script), default: 0] >= 2
    }

    /// Counts a run of `script`, of the tree of the call under way, past the budget.
    func noteRanLong(_ script: ResponseScript) {
        guard current < kept.count else { return }
        kept[current].longRuns[ObjectIdentifier(script), default: 0] += 1
    }

    /// Makes `tree`'s the current entry, made now if it is not kept (the entries of trees gone let go).
    private func select(_ tree: AnyObject) {
        if current < kept.count, kept[current].tree === tree { return }
        if let index = kept.firstIndex(where: { $0.tree === tree }) {
            current = index
            return
        }
        kept.removeAll { $0.tree == nil }
        if kept.count >= Self.treesKept { kept.removeLast() }
        kept.insert(Kept(tree: tree), at: 0)
        current = 0
    }
}
