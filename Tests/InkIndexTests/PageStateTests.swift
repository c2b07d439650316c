import Foundation
import GRDB
import InkCore
import InkStore
import Testing
@testable import InkIndex

@Suite("Page recognition status and routing after recognition")
struct PageStateTests {
    let texts: [Float: String] = [
        1: "Weekly planning\nbudget review #work",
        2: "Groceries: apples bread",
        3: "Quarter plan #work #q3",
    ]

    func states(_ fixture: Fixture, _ note: StoredNote) throws -> [PageState] {
        let current = try fixture.library.note(matching: note.note.id.rawValue)
        let states = try fixture.index.pageStates(of: [current], in: fixture.library)
        return current.note.pages.map { states[$0]! }
    }

    @Test("pages are pending, then recognised; a page changed since reads pending again", arguments: IndexKind.allCases)
    func pendingToRecognized(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Planning", keys: [1, 2])
        #expect(try states(fixture, note).map(\.status) == [.pending, .pending])
        _ = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        #expect(try states(fixture, note) == [PageState(status: .recognized), PageState(status: .recognized)])
        let extra = Stroke(id: StrokeID(9), points: [InkPoint(x: 500, y: 500)])
        try fixture.library.save([PageDelta(pageID: note.note.pages[1], isNew: false, addedStrokes: [extra])], to: note.note.id)
        #expect(try states(fixture, note).map(\.status) == [.recognized, .pending])
    }

    @Test("a page that cannot be recognised is failed with the reason; a damaged page file too", arguments: IndexKind.allCases)
    func failedWithReason(_ kind: IndexKind) throws {
        let fixture = try Fixture(kind)
        let note = try fixture.note("Planning", keys: [1, 2, 3])
        // Damage the third page: flip a byte inside its stroke chunk (the CRC no longer matches).
        let damaged = fixture.library.pageURL(note.note.pages[2], in: note.folder)
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 6] ^= 0xFF
        try bytes.write(to: damaged)

        let report = try fixture.indexer(ScriptedRecognizer(texts: texts, failing: [2])).run()
        #expect(report.recognized == 1 && report.failed.count == 2)
        let states = try states(fixture, note)
        #expect(states[0].status == .recognized)
        #expect(states[1] == PageState(status: .failed, reason: "unreadable page"))
        #expect(states[2].status == .failed)
        #expect(states[2].reason?.contains(damaged.lastPathComponent) == true)
        #expect(states[2].reason?.contains("damaged") == true)
        #expect(try fixture.counts() == [.pending: 0, .processing: 0, .recognized: 1, .failed: 2])
    }

    @Test("a page left processing by a killed run reads pending and the next run recognises it; a live claim reads processing")
    func staleProcessing() throws {
        let fixture = try Fixture()
        let note = try fixture.note("Planning", keys: [1, 2])
        _ = try fixture.indexer(ScriptedRecognizer(texts: [:])).run()
        let dead = try deadProcessID()
        let host = ProcessInfo.processInfo.hostName
        let index = try #require(fixture.index as? SearchIndex)
        try index.database.write { db in
            try db.execute(sql: "UPDATE page SET status = 'processing', worker = ?, started_at = ? WHERE id = ?",
                           arguments: ["\(host):\(dead)", Date().timeIntervalSince1970, note.note.pages[0].rawValue])
            // This process is alive: its claim holds.
            try db.execute(sql: "UPDATE page SET status = 'processing', worker = ?, started_at = ? WHERE id = ?",
                           arguments: ["\(host):\(getpid())", Date().timeIntervalSince1970, note.note.pages[1].rawValue])
        }
        #expect(try states(fixture, note).map(\.status) == [.pending, .processing])

        // A live claim older than the lease no longer holds either.
        try index.database.write { db in
            try db.execute(sql: "UPDATE page SET started_at = ? WHERE id = ?",
                           arguments: [Date().timeIntervalSince1970 - Worker.lease - 1, note.note.pages[1].rawValue])
        }
        #expect(try states(fixture, note).map(\.status) == [.pending, .pending])

        let recognizer = ScriptedRecognizer(texts: texts)
        let report = try fixture.indexer(recognizer).run()
        #expect(report.recognized == 2 && recognizer.calls == 2)
        #expect(try states(fixture, note).map(\.status) == [.recognized, .recognized])
    }

    @Test("recognised hashtags file the note out of the Inbox; a note filed by hand stays; a rule added later waits for `route run`")
    func routingAfterRecognition() throws {
        let fixture = try Fixture()
        let library = fixture.library
        try library.addRouteRule(try RouteRule(pattern: "#work #q3", notebook: try NotebookPath("Work/Q3")))
        try library.addRouteRule(try RouteRule(pattern: "#work", notebook: try NotebookPath("Work/Meetings")))
        let inbox = try fixture.note("Planning", keys: [1])
        let quarter = try fixture.note("Quarter", keys: [3])
        let byHand = try fixture.note("Filed", in: "Personal", keys: [1])
        let groceries = try fixture.note("Groceries", keys: [2])

        let report = try fixture.indexer(ScriptedRecognizer(texts: texts)).run()
        #expect(Set(report.routed.map(\.id)) == [inbox.note.id, quarter.note.id])
        #expect(try library.note(matching: inbox.note.id.rawValue).notebook == (try NotebookPath("Work/Meetings")))
        #expect(try library.note(matching: quarter.note.id.rawValue).notebook == (try NotebookPath("Work/Q3")))
        let filed = try library.note(matching: byHand.note.id.rawValue)
        #expect(filed.notebook == (try NotebookPath("Personal")) && filed.note.tags.contains(InkCore.Tag("work")!))
        #expect(try library.note(matching: groceries.note.id.rawValue).notebook == .inbox)
        // The index follows the move: a search within the notebook finds the note.
        #expect(try fixture.index.search(SearchQuery(text: "budget", notebook: try NotebookPath("Work"))).map(\.title) == ["Planning"])

        // Tags changed by hand are not recognition: routing waits for `route run` (applyRoutes).
        try library.updateNote(groceries.note.id) { $0.tags.insert(InkCore.Tag("work")!) }
        #expect(try fixture.indexer(ScriptedRecognizer(texts: texts)).run().routed.isEmpty)
        #expect(try library.applyRoutes().map(\.id) == [groceries.note.id])
    }
}
