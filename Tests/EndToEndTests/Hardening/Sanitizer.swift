import Glibc

/// Whether this test run is instrumented (`make test-thread-sanitizer`, `make test-address-sanitizer`):
/// the server binary is then built the same way. Sanitizers keep freed memory in quarantine and grow
/// shadow memory, so resident-memory bounds only hold for plain builds; leaks are the leak checker's job there.
enum Sanitizer {
    static let name: String? = {
        // nil is RTLD_DEFAULT on Linux: the sanitizer runtimes export their entry points from the executable.
        if dlsym(nil, "__asan_init") != nil { return "address" }
        if dlsym(nil, "__tsan_init") != nil { return "thread" }
        return nil
    }()

    static var isActive: Bool { name != nil }
}
