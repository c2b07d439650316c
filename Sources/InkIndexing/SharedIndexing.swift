import Foundation
import InkCore
import InkIndex
import InkStore
import InkWorkspace

extension Indexer {
    /// How long a worker's claim on a page lasts by default (it renews nothing: a page takes seconds).
    public static let defaultLease: TimeInterval = 120

    /// The indexing job on a shared index: any number of these run at once, on any machines that see
    /// the library (read-only is enough unless `adoptTags`). Each scans the library for pages whose
    /// content is not recognised yet and queues them, then `jobs` threads claim pages from the queue
    /// (a few at a time, for `lease` seconds), recognise them and commit each result against the
    /// content it was read from. Pages leased by a worker that died are taken again when the lease
    /// runs out, so the run waits for leases held elsewhere. When the queue is empty the library is
    /// scanned once more (pages edited meanwhile are queued again); the run ends when that finds
    /// nothing new. With `adoptTags`, hashtags found become tags and the routing rules apply, as
    /// ``run(jobs:shard:only:progress:)`` does; workers leave that to a run that can write the library.
    ///
    /// Every call to the queue goes through `reconnect`: when the database goes away (a restart, a
    /// failover) the run waits for it, trying again with backoff, and goes on where it was; a page
    /// claimed under a transaction that died is claimed again when its lease runs out, so each page is
    /// still recognised once. Past the backoff's limit the run fails with ``Reconnector/GaveUp``.
    package func work(_ queue: any PageQueue, jobs: Int, lease: TimeInterval = Indexer.defaultLease, batch: Int = 2,
                     adoptTags: Bool, only: Set<NoteID>? = nil, reconnect: Reconnector = .never,
                     progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> IndexingReport {
        let started = Date()
        var report = IndexingReport()
        var attempted = Set<String>()
        var firstPass = true
        var notes: [StoredNote] = []
        let outcome = Locked(Outcome())
        while true {
            // Only a run that owns the library removes notes missing from its view: a worker's view
            // of a shared mount may be older than another host's, and must not undo its notes.
            let all = try library.notes()
            try reconnect.run { try queue.update(all, library: library, complete: adoptTags) }
            notes = only.map { wanted in all.filter { wanted.contains($0.note.id) } } ?? all
            let scan = try reconnect.run { try self.scan(notes, queue) }
            if firstPass {
                report.pages = scan.pages
                report.unchanged = scan.pages - scan.changed.count
            }
            let new = scan.changed.filter { !attempted.contains($0.page.rawValue + ":" + $0.hash) }
            try reconnect.run { try queue.enqueue(new) }
            attempted.formUnion(new.map { $0.page.rawValue + ":" + $0.hash })
            // The first pass drains even when it queued nothing: other workers may have queued pages, or left leases behind.
            if new.isEmpty, !firstPass { break }
            firstPass = false
            let byID = Dictionary(all.map { ($0.note.id, $0) }, uniquingKeysWith: { $1 })
            drain(queue, notes: byID, jobs: max(1, jobs), lease: lease, batch: max(1, batch), total: new.count, reconnect: reconnect,
                  outcome: outcome, progress: progress)
            if new.isEmpty { break }
        }
        let result = outcome.withLock { $0 }
        if let fatal = result.fatal { throw StoreError.invalid(fatal) }
        report.recognized = result.committed
        report.failed = result.failures
        if adoptTags {
            report.tagged = try adoptHashtags(notes)
            report.routed = try AfterChange(library: library, index: index).tagsChanged(Set(report.tagged.keys.map { NoteID(rawValue: $0) }))
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private struct Outcome {
        var committed = 0
        var failures: [IndexingReport.Failure] = []
        var done = 0
        var fatal: String?
    }

    /// The pages of `notes` whose content is not what was last recognised, with their content hash
    /// (a page that cannot be read is queued under its file signature, so a worker reports why).
    private func scan(_ notes: [StoredNote], _ queue: any PageQueue) throws -> (pages: Int, changed: [(page: PageID, hash: String)]) {
        let recognized = try queue.recognizedPages()
        var pages = 0
        var changed: [(page: PageID, hash: String)] = []
        for stored in notes {
            for pageID in stored.note.pages {
                pages += 1
                let known = recognized[pageID.rawValue]
                let read = try? library.readingNote(stored) { current -> (signature: String, hash: String?) in
                    let url = library.pageURL(pageID, in: current.folder)
                    let signature = PageFileSignature.of(url)
                    if let known, known.signature == signature { return (signature, known.hash) }
                    guard let decoded = try? library.readPage(url, id: pageID), !decoded.isDamaged else { return (signature, nil) }
                    return (signature, ContentHash.of(page: decoded.page))
                }
                guard let read, let hash = read.hash else {
                    changed.append((pageID, "unreadable:" + (read?.signature ?? "missing")))
                    continue
                }
                if hash == known?.hash {
                    if read.signature != known?.signature { try queue.confirm(pageID, signature: read.signature) }
                } else {
                    changed.append((pageID, hash))
                }
            }
        }
        return (pages, changed)
    }

    /// Claims and recognises pages on `jobs` threads (one recogniser each) until the queue is empty
    /// and no lease is held anywhere.
    private func drain(_ queue: any PageQueue, notes: [NoteID: StoredNote], jobs: Int, lease: TimeInterval, batch: Int, total: Int,
                       reconnect: Reconnector, outcome: Locked<Outcome>, progress: @escaping @Sendable (Int, Int) -> Void) {
        let library = self.library, makeRecognizer = self.makeRecognizer
        Parallel.forEach(jobs, workers: jobs, makeWorker: { Result { try makeRecognizer() } }) { recognizer, _ in
            guard case .success(let recognizer) = recognizer else {
                if case .failure(let error) = recognizer { outcome.withLock { $0.fatal = "cannot start the recogniser: \(error)" } }
                return
            }
            while outcome.withLock({ $0.fatal == nil }) {
                let claimed: [QueuedPage]
                do {
                    claimed = try reconnect.run { try queue.claim(limit: batch, lease: lease) }
                    if claimed.isEmpty {
                        guard let wait = try reconnect.run({ try queue.nextLeaseExpiry() }) else { return }
                        Thread.sleep(forTimeInterval: min(max(wait, 0.1), 1))
                        continue
                    }
                } catch {
                    outcome.withLock { $0.fatal = "\(error)" }
                    return
                }
                for page in claimed {
                    let result = Indexer.recognize(page, notes: notes, library: library, queue: queue, reconnect: reconnect, recognizer: recognizer)
                    outcome.withLock { outcome in
                        outcome.done += 1
                        switch result {
                        case .committed: outcome.committed += 1
                        case .failed(let reason): outcome.failures.append(.init(note: page.note, page: page.page, reason: reason))
                        case .superseded: break
                        case .fatal(let reason): outcome.fatal = reason
                        }
                        progress(outcome.done, max(total, outcome.done))
                    }
                }
            }
        }
    }

    private enum PageResult {
        /// Recognised and filed.
        case committed
        /// Could not be recognised; filed as failed.
        case failed(String)
        /// Changed since it was queued (queued again), or the claim was lost: nothing filed.
        case superseded
        /// The index refused a statement, or stayed unreachable past the backoff's limit: the run stops.
        case fatal(String)
    }

    private static func recognize(_ claimed: QueuedPage, notes: [NoteID: StoredNote], library: Library, queue: any PageQueue,
                                  reconnect: Reconnector, recognizer: any PageRecognizer) -> PageResult {
        do {
            func failed(_ reason: String) throws -> PageResult {
                try reconnect.run { try queue.fail(claimed, reason: reason) } ? .failed(reason) : .superseded
            }
            guard let stored = notes[claimed.note] ?? (try? library.note(matching: claimed.note.rawValue)) else {
                return try failed("the note is no longer in the library")
            }
            let read: (url: URL, signature: String, decoded: DecodedPage)
            do {
                read = try library.readingNote(stored) { current in
                    let url = library.pageURL(claimed.page, in: current.folder)
                    return (url, PageFileSignature.of(url), try library.readPage(url, id: claimed.page))
                }
            } catch {
                return try failed("\(error)")
            }
            if let damage = read.decoded.problems.first(where: \.isDamage) {
                return try failed(PageUnreadable.damaged(read.url, damage).reason)
            }
            let hash = ContentHash.of(page: read.decoded.page)
            guard hash == claimed.hash else {
                try reconnect.run { try queue.enqueue([(claimed.page, hash)]) }
                return .superseded
            }
            let recognition: PageRecognition
            do {
                recognition = try recognizer.recognize(read.decoded.page)
            } catch {
                return try failed("\(error)")
            }
            return try reconnect.run { try queue.commit(recognition, of: claimed, signature: read.signature) } ? .committed : .superseded
        } catch {
            return .fatal("\(error)")
        }
    }
}
