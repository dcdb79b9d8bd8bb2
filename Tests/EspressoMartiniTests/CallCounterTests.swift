import EspressoMartini
import Testing

@Suite struct CallCounterTests {
    @Test(arguments: [
        (1, [0, 0, 0, 0]),
        (2, [0, 1, 1, 1]),
        (3, [0, 1, 2, 2, 2, 2]),
    ])
    func theLastResponseRepeats(_ responseCount: Int, _ positions: [Int]) {
        let counter = CallCounter()
        #expect(positions.indices.map { _ in counter.next(responseCount: responseCount) } == positions)
        #expect(counter.value == positions.count)
    }

    @Test(arguments: [
        (SequenceMode.repeatLast, 3, [0, 1, 2, 2, 2] as [Int?]),
        (.loop, 3, [0, 1, 2, 0, 1, 2, 0]),
        (.loop, 1, [0, 0, 0]),
        (.once, 3, [0, 1, 2, nil, nil]),
        (.once, 1, [0, nil]),
    ])
    func eachModeHandsOutItsPositions(_ mode: SequenceMode, _ responseCount: Int, _ positions: [Int?]) {
        let counter = CallCounter()
        #expect(positions.indices.map { _ in counter.next(responseCount: responseCount, mode: mode) } == positions)
        #expect(counter.value == positions.count)
    }

    @Test(arguments: [SequenceMode.loop, .once])
    func underConcurrencyEachModeCountsEveryCallOnce(_ mode: SequenceMode) async {
        let counter = CallCounter()
        let (tasks, callsPerTask, responseCount) = (64, 1000, 7)
        let positions = await withTaskGroup(of: [Int?].self) { group in
            for _ in 0..<tasks {
                group.addTask { (0..<callsPerTask).map { _ in counter.next(responseCount: responseCount, mode: mode) } }
            }
            var all: [Int?] = []
            for await chunk in group { all += chunk }
            return all
        }
        let calls = tasks * callsPerTask
        var times = [Int](repeating: 0, count: responseCount)
        for case let position? in positions { times[position] += 1 }
        switch mode {
        case .loop:
            #expect(
                times.enumerated().allSatisfy { $1 == calls / responseCount + ($0 < calls % responseCount ? 1 : 0) })
        default:
            #expect(
                times == [Int](repeating: 1, count: responseCount)
                    && positions.filter { $0 == nil }.count == calls - responseCount)
        }
        #expect(counter.value == calls)
    }

    @Test func resetStartsTheSequenceAgain() {
        let counter = CallCounter()
        _ = counter.next(responseCount: 3)
        _ = counter.next(responseCount: 3)
        counter.reset()
        #expect(counter.value == 0)
        #expect(counter.next(responseCount: 3) == 0)
    }

    @Test func underConcurrencyEachPositionBelowTheLastIsHandedOutExactlyOnce() async {
        let counter = CallCounter()
        let (tasks, callsPerTask, responseCount) = (64, 1000, 50_000)
        let positions = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    (0..<callsPerTask).map { _ in counter.next(responseCount: responseCount) }
                }
            }
            var all: [Int] = []
            for await chunk in group { all += chunk }
            return all
        }
        var times = [Int](repeating: 0, count: responseCount)
        for position in positions { times[position] += 1 }
        #expect(times.dropLast().allSatisfy { $0 == 1 })
        #expect(times.last == tasks * callsPerTask - (responseCount - 1))
        #expect(counter.value == tasks * callsPerTask)
    }

    @Test func eachTaskSeesIncreasingPositions() async {
        // The counter only moves forward: no task can see a position smaller than one it saw before.
        let counter = CallCounter()
        let ordered = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let seen = (0..<2000).map { _ in counter.next(responseCount: .max) }
                    return zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(ordered)
    }
}

@Suite struct CallCountersTests {
    func exchange(_ method: HTTPMethod, _ route: String, variants: Int = 0) -> Exchange {
        let variants = (0..<variants).map {
            Variant(conditions: VariantConditions([]), when: nil, responses: $0..<($0 + 1))
        }
        return Exchange(
            method: method, route: RoutePattern(parsing: route), methodFolderName: method.name, responses: [],
            variants: variants)
    }

    /// The counter a tree made of one exchange, `method route`, gets.
    func counter(_ counters: CallCounters, _ method: HTTPMethod, _ route: String) -> CallCounter {
        counters.counters(for: [
            Exchange(method: method, route: RoutePattern(parsing: route), methodFolderName: method.name, responses: [])
        ])[0]
    }

    @Test func theSameKeyGivesTheSameCounter() {
        let counters = CallCounters()
        let first = counter(counters, .get, "/users/*")
        #expect(first === counter(counters, .get, "/users/*"))
        #expect(first === counter(counters, .get, "/users/{id}"))
        #expect(first !== counter(counters, .get, "/users/me"))
        #expect(first !== counter(counters, .post, "/users/*"))
    }

    @Test func retainKeepsOnlyTheGivenKeys() {
        let counters = CallCounters()
        let kept = counter(counters, .get, "/a")
        let dropped = counter(counters, .get, "/b")
        _ = kept.next(responseCount: 5)
        _ = dropped.next(responseCount: 5)
        counters.retain(only: [exchange(.get, "/a"), exchange(.get, "/never-created")])
        #expect(counter(counters, .get, "/a") === kept)
        #expect(counter(counters, .get, "/a").value == 1)
        let recreated = counter(counters, .get, "/b")
        #expect(recreated !== dropped)
        #expect(recreated.value == 0)
    }

    @Test func resetAllPutsEveryCounterBackToZero() {
        let counters = CallCounters()
        let a = counter(counters, .get, "/a")
        let b = counter(counters, .put, "/b")
        for _ in 0..<3 { _ = a.next(responseCount: 2) }
        _ = b.next(responseCount: 2)
        counters.resetAll()
        #expect(a.value == 0)
        #expect(b.value == 0)
        #expect(counter(counters, .get, "/a") === a)
        #expect(a.next(responseCount: 2) == 0)
    }

    @Test func concurrentLookupsOfOneKeyShareOneCounter() async {
        let counters = CallCounters()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask { for _ in 0..<100 { _ = counter(counters, .get, "/shared").next(responseCount: 1) } }
            }
        }
        #expect(counter(counters, .get, "/shared").value == 3200)
    }
}
