import EspressoMartini
import EspressoMartiniScripting
import EspressoMartiniJansson
import Testing

/// The request as JSON text for the engine (§12's wrapper is built from it with the body beside it).
@Suite struct ScriptRequestTests {
    static func json(
        _ method: String, _ path: String, query: String = "", headers: [(String, String)] = [], body: String? = nil, route: String, call: Int = 1
    ) -> String {
        let request = Request(
            method: method, path: path, rawQuery: query, headers: RequestHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) }),
            body: body.map { Array($0.utf8) }
        )
        return ScriptRequest.json(RequestModel(request, route: RoutePattern(parsing: route), parser: JanssonParser()), call: call)
    }

    @Test("every field, repeated names as arrays, lower-case header names, the media type", arguments: [
        (json("GET", "/users/42", route: "/users/{id}"),
         #"{"method":"GET","path":"/users/42","query":null,"headers":{},"pathParameters":{"id":"42"},"queryParameters":{},"formParameters":{},"contentType":"","call":1}"#),
        (json("POST", "/a", query: "t=1&t=2&q=caf%C3%A9+x", headers: [("X-Tag", "a"), ("x-tag", "b"), ("Content-Type", "Application/JSON; charset=utf-8")], body: #"{"a":1}"#, route: "/a", call: 7),
         #"{"method":"POST","path":"/a","query":"t=1&t=2&q=caf%C3%A9+x","headers":{"x-tag":["a","b"],"content-type":"Application/JSON; charset=utf-8"},"pathParameters":{},"queryParameters":{"t":["1","2"],"q":"café x"},"formParameters":{},"contentType":"application/json","call":7}"#),
        (json("PUT", "/f", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "a=1&b=x%26y&a=2", route: "/f"),
         #"{"method":"PUT","path":"/f","query":null,"headers":{"content-type":"application/x-www-form-urlencoded"},"pathParameters":{},"queryParameters":{},"formParameters":{"a":["1","2"],"b":"x&y"},"contentType":"application/x-www-form-urlencoded","call":1}"#),
    ])
    func fields(_ text: String, _ expected: String) {
        #expect(text == expected)
    }
}
