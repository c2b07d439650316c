import Foundation
import InkCore
import InkIndex
import InkStore
import InkText
import InkWorkspace

/// Which part of the library's pages this run recognises: `--shard i/n` gives page `p` to shard
/// `hash(p) mod n`, the same on every machine, so n machines can share a big library.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 0, index < count else {
            throw StoreError.invalid("a shard is i/n with 0 ≤ i < n (got \(index)/\(count))")
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw StoreError.invalid("a shard is written i/n, e.g. 0/4 (got \"\(text)\")")
        }
        try self.init(index: index, count: count)
    }

    public static let all = try! Shard(index: 0, count: 1)
    public var description: String { "\(index)/\(count)" }

    func contains(_ page: PageID) -> Bool {
        count == 1 || Int(ContentHash.of(Array(page.rawValue.utf8)) % UInt64(count)) == index
    }
}

/// What an indexing run did.
public struct IndexingReport: Sendable, Codable, Equatable {
    public struct Failure: Sendable, Codable, Equatable {
        public var note: NoteID
        public var page: PageID
        public var reason: String
    }

    /// Pages in this run's shard.
    public var pages = 0
    /// Pages recognised now (new or changed since they were last recognised).
    public var recognized = 0
    /// Pages whose content had not changed.
    public var unchanged = 0
    public var failed: [Failure] = []
    /// Notes that received tags from recognised hashtags, with those tags.
    public var tagged: [String: [String]] = [:]
    /// Notes the routing rules filed out of the Inbox because of those tags.
    public var routed: [RoutedNote] = []
    public var seconds = 0.0

    /// The JSON keys as `index --json` has always printed them (docs/cli-json.md).
    enum CodingKeys: String, CodingKey {
        case pages, recognized = "recognised", unchanged, failed, tagged, routed, seconds
    }
}

/// The OCR indexing job: recognise every page whose content changed since it was last indexed, in
/// parallel, recording each page's result as soon as it is done (so a killed run loses nothing and
/// the next one does nothing twice), then give notes the hashtags found in them (``Note/adopt(hashtags:)``)
/// and apply the ``AfterChange`` policy to the notes whose tags changed.
///
/// On the library's SQLite index one machine runs it (`--shard` splits pages between machines by
/// hand); on a shared index (a ``PageQueue``) any number of processes on any number of machines
/// run it together, claiming pages from the queue (``work(_:jobs:lease:adoptTags:only:progress:)``).
public struct Indexer: Sendable {
    package let library: Library
    package let index: any IndexBackend
    /// Makes one recogniser per worker thread.
    public let makeRecognizer: @Sendable () throws -> any PageRecognizer

    package init(library: Library, index: any IndexBackend, makeRecognizer: @escaping @Sendable () throws -> any PageRecognizer) {
        self.library = library
        self.index = index
        self.makeRecognizer = makeRecognizer
    }

    struct WorkItem: Sendable {
        let note: StoredNote
        let page: Page
        let signature: String
        let hash: String
    }

    /// Runs the job with `jobs` worker threads; `progress` hears (done, total) from any thread.
    /// `only`: just these notes' pages (the rest of the library is still synced, not recognised).
    public func run(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, shard: Shard = .all, only: Set<NoteID>? = nil,
                    progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws -> IndexingReport {
        if let queue = index as? any PageQueue {
            guard shard == .all else {
                throw StoreError.invalid("--shard is for the library's own SQLite index; on \(queue.location) the workers share the pages through the database's queue (--worker)")
            }
            return try work(queue, jobs: jobs, adoptTags: true, only: only, progress: progress)
        }
        guard let index = index as? SearchIndex else { throw StoreError.invalid("\(index.location): this index cannot run the indexing job") }
        let started = Date()
        var report = IndexingReport()
        let all = try library.notes()
        try index.update(all, library: library, complete: true)
        let notes = only.map { wanted in all.filter { wanted.contains($0.note.id) } } ?? all
        try index.releaseStaleClaims()
        // What was recognised, read in one go: an unchanged page then costs one stat call.
        let recognized = try index.recognizedPages()
        var work: [WorkItem] = []
        var unreadable: [IndexingReport.Failure] = []
        for stored in notes {
            for pageID in stored.note.pages where shard.contains(pageID) {
                report.pages += 1
                do {
                    if let item = try workItem(stored, pageID, recognized[pageID.rawValue], index) { work.append(item) } else { report.unchanged += 1 }
                } catch let error as PageUnreadable {
                    try index.recordFailure(error.reason, page: pageID)
                    unreadable.append(.init(note: stored.note.id, page: pageID, reason: error.reason))
                }
            }
        }
        let results = try recognize(work, into: index, jobs: max(1, jobs), progress: progress)
        report.recognized = results.successes
        report.failed = unreadable + results.failures
        report.tagged = try adoptHashtags(notes)
        report.routed = try AfterChange(library: library, index: index).tagsChanged(Set(report.tagged.keys.map { NoteID(rawValue: $0) }))
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// A page file that is missing or damaged: recognising what survives would hide the damage, so the
    /// page is recorded as failed with the reason (`inkwell check`, `inkwell compact --salvage`).
    struct PageUnreadable: Error {
        let reason: String

        /// The reason a page file at `url` with `damage` is not recognised, on every path of the job.
        static func damaged(_ url: URL, _ damage: PageProblem) -> PageUnreadable {
            PageUnreadable(reason: "\(StoreError.damagedPage(url, damage)) (see `inkwell check`; `inkwell compact --salvage` keeps what survives)")
        }
    }

    /// The page's work, or nil when its content is what was last recognised.
    private func workItem(_ stored: StoredNote, _ pageID: PageID, _ known: RecognizedPageVersion?, _ index: SearchIndex) throws -> WorkItem? {
        // The note may move while the job runs: the page is read where the note is now.
        let read = try library.readingNote(stored) { current -> (url: URL, signature: String, decoded: DecodedPage?) in
            let url = library.pageURL(pageID, in: current.folder)
            let signature = PageFileSignature.of(url)
            if let known, known.signature == signature { return (url, signature, nil) }
            do {
                return (url, signature, try library.readPage(url, id: pageID))
            } catch {
                throw PageUnreadable(reason: "\(error)")
            }
        }
        guard let decoded = read.decoded else { return nil }
        let (url, signature) = (read.url, read.signature)
        if let damage = decoded.problems.first(where: \.isDamage) {
            throw PageUnreadable.damaged(url, damage)
        }
        let hash = ContentHash.of(page: decoded.page)
        if let known, known.hash == hash {
            try index.confirm(pageID, signature: signature)
            return nil
        }
        return WorkItem(note: stored, page: decoded.page, signature: signature, hash: hash)
    }

    private struct Outcome {
        var successes = 0
        var failures: [IndexingReport.Failure] = []
    }

    /// Recognises `work` on up to `jobs` threads, one recogniser each, recording every page as it is done.
    private func recognize(_ work: [WorkItem], into index: SearchIndex, jobs: Int, progress: @escaping @Sendable (Int, Int) -> Void) throws -> Outcome {
        // Nothing to do: no recogniser is made (loading Tesseract's model costs more than the rest of an unchanged run).
        guard !work.isEmpty else { return Outcome() }
        let outcomes = Slots<String?>(count: work.count)  // .some(nil): recognised; else why not
        let done = Parallel.Counter()
        let makeRecognizer = self.makeRecognizer
        Parallel.forEach(work.count, workers: jobs, makeWorker: { Result { try makeRecognizer() } }) { recognizer, i in
            let item = work[i]
            switch recognizer {
            case .failure(let error):
                outcomes[i] = "cannot start the recogniser: \(error)"
            case .success(let recognizer):
                do {
                    try index.claim(item.page.id)
                    let recognition = try recognizer.recognize(item.page)
                    try index.record(recognition, page: item.page.id, of: item.note.note.id, signature: item.signature, hash: item.hash)
                    outcomes[i] = .some(nil)
                } catch {
                    try? index.recordFailure("\(error)", page: item.page.id)
                    outcomes[i] = "\(error)"
                }
            }
            progress(done.take() + 1, work.count)
        }
        var outcome = Outcome()
        for (i, item) in work.enumerated() {
            switch outcomes[i] {
            case .some(nil): outcome.successes += 1
            case .some(let reason?):
                // Without a recogniser nothing can be read: the run fails as a whole, pages untouched.
                if reason.hasPrefix("cannot start the recogniser") { throw StoreError.invalid(reason) }
                outcome.failures.append(.init(note: item.note.note.id, page: item.page.id, reason: reason))
            case nil: outcome.failures.append(.init(note: item.note.note.id, page: item.page.id, reason: "not recognised"))
            }
        }
        return outcome
    }

    /// Gives notes the hashtags recognised in their handwriting and typed in their text by the tag
    /// rule of every path (``SessionRunner/applyTags(_:to:)``); returns the tags each note received.
    func adoptHashtags(_ notes: [StoredNote]) throws -> [String: [String]] {
        let found = try index.hashtagsFound()
        var tagged: [String: [String]] = [:]
        for stored in notes {
            let hashtags = found[stored.note.id] ?? []
            var listed = stored.note
            // Written only when something is new; the note is read again under the lock to adopt them.
            guard !SessionRunner.applyTags(hashtags, to: &listed).isEmpty else { continue }
            var new: Set<Tag> = []
            try library.updateNote(stored.note.id) { new = SessionRunner.applyTags(hashtags, to: &$0) }
            tagged[stored.note.id.rawValue] = new.sorted().map(\.name)
        }
        return tagged
    }
}
