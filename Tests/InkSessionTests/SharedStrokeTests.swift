import InkCore
import InkSession
import Testing

/// Strokes of several writers on one note (`strokeDown`/`strokeMove`/`strokeUp` by key): each its
/// own, none waiting for another, a pen that stays down ended after the stall timeout.
@Suite("Shared strokes")
struct SharedStrokeTests {
    func down(_ key: String, x: Float, at time: Double) -> SessionEvent {
        .strokeDown(key: key, page: page1, InkPoint(x: x, y: 300), at: time)
    }

    func move(_ key: String, x: Float, at time: Double) -> SessionEvent {
        .strokeMove(key: key, [InkPoint(x: x, y: 310)], at: time)
    }

    @Test("interleaved strokes of two writers are each kept whole, with their own times, in pen-up order")
    func interleaved() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(down("b:1", x: 500, at: 1.5), [])
        t.send(move("a:1", x: 20, at: 1.6), [])
        t.send(move("b:1", x: 510, at: 1.7), [])
        t.send(.strokeUp(key: "b:1", at: 1.8), [])
        #expect(try t.note().pages[0].strokes.map { $0.points.map(\.x) } == [[500, 510]])
        t.send(move("a:1", x: 30, at: 2), [])
        t.send(.strokeUp(key: "a:1", at: 2.2), [])
        let strokes = try t.note().pages[0].strokes
        #expect(strokes.map { $0.points.map(\.x) } == [[500, 510], [10, 20, 30]])
        #expect(strokes.map(\.id.rawValue) == [1, 2], "ids follow the order on the page")
        #expect(strokes[1].points.map(\.time) == [0, 600, 1000], "milliseconds since its own pen down")
        #expect(strokes[0].startTime == 1500 && strokes[1].startTime == 1000)
        #expect(try t.note().strokesInProgress.isEmpty)
    }

    @Test("undo and an erasure while another writer's pen is down are applied at once")
    func editsDoNotWait() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(.strokeUp(key: "a:1", at: 1.2), [])
        t.send(down("b:1", x: 500, at: 1.3), [])
        t.send(.undo(at: 1.4), [])
        #expect(try t.note().pages[0].strokes.isEmpty)
        t.send(.redo(at: 1.5), [])
        t.send(.erase([StrokeID(1)], at: 1.6), [])
        #expect(try t.note().pages[0].strokes.isEmpty)
        #expect(try t.note().strokesInProgress["b:1"] != nil, "the held stroke goes on")
    }

    @Test("a shared stroke in progress does not hold up the autosave")
    func autosaveDoesNotWait() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(.strokeUp(key: "a:1", at: 1.2), [])
        let drawn = try t.note().pages[0].strokes
        t.send(down("b:1", x: 500, at: 2), [])
        t.send(move("b:1", x: 520, at: 3), [])
        t.send(.tick(at: 3.2), [save(1, delta(added: drawn))])
    }

    @Test("a stroke with no move for 10 s is ended where it got to; each move restarts the 10 s",
          arguments: [9.999, 10.0])
    func stall(after: Double) throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(move("a:1", x: 20, at: 4), [])
        #expect(try t.note().deadlines.strokeStall == 14)
        #expect(t.state.nextDeadline == 14)
        t.send(.tick(at: 4 + after), [])
        let ended = after >= 10
        #expect(try t.note().strokesInProgress.isEmpty == ended)
        #expect(try t.note().pages[0].strokes.map { $0.points.map(\.x) } == (ended ? [[10, 20]] : []))
        #expect(try t.note().deadlines.strokeStall == (ended ? nil : 14))
        // A move after the deadline adds nothing: the timer fires first, whichever event comes.
        t.send(move("a:1", x: 30, at: 14.5), [])
        #expect(try t.note().pages[0].strokes.map { $0.points.map(\.x) } == [[10, 20]])
    }

    @Test("the stall deadline is the least recently moved stroke's")
    func stallOfSeveral() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(down("b:1", x: 500, at: 2), [])
        t.send(move("a:1", x: 20, at: 5), [])
        #expect(try t.note().deadlines.strokeStall == 12)
        t.send(.tick(at: 12), [])
        #expect(try t.note().strokesInProgress.keys.sorted() == ["a:1"])
        #expect(try t.note().deadlines.strokeStall == 15)
    }

    @Test("leaving ends every shared stroke, and they are saved")
    func leavingEndsThem() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(down("b:1", x: 500, at: 1.1), [])
        t.send(.leaveRequested(at: 1.5), [.confirmLeave])
        #expect(try t.note().pages[0].strokes.count == 2)
        #expect(try t.note().strokesInProgress.isEmpty)
    }

    @Test("a key already in progress, and strokes on pages the note does not have, are ignored")
    func ignored() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(down("a:1", x: 10, at: 1), [.hideNavigation])
        t.send(down("a:1", x: 99, at: 1.1), [])
        t.send(.strokeDown(key: "c:1", page: page2, InkPoint(x: 1, y: 1), at: 1.2), [])
        t.send(.strokeUp(key: "a:1", at: 1.3), [])
        #expect(try t.note().pages[0].strokes.map { $0.points.map(\.x) } == [[10]])
        #expect(try t.note().strokesInProgress.isEmpty)
    }
}

@Suite("Navigation wanted")
struct NavigationWantedTests {
    @Test("reaching for the navigation shows it for 5 s; using it restarts the 5 s")
    func wanted() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        t.send(.navigationWanted(at: 10), [.showNavigation])
        t.send(.navigationWanted(at: 14), [])
        t.send(.tick(at: 18.999), [])
        t.send(.tick(at: 19), [.hideNavigation])
    }

    @Test("it restarts the 5 s after entering too, and a pen down still hides it at once")
    func afterEntering() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.navigationWanted(at: 2), [])
        t.send(.tick(at: 3), [])
        t.send(.strokeDown(key: "a:1", page: page1, InkPoint(x: 1, y: 300), at: 4), [.hideNavigation])
        #expect(try t.note().deadlines.navigationHide == nil)
    }
}
