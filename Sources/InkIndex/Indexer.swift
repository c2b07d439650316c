import Foundation
import GRDB
import InkCore
import InkRecognize
import InkStore
import InkText

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
    public var recognised = 0
    /// Pages whose content had not changed.
    public var unchanged = 0
    public var failed: [Failure] = []
    /// Notes that received tags from recognised hashtags, with those tags.
    public var tagged: [String: [String]] = [:]
    /// Notes the routing rules filed out of the Inbox because of those tags.
    public var routed: [RoutedNote] = []
    public var seconds = 0.0
}

/// The OCR indexing job: recognise every page whose content changed since it was last indexed, in
/// parallel, recording each page's result as soon as it is done (so a killed run loses nothing and
/// the next one does nothing twice), then give notes the hashtags found in them and file the notes
/// whose tags changed out of the Inbox by the routing rules (``Library/applyRoutes(to:dryRun:)``).
public struct Indexer: Sendable {
    public let library: Library
    public let index: SearchIndex
    /// Makes one recogniser per worker thread.
    public let makeRecognizer: @Sendable () throws -> any PageRecognizer

    public init(library: Library, index: SearchIndex, makeRecognizer: @escaping @Sendable () throws -> any PageRecognizer) {
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
        let started = Date()
        var report = IndexingReport()
        let all = try library.notes()
        try index.sync(all, library: library)
        let notes = only.map { wanted in all.filter { wanted.contains($0.note.id) } } ?? all
        try releaseStaleClaims()
        // What was recognised, read in one go: an unchanged page then costs one stat call.
        let recognised = try index.database.read { db in
            var known: [String: Recognised] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, file_signature, content_hash FROM page WHERE status = 'recognised'") {
                known[row[0]] = Recognised(signature: row[1], hash: row[2])
            }
            return known
        }
        var work: [WorkItem] = []
        var unreadable: [IndexingReport.Failure] = []
        for stored in notes {
            for pageID in stored.note.pages where shard.contains(pageID) {
                report.pages += 1
                do {
                    if let item = try workItem(stored, pageID, recognised[pageID.rawValue]) { work.append(item) } else { report.unchanged += 1 }
                } catch let error as PageUnreadable {
                    try recordFailure(error.reason, page: pageID)
                    unreadable.append(.init(note: stored.note.id, page: pageID, reason: error.reason))
                }
            }
        }
        let results = try recognise(work, jobs: max(1, jobs), progress: progress)
        report.recognised = results.successes
        report.failed = unreadable + results.failures
        report.tagged = try applyHashtags(notes)
        report.routed = try route(Set(report.tagged.keys.map { NoteID(rawValue: $0) }))
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// A page left `processing` by a run that was killed (or hung past its lease) is pending again;
    /// pages other live runs are working on are left to them.
    private func releaseStaleClaims() throws {
        let claims = try index.database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, worker, started_at FROM page WHERE status = 'processing'")
        }
        let stale: [String] = claims.filter { Worker.isStale($0["worker"], startedAt: $0["started_at"]) }.map { $0["id"] }
        guard !stale.isEmpty else { return }
        try index.database.write { db in
            for id in stale {
                try db.execute(sql: "UPDATE page SET status = 'pending', worker = NULL, started_at = NULL WHERE id = ? AND status = 'processing'",
                               arguments: [id])
            }
        }
    }

    /// A page file that is missing or damaged: recognising what survives would hide the damage, so the
    /// page is recorded as failed with the reason (`inkwell check`, `inkwell compact --salvage`).
    struct PageUnreadable: Error {
        let reason: String
    }

    /// What the index holds about a recognised page.
    private struct Recognised {
        let signature: String?
        let hash: String?
    }

    /// The page's work, or nil when its content is what was last recognised.
    private func workItem(_ stored: StoredNote, _ pageID: PageID, _ known: Recognised?) throws -> WorkItem? {
        let url = library.pageURL(pageID, in: stored.folder)
        let signature = FileSignature.of(url)
        if let known, known.signature == signature { return nil }
        let decoded: DecodedPage
        do {
            decoded = try library.readPage(url, id: pageID)
        } catch {
            throw PageUnreadable(reason: "\(error)")
        }
        if let damage = decoded.problems.first(where: \.isDamage) {
            throw PageUnreadable(reason: "\(StoreError.damagedPage(url, damage)) (see `inkwell check`; `inkwell compact --salvage` keeps what survives)")
        }
        let hash = ContentHash.of(page: decoded.page)
        if let known, known.hash == hash {
            try index.database.write { db in
                try db.execute(sql: "UPDATE page SET file_signature = ? WHERE id = ?", arguments: [signature, pageID.rawValue])
            }
            return nil
        }
        return WorkItem(note: stored, page: decoded.page, signature: signature, hash: hash)
    }

    private struct Outcome {
        var successes = 0
        var failures: [IndexingReport.Failure] = []
    }

    private func recognise(_ work: [WorkItem], jobs: Int, progress: @escaping @Sendable (Int, Int) -> Void) throws -> Outcome {
        // Nothing to do: no recogniser is made (loading Tesseract's model costs more than the rest of an unchanged run).
        guard !work.isEmpty else { return Outcome() }
        let queue = WorkQueue(work)
        let workers = min(jobs, work.count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let recognizer: any PageRecognizer
            do {
                recognizer = try makeRecognizer()
            } catch {
                queue.abandon(reason: "cannot start the recogniser: \(error)")
                return
            }
            while let item = queue.next() {
                do {
                    try index.database.write { db in
                        try db.execute(sql: "UPDATE page SET status = 'processing', worker = ?, started_at = ? WHERE id = ?",
                                       arguments: [Worker.current, Date().timeIntervalSince1970, item.page.id.rawValue])
                    }
                    let recognition = try recognizer.recognize(item.page)
                    try record(recognition, for: item)
                    queue.finished(success: true, item: item, reason: nil)
                } catch {
                    try? recordFailure("\(error)", page: item.page.id)
                    queue.finished(success: false, item: item, reason: "\(error)")
                }
                progress(queue.done, work.count)
            }
        }
        if let reason = queue.abandoned { throw StoreError.invalid(reason) }
        return Outcome(successes: queue.successes, failures: queue.failures)
    }

    private func record(_ recognition: PageRecognition, for item: WorkItem) throws {
        try index.database.write { db in
            try index.store(recognition, page: item.page.id, signature: item.signature, hash: item.hash, db)
            try SearchIndex.rewriteSearchRows(db, noteID: item.note.note.id.rawValue)
        }
    }

    private func recordFailure(_ reason: String, page: PageID) throws {
        try index.database.write { db in
            try db.execute(sql: "UPDATE page SET status = 'failed', error = ?, worker = NULL, started_at = NULL WHERE id = ?",
                           arguments: [reason, page.rawValue])
        }
    }

    /// Files the notes whose tags recognition just changed by the routing rules, and tells the index
    /// where they went.
    private func route(_ notes: Set<NoteID>) throws -> [RoutedNote] {
        guard !notes.isEmpty else { return [] }
        let routed = try library.applyRoutes(to: notes)
        if !routed.isEmpty {
            let moved = Set(routed.map(\.id))
            try index.sync(try library.notes().filter { moved.contains($0.note.id) }, library: library, complete: false)
        }
        return routed
    }

    /// Adds recognised hashtags, and hashtags typed in the notes' text (which may have been edited
    /// outside Inkwell), to their notes, except tags the user removed by hand.
    private func applyHashtags(_ notes: [StoredNote]) throws -> [String: [String]] {
        var found: [String: Set<Tag>] = [:]
        try index.database.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT note_id, hashtags FROM page WHERE hashtags IS NOT NULL AND hashtags != ''") {
                let tags = (row["hashtags"] as String).split(separator: " ").compactMap { Tag(String($0)) }
                found[row["note_id"], default: []].formUnion(tags)
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, body FROM note WHERE body LIKE '%#%'") {
                found[row["id"], default: []].formUnion(TypedText(row["body"] as String).hashtags)
            }
        }
        var tagged: [String: [String]] = [:]
        var changed: [StoredNote] = []
        for stored in notes {
            let new = (found[stored.note.id.rawValue] ?? []).subtracting(stored.note.tags).subtracting(stored.note.removedTags)
            guard !new.isEmpty else { continue }
            let updated = try library.updateNote(stored.note.id) { note in
                note.tags.formUnion(new.subtracting(note.removedTags))
            }
            tagged[stored.note.id.rawValue] = new.sorted().map(\.name)
            changed.append(updated)
        }
        if !changed.isEmpty { try index.sync(changed, library: library, complete: false) }
        return tagged
    }
}

/// The work of one run, handed out to worker threads one page at a time.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Indexer.WorkItem]
    private var position = 0
    private(set) var done = 0
    private(set) var successes = 0
    private(set) var failures: [IndexingReport.Failure] = []
    private(set) var abandoned: String?

    init(_ items: [Indexer.WorkItem]) { self.items = items }

    func next() -> Indexer.WorkItem? {
        lock.withLock {
            guard abandoned == nil, position < items.count else { return nil }
            defer { position += 1 }
            return items[position]
        }
    }

    func finished(success: Bool, item: Indexer.WorkItem, reason: String?) {
        lock.withLock {
            done += 1
            if success {
                successes += 1
            } else {
                failures.append(.init(note: item.note.note.id, page: item.page.id, reason: reason ?? "unknown"))
            }
        }
    }

    func abandon(reason: String) { lock.withLock { abandoned = abandoned ?? reason } }
}

/// Cheap identity of a file's current version: size and modification time.
enum FileSignature {
    static func of(_ url: URL) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return "missing" }
        let size = attributes[.size] as? Int ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size):\(modified)"
    }
}

/// A 64-bit FNV-1a hash: enough to tell whether a page's (or an export's) content changed.
public enum ContentHash {
    /// The hash of `bytes`.
    public static func of(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of a page's canonical encoding: the same whatever appends and compactions made the file.
    public static func of(page: Page) -> String {
        let canonical = (try? PageCodec.encodeFile(page)) ?? []
        return String(of(canonical), radix: 16)
    }
}
