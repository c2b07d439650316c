import Foundation
import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One change the live editor made to a note, as its journal keeps it: the pages it touched and the
/// writers' keys of the strokes it accepted.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// The page changes, each a page's paper (so a page new since the last save can be made) and the
    /// strokes added and removed by id.
    public var pages: [JournalPageChange]
    /// Writers' stroke keys this change accepted (a browser resending one is ignored).
    public var keys: [String]

    public init(pages: [JournalPageChange], keys: [String] = []) {
        self.pages = pages
        self.keys = keys
    }
}

/// What one journal entry did to one page.
public struct JournalPageChange: Sendable, Equatable, Codable {
    public var page: PageID
    public var size: PageSize
    public var template: PageTemplate
    /// Strokes added (each with the id the session gave it).
    public var added: [Stroke]
    /// Ids of strokes removed.
    public var removed: [StrokeID]

    public init(page: PageID, size: PageSize, template: PageTemplate, added: [Stroke] = [], removed: [StrokeID] = []) {
        self.page = page
        self.size = size
        self.template = template
        self.added = added
        self.removed = removed
    }
}

/// What reading a journal file found.
public struct JournalContents: Sendable, Equatable {
    /// The whole records, in order.
    public var entries: [JournalEntry]
    /// The length of the file's intact part: everything after it is a damaged tail.
    public var intactBytes: Int
    /// Why the tail was cut (names the file, the byte offset and the reason); nil when the file was whole.
    public var warning: String?

    /// Whether any entry changes a page (a journal holding only kept keys has nothing to replay).
    public var hasChanges: Bool { entries.contains { !$0.pages.isEmpty } }
}

/// A note's journal: every change the live editor makes is appended and synced here before the
/// writer is told it is kept, and a completed page save drops the entries it covers. After a crash,
/// ``Library/replayJournal(of:)`` applies what is left.
///
/// The file is a sequence of lines, one record each: 16 hex digits of the FNV-1a hash of the JSON
/// that follows, a space, a ``JournalEntry`` as JSON, a newline. A record without its newline, or
/// whose hash does not match, is a torn write: it and everything after it is cut.
///
/// Appends are **group-committed**: while one batch is being written and synced, every entry that
/// arrives waits, and the next single write and `fsync` covers all of them. Each entry's `done` is
/// called once it is on disk (or the write failed). Compaction runs in the same order as appends.
///
/// `@unchecked Sendable`: `state` is only touched holding its lock; the file only by the one
/// flush running at a time.
public final class NoteJournal: @unchecked Sendable {
    public typealias Done = @Sendable (Result<Void, StoreError>) -> Void
    /// The journal file.
    public let url: URL
    /// How many of the newest accepted keys compaction keeps (a browser resends what it has not
    /// seen confirmed; after this many newer strokes, none is that old).
    public static let keptKeys = 4096

    private typealias Record = (sequence: UInt64, line: [UInt8], keys: [String])
    private struct State {
        var nextSequence: UInt64 = 1
        /// Entries handed to ``append(_:done:)`` and not yet written.
        var pending: [(record: Record, done: Done)] = []
        /// The highest sequence a completed save covers, not yet compacted.
        var compactThrough: UInt64?
        /// Callers of ``drain()`` waiting for the flush to finish.
        var drains: [@Sendable () -> Void] = []
        var isFlushing = false
        /// Records in the file after the kept-keys record, as written.
        var written: [Record] = []
        /// Keys of entries compacted away, newest last (at most ``keptKeys``).
        var keys: [String]
        /// Batches written (one write and one sync each).
        var batches = 0

        /// True when the caller must start a flush (none is running).
        mutating func startFlush() -> Bool {
            defer { isFlushing = true }
            return !isFlushing
        }
    }
    private let state: Locked<State>
    private let executor: BlockingExecutor

    /// The journal at `url`, which holds nothing but `keys` (as after ``Library/replayJournal(of:)``);
    /// it is created on the first append.
    public init(url: URL, keys: [String] = [], executor: BlockingExecutor = .shared) {
        self.url = url
        self.executor = executor
        state = Locked(State(keys: Array(keys.suffix(Self.keptKeys))))
    }

    /// How many batches were written, each with one sync (for tests of the group commit).
    var batchesWritten: Int { state.withLock { $0.batches } }

    /// The sequence number of the latest entry handed to ``append(_:done:)`` (0: none).
    public var lastSequence: UInt64 { state.withLock { $0.nextSequence - 1 } }

    /// Queues `entry`; `done` is called, on a background thread, once it is synced to disk. Returns
    /// its sequence number.
    @discardableResult
    public func append(_ entry: JournalEntry, done: @escaping Done) -> UInt64 {
        let line = Self.line(entry)
        let (sequence, start) = state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.pending.append(((sequence, line, entry.keys), done))
            return (sequence, state.startFlush())
        }
        if start { executor.submit { self.flush() } }
        return sequence
    }

    /// Appends `entry` and returns once it is on disk.
    public func append(_ entry: JournalEntry) async throws(StoreError) {
        let result = await withCheckedContinuation { continuation in
            append(entry) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// A save holding every entry up to `sequence` completed: those entries are dropped from the file
    /// (their keys kept), after any append queued before this call is written.
    public func compact(through sequence: UInt64) {
        let start = state.withLock { state in
            state.compactThrough = max(state.compactThrough ?? 0, sequence)
            return state.startFlush()
        }
        if start { executor.submit { self.flush() } }
    }

    /// Returns once every append and compaction asked for so far is done.
    public func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.isFlushing { state.drains.append { continuation.resume() } }
                return !state.isFlushing
            }
            if now { continuation.resume() }
        }
    }

    /// Writes batches until nothing is pending: one write and one sync per batch, then the
    /// compaction asked for meanwhile.
    private func flush() {
        while true {
            let (batch, compaction, drains) = state.withLock { state in
                let work = (state.pending, state.compactThrough, state.drains)
                state.pending = []
                state.compactThrough = nil
                if work.0.isEmpty && work.1 == nil {
                    state.isFlushing = false
                    state.drains = []
                }
                return work
            }
            if batch.isEmpty && compaction == nil {
                for drain in drains { drain() }
                return
            }
            if !batch.isEmpty {
                var result: Result<Void, StoreError> = .success(())
                do throws(StoreError) {
                    try write(batch.flatMap(\.record.line))
                    state.withLock { state in
                        state.written += batch.map(\.record)
                        state.batches += 1
                    }
                } catch {
                    result = .failure(error)
                }
                for item in batch { item.done(result) }
            }
            // A failed compaction leaves the entries in the file: replaying them again changes nothing.
            if let compaction { try? rewrite(dropping: compaction) }
        }
    }

    /// Appends `bytes` and syncs; a new file's folder is synced too, so the file stays. A failed
    /// write is cut off again.
    private func write(_ bytes: [UInt8]) throws(StoreError) {
        let existed = FileManager.default.fileExists(atPath: url.path)
        if !existed {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw StoreError.io(url, "cannot make the journal's folder: \(error.localizedDescription)")
            }
        }
        let fd = url.path.withCString { systemOpen($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw StoreError.io(url, "cannot open the journal: \(errnoText())") }
        defer { close(fd) }
        let end = lseek(fd, 0, SEEK_END)
        do {
            try DurableFile.writeAndSync(fd, bytes)
        } catch {
            // A part written would end the journal there for the reader: later entries would be cut with it.
            if end >= 0 { _ = ftruncate(fd, end) }
            throw StoreError.io(url, "journal \(error.step): \(error.reason)")
        }
        if !existed { try DurableFile.syncFolder(url.deletingLastPathComponent()) }
    }

    /// Replaces the file with the kept keys and the records after `sequence`.
    private func rewrite(dropping sequence: UInt64) throws(StoreError) {
        let bytes = state.withLock { state -> [UInt8] in
            let dropped = state.written.prefix { $0.sequence <= sequence }
            state.written.removeFirst(dropped.count)
            state.keys = Array((state.keys + dropped.flatMap(\.keys)).suffix(Self.keptKeys))
            let header = state.keys.isEmpty ? [] : Self.line(JournalEntry(pages: [], keys: state.keys))
            return header + state.written.flatMap(\.line)
        }
        if bytes.isEmpty {
            guard unlink(url.path) == 0 || errno == ENOENT else { throw StoreError.io(url, "cannot remove the journal: \(errnoText())") }
            try DurableFile.syncFolder(url.deletingLastPathComponent())
        } else {
            try DurableFile.replace(url, with: bytes)
        }
    }

    // MARK: The format

    /// One record: hash, space, JSON, newline.
    static func line(_ entry: JournalEntry) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain values cannot fail.
        let json = (try? encoder.encode(entry)).map { [UInt8]($0) } ?? []
        return Array(FNV1a.hex(json).utf8) + [0x20] + json + [0x0A]
    }

    /// Reads the journal at `url`: its whole records, and where and why a damaged tail begins.
    /// A missing file is an empty journal.
    public static func read(_ url: URL) throws(StoreError) -> JournalContents {
        guard FileManager.default.fileExists(atPath: url.path) else { return JournalContents(entries: [], intactBytes: 0) }
        let bytes = try DurableFile.read(url)
        var entries: [JournalEntry] = []
        var offset = 0
        let decoder = JSONDecoder()
        while offset < bytes.count {
            guard let newline = bytes[offset...].firstIndex(of: 0x0A) else {
                return cut(url, entries, at: offset, of: bytes.count, "a record without its end (a torn write)")
            }
            let record = bytes[offset..<newline]
            guard record.count > 17, record[record.startIndex + 16] == 0x20,
                  let expected = String(bytes: record.prefix(16), encoding: .ascii),
                  expected == FNV1a.hex(record.dropFirst(17)) else {
                return cut(url, entries, at: offset, of: bytes.count, "a record whose checksum does not match")
            }
            guard let entry = try? decoder.decode(JournalEntry.self, from: Data(record.dropFirst(17))) else {
                return cut(url, entries, at: offset, of: bytes.count, "a record that is not a journal entry")
            }
            entries.append(entry)
            offset = newline + 1
        }
        return JournalContents(entries: entries, intactBytes: offset)
    }

    private static func cut(_ url: URL, _ entries: [JournalEntry], at offset: Int, of total: Int, _ reason: String) -> JournalContents {
        JournalContents(entries: entries, intactBytes: offset,
                        warning: "\(url.path): cut at byte \(offset) of \(total), after \(entries.count) whole record(s): \(reason)")
    }
}

extension Library {
    /// The folder of the notes' journals: by note id, so a note moved to another notebook keeps its journal.
    var journalFolder: URL { root.appendingPathComponent(".journal", isDirectory: true) }

    /// Where the journal of `note` is.
    public func journalURL(of note: NoteID) -> URL {
        journalFolder.appendingPathComponent(note.rawValue + ".journal")
    }

    /// The lock live writers hold shared while they run (``holdLiveLease()``).
    var liveLockURL: URL { journalFolder.appendingPathComponent(".live.lock") }

    /// Marks this process as writing the library live (a server) for as long as the lease lives: the
    /// journals of its open notes are its own, and ``replayJournalsIfIdle()`` in another process
    /// leaves them alone. Several servers may hold it at once.
    public func holdLiveLease() throws -> LiveLease {
        try FileManager.default.createDirectory(at: journalFolder, withIntermediateDirectories: true)
        let fd = liveLockURL.path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw StoreError.io(liveLockURL, "cannot open: \(errnoText())") }
        do {
            try LibraryLock.acquire(fd, LOCK_SH, timeout: 30)
        } catch {
            close(fd)
            throw StoreError.locked(journalFolder)
        }
        return LiveLease(fd: fd)
    }

    /// Replays every journal with changes, unless a live writer holds its lease (then nil: a running
    /// server owns those journals and saves them itself).
    public func replayJournalsIfIdle() -> [(note: NoteID, outcome: Result<JournalReplay, any Error>)]? {
        let notes = notesWithJournal()
        guard !notes.isEmpty else { return [] }
        let fd = liveLockURL.path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            return notes.map { ($0, .failure(StoreError.io(liveLockURL, "cannot open: \(errnoText())"))) }
        }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return nil }
        defer { flock(fd, LOCK_UN) }
        return notes.map { note in (note, Result { try replayJournal(of: note) }) }
    }

    /// The notes that have a journal with changes in it (left by a server that stopped before saving).
    public func notesWithJournal() -> [NoteID] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journalFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".journal") }.map { NoteID(rawValue: String($0.dropLast(".journal".count))) }
            .filter { (try? NoteJournal.read(journalURL(of: $0)).hasChanges) == true }.sorted { $0.rawValue < $1.rawValue }
    }

    /// Applies what is left in `note`'s journal to its stored pages and saves them, then leaves the
    /// journal holding only the accepted keys. Idempotent: a stroke whose id its page has is not
    /// added again, a removed id that is gone is skipped; so entries a save already stored change
    /// nothing. A damaged tail is cut at the last whole record (the returned warning says where).
    /// Call it with no live session of the note running (it owns the journal while open).
    @discardableResult
    public func replayJournal(of note: NoteID) throws -> JournalReplay {
        let url = journalURL(of: note)
        let contents = try NoteJournal.read(url)
        let keys = contents.entries.flatMap(\.keys)
        var replay = JournalReplay(keys: Array(keys.suffix(NoteJournal.keptKeys)), warning: contents.warning)
        guard contents.hasChanges || contents.warning != nil else { return replay }
        if contents.hasChanges {
            let stored = try self.note(matching: note.rawValue)
            let before = try pages(of: stored)
            var pages = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var order = before.map(\.id)
            for entry in contents.entries {
                for change in entry.pages {
                    if pages[change.page] == nil {
                        pages[change.page] = Page(id: change.page, size: change.size, template: change.template)
                        order.append(change.page)
                    }
                    let removed = Set(change.removed)
                    pages[change.page]!.strokes.removeAll { removed.contains($0.id) }
                    for stroke in change.added where !pages[change.page]!.strokes.contains(where: { $0.id == stroke.id }) {
                        pages[change.page]!.strokes.append(stroke)
                    }
                }
            }
            let storedPages = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var deltas: [PageDelta] = []
            for id in order {
                guard let page = pages[id] else { continue }
                let old = storedPages[id]
                let oldIDs = Set(old?.strokes.map(\.id) ?? [])
                let newIDs = Set(page.strokes.map(\.id))
                let added = page.strokes.filter { !oldIDs.contains($0.id) }
                let removed = (old?.strokes ?? []).map(\.id).filter { !newIDs.contains($0) }.sorted()
                guard old == nil || !added.isEmpty || !removed.isEmpty else { continue }
                deltas.append(PageDelta(pageID: id, size: page.size, template: page.template, isNew: old == nil,
                                        addedStrokes: added, removedStrokeIDs: removed))
                replay.strokesAdded += added.count
                replay.strokesRemoved += removed.count
                if old == nil { replay.pagesAdded += 1 }
            }
            if !deltas.isEmpty { try save(deltas, to: note) }
        }
        let kept = replay.keys.isEmpty ? [] : NoteJournal.line(JournalEntry(pages: [], keys: replay.keys))
        if kept.isEmpty {
            if unlink(url.path) != 0 && errno != ENOENT { throw StoreError.io(url, "cannot remove the journal: \(errnoText())") }
        } else {
            try DurableFile.replace(url, with: kept)
        }
        return replay
    }
}

/// A live writer's hold on the library's journals (``Library/holdLiveLease()``), released when it
/// is dropped.
public final class LiveLease: Sendable {
    private let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}

/// What ``Library/replayJournal(of:)`` did.
public struct JournalReplay: Sendable, Equatable {
    /// The accepted keys the journal held (the newest ``NoteJournal/keptKeys``).
    public var keys: [String]
    /// Why a damaged tail was cut, naming the file and offset; nil when it was whole.
    public var warning: String?
    /// Strokes the stored pages lacked and now have, strokes removed, pages created.
    public var strokesAdded = 0
    public var strokesRemoved = 0
    public var pagesAdded = 0

    public init(keys: [String], warning: String?) {
        self.keys = keys
        self.warning = warning
    }
}
