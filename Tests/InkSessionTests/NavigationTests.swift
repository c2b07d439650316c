import InkCore
import InkSession
import Testing

@Suite("Focus navigation")
struct NavigationTests {
    @Test("entering a note shows navigation, which hides 3 s later")
    func hidesAfterEnter() throws {
        var t = SessionTester()
        t.enterStoredNote(at: 10)
        #expect(try t.note().isNavigationVisible)
        t.send(.tick(at: 12.999), [])
        t.send(.tick(at: 13), [.hideNavigation])
        #expect(try t.note().isNavigationVisible == false)
        t.send(.tick(at: 20), [])
    }

    @Test("a double tap in the top edge band reveals it; it hides 5 s later")
    func doubleTapReveals() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        t.send(.tap(x: 700, y: 40, count: 2, at: 10), [.showNavigation])
        t.send(.tick(at: 14.999), [])
        t.send(.tick(at: 15), [.hideNavigation])
    }

    @Test("the band is the top 120 px", arguments: [(0.0, true), (119.9, true), (120.0, false), (-1.0, false)])
    func band(y: Double, reveals: Bool) {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        t.send(.tap(x: 10, y: y, count: 2, at: 4), reveals ? [.showNavigation] : [])
    }

    @Test("single taps, in the band or not, do nothing")
    func singleTap() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        t.send(.tap(x: 10, y: 10, count: 1, at: 4), [])
        t.send(.tap(x: 10, y: 10, count: 1, at: 4.2), [])
        t.send(.tap(x: 10, y: 900, count: 1, at: 5), [])
        #expect(try t.note().isNavigationVisible == false)
    }

    @Test("a double tap outside the band does nothing")
    func doubleTapOutside() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        t.send(.tap(x: 10, y: 600, count: 2, at: 4), [])
        #expect(try t.note().deadlines.navigationHide == nil)
    }

    @Test("drawing hides it at once, whether shown on entering or revealed")
    func penDownHides() throws {
        var t = SessionTester()
        t.enterStoredNote()
        try t.draw(1, 1.5, down: [.hideNavigation])
        #expect(try t.note().deadlines.navigationHide == nil)
        t.send(.tap(x: 10, y: 10, count: 2, at: 2), [.showNavigation])
        try t.draw(2.5, 3, down: [.hideNavigation])
        #expect(try t.note().deadlines.navigationHide == nil)
    }

    @Test("pen input never counts as a tap")
    func penIsNotATap() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tick(at: 3), [.hideNavigation])
        try t.draw(4, 4.05, y: 10)
        try t.draw(4.1, 4.15, y: 10)
        #expect(try t.note().isNavigationVisible == false)
    }

    @Test("a double tap while visible only restarts the 5 s")
    func doubleTapWhileVisible() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.tap(x: 10, y: 10, count: 2, at: 1), [])
        t.send(.tick(at: 3), [])
        t.send(.tick(at: 5.999), [])
        t.send(.tick(at: 6), [.hideNavigation])
    }

    @Test("a tap while the pen is down is ignored")
    func tapDuringStroke() throws {
        var t = SessionTester()
        t.enterStoredNote()
        t.send(.penDown(InkPoint(x: 1, y: 300), at: 1), [.hideNavigation])
        t.send(.tap(x: 10, y: 10, count: 2, at: 1.5), [])
        #expect(try t.note().isNavigationVisible == false)
    }
}
