import Foundation
import InkCore
import InkRecognize

/// Recognises pages on background threads while the import goes on: at most `jobs` at a time, one
/// recogniser per worker thread, made on its first page and reused for the rest.
final class RecognitionPool: @unchecked Sendable {
    private let jobs: Int
    private let makeRecognizer: @Sendable () throws -> any PageRecognizer
    private let condition = NSCondition()
    private var queue: [(id: Int, page: Page)] = []
    private var results: [Int: Result<PageRecognition, any Error>] = [:]
    private var nextID = 0
    private var finished = 0
    private var workers = 0
    private var idle = 0
    private var closed = false

    init(jobs: Int, makeRecognizer: @escaping @Sendable () throws -> any PageRecognizer) {
        self.jobs = max(1, jobs)
        self.makeRecognizer = makeRecognizer
    }

    /// Queues `page` and returns at once with the ticket to ask for its result.
    func submit(_ page: Page) -> Int {
        condition.withLock {
            nextID += 1
            queue.append((nextID, page))
            if idle == 0 && workers < jobs {
                workers += 1
                Thread.detachNewThread { [self] in work() }
            }
            condition.broadcast()
            return nextID
        }
    }

    /// True when the page with this ticket has been read (and its result not yet taken).
    func isDone(_ ticket: Int) -> Bool {
        condition.withLock { results[ticket] != nil }
    }

    /// Pages submitted and not yet read.
    var outstanding: Int {
        condition.withLock { nextID - finished }
    }

    /// Waits for the page with this ticket and hands over its result.
    func result(_ ticket: Int) -> Result<PageRecognition, any Error> {
        condition.withLock {
            while results[ticket] == nil { condition.wait() }
            return results.removeValue(forKey: ticket)!
        }
    }

    /// Lets the worker threads end once the queue is empty.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private func work() {
        var recognizer: Result<any PageRecognizer, any Error>?
        while let (ticket, page) = nextPage() {
            if recognizer == nil { recognizer = Result { try makeRecognizer() } }
            let outcome = recognizer!.flatMap { recognizer in Result { try recognizer.recognize(page) } }
            condition.withLock {
                results[ticket] = outcome
                finished += 1
                condition.broadcast()
            }
        }
    }

    private func nextPage() -> (Int, Page)? {
        condition.withLock {
            idle += 1
            defer { idle -= 1 }
            while queue.isEmpty {
                if closed {
                    workers -= 1
                    return nil
                }
                condition.wait()
            }
            let item = queue.removeFirst()
            return (item.id, item.page)
        }
    }
}
