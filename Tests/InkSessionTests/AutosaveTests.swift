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
        t.send(.tick(at: 15.9), [])
        t.send(.penMove(InkPoint(x: 3, y: 300), at: 15.9), [])
        t.send(.tick(at: 25.8), [])
        #expect(try t.note().deadlines.autosave == nil)
        t.send(.penUp(at: 25.8), [])
        #expect(try t.note().deadlines.autosave == 27.8)
    }

    @Test("a deadline that falls while a pen is down saves what is drawn; the stroke waits for its pen up")
    func deadlineDuringStroke() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.25, 0.5, down: [.hideNavigation])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 2), [])
        t.send(.tick(at: 2.5), [save(1, delta(added: [first]))])
        t.send(saveFinished(1, at: 2.6), [recognize(page1)])
        t.send(.penMove(InkPoint(x: 2, y: 300), at: 3), [])
        let second = Stroke(id: StrokeID(2), startTime: 2000,
                            points: [InkPoint(x: 1, y: 300, time: 0), InkPoint(x: 2, y: 300, time: 1000)])
        t.send(.penUp(at: 4), [])
        #expect(try t.note().pages[0].strokes == [first, second])
        #expect(try t.note().deadlines.autosave == 6)
        t.send(.tick(at: 6), [save(2, delta(added: [second]))])
    }

    @Test("a deadline due exactly at a pen down fires before the pen down")
    func deadlineAtPenDown() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 3), [save(1, delta(added: [stroke]))])
        #expect(try t.note().strokesInProgress[penKey] != nil)
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

    /// Writing that never pauses 2 s: 17 strokes, one every 0.6 s from 0.5 s, each 0.2 s long (the
    /// first change at 0.7 s, the last at 10.3 s).
    func writeSteadily(_ t: inout SessionTester) throws -> [Stroke] {
        try (0..<17).map { k in
            let start = 0.5 + 0.6 * Double(k)
            return try t.draw(start, start + 0.2, down: k == 0 ? [.hideNavigation] : [])
        }
    }

    @Test("steady writing that never pauses 2 s is saved 10 s after its first change, and again 10 s later")
    func ceilingUnderSteadyWriting() throws {
        var t = SessionTester()
        t.enterStoredNote()
        // A stroke every 0.6 s, 0.2 s long: the 2 s debounce alone would never save.
        let strokes = try writeSteadily(&t)
        #expect(try t.note().deadlines.autosave == 10.7)  // first change at 0.7, ceiling 10 s
        // The ceiling falls at the next pen down (10.7): the save holds the 17 strokes drawn so far.
        t.send(.penDown(InkPoint(x: 100, y: 300), at: 10.7), [save(1, delta(added: strokes))])
        t.send(.penMove(InkPoint(x: 140, y: 310), at: 10.9), [])
        t.send(.penUp(at: 10.9), [])
        // Writing goes on: recognition waits for the pause, so a half-written word is never read.
        t.send(saveFinished(1, at: 11), [])
        // The next save's ceiling counts from the first change not in that save (10.9).
        #expect(try t.note().deadlines.autosave == 12.9)
        for k in 0..<16 {
            let start = 11.3 + 0.6 * Double(k)
            try t.draw(start, start + 0.2)
        }
        #expect(try t.note().deadlines.autosave == 20.9)
        t.send(.tick(at: 20.899), [])
        t.send(.tick(at: 20.9), [save(2, delta(added: try t.note().pages[0].strokes.filter { $0.id.rawValue > 17 }))])
        // The writer stops (last change 20.5): the page is recognised once, at the pause (22.5).
        t.send(saveFinished(2, at: 21), [])
        #expect(try t.note().deadlines.autosave == 22.5)
        t.send(.tick(at: 22.499), [])
        t.send(.tick(at: 22.5), [recognize(page1)])
        t.send(.tick(at: 30), [])
    }

    @Test("after a ceiling save, the next quiet save recognises its pages and the deferred ones; leaving recognises what waits")
    func deferredRecognitionJoinsTheQuietSave() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let strokes = try writeSteadily(&t)
        t.send(.penDown(InkPoint(x: 100, y: 300), at: 10.7), [save(1, delta(added: strokes))])
        t.send(.penMove(InkPoint(x: 140, y: 310), at: 10.9), [])
        t.send(.penUp(at: 10.9), [])
        t.send(saveFinished(1, at: 11), [])
        // A pause after the stroke drawn during the save: the quiet save at 12.9 holds it.
        t.send(.tick(at: 12.9), [save(2, delta(added: [try t.note().pages[0].strokes.last!]))])
        t.send(saveFinished(2, at: 13), [recognize(page1)])

        var u = SessionTester()
        u.enterStoredNote()
        let more = try writeSteadily(&u)
        u.send(.tick(at: 10.7), [save(1, delta(added: more))])
        u.send(saveFinished(1, at: 10.8), [])
        // Leaving before the pause ends: nothing is unsaved, the waiting page is recognised, then the note closes.
        u.send(.leaveRequested(at: 11), [recognize(page1), .leave])
    }

    @Test("a quiet pause still saves 2 s after the last change, well before the ceiling")
    func debounceBeforeCeiling() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        let second = try t.draw(1.5, 2)
        #expect(try t.note().deadlines.autosave == 4)
        t.send(.tick(at: 4), [save(1, delta(added: [first, second]))])
    }

    @Test("the ceiling applies to erasures and undo too: changes every second save by 10 s after the first")
    func ceilingCountsEveryChange() throws {
        var t = SessionTester()
        t.enterStoredNote()
        try t.draw(0.5, 1, down: [.hideNavigation])
        for k in 0..<9 {
            t.send(k % 2 == 0 ? .undo(at: 2 + Double(k)) : .redo(at: 2 + Double(k)), [])
        }
        // Last change at 10 (an undo): the debounce says 12, the ceiling 11.
        #expect(try t.note().deadlines.autosave == 11)
        t.send(.tick(at: 11), [])  // the stroke was undone last: nothing to store
        #expect(try t.note().hasUnsavedChanges == false)
    }
}
