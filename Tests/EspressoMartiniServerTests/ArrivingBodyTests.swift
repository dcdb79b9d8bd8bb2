@testable import EspressoMartiniServer
import EspressoMartini
import Foundation
import Testing

/// `ArrivingBody`: a producer on another thread and libmicrohttpd's reads meet without a lost wake-up, and a
/// connection is resumed only after it was suspended. Run with the thread sanitizer too.
@Suite struct ArrivingBodyTests {
    /// A connection that behaves as libmicrohttpd does: after `suspend`, no read comes until `resume`.
    final class SuspendingConnection: RequestConnection, @unchecked Sendable {
        private let state = Monitor((suspended: false, suspensions: 0, resumptions: 0, misplaced: 0))
        var headers: RequestHeaders { RequestHeaders([]) }
        func header(named name: UnsafeBufferPointer<CChar>) -> UnsafeBufferPointer<UInt8>? { nil }
        var clientAddress: ClientAddress? { nil }
        var origin: UnsafePointer<CChar>? { nil }
        func queue(_ response: HTTPResponse, status: UInt32) -> Bool { true }
        func reset() {}

        func suspend() {
            state.withLock { state in
                if state.suspended { state.misplaced += 1 }
                state.suspended = true
                state.suspensions += 1
            }
        }

        func resume() {
            state.withLock { state in
                if !state.suspended { state.misplaced += 1 }
                state.suspended = false
                state.resumptions += 1
            }
            state.signal()
        }

        /// Waits (bounded) while the connection is suspended; false when no resume came in time.
        func waitWhileSuspended(seconds: Double) -> Bool {
            let deadline = Monitor<Int>.now() + UInt64(seconds * 1e9)
            var resumed = false
            state.wait(until: { state in
                resumed = !state.suspended
                return resumed || Monitor<Int>.now() >= deadline
            }, wakingAt: { _ in deadline })
            return resumed
        }

        var counts: (suspensions: Int, resumptions: Int, misplaced: Int) { state.withLock { ($0.suspensions, $0.resumptions, $0.misplaced) } }
    }

    /// Bytes handed over one at a time.
    final class Numbers: ArrivingBody, @unchecked Sendable {
        private var ready: [UInt8] = []
        private var ended = false

        func add(_ byte: UInt8) { produce { ready.append(byte) } }
        func end() { produce { ended = true } }

        override func readReady(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
            guard ready.isEmpty else {
                let count = min(buffer.count, ready.count)
                buffer.copyBytes(from: ready.prefix(count))
                ready.removeFirst(count)
                return .bytes(count)
            }
            return ended ? .endOfBody : nil
        }
    }

    @Test func everyByteArrivesAndEverySuspensionIsResumed() {
        let connection = SuspendingConnection()
        let body = Numbers(connection: connection)
        let count = 20_000
        let producer = Thread {
            for index in 0..<count {
                body.add(UInt8(index % 251))
                if index % 64 == 0 { usleep(10) }
            }
            body.end()
        }
        producer.start()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        reading: while true {
            let read = buffer.withUnsafeMutableBytes { body.read(at: UInt64(received.count), into: $0) }
            switch read {
            case .bytes(let got): received += buffer.prefix(got)
            case .endOfBody: break reading
            case .suspended:
                guard connection.waitWhileSuspended(seconds: 5) else {
                    Issue.record("a wake-up was lost after \(received.count) bytes")
                    break reading
                }
            case .broken:
                Issue.record("broken")
                break reading
            }
        }
        #expect(received == (0..<count).map { UInt8($0 % 251) })
        let counts = connection.counts
        #expect(counts.suspensions == counts.resumptions && counts.misplaced == 0, "\(counts)")
        #expect(counts.suspensions > 0, "the reader never had to wait: the test proved nothing")
    }
}
