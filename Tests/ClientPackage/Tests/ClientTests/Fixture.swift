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
}
