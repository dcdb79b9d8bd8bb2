import Testing

/// Issue 5, hardening: espressomartini keeps serving, loses nothing and leaks nothing, against the real
/// binary. The suites nested in this one (one per file, `extension HardeningTests`) run one test at a time:
/// they load the machine (hundreds of connections, 512 MiB uploads, tens of thousands of requests) and
/// measure the server from outside (/proc), so they must not disturb each other's numbers.
@Suite("hardening", .serialized)
struct HardeningTests {}
