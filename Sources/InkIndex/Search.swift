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

    package init(note: NoteID, title: String, notebook: String, tags: [String], pages: [Int], snippet: String, typedText: Bool, score: Double) {
        (self.note, self.title, self.notebook, self.tags, self.pages) = (note, title, notebook, tags, pages)
        (self.snippet, self.typedText, self.score) = (snippet, typedText, score)
    }
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

/// The backend-independent half of a search: what a query asks for, which indexed words match each
/// of its words, and how the rows a backend's full-text search found become hits. Every backend
/// answers through it, so the same library gives the same answers whichever database holds its index.
package struct SearchPlan {
    /// How many matching rows are ranked when a query matches more (the most recently indexed):
    /// ranking costs time for every page it looks at, and a word found on tens of thousands of pages
    /// would otherwise take longer than a search should (docs/recognition.md, "Indexing and search").
    package static let rankedAtMost = 1_000
    /// How many completions of a word are searched for, the most used first.
    package static let completionsAtMost = 8
    /// How many completions a backend reads, the most used first, for ``completionsAtMost`` to be
    /// chosen from (a dictionary word's completions that are other words are passed over).
    package static let completionsRead = 64
    /// How many words a typo away are searched for, fewest edits first.
    package static let nearbyAtMost = 6

    package let words: [String]
    package let tags: [Tag]
    package let notebook: NotebookPath?
    package let limit: Int
    /// The real words of the language, which are matched exactly or by inflection, not as typos.
    package let dictionary: SearchDictionary

    package init(_ query: SearchQuery, dictionary: SearchDictionary = .system) {
        words = SearchTerms.terms(in: query.text)
        tags = query.tags.reduce(into: [Tag]()) { if !$0.contains($1) { $0.append($1) } }
        notebook = query.notebook.flatMap { $0.isRoot ? nil : $0 }
        limit = query.limit
        self.dictionary = dictionary
    }

    /// The keys (``SearchKey``) every matching row must hold: one per tag, one for the notebook.
    package var keys: [String] {
        tags.map { SearchKey.tag($0.name) } + (notebook.map { [SearchKey.notebook($0.description)] } ?? [])
    }

    /// True when the query asks for nothing in particular (the most recent notes answer it).
    package var isEmpty: Bool { words.isEmpty && keys.isEmpty }

    /// The exclusive upper bound of the words that begin with `word`, for a range lookup in a
    /// vocabulary sorted by code point (nil when there is none).
    package static func prefixEnd(of word: String) -> String? {
        guard let last = word.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return nil }
        return String(word.unicodeScalars.dropLast()) + String(next)
    }

    /// How many edits a word may be from an indexed word and still match it: none below 4 letters,
    /// one from 4, two from 8. Backends read the indexed words of a length this near; which of them
    /// match is ``match(_:completions:nearby:forms:)``'s to decide.
    package static func typoAllowance(of word: String) -> Int {
        let count = word.unicodeScalars.count
        return count >= 8 ? 2 : count >= 4 ? 1 : 0
    }

    /// What `word` matches, from the indexed words a backend read for it: `completions`, indexed words
    /// that begin with it (most used first, ``completionsRead`` of them); `nearby`, indexed words with
    /// how often they were indexed, which share its first letter and are of a length within
    /// ``typoAllowance(of:)``; `forms`, its inflections (``Inflection/forms(of:)``) the index holds.
    ///
    /// The rule (docs/recognition.md, "Indexing and search"): a word matches its forms always. A word
    /// of the ``dictionary`` is a real word, written as meant, and never matches another real word
    /// (`adoption` is not `abortion`, `then` not `the`) as a typo, nor as a completion below
    /// ``realCompletionsFrom`` letters: only near words that are no real word (misreadings of it, names). Two letters changed in a word of the
    /// same length match only when neither word is a real word (`computable`, which the lists lack,
    /// does not find `compatible`). Otherwise, the most used ``completionsAtMost`` completions, and the
    /// near words within ``typoAllowance(of:)`` (``nearest(to:among:twoEditsAtItsLength:)``).
    /// A real word's completions that are real words too are matched from this many letters on: a
    /// prefix that long is typed as one (`quart` finds `quarterly`), while a shorter real word is
    /// mostly meant as itself, and misreadings give it many real completions (`the`: `then`, `there`).
    package static let realCompletionsFrom = 5

    package func match(_ word: String, completions: [String], nearby: some Sequence<(term: String, uses: Int)>, forms: [String]) -> WordMatch {
        let isWord = dictionary.contains(word)
        let admits = { (term: String) in !isWord || !dictionary.contains(term) }
        let completes = word.unicodeScalars.count >= Self.realCompletionsFrom
        return WordMatch(word: word, completions: Array(completions.lazy.filter { completes || admits($0) }.prefix(Self.completionsAtMost)),
                         nearby: Self.nearest(to: word, among: nearby.lazy.filter { admits($0.term) },
                                              twoEditsAtItsLength: { !isWord && !dictionary.contains($0) }) + forms)
    }

    /// The closest of `candidates` within ``typoAllowance(of:)``: at most ``nearbyAtMost``, fewest edits
    /// first, then the most used (a real word before a misreading of it). A candidate of the word's
    /// own length two edits away only where `twoEditsAtItsLength` allows it.
    package static func nearest(to word: String, among candidates: some Sequence<(term: String, uses: Int)>,
                                twoEditsAtItsLength: (String) -> Bool = { _ in true }) -> [String] {
        let distance = typoAllowance(of: word)
        guard distance > 0 else { return [] }
        let length = word.unicodeScalars.count
        var near: [(distance: Int, uses: Int, term: String)] = []
        var edits = EditDistance(to: Array(word.unicodeScalars), limit: distance)
        for candidate in candidates where candidate.term != word {
            let distance = edits.distance(from: candidate.term.unicodeScalars)
            guard distance <= edits.limit else { continue }
            if distance > 1, candidate.term.unicodeScalars.count == length, !twoEditsAtItsLength(candidate.term) { continue }
            near.append((distance, candidate.uses, candidate.term))
        }
        return near.sorted { ($0.distance, -$0.uses, $0.term) < ($1.distance, -$1.uses, $1.term) }.prefix(nearbyAtMost).map(\.term)
    }

    /// One row a backend's full-text search matched: a note's own row (`page` nil: title, tags and
    /// typed text) or one of its pages.
    package struct MatchedRow {
        package var note: String
        package var page: String?
        /// Higher is better.
        package var score: Double

        package init(note: String, page: String?, score: Double) {
            self.note = note
            self.page = page
            self.score = score
        }
    }

    /// What a hit shows of its note.
    package struct NoteFields {
        package var title: String, notebook: String, tags: String, body: String

        package init(title: String, notebook: String, tags: String, body: String) {
            (self.title, self.notebook, self.tags, self.body) = (title, notebook, tags, body)
        }
    }

    /// The hits for `rows` (best first): the best notes up to the limit, then which of their pages
    /// (or their typed text) hold the words — in the text recognised, or only in the readings
    /// recognition did not take — with a snippet from the best. `note` and `page` read a note's fields
    /// and a page's number, recognised text and other readings from the backend.
    package func hits(from rows: [MatchedRow], matching alternatives: [WordMatch], note: (String) throws -> NoteFields?,
                      page: (String) throws -> (number: Int, text: String, alternatives: String)?) throws -> [SearchHit] {
        var hits: [SearchHit] = []
        var position: [String: Int] = [:]
        var bodies: [String: String] = [:]
        for row in rows {
            if position[row.note] == nil {
                guard hits.count < limit, let found = try note(row.note) else { continue }
                position[row.note] = hits.count
                bodies[row.note] = found.body
                hits.append(SearchHit(note: NoteID(rawValue: row.note), title: found.title, notebook: found.notebook,
                                      tags: found.tags.split(separator: " ").map(String.init), pages: [], snippet: found.title,
                                      typedText: false, score: row.score))
            }
            guard let at = position[row.note], !words.isEmpty else { continue }
            if let pageID = row.page {
                guard let found = try page(pageID) else { continue }
                if let snippet = Snippet.make(from: found.text, matching: alternatives) {
                    if !hits[at].snippet.contains("«") { hits[at].snippet = snippet }
                } else if Snippet.make(from: found.alternatives, matching: alternatives) == nil {
                    continue
                }
                hits[at].pages.append(found.number)
            } else if let snippet = Snippet.make(from: bodies[row.note] ?? "", matching: alternatives) {
                hits[at].typedText = true
                if !hits[at].snippet.contains("«") { hits[at].snippet = snippet }
            }
        }
        return hits
    }
}

extension SearchIndex {
    /// Ranked notes for `query`: every word must match within the title and tags plus one page's
    /// recognised text, or the title and tags plus the typed text: itself, one of the most used indexed
    /// words it begins, or an indexed word a small edit distance away (handwriting recognition
    /// misspells). When more than ``SearchPlan/rankedAtMost`` rows match, the most recently indexed are ranked.
    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        let plan = SearchPlan(query)
        return try database.read { db in
            guard !plan.isEmpty else { return try recentNotes(db, limit: plan.limit) }
            // Everything the query asks for is a full-text condition, so that the FTS index alone
            // finds the rows: words with their alternatives, and the keys of the tags and notebook.
            let alternatives = try plan.words.map {
                try plan.match($0, completions: completions(of: $0, db), nearby: nearbyTerms($0, db), forms: indexedForms(of: $0, db))
            }
            let phrases = alternatives.map(\.expression) + plan.keys.map { "keys : " + quoted($0) }

            // The latest matching rows come straight from the FTS index in rowid order, stopping at the
            // cap, and only those are ranked; their note and page are read from `search_row`, for the
            // best only. Without words, the most recently indexed come first.
            let rank = plan.words.isEmpty ? "0" : "bm25(search, 10.0, 1.0, 2.0, 5.0, 0.0, 0.3)"
            let rows = try Row.fetchAll(db, sql: """
                SELECT top.rank AS rank, search_row.note_id AS note_id, search_row.page_id AS page_id
                FROM (SELECT * FROM (SELECT rowid, \(rank) AS rank FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT ?)
                      ORDER BY rank, rowid DESC
                      LIMIT ?) AS top
                JOIN search_row ON search_row.id = top.rowid
                ORDER BY top.rank, top.rowid DESC
                """, arguments: [phrases.joined(separator: " AND "), SearchPlan.rankedAtMost, plan.limit * 20])
            let note = try db.cachedStatement(sql: "SELECT title, notebook, tags, body FROM note WHERE id = ?")
            let page = try db.cachedStatement(sql: "SELECT number, text, alternatives FROM page WHERE id = ?")
            return try plan.hits(
                from: rows.map { SearchPlan.MatchedRow(note: $0["note_id"], page: $0["page_id"], score: 0 - (($0["rank"] as Double?) ?? 0)) },
                matching: alternatives,
                note: { id in
                    try Row.fetchOne(note, arguments: [id]).map {
                        SearchPlan.NoteFields(title: $0["title"], notebook: $0["notebook"], tags: $0["tags"], body: $0["body"] ?? "")
                    }
                },
                page: { id in
                    try Row.fetchOne(page, arguments: [id]).map { ($0["number"], ($0["text"] as String?) ?? "", ($0["alternatives"] as String?) ?? "") }
                })
        }
    }

    /// The most recently changed notes, for a query that asks for nothing in particular.
    private func recentNotes(_ db: Database, limit: Int) throws -> [SearchHit] {
        try Row.fetchAll(db, sql: "SELECT id, title, notebook, tags FROM note ORDER BY modified DESC, id LIMIT ?", arguments: [limit]).map { row in
            let tags: String = row["tags"]
            return SearchHit(note: NoteID(rawValue: row["id"]), title: row["title"], notebook: row["notebook"],
                             tags: tags.split(separator: " ").map(String.init), pages: [], snippet: row["title"], typedText: false,
                             score: 0)
        }
    }

    /// The indexed words that begin with `word` (and are longer), the most used
    /// (``SearchPlan/completionsRead``): a prefix query is answered from the vocabulary rather than
    /// FTS5's prefix search, which reads the postings of every completion however few rows are wanted.
    private func completions(of word: String, _ db: Database) throws -> [String] {
        guard let end = SearchPlan.prefixEnd(of: word) else { return [] }
        return try String.fetchAll(db.cachedStatement(sql: """
            SELECT term FROM vocabulary WHERE term > ? AND term < ? ORDER BY uses DESC, term LIMIT ?
            """), arguments: [word, end, SearchPlan.completionsRead])
    }

    /// The indexed terms that may be within a typo or two of `word`: those that share its first letter
    /// and are of a length within ``SearchPlan/typoAllowance(of:)``, with their uses; none for a word
    /// in ``SearchPlan/rankedAtMost`` notes or more. Only words of a near length are read: the
    /// vocabulary is keyed by first letter and length.
    private func nearbyTerms(_ word: String, _ db: Database) throws -> [(term: String, uses: Int)] {
        let distance = SearchPlan.typoAllowance(of: word)
        guard let first = word.unicodeScalars.first, distance > 0 else { return [] }
        let length = word.unicodeScalars.count
        // A word indexed in at least as many notes as are ranked is no typo, and its own rows fill the
        // ranking: near words (mostly misreadings of it, a few pages each) would cost time for little.
        let uses = try Int.fetchOne(db.cachedStatement(sql: "SELECT uses FROM vocabulary WHERE initial = ? AND length = ? AND term = ?"),
                                    arguments: [String(first), length, word]) ?? 0
        guard uses < SearchPlan.rankedAtMost else { return [] }
        return try Row.fetchAll(db.cachedStatement(sql: """
            SELECT term, uses FROM vocabulary WHERE initial = ? AND length BETWEEN ? AND ?
            """), arguments: [String(first), length - distance, length + distance]).map { (term: $0[0] as String, uses: $0[1] as Int) }
    }

    /// The inflections of `word` (``Inflection/forms(of:)``) the index holds.
    private func indexedForms(of word: String, _ db: Database) throws -> [String] {
        let forms = Inflection.forms(of: word).sorted()
        guard !forms.isEmpty else { return [] }
        return try String.fetchAll(db, sql: "SELECT term FROM vocabulary WHERE term IN (\(forms.map { _ in "?" }.joined(separator: ", ")))",
                                   arguments: StatementArguments(forms))
    }
}
