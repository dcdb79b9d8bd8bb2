#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared library loaded with `dlopen` when a feature first needs it (libcurl for a proxy, zlib and Brotli
/// for recorded bodies), so that a server without the feature neither maps it nor needs it installed. Its
/// functions are looked up by name into the C function types of the caller's module.
public final class DynamicLibrary: @unchecked Sendable {
    public let soname: String
    private let handle: UnsafeMutableRawPointer
    /// The names `function` did not find, for the message saying what to install.
    public private(set) var missing: [String] = []

    /// Nil when the library cannot be loaded.
    public init?(_ soname: String) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        self.soname = soname
        self.handle = handle
    }

    /// The function `name`, as `type` (a `@convention(c)` function type); nil, and noted in `missing`, when
    /// the library has none.
    public func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(handle, name) else {
            missing.append(name)
            return nil
        }
        return unsafeBitCast(symbol, to: type)
    }
}
