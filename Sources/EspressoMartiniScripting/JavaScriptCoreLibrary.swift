import CJavaScriptCore
import EspressoMartini
import Glibc

/// JavaScriptCore's C API, loaded with `dlopen` the first time a script is compiled, and each function
/// resolved with `dlsym`: a tree without scripts never maps the library, and a system without it still
/// serves such trees (a tree with a script then gets a load error saying what to install).
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
    let garbageCollect: EMJSGarbageCollect
    let stringCreateWithUTF8CString: EMJSStringCreateWithUTF8CString
    let stringRelease: EMJSStringRelease
    let stringGetMaximumUTF8CStringSize: EMJSStringGetMaximumUTF8CStringSize
    let stringGetUTF8CString: EMJSStringGetUTF8CString
    let valueMakeString: EMJSValueMakeString
    let valueMakeUndefined: EMJSValueMakeUndefined
    let valueIsString: EMJSValueIsString
    let valueToStringCopy: EMJSValueToStringCopy
    let valueToObject: EMJSValueToObject
    let valueProtect: EMJSValueProtect
    let valueUnprotect: EMJSValueUnprotect
    let objectMakeFunctionWithCallback: EMJSObjectMakeFunctionWithCallback
    let objectSetProperty: EMJSObjectSetProperty
    let objectCallAsFunction: EMJSObjectCallAsFunction

    /// The library, loaded by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<JavaScriptCoreLibrary, ScriptProblem> = load()

    private static func load() -> Result<JavaScriptCoreLibrary, ScriptProblem> {
        // Without its JIT compilers: mock scripts are short, and interpreted they answered faster on two
        // cores (no compiler threads competing) in a third of the memory; it is also how the engine runs
        // under the hardened unit's MemoryDenyWriteExecute=yes. JSC_useJIT set in the environment wins.
        setenv("JSC_useJIT", "0", 0)
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(ScriptProblem(message: "JavaScript responses need the JavaScriptCore library (\(soname)), which cannot be loaded: install the Debian package \(debianPackage)"))
        }
        var missing: [String] = []
        func resolve<Function>(_ name: String, as type: Function.Type) -> Function? {
            guard let symbol = dlsym(handle, name) else {
                missing.append(name)
                return nil
            }
            return unsafeBitCast(symbol, to: type)
        }
        let library = Self(
            contextGroupCreate: resolve("JSContextGroupCreate", as: EMJSContextGroupCreate.self),
            contextGroupRelease: resolve("JSContextGroupRelease", as: EMJSContextGroupRelease.self),
            contextGroupSetExecutionTimeLimit: resolve("JSContextGroupSetExecutionTimeLimit", as: EMJSContextGroupSetExecutionTimeLimit.self),
            globalContextCreateInGroup: resolve("JSGlobalContextCreateInGroup", as: EMJSGlobalContextCreateInGroup.self),
            globalContextRelease: resolve("JSGlobalContextRelease", as: EMJSGlobalContextRelease.self),
            contextGetGlobalObject: resolve("JSContextGetGlobalObject", as: EMJSContextGetGlobalObject.self),
            evaluateScript: resolve("JSEvaluateScript", as: EMJSEvaluateScript.self),
            garbageCollect: resolve("JSGarbageCollect", as: EMJSGarbageCollect.self),
            stringCreateWithUTF8CString: resolve("JSStringCreateWithUTF8CString", as: EMJSStringCreateWithUTF8CString.self),
            stringRelease: resolve("JSStringRelease", as: EMJSStringRelease.self),
            stringGetMaximumUTF8CStringSize: resolve("JSStringGetMaximumUTF8CStringSize", as: EMJSStringGetMaximumUTF8CStringSize.self),
            stringGetUTF8CString: resolve("JSStringGetUTF8CString", as: EMJSStringGetUTF8CString.self),
            valueMakeString: resolve("JSValueMakeString", as: EMJSValueMakeString.self),
            valueMakeUndefined: resolve("JSValueMakeUndefined", as: EMJSValueMakeUndefined.self),
            valueIsString: resolve("JSValueIsString", as: EMJSValueIsString.self),
            valueToStringCopy: resolve("JSValueToStringCopy", as: EMJSValueToStringCopy.self),
            valueToObject: resolve("JSValueToObject", as: EMJSValueToObject.self),
            valueProtect: resolve("JSValueProtect", as: EMJSValueProtect.self),
            valueUnprotect: resolve("JSValueUnprotect", as: EMJSValueUnprotect.self),
            objectMakeFunctionWithCallback: resolve("JSObjectMakeFunctionWithCallback", as: EMJSObjectMakeFunctionWithCallback.self),
            objectSetProperty: resolve("JSObjectSetProperty", as: EMJSObjectSetProperty.self),
            objectCallAsFunction: resolve("JSObjectCallAsFunction", as: EMJSObjectCallAsFunction.self)
        )
        guard let library else {
            return .failure(ScriptProblem(message: "the JavaScriptCore library \(soname) lacks \(missing.joined(separator: ", ")); install a WebKitGTK 2.x package \(debianPackage)"))
        }
        return .success(library)
    }

    private init?(
        contextGroupCreate: EMJSContextGroupCreate?, contextGroupRelease: EMJSContextGroupRelease?,
        contextGroupSetExecutionTimeLimit: EMJSContextGroupSetExecutionTimeLimit?, globalContextCreateInGroup: EMJSGlobalContextCreateInGroup?,
        globalContextRelease: EMJSGlobalContextRelease?, contextGetGlobalObject: EMJSContextGetGlobalObject?, evaluateScript: EMJSEvaluateScript?,
        garbageCollect: EMJSGarbageCollect?, stringCreateWithUTF8CString: EMJSStringCreateWithUTF8CString?, stringRelease: EMJSStringRelease?,
        stringGetMaximumUTF8CStringSize: EMJSStringGetMaximumUTF8CStringSize?, stringGetUTF8CString: EMJSStringGetUTF8CString?,
        valueMakeString: EMJSValueMakeString?, valueMakeUndefined: EMJSValueMakeUndefined?, valueIsString: EMJSValueIsString?,
        valueToStringCopy: EMJSValueToStringCopy?, valueToObject: EMJSValueToObject?, valueProtect: EMJSValueProtect?,
        valueUnprotect: EMJSValueUnprotect?, objectMakeFunctionWithCallback: EMJSObjectMakeFunctionWithCallback?,
        objectSetProperty: EMJSObjectSetProperty?, objectCallAsFunction: EMJSObjectCallAsFunction?
    ) {
        guard let contextGroupCreate, let contextGroupRelease, let contextGroupSetExecutionTimeLimit, let globalContextCreateInGroup,
              let globalContextRelease, let contextGetGlobalObject, let evaluateScript, let garbageCollect, let stringCreateWithUTF8CString,
              let stringRelease, let stringGetMaximumUTF8CStringSize, let stringGetUTF8CString, let valueMakeString, let valueMakeUndefined,
              let valueIsString, let valueToStringCopy, let valueToObject, let valueProtect, let valueUnprotect,
              let objectMakeFunctionWithCallback, let objectSetProperty, let objectCallAsFunction else { return nil }
        self.contextGroupCreate = contextGroupCreate
        self.contextGroupRelease = contextGroupRelease
        self.contextGroupSetExecutionTimeLimit = contextGroupSetExecutionTimeLimit
        self.globalContextCreateInGroup = globalContextCreateInGroup
        self.globalContextRelease = globalContextRelease
        self.contextGetGlobalObject = contextGetGlobalObject
        self.evaluateScript = evaluateScript
        self.garbageCollect = garbageCollect
        self.stringCreateWithUTF8CString = stringCreateWithUTF8CString
        self.stringRelease = stringRelease
        self.stringGetMaximumUTF8CStringSize = stringGetMaximumUTF8CStringSize
        self.stringGetUTF8CString = stringGetUTF8CString
        self.valueMakeString = valueMakeString
        self.valueMakeUndefined = valueMakeUndefined
        self.valueIsString = valueIsString
        self.valueToStringCopy = valueToStringCopy
        self.valueToObject = valueToObject
        self.valueProtect = valueProtect
        self.valueUnprotect = valueUnprotect
        self.objectMakeFunctionWithCallback = objectMakeFunctionWithCallback
        self.objectSetProperty = objectSetProperty
        self.objectCallAsFunction = objectCallAsFunction
    }
}
