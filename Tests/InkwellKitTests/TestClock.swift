import Foundation
import InkwellKit

/// A clock that moves only when the test says: a live note's timers fire when the test advances it
/// past their deadline, without sleeping.
final class TestClock: LiveClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Double = 0
    private var sleepers: [(id: UUID, deadline: Double, wake: CheckedContinuation<Void, Never>)] = []

    var now: Double { lock.withLock { time } }

    func sleep(until deadline: Double) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
                let due = lock.withLock { () -> Bool in
                    if time >= deadline || Task.isCancelled { return true }
                    sleepers.append((id, deadline, wake))
                    return false
                }
                if due { wake.resume() }
            }
        } onCancel: {
            let woken = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).wake
            }
            woken?.resume()
        }
    }

    /// Moves the clock `seconds` on, waking every sleeper whose deadline has come.
    func advance(by seconds: Double) {
        let woken = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            time += seconds
            let due = sleepers.filter { $0.deadline <= time }
            sleepers.removeAll { $0.deadline <= time }
            return due.map(\.wake)
        }
        for wake in woken { wake.resume() }
    }
}
