// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "espressomartini",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "espressomartini", targets: ["espressomartini"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        // sd_notify: readiness and reloads reported to systemd; a no-op outside it.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Pure Swift: the tree, routing, counters, diagnostics. No C here.
        .target(name: "EspressoMartini", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // The only importer of the C libraries.
        .target(
            name: "EspressoMartiniServer",
            dependencies: ["EspressoMartini", "CMicroHTTPD", "CJansson", "CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "espressomartini",
            dependencies: [
                "EspressoMartini", "EspressoMartiniServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "EspressoMartiniTests", dependencies: ["EspressoMartini", "EspressoMartiniServer"]),
        .testTarget(name: "EndToEndTests", dependencies: ["EspressoMartini", "espressomartini"]),
    ]
)
