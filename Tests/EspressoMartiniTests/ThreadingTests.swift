import EspressoMartini
import Glibc
import Testing

/// `SystemThread`, `Monitor` and `concurrentMap`: the pthread-based pieces that let the daemon wait
/// without libdispatch.
@Suite struct ThreadingTests {
    @Test(arguments: [0, 1, 2, 3, 4, 17, 1000])
    func concurrentMapKeepsTheOrder(_ count: Int) {
        let numbers = Array(0..<count)
        #expect(numbers.concurrentMap { $0 * 3 + 1 } == numbers.map { $0 * 3 + 1 })
    }

    @Test func concurrentMapWorksOnSeveralThreads() {
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        // Each element holds its thread until every thread has one, or 2 s have passed.
        let started = Locked(0)
        let threads = Array(0..<cores).concurrentMap { _ -> pthread_t in
            started.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(2)
            while started.withLock({ $0 }) < cores && ContinuousClock.now < deadline { usleep(1_000) }
            return pthread_self()
        }
        #expect(Set(threads).count == cores)
    }

    @Test func joinWaitsForTheBody() {
        let done = Locked(false)
        let thread = SystemThread {
            usleep(20_000)
            done.withLock { $0 = true }
        }
        thread.join()
        #expect(done.withLock { $0 })
    }

    @Test func aDetachedThreadRuns() {
        let ran = Monitor(false)
        SystemThread.detached {
            ran.withLock { $0 = true }
            ran.signal()
        }
        ran.wait { $0 }
        #expect(ran.withLock { $0 })
    }

    /// A producer hands 200 numbers one by one to a consumer that sleeps in `wait(until:)` between them.
    @Test func waitSleepsUntilSignalled() {
        struct Exchange {
            var offered: Int?
            var received: [Int] = []
        }
        let exchange = Monitor(Exchange())
        let consumer = SystemThread {
            while true {
                var taken = 0
                exchange.wait { exchange in
                    guard let offered = exchange.offered else { return false }
                    taken = offered
                    exchange.offered = nil
                    exchange.received.append(offered)
                    return true
                }
                exchange.signal()
                if taken == 199 { return }
            }
        }
        for number in 0..<200 {
            exchange.wait { $0.offered == nil }
            exchange.withLock { $0.offered = number }
            exchange.signal()
        }
        consumer.join()
        #expect(exchange.withLock { $0.received } == Array(0..<200))
    }
}
