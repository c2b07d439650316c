import Foundation

/// Progress for long jobs on standard error: a redrawn line on a terminal, nothing otherwise.
/// Safe to update from worker threads.
final class Progress: @unchecked Sendable {
    private(set) var total: Int
    let label: String
    private let started = Date()
    private let enabled: Bool
    private var lastDraw = Date.distantPast
    private let lock = NSLock()

    /// `countsPages`: the total is learnt later (``update(_:of:)``), so show progress whatever it is.
    init(total: Int, label: String, countsPages: Bool = false) {
        self.total = total
        self.label = label
        enabled = standardErrorIsTerminal && (total > 1 || countsPages)
    }

    /// Updates with a total known only once the job has looked at the work.
    func update(_ done: Int, of total: Int) {
        lock.withLock { self.total = total }
        update(done)
    }

    func update(_ done: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        guard Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = Date()
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let remaining = rate > 0 ? Double(total - done) / rate : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r%@ [%@] %d/%d  %.1f/s  ETA %.0fs ", label, bar, done, total, rate, remaining).utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
