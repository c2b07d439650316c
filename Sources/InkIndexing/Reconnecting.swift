import Foundation
import InkIndex

/// How long to wait between attempts to reach a shared index that went away, and when to stop:
/// capped exponential backoff (0.5 s, 1 s, 2 s … up to 30 s between attempts), given up once the
/// index has been unreachable for ``giveUpAfter`` seconds. Pure: the times are given to it.
public struct Backoff: Sendable, Equatable {
    /// The wait after the first failure.
    public var first: Double
    /// The longest wait between two attempts.
    public var cap: Double
    /// How long the index may stay unreachable before the work is given up.
    public var giveUpAfter: Double

    /// Ten minutes: a database restart or failover takes far less; a supervisor restarts what gives up.
    public static let defaultGiveUpAfter: Double = 600

    public init(first: Double = 0.5, cap: Double = 30, giveUpAfter: Double = Backoff.defaultGiveUpAfter) {
        (self.first, self.cap, self.giveUpAfter) = (first, cap, giveUpAfter)
    }

    public enum Decision: Sendable, Equatable {
        /// Try again after this many seconds.
        case retry(after: Double)
        /// Unreachable for too long: stop.
        case giveUp
    }

    /// What to do after `failures` failed attempts in a row, the first of them `elapsed` seconds ago.
    /// The last wait is shortened so that the final attempt is made when ``giveUpAfter`` is reached.
    public func decide(failures: Int, unreachableFor elapsed: Double) -> Decision {
        guard elapsed < giveUpAfter else { return .giveUp }
        let doubling = first * pow(2, Double(min(max(failures, 1) - 1, 62)))
        return .retry(after: min(doubling, cap, giveUpAfter - elapsed))
    }
}

/// The clock a ``Reconnector`` waits on: seconds that never decrease, and sleeping the calling thread.
public protocol RetryClock: Sendable {
    var now: Double { get }
    func sleep(_ seconds: Double)
}

/// The machine's monotonic clock (seconds since boot).
public struct SystemRetryClock: RetryClock {
    public init() {}
    public var now: Double { ProcessInfo.processInfo.systemUptime }
    public func sleep(_ seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
}

/// Work against a shared index that rides out the index's server going away: a call that fails with
/// ``IndexUnreachable`` is made again after the ``Backoff``'s wait, each wait said through `report`
/// ("database unreachable, retrying in 8 s: …"), until it succeeds or the index has been unreachable
/// for longer than the backoff allows (``GaveUp``). Only calls whose failure left nothing half done are
/// wrapped: the server rolls back what a lost connection had not committed.
public struct Reconnector: Sendable {
    public let backoff: Backoff
    let clock: any RetryClock
    let report: @Sendable (String) -> Void

    public init(backoff: Backoff = Backoff(), clock: any RetryClock = SystemRetryClock(), report: @escaping @Sendable (String) -> Void) {
        self.backoff = backoff
        self.clock = clock
        self.report = report
    }

    /// Never retries: an unreachable index fails the call at once, with its own error.
    public static let never = Reconnector(backoff: Backoff(giveUpAfter: 0), report: { _ in })

    /// The index stayed unreachable for longer than ``Backoff/giveUpAfter``.
    public struct GaveUp: Error, CustomStringConvertible {
        public let seconds: Double
        package let last: IndexUnreachable
        public var description: String {
            "the index stayed unreachable for \(Reconnector.format(seconds)); giving up (--give-up-after): \(last)"
        }
    }

    /// Runs `body`, again and again while it throws ``IndexUnreachable`` and the backoff allows.
    public func run<T>(_ body: () throws -> T) throws -> T {
        var failures = 0
        var since: Double?
        while true {
            do {
                let value = try body()
                if failures > 0 { report("database reachable again after \(Reconnector.format(clock.now - since!)), going on") }
                return value
            } catch let error as IndexUnreachable {
                failures += 1
                let start = since ?? clock.now
                since = start
                let elapsed = clock.now - start
                switch backoff.decide(failures: failures, unreachableFor: elapsed) {
                case .giveUp:
                    // Not retried at all (``never``): the error as it was.
                    if failures == 1 { throw error }
                    throw GaveUp(seconds: elapsed, last: error)
                case .retry(let wait):
                    report("database unreachable, retrying in \(Reconnector.format(wait)): \(error)")
                    clock.sleep(wait)
                }
            }
        }
    }

    /// "0.5 s", "8 s", "2 min 30 s".
    static func format(_ seconds: Double) -> String {
        if seconds < 10 {
            let tenths = (seconds * 10).rounded() / 10
            return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
        }
        let whole = Int(seconds.rounded())
        return whole < 120 ? "\(whole) s" : "\(whole / 60) min" + (whole % 60 == 0 ? "" : " \(whole % 60) s")
    }
}
