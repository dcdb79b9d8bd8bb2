// swift-tools-version:6.0
// A test suite as a user's would be: a package of its own that depends on espressomartini by path and uses
// its client library against the real binary (found on PATH; `make test-client` puts the one just built
// first). Building it builds the client library only, not the server.
import PackageDescription

let package = Package(
    name: "ClientPackage",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "espressomartini", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "ClientTests", dependencies: [.product(name: "EspressoMartiniClient", package: "espressomartini")])
    ]
)
