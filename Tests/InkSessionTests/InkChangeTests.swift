import InkCore
import InkSession
import Testing

/// The one account of each change of ink (``SessionEffect/inkChanged(_:)``): what the live note
/// journals and the browsers apply, with no comparison of pages.
@Suite("Ink changes")
struct InkChangeTests {
    func change(_ page: PageID = page1, new: Bool = false, added: [(Int, Stroke)] = [], removed: [UInt64] = [],
                key: String? = nil) -> InkChange {
        InkChange(page: page, size: .remarkable, template: PageTemplate(), isNewPage: new,
                  added: added.map { PlacedStroke(index: $0.0, stroke: $0.1) }, removed: removed.map(StrokeID.init), key: key)
    }

    @Test("a pen up, a shared stroke's pen up, an erasure, undo and redo each say what they changed, where")
    func eachEdit() throws {
        var t = SessionTester()
        t.enterStoredNote()
        _ = t.changes(.penDown(InkPoint(x: 10, y: 300), at: 1))
        #expect(t.changes(.penMove(InkPoint(x: 20, y: 300), at: 1.5)) == [])
        let first = t.changes(.penUp(at: 1.5))
        let drawn = try t.note().pages[0].strokes
        #expect(first == [change(added: [(0, drawn[0])], key: penKey)])
        _ = t.changes(.strokeDown(key: "a:1", page: page1, InkPoint(x: 50, y: 300), at: 2))
        #expect(t.changes(.strokeMove(key: "a:1", [InkPoint(x: 60, y: 300)], at: 2.1)) == [], "a stroke in progress is no change")
        let shared = t.changes(.strokeUp(key: "a:1", at: 2.2))
        let both = try t.note().pages[0].strokes
        #expect(shared == [change(added: [(1, both[1])], key: "a:1")])
        #expect(t.changes(.erase([StrokeID(1)], at: 3)) == [change(removed: [1])])
        #expect(t.changes(.undo(at: 3.5)) == [change(added: [(0, both[0])])], "back in its place")
        #expect(t.changes(.undo(at: 4)) == [change(removed: [2])])
        #expect(t.changes(.redo(at: 4.5)) == [change(added: [(1, both[1])])], "a redo names no writer's key")
        #expect(t.changes(.addPage(page2, at: 5)) == [change(page2, new: true)])
    }

    @Test("strokes ended together (leaving) are each their own change, with their keys")
    func endedTogether() throws {
        var t = SessionTester()
        t.enterStoredNote()
        _ = t.changes(.strokeDown(key: "a:1", page: page1, InkPoint(x: 10, y: 300), at: 1))
        _ = t.changes(.strokeDown(key: "b:1", page: page1, InkPoint(x: 500, y: 300), at: 1.1))
        let ended = t.changes(.leaveRequested(at: 2))
        let strokes = try t.note().pages[0].strokes
        #expect(ended == [change(added: [(0, strokes[0])], key: "a:1"), change(added: [(1, strokes[1])], key: "b:1")])
    }

    @Test("events that change no ink emit no change")
    func noChange() throws {
        var t = SessionTester()
        t.enterStoredNote()
        #expect(t.changes(.erase([StrokeID(7)], at: 1)) == [])
        #expect(t.changes(.undo(at: 1.5)) == [])
        #expect(t.changes(.tap(x: 10, y: 10, count: 2, at: 2)) == [])
        #expect(t.changes(.addPage(page1, at: 3)) == [], "a page the note has is not added again")
    }

    @Test("a change applied to a page puts removed strokes out and added ones at their places")
    func applying() {
        let strokes = (1...4).map { Stroke(id: StrokeID($0), points: [InkPoint(x: Float($0), y: 0)]) }
        var page = Page(id: page1, strokes: strokes)
        page.apply(change(removed: [1, 3]))
        #expect(page.strokes.map(\.id.rawValue) == [2, 4])
        page.apply(change(added: [(0, strokes[0]), (2, strokes[2])]))
        #expect(page.strokes == strokes)
    }
}
