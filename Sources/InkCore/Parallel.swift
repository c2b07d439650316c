import Foundation

/// The one place Inkwell runs work on several threads: a bounded pool of workers taking the next
/// index, and slots their results go into. Rendering, export, recognition during import and the
/// indexing job all use it, so there is one thing to get right.
public enum Parallel {
    /// Runs `body(i)` for every `i` in `0..<count` on up to `workers` threads (the caller's included),
    /// each taking the next index; returns when all are done. One worker runs them in order.
    public static func forEach(_ count: Int, workers: Int, _ body: @Sendable @escaping (Int) -> Void) {
        forEach(count, workers: workers, makeWorker: {}) { _, i in body(i) }
    }

    /// Like ``forEach(_:workers:_:)``, each worker thread first making its own `State` (a recogniser,
    /// say) that only it uses, for all the indices it takes. No state is made when `count` is 0.
    public static func forEach<State>(_ count: Int, workers: Int, makeWorker: @Sendable @escaping () -> State,
                                      _ body: @Sendable @escaping (inout State, Int) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(workers, count))
        let next = Counter()
        let work: @Sendable (Int) -> Void = { _ in
            var state = makeWorker()
            while true {
                let i = next.take()
                if i >= count { break }
                body(&state, i)
            }
        }
        if threads == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: work) }
    }

    /// A shared counter handing out 0, 1, 2, … to whichever thread asks.
    ///
    /// `@unchecked Sendable`: `value` is only touched holding `lock`.
    public final class Counter: @unchecked Sendable {
        private var value = 0
        private let lock = NSLock()

        public init() {}

        /// The next number: 0 the first time.
        public func take() -> Int {
            lock.withLock {
                defer { value += 1 }
                return value
            }
        }

        /// How many numbers have been taken.
        public var taken: Int { lock.withLock { value } }
    }
}

/// Results filled from several threads (one slot each) and read or taken once, in order.
///
/// `@unchecked Sendable`: every access to `values` holds `lock`.
public final class Slots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = NSLock()

    public init(count: Int) { values = Array(repeating: nil, count: count) }

    /// The value of slot `i` (nil until set).
    public subscript(i: Int) -> Value? {
        get { lock.withLock { values[i] } }
        set { lock.withLock { values[i] = newValue } }
    }

    /// Fills slot `i`.
    public func set(_ i: Int, _ value: Value) { self[i] = value }

    /// The value of slot `i`, emptying it (nil if never set).
    public func take(_ i: Int) -> Value? {
        lock.withLock {
            defer { values[i] = nil }
            return values[i]
        }
    }
}

/// A value made at most once, on first use, whichever thread asks first (a search index opened only
/// when something is kept in it, say).
///
/// `@unchecked Sendable`: `value` is only touched holding `lock`.
public final class Once<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    private let lock = NSLock()

    public init() {}

    /// The value, made by `make` if no call made it yet (a `make` that throws leaves it unmade).
    public func get(_ make: () throws -> Value) rethrows -> Value {
        try lock.withLock {
            if let value { return value }
            let made = try make()
            value = made
            return made
        }
    }

    /// The value if it was made.
    public var ifMade: Value? { lock.withLock { value } }
}

/// A value several threads share, reached only through ``withLock(_:)`` (a progress line, a tally).
///
/// `@unchecked Sendable`: `value` is only touched holding `lock`.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, no other thread touching it meanwhile.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

/// Work done on background threads while the caller goes on (recognition during an import): a
/// ``BlockingExecutor`` of at most `workers` threads, each job running with a worker function made
/// on first need and reused by the jobs after it (at most `workers` are made, one per job running at
/// once); results are collected by ticket, in any order.
///
/// `@unchecked Sendable`: `results`, `nextID`, `finished` and `idleWorkers` are touched only holding `condition`.
public final class WorkerPool<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    private typealias Worker = Result<(Input) throws -> Output, any Error>
    private let executor: BlockingExecutor
    private let makeWorker: @Sendable () throws -> (Input) throws -> Output
    private let condition = NSCondition()
    private var results: [Int: Result<Output, any Error>] = [:]
    private var nextID = 0
    private var finished = 0
    /// Worker functions made and not in use now.
    private var idleWorkers: [Worker] = []

    /// A pool of at most `workers` threads; a worker function is made with `makeWorker` when a job
    /// finds none free (a failure to make it is the result of every input given to it).
    public init(workers: Int, makeWorker: @escaping @Sendable () throws -> (Input) throws -> Output) {
        executor = BlockingExecutor(width: max(1, workers), name: "inkwell.workers")
        self.makeWorker = makeWorker
    }

    /// Queues `input` and returns at once with the ticket to ask for its result.
    public func submit(_ input: Input) -> Int {
        let ticket = condition.withLock {
            nextID += 1
            return nextID
        }
        executor.submit { [self] in
            let worker = condition.withLock { idleWorkers.popLast() } ?? Result { try makeWorker() }
            let outcome = worker.flatMap { work in Result { try work(input) } }
            condition.withLock {
                idleWorkers.append(worker)
                results[ticket] = outcome
                finished += 1
                condition.broadcast()
            }
        }
        return ticket
    }

    /// True when the input with this ticket has been worked on (and its result not yet taken).
    public func isDone(_ ticket: Int) -> Bool {
        condition.withLock { results[ticket] != nil }
    }

    /// Inputs submitted and not yet worked on.
    public var outstanding: Int {
        condition.withLock { nextID - finished }
    }

    /// Waits for the input with this ticket and hands over its result.
    public func result(_ ticket: Int) -> Result<Output, any Error> {
        condition.withLock {
            while results[ticket] == nil { condition.wait() }
            return results.removeValue(forKey: ticket)!
        }
    }

    /// Lets the worker threads end once the queue is empty.
    public func close() {
        executor.close()
    }
}
