import InkCore
import InkSession
import Testing

@Suite("Save deltas")
struct SaveDeltaTests {
    @Test("a new page is saved as new once; later saves hold only what changed since")
    func newPageThenDeltas() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, at: 0), [.showNavigation])
        t.send(.addPage(page1, template: PageTemplate(kind: .lined), at: 0), [])
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        let lined = PageDelta(pageID: page1, size: .remarkable, template: PageTemplate(kind: .lined), isNew: true,
                              addedStrokes: [first], removedStrokeIDs: [])
        t.send(.tick(at: 3), [.save(SaveRequest(id: SaveRequestID(1), noteID: noteID, pages: [lined]))])
        t.send(saveFinished(1, at: 3), [recognize(page1)])
        let second = try t.draw(4, 4.5)
        let update = PageDelta(pageID: page1, size: .remarkable, template: PageTemplate(kind: .lined), isNew: false,
                               addedStrokes: [second], removedStrokeIDs: [])
        t.send(.tick(at: 6.5), [.save(SaveRequest(id: SaveRequestID(2), noteID: noteID, pages: [update]))])
    }

    @Test("erasing a stored stroke removes it; a stroke drawn and erased between saves never shows")
    func erasures() throws {
        let stored = Stroke(id: StrokeID(4), points: [InkPoint(x: 1, y: 1)])
        var t = SessionTester()
        t.enterStoredNote(pages: [Page(id: page1, strokes: [stored])])
        let drawn = try t.draw(0.5, 1, down: [.hideNavigation])
        #expect(drawn.id == StrokeID(5))
        t.send(.erase([stored.id, drawn.id, StrokeID(99)], at: 1.5), [])
        t.send(.tick(at: 3.5), [save(1, delta(removed: [4]))])
    }

    @Test("undoing an erasure of a stored stroke before saving leaves nothing to save")
    func undoneErasure() throws {
        let stored = Stroke(id: StrokeID(1), points: [InkPoint(x: 1, y: 1)])
        var t = SessionTester()
        t.enterStoredNote(pages: [Page(id: page1, strokes: [stored])])
        t.send(.erase([stored.id], at: 1), [])
        t.send(.undo(at: 1.5), [])
        t.send(.tick(at: 10), [.hideNavigation])
        #expect(try t.note().hasUnsavedChanges == false)
    }

    @Test("erasing, during its save, a stroke that save adds: the next save removes it")
    func eraseWhatIsBeingSaved() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(.erase([stroke.id], at: 3.5), [])
        t.send(saveFinished(1, at: 4), [recognize(page1)])
        t.send(.tick(at: 5.5), [save(2, delta(removed: [1]))])
    }

    @Test("erasing, during its save, a stroke that save adds, and the save fails: nothing is left")
    func eraseWhatIsBeingSavedAndFails() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(.erase([stroke.id], at: 3.5), [])
        t.send(saveFailed(1, at: 4), [])
        t.send(.tick(at: 4.5), [])
        #expect(try t.note().hasUnsavedChanges == false)
    }

    @Test("only changed pages are saved, in page order")
    func changedPagesOnly() throws {
        let page3 = PageID(rawValue: "page00000003")
        var t = SessionTester()
        t.enterStoredNote(pages: [Page(id: page1), Page(id: page2), Page(id: page3)])
        t.send(.selectPage(page3, at: 0.25), [])
        let onThree = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.selectPage(page1, at: 1.25), [])
        let onOne = try t.draw(1.5, 2)
        t.send(.tick(at: 4), [save(1, delta(page1, added: [onOne]), delta(page3, added: [onThree]))])
        t.send(saveFinished(1, at: 4), [recognize(page1, page3)])
    }

    @Test("a stroke id is never reused in a session, even after erasing the newest stroke")
    func idsNotReused() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.erase([first.id], at: 1.5), [])
        let second = try t.draw(2, 2.5)
        #expect(second.id == StrokeID(2))
    }
}
