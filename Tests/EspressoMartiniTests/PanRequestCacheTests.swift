import EspressoMartini
import Foundation
import Testing

/// The pan-request cache: a script call has it to itself from its first use until it ends, its changes
/// published then; readers (templates, the admin API) never wait for a call under way.
@Suite struct PanRequestCacheTests {
    @Test func aCallSeesItsOwnChangesAndPublishesThemWhenItEnds() {
        let cache = PanRequestCache()
        cache.withCall { call in
            call.setValue(.integer(1), forKey: "n")
            call.setValue(.string("x"), forKey: "gone")
            call.setValue(nil, forKey: "gone")
            #expect(call.value(forKey: "n") == .integer(1))
            #expect(call.keys == ["n"])
            #expect(cache.value(forKey: "n") == nil, "not published before the call ends")
        }
        #expect(cache.value(forKey: "n") == .integer(1))
        #expect(cache.snapshot == .object([JSONMember(key: "n", value: .integer(1))]))
    }

    /// While a call holds the cache, a reader gets what was last published at once, and a second call
    /// waits for the first to end before it reads.
    @Test func readersNeverWaitForACallAndCallsTakeTurns() async {
        let cache = PanRequestCache()
        cache.withCall { $0.setValue(.integer(1), forKey: "n") }
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let first = Thread {
            cache.withCall { call in
                call.setValue(.integer((call.value(forKey: "n")?.integerValue ?? 0) + 1), forKey: "n")
                holding.signal()
                release.wait()
            }
        }
        first.start()
        holding.wait()
        #expect(
            cache.value(forKey: "n") == .integer(1), "a reader gets the published value while a call holds the cache")
        #expect(cache.snapshot == .object([JSONMember(key: "n", value: .integer(1))]))
        let secondRead = Locked<Int64?>(nil)
        let second = Thread {
            cache.withCall { call in
                let value = (call.value(forKey: "n")?.integerValue ?? 0) + 1
                call.setValue(.integer(value), forKey: "n")
                secondRead.withLock { $0 = value }
            }
        }
        second.start()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(secondRead.withLock { $0 } == nil, "the second call waits for the first")
        release.signal()
        for _ in 0..<500 where secondRead.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(secondRead.withLock { $0 } == 3)
        #expect(cache.value(forKey: "n") == .integer(3))
    }

    /// Emptied while a call is under way, the cache keeps that call's own changes only.
    @Test func emptyingDuringACallKeepsTheCallsChanges() {
        let cache = PanRequestCache()
        cache.withCall { call in
            call.setValue(.integer(1), forKey: "a")
            call.setValue(.integer(2), forKey: "b")
        }
        cache.withCall { call in
            call.setValue(.integer(3), forKey: "c")
            cache.removeAll()
        }
        #expect(cache.snapshot == .object([JSONMember(key: "c", value: .integer(3))]))
    }
}

extension JSONValue {
    fileprivate var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
