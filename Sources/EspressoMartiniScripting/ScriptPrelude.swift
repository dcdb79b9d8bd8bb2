/// The JavaScript that runs in every script VM before any script: it gives scripts `Response`, `Body`
/// and `console` (doc/scripts.md), keeps the host functions the VM installs (`__em_*`) to itself, and
/// evaluates to the object of functions through which the VM does everything else:
///
/// - `call(response, token, url)` makes the request object, whose parts are read from the server when a
///   script first reads them (`__em_part(token * 16 + index)`: `token` names the call, so that a request
///   kept past its call cannot read another's), calls `response(request, cache)` and answers one text, its
///   fields apart by NUL (a single string is the one value the VM reads with one call into the engine):
///   `status\0kind\0contentType\0data\0count\0name\0value\0…body` — `kind` a number (see `setBody`), the
///   content type and the template data as JSON text (empty when there is none: no JSON text holds a NUL
///   unescaped), `count` headers, then the body's text (or the path of a file), which may hold NUL itself;
///   or, when the script throws or returns something that is not a `Response`, the text
///   `{"error", "line", "column"}`.
/// - `describe(thrown, url)`: `{"error", "line", "column"}` for a value a compilation threw.
/// - `yaml(jsonText)`: the YAML text of a JSON value (a YAML body rendered with template data).
enum ScriptPrelude {
    /// What the VM wraps each script in: the script's declarations stay its own, and the wrapper hands
    /// back its `response` function. The prefix sits on the script's first line, so line numbers stay the
    /// script's own; only columns on that first line move, by `prefix`'s length.
    static let prefix = "(function(){"
    static let suffix = "\n;return typeof response === \"function\" ? response : undefined;})"

    static let source = #"""
        (function () {
        "use strict";
        const hostCacheGet = globalThis.__em_cacheGet, hostCacheSet = globalThis.__em_cacheSet;
        const hostCacheKeys = globalThis.__em_cacheKeys, hostLog = globalThis.__em_log, hostPart = globalThis.__em_part;
        for (const name of ["__em_cacheGet", "__em_cacheSet", "__em_cacheKeys", "__em_log", "__em_part"]) delete globalThis[name];
        const answerLimit = 64 * 1024 * 1024;
        const wrapperColumns = \#(prefix.utf8.count);

        class ResultError extends Error {}

        function describeValue(value) {
            if (value === undefined) return "undefined";
            if (value === null) return "null";
            if (Array.isArray(value)) return "an array";
            if (typeof value === "object") return "an object that is not a Response";
            return "a " + typeof value;
        }

        function yamlScalar(value) {
            if (typeof value === "string") return JSON.stringify(value);
            if (value === null) return "null";
            return String(value);
        }
        function yamlKey(key) { return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key); }
        function yamlAfterColon(value, indent) {
            if (value !== null && typeof value === "object") {
                const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
                if (empty) return Array.isArray(value) ? " []" : " {}";
                return "\n" + yamlLines(value, indent);
            }
            return " " + yamlScalar(value);
        }
        function yamlLines(value, indent) {
            if (Array.isArray(value)) return value.map(item => indent + "-" + yamlAfterColon(item, indent + "  ")).join("\n");
            return Object.keys(value).map(key => indent + yamlKey(key) + ":" + yamlAfterColon(value[key], indent + "  ")).join("\n");
        }
        function toYAML(value) {
            const text = JSON.stringify(value === undefined ? null : value);
            const plain = text === undefined ? null : JSON.parse(text);
            return yamlAfterColon(plain, "").replace(/^[ \n]/, "") + "\n";
        }

        function optionalText(value) { return value === undefined || value === null ? null : String(value); }

        // `value`: a JSON or YAML body's value, a text, or a file's path.
        class Body {
            constructor(kind, value, contentType, data) { this.kind = kind; this.value = value; this.contentType = contentType; this.data = data; }
            static json(value, data) { return new Body("json", value, null, data); }
            static text(text, data) { return new Body("text", optionalText(text) ?? "", null, data); }
            static yaml(value, data) { return new Body("yaml", value, null, data); }
            static file(path, contentType) { return new Body("file", String(path), optionalText(contentType), undefined); }
            static template(path, contentType, data) { return new Body("template", String(path), optionalText(contentType), data); }
            static empty() { return new Body("none", undefined, null, undefined); }
        }

        class Response {
            constructor(status, body, headers) { this.status = status; this.body = body; this.headers = headers; }
            static raw(status, body, headers) { return new Response(status, body, headers); }
            static ok(body, headers) { return new Response(200, body, headers); }
            static created(body, headers) { return new Response(201, body, headers); }
            static accepted(body, headers) { return new Response(202, body, headers); }
            static noContent(headers) { return new Response(204, undefined, headers); }
            static movedPermanently(url, headers) { return Response.redirect(301, url, headers); }
            static temporaryRedirect(url, headers) { return Response.redirect(307, url, headers); }
            static permanentRedirect(url, headers) { return Response.redirect(308, url, headers); }
            static redirect(status, url, headers) {
                return new Response(status, undefined, Object.assign({}, headers, url === undefined ? {} : {Location: String(url)}));
            }
            static notModified(headers) { return new Response(304, undefined, headers); }
            static badRequest(body, headers) { return new Response(400, body, headers); }
            static unauthorised(body, headers) { return new Response(401, body, headers); }
            static unauthorized(body, headers) { return new Response(401, body, headers); }
            static forbidden(body, headers) { return new Response(403, body, headers); }
            static notFound(body, headers) { return new Response(404, body, headers); }
            static notAcceptable(body, headers) { return new Response(406, body, headers); }
            static conflict(body, headers) { return new Response(409, body, headers); }
            static tooManyRequests(body, headers) { return new Response(429, body, headers); }
            static internalServerError(body, headers) { return new Response(500, body, headers); }
            static serviceUnavailable(body, headers) { return new Response(503, body, headers); }
        }

        // A key the cache does not hold reads null, as in Voodoo: "Hello " + cache.name gives "Hello null".
        const cache = new Proxy({}, {
            get(target, key) {
                if (typeof key !== "string") return undefined;
                const text = hostCacheGet(key);
                return text === undefined ? null : JSON.parse(text);
            },
            set(target, key, value) {
                if (typeof key !== "string") return false;
                const text = value === undefined ? undefined : JSON.stringify(value);
                if (text === undefined) hostCacheSet(key); else hostCacheSet(key, text);
                return true;
            },
            deleteProperty(target, key) { if (typeof key === "string") hostCacheSet(key); return true; },
            has(target, key) { return typeof key === "string" && hostCacheGet(key) !== undefined; },
            ownKeys() { return JSON.parse(hostCacheKeys()); },
            getOwnPropertyDescriptor(target, key) {
                const text = typeof key === "string" ? hostCacheGet(key) : undefined;
                return text === undefined ? undefined : {value: JSON.parse(text), writable: true, enumerable: true, configurable: true};
            },
            defineProperty(target, key, descriptor) {
                if (typeof key !== "string") return false;
                const text = JSON.stringify(descriptor.value);
                if (text === undefined) hostCacheSet(key); else hostCacheSet(key, text);
                return true;
            },
        });

        function logText(values) {
            return values.map(value => {
                if (typeof value === "string") return value;
                try { const text = JSON.stringify(value); if (text !== undefined) return text; } catch (e) {}
                return String(value);
            }).join(" ");
        }
        const console = Object.freeze({
            log: (...values) => hostLog("info", logText(values)),
            info: (...values) => hostLog("info", logText(values)),
            debug: (...values) => hostLog("debug", logText(values)),
            warn: (...values) => hostLog("warning", logText(values)),
            error: (...values) => hostLog("error", logText(values)),
        });
        Object.defineProperty(globalThis, "Response", {value: Response});
        Object.defineProperty(globalThis, "Body", {value: Body});
        Object.defineProperty(globalThis, "console", {value: console, configurable: true});

        // `part(name)` reads a part of the request.
        function graphQLRequest(part) {
            let source = null;
            const queryParameters = part("queryParameters");
            if (part("method") === "GET" && typeof queryParameters.query === "string") {
                let variables = null;
                try { variables = queryParameters.variables ? JSON.parse(queryParameters.variables) : null; } catch (e) {}
                source = {query: queryParameters.query, operationName: queryParameters.operationName, variables: variables};
            } else {
                const bodyJSON = part("bodyJSON");
                if (bodyJSON !== null && typeof bodyJSON === "object" && typeof bodyJSON.query === "string") source = bodyJSON;
            }
            if (source === null) return null;
            return {operationName: typeof source.operationName === "string" ? source.operationName : null, query: source.query, variables: source.variables ?? null};
        }

        // The request: an object whose parts are read from the server when a script first reads them, then
        // kept as its own properties (a script may change them, as any object's). A proxy, so that making one
        // costs next to nothing: reading, listing, copying and serializing it all work as for a plain object.
        // The indexes are the server's (`RequestPart`).
        const callKey = Symbol("call");
        const partNames = ["method", "headers", "path", "query", "body", "pathComponents", "pathParameters", "queryParameters", "bodyJSON",
                           "bodyYAML", "formParameters", "graphQLRequest", "call"];
        const partIndexes = Object.create(null);
        partNames.forEach((name, index) => { partIndexes[name] = index; });
        // The part `name` of the request whose proxy's target is `target`, read now if it was not yet.
        function part(target, name) {
            if (Object.hasOwn(target, name)) return target[name];
            const index = partIndexes[name];
            if (index === undefined) return undefined;
            const value = name === "graphQLRequest" ? graphQLRequest(other => part(target, other)) : hostPart(target[callKey] * 16 + index);
            if (value === undefined) throw new Error("request." + name + " can be read only while its own call runs; keep what a later call needs in cache");
            target[name] = value;
            return value;
        }
        const requestHandler = {
            get(target, key) {
                const value = target[key];
                return value !== undefined || typeof key !== "string" ? value : part(target, key);
            },
            has(target, key) { return key in target || (typeof key === "string" && partIndexes[key] !== undefined); },
            ownKeys(target) {
                return partNames.concat(Reflect.ownKeys(target).filter(key => key !== callKey && partIndexes[key] === undefined));
            },
            getOwnPropertyDescriptor(target, key) {
                if (key === callKey) return undefined;
                if (typeof key === "string") part(target, key);
                return Reflect.getOwnPropertyDescriptor(target, key);
            },
            deleteProperty(target, key) { if (key !== callKey) delete target[key]; return true; },
        };

        // The headers as "count\0name\0value\0…", a list's each value under its name: the VM splits the text on
        // NUL, which no header can hold.
        function headerText(headers) {
            if (headers === undefined || headers === null) return "0\0";
            if (typeof headers !== "object") throw new ResultError("a Response's headers must be an object such as {\"X-Id\": \"1\"}, got " + describeValue(headers));
            let text = "", count = 0;
            const add = (name, value) => {
                if (name.includes("\0") || value.includes("\0")) {
                    throw new ResultError("the header " + JSON.stringify(name) + " cannot be sent: a name is a token and a value has no line break");
                }
                text += name + "\0" + value + "\0";
                count += 1;
            };
            for (const name of Object.keys(headers)) {
                const value = headers[name];
                if (Array.isArray(value)) { for (const each of value) add(name, String(each)); }
                else if (value !== undefined && value !== null) add(name, String(value));
            }
            return count + "\0" + text;
        }

        function dataText(data) { return data === undefined || data === null ? null : JSON.stringify(data) ?? null; }
        function jsonText(value) { return JSON.stringify(value) ?? "null"; }

        // What `setBody` finds in a call's body: its text (or its file's path), content type and template data.
        // Kept here rather than in an object made per call: the engine runs without its compilers, and each
        // object and call costs the interpreter its full price. The last call's body stays referenced until the
        // next call, as an answer made per call stayed until the next collection (an idle VM collects nothing).
        let bodyText = null, bodyType = null, bodyData = null;
        // The fields after the kind for no content type, no data and no header: "\0" + "" + "\0" + "" + "\0" + "0\0".
        const noMiddle = "\0\0\0" + "0\0";

        // Sets `bodyText`, `bodyType` and `bodyData` and gives the body's kind: "0" none, "1" text, "2" JSON, "3"
        // YAML, "4" file, "5" template (`ScriptResponse.Body`). No calls of helpers here: each call costs the
        // interpreter more than the work it does.
        function setBody(body) {
            bodyText = null; bodyType = null; bodyData = null;
            if (body instanceof Body) {
                let data;
                switch (body.kind) {
                case "json":
                    bodyText = JSON.stringify(body.value) ?? "null";
                    data = body.data;
                    bodyData = data === undefined || data === null ? null : JSON.stringify(data) ?? null;
                    return "2";
                case "text":
                    bodyText = body.value;
                    data = body.data;
                    bodyData = data === undefined || data === null ? null : JSON.stringify(data) ?? null;
                    return "1";
                case "yaml": bodyData = dataText(body.data); bodyText = bodyData === null ? toYAML(body.value) : jsonText(body.value); return "3";
                case "file": bodyText = body.value; bodyType = body.contentType; return "4";
                case "template": bodyText = body.value; bodyType = body.contentType; bodyData = dataText(body.data); return "5";
                case "none": return "0";
                }
            }
            if (typeof body === "string") { bodyText = body; return "1"; }
            const text = body === null ? undefined : JSON.stringify(body);
            if (text === undefined) return "0";
            bodyText = text;
            return "2";
        }

        function scriptPlace(thrown, url) {
            let line = null, column = null;
            if (thrown !== null && typeof thrown === "object") {
                if (thrown.sourceURL === url && typeof thrown.line === "number") {
                    line = thrown.line;
                    column = typeof thrown.column === "number" ? thrown.column : null;
                } else if (typeof thrown.stack === "string") {
                    for (const frame of thrown.stack.split("\n")) {
                        const at = frame.lastIndexOf(url + ":");
                        if (at < 0) continue;
                        const numbers = frame.slice(at + url.length + 1).split(":");
                        line = parseInt(numbers[0], 10) || null;
                        column = parseInt(numbers[1], 10) || null;
                        break;
                    }
                }
            }
            if (line === 1 && column !== null) column = Math.max(1, column - wrapperColumns);
            return {line: line, column: column};
        }

        function describe(thrown, url) {
            let message;
            try {
                if (thrown instanceof ResultError) message = thrown.message;
                else if (thrown instanceof Error) message = thrown.name + ": " + thrown.message;
                else if (typeof thrown === "string") message = "the script threw " + JSON.stringify(thrown);
                else { const text = JSON.stringify(thrown); message = "the script threw " + (text === undefined ? String(thrown) : text); }
            } catch (e) {
                message = "the script threw a value that cannot be shown";
            }
            const place = thrown instanceof ResultError ? {line: null, column: null} : scriptPlace(thrown, url);
            return JSON.stringify({error: message, line: place.line, column: place.column});
        }

        function call(response, token, url) {
            try {
                const request = new Proxy({[callKey]: token}, requestHandler);
                const result = response(request, cache);
                if (!(result instanceof Response)) {
                    throw new ResultError("response(request, cache) must return a Response such as Response.ok(Body.json({...})), but it returned " + describeValue(result));
                }
                const status = result.status;
                // Number.isInteger(status), without a call.
                if (typeof status !== "number" || !(status >= 200 && status <= 599) || status % 1 !== 0) {
                    throw new ResultError("a Response's status must be an integer from 200 to 599, got " + JSON.stringify(status));
                }
                const kind = setBody(result.body);
                const text = typeof bodyText === "string" ? bodyText : "";
                if (text.length > answerLimit) throw new ResultError("the response is larger than the 64 MiB a script may answer");
                const contentType = typeof bodyType === "string" ? JSON.stringify(bodyType) : "";
                const headers = result.headers;
                // Most answers have no content type, data or headers: their middle fields are one constant (each
                // + costs the interpreter a string of its own).
                if (contentType === "" && bodyData === null && (headers === undefined || headers === null)) return status + "\0" + kind + noMiddle + text;
                return status + "\0" + kind + "\0" + contentType + "\0" + (bodyData ?? "") + "\0"
                    + (headers === undefined || headers === null ? "0\0" : headerText(headers)) + text;
            } catch (thrown) {
                return describe(thrown, url);
            }
        }

        return {call: call, describe: describe, yaml: text => toYAML(JSON.parse(text))};
        })()
        """#
}
