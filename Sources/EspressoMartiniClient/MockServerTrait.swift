#if canImport(Testing)
    import Foundation
    import Testing

    /// A Swift Testing trait: one server for a suite, and for each of its tests a fresh session view of it in
    /// `MockServer.current`, so that tests running in parallel keep their stubs, counters, journal and cache
    /// apart. The server starts before the suite's first test and stops after its last.
    ///
    /// ```swift
    /// @Suite(.mockServer(exchanges: [user])) struct ProfileTests {
    ///     let server = MockServer.current!
    ///     @Test func showsTheName() async throws { … server.baseURL, server.sessionHeaders … }
    /// }
    /// ```
    ///
    /// On a single `@Test`, that test gets a server of its own.
    public struct MockServerTrait: SuiteTrait, TestTrait, TestScoping {
        /// Tells the suite's server from another suite's.
        private let identity = UUID()
        private let start: @Sendable () async throws -> MockServer

        /// The servers the enclosing suites started, by trait.
        @TaskLocal private static var started: [UUID: MockServer] = [:]

        init(start: @escaping @Sendable () async throws -> MockServer) {
            self.start = start
        }

        /// Also on every test and nested suite of the suite it is on.
        public var isRecursive: Bool { true }

        /// For a suite, and for each case of a test (not for a test as a whole).
        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            test.isSuite || testCase != nil ? self : nil
        }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            // The outermost suite with the trait starts the server; nested suites and tests find it here.
            let outer = Self.started[identity]
            let server = if let outer { outer } else { try await start() }
            defer { if outer == nil { server.stop() } }
            try await Self.$started.withValue(Self.started.merging([identity: server]) { $1 }) {
                guard !test.isSuite else { return try await function() }
                try await MockServer.$current.withValue(server.session(Self.sessionName(for: test))) {
                    try await function()
                }
            }
        }

        /// The test's name and a random part: unique, and readable in the journal.
        private static func sessionName(for test: Test) -> String {
            "\(test.name.prefix(100))-\(UUID().uuidString)"
        }
    }

    extension Trait where Self == MockServerTrait {
        /// One server serving `exchanges` for the suite (`MockServer.start(exchanges:…)`), a fresh session of
        /// it for each test in `MockServer.current`.
        public static func mockServer(
            exchanges: [NetworkExchange], executable: String? = nil, configuration: String? = nil,
            adminToken: String? = nil
        ) -> Self {
            MockServerTrait {
                try await MockServer.start(
                    exchanges: exchanges, executable: executable, configuration: configuration, adminToken: adminToken)
            }
        }

        /// One server serving the tree `requestsFolder` for the suite, a fresh session of it for each test in
        /// `MockServer.current`.
        public static func mockServer(
            requestsFolder: String, executable: String? = nil, configuration: String? = nil,
            adminToken: String? = nil
        ) -> Self {
            MockServerTrait {
                try await MockServer.start(
                    requestsFolder: requestsFolder, executable: executable, configuration: configuration,
                    adminToken: adminToken)
            }
        }
    }

    extension MockServer {
        /// Within a test of a suite with the `.mockServer(…)` trait, this test's own session view of the
        /// suite's server; nil elsewhere.
        @TaskLocal public static var current: MockServer?
    }
#endif
