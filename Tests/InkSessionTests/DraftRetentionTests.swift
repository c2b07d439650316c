import InkCore
import InkSession
import Testing

@Suite("Draft retention")
struct DraftRetentionTests {
    @Test("back within 30 s: the session is exactly as it was", arguments: [1.0, 29.999])
    func restores(away: Double) throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        try t.draw(1.1, 1.25)
        t.send(.undo(at: 1.5), [])
        t.send(.tick(at: 3.5), [save(1, delta(added: [first]))])
        t.send(saveFinished(1, at: 3.5), [recognize(page1)])
        let before = try t.note()
        t.send(.background(at: 3.75), [])
        t.send(.tick(at: 3.75 + away), [])
        t.send(.foreground(at: 3.75 + away), [])
        #expect(try t.note() == before)
        #expect(t.state.background == nil)
    }

    @Test("no timer fires in the background; those that came due fire on return, earliest first")
    func timersWaitForReturn() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tap(x: 1, y: 1, count: 2, at: 0.25), [])
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tap(x: 1, y: 1, count: 2, at: 1.5), [.showNavigation])
        t.send(.background(at: 2), [])
        t.send(.tick(at: 10), [])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 11), [])
        t.send(.foreground(at: 12), [save(1, delta(added: [stroke])), .hideNavigation])
    }

    @Test("at 30 s, by tick, the draft is finalised: changes saved, history cleared")
    func finalizesOnTick() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.background(at: 1.5), [])
        t.send(.tick(at: 31.499), [])
        t.send(.tick(at: 31.5), [save(1, delta(added: [stroke])), .finalizeDraft(noteID)])
        #expect(try t.note().canUndo() == false)
        #expect(t.state.background?.isDraftFinalized == true)
        t.send(saveFinished(1, at: 32), [recognize(page1)])
        t.send(.foreground(at: 40), [.showNavigation])
        t.send(.tick(at: 43), [.hideNavigation])
    }

    @Test("coming back at 30 s or later finalises first, then re-enters the note clean")
    func finalizesOnForeground() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.background(at: 1.5), [])
        t.send(.foreground(at: 31.5), [save(1, delta(added: [stroke])), .finalizeDraft(noteID), .showNavigation])
    }

    @Test("a stroke left in progress is finished and saved; with nothing else unsaved only the draft is finalised")
    func finalizesStrokeInProgress() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.background(at: 1), [])
        t.send(.tick(at: 31), [.finalizeDraft(noteID)])

        var u = SessionTester()
        u.enterStoredNote()
        u.send(.penDown(InkPoint(x: 1, y: 300), at: 0.5), [.hideNavigation])
        u.send(.background(at: 1), [])
        let stroke = Stroke(id: StrokeID(1), startTime: 500, points: [InkPoint(x: 1, y: 300)])
        u.send(.tick(at: 31), [save(1, delta(added: [stroke])), .finalizeDraft(noteID)])
        #expect(try u.note().strokesInProgress.isEmpty)
    }

    @Test("with a save in flight, the rest is saved as soon as it finishes")
    func finalizesDuringSave() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        let second = try t.draw(3.25, 3.5)
        t.send(.background(at: 4), [])
        t.send(.tick(at: 34), [.finalizeDraft(noteID)])
        t.send(saveFinished(1, at: 35), [recognize(page1), save(2, delta(added: [second]))])
    }

    @Test("pen input and taps are ignored in the background")
    func inputIgnored() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        let before = try t.note()
        t.send(.background(at: 4), [])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 5), [])
        t.send(.penUp(at: 5.5), [])
        t.send(.tap(x: 1, y: 1, count: 2, at: 6), [])
        t.send(.addPage(page2, at: 6), [])
        t.send(.leaveRequested(at: 7), [])
        t.send(.foreground(at: 8), [])
        #expect(try t.note() == before)
    }
}
