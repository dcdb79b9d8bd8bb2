import CJavaScriptCore
import EspressoMartini
import Logging

/// The functions the prelude takes from the global object before any script runs: the cache (values as
/// JSON text both ways) and the log. They act for `ScriptCall.current`; without one (a script's top level
/// at load) the cache reads as empty and ignores writes.
enum HostFunctions {
    static let all: [(String, JSObjectCallAsFunctionCallback)] = [
        ("__em_cacheGet", cacheGet), ("__em_cacheSet", cacheSet), ("__em_cacheKeys", cacheKeys), ("__em_log", log),
    ]

    /// `__em_cacheGet(key)`: the value's JSON text, or `undefined`.
    private static let cacheGet: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, count >= 1, let key = arguments?[0] else { return js.valueMakeUndefined(context) }
        guard let value = call.cache.value(forKey: ScriptVM.text(js, context, key)) else { return js.valueMakeUndefined(context) }
        return makeString(js, context, value.compactText)
    }

    /// `__em_cacheSet(key, text)` stores the JSON text's value; `__em_cacheSet(key)` removes the key.
    private static let cacheSet: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, count >= 1, let arguments, let key = arguments[0] else { return js.valueMakeUndefined(context) }
        var value: JSONValue?
        if count >= 2, let text = arguments[1], case .success(let parsed) = call.parser.parse(Array(ScriptVM.text(js, context, text).utf8)) {
            value = parsed
        }
        call.cache.setValue(value, forKey: ScriptVM.text(js, context, key))
        return js.valueMakeUndefined(context)
    }

    /// `__em_cacheKeys()`: the keys as a JSON array's text.
    private static let cacheKeys: JSObjectCallAsFunctionCallback = { context, _, _, _, _, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current else { return makeString(js, context, "[]") }
        return makeString(js, context, JSONValue.array(call.cache.keys.map(JSONValue.string)).compactText)
    }

    /// `__em_log(level, text)`: one line in the server's log, with the exchange's route.
    private static let log: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        if let call = ScriptCall.current, count >= 2, let arguments, let level = arguments[0], let text = arguments[1] {
            let message = ScriptVM.text(js, context, text)
            call.logger.log(level: Logger.Level(rawValue: ScriptVM.text(js, context, level)) ?? .info, "script \(call.route): \(message)")
        }
        return js.valueMakeUndefined(context)
    }

    private static func makeString(_ js: JavaScriptCoreLibrary, _ context: JSContextRef, _ text: String) -> JSValueRef? {
        let string = ScriptVM.string(js, text)
        defer { js.stringRelease(string) }
        return js.valueMakeString(context, string)
    }
}
