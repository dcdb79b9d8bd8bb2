import Foundation
import Testing

/// `import openapi` on the largest public descriptions (GitHub's, Stripe's, Kubernetes'): each imports, loads
/// and answers what a user of its tree sends first.
@Suite(
    "import openapi: the largest public descriptions",
    .enabled(
        if: ["github-api.github.com.json", "stripe-spec3.yaml", "kubernetes-swagger.json"].allSatisfy {
            OpenAPIFixtures.publicDescription($0) != nil
        },
        "../shared/data/openapi-public/ is not beside this checkout"))
struct PublicDescriptionTests {
    /// Imports `description` into `work/tree` and serves it.
    static func serve(_ description: String, in work: TemporaryTree) async throws -> ServerProcess {
        let spec = try #require(OpenAPIFixtures.publicDescription(description))
        let imported = try await OpenAPIFixtures.importing(spec, in: work.url)
        #expect(imported.exitCode == 0, "\(imported)")
        return try await ServerProcess.start(
            ["run", "--requests-folder", "tree", "--port", "0", "--log-level", "WARNING"], in: work.url)
    }

    @Test("GitHub: a ref, a file path and a branch sent with %2F are one parameter each")
    func githubEncodedSlashes() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let server = try await Self.serve("github-api.github.com.json", in: work)
        defer { server.stop() }
        for (method, target) in [
            ("PATCH", "/repos/o/r/git/refs/heads%2FfeatureA"), ("GET", "/repos/o/r/contents/docs%2FREADME.md"),
            ("GET", "/repos/o/r/branches/feature%2Fx"), ("GET", "/repos/o/r/branches/feature%2Fx/protection"),
        ] {
            let response = try await server.client.send(method, target)
            #expect(response.statusCode == 200, "\(method) \(target): \(response)")
        }
        let explained = try await server.client.get(
            "/__espressomartini/explain?method=PATCH&path=%2Frepos%2Fo%2Fr%2Fgit%2Frefs%2Fheads%252FfeatureA")
        #expect(explained.text.contains(#""route":"/repos/{owner}/{repo}/git/refs/{ref}""#), "\(explained)")
    }

    @Test("Kubernetes: a proxied path sent with %2F is one {path}")
    func kubernetesProxyPath() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let server = try await Self.serve("kubernetes-swagger.json", in: work)
        defer { server.stop() }
        let response = try await server.client.get("/api/v1/namespaces/default/pods/web/proxy/a%2Fb")
        #expect(response.statusCode == 200, "\(response)")
    }

    /// Stripe's 468 operations hold 5 148 `Prefer` regexes of 11 patterns and 5 148 answers reading one error
    /// file per operation, all alike: each pattern is compiled once and each content kept once. Before, the
    /// server held 161 MiB; `make bench` measures the start-up and memory of this tree.
    @Test(
        "Stripe: the served tree stays small", .enabled(if: !Sanitizer.isActive, "sanitizers keep freed memory"))
    func stripeMemory() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let server = try await Self.serve("stripe-spec3.yaml", in: work)
        defer { server.stop() }
        let balance = try await server.client.get("/v1/balance")
        #expect(balance.statusCode == 200, "\(balance)")
        let error = try await server.client.get("/v1/balance", headers: [("Prefer", "code=404")])
        #expect(error.statusCode == 404 && error.text.contains("\"error\""), "\(error)")
        // Listening means the small files are read; a second lets the watcher settle.
        try await Task.sleep(for: .seconds(1))
        let resident = try #require(ProcessStatus.residentKiB(server.pid))
        #expect(resident < 64 * 1024, "the Stripe tree holds \(resident / 1024) MiB resident")
    }
}
