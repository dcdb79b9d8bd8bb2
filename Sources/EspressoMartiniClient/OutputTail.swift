import Foundation

/// One output stream of the process, read on a thread of its own until it ends: its first line, and its
/// last `ServerProcess.keptOutput` bytes.
final class OutputTail: @unchecked Sendable {
    private let condition = NSCondition()
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    private var ended = false

    func drain(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                condition.withLock {
                    if data.isEmpty {
                        ended = true
                    } else {
                        if head.count < ServerProcess.keptOutput {
                            head += data.prefix(ServerProcess.keptOutput - head.count)
                        }
                        tail += data
                        if tail.count > ServerProcess.keptOutput {
                            tail.removeFirst(tail.count - ServerProcess.keptOutput)
                        }
                    }
                    condition.broadcast()
                }
                if data.isEmpty { return }
            }
        }
        thread.name = "espressomartini output"
        thread.start()
    }

    /// The first line, once it is whole.
    var firstLine: String? {
        condition.withLock {
            head.firstIndex(of: UInt8(ascii: "\n")).map { String(decoding: head[..<$0], as: UTF8.self) }
        }
    }

    var text: String {
        condition.withLock { String(decoding: tail, as: UTF8.self) }
    }

    func waitForChange(until deadline: Date) {
        condition.withLock { _ = ended || condition.wait(until: deadline) }
    }

    func waitForEnd(until deadline: Date) {
        condition.withLock {
            while !ended, condition.wait(until: deadline) {}
        }
    }
}
