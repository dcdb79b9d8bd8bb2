import Testing

extension HardeningTests {
    /// `make test-address-sanitizer` relies on the harness failing a test whose server writes a
    /// LeakSanitizer report when it stops (it exits 1 then, and the report names AddressSanitizer).
    /// Checked for real once by preloading a leaking library into the instrumented server; this keeps
    /// the harness's side of it from regressing.
    @Suite("leak reports")
    struct LeakReportTests {
        @Test("a server that stops with a LeakSanitizer report fails the test that stopped it")
        func leakReportFails() {
            let report = """
                2026-11-22T01:00:00.000Z NOTICE stopping: finishing the requests in flight
                =================================================================
                ==4242==ERROR: LeakSanitizer: detected memory leaks

                Direct leak of 4242 byte(s) in 1 object(s) allocated from:
                    #0 0x55d0c0ffee00 in malloc

                SUMMARY: AddressSanitizer: 4242 byte(s) leaked in 1 allocation(s).

                """
            for exitCode: Int32 in [1, 0] {  // LSan's default exit code, and a run told to exit 0 anyway
                let outcome = ProcessOutcome(
                    exitCode: exitCode, signal: nil, timedOut: false, standardOutput: "", standardError: report)
                withKnownIssue("the harness must record the leak report") {
                    ServerProcess.recordUnclean(outcome, arguments: ["run", "--port", "0"])
                }
            }
        }
    }
}
