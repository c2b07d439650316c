import Foundation
import InkwellKit

/// Progress for long jobs on standard error: a redrawn line on a terminal, nothing otherwise.
/// Safe to update from worker threads.
final class Progress: Sendable {
    let label: String
    private let started = Date()
    private let enabled: Bool
    private let state: Locked<(total: Int, lastDraw: Date)>

    /// `countsPages`: the total is learnt later (``update(_:of:)``), so show progress whatever it is.
    init(total: Int, label: String, countsPages: Bool = false) {
        self.label = label
        state = Locked((total, Date.distantPast))
        enabled = standardErrorIsTerminal && Chatter.current != .quiet && (total > 1 || countsPages)
    }

    /// Updates with a total known only once the job has looked at the work.
    func update(_ done: Int, of total: Int) {
        state.withLock { $0.total = total }
        update(done)
    }

    func update(_ done: Int) {
        guard enabled else { return }
        state.withLock { state in
            guard Date().timeIntervalSince(state.lastDraw) > 0.1 || done == state.total else { return }
            state.lastDraw = Date()
            let total = state.total
            let elapsed = Date().timeIntervalSince(started)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let remaining = rate > 0 ? Double(total - done) / rate : 0
            let width = 30
            let filled = total > 0 ? width * min(done, total) / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data(String(format: "\r%@ [%@] %d/%d  %.1f/s  ETA %.0fs ", label, bar, done, total, rate, remaining).utf8))
        }
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
