#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shared library loaded with `dlopen` when a feature first needs it (JavaScriptCore for scripts, libyaml
/// for YAML, libcurl for a proxy, zlib and Brotli for recorded bodies), so that a process without the feature
/// neither maps it nor needs it installed. The one way such a library is loaded: `load` resolves its
/// functions by name into the C function types of the caller's module, and says what to install when it
/// cannot.
public final class DynamicLibrary: @unchecked Sendable {
    public let soname: String
    private let handle: UnsafeMutableRawPointer
    /// The required functions the library lacks.
    private var missing: [String] = []

    private init(soname: String, handle: UnsafeMutableRawPointer) {
        self.soname = soname
        self.handle = handle
    }

    /// `soname`, with the functions `resolve` reads from it (each by `callAsFunction`), for a caller that
    /// keeps the result once for the process; why not, naming the Debian `package` to install, when it cannot
    /// be loaded or lacks a function. `feature` says who needs it: "JavaScript responses need the
    /// JavaScriptCore library".
    public static func load<Functions>(
        _ soname: String, package: String, neededBy feature: String, resolve: (DynamicLibrary) -> Functions
    ) -> Result<Functions, LibraryUnavailable> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(
                LibraryUnavailable(
                    "\(feature) (\(soname)), which cannot be loaded: install the Debian package \(package)"))
        }
        let library = DynamicLibrary(soname: soname, handle: handle)
        let functions = resolve(library)
        guard library.missing.isEmpty else {
            return .failure(
                LibraryUnavailable(
                    "\(soname) lacks \(library.missing.joined(separator: ", ")); install a newer version of the Debian package \(package)"
                ))
        }
        return .success(functions)
    }

    /// The function `name`, as the `@convention(c)` type the caller expects. A name the library lacks is
    /// noted, and `load` then fails: the placeholder it gets is never called.
    public func callAsFunction<Function>(_ name: String) -> Function {
        guard let symbol = dlsym(handle, name) else {
            missing.append(name)
            return unsafeBitCast(UnsafeMutableRawPointer(bitPattern: 1)!, to: Function.self)
        }
        return unsafeBitCast(symbol, to: Function.self)
    }

    /// The function `name`, nil when this build of the library does not export it (for what the caller can
    /// do without).
    public func optional<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
}

/// Why a library loaded with `dlopen` cannot be used, saying what to install.
public struct LibraryUnavailable: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
