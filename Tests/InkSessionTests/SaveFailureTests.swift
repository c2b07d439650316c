import InkCore
import InkSession
import Testing

@Suite("Save failures")
struct SaveFailureTests {
    @Test("retries after 0.5, 1, 2, 4 and 8 s, then reports the error")
    func backoff() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let stroke = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [stroke]))])
        var now = 3.0
        for (attempt, wait) in [0.5, 1, 2, 4, 8].enumerated() {
            let request = UInt64(attempt + 1)
            t.send(saveFailed(request, at: now), [])
            #expect(try t.note().deadlines.retry == now + wait)
            t.send(.tick(at: now + wait - 0.001), [])
            now += wait
            t.send(.tick(at: now), [save(request + 1, delta(added: [stroke]))])
        }
        t.send(saveFailed(6, at: now), [gaveUp])
        let note = try t.note()
        #expect(note.deadlines.retry == nil)
        #expect(note.deadlines.autosave == nil)
        #expect(note.hasUnsavedChanges)
        #expect(note.pages[0].strokes == [stroke])
        t.send(.tick(at: now + 100), [])
    }

    @Test("after giving up, the next change schedules saving as usual, with everything")
    func nextChangeSavesAgain() throws {
        var t = SessionTester(config: SessionConfig(retryDelays: [0.5]))
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        t.send(saveFailed(1, at: 3), [])
        t.send(.tick(at: 3.5), [save(2, delta(added: [first]))])
        t.send(saveFailed(2, at: 3.5), [gaveUp])
        let second = try t.draw(10, 10.5)
        t.send(.tick(at: 12.5), [save(3, delta(added: [first, second]))])
        t.send(saveFailed(3, at: 13), [])
        #expect(try t.note().deadlines.retry == 13.5)
    }

    @Test("changes made while waiting to retry go into the retry")
    func changesJoinTheRetry() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        t.send(saveFailed(1, at: 3), [])
        let second = try t.draw(3.1, 3.2)
        t.send(.erase([first.id], at: 3.3), [])
        t.send(.tick(at: 3.5), [save(2, delta(added: [second]))])
    }

    @Test("a retry does not wait for a pen: it holds what is drawn, the stroke in progress comes later")
    func retryDoesNotWaitForAPen() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        t.send(saveFailed(1, at: 3), [])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 3.25), [])
        t.send(.tick(at: 3.5), [save(2, delta(added: [first]))])
        t.send(saveFinished(2, at: 3.6), [recognize(page1)])
        let second = Stroke(id: StrokeID(2), startTime: 3250, points: [InkPoint(x: 1, y: 300, time: 0)])
        t.send(.penUp(at: 4.5), [])
        t.send(.tick(at: 6.5), [save(3, delta(added: [second]))])
    }

    @Test("the failure streak resets after a success")
    func streakResets() throws {
        var t = SessionTester()
        t.enterStoredNote()
        let first = try t.draw(0.5, 1, down: [.hideNavigation])
        t.send(.tick(at: 3), [save(1, delta(added: [first]))])
        t.send(saveFailed(1, at: 3), [])
        t.send(.tick(at: 3.5), [save(2, delta(added: [first]))])
        t.send(saveFinished(2, at: 4), [recognize(page1)])
        let second = try t.draw(5, 5.5)
        t.send(.tick(at: 7.5), [save(3, delta(added: [second]))])
        t.send(saveFailed(3, at: 8), [])
        #expect(try t.note().deadlines.retry == 8.5)
    }
}
