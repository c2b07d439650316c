import Foundation
import GRDB
import InkCore
import InkStore

extension SearchIndex {
    /// Makes the index's copy of note metadata and typed text match the library: new and changed
    /// notes are written, and search rows follow titles, tags and typed text (read from `library`;
    /// text that cannot be read is indexed as empty, and `inkwell check` reports it). Pages are not
    /// recognised here. With `complete`, `notes` is the whole library, and notes not in it are
    /// removed with their pages.
    func sync(_ notes: [StoredNote], library: Library, complete: Bool = true) throws {
        let bodies = notes.map { (try? library.typedTextSource(of: $0)) ?? "" }
        try database.write { db in
            var known: [String: (fingerprint: String, body: String?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, title || char(31) || notebook || char(31) || tags || char(31) || pinned || char(31) || modified AS fingerprint, body FROM note") {
                known[row["id"]] = (row["fingerprint"], row["body"])
            }
            var present = Set<String>()
            for (stored, body) in zip(notes, bodies) {
                let id = stored.note.id.rawValue
                present.insert(id)
                let tags = stored.note.tags.sorted().map(\.name).joined(separator: " ")
                let fingerprint = [stored.note.title, stored.notebook.description, tags,
                                   stored.note.pinned ? "1" : "0", String(stored.note.modified.timeIntervalSince1970)]
                    .joined(separator: "\u{1F}")
                if let known = known[id], known.fingerprint == fingerprint, known.body == body, try pagesMatch(db, stored) { continue }
                try db.execute(sql: """
                    INSERT INTO note (id, title, notebook, created, modified, pinned, tags, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET title = excluded.title, notebook = excluded.notebook,
                        created = excluded.created, modified = excluded.modified, pinned = excluded.pinned, tags = excluded.tags,
                        body = excluded.body
                    """, arguments: [id, stored.note.title, stored.notebook.description,
                                     stored.note.created.timeIntervalSince1970, stored.note.modified.timeIntervalSince1970,
                                     stored.note.pinned, tags, body])
                try db.execute(sql: "DELETE FROM note_tag WHERE note_id = ?", arguments: [id])
                for tag in stored.note.tags {
                    try db.execute(sql: "INSERT INTO note_tag (note_id, tag) VALUES (?, ?)", arguments: [id, tag.name])
                }
                try syncPages(db, stored)
                try SearchIndex.rewriteSearchRows(db, noteID: id)
            }
            for id in Set(known.keys).subtracting(present) where complete {
                try db.execute(sql: "DELETE FROM search WHERE note_id = ?", arguments: [id])
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
            try db.execute(sql: """
                INSERT INTO page (id, note_id, number) VALUES (?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET note_id = excluded.note_id, number = excluded.number
                """, arguments: [page.rawValue, id, index + 1])
        }
    }

    /// The search rows of a note: one for the note itself (title, typed text, tags) and one per page
    /// (title, recognised text, tags). A search's words must all match within one row.
    static func rewriteSearchRows(_ db: Database, noteID: String) throws {
        try db.execute(sql: "DELETE FROM search WHERE note_id = ?", arguments: [noteID])
        guard let note = try Row.fetchOne(db, sql: "SELECT title, tags, body FROM note WHERE id = ?", arguments: [noteID]) else { return }
        try db.execute(sql: "INSERT INTO search (title, text, body, tags, note_id, page_id) VALUES (?, '', ?, ?, ?, NULL)",
                       arguments: [note["title"], (note["body"] as String?) ?? "", note["tags"], noteID])
        for page in try Row.fetchAll(db, sql: "SELECT id, text FROM page WHERE note_id = ? ORDER BY number", arguments: [noteID]) {
            try db.execute(sql: "INSERT INTO search (title, text, body, tags, note_id, page_id) VALUES (?, ?, '', ?, ?, ?)",
                           arguments: [note["title"], (page["text"] as String?) ?? "", note["tags"], noteID, page["id"]])
        }
    }
}
