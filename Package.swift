// swift-tools-version:6.0
import PackageDescription

/// The modules every request runs through: in release builds, without the run-time checks of exclusive access
/// to class properties (debug builds, and so every test and sanitizer run, keep them).
let serving: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "espressomartini",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "espressomartini", targets: ["espressomartini"]),
        // For test suites (XCTest or Swift Testing, Linux and macOS): start a server from a tree and check
        // what the app sent (doc/testing.md).
        .library(name: "EspressoMartiniClient", targets: ["EspressoMartiniClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0")
    ],
    targets: [
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        // JavaScriptCore's C API as function types, and nothing to link: the library is loaded with dlopen when a
        // tree has a script (Sources/CJavaScriptCore/shim.h says why it has no pkg-config name).
        .systemLibrary(name: "CJavaScriptCore"),
        // libyaml's types, and nothing to link: loaded with dlopen the first time YAML is read.
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // libcurl's types, and nothing to link: loaded with dlopen by a server with a `proxy`.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-gnutls-dev"])]),
        // zlib's and Brotli's decoder types, and nothing to link: loaded with dlopen to decode a recorded body.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", providers: [.apt(["libbrotli-dev"])]),
        // Linux's epoll (in libc, nothing to link), which the Glibc module leaves out: the server watches the
        // sockets of answers that wait for bytes with it.
        .systemLibrary(name: "CEpoll"),
        // libmicrohttpd's own answers (its HTML error pages) replaced by the server's: C, as only a C definition
        // in the executable can stand in for the library's function.
        .target(name: "CMicroHTTPDAnswers", dependencies: ["CMicroHTTPD"]),
        // The core, pure Swift: the tree and its loader, routing, counters, diagnostics, and `Decider`, which
        // decides every answer. No C library here.
        .target(
            name: "EspressoMartini", dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: serving),
        // What a Linux daemon needs besides HTTP, through libc only: the listening socket, the tree watcher
        // (inotify), systemd's readiness notification.
        .target(name: "EspressoMartiniDaemon", dependencies: ["EspressoMartini"]),
        // A command line read against command definitions: options, help pages, completion scripts.
        .target(name: "EspressoMartiniCommandLine", dependencies: ["EspressoMartini"]),
        // JSON read with jansson: the core's `JSONParser`, converting each document into a `JSONValue` at once.
        .target(name: "EspressoMartiniJansson", dependencies: ["EspressoMartini", "CJansson"]),
        // YAML read with libyaml, loaded with dlopen on first use (a server that never reads YAML does not map
        // it): scripts' YAML bodies and the descriptions `import openapi` reads.
        .target(name: "EspressoMartiniYAML", dependencies: ["EspressoMartini", "CYAML"]),
        // `import openapi`: an OpenAPI or Swagger description drafted into exchanges for the tree writer. Pure
        // Swift; it is handed the parsers of JSON and YAML.
        .target(name: "EspressoMartiniOpenAPI", dependencies: ["EspressoMartini"]),
        // The JavaScript engine (doc/scripts.md), the only importer of JavaScriptCore: the core's
        // `ScriptEngine` and `ScriptChecker`, loaded on first use, one VM per script thread, the prelude giving
        // scripts `Response`, `Body`, `cache` and `console`.
        .target(
            name: "EspressoMartiniScripting",
            dependencies: [
                "EspressoMartini", "CJavaScriptCore", "EspressoMartiniYAML",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // HTTP with libmicrohttpd (one typed file owns it) and HTTPS certificates read with GnuTLS: the
        // listener and the sender. It is given the core's decider, a script engine and a journal.
        .target(
            name: "EspressoMartiniServer",
            dependencies: [
                "EspressoMartini", "EspressoMartiniDaemon", "CMicroHTTPD", "CMicroHTTPDAnswers", "CGnuTLS", "CEpoll",
                "CCurl", "CZlib", "CBrotli",
            ],
            swiftSettings: serving
        ),
        // The commands; `run` makes the parser, the script engine, the decider and the server in one place.
        .executableTarget(
            name: "espressomartini",
            dependencies: [
                "EspressoMartini", "EspressoMartiniDaemon", "EspressoMartiniServer", "EspressoMartiniScripting",
                "EspressoMartiniJansson",
                "EspressoMartiniYAML", "EspressoMartiniOpenAPI", "EspressoMartiniCommandLine",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The client library for test suites: starts the binary and speaks the admin API, with Foundation
        // (URLSession, Process). Nothing of the daemon depends on it, so the daemon does not link Foundation.
        .target(name: "EspressoMartiniClient"),
        // The core's tests and the scripting module's, in-process and without a socket; fixtures read JSON
        // with jansson.
        .testTarget(
            name: "EspressoMartiniTests",
            dependencies: [
                "EspressoMartini", "EspressoMartiniJansson", "EspressoMartiniScripting", "EspressoMartiniYAML",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Drafting exchanges from descriptions, with the real JSON and YAML parsers; no tree is served.
        .testTarget(
            name: "EspressoMartiniOpenAPITests",
            dependencies: [
                "EspressoMartini", "EspressoMartiniOpenAPI", "EspressoMartiniJansson", "EspressoMartiniYAML",
            ]),
        .testTarget(name: "EspressoMartiniCommandLineTests", dependencies: ["EspressoMartiniCommandLine"]),
        .testTarget(name: "EspressoMartiniDaemonTests", dependencies: ["EspressoMartiniDaemon"]),
        // The sender and the server's request handling with fake connections and a fake script engine.
        .testTarget(
            name: "EspressoMartiniServerTests",
            dependencies: ["EspressoMartini", "EspressoMartiniServer", "EspressoMartiniJansson"]),
        // The tests' own upstream server, run with python3 (not a resource: read from the source tree).
        .testTarget(
            name: "EndToEndTests", dependencies: ["EspressoMartini", "espressomartini"], exclude: ["Upstream"]),
    ]
)

// Fuzz targets (Fuzz/; `make fuzz`, `make fuzz-smoke`). A plain build makes corpus replayers, such as
// `swift run FuzzRouteMatching Fuzz/Corpus/RouteMatching`, so the normal build keeps compiling them; built with
// `-sanitize=fuzzer,address -D FUZZING` they are libFuzzer binaries. They are added here, after the package,
// so that the targets above stay as they are.
package.targets += [
    // Declares libFuzzer's `LLVMFuzzerRunDriver` for Swift; only linked in a fuzzer build.
    .target(name: "CFuzzerDriver", path: "Fuzz/Support/CFuzzerDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", "EspressoMartini"], path: "Fuzz/Support/FuzzSupport"),
    .executableTarget(
        name: "FuzzTreeLoader",
        dependencies: [
            "FuzzSupport", "EspressoMartini", "EspressoMartiniJansson", .product(name: "Logging", package: "swift-log"),
        ],
        path: "Fuzz/Targets/TreeLoader"
    ),
    .executableTarget(
        name: "FuzzRouteMatching", dependencies: ["FuzzSupport", "EspressoMartini", "EspressoMartiniJansson"],
        path: "Fuzz/Targets/RouteMatching"),
]
