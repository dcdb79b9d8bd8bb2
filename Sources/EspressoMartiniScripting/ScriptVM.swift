import CJavaScriptCore
import EspressoMartini
import Glibc
import Logging

/// One JavaScriptCore VM (a context group and its global context) with the prelude loaded: the only type
/// that runs scripts. One per thread that runs scripts, never shared: JavaScriptCore serializes a shared
/// VM with a lock it drops around host calls, which deadlocks with the cache's call-scoped lock. Each run
/// in it is watched (`ScriptWatch`) for its time and the memory it takes; a VM whose run was stopped is
/// spent, and replaced.
final class ScriptVM {
    /// What a call gives.
    enum Outcome {
        case response(ScriptResponse)
        case failure(ScriptProblem)
        /// Stopped without an outcome of its own, to run again on a script thread: a run on the receiving
        /// thread past its budget (`ranLong`), or one that would have waited for the cache behind a call that
        /// may run long.
        case again(ranLong: Bool)
    }

    private struct Compiled {
        /// Kept so that its identity stays its own.
        let script: ResponseScript
        let function: JSObjectRef
        /// The script's file name, as the prelude places errors by it.
        let url: JSValueRef
    }

    private let js: JavaScriptCoreLibrary
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    private let preludeCall: JSObjectRef
    private let preludeDescribe: JSObjectRef
    private let preludeYAML: JSObjectRef
    let limits: ScriptLimits
    private let watch: ScriptWatch
    /// Reads descriptions of thrown values and template data.
    private let parser: any JSONParser
    /// The call under way, for the host functions.
    private let current: ScriptCall
    /// Each script's `response` function, compiled on its first call here.
    private var compiled: [ObjectIdentifier: Compiled] = [:]
    /// The one `compile` found last: a thread mostly calls the same script again, found without hashing.
    private var lastCompiled: Compiled?
    /// The tree whose scripts this VM compiled; a call for another tree gets a new VM.
    weak var tree: AnyObject?
    /// A run was stopped for its time, its memory or its budget: what it made is given back with the VM,
    /// which is let go at once, and a script's state left half-changed goes with it.
    private(set) var isSpent = false

    /// Loads the library if no VM did yet. Throws when it is missing or the prelude fails.
    init(limits: ScriptLimits, parser: any JSONParser, logger: Logger) throws(ScriptProblem) {
        let js = try JavaScriptCoreLibrary.shared.get()
        self.js = js
        self.limits = limits
        self.parser = parser
        guard let group = js.contextGroupCreate() else {
            throw ScriptProblem(message: "JavaScriptCore cannot create a VM")
        }
        // Before any script runs in the group, or it does not apply.
        watch = ScriptWatch(js: js, group: group, memoryLimit: limits.memory)
        current = ScriptCall(parser: parser, logger: logger, watch: watch)
        guard let context = js.globalContextCreateInGroup(group, nil) else {
            js.contextGroupRelease(group)
            throw ScriptProblem(message: "JavaScriptCore cannot create a context")
        }
        self.group = group
        self.context = context
        let global = js.contextGetGlobalObject(context)
        for (name, callback) in HostFunctions.all {
            let jsName = Self.jsString(js, name)
            defer { js.stringRelease(jsName) }
            js.objectSetProperty(
                context, global, jsName, js.objectMakeFunctionWithCallback(context, jsName, callback), 0, nil)
        }
        var exception: JSValueRef?
        watch.begin(seconds: max(limits.timeout, 1), isTimeout: true)
        let result = Self.evaluate(
            js, context, ScriptPrelude.source, url: "espressomartini-prelude.js", exception: &exception)
        let functions = result.flatMap { js.valueToObject(context, $0, nil) }.map { prelude in
            ["call", "describe", "yaml"].compactMap { name in
                let jsName = Self.jsString(js, name)
                defer { js.stringRelease(jsName) }
                return js.objectGetProperty(context, prelude, jsName, nil).flatMap {
                    js.valueToObject(context, $0, nil)
                }
            }
        }
        guard exception == nil, let functions, functions.count == 3 else {
            let message = exception.map { Self.text(js, context, $0) } ?? "no entry functions"
            js.globalContextRelease(context)
            js.contextGroupRelease(group)
            throw ScriptProblem(message: "the script prelude failed: \(message)")
        }
        for function in functions { js.valueProtect(context, function) }
        (preludeCall, preludeDescribe, preludeYAML) = (functions[0], functions[1], functions[2])
    }

    deinit {
        for function in [preludeCall, preludeDescribe, preludeYAML] { js.valueUnprotect(context, function) }
        for each in compiled.values {
            js.valueUnprotect(context, each.function)
            js.valueUnprotect(context, each.url)
        }
        js.globalContextRelease(context)
        js.contextGroupRelease(group)
    }

    /// Compiles `script` and runs its top level (within the timeout); nil when it defines a function
    /// `response`, else what is wrong. What it compiled is not kept.
    func check(_ script: ResponseScript) -> ScriptProblem? {
        guard case .failure(let problem) = compile(script, seconds: limits.timeout, isTimeout: true, keep: false) else {
            return nil
        }
        return stopProblem() ?? problem
    }

    /// Calls `job`'s script, compiled here on its first call, with the request and the job's cache;
    /// `onReceivingThread`: the run may take one tick (`ScriptWatch.tick`) and never waits for the cache
    /// behind a call on a script thread, else it is stopped and its outcome is `.again`.
    func call(_ job: ScriptJob, onReceivingThread: Bool) -> Outcome {
        let budget = onReceivingThread && limits.timeout > ScriptWatch.tick
        let seconds = budget ? ScriptWatch.tick : limits.timeout
        let compiled: Compiled
        switch compile(job.script, seconds: seconds, isTimeout: !budget) {
        case .success(let made): compiled = made
        case .failure(let problem): return stopOutcome() ?? .failure(problem)
        }
        var exception: JSValueRef?
        let result = job.cache.withCall(onReceivingThread: onReceivingThread) { cache in
            current.run(job, cache: cache, holdingLines: onReceivingThread) { token in
                watch.begin(seconds: seconds, isTimeout: !budget)
                let result = withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: 3) { arguments in
                    arguments[0] = compiled.function
                    arguments[1] = js.valueMakeNumber(context, Double(token))
                    arguments[2] = compiled.url
                    return js.objectCallAsFunction(context, preludeCall, nil, 3, arguments.baseAddress, &exception)
                }
                if watch.stop != nil { cache.discard() }
                return result
            }
        }
        let outcome: Outcome
        if let stopped = stopOutcome() {
            outcome = stopped
        } else if let exception {
            outcome = .failure(describe(exception, url: compiled.url))
        } else if let result {
            switch response(from: result) {
            case .success(let response): outcome = .response(response)
            case .failure(let problem): outcome = .failure(problem)
            }
        } else {
            outcome = .failure(ScriptProblem(message: "the script prelude gave no answer"))
        }
        if case .again = outcome { current.finish(keepingLines: false) } else { current.finish(keepingLines: true) }
        return outcome
    }

    /// The YAML text of a JSON value's text (a YAML body rendered with template data); nil when it cannot
    /// be written.
    func yaml(_ json: [UInt8]) -> [UInt8]? {
        let text = json.withUnsafeBufferPointer { Self.makeString(js, context, $0) }
        var exception: JSValueRef?
        watch.begin(seconds: limits.timeout, isTimeout: true)
        let result = withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: 1) { arguments in
            arguments[0] = text
            return js.objectCallAsFunction(context, preludeYAML, nil, 1, arguments.baseAddress, &exception)
        }
        if watch.stop != nil { isSpent = true }
        guard exception == nil, watch.stop == nil, let result else { return nil }
        return Self.bytes(js, context, result)
    }

    private func compile(
        _ script: ResponseScript, seconds: Double, isTimeout: Bool, keep: Bool = true
    ) -> Result<Compiled, ScriptProblem> {
        if let last = lastCompiled, last.script === script { return .success(last) }
        if let known = compiled[ObjectIdentifier(script)] {
            lastCompiled = known
            return .success(known)
        }
        var exception: JSValueRef?
        let wrapped = ScriptPrelude.prefix + script.source + ScriptPrelude.suffix
        watch.begin(seconds: seconds, isTimeout: isTimeout)
        guard let url = Self.makeString(js, context, script.file) else {
            return .failure(ScriptProblem(message: "JavaScriptCore cannot make a string"))
        }
        js.valueProtect(context, url)
        var kept = false
        defer { if !kept { js.valueUnprotect(context, url) } }
        // A run the watch stopped is reported by the caller, from the watch: nothing to describe.
        let stopped = ScriptProblem(message: "stopped")
        guard let outer = Self.evaluate(js, context, wrapped, url: script.file, exception: &exception),
            exception == nil,
            let outerFunction = js.valueToObject(context, outer, nil)
        else {
            return .failure(watch.stop == nil ? describe(exception, url: url) : stopped)
        }
        let inner = js.objectCallAsFunction(context, outerFunction, nil, 0, nil, &exception)
        if let exception { return .failure(watch.stop == nil ? describe(exception, url: url) : stopped) }
        guard let inner, js.valueGetType(context, inner) == kJSTypeObject,
            let function = js.valueToObject(context, inner, nil)
        else {
            return .failure(
                ScriptProblem(
                    message:
                        "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }"
                ))
        }
        let made = Compiled(script: script, function: function, url: url)
        if keep {
            js.valueProtect(context, function)
            compiled[ObjectIdentifier(script)] = made
            kept = true
        }
        return .success(made)
    }

    /// The outcome of a run the watch stopped; nil when it was not stopped.
    private func stopOutcome() -> Outcome? {
        switch watch.stop {
        case nil: return nil
        case .budget?:
            isSpent = true
            return .again(ranLong: true)
        case .abandoned?: return .again(ranLong: false)
        case .timeout?, .memory?: return .failure(stopProblem()!)
        }
    }

    /// Why the watch stopped the last run, for a stop that is a failure of the script's own.
    private func stopProblem() -> ScriptProblem? {
        switch watch.stop {
        case .timeout?:
            isSpent = true
            return ScriptProblem(
                message: "the script ran longer than script_timeout (\(Self.seconds(limits.timeout))) and was stopped")
        case .memory?:
            isSpent = true
            return ScriptProblem(
                message:
                    "the script used more memory than script_memory (\(limits.memory >> 20) MiB) allows and was stopped"
            )
        default:
            return nil
        }
    }

    /// The prelude's answer (`ScriptPrelude`, `call`): the response's parts in one text, or the description
    /// of a failure.
    private func response(from answer: JSValueRef) -> Result<ScriptResponse, ScriptProblem> {
        let bytes = Self.bytes(js, context, answer)
        guard bytes.first != UInt8(ascii: "{") else {
            return .failure(
                ScriptAnswer.problem(fromDescription: String(decoding: bytes, as: UTF8.self), parser: parser)
                    ?? ScriptProblem(message: "the script's answer could not be read"))
        }
        return bytes.withUnsafeBufferPointer { bytes in
            // "status\0kind\0contentType\0data\0count\0name\0value\0…body"
            var start = 0
            func field() -> Range<Int>? {
                var end = start
                while end < bytes.count, bytes[end] != 0 { end += 1 }
                guard end < bytes.count else { return nil }
                defer { start = end + 1 }
                return start..<end
            }
            func number(_ field: Range<Int>?) -> Int? {
                guard let field, !field.isEmpty, field.count < 10 else { return nil }
                var value = 0
                for index in field {
                    guard bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                    value = value * 10 + Int(bytes[index]) - 48
                }
                return value
            }
            func text(_ field: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[field]), as: UTF8.self)
            }
            func json(_ field: Range<Int>) -> Result<JSONValue, JSONSyntaxError> { parser.parse(Array(bytes[field])) }
            let unreadable = Result<ScriptResponse, ScriptProblem>.failure(
                ScriptProblem(message: "the script's answer could not be read"))
            guard let status = number(field()), let kind = number(field()), let typeField = field(),
                let dataField = field(),
                let count = number(field())
            else { return unreadable }
            var headers: [HTTPHeader] = []
            if count > 0 { headers.reserveCapacity(count) }
            for _ in 0..<count {
                guard let name = field(), let value = field() else { return unreadable }
                headers.append(HTTPHeader(name: text(name), value: text(value)))
            }
            var contentType: String?
            if !typeField.isEmpty, case .success(.string(let type)) = json(typeField) { contentType = type }
            var data: JSONValue?
            if kind != 4, !dataField.isEmpty {
                guard case .success(let parsed) = json(dataField) else {
                    return .failure(ScriptProblem(message: "the script's template data could not be read"))
                }
                data = parsed
            }
            let rest = start..<bytes.count
            let body: ScriptResponse.Body
            switch kind {
            case 1: body = .text(Array(bytes[rest]), data: data)
            case 2: body = .json(Array(bytes[rest]), data: data)
            case 3: body = data == nil ? .yaml(Array(bytes[rest])) : .yamlTemplate(json: Array(bytes[rest]), data: data)
            case 4: body = .file(path: text(rest), contentType: contentType)
            case 5: body = .template(path: text(rest), contentType: contentType, data: data)
            default: body = .none
            }
            return .success(ScriptResponse(status: status, headers: headers, body: body))
        }
    }

    /// A thrown value as a problem with its place.
    private func describe(_ thrown: JSValueRef?, url: JSValueRef) -> ScriptProblem {
        guard let thrown else { return ScriptProblem(message: "the script could not be compiled") }
        var exception: JSValueRef?
        watch.begin(seconds: limits.timeout, isTimeout: true)
        let described = withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: 2) { arguments in
            arguments[0] = thrown
            arguments[1] = url
            return js.objectCallAsFunction(context, preludeDescribe, nil, 2, arguments.baseAddress, &exception)
        }
        guard exception == nil, let described else { return ScriptProblem(message: Self.text(js, context, thrown)) }
        return ScriptAnswer.problem(fromDescription: Self.text(js, context, described), parser: parser)
            ?? ScriptProblem(message: Self.text(js, context, thrown))
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private static func evaluate(
        _ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ source: String, url: String,
        exception: inout JSValueRef?
    ) -> JSValueRef? {
        let jsSource = jsString(js, source), jsURL = jsString(js, url)
        defer {
            js.stringRelease(jsSource)
            js.stringRelease(jsURL)
        }
        return js.evaluateScript(context, jsSource, nil, jsURL, 1, &exception)
    }

    /// `text` as a JavaScript string.
    static func makeString(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ text: String) -> JSValueRef? {
        var text = text
        return text.withUTF8 { makeString(js, context, $0) }
    }

    /// UTF-8 `bytes` as a JavaScript string.
    static func makeString(
        _ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ bytes: UnsafeBufferPointer<UInt8>
    ) -> JSValueRef? {
        let string = jsString(js, bytes)
        defer { js.stringRelease(string) }
        return js.valueMakeString(context, string)
    }

    /// The value JSON text in UTF-8 `bytes` denotes, parsed by the engine; nil when it is not JSON.
    static func parseJSON(
        _ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ bytes: UnsafeBufferPointer<UInt8>
    ) -> JSValueRef? {
        let string = jsString(js, bytes)
        defer { js.stringRelease(string) }
        return js.valueMakeFromJSONString(context, string)
    }

    /// `text` as the engine's string.
    static func jsString(_ js: JavaScriptCoreLibrary, _ text: String) -> JSStringRef? {
        var text = text
        return text.withUTF8 { jsString(js, $0) }
    }

    /// UTF-8 `bytes` (invalid sequences read as U+FFFD) as the engine's string, made from UTF-16: an ASCII
    /// text (most requests) is widened byte by byte, which costs a twentieth of what the engine's own UTF-8
    /// decoder does.
    static func jsString(_ js: JavaScriptCoreLibrary, _ bytes: UnsafeBufferPointer<UInt8>) -> JSStringRef? {
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(1, bytes.count)) { wide in
            var ascii: UInt8 = 0
            for index in 0..<bytes.count {
                ascii |= bytes[index]
                wide[index] = UInt16(bytes[index])
            }
            if ascii < 0x80 { return js.stringCreateWithCharacters(wide.baseAddress, bytes.count) }
            let units = Array(String(decoding: bytes, as: UTF8.self).utf16)
            return units.withUnsafeBufferPointer { js.stringCreateWithCharacters($0.baseAddress, $0.count) }
        }
    }

    /// Any value as text, as JavaScript's `String(value)` gives it.
    static func text(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ value: JSValueRef) -> String {
        guard let string = js.valueToStringCopy(context, value, nil) else { return "" }
        defer { js.stringRelease(string) }
        let capacity = js.stringGetMaximumUTF8CStringSize(string)
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                max(0, js.stringGetUTF8CString(string, characters.baseAddress, capacity) - 1)  // without the NUL
            }
        }
    }

    /// Any value as UTF-8 bytes, as JavaScript's `String(value)` gives it.
    static func bytes(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ value: JSValueRef) -> [UInt8] {
        guard let string = js.valueToStringCopy(context, value, nil) else { return [] }
        defer { js.stringRelease(string) }
        let capacity = js.stringGetMaximumUTF8CStringSize(string)
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = buffer.withMemoryRebound(to: CChar.self) { characters in
                max(0, js.stringGetUTF8CString(string, characters.baseAddress, capacity) - 1)
            }
        }
    }
}
