import CJavaScriptCore
import EspressoMartini
import Glibc

/// JavaScriptCore's C API, loaded with `dlopen` the first time a script is compiled (`DynamicLibrary`): a
/// tree without scripts never maps the library, and a system without it still
/// serves such trees (a tree with a script then gets a load error saying what to install). Loading sets the
/// engine's options, once, before any VM exists: every VM is made through `shared`.
struct JavaScriptCoreLibrary: @unchecked Sendable {
    static let soname = "libjavascriptcoregtk-4.1.so.0"
    static let debianPackage = "libjavascriptcoregtk-4.1-0"

    let contextGroupCreate: EMJSContextGroupCreate
    let contextGroupRelease: EMJSContextGroupRelease
    let contextGroupSetExecutionTimeLimit: EMJSContextGroupSetExecutionTimeLimit
    let globalContextCreateInGroup: EMJSGlobalContextCreateInGroup
    let globalContextRelease: EMJSGlobalContextRelease
    let contextGetGlobalObject: EMJSContextGetGlobalObject
    let evaluateScript: EMJSEvaluateScript
    let stringCreateWithCharacters: EMJSStringCreateWithCharacters
    let stringRelease: EMJSStringRelease
    let stringGetMaximumUTF8CStringSize: EMJSStringGetMaximumUTF8CStringSize
    let stringGetUTF8CString: EMJSStringGetUTF8CString
    let valueMakeString: EMJSValueMakeString
    let valueMakeUndefined: EMJSValueMakeUndefined
    let valueMakeNull: EMJSValueMakeNull
    let valueMakeNumber: EMJSValueMakeNumber
    let valueMakeFromJSONString: EMJSValueMakeFromJSONString
    let valueGetType: EMJSValueGetType
    let valueToStringCopy: EMJSValueToStringCopy
    let valueToObject: EMJSValueToObject
    let valueToNumber: EMJSValueToNumber
    let valueProtect: EMJSValueProtect
    let valueUnprotect: EMJSValueUnprotect
    let objectMakeFunctionWithCallback: EMJSObjectMakeFunctionWithCallback
    let objectSetProperty: EMJSObjectSetProperty
    let objectGetProperty: EMJSObjectGetProperty
    let objectGetPropertyAtIndex: EMJSObjectGetPropertyAtIndex
    let objectCallAsFunction: EMJSObjectCallAsFunction
    let getMemoryUsageStatistics: EMJSGetMemoryUsageStatistics
    /// Nil when this build of the library does not export it (a C++ name): freed pages then go back to the
    /// system at the allocator's own pace, within a second or so.
    let releaseFreeMemory: EMReleaseFreeMemory?
    let setBooleanOption: EMJSCOptionsSetBoolean

    /// The library, loaded by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<JavaScriptCoreLibrary, ScriptProblem> = DynamicLibrary.load(
        soname, package: debianPackage, neededBy: "JavaScript responses need the JavaScriptCore library",
        resolve: resolve
    ).mapError { ScriptProblem(message: $0.description) }.map { library in
        library.setOptions()
        return library
    }

    private static func resolve(_ symbols: DynamicLibrary) -> JavaScriptCoreLibrary {
        Self(
            contextGroupCreate: symbols("JSContextGroupCreate"),
            contextGroupRelease: symbols("JSContextGroupRelease"),
            contextGroupSetExecutionTimeLimit: symbols("JSContextGroupSetExecutionTimeLimit"),
            globalContextCreateInGroup: symbols("JSGlobalContextCreateInGroup"),
            globalContextRelease: symbols("JSGlobalContextRelease"),
            contextGetGlobalObject: symbols("JSContextGetGlobalObject"),
            evaluateScript: symbols("JSEvaluateScript"),
            stringCreateWithCharacters: symbols("JSStringCreateWithCharacters"),
            stringRelease: symbols("JSStringRelease"),
            stringGetMaximumUTF8CStringSize: symbols("JSStringGetMaximumUTF8CStringSize"),
            stringGetUTF8CString: symbols("JSStringGetUTF8CString"),
            valueMakeString: symbols("JSValueMakeString"),
            valueMakeUndefined: symbols("JSValueMakeUndefined"),
            valueMakeNull: symbols("JSValueMakeNull"),
            valueMakeNumber: symbols("JSValueMakeNumber"),
            valueMakeFromJSONString: symbols("JSValueMakeFromJSONString"),
            valueGetType: symbols("JSValueGetType"),
            valueToStringCopy: symbols("JSValueToStringCopy"),
            valueToObject: symbols("JSValueToObject"),
            valueToNumber: symbols("JSValueToNumber"),
            valueProtect: symbols("JSValueProtect"),
            valueUnprotect: symbols("JSValueUnprotect"),
            objectMakeFunctionWithCallback: symbols("JSObjectMakeFunctionWithCallback"),
            objectSetProperty: symbols("JSObjectSetProperty"),
            objectGetProperty: symbols("JSObjectGetProperty"),
            objectGetPropertyAtIndex: symbols("JSObjectGetPropertyAtIndex"),
            objectCallAsFunction: symbols("JSObjectCallAsFunction"),
            getMemoryUsageStatistics: symbols("JSGetMemoryUsageStatistics"),
            releaseFreeMemory: symbols.optional("_ZN3WTF27releaseFastMallocFreeMemoryEv", as: EMReleaseFreeMemory.self),
            setBooleanOption: symbols("jsc_options_set_boolean")
        )
    }

    /// The engine's options, set before any VM exists (every VM is made after this, through `shared`);
    /// JSC_… variables set in the environment win.
    private func setOptions() {
        // Without its JIT compilers: mock scripts are short, and interpreted they
        // answered faster on two cores (no compiler threads competing) in a third of the memory; it is also
        // how the engine runs under the hardened unit's MemoryDenyWriteExecute=yes. Without a concurrent
        // collector: VMs run on the threads that answer HTTP, and the collector then works on those threads
        // when they allocate, instead of a thread of its own stopping them with signals; it cost no more
        // processor time per call and left the server 5 to 10 MiB smaller after the bench's script loads.
        // No heap-size option bounds a script's memory (gcMaxHeapSize only moves when the collector runs,
        // and a larger value made a script's garbage peak higher): `ScriptWatch` does.
        for (option, value) in [("useJIT", false), ("useConcurrentGC", false)] where getenv("JSC_" + option) == nil {
            _ = setBooleanOption(option, value ? 1 : 0)
        }
    }
}
