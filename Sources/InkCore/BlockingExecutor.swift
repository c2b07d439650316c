import Foundation

/// The one place async code waits for blocking work — files and `flock`, SQLite, Tesseract, Cairo:
/// a bounded pool of threads of its own, so that such work never runs inline on Swift's cooperative
/// pool (whose few threads must stay free for sockets and timers) nor inside an actor, which could
/// not take its next message meanwhile.
///
/// ```swift
/// let note = try await BlockingExecutor.shared.run { try library.note(matching: id) }
/// ```
///
/// Threads are started as work arrives, up to ``width``, and then kept; jobs run in the order they
/// were submitted. Synchronous callers (commands, the indexing job) use ``Parallel`` instead.
///
/// `@unchecked Sendable`: every stored property but `width` is touched only holding `condition`.
public final class BlockingExecutor: @unchecked Sendable {
    /// The executor every async caller shares: twice the cores, at least 4 (most of its work waits on
    /// disks and locks rather than computing).
    public static let shared = BlockingExecutor(width: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount), name: "inkwell.blocking")

    /// Most threads working at once.
    public let width: Int
    private let name: String
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var threads = 0
    private var idle = 0

    /// An executor of at most `width` threads, named `name` (as a debugger or `top -H` shows them).
    public init(width: Int, name: String) {
        self.width = max(1, width)
        self.name = name
    }

    /// Runs `body` on one of the executor's threads and returns its result (or throws its error) to
    /// the awaiting task.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body`, which cannot fail, on one of the executor's threads and returns its result.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// Queues `job` and returns at once; it runs on one of the executor's threads.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.withLock {
            queue.append(job)
            if idle == 0 && threads < width {
                threads += 1
                let thread = Thread { [self] in work() }
                thread.name = name
                thread.start()
            }
            condition.signal()
        }
    }

    private func work() {
        while true {
            let job = condition.withLock {
                idle += 1
                defer { idle -= 1 }
                while queue.isEmpty { condition.wait() }
                return queue.removeFirst()
            }
            job()
        }
    }
}
