import Foundation
import GRDB
import InkCore
import InkStore

extension SearchIndex {
    /// Makes the index's copy of note metadata and typed text match the library: new and changed
    /// notes are written, and search rows follow titles, tags and typed text (read from `library`;
    /// text that cannot be read is indexed as empty, and `inkwell check` reports it). Pages are not
    /// recognised here (unless `searchRows` is false: the caller rewrites them). With `complete`,
    /// `notes` is the whole library, and notes not in it are removed with their pages.
    func sync(_ notes: [StoredNote], library: Library, complete: Bool = true, searchRows: Bool = true) throws {
        let bodies = notes.map { (try? library.typedTextSource(of: $0)) ?? "" }
        try write { db in
            var known: [String: (fingerprint: String, body: String?)] = [:]
            let fingerprint = "SELECT id, title || char(31) || notebook || char(31) || tags || char(31) || pinned || char(31) || modified AS fingerprint, body FROM note"
            if complete {
                for row in try Row.fetchAll(db, sql: fingerprint) { known[row["id"]] = (row["fingerprint"], row["body"]) }
            } else {
                // Only these notes: reading every note's row would make a batch of small updates quadratic.
                for stored in notes {
                    if let row = try Row.fetchOne(db, sql: fingerprint + " WHERE id = ?", arguments: [stored.note.id.rawValue]) {
                        known[row["id"]] = (row["fingerprint"], row["body"])
                    }
                }
            }
            var present = Set<String>()
            for (stored, body) in zip(notes, bodies) {
                let id = stored.note.id.rawValue
                present.insert(id)
                let tags = IndexedNote.tags(of: stored), fingerprint = IndexedNote.fingerprint(of: stored)
                if let known = known[id], known.fingerprint == fingerprint, known.body == body, try pagesMatch(db, stored) { continue }
                try db.cachedStatement(sql: """
                    INSERT INTO note (id, title, notebook, created, modified, pinned, tags, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET title = excluded.title, notebook = excluded.notebook,
                        created = excluded.created, modified = excluded.modified, pinned = excluded.pinned, tags = excluded.tags,
                        body = excluded.body
                    """).execute(arguments: [id, stored.note.title, stored.notebook.description,
                                     stored.note.created.timeIntervalSince1970, stored.note.modified.timeIntervalSince1970,
                                     stored.note.pinned, tags, body])
                try db.cachedStatement(sql: "DELETE FROM note_tag WHERE note_id = ?").execute(arguments: [id])
                for tag in stored.note.tags {
                    try db.cachedStatement(sql: "INSERT INTO note_tag (note_id, tag) VALUES (?, ?)").execute(arguments: [id, tag.name])
                }
                try syncPages(db, stored)
                if searchRows { try SearchIndex.rewriteSearchRows(db, noteID: id) }
            }
            for id in Set(known.keys).subtracting(present) where complete {
                try SearchIndex.deleteSearchRows(db, noteID: id)
                try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            }
        }
    }

    private func pagesMatch(_ db: Database, _ stored: StoredNote) throws -> Bool {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM page WHERE note_id = ? ORDER BY number", arguments: [stored.note.id.rawValue])
        return ids == stored.note.pages.map(\.rawValue)
    }

    /// Pages follow the note's page list: new ones are pending, removed ones go, numbers follow the order.
    private func syncPages(_ db: Database, _ stored: StoredNote) throws {
        let id = stored.note.id.rawValue
        let current = Set(stored.note.pages.map(\.rawValue))
        for old in try String.fetchAll(db, sql: "SELECT id FROM page WHERE note_id = ?", arguments: [id]) where !current.contains(old) {
            try db.execute(sql: "DELETE FROM page WHERE id = ?", arguments: [old])
        }
        for (index, page) in stored.note.pages.enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO page (id, note_id, number) VALUES (?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET note_id = excluded.note_id, number = excluded.number
                """).execute(arguments: [page.rawValue, id, index + 1])
        }
    }

    /// The search rows of a note: one for the note itself (title, typed text, tags) and one per page
    /// (title, recognised text and the readings recognition did not take, tags), each with the keys of the note's tags and notebooks. A search's
    /// words must all match within one row. Their words join the vocabulary (words no longer used stay
    /// in it, harmlessly, until the index is rebuilt) or count once more there.
    static func rewriteSearchRows(_ db: Database, noteID: String) throws {
        try deleteSearchRows(db, noteID: noteID)
        guard let note = try Row.fetchOne(db.cachedStatement(sql: "SELECT title, tags, notebook, body FROM note WHERE id = ?"),
                                          arguments: [noteID])
        else { return }
        let title: String = note["title"], tags: String = note["tags"], notebook: String = note["notebook"]
        let body: String = note["body"] ?? ""
        let keys = SearchKey.keys(tags: tags, notebook: notebook).joined(separator: " ")
        let pages = try Row.fetchAll(db.cachedStatement(sql: "SELECT id, text, alternatives FROM page WHERE note_id = ? ORDER BY number"),
                                     arguments: [noteID])
        let rows: [(page: String?, text: String, body: String, alternatives: String)] = [(nil, "", body, "")]
            + pages.map { ($0["id"], ($0["text"] as String?) ?? "", "", ($0["alternatives"] as String?) ?? "") }
        var terms = Set(SearchTerms.terms(in: title + " " + tags + " " + body))
        for row in rows {
            try db.cachedStatement(sql: "INSERT INTO search_row (note_id, page_id) VALUES (?, ?)").execute(arguments: [noteID, row.page])
            try db.cachedStatement(sql: "INSERT INTO search (rowid, title, text, body, tags, keys, alternatives) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .execute(arguments: [db.lastInsertedRowID, title, row.text, row.body, tags, keys, row.alternatives])
            terms.formUnion(SearchTerms.terms(in: row.text + " " + row.alternatives))
        }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO vocabulary (initial, length, term, uses) VALUES (?, ?, ?, 1)
            ON CONFLICT DO UPDATE SET uses = uses + 1
            """)
        for term in terms {
            let scalars = term.unicodeScalars
            try insert.execute(arguments: [String(scalars.first!), scalars.count, term])
        }
    }

    /// Removes a note's search rows, found through `search_row`.
    static func deleteSearchRows(_ db: Database, noteID: String) throws {
        try db.cachedStatement(sql: "DELETE FROM search WHERE rowid IN (SELECT id FROM search_row WHERE note_id = ?)")
            .execute(arguments: [noteID])
        try db.cachedStatement(sql: "DELETE FROM search_row WHERE note_id = ?").execute(arguments: [noteID])
    }
}

/// How the index keeps a note's metadata, the same in every backend.
package enum IndexedNote {
    /// The note's tags as the index keeps them: sorted, separated by spaces.
    package static func tags(of stored: StoredNote) -> String {
        stored.note.tags.sorted().map(\.name).joined(separator: " ")
    }

    /// What must change for the index's copy of a note to be rewritten (with its typed text).
    package static func fingerprint(of stored: StoredNote) -> String {
        [stored.note.title, stored.notebook.description, tags(of: stored),
         stored.note.pinned ? "1" : "0", String(stored.note.modified.timeIntervalSince1970)]
            .joined(separator: "\u{1F}")
    }
}

/// The token that stands for a tag or a notebook in the `keys` column: its exact name in
/// hexadecimal, which the tokenizer keeps whole and no word can equal.
package enum SearchKey {
    package static func tag(_ name: String) -> String { "t" + hex(name) }
    package static func notebook(_ path: String) -> String { "n" + hex(path) }

    /// The keys of a note's search rows: one per tag (`tags` as the index keeps them) and one for its
    /// notebook and each notebook above it, so a notebook filter finds the notebooks inside it.
    package static func keys(tags: String, notebook: String) -> [String] {
        var notebooks: [String] = []
        for part in notebook.split(separator: "/") { notebooks.append(notebooks.last.map { $0 + "/" + part } ?? String(part)) }
        return tags.split(separator: " ").map { tag(String($0)) } + notebooks.map(SearchKey.notebook)
    }

    private static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }
}
