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
/// Threads are started as work arrives, up to ``width``, and then kept (until ``close()``); jobs run
/// in the order they were submitted. It is the one hand-written pool of the project: ``WorkerPool``
/// (recognition during an import) and live recognition (one thread at nice 10) are executors of
/// their own. Synchronous callers that split one job over the cores use ``Parallel`` instead.
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
    private var closed = false
    private let niceness: Int32

    /// An executor of at most `width` threads, named `name` (as a debugger or `top -H` shows them),
    /// each at `niceness` (Linux: per thread; 10 lets pen input and page updates go first).
    public init(width: Int, name: String, niceness: Int32 = 0) {
        self.width = max(1, width)
        self.name = name
        self.niceness = niceness
    }

    /// Lets the threads end once no job is queued (an import's pool when the import is done); jobs
    /// submitted later still run, on threads started for them.
    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
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
        #if os(Linux)
        // For this thread only (Linux keeps nice values per thread; 0 is the calling one).
        if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
        #endif
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.withLock {
            idle += 1
            defer { idle -= 1 }
            while queue.isEmpty {
                if closed {
                    threads -= 1
                    return nil
                }
                condition.wait()
            }
            return queue.removeFirst()
        }
    }
}
