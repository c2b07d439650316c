import InkCore
import InkSession
import Testing

@Suite("Autosave")
struct AutosaveTests {
    @Test("saves exactly 2 s after the last change", arguments: [1.999, 2.0, 2.001])
    func boundary(offset: Double) throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(9.5, 10, down: [.hideNavigation])
        t.send(.tick(at: 10 + offset), offset < 2 ? [] : [save(1, delta(added: [stroke]))])
        #expect(try t.note().isSaving == (offset >= 2))
    }

    @Test("every change pushes the deadline back")
    func debounce() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(9.5, 10, down: [.hideNavigation])
        let second = try t.draw(11, 11.5)
        #expect(try t.note().deadlines.autosave == 13.5)
        t.send(.tick(at: 12), [])
        t.send(.tick(at: 13.499), [])
        t.send(.tick(at: 13.5), [save(1, delta(added: [first, second]))])
    }

    @Test("pen down and pen moves alone schedule nothing")
    func unfinishedStrokeSchedulesNothing() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 5), [.hideNavigation])
        t.send(.penMove(InkPoint(x: 2, y: 300), at: 6), [])
        #expect(try t.note().deadlines.autosave == nil)
        t.send(.tick(at: 20), [])
        t.send(.penUp(at: 21), [])
        #expect(try t.note().deadlines.autosave == 23)
    }

    @Test("a deadline that falls while the pen is down saves at pen up, with the new stroke")
    func deadlineDuringStroke() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.25, 0.5, down: [.hideNavigation])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 2), [])
        t.send(.tick(at: 2.5), [])
        t.send(.penMove(InkPoint(x: 2, y: 300), at: 3), [])
        let second = Stroke(id: StrokeID(2), startTime: 2000,
                            points: [InkPoint(x: 1, y: 300, time: 0), InkPoint(x: 2, y: 300, time: 1000)])
        t.send(.penUp(at: 4), [save(1, delta(added: [first, second]))])
        #expect(try t.note().pages[0].strokes == [first, second])
        #expect(try t.note().deadlines.autosave == nil)
    }

    @Test("a deadline due exactly at a pen down fires before the pen down")
    func deadlineAtPenDown() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 3), [save(1, delta(added: [stroke]))])
        #expect(try t.note().strokeInProgress != nil)
    }

    @Test("adding a page is a change: the new page is saved, empty")
    func addedPageIsSaved() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, at: 0), [.showNavigation])
        t.send(.addPage(page1, at: 1), [])
        t.send(.tick(at: 2.999), [])
        t.send(.tick(at: 3), [.hideNavigation, save(1, delta(new: true))])
    }

    @Test("nothing unsaved, nothing saved")
    func nothingUnsaved() throws {
        var t = SessionTester()
        t.enterStoredNote()
        try t.draw(1, 1.5, down: [.hideNavigation])
        t.send(.undo(at: 2), [])
        t.send(.tick(at: 4), [])
        #expect(try t.note().hasUnsavedChanges == false)

        let stroke = try t.draw(5, 5.5)
        t.send(.tick(at: 7.5), [save(1, delta(added: [stroke]))])
        t.send(saveFinished(1, at: 8), [recognize(page1)])
        t.send(.tick(at: 100), [])
    }

    @Test("changes during a save are saved, with only their delta, after it finishes")
    func changesDuringSave() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        let second = try t.draw(3.25, 3.5)
        t.send(.tick(at: 5.5), [])
        t.send(.tick(at: 6), [])
        #expect(try t.note().isSaving)
        t.send(saveFinished(1, at: 7), [recognize(page1), save(2, delta(added: [second]))])
        t.send(saveFinished(2, at: 8), [recognize(page1)])
        #expect(try t.note().hasUnsavedChanges == false)
    }

    @Test("a save that finishes before the next deadline leaves that deadline alone")
    func saveFinishesBeforeNextDeadline() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        let second = try t.draw(3.25, 3.5)
        t.send(saveFinished(1, at: 4), [recognize(page1)])
        t.send(.tick(at: 5.499), [])
        t.send(.tick(at: 5.5), [save(2, delta(added: [second]))])
    }

    @Test("outcomes of unknown save requests are ignored")
    func unknownRequest() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        t.send(saveFinished(7, at: 4), [])
        t.send(saveFailed(7, at: 4), [])
        #expect(try t.note().isSaving)
    }

    @Test("nextDeadline tells a real-time shell when to tick")
    func nextDeadline() throws {
        var t = SessionTester()
        #expect(t.state.nextDeadline == nil)
        t.enterStoredNote()
        #expect(t.state.nextDeadline == 3)
        try t.draw(1, 1.5, down: [.hideNavigation])
        #expect(t.state.nextDeadline == 3.5)
        t.send(.background(at: 2), [])
        #expect(t.state.nextDeadline == 32)
    }
}
