import Foundation
import GRDB
import InkCore
import InkStore
import InkText

/// What the index holds about a page last recognised: the file version and the content it was read from.
public struct RecognizedPageVersion: Sendable, Equatable {
    /// ``PageFileSignature`` of the file when it was read (nil when unknown).
    public var signature: String?
    /// ``ContentHash/of(page:)`` of the content read.
    public var hash: String?

    package init(signature: String?, hash: String?) {
        (self.signature, self.hash) = (signature, hash)
    }

    /// The version to file for `page` of `stored` when it was recognised outside the indexing job
    /// (an import): the hash of the content read, and the file's signature only when the file still
    /// holds that content (taken first: if the file changes after, the next run sees a new one).
    package static func recognizedOutsideTheJob(_ page: Page, of stored: StoredNote, in library: Library) -> (signature: String?, hash: String) {
        let hash = ContentHash.of(page: page)
        let url = library.pageURL(page.id, in: stored.folder)
        let signature = PageFileSignature.of(url)
        let onDisk = try? library.readPage(url, id: page.id)
        let matches = onDisk.map { !$0.isDamaged && ContentHash.of(page: $0.page) == hash } ?? false
        return (matches ? signature : nil, hash)
    }
}

/// The index's side of the indexing job: which pages were recognised from what, claims on the pages
/// being worked on (so that several processes, on several machines, share a library's pages), and
/// each page's result or failure as soon as it is known.
extension SearchIndex {
    /// Public form of ``sync(_:library:complete:searchRows:)``: makes the index's copy of these notes'
    /// metadata and typed text match the library (with `complete`, `notes` is the whole library).
    public func update(_ notes: [StoredNote], library: Library, complete: Bool) throws {
        try sync(notes, library: library, complete: complete)
    }

    /// Every page recognised so far, by page id, with what it was read from.
    public func recognizedPages() throws -> [String: RecognizedPageVersion] {
        try database.read { db in
            var known: [String: RecognizedPageVersion] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, file_signature, content_hash FROM page WHERE status = 'recognised'") {
                known[row[0]] = RecognizedPageVersion(signature: row[1], hash: row[2])
            }
            return known
        }
    }

    /// Notes that the page file of `page` is now `signature`, its content unchanged since it was read.
    public func confirm(_ page: PageID, signature: String) throws {
        try writeRecognition { db in
            try db.execute(sql: "UPDATE page SET file_signature = ? WHERE id = ?", arguments: [signature, page.rawValue])
        }
    }

    /// A page left `processing` by a run that was killed (or hung past its lease) becomes pending
    /// again; pages other live runs are working on are left to them.
    public func releaseStaleClaims() throws {
        let claims = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, worker, started_at FROM page WHERE status = 'processing'")
        }
        let stale: [String] = claims.filter { Worker.isStale($0["worker"], startedAt: $0["started_at"]) }.map { $0["id"] }
        guard !stale.isEmpty else { return }
        try writeRecognition { db in
            for id in stale {
                try db.execute(sql: "UPDATE page SET status = 'pending', worker = NULL, started_at = NULL WHERE id = ? AND status = 'processing'",
                               arguments: [id])
            }
        }
    }

    /// Marks `page` as being recognised by this process (`processing`, with a lease).
    public func claim(_ page: PageID) throws {
        try writeRecognition { db in
            try db.execute(sql: "UPDATE page SET status = 'processing', worker = ?, started_at = ? WHERE id = ?",
                           arguments: [Worker.current, Date().timeIntervalSince1970, page.rawValue])
        }
    }

    /// Files what was read on `page` of `note` (its file at `signature`, its content `hash`) and
    /// rewrites the note's search rows.
    public func record(_ recognition: PageRecognition, page: PageID, of note: NoteID, signature: String?, hash: String) throws {
        try writeRecognition { db in
            try store(recognition, page: page, signature: signature, hash: hash, db)
            try SearchIndex.rewriteSearchRows(db, noteID: note.rawValue)
        }
    }

    /// Marks `page` as failed, with the reason.
    public func recordFailure(_ reason: String, page: PageID) throws {
        try writeRecognition { db in
            try db.execute(sql: "UPDATE page SET status = 'failed', error = ?, worker = NULL, started_at = NULL WHERE id = ?",
                           arguments: [reason, page.rawValue])
        }
    }

    /// Hashtags found in each note: recognised in its handwriting, and typed in its text (which may
    /// have been edited outside Inkwell).
    public func hashtagsFound() throws -> [NoteID: Set<Tag>] {
        try database.read { db in
            var found: [NoteID: Set<Tag>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT note_id, hashtags FROM page WHERE hashtags IS NOT NULL AND hashtags != ''") {
                let tags = (row["hashtags"] as String).split(separator: " ").compactMap { Tag(String($0)) }
                found[NoteID(rawValue: row["note_id"]), default: []].formUnion(tags)
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, body FROM note WHERE body LIKE '%#%'") {
                found[NoteID(rawValue: row["id"]), default: []].formUnion(TypedText(row["body"] as String).hashtags)
            }
            return found
        }
    }
}
