import InkCore
import InkSession
import Testing

@Suite("Leaving")
struct LeavingTests {
    @Test("with nothing unsaved, leaves at once")
    func leaveClean() {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.leaveRequested(at: 1), [.leave])
        #expect(t.state.note == nil)
    }

    @Test("with a pending autosave, asks; 'stay' keeps editing and the autosave still fires")
    func stay() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.leaveRequested(at: 1.5), [.confirmLeave])
        #expect(try t.note().leaveStage == .awaitingAnswer)
        t.send(.leaveAnswered(.stay, at: 2), [])
        #expect(try t.note().leaveStage == .editing)
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
    }

    @Test("'discard' leaves at once, dropping the unsaved changes")
    func discard() throws {
        var t = SessionTester()
        t.enterStoredNote()
        try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.leaveRequested(at: 1.5), [.confirmLeave])
        t.send(.leaveAnswered(.discard, at: 2), [.leave])
        #expect(t.state.note == nil)
        t.send(.tick(at: 10), [])
    }

    @Test("'save and leave' saves at once and leaves when the save finishes")
    func saveAndLeave() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.leaveRequested(at: 1.25), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 1.5), [save(1, delta(added: [stroke]))])
        t.send(saveFinished(1, at: 1.75), [recognize(page1), .leave])
        #expect(t.state.note == nil)
    }

    @Test("'save and leave' during a save waits for it, then saves the rest, then leaves")
    func saveAndLeaveDuringSave() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        let second = try t.draw(3.25, 3.5)
        t.send(.leaveRequested(at: 3.75), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 4), [])
        t.send(saveFinished(1, at: 4.5), [recognize(page1), save(2, delta(added: [second]))])
        t.send(saveFinished(2, at: 5), [recognize(page1), .leave])
    }

    @Test("a failed 'save and leave' reports the error and stays, keeping every change")
    func saveAndLeaveFails() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.leaveRequested(at: 1.25), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 1.5), [save(1, delta(added: [stroke]))])
        t.send(saveFailed(1, at: 2), [.reportError("Couldn't save the note, so it stays open: disk full")])
        let note = try t.note()
        #expect(note.leaveStage == .editing)
        #expect(note.hasUnsavedChanges)
        #expect(note.pages[0].strokes == [stroke])
        t.send(.tick(at: 2.5), [save(2, delta(added: [stroke]))])
    }

    @Test("a save in flight counts as unsaved")
    func saveInFlightAsks() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(.leaveRequested(at: 3.5), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 4), [])
        t.send(saveFinished(1, at: 4.5), [recognize(page1), .leave])
    }

    @Test("a failed save counts as unsaved")
    func failedSaveAsks() throws {
        var t = SessionTester(config: SessionConfig(retryDelays: []))
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(saveFailed(1, at: 3.5), [gaveUp])
        t.send(.leaveRequested(at: 4), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 5), [save(2, delta(added: [stroke]))])
    }

    @Test("asking to leave mid-stroke finishes the stroke first")
    func leaveDuringStroke() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 1), [.hideNavigation])
        t.send(.leaveRequested(at: 1.5), [.confirmLeave])
        let note = try t.note()
        #expect(note.strokesInProgress.isEmpty)
        #expect(note.pages[0].strokes.count == 1)
    }

    @Test("while saving to leave, drawing and taps are ignored")
    func inputIgnoredWhileLeaving() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.leaveRequested(at: 1.25), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 1.5), [save(1, delta(added: [stroke]))])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 1.6), [])
        t.send(.tap(x: 1, y: 1, count: 2, at: 1.7), [])
        t.send(.leaveRequested(at: 1.8), [])
        #expect(try t.note().strokesInProgress.isEmpty)
        t.send(saveFinished(1, at: 2), [recognize(page1), .leave])
    }

    @Test("'save and leave' while waiting to retry saves at once, without waiting out the backoff")
    func saveAndLeaveDuringRetryWait() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(saveFailed(1, at: 3), [])
        t.send(.leaveRequested(at: 3.1), [.confirmLeave])
        t.send(.leaveAnswered(.saveAndLeave, at: 3.2), [save(2, delta(added: [stroke]))])
        #expect(try t.note().deadlines.retry == nil)
        t.send(saveFinished(2, at: 3.3), [recognize(page1), .leave])
    }

    @Test("'save and leave' after everything got saved meanwhile leaves at once")
    func savedWhileAsking() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(.leaveRequested(at: 3.1), [.confirmLeave])
        t.send(saveFinished(1, at: 3.2), [recognize(page1)])
        t.send(.leaveAnswered(.saveAndLeave, at: 3.3), [.leave])
    }

    @Test("after a discard, the outcome of the abandoned save and late recognition results are ignored")
    func discardWithSaveInFlight() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(.leaveRequested(at: 3.1), [.confirmLeave])
        t.send(.leaveAnswered(.discard, at: 3.2), [.leave])
        t.send(saveFinished(1, at: 3.3), [])
        t.send(.recognitionFinished(page1, hashtags: Array(tags("late")), at: 3.4), [])
        t.send(.enterNote(noteID, pages: [Page(id: page1, strokes: [stroke])], at: 4), [.showNavigation])
        let second = try t.draw(4.5, 5, down: [.hideNavigation])
        t.send(.tick(at: 7), [save(2, delta(added: [second]))])
    }

    @Test("answers with no question open are ignored")
    func strayAnswer() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.leaveAnswered(.discard, at: 1), [])
        #expect(t.state.note != nil)
    }
}
