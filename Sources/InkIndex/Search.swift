import Foundation
import GRDB
import InkCore

/// One note found by a search, with the pages that matched.
public struct SearchHit: Sendable, Codable, Equatable {
    public var note: NoteID
    public var title: String
    public var notebook: String
    public var tags: [String]
    /// 1-based numbers of the matching pages, best first (empty when only the title or tags matched).
    public var pages: [Int]
    /// The matching text with the matched words in «», from the best page or the typed text.
    public var snippet: String
    /// True when the words were found in the note's typed text.
    public var typedText: Bool
    /// Higher is better.
    public var score: Double
}

/// What to look for: words (prefix and typo tolerant), tags that must all be present, a notebook.
public struct SearchQuery: Sendable, Equatable {
    public var text: String
    public var tags: [Tag]
    public var notebook: NotebookPath?
    public var limit: Int

    public init(text: String, tags: [Tag] = [], notebook: NotebookPath? = nil, limit: Int = 20) {
        self.text = text
        self.tags = tags
        self.notebook = notebook
        self.limit = limit
    }
}

extension SearchIndex {
    /// How many matching pages are ranked when a query matches more (the most recently indexed):
    /// ranking costs time for every page it looks at, and a word found on tens of thousands of pages
    /// would otherwise take longer than a search should (docs/recognition.md, "Indexing and search").
    public static let rankedAtMost = 1_000

    /// Ranked notes for `query`: every word must match within the title and tags plus one page's
    /// recognised text, or the title and tags plus the typed text: itself, one of the most used indexed
    /// words it begins, or an indexed word a small edit distance away (handwriting recognition
    /// misspells). When more than ``rankedAtMost`` rows match, the most recently indexed are ranked.
    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        let words = SearchTerms.terms(in: query.text)
        let tags = query.tags.reduce(into: [Tag]()) { if !$0.contains($1) { $0.append($1) } }
        let notebook = query.notebook.flatMap { $0.isRoot ? nil : $0 }
        return try database.read { db in
            // Everything the query asks for is a full-text condition, so that the FTS index alone
            // finds the rows: words with their alternatives, and the keys of the tags and notebook.
            let alternatives = try words.map { try WordMatch(word: $0, completions: completions(of: $0, db), nearby: nearbyTerms($0, db)) }
            var phrases = alternatives.map(\.expression)
            phrases += tags.map { "keys : " + quoted(SearchKey.tag($0.name)) }
            if let notebook { phrases.append("keys : " + quoted(SearchKey.notebook(notebook.description))) }
            guard !phrases.isEmpty else { return try recentNotes(db, limit: query.limit) }

            // The latest matching rows come straight from the FTS index in rowid order, stopping at the
            // cap, and only those are ranked; their note and page are read from `search_row`, for the
            // best only. Without words, the most recently indexed come first.
            let rank = words.isEmpty ? "0" : "bm25(search, 10.0, 1.0, 2.0, 5.0, 0.0)"
            let rows = try Row.fetchAll(db, sql: """
                SELECT top.rank AS rank, search_row.note_id AS note_id, search_row.page_id AS page_id
                FROM (SELECT * FROM (SELECT rowid, \(rank) AS rank FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?)
                      ORDER BY rank, rowid DESC
                      LIMIT ?) AS top
                JOIN search_row ON search_row.id = top.rowid
                ORDER BY top.rank, top.rowid DESC
                """, arguments: [phrases.joined(separator: " AND "), SearchIndex.rankedAtMost, query.limit * 20])

            // The best notes, then which of their pages (or their typed text) hold the words, with a
            // snippet from the best.
            var hits: [SearchHit] = []
            var position: [String: Int] = [:]
            let note = try db.cachedStatement(sql: "SELECT title, notebook, tags, body FROM note WHERE id = ?")
            let page = try db.cachedStatement(sql: "SELECT number, text FROM page WHERE id = ?")
            var bodies: [String: String] = [:]
            for row in rows {
                let noteID: String = row["note_id"]
                if position[noteID] == nil {
                    guard hits.count < query.limit, let found = try Row.fetchOne(note, arguments: [noteID]) else { continue }
                    position[noteID] = hits.count
                    bodies[noteID] = found["body"] ?? ""
                    let tags: String = found["tags"]
                    hits.append(SearchHit(note: NoteID(rawValue: noteID), title: found["title"], notebook: found["notebook"],
                                          tags: tags.split(separator: " ").map(String.init), pages: [], snippet: found["title"],
                                          typedText: false, score: 0 - ((row["rank"] as Double?) ?? 0)))
                }
                guard let at = position[noteID], !words.isEmpty else { continue }
                if let pageID: String = row["page_id"] {
                    guard let found = try Row.fetchOne(page, arguments: [pageID]),
                          let snippet = Snippet.make(from: (found["text"] as String?) ?? "", matching: alternatives)
                    else { continue }
                    if !hits[at].snippet.contains("«") { hits[at].snippet = snippet }
                    hits[at].pages.append(found["number"])
                } else if let snippet = Snippet.make(from: bodies[noteID] ?? "", matching: alternatives) {
                    hits[at].typedText = true
                    if !hits[at].snippet.contains("«") { hits[at].snippet = snippet }
                }
            }
            return hits
        }
    }

    /// The most recently changed notes, for a query that asks for nothing in particular.
    private func recentNotes(_ db: Database, limit: Int) throws -> [SearchHit] {
        try Row.fetchAll(db, sql: "SELECT id, title, notebook, tags FROM note ORDER BY modified DESC LIMIT ?", arguments: [limit]).map { row in
            let tags: String = row["tags"]
            return SearchHit(note: NoteID(rawValue: row["id"]), title: row["title"], notebook: row["notebook"],
                             tags: tags.split(separator: " ").map(String.init), pages: [], snippet: row["title"], typedText: false,
                             score: 0)
        }
    }

    /// The indexed words that begin with `word` (and are longer), the 8 most used: a prefix query
    /// is answered from the vocabulary rather than FTS5's prefix search, which reads the postings of
    /// every completion however few rows are wanted.
    private func completions(of word: String, _ db: Database) throws -> [String] {
        guard let last = word.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return [] }
        let end = String(word.unicodeScalars.dropLast()) + String(next)
        return try String.fetchAll(db.cachedStatement(sql: """
            SELECT term FROM vocabulary WHERE term > ? AND term < ? ORDER BY uses DESC, term LIMIT 8
            """), arguments: [word, end])
    }

    /// The closest indexed terms within a typo or two of `word` that share its first letter: at most
    /// 6, fewest edits first, then the most used (a real word before one misreading of it); none for a
    /// word in ``rankedAtMost`` notes or more. Only words of a near length are read: the vocabulary is
    /// keyed by first letter and length.
    private func nearbyTerms(_ word: String, _ db: Database) throws -> [String] {
        let target = Array(word.unicodeScalars)
        let distance = target.count >= 8 ? 2 : target.count >= 4 ? 1 : 0
        guard let first = target.first, distance > 0 else { return [] }
        // A word indexed in at least as many notes as are ranked is no typo, and its own rows fill the
        // ranking: near words (mostly misreadings of it, a few pages each) would cost time for little.
        let uses = try Int.fetchOne(db.cachedStatement(sql: "SELECT uses FROM vocabulary WHERE initial = ? AND length = ? AND term = ?"),
                                    arguments: [String(first), target.count, word]) ?? 0
        guard uses < SearchIndex.rankedAtMost else { return [] }
        let candidates = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT term, uses FROM vocabulary WHERE initial = ? AND length BETWEEN ? AND ?
            """), arguments: [String(first), target.count - distance, target.count + distance])
        var near: [(distance: Int, uses: Int, term: String)] = []
        var edits = EditDistance(to: target, limit: distance)
        while let row = try candidates.next() {
            let term: String = row[0]
            guard term != word else { continue }
            let distance = edits.distance(from: term.unicodeScalars)
            if distance <= edits.limit { near.append((distance, row[1], term)) }
        }
        return near.sorted { ($0.distance, -$0.uses, $0.term) < ($1.distance, -$1.uses, $1.term) }.prefix(6).map(\.term)
    }
}
