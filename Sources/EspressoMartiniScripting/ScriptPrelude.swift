/// The JavaScript that runs in every script VM before any script: it gives scripts `Response`, `Body`
/// and `console` (§12), keeps the host functions the VM installs (`__em_*`) to itself, and evaluates to
/// one entry function through which the VM does everything else, so that Swift and the engine exchange
/// text only:
///
/// - `entry("call", response, requestText, url, body)`: builds the request object from the JSON text the
///   server made and the body (a string, or `undefined`), calls `response(request, cache)` and answers JSON text: `{"status", "headers": [[name, value]],
///   "body": {"kind": "none" | "text" | "json" | "yaml" | "file" | "template", …}}`, or `{"error", "line",
///   "column"}` when the script throws or returns something that is not a `Response`.
/// - `entry("describe", thrown, url)`: `{"error", "line", "column"}` for a value a compilation threw.
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
    const hostCacheKeys = globalThis.__em_cacheKeys, hostLog = globalThis.__em_log;
    delete globalThis.__em_cacheGet; delete globalThis.__em_cacheSet; delete globalThis.__em_cacheKeys; delete globalThis.__em_log;
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

    class Body {
        constructor(kind, fields) { this.kind = kind; Object.assign(this, fields); Object.freeze(this); }
        static json(value) { return new Body("json", {value: value}); }
        static text(text) { return new Body("text", {text: text === undefined || text === null ? "" : String(text)}); }
        static yaml(value) { return new Body("yaml", {text: toYAML(value)}); }
        static file(path, contentType) {
            return new Body("file", {path: String(path), contentType: contentType == null ? null : String(contentType)});
        }
        static template(path, contentType, data) {
            return new Body("template", {path: String(path), contentType: contentType == null ? null : String(contentType), data: data});
        }
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

    const cache = new Proxy({}, {
        get(target, key) {
            if (typeof key !== "string") return undefined;
            const text = hostCacheGet(key);
            return text === undefined ? undefined : JSON.parse(text);
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

    function isJSONType(type) { return type === "application/json" || type.endsWith("+json"); }

    function graphQLRequest(request) {
        let source = null;
        if (request.method === "GET" && typeof request.queryParameters.query === "string") {
            let variables = null;
            try { variables = request.queryParameters.variables ? JSON.parse(request.queryParameters.variables) : null; } catch (e) {}
            source = {query: request.queryParameters.query, operationName: request.queryParameters.operationName, variables: variables};
        } else if (request.bodyJSON !== null && typeof request.bodyJSON === "object" && typeof request.bodyJSON.query === "string") {
            source = request.bodyJSON;
        }
        if (source === null) return null;
        return {operationName: typeof source.operationName === "string" ? source.operationName : null, query: source.query, variables: source.variables ?? null};
    }

    function buildRequest(fields, body) {
        const request = {
            method: fields.method, headers: fields.headers, path: fields.path, query: fields.query, body: body ?? null,
            pathComponents: ["/"].concat(fields.path.split("/").filter(part => part.length > 0)),
            pathParameters: fields.pathParameters, queryParameters: fields.queryParameters,
            bodyJSON: null, bodyYAML: fields.bodyYAML ?? null, formParameters: fields.formParameters, graphQLRequest: null, call: fields.call,
        };
        if (request.body !== null && isJSONType(fields.contentType)) {
            try { request.bodyJSON = JSON.parse(request.body); } catch (e) {}
        }
        request.graphQLRequest = graphQLRequest(request);
        return request;
    }

    function headerList(headers) {
        const list = [];
        if (headers === undefined || headers === null) return list;
        if (typeof headers !== "object") throw new ResultError("a Response's headers must be an object such as {\"X-Id\": \"1\"}, got " + describeValue(headers));
        for (const name of Object.keys(headers)) {
            const value = headers[name];
            if (Array.isArray(value)) { for (const each of value) list.push([name, String(each)]); }
            else if (value !== undefined && value !== null) list.push([name, String(value)]);
        }
        return list;
    }

    function bodyFields(body, request) {
        if (body === undefined || body === null) return {kind: "none"};
        if (body instanceof Body) {
            switch (body.kind) {
            case "json": { const text = JSON.stringify(body.value); return {kind: "json", text: text === undefined ? "null" : text}; }
            case "text": case "yaml": return {kind: body.kind, text: body.text};
            case "file": return {kind: "file", path: body.path, contentType: body.contentType};
            case "template": {
                const seen = Object.assign({request: request, call: request.call}, body.data);
                return {kind: "template", path: body.path, contentType: body.contentType, data: seen};
            }
            }
        }
        if (typeof body === "string") return {kind: "text", text: body};
        const text = JSON.stringify(body);
        return text === undefined ? {kind: "none"} : {kind: "json", text: text};
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

    function call(response, requestText, url, body) {
        try {
            const request = buildRequest(JSON.parse(requestText), body);
            const result = response(request, cache);
            if (!(result instanceof Response)) {
                throw new ResultError("response(request, cache) must return a Response such as Response.ok(Body.json({...})), but it returned " + describeValue(result));
            }
            const status = result.status;
            if (!Number.isInteger(status) || status < 200 || status > 599) {
                throw new ResultError("a Response's status must be an integer from 200 to 599, got " + JSON.stringify(status));
            }
            const answer = JSON.stringify({status: status, headers: headerList(result.headers), body: bodyFields(result.body, request)});
            if (answer.length > answerLimit) throw new ResultError("the response is larger than the 64 MiB a script may answer");
            return answer;
        } catch (thrown) {
            return describe(thrown, url);
        }
    }

    return function entry(operation, first, second, third, fourth) {
        return operation === "call" ? call(first, second, third, fourth) : describe(first, second);
    };
    })()
    """#
}
