import Foundation
import InkCore
@testable import InkwellKit
import InkStore
import Testing
import GRDB
import InkIndexPostgres
import TestSupport
@testable import InkIndex

/// A recogniser for tests: "reads" each page as the text the test wrote for it (by the page's first
/// stroke's x position), counting how often it is asked.
final class ScriptedRecognizer: PageRecognizer, @unchecked Sendable {
    let texts: [Float: String]
    let failing: Set<Float>
    private let lock = NSLock()
    private(set) var calls = 0

    init(texts: [Float: String], failing: Set<Float> = []) {
        self.texts = texts
        self.failing = failing
    }

    func recognize(_ page: Page) throws -> PageRecognition {
        lock.withLock { calls += 1 }
        let key = page.strokes.first?.points.first?.x ?? -1
        if failing.contains(key) { throw StoreError.invalid("unreadable page") }
        let text = texts[key] ?? ""
        var words: [RecognizedWord] = []
        for (line, lineText) in text.split(separator: "\n").enumerated() {
            for (column, word) in lineText.split(separator: " ").enumerated() {
                words.append(RecognizedWord(text: String(word), box: Rect(minX: Double(column) * 100, minY: Double(line) * 80,
                                                                          maxX: Double(column) * 100 + 90, maxY: Double(line) * 80 + 60),
                                            confidence: 0.9, line: line))
            }
        }
        let hashtags = words.filter { $0.text.hasPrefix("#") }.compactMap { InkCore.Tag($0.text) }
        return PageRecognition(words: words, hashtags: hashtags)
    }
}

/// The index backends every shared search and indexing test runs against.
enum IndexKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The library's own `index.sqlite`.
    case sqlite
    /// A database of its own on the suite's PostgreSQL server.
    case postgres

    var description: String { rawValue }
}

/// A library with its index (in the library, or in a new PostgreSQL database), removed with this value.
final class Fixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-index-\(UUID().uuidString)")
    let library: Library
    let index: any IndexBackend

    init(_ kind: IndexKind = .sqlite) throws {
        library = try Library.create(at: root)
        switch kind {
        case .sqlite: index = try SearchIndex(library: library)
        case .postgres: index = try PostgresIndex(url: try PostgresTestServer.newDatabase())
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A note whose pages each hold one stroke starting at x = key (the recogniser's lookup key).
    @discardableResult
    func note(_ title: String, in notebook: String = "Inbox", keys: [Float], tags: Set<InkCore.Tag> = []) throws -> StoredNote {
        let stored = try library.createNote(title: title, in: try NotebookPath(notebook), tags: tags)
        for key in keys {
            let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: key, y: 10), InkPoint(x: key + 5, y: 12)])
            try library.save([PageDelta(pageID: PageID.random(), size: .remarkable, isNew: true, addedStrokes: [stroke])],
                             to: stored.note.id)
        }
        return try library.note(matching: stored.note.id.rawValue)
    }

    /// How many of the library's pages are in each recognition state.
    func counts() throws -> [PageStatus: Int] {
        PageState.counts(try index.pageStates(of: try library.notes(), in: library).values)
    }

    func indexer(_ recognizer: ScriptedRecognizer) -> Indexer {
        Indexer(library: library, index: index, makeRecognizer: { recognizer })
    }
}

@Suite("Indexing job and search")
struct IndexTests {
    let texts: [Float: String] = [
        1: "Weekly planning meeting\nbudget review #q3-plan",
        2: "Groceries: apples bread cheese",
        3: "Retrospective notes\nwhat went well #team",
        4: "second page of planning\nmeeting minutes",
    ]

    @Test("the first run recognises every page; an unchanged library recognises none", arguments: IndexKind.allCases)
    func incremental(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Planning", in: "Work/Meetings", keys: [1, 4])
        try fixture.note("Shopping", keys: [2])
        let recognizer = ScriptedRecognizer(texts: texts)
        let first = try fixture.indexer(recognizer).run(jobs: 2)
        #expect(first.pages == 3 && first.recognized == 3 && first.unchanged == 0 && first.failed.isEmpty)
        let second = try fixture.indexer(recognizer).run(jobs: 2)
        #expect(second.recognized == 0 && second.unchanged == 3)
        #expect(recognizer.calls == 3)
    }

    @Test("text recognised elsewhere (an import) is searchable at once and the job skips those pages until they change", arguments: IndexKind.allCases)
    func recordedElsewhere(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Planning", keys: [1, 4])
        let pages = try fixture.library.pages(of: note)
        let elsewhere = ScriptedRecognizer(texts: texts)
        try fixture.index.record([(note, try pages.map { ($0, try elsewhere.recognize($0)) })], in: fixture.library)
        #expect(try fixture.index.search(SearchQuery(text: "minutes")).map(\.title) == ["Planning"])

        let recognizer = ScriptedRecognizer(texts: texts)
        let first = try fixture.indexer(recognizer).run()
        #expect(first.recognized == 0 && first.unchanged == 2 && recognizer.calls == 0)
        let extra = Stroke(id: StrokeID(2), points: [InkPoint(x: 700, y: 700)])
        try fixture.library.save([PageDelta(pageID: note.note.pages[1], isNew: false, addedStrokes: [extra])], to: note.note.id)
        #expect(try fixture.indexer(recognizer).run().recognized == 1)

        // A result for content the page no longer holds is kept under that content: the job reads the page again.
        let other = try fixture.note("Shopping", keys: [2])
        var stale = try fixture.library.pages(of: other)[0]
        stale.strokes.removeAll()
        try fixture.index.record([(other, [(stale, try elsewhere.recognize(stale))])], in: fixture.library)
        #expect(try fixture.indexer(recognizer).run().recognized == 1)
    }

    @Test("words read surely on two pages or more make the library's recognised vocabulary", arguments: IndexKind.allCases)
    func recognizedVocabulary(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Sketches", keys: [1, 2, 3])
        let recognizer = ScriptedRecognizer(texts: [1: "Rnote sketches abc3", 2: "rnote ideas, abc3 v3", 3: "more ideas, v3"])
        #expect(try fixture.indexer(recognizer).run().recognized == 3)
        // Case folded, on two pages or more, three characters or more ("v3" is not).
        #expect(Set(try fixture.index.wordsRead(withConfidence: 0.85, onPages: 2)) == ["rnote", "ideas,", "abc3"])
        #expect(try fixture.index.wordsRead(withConfidence: 0.95, onPages: 1).isEmpty)
        // Letters only: "abc3" is left out.
        #expect(try fixture.index.recognizedVocabulary() == ["rnote", "ideas"])
        #expect(try fixture.index.recognizedVocabulary(pages: 3).isEmpty)
    }

    @Test("a changed page is recognised again; a compacted but unchanged one is not", arguments: IndexKind.allCases)
    func changedPages(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Planning", keys: [1, 4])
        let recognizer = ScriptedRecognizer(texts: texts)
        _ = try fixture.indexer(recognizer).run()
        let extra = Stroke(id: StrokeID(2), points: [InkPoint(x: 700, y: 700)])
        try fixture.library.save([PageDelta(pageID: note.note.pages[1], isNew: false, addedStrokes: [extra])], to: note.note.id)
        #expect(try fixture.indexer(recognizer).run().recognized == 1)
        try fixture.library.save([PageDelta(pageID: note.note.pages[1], isNew: false, removedStrokeIDs: [StrokeID(2)])], to: note.note.id)
        #expect(try fixture.indexer(recognizer).run().recognized == 1)
        _ = try fixture.library.compact([try fixture.library.note(matching: "Planning")])
        #expect(try fixture.indexer(recognizer).run().recognized == 0)
    }

    @Test("search finds words by prefix and despite typos, ranks, and reports pages and snippets", arguments: IndexKind.allCases)
    func search(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Planning", in: "Work/Meetings", keys: [1, 4])
        try fixture.note("Shopping", keys: [2])
        try fixture.note("Retro", in: "Work", keys: [3])
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        let index = fixture.index

        let meeting = try index.search(SearchQuery(text: "meeting"))
        #expect(meeting.map(\.title) == ["Planning"])
        #expect(Set(meeting[0].pages) == [1, 2])
        #expect(meeting[0].snippet.contains("«meeting»") || meeting[0].snippet.contains("«Meeting»"))
        #expect(try index.search(SearchQuery(text: "retro")).map(\.title) == ["Retro"])
        #expect(try index.search(SearchQuery(text: "chees")).map(\.title) == ["Shopping"])
        #expect(try index.search(SearchQuery(text: "meetign")).map(\.title) == ["Planning"])
        #expect(try index.search(SearchQuery(text: "retrospectiev")).map(\.title) == ["Retro"])
        #expect(try index.search(SearchQuery(text: "budget meeting")).map(\.title) == ["Planning"])
        #expect(try index.search(SearchQuery(text: "budget cheese")).isEmpty)
        #expect(try index.search(SearchQuery(text: "shopping")).map(\.title) == ["Shopping"])
        #expect(try index.search(SearchQuery(text: "notes", notebook: try NotebookPath("Work"))).map(\.title) == ["Retro"])
        #expect(try index.search(SearchQuery(text: "notes", notebook: try NotebookPath("Personal"))).isEmpty)
    }

    @Test("readings recognition weighed and did not take are found too, ranked below pages whose text holds the word", arguments: IndexKind.allCases)
    func otherReadings(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        func record(_ title: String, key: Float, text: String, alternatives: [String]) throws {
            let note = try fixture.note(title, keys: [key])
            let words = text.split(separator: " ").enumerated().map {
                RecognizedWord(text: String($0.element), box: Rect(minX: Double($0.offset) * 100, minY: 0, maxX: Double($0.offset) * 100 + 90, maxY: 60),
                               confidence: 0.5, line: 0)
            }
            let page = try fixture.library.pages(of: note)[0]
            try fixture.index.record([(note, [(page, PageRecognition(words: words, hashtags: [], alternatives: alternatives))])], in: fixture.library)
        }
        // Notes without the word, so that it is a rare one, as in a real library.
        for filler in 0..<8 {
            try record("Filler \(filler)", key: Float(10 + filler), text: "groceries apples bread cheese", alternatives: ["grocerles"])
        }
        // Beta first: on a tie the note indexed last would rank first. Beta's text is long and Alpha's
        // readings short, which alone would rank Alpha first.
        try record("Beta", key: 2, text: "budget plan for the quarterly meeting with the whole team", alternatives: [])
        try record("Alpha", key: 1, text: "quarterly reviow", alternatives: ["budget", "review"])
        let hits = try fixture.index.search(SearchQuery(text: "budget"))
        #expect(hits.map(\.title) == ["Beta", "Alpha"])
        #expect(hits.map(\.pages) == [[1], [1]])
        #expect(hits.first?.snippet.contains("«budget»") == true)
        #expect(hits.last?.snippet.contains("budget") == false, "the snippet shows the text read")
        #expect(try fixture.index.search(SearchQuery(text: "review budget")).map(\.title) == ["Alpha"])
        #expect(try fixture.index.pageTexts(of: try fixture.library.note(matching: "Alpha").note.id).values.first == "quarterly reviow")
    }

    @Test("hashtags become tags, tag filters combine with AND, and a tag removed by hand stays removed", arguments: IndexKind.allCases)
    func hashtagsAndTags(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Planning", keys: [1], tags: [InkCore.Tag("budget")!])
        let retro = try fixture.note("Retro", keys: [3])
        try fixture.library.updateNote(retro.note.id) { $0.removedTags.insert(InkCore.Tag("team")!) }
        let report = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        #expect(report.tagged.values.flatMap { $0 } == ["q3-plan"])
        #expect(try fixture.library.note(matching: "Planning").note.tags == [InkCore.Tag("budget")!, InkCore.Tag("q3-plan")!])
        #expect(try fixture.library.note(matching: "Retro").note.tags.isEmpty)
        let index = fixture.index
        #expect(try index.search(SearchQuery(text: "", tags: [InkCore.Tag("q3-plan")!])).map(\.title) == ["Planning"])
        #expect(try index.search(SearchQuery(text: "", tags: [InkCore.Tag("q3-plan")!, InkCore.Tag("budget")!])).map(\.title) == ["Planning"])
        #expect(try index.search(SearchQuery(text: "", tags: [InkCore.Tag("q3-plan")!, InkCore.Tag("team")!])).isEmpty)
        #expect(try index.search(SearchQuery(text: "review", tags: [InkCore.Tag("budget")!])).map(\.title) == ["Planning"])
    }

    @Test("tag and notebook filters are exact: a tag is not part of a longer one, a notebook is not a longer name", arguments: IndexKind.allCases)
    func exactFilters(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("In work", in: "Work", keys: [2], tags: [InkCore.Tag("q3")!])
        try fixture.note("In meetings", in: "Work/Meetings", keys: [2], tags: [InkCore.Tag("q3-plan")!])
        try fixture.note("In workshop", in: "Workshop", keys: [2], tags: [InkCore.Tag("plan")!, InkCore.Tag("q3x")!])
        try fixture.note("In work stuff", in: "Work Stuff", keys: [2], tags: [InkCore.Tag("plan-q3")!])
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        let index = fixture.index
        func titles(_ query: SearchQuery) throws -> Set<String> { Set(try index.search(query).map(\.title)) }
        #expect(try titles(SearchQuery(text: "apples", notebook: try NotebookPath("Work"))) == ["In work", "In meetings"])
        #expect(try titles(SearchQuery(text: "", notebook: try NotebookPath("Work/Meetings"))) == ["In meetings"])
        #expect(try titles(SearchQuery(text: "", tags: [InkCore.Tag("q3")!])) == ["In work"])
        #expect(try titles(SearchQuery(text: "", tags: [InkCore.Tag("q3-plan")!])) == ["In meetings"])
        #expect(try titles(SearchQuery(text: "cheese", tags: [InkCore.Tag("plan")!])) == ["In workshop"])
    }

    @Test("a typo finds words the recogniser misread, whatever their accents", arguments: IndexKind.allCases)
    func typosAgainstMisreadings(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Café", keys: [7])
        _ = try fixture.indexer(ScriptedRecognizer(texts: [7: "Résumé of the bugdet talks"])).run()
        #expect(try fixture.index.search(SearchQuery(text: "budget")).map(\.title) == ["Café"])
        #expect(try fixture.index.search(SearchQuery(text: "resume")).map(\.title) == ["Café"])
        #expect(try fixture.index.search(SearchQuery(text: "cafe")).map(\.title) == ["Café"])
        #expect(try fixture.index.search(SearchQuery(text: "talsk")).first?.pages == [1])
    }

    @Test("a real word finds itself, its inflections, misreadings and other readings, not other real words near it",
          .enabled(if: SearchDictionary.system.contains("adoption"), "needs the English word lists (wamerican, wbritish: scripts/install-deps.sh)"),
          arguments: IndexKind.allCases)
    func realWordsStayPrecise(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let texts: [Float: String] = [1: "the abortion debate", 2: "compatible drivers", 3: "adoptoin papers", 4: "studies of pens",
                                      5: "then again", 6: "adoptive parents"]
        for (key, title) in [(1, "One"), (2, "Two"), (3, "Three"), (4, "Four"), (5, "Five")] { try fixture.note(title, keys: [Float(key)]) }
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        // Six: read "adoptive", with "adaptive" among the readings recognition did not take.
        let six = try fixture.note("Six", keys: [6])
        let words = ["adoptive", "parents"].enumerated().map {
            RecognizedWord(text: $0.element, box: Rect(minX: Double($0.offset) * 100, minY: 0, maxX: Double($0.offset) * 100 + 90, maxY: 60),
                           confidence: 0.5, line: 0)
        }
        try fixture.index.record([(six, [(try fixture.library.pages(of: six)[0], PageRecognition(words: words, hashtags: [], alternatives: ["adaptive"]))])],
                                 in: fixture.library)
        func titles(_ text: String) throws -> [String] { try fixture.index.search(SearchQuery(text: text)).map(\.title).sorted() }
        #expect(try titles("adoption") == ["Three"])
        #expect(try titles("computable").isEmpty)
        #expect(try titles("the") == ["One"])
        #expect(try titles("study") == ["Four"])
        #expect(try titles("pen") == ["Four"])
        #expect(try titles("adaptive") == ["Six"])
        #expect(try titles("abortin") == ["One"], "a typo in the query still finds the word")
    }

    @Test("an index made by an earlier version is brought up to date and searchable")
    func migratesEarlierIndex() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent("index.sqlite")
        let old = try DatabaseQueue(path: url.path)
        try SearchIndex.migrator.migrate(old, upTo: "v1")
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO note (id, title, notebook, created, modified, pinned, tags) VALUES ('n1', 'Planning', 'Work', 0, 0, 0, 'budget');
                INSERT INTO note_tag (note_id, tag) VALUES ('n1', 'budget');
                INSERT INTO page (id, note_id, number, status, text) VALUES ('p1', 'n1', 1, 'recognised', 'quarterly review');
                INSERT INTO search (title, text, tags, note_id, page_id) VALUES ('Planning', 'quarterly review', 'budget', 'n1', 'p1');
                """)
        }
        try old.close()
        let index = try SearchIndex(url: url)
        let hits = try index.search(SearchQuery(text: "quartely", tags: [InkCore.Tag("budget")!], notebook: try NotebookPath("Work")))
        #expect(hits.map(\.title) == ["Planning"])
        #expect(hits.first?.pages == [1])
    }

    @Test("a page that fails is recorded and reported; the others are indexed; the next run retries it", arguments: IndexKind.allCases)
    func failures(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        try fixture.note("Planning", keys: [1, 4])
        let report = try fixture.indexer(ScriptedRecognizer(texts: texts, failing: [4])).run()
        #expect(report.recognized == 1 && report.failed.count == 1)
        #expect(report.failed[0].reason.contains("unreadable page"))
        #expect(try fixture.counts()[.failed] == 1)
        #expect(try fixture.indexer(ScriptedRecognizer(texts: texts)).run().recognized == 1)
        #expect(try fixture.counts()[.recognized] == 2)
    }

    @Test("shards split the pages between them without overlap")
    func shards() throws {
        let fixture = try Fixture()
        for key in 1...4 { try fixture.note("Note \(key)", keys: [Float(key), Float(key) + 0.5, Float(key) + 0.25]) }
        let recognizer = ScriptedRecognizer(texts: texts)
        let counts = try (0..<3).map { try fixture.indexer(recognizer).run(shard: try Shard(index: $0, count: 3)).recognized }
        #expect(counts.reduce(0, +) == 12)
        #expect(counts.allSatisfy { $0 < 12 })
        #expect(try fixture.indexer(recognizer).run().recognized == 0)
        #expect(throws: StoreError.self) { try Shard(parsing: "3/3") }
        #expect(try Shard(parsing: "1/4") == (try Shard(index: 1, count: 4)))
    }

    @Test("notes deleted, renamed or retagged in the library are followed by the index", arguments: IndexKind.allCases)
    func followsLibrary(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let planning = try fixture.note("Planning", keys: [1])
        try fixture.note("Shopping", keys: [2])
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        try fixture.library.deleteNote(planning.note.id)
        let shopping = try fixture.library.note(matching: "Shopping")
        try fixture.library.updateNote(shopping.note.id) { $0.title = "Market list" }
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        #expect(try fixture.index.search(SearchQuery(text: "budget")).isEmpty)
        #expect(try fixture.index.search(SearchQuery(text: "market")).map(\.title) == ["Market list"])
        #expect(try fixture.index.search(SearchQuery(text: "apples")).map(\.title) == ["Market list"])
    }

    func distance(_ a: String, _ b: String, limit: Int) -> Int {
        var edits = EditDistance(to: Array(b.unicodeScalars), limit: limit)
        return edits.distance(from: a.unicodeScalars)
    }

    @Test("edit distance counts insertions, deletions, substitutions and swaps, and stops early")
    func editDistances() {
        #expect(distance("meeting", "meetign", limit: 2) == 1)
        #expect(distance("ab", "ba", limit: 2) == 1)
        #expect(distance("meeting", "meting", limit: 2) == 1)
        #expect(distance("kitten", "sitting", limit: 5) == 3)
        #expect(distance("abc", "xyz123", limit: 1) == 2)
        #expect(distance("", "ab", limit: 5) == 2)
        // One instance, many candidates: each starts afresh.
        var edits = EditDistance(to: Array("budget".unicodeScalars), limit: 1)
        #expect(["bugdet", "budgte", "xyzxyz", "budget", "budge"].map { edits.distance(from: $0.unicodeScalars) } == [1, 1, 2, 0, 1])
    }
}

