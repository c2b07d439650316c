import Foundation
import GRDB
import InkCore
import InkStore

/// The search index of a library: `index.sqlite` beside the notebooks, SQLite with FTS5 through GRDB.
///
/// It holds a copy of every note's metadata, the recognised text and words of every page, and an
/// FTS5 table over titles, text and tags. Everything in it can be rebuilt from the library
/// (`inkwell index --rebuild`); the library's files stay the source of truth.
public final class SearchIndex: Sendable {
    let database: any DatabaseWriter
    public let url: URL
    /// True when the index could only be opened for reading (a read-only library, a full disk):
    /// searches and page states work, ``refresh(from:)`` does nothing and recording is refused.
    public let isReadOnly: Bool
    /// True when the index could not be kept on disk at all (a full disk or a read-only library
    /// without one): it lives in memory, filled from the library's files by ``refresh(from:)``, so
    /// titles, tags and typed text are still searched; recognition cannot be kept in it.
    public let isInMemory: Bool
    /// Where a damaged index file (not a database, or corrupt) was set aside before this one was
    /// created in its place; nil when the file opened as it was.
    public let setAside: URL?

    /// Where the index of `library` lives (whether or not it exists yet).
    public static func location(of library: Library) -> URL {
        library.root.appendingPathComponent("index.sqlite")
    }

    /// Opens (creating or migrating) the index of `library`.
    public convenience init(library: Library) throws {
        try self.init(url: SearchIndex.location(of: library))
    }

    public init(url: URL) throws {
        self.url = url
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        // Searches read many small parts of a large file: mapped, they come from the page cache
        // without a read call each.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        // A library on a read-only mount (a backup, another user's folder) is only read.
        let folder = url.deletingLastPathComponent().path
        let writable = access(folder, W_OK) == 0 && (access(url.path, F_OK) != 0 || access(url.path, W_OK) == 0)
        if !writable, let reader = SearchIndex.openForReading(url, configuration: configuration) {
            (database, isReadOnly, isInMemory, setAside) = (reader, true, false, nil)
            return
        }
        (database, isReadOnly, isInMemory, setAside) = try SearchIndex.openWritable(url, configuration: configuration, writable: writable)
    }

    /// Opens the index at `url` to be written: as it is; made anew after setting a damaged file aside;
    /// for reading only where it exists but cannot be written; or in memory where it cannot be kept.
    private static func openWritable(_ url: URL, configuration: Configuration, writable: Bool)
        throws -> (any DatabaseWriter, isReadOnly: Bool, isInMemory: Bool, setAside: URL?) {
        let existed = FileManager.default.fileExists(atPath: url.path)
        do {
            do {
                return (try open(url, configuration: configuration), false, false, nil)
            } catch let error as DatabaseError where writable && (error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT) {
                // The index is a cache of the library: a damaged one is set aside (for whoever wants to
                // look at it) and made anew, and the next `inkwell index` reads the pages again.
                let aside = try setAside(url)
                return (try open(url, configuration: configuration), false, false, aside)
            }
        } catch {
            if let reader = openForReading(url, configuration: configuration) { return (reader, true, false, nil) }
            // Nowhere to keep an index (a full disk, a read-only folder without one): none is left
            // behind half made, and one in memory answers from the library's files.
            if !existed { removeEmptyFiles(of: url) }
            let memory = try DatabaseQueue(configuration: configuration)
            try migrator.migrate(memory)
            return (memory, false, true, nil)
        }
    }

    /// What a front end says once about this index, or nil when it opened as it was: kept in memory,
    /// read-only, or made anew in place of a damaged file.
    public var notice: String? {
        if isInMemory {
            return "note: the search index cannot be kept at \(url.path) (read-only library or full disk): titles, tags and typed text are searched from the files, recognised handwriting is not"
        }
        if isReadOnly {
            return "note: \(url.path) could only be opened for reading (read-only library or full disk); it was not refreshed, so changes since it was last written are not in it"
        }
        if let setAside {
            return "note: the search index was damaged; it was set aside as \(setAside.path) and made anew (`inkwell index` reads the pages again)"
        }
        return nil
    }

    /// Moves a damaged index file (and its WAL and shared-memory files) aside as
    /// `index.sqlite.damaged-TIMESTAMP`; returns where it went.
    private static func setAside(_ url: URL) throws -> URL {
        let stamp = Int(Date().timeIntervalSince1970)
        let target = URL(fileURLWithPath: url.path + ".damaged-\(stamp)")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try DurableFile.move(URL(fileURLWithPath: url.path + suffix), to: URL(fileURLWithPath: target.path + suffix))
        }
        return target
    }

    /// Removes the index files an attempt to create it left empty.
    private static func removeEmptyFiles(of url: URL) {
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
                unlink(path)
            }
        }
    }

    /// Runs `body` in a write transaction; an index opened read-only refuses, naming why.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else {
            throw StoreError.io(url, "the index can only be read here (the library folder cannot be written, or the disk is full): nothing was changed")
        }
        return try database.write(body)
    }

    /// Runs `body`, which keeps what recognition read (or the indexing job's work), in a write
    /// transaction; an index that lives in memory refuses, since what it keeps would be lost.
    func writeRecognition<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isInMemory else {
            throw StoreError.io(url, "the search index cannot be kept here (read-only library or full disk): recognised text cannot be stored")
        }
        return try write(body)
    }

    /// The index opened for reading only, when it exists and is complete: where its folder cannot be
    /// written, SQLite cannot make the files WAL mode reads through, so the file is opened
    /// `immutable` (nobody can be writing it there either).
    private static func openForReading(_ url: URL, configuration: Configuration) -> DatabaseQueue? {
        var configuration = configuration
        configuration.readonly = true
        var path = URLComponents()
        path.scheme = "file"
        path.path = url.path
        path.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        for candidate in [url.path, path.string].compactMap({ $0 }) {
            if let queue = try? DatabaseQueue(path: candidate, configuration: configuration),
               (try? queue.read(migrator.hasCompletedMigrations)) == true {
                return queue
            }
        }
        return nil
    }

    /// Opens the database at `url`, creating or migrating it first when it needs it. Two processes
    /// creating a new index at once would collide (both switching it to WAL, both running a
    /// migration GRDB saw missing), so whoever creates or migrates holds the index's lock; an index
    /// that is complete already opens without it.
    private static func open(_ url: URL, configuration: Configuration) throws -> DatabasePool {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        if size > 0, let pool = try? DatabasePool(path: url.path, configuration: configuration),
           (try? pool.read(migrator.hasCompletedMigrations)) == true {
            return pool
        }
        return try LibraryLock(url: URL(fileURLWithPath: url.path + ".lock")).withExclusive {
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            try migrator.migrate(pool)
            return pool
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE note (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    notebook TEXT NOT NULL,
                    created REAL NOT NULL,
                    modified REAL NOT NULL,
                    pinned INTEGER NOT NULL,
                    tags TEXT NOT NULL
                );
                CREATE TABLE note_tag (
                    note_id TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    tag TEXT NOT NULL,
                    PRIMARY KEY (note_id, tag)
                ) WITHOUT ROWID;
                CREATE INDEX note_tag_by_tag ON note_tag(tag);
                CREATE TABLE page (
                    id TEXT PRIMARY KEY NOT NULL,
                    note_id TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending',
                    file_signature TEXT,
                    content_hash TEXT,
                    text TEXT,
                    hashtags TEXT,
                    error TEXT,
                    recognised_at REAL
                );
                CREATE INDEX page_by_note ON page(note_id);
                CREATE TABLE word (
                    page_id TEXT NOT NULL REFERENCES page(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    line INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    min_x REAL NOT NULL, min_y REAL NOT NULL, max_x REAL NOT NULL, max_y REAL NOT NULL,
                    confidence REAL NOT NULL,
                    PRIMARY KEY (page_id, position)
                ) WITHOUT ROWID;
                CREATE VIRTUAL TABLE search USING fts5(
                    title, text, tags, note_id UNINDEXED, page_id UNINDEXED,
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE search_vocabulary USING fts5vocab(search, 'row');
                """)
        }
        // Typed text: a copy of each note's body (NULL until the next sync reads it) and its own column
        // in the full-text table, so a hit can say it is in the typed text.
        migrator.registerMigration("v2-typed-text") { db in
            try db.execute(sql: """
                ALTER TABLE note ADD COLUMN body TEXT;
                DROP TABLE search_vocabulary;
                DROP TABLE search;
                CREATE VIRTUAL TABLE search USING fts5(
                    title, text, body, tags, note_id UNINDEXED, page_id UNINDEXED,
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE search_vocabulary USING fts5vocab(search, 'row');
                """)
            // The rows are written again by "v4: fast search", which always follows.
        }
        migrator.registerMigration("v3: who is recognising a page") { db in
            // `worker` is host:pid of the process that marked the page `processing`, `started_at` when:
            // a page whose worker is gone (or took longer than the lease) reads as pending again.
            try db.execute(sql: "ALTER TABLE page ADD COLUMN worker TEXT; ALTER TABLE page ADD COLUMN started_at REAL;")
        }
        migrator.registerMigration("v4: fast search") { db in
            // Every condition of a query is found through the FTS index: a tag or a notebook (and
            // each notebook above it) is one exact token in the `keys` column. `search_row` holds
            // each row's note and page: FTS5 cannot find rows by an unindexed column without reading
            // every row, and reading even one of its own columns costs more. `vocabulary` holds every
            // indexed word by first letter and length (for typo-tolerant lookups that read only words
            // of a near length) and by itself (for prefixes), with how many times it was indexed (a
            // note's words count again when it is rewritten).
            try db.execute(sql: """
                DROP TABLE search_vocabulary;
                DROP TABLE search;
                CREATE VIRTUAL TABLE search USING fts5(title, text, body, tags, keys, tokenize = 'unicode61 remove_diacritics 2');
                CREATE TABLE search_row (id INTEGER PRIMARY KEY, note_id TEXT NOT NULL, page_id TEXT);
                CREATE INDEX search_row_by_note ON search_row(note_id);
                CREATE TABLE vocabulary (
                    initial TEXT NOT NULL,
                    length INTEGER NOT NULL,
                    term TEXT NOT NULL,
                    uses INTEGER NOT NULL,
                    PRIMARY KEY (initial, length, term)
                ) WITHOUT ROWID;
                CREATE INDEX vocabulary_by_term ON vocabulary(term);
                """)
            // The rows are written by "v5: other readings", which always follows.
        }
        migrator.registerMigration("v5: other readings") { db in
            // The readings recognition weighed and did not take, one per line: search matches them
            // (their own full-text column, ranked below the text read) but shows the text read.
            try db.execute(sql: """
                ALTER TABLE page ADD COLUMN alternatives TEXT;
                DROP TABLE search;
                DELETE FROM search_row;
                CREATE VIRTUAL TABLE search USING fts5(title, text, body, tags, keys, alternatives,
                                                       tokenize = 'unicode61 remove_diacritics 2');
                """)
            for note in try String.fetchAll(db, sql: "SELECT id FROM note") {
                try SearchIndex.rewriteSearchRows(db, noteID: note)
            }
        }
        return migrator
    }

    /// Removes everything from the index (the next run recognises every page again).
    public func clear() throws {
        try write { db in
            try db.execute(sql: "DELETE FROM search; DELETE FROM search_row; DELETE FROM vocabulary; DELETE FROM word; DELETE FROM page; DELETE FROM note_tag; DELETE FROM note;")
        }
    }
}

/// A page's recognition state, as `note show` and `stats` display it.
public enum PageStatus: String, Sendable, Codable, CaseIterable {
    /// Raw values as the index stores them and `--json` prints them.
    case pending, processing, recognized = "recognised", failed
}

/// A page's recognition state and, when it failed, why.
public struct PageState: Sendable, Codable, Equatable {
    public var status: PageStatus
    public var reason: String?

    public init(status: PageStatus, reason: String? = nil) {
        self.status = status
        self.reason = reason
    }

    /// How many of `states` are in each status (every status present, zero when none).
    public static func counts<S: Sequence>(_ states: S) -> [PageStatus: Int] where S.Element == PageState {
        var counts = Dictionary(uniqueKeysWithValues: PageStatus.allCases.map { ($0, 0) })
        for state in states { counts[state.status, default: 0] += 1 }
        return counts
    }
}

/// Who is recognising a page: this process, written `host:pid`, and how long a claim may last.
package enum Worker {
    package static let current = "\(ProcessInfo.processInfo.hostName):\(getpid())"
    /// A page `processing` for longer than this reads as pending (its worker hung, or its pid was reused).
    static let lease: TimeInterval = 600

    /// True when the claim `worker` made at `startedAt` no longer holds: the process is gone (checked
    /// when it ran on this host) or the lease ran out.
    static func isStale(_ worker: String?, startedAt: Double?, now: Date = Date()) -> Bool {
        guard let worker, let startedAt, now.timeIntervalSince1970 - startedAt < lease else { return true }
        return isGone(worker)
    }

    /// True when `worker` ran on this host and its process has ended (unknown elsewhere: false).
    package static func isGone(_ worker: String) -> Bool {
        guard let colon = worker.lastIndex(of: ":"), let pid = Int32(worker[worker.index(after: colon)...]) else { return true }
        guard worker[..<colon] == ProcessInfo.processInfo.hostName[...] else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

extension SearchIndex {
    /// The recognition state of every page of `notes`, derived from the index (the one place that
    /// records recognition): a page the index has not seen is pending, a page changed on disk since it
    /// was recognised is pending again, and a page left `processing` by a process that died (or
    /// overran its lease) is pending, so a `kill -9` never leaves one stuck.
    public func pageStates(of notes: [StoredNote], in library: Library) throws -> [PageID: PageState] {
        var rows: [String: Row] = [:]
        let columns = "SELECT id, status, file_signature, error, worker, started_at FROM page"
        try database.read { db in
            // A few notes (`note show`): their pages by note; many (`stats`): one pass over the table.
            let fetched = notes.count <= 100
                ? try notes.flatMap { try Row.fetchAll(db, sql: columns + " WHERE note_id = ?", arguments: [$0.note.id.rawValue]) }
                : try Row.fetchAll(db, sql: columns)
            for row in fetched { rows[row["id"]] = row }
        }
        var states: [PageID: PageState] = [:]
        for stored in notes {
            for page in stored.note.pages {
                let row = rows[page.rawValue]
                states[page] = PageState.derived(
                    status: row.flatMap { PageStatus(rawValue: $0["status"]) }, signature: row?["file_signature"], reason: row?["error"],
                    claimIsStale: { Worker.isStale(row?["worker"], startedAt: row?["started_at"]) },
                    currentSignature: { PageFileSignature.of(library.pageURL(page, in: stored.folder)) })
            }
        }
        return states
    }
}

extension PageState {
    /// A page's state from what an index recorded (`status` nil: never seen), the same in every
    /// backend: a page never seen is pending, a claim that no longer holds reads pending, a page
    /// whose file changed since it was recognised (its signature is not `signature`) is pending again.
    package static func derived(status: PageStatus?, signature: String?, reason: String?, claimIsStale: () -> Bool,
                                currentSignature: () -> String) -> PageState {
        switch status {
        case nil, .pending: return PageState(status: .pending)
        case .processing: return PageState(status: claimIsStale() ? .pending : .processing)
        case .recognized: return PageState(status: currentSignature() == signature ? .recognized : .pending)
        case .failed: return PageState(status: .failed, reason: reason ?? "unknown reason")
        }
    }
}

extension SearchIndex {
    /// Brings titles, notebooks, tags and typed text up to date with the library without recognising
    /// anything, so a search right after an import, a rename or an edit sees them.
    public func refresh(from library: Library) throws {
        guard !isReadOnly else { return }
        try sync(try library.notes(), library: library)
    }
}

extension SearchIndex {
    /// The recognised text of each recognised page of a note.
    public func pageTexts(of note: NoteID) throws -> [PageID: String] {
        try database.read { db in
            var texts: [PageID: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, text FROM page WHERE note_id = ? AND text IS NOT NULL", arguments: [note.rawValue]) {
                texts[PageID(rawValue: row["id"])] = row["text"]
            }
            return texts
        }
    }

    public func wordsRead(withConfidence confidence: Float, onPages pages: Int) throws -> [String] {
        try database.read { db in
            // SQLite's lower() folds ASCII only; the caller folds the rest.
            try String.fetchAll(db, sql: """
                SELECT lower(text) AS folded FROM word WHERE confidence >= ? AND length(text) >= 3
                GROUP BY folded HAVING count(DISTINCT page_id) >= ?
                """, arguments: [Double(confidence), pages])
        }
    }

    /// The recognised words of each page of a note, in reading order.
    public func words(of note: NoteID) throws -> [PageID: [RecognizedWord]] {
        try database.read { db in
            var words: [PageID: [RecognizedWord]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT word.page_id AS page_id, word.text AS text, line, min_x, min_y, max_x, max_y, confidence
                FROM word JOIN page ON page.id = word.page_id WHERE page.note_id = ? ORDER BY word.page_id, position
                """, arguments: [note.rawValue]) {
                words[PageID(rawValue: row["page_id"]), default: []].append(RecognizedWord(
                    text: row["text"], box: Rect(minX: row["min_x"], minY: row["min_y"], maxX: row["max_x"], maxY: row["max_y"]),
                    confidence: Float(row["confidence"] as Double), line: row["line"]))
            }
            return words
        }
    }
}

extension SearchIndex {
    /// Keeps what recognition read on the pages of notes outside the indexing job (an import does
    /// this), in one transaction. Each result is filed under the content hash of the page it was read
    /// from, so ``Indexer`` skips the page for as long as its content stays that; a page whose file
    /// has changed since is read again by the next run.
    public func record(_ notes: [(note: StoredNote, pages: [(page: Page, recognition: PageRecognition)])], in library: Library) throws {
        try sync(notes.map(\.note), library: library, complete: false, searchRows: false)
        try writeRecognition { db in
            for (stored, recognized) in notes {
                for (page, recognition) in recognized where stored.note.pages.contains(page.id) {
                    let version = RecognizedPageVersion.recognizedOutsideTheJob(page, of: stored, in: library)
                    try store(recognition, page: page.id, signature: version.signature, hash: version.hash, db)
                }
                try SearchIndex.rewriteSearchRows(db, noteID: stored.note.id.rawValue)
            }
        }
    }

    /// Files one page's recognition: its text, hashtags and words, under the content it was read from.
    func store(_ recognition: PageRecognition, page: PageID, signature: String?, hash: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE page SET status = 'recognised', file_signature = ?, content_hash = ?, text = ?, hashtags = ?,
                alternatives = ?, error = NULL, recognised_at = ?, worker = NULL, started_at = NULL WHERE id = ?
            """).execute(arguments: [signature, hash, recognition.text, recognition.hashtags.map(\.name).joined(separator: " "),
                                     recognition.alternatives.joined(separator: "\n"), Date().timeIntervalSince1970, page.rawValue])
        try db.cachedStatement(sql: "DELETE FROM word WHERE page_id = ?").execute(arguments: [page.rawValue])
        let insert = try db.cachedStatement(sql: """
            INSERT INTO word (page_id, position, line, text, min_x, min_y, max_x, max_y, confidence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, word) in recognition.words.enumerated() {
            try insert.execute(arguments: [page.rawValue, position, word.line, word.text, word.box.minX, word.box.minY,
                                           word.box.maxX, word.box.maxY, Double(word.confidence)])
        }
    }
}
