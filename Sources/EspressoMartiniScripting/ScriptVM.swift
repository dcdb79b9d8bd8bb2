import CJavaScriptCore
import EspressoMartini
import Glibc

/// One JavaScriptCore VM (a context group and its global context) with the prelude loaded: the only type
/// that calls the engine. One per thread that runs scripts, never shared: JavaScriptCore serializes a
/// shared VM with a lock it drops around host calls, which deadlocks with the cache's call-scoped lock.
/// Every call made in it is stopped after the timeout given at creation.
final class ScriptVM {
    /// What a call gives: the prelude's answer as JSON text, or why there is none.
    enum Outcome {
        case answer(String)
        case failure(ScriptProblem)
    }

    private let js: JavaScriptCoreLibrary
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    private let entry: JSObjectRef
    private let timeout: Double
    /// Reads the prelude's descriptions of thrown values.
    private let parser: any JSONParser
    /// Each script's `response` function, compiled on its first call here; the script is kept so that its
    /// identity stays its own.
    private var compiled: [ObjectIdentifier: (script: ResponseScript, function: JSObjectRef)] = [:]
    /// The tree whose scripts this VM compiled; a call for another tree gets a new VM.
    weak var tree: AnyObject?
    /// A call was stopped by the timeout. JavaScriptCore then does not stop a later endless call in the
    /// same VM, so the VM is replaced before the next call.
    private(set) var stopped = false

    /// Loads the library if no VM did yet. Throws when it is missing or the prelude fails.
    init(timeout: Double, parser: any JSONParser) throws(ScriptProblem) {
        let js = try JavaScriptCoreLibrary.shared.get()
        self.js = js
        self.timeout = timeout
        self.parser = parser
        guard let group = js.contextGroupCreate() else { throw ScriptProblem(message: "JavaScriptCore cannot create a VM") }
        // Before any script runs in the group, or it does not apply.
        js.contextGroupSetExecutionTimeLimit(group, timeout, nil, nil)
        guard let context = js.globalContextCreateInGroup(group, nil) else {
            js.contextGroupRelease(group)
            throw ScriptProblem(message: "JavaScriptCore cannot create a context")
        }
        self.group = group
        self.context = context
        let global = js.contextGetGlobalObject(context)
        for (name, callback) in HostFunctions.all {
            let jsName = Self.string(js, name)
            defer { js.stringRelease(jsName) }
            js.objectSetProperty(context, global, jsName, js.objectMakeFunctionWithCallback(context, jsName, callback), 0, nil)
        }
        var exception: JSValueRef?
        let result = Self.evaluate(js, context, ScriptPrelude.source, url: "espressomartini-prelude.js", exception: &exception)
        guard exception == nil, let result, let entry = js.valueToObject(context, result, nil) else {
            let message = exception.map { Self.text(js, context, $0) } ?? "no entry function"
            js.globalContextRelease(context)
            js.contextGroupRelease(group)
            throw ScriptProblem(message: "the script prelude failed: \(message)")
        }
        js.valueProtect(context, entry)
        self.entry = entry
    }

    deinit {
        js.valueUnprotect(context, entry)
        for (_, function) in compiled.values { js.valueUnprotect(context, function) }
        js.globalContextRelease(context)
        js.contextGroupRelease(group)
    }

    /// Compiles `script` and runs its top level; its `response` function, or what is wrong. `keep`: the
    /// function stays for the script's calls (else it is only checked).
    func compile(_ script: ResponseScript, keep: Bool = true) -> Result<JSObjectRef, ScriptProblem> {
        if let known = compiled[ObjectIdentifier(script)] { return .success(known.function) }
        var exception: JSValueRef?
        let wrapped = ScriptPrelude.prefix + script.source + ScriptPrelude.suffix
        guard let outer = Self.evaluate(js, context, wrapped, url: script.file, exception: &exception), exception == nil,
              let outerFunction = js.valueToObject(context, outer, nil) else {
            return .failure(describe(exception, url: script.file))
        }
        let started = Monitor<Int>.now()
        let inner = js.objectCallAsFunction(context, outerFunction, nil, 0, nil, &exception)
        if let exception { return .failure(describe(exception, url: script.file, started: started)) }
        guard let inner, let function = js.valueToObject(context, inner, nil), !Self.isUndefined(js, context, inner) else {
            return .failure(ScriptProblem(message: "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }"))
        }
        if keep {
            js.valueProtect(context, function)
            compiled[ObjectIdentifier(script)] = (script, function)
        }
        return .success(function)
    }

    /// Calls `script`'s `response` with the request as JSON text (`ScriptRequest`) and its body.
    func call(_ script: ResponseScript, request: String, body: String?) -> Outcome {
        let function: JSObjectRef
        switch compile(script) {
        case .success(let compiled): function = compiled
        case .failure(let problem): return .failure(problem)
        }
        let operation = Self.string(js, "call"), requestText = Self.string(js, request), url = Self.string(js, script.file)
        defer {
            js.stringRelease(operation)
            js.stringRelease(requestText)
            js.stringRelease(url)
        }
        var exception: JSValueRef?
        let started = Monitor<Int>.now()
        let bodyText = body.map { Self.string(js, $0) }
        defer { bodyText.map { js.stringRelease($0) } }
        let result = callEntry([
            protected(js.valueMakeString(context, operation)), protected(function), protected(js.valueMakeString(context, requestText)),
            protected(js.valueMakeString(context, url)), protected(bodyText.map { js.valueMakeString(context, $0) } ?? js.valueMakeUndefined(context)),
        ], exception: &exception)
        if let exception { return .failure(describe(exception, url: script.file, started: started)) }
        guard let result, js.valueIsString(context, result) else { return .failure(ScriptProblem(message: "the script prelude gave no answer")) }
        return .answer(Self.text(js, context, result))
    }

    /// Calls the prelude's entry function with `arguments`, each made with `protected`, and lets them go
    /// after the call.
    private func callEntry(_ arguments: [JSValueRef?], exception: inout JSValueRef?) -> JSValueRef? {
        defer { for case let value? in arguments { js.valueUnprotect(context, value) } }
        return arguments.withUnsafeBufferPointer { js.objectCallAsFunction(context, entry, nil, $0.count, $0.baseAddress, &exception) }
    }

    /// `value`, protected from the garbage collector as soon as it is made: JavaScriptCore finds values on the
    /// machine stack, not in a Swift array on the heap, so a collection while the next argument is made (a
    /// large request) would otherwise free it.
    private func protected(_ value: JSValueRef?) -> JSValueRef? {
        if let value { js.valueProtect(context, value) }
        return value
    }

    /// Frees what the engine no longer uses (a VM about to sit idle).
    func collectGarbage() {
        js.garbageCollect(context)
    }

    /// A thrown value as a problem with its place. A run stopped by the timeout throws a value scripts
    /// cannot catch, which says only that it was terminated.
    private func describe(_ thrown: JSValueRef?, url: String, started: UInt64? = nil) -> ScriptProblem {
        guard let thrown else { return ScriptProblem(message: "the script could not be compiled") }
        if let started, Double(Monitor<Int>.now() - started) / 1e9 >= timeout * 0.99 {
            let text = Self.text(js, context, thrown)
            if text.contains("terminated") {
                stopped = true
                return ScriptProblem(message: "the script ran longer than script_timeout (\(Self.seconds(timeout))) and was stopped")
            }
        }
        let operation = Self.string(js, "describe"), jsURL = Self.string(js, url)
        defer {
            js.stringRelease(operation)
            js.stringRelease(jsURL)
        }
        var exception: JSValueRef?
        let described = callEntry(
            [protected(js.valueMakeString(context, operation)), protected(thrown), protected(js.valueMakeString(context, jsURL))], exception: &exception
        )
        guard exception == nil, let described else { return ScriptProblem(message: Self.text(js, context, thrown)) }
        return ScriptAnswer.problem(fromDescription: Self.text(js, context, described), parser: parser) ?? ScriptProblem(message: Self.text(js, context, thrown))
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private static func isUndefined(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ value: JSValueRef) -> Bool {
        !js.valueIsString(context, value) && text(js, context, value) == "undefined"
    }

    private static func evaluate(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ source: String, url: String, exception: inout JSValueRef?) -> JSValueRef? {
        let jsSource = string(js, source), jsURL = string(js, url)
        defer {
            js.stringRelease(jsSource)
            js.stringRelease(jsURL)
        }
        return js.evaluateScript(context, jsSource, nil, jsURL, 1, &exception)
    }

    static func string(_ js: JavaScriptCoreLibrary, _ text: String) -> JSStringRef? {
        js.stringCreateWithUTF8CString(text)
    }

    /// Any value as text, as JavaScript's `String(value)` gives it.
    static func text(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ value: JSValueRef) -> String {
        guard let string = js.valueToStringCopy(context, value, nil) else { return "" }
        defer { js.stringRelease(string) }
        let capacity = js.stringGetMaximumUTF8CStringSize(string)
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                let written = js.stringGetUTF8CString(string, characters.baseAddress, capacity)
                return max(0, written - 1)  // without the terminating NUL
            }
        }
    }
}
