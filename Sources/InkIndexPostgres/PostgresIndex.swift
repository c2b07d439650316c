import Foundation
import InkCore
import InkIndex
import InkStore
import InkText

/// The search index and work queue of a library on a PostgreSQL server, for when one machine is not
/// enough: workers on many hosts claim pages from its queue, and many readers search it. It answers
/// every search as the embedded SQLite index does (``SearchPlan`` is shared); see docs/scale.md.
///
/// Every change to notes, pages and the vocabulary is one short transaction under one advisory lock,
/// so concurrent writers never deadlock; claiming pages takes row locks only (`FOR UPDATE SKIP LOCKED`).
/// Times (leases, rates) are the server's, so hosts with drifting clocks agree.
public final class PostgresIndex: PageQueue {
    let database: PostgresDatabase
    public var location: String { database.location.description }
    public var isReadOnly: Bool { false }
    public var notice: String? { nil }

    /// The schema version this Inkwell writes, and the migrations that lead to it, in order.
    static let migrations: [String] = [PostgresSchema.version1, PostgresSchema.version2]
    public static var schemaVersion: Int { migrations.count }

    /// Connects to the database at `url` and creates or migrates the index's schema there. A database
    /// whose index was made by a newer Inkwell is refused before anything is changed.
    public init(url: String) throws {
        database = try PostgresDatabase(try PostgresLocation(url: url))
        let name = database.location.description
        try database.write { connection in
            try connection.run("CREATE TABLE IF NOT EXISTS inkwell_schema (version bigint NOT NULL)")
            let found = try connection.rows("SELECT max(version) FROM inkwell_schema").first?.decode(Int?.self) ?? nil
            let current = found ?? 0
            guard current <= PostgresIndex.migrations.count else {
                throw PostgresIndexError.newerSchema(database: name, found: current, supported: PostgresIndex.migrations.count)
            }
            for (number, migration) in PostgresIndex.migrations.enumerated().dropFirst(current) {
                // One statement at a time: a statement with parameters is one statement.
                for statement in migration.components(separatedBy: ";\n") where !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    try connection.run(PostgresQuery(unsafeSQL: statement))
                }
                try connection.run("INSERT INTO inkwell_schema (version) VALUES (\(number + 1))")
            }
        }
    }

    public func clear() throws {
        try database.write { connection in
            try connection.run("DELETE FROM search_row")
            try connection.run("DELETE FROM vocabulary")
            try connection.run("DELETE FROM note")
        }
    }
}

/// The tables (docs/scale.md): notes, their tags and pages (each page also a row of the work queue:
/// its status, the content hash it is for, who holds it until when), recognised words, one search row
/// per note and per page with a `tsvector` of exact terms, and the vocabulary for prefixes and typos.
enum PostgresSchema {
    /// The readings recognition weighed and did not take: kept with the page, searched through their
    /// own `tsvector` beside each row's document (one GIN index over both), ranked below the text read.
    static let version2 = """
        ALTER TABLE page ADD COLUMN alternatives text;
        ALTER TABLE search_row ADD COLUMN alternatives tsvector NOT NULL DEFAULT ''::tsvector;
        DROP INDEX search_row_document;
        CREATE INDEX search_row_terms ON search_row USING gin((document || alternatives))
        """

    static let version1 = """
        CREATE TABLE note (
            id text PRIMARY KEY,
            title text NOT NULL,
            notebook text NOT NULL,
            created float8 NOT NULL,
            modified float8 NOT NULL,
            pinned boolean NOT NULL,
            tags text NOT NULL,
            body text,
            fingerprint text NOT NULL
        );
        CREATE TABLE note_tag (
            note_id text NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            tag text NOT NULL,
            PRIMARY KEY (note_id, tag)
        );
        CREATE INDEX note_tag_by_tag ON note_tag(tag);
        CREATE TABLE page (
            id text PRIMARY KEY,
            note_id text NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            number bigint NOT NULL,
            status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'recognised', 'failed')),
            content_hash text,
            file_signature text,
            text text,
            hashtags text,
            error text,
            recognised_at timestamptz,
            claimed_by text,
            lease_until timestamptz,
            recognitions bigint NOT NULL DEFAULT 0
        );
        CREATE INDEX page_by_note ON page(note_id);
        CREATE INDEX page_queue ON page(status, lease_until);
        CREATE INDEX page_recent ON page(recognised_at);
        CREATE TABLE word (
            page_id text NOT NULL REFERENCES page(id) ON DELETE CASCADE,
            position bigint NOT NULL,
            line bigint NOT NULL,
            text text NOT NULL,
            min_x float8 NOT NULL, min_y float8 NOT NULL, max_x float8 NOT NULL, max_y float8 NOT NULL,
            confidence float8 NOT NULL,
            PRIMARY KEY (page_id, position)
        );
        CREATE TABLE search_row (
            id bigserial PRIMARY KEY,
            note_id text NOT NULL REFERENCES note(id) ON DELETE CASCADE,
            page_id text,
            document tsvector NOT NULL
        );
        CREATE INDEX search_row_by_note ON search_row(note_id);
        CREATE INDEX search_row_document ON search_row USING gin(document);
        CREATE TABLE vocabulary (
            term text COLLATE "C" PRIMARY KEY,
            initial text NOT NULL,
            length bigint NOT NULL,
            uses bigint NOT NULL
        );
        CREATE INDEX vocabulary_near ON vocabulary(initial, length);
        """
}

// MARK: Notes

/// A note as the index keeps it, read from the library before a transaction starts.
struct IndexedNoteRecord: Sendable {
    var id: String, title: String, notebook: String, created: Double, modified: Double, pinned: Bool
    var tags: String, tagList: [String], body: String, fingerprint: String, pages: [String]

    init(_ stored: StoredNote, body: String) {
        id = stored.note.id.rawValue
        title = stored.note.title
        notebook = stored.notebook.description
        created = stored.note.created.timeIntervalSince1970
        modified = stored.note.modified.timeIntervalSince1970
        pinned = stored.note.pinned
        tags = IndexedNote.tags(of: stored)
        tagList = stored.note.tags.map(\.name).sorted()
        self.body = body
        fingerprint = IndexedNote.fingerprint(of: stored)
        pages = stored.note.pages.map(\.rawValue)
    }
}

extension PostgresIndex {
    /// Adds and updates the notes of this host's view of the library, but removes none: hosts share
    /// the database, and one whose view of a shared mount is older must not take out notes another
    /// has just added. `inkwell index` (not `--worker`), run where the library lives, removes notes
    /// gone from it (``update(_:library:complete:)`` with `complete`).
    public func refresh(from library: Library) throws {
        try sync(try library.notes(), library: library, complete: false)
    }

    public func update(_ notes: [StoredNote], library: Library, complete: Bool) throws {
        try sync(notes, library: library, complete: complete)
    }

    /// As ``SearchIndex``'s sync: new and changed notes are written with their pages and search rows;
    /// with `complete`, notes no longer in the library are removed with everything about them.
    func sync(_ notes: [StoredNote], library: Library, complete: Bool, searchRows: Bool = true) throws {
        let records = notes.map { IndexedNoteRecord($0, body: (try? library.typedTextSource(of: $0)) ?? "") }
        try database.write { connection in
            var known: [String: (fingerprint: String, body: String?)] = [:]
            let rows = complete
                ? try connection.rows("SELECT id, fingerprint, body FROM note")
                : try connection.rows("SELECT id, fingerprint, body FROM note WHERE id = ANY(\(records.map(\.id)))")
            for row in rows {
                let (id, fingerprint, body) = try row.decode((String, String, String?).self)
                known[id] = (fingerprint, body)
            }
            var pagesByNote: [String: [String]] = [:]
            let pageRows = complete
                ? try connection.rows("SELECT note_id, id FROM page ORDER BY note_id, number")
                : try connection.rows("SELECT note_id, id FROM page WHERE note_id = ANY(\(records.map(\.id))) ORDER BY note_id, number")
            for row in pageRows {
                let (note, page) = try row.decode((String, String).self)
                pagesByNote[note, default: []].append(page)
            }
            for record in records {
                if let known = known[record.id], known.fingerprint == record.fingerprint, known.body == record.body,
                   pagesByNote[record.id] ?? [] == record.pages { continue }
                try connection.run("""
                    INSERT INTO note (id, title, notebook, created, modified, pinned, tags, body, fingerprint)
                    VALUES (\(record.id), \(record.title), \(record.notebook), \(record.created), \(record.modified), \(record.pinned),
                            \(record.tags), \(record.body), \(record.fingerprint))
                    ON CONFLICT (id) DO UPDATE SET title = excluded.title, notebook = excluded.notebook, created = excluded.created,
                        modified = excluded.modified, pinned = excluded.pinned, tags = excluded.tags, body = excluded.body,
                        fingerprint = excluded.fingerprint
                    """)
                try connection.run("DELETE FROM note_tag WHERE note_id = \(record.id)")
                try connection.run("INSERT INTO note_tag (note_id, tag) SELECT \(record.id), unnest(\(record.tagList)::text[])")
                try connection.run("DELETE FROM page WHERE note_id = \(record.id) AND NOT (id = ANY(\(record.pages)))")
                try connection.run("""
                    INSERT INTO page (id, note_id, number)
                    SELECT id, \(record.id), number FROM unnest(\(record.pages)::text[]) WITH ORDINALITY AS p(id, number)
                    ON CONFLICT (id) DO UPDATE SET note_id = excluded.note_id, number = excluded.number
                    """)
                if searchRows { try PostgresIndex.rewriteSearchRows(connection, note: record.id) }
            }
            if complete {
                let gone = Array(Set(known.keys).subtracting(records.map(\.id)))
                if !gone.isEmpty { try connection.run("DELETE FROM note WHERE id = ANY(\(gone))") }
            }
        }
    }

    /// The search rows of a note, as ``SearchIndex`` makes them: one for the note (title, tags, typed
    /// text) and one per page (title, tags, recognised text), each with the note's keys. Terms are cut
    /// by ``SearchTerms`` here, not by PostgreSQL's parser, so both backends index the same words;
    /// weights rank title (A) over tags (B), typed text (C) and recognised text (D).
    static func rewriteSearchRows(_ connection: PostgresConnection, note: String) throws {
        try connection.run("DELETE FROM search_row WHERE note_id = \(note)")
        guard let row = try connection.rows("SELECT title, tags, notebook, coalesce(body, '') FROM note WHERE id = \(note)").first
        else { return }
        let (title, tags, notebook, body) = try row.decode((String, String, String, String).self)
        let keys = SearchKey.keys(tags: tags, notebook: notebook)
        let pages = try connection.rows("SELECT id, coalesce(text, ''), coalesce(alternatives, '') FROM page WHERE note_id = \(note) ORDER BY number")
            .map { try $0.decode((String, String, String).self) }
        let titleTerms = SearchTerms.terms(in: title), tagTerms = SearchTerms.terms(in: tags), bodyTerms = SearchTerms.terms(in: body)
        var vocabulary = Set(titleTerms + tagTerms + bodyTerms)
        let rows: [(page: String?, body: [String], text: [String], alternatives: [String])] = [(nil, bodyTerms, [], [])]
            + pages.map { ($0.0, [], SearchTerms.terms(in: $0.1), SearchTerms.terms(in: $0.2)) }
        for row in rows {
            vocabulary.formUnion(row.text + row.alternatives)
            try connection.run("""
                INSERT INTO search_row (note_id, page_id, document, alternatives) VALUES (\(note), \(row.page),
                    setweight(array_to_tsvector(\(titleTerms)::text[]), 'A') || setweight(array_to_tsvector(\(tagTerms)::text[]), 'B')
                    || setweight(array_to_tsvector(\(row.body)::text[]), 'C') || array_to_tsvector(\(row.text + keys)::text[]),
                    array_to_tsvector(\(Array(Set(row.alternatives)))::text[]))
                """)
        }
        // In one order everywhere, so that two writers never wait on each other's words.
        let terms = vocabulary.sorted()
        let initials = terms.map { String($0.unicodeScalars.first!) }, lengths = terms.map { $0.unicodeScalars.count }
        try connection.run("""
            INSERT INTO vocabulary (term, initial, length, uses)
            SELECT term, initial, length, 1 FROM unnest(\(terms)::text[], \(initials)::text[], \(lengths)::int8[]) AS v(term, initial, length)
            ON CONFLICT (term) DO UPDATE SET uses = vocabulary.uses + 1
            """)
    }
}

// MARK: Reading

extension PostgresIndex {
    public func pageStates(of notes: [StoredNote], in library: Library) throws -> [PageID: PageState] {
        let ids = notes.map(\.note.id.rawValue)
        let rows = try database.run { connection in
            try connection.rows("""
                SELECT id, status, file_signature, error, claimed_by, coalesce(lease_until < now(), true)
                FROM page WHERE note_id = ANY(\(ids))
                """).map { try $0.decode((String, String, String?, String?, String?, Bool).self) }
        }
        let byID = Dictionary(rows.map { ($0.0, $0) }, uniquingKeysWith: { $1 })
        var states: [PageID: PageState] = [:]
        for stored in notes {
            for page in stored.note.pages {
                let row = byID[page.rawValue]
                // A claim holds while its lease runs, unless its process is known to be gone.
                states[page] = PageState.derived(
                    status: row.flatMap { PageStatus(rawValue: $0.1) }, signature: row?.2, reason: row?.3,
                    claimIsStale: { row.map { $0.5 || $0.4.map(Worker.isGone) ?? true } ?? true },
                    currentSignature: { PageFileSignature.of(library.pageURL(page, in: stored.folder)) })
            }
        }
        return states
    }

    public func pageTexts(of note: NoteID) throws -> [PageID: String] {
        let rows = try database.run { connection in
            try connection.rows("SELECT id, text FROM page WHERE note_id = \(note.rawValue) AND text IS NOT NULL")
                .map { try $0.decode((String, String).self) }
        }
        return Dictionary(rows.map { (PageID(rawValue: $0.0), $0.1) }, uniquingKeysWith: { $1 })
    }

    public func wordsRead(withConfidence confidence: Float, onPages pages: Int) throws -> [String] {
        try database.run { connection in
            try connection.rows("""
                SELECT lower(text) AS folded FROM word WHERE confidence >= \(Double(confidence)) AND length(text) >= 3
                GROUP BY folded HAVING count(DISTINCT page_id) >= \(pages)
                """).map { try $0.decode(String.self) }
        }
    }

    public func words(of note: NoteID) throws -> [PageID: [RecognizedWord]] {
        let rows = try database.run { connection in
            try connection.rows("""
                SELECT word.page_id, word.text, line, min_x, min_y, max_x, max_y, confidence
                FROM word JOIN page ON page.id = word.page_id WHERE page.note_id = \(note.rawValue) ORDER BY word.page_id, position
                """).map { try $0.decode((String, String, Int, Double, Double, Double, Double, Double).self) }
        }
        var words: [PageID: [RecognizedWord]] = [:]
        for row in rows {
            words[PageID(rawValue: row.0), default: []].append(RecognizedWord(
                text: row.1, box: Rect(minX: row.3, minY: row.4, maxX: row.5, maxY: row.6), confidence: Float(row.7), line: row.2))
        }
        return words
    }

    public func hashtagsFound() throws -> [NoteID: Set<Tag>] {
        let (pages, bodies) = try database.run { connection in
            let pages = try connection.rows("SELECT note_id, hashtags FROM page WHERE hashtags IS NOT NULL AND hashtags != ''")
                .map { try $0.decode((String, String).self) }
            let bodies = try connection.rows("SELECT id, body FROM note WHERE body LIKE '%#%'")
                .map { try $0.decode((String, String).self) }
            return (pages, bodies)
        }
        var found: [NoteID: Set<Tag>] = [:]
        for (note, hashtags) in pages {
            found[NoteID(rawValue: note), default: []].formUnion(hashtags.split(separator: " ").compactMap { Tag(String($0)) })
        }
        for (note, body) in bodies { found[NoteID(rawValue: note), default: []].formUnion(TypedText(body).hashtags) }
        return found
    }
}

// MARK: Search

extension PostgresIndex {
    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        let plan = SearchPlan(query)
        return try database.run { connection in
            guard !plan.isEmpty else {
                return try connection.rows("SELECT id, title, notebook, tags FROM note ORDER BY modified DESC, id LIMIT \(plan.limit)")
                    .map { row in
                        let (id, title, notebook, tags) = try row.decode((String, String, String, String).self)
                        return SearchHit(note: NoteID(rawValue: id), title: title, notebook: notebook,
                                         tags: tags.split(separator: " ").map(String.init), pages: [], snippet: title, typedText: false, score: 0)
                    }
            }
            var alternatives: [WordMatch] = []
            for word in plan.words {
                alternatives.append(plan.match(word, completions: try PostgresIndex.completions(of: word, connection),
                                               nearby: try PostgresIndex.nearbyTerms(word, connection),
                                               forms: try PostgresIndex.indexedForms(of: word, connection)))
            }
            // The same condition as SQLite's FTS5 query: each word or one of its alternatives, and every key.
            let groups = alternatives.map { "(" + ([$0.word] + $0.alternatives.sorted()).map(PostgresIndex.lexeme).joined(separator: " | ") + ")" }
            let condition = (groups + plan.keys.map(PostgresIndex.lexeme)).joined(separator: " & ")
            // The latest matching rows (the GIN index finds them), at most the cap, and only those ranked.
            // A row that matches only through readings recognition did not take ranks below one whose text matches.
            let score = plan.words.isEmpty ? "0::float8" : """
                (ts_rank('{0.1, 0.2, 0.5, 1.0}', document || alternatives, query) * CASE WHEN document @@ query THEN 1 ELSE 0.3 END)::float8
                """
            let rows = try connection.rows("""
                WITH matching AS (
                    SELECT id, note_id, page_id, document, alternatives, query
                    FROM search_row, (SELECT \(condition)::tsquery AS query) AS q
                    WHERE (document || alternatives) @@ query ORDER BY id DESC LIMIT \(SearchPlan.rankedAtMost))
                SELECT note_id, page_id, \(unescaped: score) AS score FROM matching
                ORDER BY score DESC, id DESC LIMIT \(plan.limit * 20)
                """).map { try $0.decode((String, String?, Double).self) }
            var notes: [String: SearchPlan.NoteFields] = [:]
            var pages: [String: (number: Int, text: String, alternatives: String)] = [:]
            let noteIDs = Array(Set(rows.map(\.0))), pageIDs = rows.compactMap(\.1)
            for row in try connection.rows("SELECT id, title, notebook, tags, coalesce(body, '') FROM note WHERE id = ANY(\(noteIDs))") {
                let (id, title, notebook, tags, body) = try row.decode((String, String, String, String, String).self)
                notes[id] = SearchPlan.NoteFields(title: title, notebook: notebook, tags: tags, body: body)
            }
            for row in try connection.rows("SELECT id, number, coalesce(text, ''), coalesce(alternatives, '') FROM page WHERE id = ANY(\(pageIDs))") {
                let (id, number, text, alternatives) = try row.decode((String, Int, String, String).self)
                pages[id] = (number, text, alternatives)
            }
            return try plan.hits(from: rows.map { SearchPlan.MatchedRow(note: $0.0, page: $0.1, score: $0.2) }, matching: alternatives,
                                 note: { notes[$0] }, page: { pages[$0] })
        }
    }

    /// A term as a `tsquery` lexeme: quoted, taken as it is (no parser, no stemming).
    static func lexeme(_ term: String) -> String {
        "'" + term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// As ``SearchIndex``: the most used indexed words `word` begins, from the vocabulary (sorted by code point).
    static func completions(of word: String, _ connection: PostgresConnection) throws -> [String] {
        guard let end = SearchPlan.prefixEnd(of: word) else { return [] }
        return try connection.rows("""
            SELECT term FROM vocabulary WHERE term > \(word) AND term < \(end) ORDER BY uses DESC, term LIMIT \(SearchPlan.completionsRead)
            """).map { try $0.decode(String.self) }
    }

    /// As ``SearchIndex``: the indexed words that may be a typo or two away, read by first letter and length.
    static func nearbyTerms(_ word: String, _ connection: PostgresConnection) throws -> [(term: String, uses: Int)] {
        let distance = SearchPlan.typoAllowance(of: word)
        guard let first = word.unicodeScalars.first, distance > 0 else { return [] }
        let uses = try connection.rows("SELECT uses FROM vocabulary WHERE term = \(word)").first?.decode(Int.self) ?? 0
        guard uses < SearchPlan.rankedAtMost else { return [] }
        let length = word.unicodeScalars.count
        return try connection.rows("""
            SELECT term, uses FROM vocabulary WHERE initial = \(String(first)) AND length BETWEEN \(length - distance) AND \(length + distance)
            """).map { row in
                let (term, uses) = try row.decode((String, Int).self)
                return (term: term, uses: uses)
            }
    }

    /// As ``SearchIndex``: the inflections of `word` the index holds.
    static func indexedForms(of word: String, _ connection: PostgresConnection) throws -> [String] {
        let forms = Inflection.forms(of: word).sorted()
        guard !forms.isEmpty else { return [] }
        return try connection.rows("SELECT term FROM vocabulary WHERE term = ANY(\(forms)) ORDER BY term").map { try $0.decode(String.self) }
    }
}
