@testable import EspressoMartiniServer
import EspressoMartini
import Foundation
import Testing

/// Code that must run on its connection's loop asserts it: in a debug build, as every test runs, a call
/// from another thread stops the process at once instead of racing.
@Suite struct ConfinementTests {
    /// A loop owned by a thread of its own, which has ended: no call from here is on it.
    static func loopOfAnotherThread() -> TestLoop {
        let made = Locked<TestLoop?>(nil)
        let thread = Thread { made.withLock { $0 = TestLoop() } }
        thread.start()
        while made.withLock({ $0 == nil }) { usleep(1000) }
        return made.withLock { $0! }
    }

    @Test("a request handled off its connection's loop stops the process")
    func aRequestOffItsLoopTraps() async {
        await #expect(processExitsWith: .failure) {
            let fixture = ServerFixture([(.get, "/hello", [ConfiguredResponse(body: .inline(.string("hi")))])])
            let connection = FakeConnection(loop: ConfinementTests.loopOfAnotherThread())
            let state = fixture.server.requestStarted(uri: "/hello")
            _ = "GET".withCString { method in
                "/hello".withCString { url in
                    fixture.server.receive(
                        state, on: connection, url: url, method: method,
                        body: UnsafeRawBufferPointer(start: nil, count: 0))
                }
            }
        }
    }

    @Test("a timer set off its loop stops the process; on it, it runs")
    func aTimerOffItsLoopTraps() async {
        let loop = TestLoop()
        var ran = false
        loop.schedule(after: 0) { ran = true }
        #expect(loop.turn(until: { ran }))
        await #expect(processExitsWith: .failure) {
            ConfinementTests.loopOfAnotherThread().schedule(after: 0) {}
        }
    }
}
