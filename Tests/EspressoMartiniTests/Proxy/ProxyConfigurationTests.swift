@testable import EspressoMartini
import Testing

/// `"proxy"`, `"admin_token"` and `"admin_access"` in the server configuration, and the target URL.
@Suite struct ProxyConfigurationTests {
    @Test(arguments: [
        ("https://api.example.com", "https://api.example.com", "https://api.example.com/users?page=2"),
        ("http://127.0.0.1:9000/v2/", "http://127.0.0.1:9000/v2", "http://127.0.0.1:9000/v2/users?page=2"),
        ("HTTP://[::1]:8443/api", "http://[::1]:8443/api", "http://[::1]:8443/api/users?page=2"),
    ])
    func targetsAreRead(_ text: String, _ description: String, _ forwarded: String) throws {
        let target = try ProxyTarget.parse(text).get()
        #expect(target.description == description)
        #expect(target.url(for: "/users?page=2") == forwarded)
    }

    @Test(arguments: [
        ("ftp://example.com", "is not an http:// or https:// URL"),
        (
            "https://example.com/?a=1",
            "has a query or a fragment; give the target's base URL only, such as https://api.example.com/v2"
        ),
        ("https://user:pass@example.com", "holds credentials; send them as a header with proxy 'headers' instead"),
        ("http://example.com:99999", "has the port '99999'; a port is a number from 1 to 65535"),
        ("http://exa mple.com", "has no host, or spaces or control characters in it"),
    ])
    func badTargetsSayWhy(_ text: String, _ problem: String) {
        guard case .failure(let failure) = ProxyTarget.parse(text) else {
            Issue.record("\(text) was read as a target")
            return
        }
        #expect(failure.message.hasSuffix(problem), "\(failure.message)")
    }

    @Test func everyProxyKeyIsRead() throws {
        let (configuration, diagnostics, root) = try ServerConfigurationTests.load(
            """
            {"proxy": {"target": "https://api.example.com", "timeout": 2.5, "verify_tls": false, "ca_file": "server.json",
                       "headers": {"X-Api-Key": "k"}, "record": true},
             "admin_token": "t0ken", "admin_access": "any"}
            """)
        #expect(diagnostics == [])
        let proxy = try #require(configuration.proxy)
        #expect(proxy.target.description == "https://api.example.com")
        #expect(proxy.timeout == 2.5 && !proxy.verifiesTLS && proxy.records && proxy.forwards == .misses)
        #expect(proxy.certificateAuthorities == root + "/config/server.json")
        #expect(proxy.headers == [HTTPHeader(name: "X-Api-Key", value: "k")])
        #expect(configuration.adminToken == "t0ken" && configuration.adminAccess == .any)
    }

    @Test func theDefaults() throws {
        let (configuration, diagnostics, _) = try ServerConfigurationTests.load(
            #"{"proxy": {"target": "http://127.0.0.1:1"}}"#)
        #expect(diagnostics == [])
        let proxy = try #require(configuration.proxy)
        #expect(
            proxy.timeout == 30 && proxy.verifiesTLS && !proxy.records && proxy.headers.isEmpty
                && proxy.certificateAuthorities == nil)
        #expect(configuration.adminToken == nil && configuration.adminAccess == .loopback)
    }

    @Test(arguments: [
        (
            #"{"proxy": "https://a.example"}"#,
            "1:11: error: 'proxy' must be an object such as {\"target\": \"https://api.example.com\"}, found a string"
        ),
        (
            #"{"proxy": {}}"#,
            "1:11: error: 'proxy' has no 'target'; give the URL to forward to, such as \"https://api.example.com\""
        ),
        (
            #"{"proxy": {"target": "a.example"}}"#,
            "1:22: error: 'proxy' 'target' 'a.example' is not an http:// or https:// URL"
        ),
        (
            #"{"proxy": {"target": "http://a", "timeout": 0}}"#,
            "1:45: error: 'proxy' 'timeout' 0 is out of range; use 0.1 to 3600 seconds"
        ),
        (
            #"{"proxy": {"target": "http://a", "record": "yes"}}"#,
            "1:44: error: 'proxy' 'record' must be true or false, found a string"
        ),
        (
            #"{"proxy": {"target": "http://a", "ca_file": "absent.pem"}}"#,
            "1:45: error: 'proxy' 'ca_file' $TMP/config/absent.pem does not exist or is not a file; give a PEM file of certificate authorities"
        ),
        (
            #"{"proxy": {"target": "http://a", "tiemout": 1}}"#,
            "1:34: warning: unknown key 'tiemout' is ignored; did you mean 'timeout'?"
        ),
        (
            #"{"admin_token": ""}"#,
            "1:17: error: 'admin_token' must be a non-empty string of visible ASCII characters (no spaces), as sent in 'Authorization: Bearer TOKEN'"
        ),
        (
            #"{"admin_access": "lan"}"#,
            "1:18: error: 'admin_access' must be \"loopback\" (the default: only clients on this machine) or \"any\" (every client), found \"lan\""
        ),
    ])
    func mistakesAreReportedWithTheirPosition(_ json: String, _ message: String) throws {
        let (_, diagnostics, _) = try ServerConfigurationTests.load(json)
        #expect(diagnostics == [ServerConfigurationTests.file + ":" + message])
    }
}
