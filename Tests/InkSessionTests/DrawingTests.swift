import InkCore
import InkSession
import Testing

@Suite("Drawing")
struct DrawingTests {
    @Test("stroke start is ms since the page was added; point times are ms since pen down")
    func timeMapping() throws {
        var t = SessionTester()
        t.send(.enterNote(noteID, at: 0), [.showNavigation])
        t.send(.addPage(page1, at: 1), [])
        let tilt = Tilt(altitude: 1, azimuth: 0.5)
        t.send(.penDown(InkPoint(x: 10, y: 20, pressure: 0.25, time: 999, tilt: tilt), tool: .marker,
                        color: RGBA(red: 1, green: 2, blue: 3), width: 4, at: 1.5), [.hideNavigation])
        t.send(.penMove(InkPoint(x: 11, y: 21, pressure: 0.5), at: 1.75), [])
        t.send(.penMove(InkPoint(x: 12, y: 22, pressure: 0.125), at: 2), [])
        t.send(.penUp(at: 2), [])
        let expected = Stroke(id: StrokeID(1), tool: .marker, color: RGBA(red: 1, green: 2, blue: 3), width: 4,
                              startTime: 500, points: [
                                  InkPoint(x: 10, y: 20, pressure: 0.25, time: 0, tilt: tilt),
                                  InkPoint(x: 11, y: 21, pressure: 0.5, time: 250),
                                  InkPoint(x: 12, y: 22, pressure: 0.125, time: 500),
                              ])
        #expect(try t.note().pages[0].strokes == [expected])
    }

    @Test("on a stored page, ids continue after the highest and the clock resumes where the ink ended")
    func storedPage() throws {
        let old = Stroke(id: StrokeID(7), startTime: 1000,
                         points: [InkPoint(x: 0, y: 0), InkPoint(x: 1, y: 1, time: 500)])
        var t = SessionTester()
        t.enterStoredNote(at: 100, pages: [Page(id: page1, strokes: [old])])
        let stroke = try t.draw(100.5, 101, down: [.hideNavigation])
        #expect(stroke.id == StrokeID(8))
        #expect(stroke.startTime == 2000)
    }

    @Test("pen input before entering a note, or with no page, is ignored")
    func noPage() throws {
        var t = SessionTester()
        t.send(.penDown(InkPoint(x: 1, y: 1), at: 0), [])
        t.send(.penUp(at: 0.5), [])
        t.send(.erase([StrokeID(1)], at: 0.5), [])
        t.send(.undo(at: 0.5), [])
        #expect(t.state.note == nil)
        t.send(.enterNote(noteID, at: 1), [.showNavigation])
        t.send(.penDown(InkPoint(x: 1, y: 1), at: 1.5), [])
        t.send(.penMove(InkPoint(x: 1, y: 1), at: 1.75), [])
        t.send(.penUp(at: 2), [])
        let note = try t.note()
        #expect(note.strokesInProgress.isEmpty)
        #expect(note.hasUnsavedChanges == false)
        #expect(note.isNavigationVisible)
    }

    @Test("a move or up without a down is ignored")
    func strayMoveAndUp() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.penMove(InkPoint(x: 1, y: 1), at: 0.5), [])
        t.send(.penMove(InkPoint(x: 1, y: 1), at: 0.75), [])
        t.send(.penUp(at: 0.75), [])
        #expect(try t.note().pages[0].strokes.isEmpty)
        #expect(try t.note().deadlines.autosave == nil)
    }

    @Test("a down for a stroke already in progress is ignored: that stroke goes on")
    func downWhileDown() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 0.5), [.hideNavigation])
        t.send(.penDown(InkPoint(x: 2, y: 300), at: 1), [])
        t.send(.penMove(InkPoint(x: 3, y: 300), at: 1.5), [])
        t.send(.penUp(at: 2), [])
        #expect(try t.note().pages[0].strokes.map { $0.points.map(\.x) } == [[1, 3]])
        #expect(try t.note().deadlines.autosave == 4)
    }

    @Test("time going backwards is taken as the latest time seen")
    func clockNeverRunsBack() throws {
        var t = SessionTester()
        t.enterStoredNote(at: 10)
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 11), [.hideNavigation])
        t.send(.penMove(InkPoint(x: 2, y: 300), at: 5), [])
        t.send(.penUp(at: .nan), [])
        #expect(t.state.clock == 11)
        #expect(try t.note().pages[0].strokes[0].points.map(\.time) == [0, 0])
        #expect(try t.note().deadlines.autosave == 13)
    }

    @Test("a stroke goes to the page the pen went down on, even if the page changes meanwhile")
    func strokeKeepsItsPage() throws {
        var t = SessionTester()
        t.enterStoredNote(pages: [Page(id: page1), Page(id: page2)])
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 0.5), [.hideNavigation])
        t.send(.selectPage(page2, at: 0.75), [])
        t.send(.penUp(at: 1), [])
        #expect(t.strokeIDs(on: page1) == [1])
        #expect(t.strokeIDs(on: page2) == [])
        #expect(try t.note().currentPageID == page2)
    }

    @Test("adding a page makes it current; a duplicate page id or an unknown page is ignored")
    func pages() throws {
        var t = SessionTester()
        t.enterStoredNote()
        #expect(try t.note().currentPageID == page1)
        t.send(.addPage(page2, at: 1), [])
        #expect(try t.note().currentPageID == page2)
        t.send(.addPage(page1, at: 1.5), [])
        t.send(.selectPage(PageID(rawValue: "nope00000000"), at: 1.5), [])
        let note = try t.note()
        #expect(note.pages.map(\.id) == [page1, page2])
        #expect(note.currentPageID == page2)
    }

    @Test("entering while a note is open is ignored")
    func enterWhileOpen() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.enterNote(NoteID(rawValue: "n0te00000002"), at: 1), [])
        #expect(try t.note().id == noteID)
    }
}
