import CJavaScriptCore
import EspressoMartini
import Logging

/// The functions the prelude takes from the global object before any script runs: the request's parts,
/// the cache (values as JSON text both ways) and the log. They act for `ScriptCall.current`; without one (a
/// script's top level at load) the request reads nothing, the cache reads as empty and ignores writes.
enum HostFunctions {
    static let all: [(String, JSObjectCallAsFunctionCallback)] = [
        ("__em_part", part), ("__em_cacheGet", cacheGet), ("__em_cacheSet", cacheSet), ("__em_cacheKeys", cacheKeys),
        ("__em_log", log),
    ]

    /// `__em_part(token * 16 + index)`: a part of the request (`RequestPart`) of the call `token` names, or
    /// `undefined` when that call is over. One number: each argument read is a call into the engine.
    private static let part: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, let job = call.job, count >= 1, let arguments,
            let code = Int(exactly: js.valueToNumber(context, arguments[0], nil)), code >> 4 == call.token,
            let part = RequestPart(rawValue: code & 15)
        else { return js.valueMakeUndefined(context) }
        return part.value(of: job, scratch: &call.scratch, js, context)
    }

    /// `__em_cacheGet(key)`: the value's JSON text, or `undefined`.
    private static let cacheGet: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, let cache = call.cache, count >= 1, let key = arguments?[0] else {
            return js.valueMakeUndefined(context)
        }
        let value = cache.value(forKey: ScriptVM.text(js, context, key))
        if cache.gaveUp { call.abandon() }
        guard let value else { return js.valueMakeUndefined(context) }
        return ScriptVM.makeString(js, context, value.compactText)
    }

    /// `__em_cacheSet(key, text)` stores the JSON text's value; `__em_cacheSet(key)` removes the key.
    private static let cacheSet: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, let cache = call.cache, count >= 1, let arguments, let key = arguments[0]
        else {
            return js.valueMakeUndefined(context)
        }
        var value: JSONValue?
        if count >= 2, let text = arguments[1],
            case .success(let parsed) = call.parser.parse(Array(ScriptVM.text(js, context, text).utf8))
        {
            value = parsed
        }
        cache.setValue(value, forKey: ScriptVM.text(js, context, key))
        if cache.gaveUp { call.abandon() }
        return js.valueMakeUndefined(context)
    }

    /// `__em_cacheKeys()`: the keys as a JSON array's text.
    private static let cacheKeys: JSObjectCallAsFunctionCallback = { context, _, _, _, _, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        guard let call = ScriptCall.current, let cache = call.cache else {
            return ScriptVM.makeString(js, context, "[]")
        }
        let keys = cache.keys
        if cache.gaveUp { call.abandon() }
        return ScriptVM.makeString(js, context, JSONValue.array(keys.map(JSONValue.string)).compactText)
    }

    /// `__em_log(level, text)`: one line in the server's log, with the exchange's route.
    private static let log: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let js = try? JavaScriptCoreLibrary.shared.get() else { return nil }
        if let call = ScriptCall.current, count >= 2, let arguments, let level = arguments[0], let text = arguments[1] {
            call.log(
                Logger.Level(rawValue: ScriptVM.text(js, context, level)) ?? .info, ScriptVM.text(js, context, text))
        }
        return js.valueMakeUndefined(context)
    }
}
