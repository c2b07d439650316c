import InkCore
import InkSession
import Testing

@Suite("Undo and redo")
struct UndoRedoTests {
    @Test("undo removes the last stroke; redo puts it back")
    func strokes() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.25, 0.5, down: [.hideNavigation])
        let second = try t.draw(0.75, 1)
        t.send(.undo(at: 1.25), [])
        #expect(t.strokeIDs() == [1])
        t.send(.undo(at: 1.5), [])
        #expect(t.strokeIDs() == [])
        #expect(try t.note().canUndo() == false)
        t.send(.undo(at: 1.75), [])
        t.send(.redo(at: 2), [])
        t.send(.redo(at: 2.25), [])
        #expect(try t.note().pages[0].strokes == [first, second])
        #expect(try t.note().canRedo() == false)
        t.send(.redo(at: 2.5), [])
    }

    @Test("an erasure of several strokes is one step, undone back into place")
    func erasure() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let strokes = try (1...4).map {
            try t.draw(Double($0), Double($0) + 0.5, down: $0 == 1 ? [.hideNavigation] : [])
        }
        t.send(.erase([StrokeID(3), StrokeID(1)], at: 5), [])
        #expect(t.strokeIDs() == [2, 4])
        t.send(.undo(at: 5.25), [])
        #expect(try t.note().pages[0].strokes == strokes)
        t.send(.redo(at: 5.5), [])
        #expect(t.strokeIDs() == [2, 4])
        t.send(.undo(at: 5.75), [])
        t.send(.undo(at: 6), [])
        #expect(t.strokeIDs() == [1, 2, 3])
    }

    @Test("a new change clears the redo stack")
    func newChangeClearsRedo() throws {
        var t = SessionTester()
        t.enterStoredNote()
        try t.draw(0.25, 0.5, down: [.hideNavigation])
        t.send(.undo(at: 0.75), [])
        #expect(try t.note().canRedo())
        try t.draw(1, 1.25)
        #expect(try t.note().canRedo() == false)
        t.send(.redo(at: 1.5), [])
        #expect(t.strokeIDs() == [2])
    }

    @Test("undo and redo are changes: they schedule a save of their effect")
    func undoIsSaved() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(saveFinished(1, at: 3), [recognize(page1)])
        t.send(.undo(at: 4), [])
        t.send(.tick(at: 6), [save(2, delta(removed: [1]))])
        t.send(saveFinished(2, at: 6), [recognize(page1)])
        t.send(.redo(at: 7), [])
        t.send(.tick(at: 9), [save(3, delta(added: [stroke]))])
    }

    @Test("history is per note: one history across its pages, gone after leaving")
    func perNote() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, at: 0), [.showNavigation])
        t.send(.addPage(page1, at: 0), [])
        try t.draw(0.25, 0.5, down: [.hideNavigation])
        t.send(.addPage(page2, at: 0.75), [])
        try t.draw(1, 1.25)
        t.send(.undo(at: 1.5), [])
        t.send(.undo(at: 1.75), [])
        #expect(t.strokeIDs(on: page1) == [])
        #expect(t.strokeIDs(on: page2) == [])
        t.send(.redo(at: 2), [])
        t.send(.leaveRequested(at: 2.25), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 2.5), [
            save(1, delta(page1, new: true, added: [try #require(t.note().pages[0].strokes.first)]),
                 delta(page2, new: true)),
        ])
        t.send(saveFinished(1, at: 3), [recognize(page1, page2), .leave])
        t.send(.enterNote(noteID, pages: [Page(id: page1), Page(id: page2)], at: 4), [.showNavigation])
        #expect(try t.note().canUndo() == false)
    }

    /// Draws a stroke of `writer` (their key `writer:n`) from `start` to `end`; returns its id.
    @discardableResult
    func write(_ t: inout SessionTester, _ writer: String, _ n: Int, at start: Double) -> UInt64 {
        let key = "\(writer):\(n)"
        _ = t.changes(.strokeDown(key: key, page: page1, InkPoint(x: Float(n), y: 300), writer: writer, at: start))
        _ = t.changes(.strokeMove(key: key, [InkPoint(x: Float(n) + 5, y: 310)], at: start + 0.1))
        let drawn = t.changes(.strokeUp(key: key, at: start + 0.2)).flatMap(\.added)
        return drawn.first?.stroke.id.rawValue ?? 0
    }

    @Test("each writer undoes and redoes their own strokes and erasures; the others' stay")
    func perWriter() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let a1 = write(&t, "a", 1, at: 1), b1 = write(&t, "b", 1, at: 1.25), a2 = write(&t, "a", 2, at: 1.5)
        let b2 = write(&t, "b", 2, at: 1.75)
        #expect(t.strokeIDs() == [a1, b1, a2, b2])
        // a's undo takes back a's latest stroke, under b's.
        #expect(t.changes(.undo(writer: "a", at: 2)).map(\.removed) == [[StrokeID(a2)]])
        #expect(t.strokeIDs() == [a1, b1, b2])
        // b erases a's first stroke: b's edit, which b's undo takes back (a's does not).
        t.send(.erase([StrokeID(a1)], writer: "b", at: 2.1), [])
        #expect(t.strokeIDs() == [b1, b2])
        t.send(.undo(writer: "a", at: 2.2), [])
        #expect(t.strokeIDs() == [b1, b2], "a has nothing of theirs left on the page to undo but the erased stroke, which is b's erasure's")
        t.send(.undo(writer: "b", at: 2.3), [])
        #expect(t.strokeIDs() == [a1, b1, b2], "b's erasure taken back, the stroke in its place")
        // a's redo does a's undone stroke again; b drawing meanwhile keeps it (only b's redo steps go).
        let b3 = write(&t, "b", 3, at: 2.4)
        t.send(.redo(writer: "a", at: 2.7), [])
        #expect(t.strokeIDs() == [a1, b1, a2, b2, b3], "in the order they were drawn")
        #expect(try t.note().canRedo(by: "b") == false && t.note().canUndo(by: "a") && t.note().canUndo() == false)
    }

    @Test("an undo whose stroke another writer erased takes back the writer's edit before it")
    func undoSkipsWhatIsGone() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let a1 = write(&t, "a", 1, at: 1), a2 = write(&t, "a", 2, at: 2)
        t.send(.erase([StrokeID(a2)], writer: "b", at: 3), [])
        t.send(.undo(writer: "a", at: 4), [])
        #expect(t.strokeIDs().isEmpty, "a2 was gone; a1 is taken back")
        t.send(.undo(writer: "b", at: 5), [])
        #expect(t.strokeIDs() == [a2], "b's erasure taken back: a2 comes back")
        t.send(.redo(writer: "a", at: 6), [])
        #expect(t.strokeIDs() == [a1, a2], "a's redo: a1 again, in its place (a page's strokes stay in the order drawn)")
    }
}
