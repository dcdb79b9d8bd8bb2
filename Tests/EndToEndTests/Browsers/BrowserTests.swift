import Foundation
import Glibc
import Testing

/// doc/browsers-and-https.md in a real browser: a page served by one espressomartini (one origin) fetches JSON from another
/// (a different port, so another origin) in headless Chromium, which enforces CORS as any browser does.
@Suite("a web page on another origin")
struct BrowserTests {
    static let chromium = ExternalTool.path(of: "chromium")

    /// The page's script: a cross-origin `fetch` with credentials and a header of its own (so the browser
    /// sends a preflight first), whose outcome it writes into `#result`.
    static func page(fetching url: String) -> String {
        """
        <!doctype html>
        <html><body><pre id="result">waiting</pre><script>
        const show = (text) => { document.getElementById("result").textContent = text; };
        fetch("\(url)", {credentials: "include", headers: {"X-Client": "browser-test"}})
          .then((response) => response.text().then((body) => show(["fetched", response.status, response.headers.get("X-Request-Id"), body].join(" "))))
          .catch((error) => show(["failed", error.name].join(" ")));
        </script></body></html>
        """
    }

    /// Serves an API tree (`"cors"` as given) and a page tree whose page fetches from it; returns what
    /// Chromium shows in `#result` once the page has run.
    static func result(cors: Bool) async throws -> String {
        let api = try TemporaryTree(
            exchanges: [
                "api/fruit/GET/configuration.json":
                    #"{"body": {"fruit": "mango"}, "headers": {"X-Request-Id": "r-42"}}"#
            ],
            configuration: #"{"cors": \#(cors)}"#
        )
        defer { api.remove() }
        let apiServer = try await ServerProcess.serving(api)
        defer { apiServer.stop() }
        let site = try TemporaryTree(exchanges: [
            "index.html/GET/configuration.json": #"{"response_file": "index.html"}"#,
            "index.html/GET/index.html": .text(page(fetching: "http://127.0.0.1:\(apiServer.port)/api/fruit")),
        ])
        defer { site.remove() }
        let siteServer = try await ServerProcess.serving(site)
        defer { siteServer.stop() }

        let profile = site.url.appendingPathComponent("chromium-profile")
        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--virtual-time-budget=5000",
        ]
        if getuid() == 0 { arguments.append("--no-sandbox") }  // Chromium refuses to run as root with its sandbox
        let outcome = try await ExternalTool.run(
            "chromium", arguments + ["--dump-dom", "http://127.0.0.1:\(siteServer.port)/index.html"], timeout: 60)
        try #require(outcome.status == 0, "chromium failed: \(outcome)")
        let dom = outcome.standardOutput
        guard let start = dom.range(of: #"<pre id="result">"#), let end = dom[start.upperBound...].range(of: "</pre>")
        else {
            Issue.record("no #result in the page Chromium shows: \(dom)")
            return ""
        }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test(
        "with cors, the page gets the JSON and an exposed header",
        .enabled(if: chromium != nil, "chromium is not installed (make test-deps installs it)"))
    func fetchesAcrossOrigins() async throws {
        #expect(try await Self.result(cors: true) == #"fetched 200 r-42 {"fruit":"mango"}"#)
    }

    @Test(
        "without cors, the browser refuses the answer",
        .enabled(if: chromium != nil, "chromium is not installed (make test-deps installs it)"))
    func refusedWithoutCORS() async throws {
        #expect(try await Self.result(cors: false) == "failed TypeError")
    }
}
