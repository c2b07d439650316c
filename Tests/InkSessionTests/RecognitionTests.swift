import InkCore
import InkSession
import Testing

@Suite("Recognition")
struct RecognitionTests {
    @Test("recognised hashtags add to the tags, except those removed by hand")
    func addsTags() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, pages: [Page(id: page1)], tags: tags("daily"), removedTags: tags("todo"), at: 0),
               [.showNavigation])
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(saveFinished(1, at: 3.5), [recognize(page1)])
        t.send(.recognitionFinished(page1, hashtags: Array(tags("todo", "work", "daily")), at: 4),
               [.updateTags(noteID, tags: tags("daily", "work"))])
        #expect(try t.note().tags == tags("daily", "work"))
    }

    @Test("nothing new, no effect")
    func nothingNew() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, pages: [Page(id: page1)], tags: tags("daily"), removedTags: tags("todo"), at: 0),
               [.showNavigation])
        t.send(.recognitionFinished(page1, hashtags: Array(tags("daily", "todo")), at: 1), [])
        t.send(.recognitionFinished(page1, hashtags: [], at: 1), [])
    }

    @Test("a result arriving mid-stroke leaves the stroke in progress and the pages untouched")
    func resultDuringStroke() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        t.send(saveFinished(1, at: 3), [recognize(page1)])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 4), [])
        t.send(.penMove(InkPoint(x: 2, y: 300), at: 4.25), [])
        let before = try t.note()
        t.send(.recognitionFinished(page1, hashtags: Array(tags("idea")), at: 4.5),
               [.updateTags(noteID, tags: tags("idea"))])
        t.send(.recognitionFailed(page1, reason: "model busy", at: 4.6),
               [.debugLog("recognition failed for page page00000001: model busy")])
        let after = try t.note()
        #expect(after.strokesInProgress == before.strokesInProgress)
        #expect(after.pages == before.pages)
        t.send(.penMove(InkPoint(x: 3, y: 300), at: 4.75), [])
        t.send(.penUp(at: 5), [])
        #expect(try t.note().pages[0].strokes.last?.points.map(\.x) == [1, 2, 3])
    }

    @Test("failures only write a debug log")
    func failure() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.recognitionFailed(page1, reason: "timeout", at: 1),
               [.debugLog("recognition failed for page page00000001: timeout")])
        #expect(try t.note().tags.isEmpty)
    }

    @Test("results for pages not in the note are ignored")
    func unknownPage() {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.recognitionFinished(page2, hashtags: Array(tags("idea")), at: 1), [])
    }
}
