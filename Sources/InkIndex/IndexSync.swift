import Foundation
import GRDB
import InkCore
import InkStore

extension SearchIndex {
    /// Makes the index's copy of note metadata match the library: new and changed notes are written,
    /// and search rows follow titles and tags. With `complete`, `notes` is the whole library, and notes
    /// not in it are removed with their pages.
    func sync(_ notes: [StoredNote], complete: Bool = true) throws {
        try database.write { db in
            var known: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, title || char(31) || notebook || char(31) || tags || char(31) || pinned || char(31) || modified AS fingerprint FROM note") {
                known[row["id"]] = row["fingerprint"]
            }
            var present = Set<String>()
            for stored in notes {
                let id = stored.note.id.rawValue
                present.insert(id)
                let tags = stored.note.tags.sorted().map(\.name).joined(separator: " ")
                let fingerprint = [stored.note.title, stored.notebook.description, tags,
                                   stored.note.pinned ? "1" : "0", String(stored.note.modified.timeIntervalSince1970)]
                    .joined(separator: "\u{1F}")
                if known[id] == fingerprint, try pagesMatch(db, stored) { continue }
                try db.execute(sql: """
                    INSERT INTO note (id, title, notebook, created, modified, pinned, tags) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET title = excluded.title, notebook = excluded.notebook,
                        created = excluded.created, modified = excluded.modified, pinned = excluded.pinned, tags = excluded.tags
                    """, arguments: [id, stored.note.title, stored.notebook.description,
                                     stored.note.created.timeIntervalSince1970, stored.note.modified.timeIntervalSince1970,
                                     stored.note.pinned, tags])
                try db.execute(sql: "DELETE FROM note_tag WHERE note_id = ?", arguments: [id])
                for tag in stored.note.tags {
                    try db.execute(sql: "INSERT INTO note_tag (note_id, tag) VALUES (?, ?)", arguments: [id, tag.name])
                }
                try syncPages(db, stored)
                try rewriteSearchRows(db, noteID: id)
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

    /// One search row per page (title, recognised text, tags), or one for a note without pages.
    func rewriteSearchRows(_ db: Database, noteID: String) throws {
        try db.execute(sql: "DELETE FROM search WHERE note_id = ?", arguments: [noteID])
        guard let note = try Row.fetchOne(db, sql: "SELECT title, tags FROM note WHERE id = ?", arguments: [noteID]) else { return }
        let pages = try Row.fetchAll(db, sql: "SELECT id, text FROM page WHERE note_id = ? ORDER BY number", arguments: [noteID])
        if pages.isEmpty {
            try db.execute(sql: "INSERT INTO search (title, text, tags, note_id, page_id) VALUES (?, '', ?, ?, NULL)",
                           arguments: [note["title"], note["tags"], noteID])
        }
        for page in pages {
            try db.execute(sql: "INSERT INTO search (title, text, tags, note_id, page_id) VALUES (?, ?, ?, ?, ?)",
                           arguments: [note["title"], (page["text"] as String?) ?? "", note["tags"], noteID, page["id"]])
        }
    }
}
