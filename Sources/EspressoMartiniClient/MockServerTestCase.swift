#if canImport(XCTest)
    import Foundation
    import XCTest

    /// An XCTest base class: one server for the class, started before its first test and stopped after its
    /// last, and for each test a fresh session view of it in `server`, with its own stubs, counters, journal
    /// and cache. Override `exchanges` (or `requestsFolder`) to say what it serves.
    ///
    /// ```swift
    /// final class ProfileTests: MockServerTestCase {
    ///     override class var exchanges: [NetworkExchange] { [user] }
    ///     func testShowsTheName() async throws { … server.baseURL, server.sessionHeaders … }
    /// }
    /// ```
    ///
    /// A subclass that overrides `setUp()` calls `super.setUp()` first.
    open class MockServerTestCase: XCTestCase {
        /// What the class's server serves, unless `requestsFolder` names a tree.
        open class var exchanges: [NetworkExchange] { [] }
        /// A tree to serve instead of `exchanges`.
        open class var requestsFolder: String? { nil }
        /// A server configuration file.
        open class var serverConfiguration: String? { nil }
        /// The `espressomartini` binary; found on `PATH` when nil.
        open class var executable: String? { nil }

        /// This test's session view of the class's server.
        public private(set) var server: MockServer!

        /// The class's server (or why it did not start), by class.
        private static let servers = TestCaseServers()

        override open class func setUp() {
            super.setUp()
            servers.set(
                Result {
                    // Blocking is fine here: XCTest runs the class's set-up, synchronous, before any of its tests.
                    try MockServer.launch(
                        requestsFolder.map { .tree($0) } ?? .exchanges(exchanges), executable: executable,
                        configuration: serverConfiguration, adminToken: nil, timeout: 10)
                }, for: self)
        }

        override open class func tearDown() {
            servers.remove(for: self)?.stop()
            super.tearDown()
        }

        override open func setUp() async throws {
            try await super.setUp()
            let shared = try Self.servers.server(for: Self.self)
            server = shared.session("\(name.prefix(100))-\(UUID().uuidString)")
        }

        override open func tearDown() async throws {
            server = nil
            try await super.tearDown()
        }
    }
#endif
