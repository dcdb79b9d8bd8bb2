import EspressoMartiniClient
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixture trees beside this package, and the app's side of the tests: requests sent with URLSession.
enum Fixture {
    /// Tests/ClientPackage/Fixtures.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var tree: String { folder.appendingPathComponent("network-exchanges").path }

    /// A copy of the tree in a temporary folder, for tests that change it; removed by `remove(_:)`.
    static func copyOfTree() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-client-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("network-exchanges"), to: copy)
        return copy
    }

    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the app does: `method path` with a JSON body, in the server object's session; returns the status.
    @discardableResult
    static func send(
        _ server: MockServer, _ method: String, _ path: String, json: String? = nil
    ) async throws -> (status: Int, body: String) {
        var request = server.urlRequest(path, method: method)
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// An HTTP answer as the app sees it.
    struct Answer {
        let status: Int
        /// By lower-case name.
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `GET path`, in the server object's session.
    static func get(_ server: MockServer, _ path: String, headers: [String: String] = [:]) async throws -> Answer {
        try await fetch(server, "GET", path, headers: headers)
    }

    /// `method path` with `body` and `headers`, in the server object's session.
    static func fetch(
        _ server: MockServer, _ method: String, _ path: String, body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = server.urlRequest(path, method: method)
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            fields[String(describing: name).lowercased()] = String(describing: value)
        }
        return Answer(status: http?.statusCode ?? 0, headers: fields, body: data)
    }

    /// A fresh temporary folder; removed by `remove(_:)`.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-client-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A file's text, for byte-exact comparisons.
    static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
}
