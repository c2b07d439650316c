import Foundation
import InkCore
import InkIndex
import InkStore

// The work queue: a page row is waiting (`pending` with the content hash to read), leased
// (`processing`, `claimed_by` until `lease_until`), done (`recognised` from `content_hash`) or `failed`.
extension PostgresIndex {
    public func recognizedPages() throws -> [String: RecognizedPageVersion] {
        let rows = try database.run { connection in
            try connection.rows("SELECT id, file_signature, content_hash FROM page WHERE status = 'recognised'")
                .map { try $0.decode((String, String?, String?).self) }
        }
        return Dictionary(rows.map { ($0.0, RecognizedPageVersion(signature: $0.1, hash: $0.2)) }, uniquingKeysWith: { $1 })
    }

    public func confirm(_ page: PageID, signature: String) throws {
        try database.write { connection in
            try connection.run("UPDATE page SET file_signature = \(signature) WHERE id = \(page.rawValue) AND status = 'recognised'")
        }
    }

    public func enqueue(_ pages: [(page: PageID, hash: String)]) throws {
        guard !pages.isEmpty else { return }
        let ids = pages.map(\.page.rawValue), hashes = pages.map(\.hash)
        try database.write { connection in
            // Content already recognised, waiting or being recognised stays as it is; anything else waits.
            try connection.run("""
                UPDATE page SET status = 'pending', content_hash = q.hash, claimed_by = NULL, lease_until = NULL, error = NULL
                FROM unnest(\(ids)::text[], \(hashes)::text[]) AS q(id, hash)
                WHERE page.id = q.id
                  AND NOT (page.content_hash IS NOT DISTINCT FROM q.hash AND page.status IN ('pending', 'processing', 'recognised'))
                """)
        }
    }

    public func claim(limit: Int, lease: TimeInterval) throws -> [QueuedPage] {
        let me = Worker.current
        return try database.run { connection in
            try connection.rows("""
                UPDATE page SET status = 'processing', claimed_by = \(me), lease_until = now() + make_interval(secs => \(lease))
                WHERE id IN (
                    SELECT id FROM page
                    WHERE (status = 'pending' AND content_hash IS NOT NULL) OR (status = 'processing' AND lease_until < now())
                    ORDER BY note_id, number LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING id, note_id, content_hash
                """).map {
                    let (page, note, hash) = try $0.decode((String, String, String).self)
                    return QueuedPage(page: PageID(rawValue: page), note: NoteID(rawValue: note), hash: hash)
                }
        }
    }

    public func commit(_ recognition: PageRecognition, of claimed: QueuedPage, signature: String?) throws -> Bool {
        let me = Worker.current
        let hashtags = recognition.hashtags.map(\.name).joined(separator: " ")
        let words = recognition.words
        return try database.write { connection in
            let filed = try connection.rows("""
                UPDATE page SET status = 'recognised', file_signature = \(signature), text = \(recognition.text), hashtags = \(hashtags),
                    alternatives = \(recognition.alternatives.joined(separator: "\n")), error = NULL, recognised_at = now(), claimed_by = NULL, lease_until = NULL, recognitions = recognitions + 1
                WHERE id = \(claimed.page.rawValue) AND status = 'processing' AND claimed_by = \(me) AND content_hash = \(claimed.hash)
                RETURNING id
                """)
            guard !filed.isEmpty else { return false }
            try PostgresIndex.replaceWords(words, of: claimed.page.rawValue, connection)
            try PostgresIndex.rewriteSearchRows(connection, note: claimed.note.rawValue)
            return true
        }
    }

    public func fail(_ claimed: QueuedPage, reason: String) throws -> Bool {
        let me = Worker.current
        return try database.write { connection in
            try !connection.rows("""
                UPDATE page SET status = 'failed', error = \(reason), claimed_by = NULL, lease_until = NULL
                WHERE id = \(claimed.page.rawValue) AND status = 'processing' AND claimed_by = \(me) AND content_hash = \(claimed.hash)
                RETURNING id
                """).isEmpty
        }
    }

    public func nextLeaseExpiry() throws -> TimeInterval? {
        try database.run { connection in
            try connection.rows("""
                SELECT extract(epoch FROM min(lease_until) - now())::float8 FROM page WHERE status = 'processing'
                """).first?.decode(Double?.self) ?? nil
        }
    }

    public func status() throws -> QueueStatus {
        try database.run { connection in
            let row = try connection.rows("""
                SELECT count(*) FILTER (WHERE status = 'recognised'),
                       count(*) FILTER (WHERE status = 'processing' AND lease_until >= now()),
                       count(*) FILTER (WHERE status = 'pending' OR (status = 'processing' AND lease_until < now())),
                       count(*) FILTER (WHERE status = 'failed'),
                       count(*) FILTER (WHERE status = 'recognised' AND recognised_at > now() - interval '60 seconds'),
                       count(DISTINCT claimed_by) FILTER (WHERE status = 'processing' AND lease_until >= now())
                FROM page
                """).first!
            let (done, leased, pending, failed, lastMinute, workers) = try row.decode((Int, Int, Int, Int, Int, Int).self)
            return QueueStatus(done: done, leased: leased, pending: pending, failed: failed, pagesPerSecond: Double(lastMinute) / 60,
                               workers: workers)
        }
    }

    /// Recognition done outside the queue (an import): filed as done, against the content it was read from.
    public func record(_ notes: [(note: StoredNote, pages: [(page: Page, recognition: PageRecognition)])], in library: Library) throws {
        try sync(notes.map(\.note), library: library, complete: false, searchRows: false)
        var results: [(note: String, page: String, hash: String, signature: String?, recognition: PageRecognition)] = []
        for (stored, recognized) in notes {
            for (page, recognition) in recognized where stored.note.pages.contains(page.id) {
                let version = RecognizedPageVersion.recognizedOutsideTheJob(page, of: stored, in: library)
                results.append((stored.note.id.rawValue, page.id.rawValue, version.hash, version.signature, recognition))
            }
        }
        let notes = notes.map(\.note.note.id.rawValue)
        try database.write { [results] connection in
            for result in results {
                let hashtags = result.recognition.hashtags.map(\.name).joined(separator: " ")
                try connection.run("""
                    UPDATE page SET status = 'recognised', content_hash = \(result.hash), file_signature = \(result.signature),
                        text = \(result.recognition.text), hashtags = \(hashtags),
                        alternatives = \(result.recognition.alternatives.joined(separator: "\n")), error = NULL, recognised_at = now(),
                        claimed_by = NULL, lease_until = NULL, recognitions = recognitions + 1
                    WHERE id = \(result.page)
                    """)
                try PostgresIndex.replaceWords(result.recognition.words, of: result.page, connection)
            }
            for note in notes { try PostgresIndex.rewriteSearchRows(connection, note: note) }
        }
    }

    static func replaceWords(_ words: [RecognizedWord], of page: String, _ connection: PostgresConnection) throws {
        try connection.run("DELETE FROM word WHERE page_id = \(page)")
        guard !words.isEmpty else { return }
        let texts = words.map(\.text), lines = words.map(\.line)
        let minX = words.map(\.box.minX), minY = words.map(\.box.minY), maxX = words.map(\.box.maxX), maxY = words.map(\.box.maxY)
        let confidence = words.map { Double($0.confidence) }
        try connection.run("""
            INSERT INTO word (page_id, position, line, text, min_x, min_y, max_x, max_y, confidence)
            SELECT \(page), position - 1, line, text, min_x, min_y, max_x, max_y, confidence
            FROM unnest(\(lines)::int8[], \(texts)::text[], \(minX)::float8[], \(minY)::float8[], \(maxX)::float8[], \(maxY)::float8[],
                        \(confidence)::float8[]) WITH ORDINALITY AS w(line, text, min_x, min_y, max_x, max_y, confidence, position)
            """)
    }
}
