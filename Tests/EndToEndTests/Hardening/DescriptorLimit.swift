import Glibc

/// The test process's open-files limit, raised (soft up to hard) before a test opens hundreds of
/// sockets while the other suites run theirs.
enum DescriptorLimit {
    static func raise(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
