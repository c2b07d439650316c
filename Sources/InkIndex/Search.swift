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
    /// Ranked notes for `query`: every word must match within the title and tags plus one page's
    /// recognised text, or the title and tags plus the typed text; as a prefix or within a small edit
    /// distance of a word in the index (handwriting recognition misspells).
    public func search(_ query: SearchQuery) throws -> [SearchHit] {
        let words = SearchIndex.words(in: query.text)
        return try database.read { db in
            var conditions: [String] = []
            var arguments: [DatabaseValueConvertible] = []
            if !words.isEmpty {
                conditions.append("search MATCH ?")
                arguments.append(try matchExpression(words, db))
            }
            if !query.tags.isEmpty {
                conditions.append("""
                    search.note_id IN (SELECT note_id FROM note_tag WHERE tag IN (\(Array(repeating: "?", count: query.tags.count).joined(separator: ",")))
                    GROUP BY note_id HAVING count(*) = ?)
                    """)
                arguments += query.tags.map(\.name) as [DatabaseValueConvertible]
                arguments.append(Set(query.tags).count)
            }
            if let notebook = query.notebook, !notebook.isRoot {
                conditions.append("(note.notebook = ? OR note.notebook LIKE ? ESCAPE '\\')")
                arguments.append(notebook.description)
                arguments.append(notebook.description.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "/%")
            }
            let rank = words.isEmpty ? "0" : "bm25(search, 10.0, 1.0, 2.0, 5.0)"
            let snippet = words.isEmpty ? "substr(search.text, 1, 120)" : "snippet(search, 1, '«', '»', '…', 12)"
            let bodySnippet = words.isEmpty ? "''" : "snippet(search, 2, '«', '»', '…', 12)"
            let sql = """
                SELECT search.note_id AS note_id, search.page_id AS page_id, page.number AS number, \(rank) AS rank,
                       \(snippet) AS snippet, \(bodySnippet) AS body_snippet,
                       note.title AS title, note.notebook AS notebook, note.tags AS tags,
                       note.modified AS modified
                FROM search JOIN note ON note.id = search.note_id LEFT JOIN page ON page.id = search.page_id
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY rank, note.modified DESC
                LIMIT ?
                """
            arguments.append(query.limit * 20)
            var hits: [SearchHit] = []
            var position: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) {
                let noteID: String = row["note_id"]
                let number: Int? = row["number"]
                let textSnippet: String = row["snippet"] ?? ""
                let typedSnippet: String = row["body_snippet"] ?? ""
                let inTypedText = typedSnippet.contains("«")
                if let at = position[noteID] {
                    if let number, textSnippet.contains("«") { hits[at].pages.append(number) }
                    if inTypedText {
                        hits[at].typedText = true
                        if !hits[at].snippet.contains("«") { hits[at].snippet = typedSnippet }
                    }
                    continue
                }
                guard hits.count < query.limit else { continue }
                position[noteID] = hits.count
                let tags: String = row["tags"]
                hits.append(SearchHit(
                    note: NoteID(rawValue: noteID), title: row["title"], notebook: row["notebook"],
                    tags: tags.split(separator: " ").map(String.init),
                    pages: number.flatMap { textSnippet.contains("«") ? [$0] : nil } ?? [],
                    snippet: textSnippet.contains("«") ? textSnippet : inTypedText ? typedSnippet : row["title"],
                    typedText: inTypedText,
                    score: 0 - ((row["rank"] as Double?) ?? 0)))
            }
            return hits
        }
    }

    /// The words of a query: letters and digits, lowercased.
    static func words(in text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// `(word* OR "near1" OR "near2") AND …`: a prefix match, plus indexed words a typo away.
    private func matchExpression(_ words: [String], _ db: Database) throws -> String {
        try words.map { word in
            var alternatives = ["\"\(word)\"*"]
            let tolerance = word.count >= 8 ? 2 : word.count >= 4 ? 1 : 0
            if tolerance > 0 {
                alternatives += try nearbyTerms(word, within: tolerance, db).map { "\"\($0)\"" }
            }
            return "(" + alternatives.joined(separator: " OR ") + ")"
        }
        .joined(separator: " AND ")
    }

    /// Indexed terms within `distance` edits of `word` that share its first letter.
    private func nearbyTerms(_ word: String, within distance: Int, _ db: Database) throws -> [String] {
        guard let first = word.first else { return [] }
        let low = String(first), high = String(first) + "\u{10FFFF}"
        let length = word.count
        let candidates = try String.fetchAll(db, sql: """
            SELECT term FROM search_vocabulary WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?
            """, arguments: [low, high, length - distance, length + distance])
        let target = Array(word)
        return candidates.filter { $0 != word && editDistance(Array($0), target, limit: distance) <= distance }.prefix(20).map { $0 }
    }
}

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours (optimal string
/// alignment), giving up (returning limit + 1) once it must exceed `limit`.
func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var twoBack = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowMinimum = i
        for j in 1...b.count {
            var cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cost = min(cost, twoBack[j - 2] + 1) }
            current[j] = cost
            rowMinimum = min(rowMinimum, cost)
        }
        if rowMinimum > limit { return limit + 1 }
        (twoBack, previous, current) = (previous, current, twoBack)
    }
    return previous[b.count]
}
