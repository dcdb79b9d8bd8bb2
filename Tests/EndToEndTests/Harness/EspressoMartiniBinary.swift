import Foundation

/// Where the `espressomartini` executable under test is: `ESPRESSOMARTINI_BINARY` when set, else the
/// one SwiftPM built next to the test bundle, else `.build/debug/espressomartini` under the package root.
enum EspressoMartiniBinary {
    static let path: String = locate()

    private static func locate() -> String {
        let fileManager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["ESPRESSOMARTINI_BINARY"], !explicit.isEmpty {
            return explicit
        }
        var candidates: [URL] = []
        // The test runner is `.build/<triple>/debug/espressomartiniPackageTests.xctest` (a file on Linux,
        // a bundle folder on macOS); the executable sits in the same folder.
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("espressomartini"))
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("espressomartini"))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("espressomartini"))
        }
        // Tests/EndToEndTests/Harness/EspressoMartiniBinary.swift → the package root.
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/espressomartini"))
        for candidate in candidates where fileManager.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        return candidates.last!.path
    }
}
