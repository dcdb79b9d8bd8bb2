import EspressoMartini
import Logging

/// Checks scripts as a tree loads: compiles each and runs its top level (within the script timeout) in
/// one VM, made on the load's first script and let go when the load ends. The loader reads folders on
/// several threads; checks take turns.
public final class JavaScriptCoreChecker: ScriptChecker, @unchecked Sendable {
    private let limits: ScriptLimits
    private let parser: any JSONParser
    /// The VM, made on the first script.
    private let vm = Locked<ScriptVM?>(nil)

    public init(limits: ScriptLimits, parser: any JSONParser) {
        self.limits = limits
        self.parser = parser
    }

    public func check(_ script: ResponseScript) -> ScriptProblem? {
        vm.withLock { vm -> ScriptProblem? in
            do throws(ScriptProblem) {
                if vm == nil {
                    vm = try ScriptVM(limits: limits, parser: parser, logger: Logger(label: "espressomartini"))
                }
            } catch {
                return error
            }
            let problem = vm!.check(script)
            if vm!.isSpent { vm = nil }
            return problem
        }
    }

    /// Lets the VM go, and the memory it held go back to the system.
    public func loadEnded() {
        let hadVM = vm.withLock { vm in
            defer { vm = nil }
            return vm != nil
        }
        if hadVM, let js = try? JavaScriptCoreLibrary.shared.get() { js.releaseFreeMemory?() }
    }
}
