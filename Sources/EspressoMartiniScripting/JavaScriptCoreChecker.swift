import EspressoMartini

/// Checks scripts as a tree loads: compiles each and runs its top level (within the script timeout) in
/// one VM, made on the load's first script and let go when the load ends. The loader reads folders on
/// several threads; checks take turns.
public final class JavaScriptCoreChecker: ScriptChecker, @unchecked Sendable {
    private let timeout: Double
    private let parser: any JSONParser
    /// The VM, made on the first script.
    private let vm = Locked<ScriptVM?>(nil)

    public init(timeout: Double, parser: any JSONParser) {
        self.timeout = timeout
        self.parser = parser
    }

    public func check(_ script: ResponseScript) -> ScriptProblem? {
        vm.withLock { vm -> ScriptProblem? in
            do throws(ScriptProblem) {
                if vm == nil { vm = try ScriptVM(timeout: timeout, parser: parser) }
            } catch {
                return error
            }
            guard case .failure(let problem) = vm!.compile(script, keep: false) else { return nil }
            if vm!.stopped { vm = nil }
            return problem
        }
    }

    public func loadEnded() {
        vm.withLock { $0 = nil }
    }
}
