import Foundation
import InkCore
import InkIndex
import InkwellKit
import Testing

/// The backoff a shared-index worker waits by while its database is away, on a clock the test
/// moves: sleeping advances it at once, so ten minutes of retries take no time.
@Suite("Reconnecting to a shared index")
struct ReconnectorTests {
    /// Seconds that pass only when slept; every sleep is recorded.
    final class SteppedClock: RetryClock {
        let state = Locked((now: 0.0, slept: [Double]()))
        var now: Double { state.withLock { $0.now } }
        var slept: [Double] { state.withLock { $0.slept } }
        func sleep(_ seconds: Double) { state.withLock { $0.now += seconds; $0.slept.append(seconds) } }
    }

    @Test("waits double from 0.5 s to a cap of 30 s, and the last wait ends exactly when the limit is reached")
    func backoffSchedule() {
        let backoff = Backoff(giveUpAfter: 120)
        var elapsed = 0.0, waits: [Double] = []
        for failures in 1... {
            guard case .retry(let wait) = backoff.decide(failures: failures, unreachableFor: elapsed) else { break }
            waits.append(wait)
            elapsed += wait
        }
        #expect(waits == [0.5, 1, 2, 4, 8, 16, 30, 30, 28.5])
        #expect(elapsed == 120)
        #expect(backoff.decide(failures: 500, unreachableFor: 0) == .retry(after: 30), "many failures never overflow past the cap")
        #expect(Backoff(giveUpAfter: 0).decide(failures: 1, unreachableFor: 0) == .giveUp)
    }

    @Test("an unreachable index is tried again after each wait, each said, until it answers; the work then goes on")
    func ridesOutAnOutage() throws {
        let clock = SteppedClock()
        let said = Locked<[String]>([])
        let reconnector = Reconnector(backoff: Backoff(giveUpAfter: 600), clock: clock) { line in said.withLock { $0.append(line) } }
        var calls = 0
        let value = try reconnector.run { () throws -> String in
            calls += 1
            // The database is back after 20 s.
            if clock.now < 20 { throw IndexUnreachable("db: connection to PostgreSQL lost: server closed the connection") }
            return "claimed"
        }
        #expect(value == "claimed")
        #expect(clock.slept == [0.5, 1, 2, 4, 8, 16])
        #expect(calls == 7)
        let lines = said.withLock { $0 }
        #expect(lines.first == "database unreachable, retrying in 0.5 s: db: connection to PostgreSQL lost: server closed the connection")
        #expect(lines.dropLast().last?.hasPrefix("database unreachable, retrying in 16 s") == true)
        #expect(lines.last == "database reachable again after 32 s, going on")
    }

    @Test("an index away for longer than the limit gives up with the reason, after trying at the limit")
    func givesUp() {
        let clock = SteppedClock()
        let reconnector = Reconnector(backoff: Backoff(giveUpAfter: 5), clock: clock) { _ in }
        var calls = 0
        #expect {
            try reconnector.run { () throws -> Int in
                calls += 1
                throw IndexUnreachable("db: cannot connect to PostgreSQL: connection refused")
            }
        } throws: { error in
            "\(error)".contains("unreachable for 5 s") && "\(error)".contains("connection refused")
        }
        #expect(clock.slept == [0.5, 1, 2, 1.5])
        #expect(calls == 5)
    }

    @Test("Reconnector.never fails at once with the index's own error")
    func never() {
        var calls = 0
        #expect(throws: IndexUnreachable.self) {
            try Reconnector.never.run { () throws -> Int in
                calls += 1
                throw IndexUnreachable("db: cannot connect to PostgreSQL: connection refused")
            }
        }
        #expect(calls == 1)
    }

    @Test("any other error is not retried")
    func otherErrorsFail() {
        let clock = SteppedClock()
        struct Refused: Error {}
        var calls = 0
        #expect(throws: Refused.self) { try Reconnector(clock: clock) { _ in }.run { calls += 1; throw Refused() } }
        #expect(calls == 1 && clock.slept.isEmpty)
    }
}
