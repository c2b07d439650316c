import Foundation
import GRDB
import InkCore
import InkStore
import Testing
@testable import InkIndex

@Suite("Typed text in the search index")
struct TypedTextIndexTests {
    let texts: [Float: String] = [1: "Weekly planning meeting\nbudget review", 2: "second page\nminutes"]

    @Test("typed words are found and the hit says it is in the typed text; recognised hits do not", arguments: IndexKind.allCases)
    func found(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let planning = try fixture.note("Planning", keys: [1, 2])
        try fixture.library.setTypedText("# Agenda\n- [ ] ask about the catering invoice\n", of: planning.note.id)
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()

        let typed = try fixture.index.search(SearchQuery(text: "catering"))
        #expect(typed.map(\.title) == ["Planning"])
        #expect(typed[0].typedText)
        #expect(typed[0].pages.isEmpty)
        #expect(typed[0].snippet.contains("«catering»"))
        #expect(try fixture.index.search(SearchQuery(text: "cateirng")).map(\.title) == ["Planning"])

        let recognized = try fixture.index.search(SearchQuery(text: "budget"))
        #expect(recognized.map(\.title) == ["Planning"] && !recognized[0].typedText && recognized[0].pages == [1])
        // Title words combine with the typed text.
        #expect(try fixture.index.search(SearchQuery(text: "planning invoice")).map(\.typedText) == [true])
    }

    @Test("a changed text is re-indexed at once, without recognising unchanged pages again", arguments: IndexKind.allCases)
    func changedText(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Planning", keys: [1, 2])
        try fixture.library.setTypedText("old words about zebras\n", of: note.note.id)
        let recognizer = ScriptedRecognizer(texts: texts)
        _ = try fixture.indexer(recognizer).run()
        #expect(recognizer.calls == 2)

        try fixture.library.setTypedText("new words about giraffes\n", of: note.note.id)
        try fixture.index.refresh(from: fixture.library)
        #expect(try fixture.index.search(SearchQuery(text: "giraffes")).map(\.title) == ["Planning"])
        #expect(try fixture.index.search(SearchQuery(text: "zebras")).isEmpty)

        // Edited by hand in an editor (note.json untouched): the next run sees it too.
        try Data("hand edited: okapis\n".utf8).write(to: fixture.library.typedTextURL(of: note))
        let report = try fixture.indexer(recognizer).run()
        #expect(report.recognized == 0 && report.unchanged == 2)
        #expect(recognizer.calls == 2)
        #expect(try fixture.index.search(SearchQuery(text: "okapis")).map(\.title) == ["Planning"])
        #expect(try fixture.index.search(SearchQuery(text: "minutes")).map(\.pages) == [[2]])
    }

    @Test("hashtags typed outside Inkwell become tags at the next indexing run, except tags removed by hand", arguments: IndexKind.allCases)
    func handTypedHashtags(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Ideas", keys: [])
        try fixture.library.updateNote(note.note.id) { $0.removedTags = [InkCore.Tag("old")!] }
        try Data("An #app idea, #old and `#code`\n".utf8).write(to: fixture.library.typedTextURL(of: note))
        let report = try fixture.indexer(ScriptedRecognizer(texts: [:])).run()
        #expect(report.tagged[note.note.id.rawValue] == ["app"])
        #expect(try fixture.library.note(matching: "Ideas").note.tags == [InkCore.Tag("app")!])
    }

    @Test("an index made before typed text existed is migrated and keeps working")
    func migratesVersion1() throws {
        let fixture = try Fixture()
        let url = fixture.root.appendingPathComponent("old-index.sqlite")
        do {
            let old = try DatabaseQueue(path: url.path)
            try SearchIndex.migrator.migrate(old, upTo: "v1")
            try old.write { db in
                try db.execute(sql: "INSERT INTO note (id, title, notebook, created, modified, pinned, tags) VALUES ('n1', 'Old title', 'Inbox', 0, 0, 0, '')")
                try db.execute(sql: "INSERT INTO search (title, text, tags, note_id, page_id) VALUES ('Old title', '', '', 'n1', NULL)")
            }
        }
        let index = try SearchIndex(url: url)
        #expect(try index.search(SearchQuery(text: "old")).map(\.title) == ["Old title"])
        let note = try fixture.note("Typed", keys: [])
        try fixture.library.setTypedText("pangolins\n", of: note.note.id)
        try index.refresh(from: fixture.library)
        #expect(try index.search(SearchQuery(text: "pangolins")).map(\.typedText) == [true])
    }
}
