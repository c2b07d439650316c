import InkCore
import InkSession
import Testing

let noteID = NoteID(rawValue: "n0te00000001")
let page1 = PageID(rawValue: "page00000001")
let page2 = PageID(rawValue: "page00000002")

/// Drives a session the way a Composable Architecture `TestStore` drives a reducer: every `send`
/// states the exact effects the event must produce.
struct SessionTester {
    private(set) var session: Session

    init(config: SessionConfig = SessionConfig()) {
        session = Session(config: config)
    }

    var state: SessionState { session.state }

    /// The open note; fails the test when none is open.
    func note(sourceLocation: SourceLocation = #_sourceLocation) throws -> OpenNote {
        try #require(session.state.note, sourceLocation: sourceLocation)
    }

    /// Sends `event` and expects exactly `expected`, in order, besides the ink changes: those are
    /// stated by ``InkChangeTests`` and checked against the pages after every random event.
    mutating func send(_ event: SessionEvent, _ expected: [SessionEffect],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let effects = session.send(event).filter { if case .inkChanged = $0 { false } else { true } }
        #expect(effects == expected, sourceLocation: sourceLocation)
    }

    /// Sends `event` and returns the ink changes it made.
    mutating func changes(_ event: SessionEvent) -> [InkChange] {
        session.send(event).compactMap { if case .inkChanged(let change) = $0 { change } else { nil } }
    }

    /// Opens the test note holding one stored, empty page (so nothing is unsaved) at `time`.
    mutating func enterStoredNote(at time: Double = 0, pages: [Page] = [Page(id: page1)],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        send(.enterNote(noteID, pages: pages, at: time), [.showNavigation], sourceLocation: sourceLocation)
    }

    /// Draws a two-point stroke with the test's pen on the current page, pen down at `start` and up at
    /// `end` (its last point moved to at `end`), expecting `down` and `up` effects; returns the stroke
    /// as added to its page.
    @discardableResult
    mutating func draw(_ start: Double, _ end: Double, y: Float = 300, down: [SessionEffect] = [],
                       up: [SessionEffect] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Stroke {
        let page = try #require(session.state.note?.currentPageID, sourceLocation: sourceLocation)
        send(.penDown(InkPoint(x: 100, y: y), page: page, at: start), down, sourceLocation: sourceLocation)
        send(.penMove(InkPoint(x: 140, y: y + 10), at: end), [], sourceLocation: sourceLocation)
        let effects = session.send(.penUp(at: end))
        #expect(effects.filter { if case .inkChanged = $0 { false } else { true } } == up, sourceLocation: sourceLocation)
        let drawn = effects.compactMap { if case .inkChanged(let change) = $0, change.key == penKey { change.added.first } else { nil } }
        return try #require(drawn.first, sourceLocation: sourceLocation).stroke
    }

    /// The ids of the strokes on `page`, in page order.
    func strokeIDs(on page: PageID = page1) -> [UInt64] {
        session.state.note?.pages.first { $0.id == page }?.strokes.map(\.id.rawValue) ?? []
    }
}

/// The key of the tests' one pen.
let penKey = "pen"

extension SessionEvent {
    /// The tests' pen touches `page`.
    static func penDown(_ point: InkPoint, page: PageID = page1, tool: Tool = .pen, color: RGBA = .black,
                        width: Float = 2, at: Double) -> SessionEvent {
        .strokeDown(key: penKey, page: page, point, tool: tool, color: color, width: width, at: at)
    }

    /// The tests' pen moves to `point`.
    static func penMove(_ point: InkPoint, at: Double) -> SessionEvent { .strokeMove(key: penKey, [point], at: at) }

    /// The tests' pen lifts.
    static func penUp(at: Double) -> SessionEvent { .strokeUp(key: penKey, at: at) }
}

/// A save effect for the test note.
func save(_ id: UInt64, _ pages: PageDelta...) -> SessionEffect {
    .save(SaveRequest(id: SaveRequestID(id), noteID: noteID, pages: pages))
}

/// A page delta for a page of default size and template.
func delta(_ page: PageID = page1, new: Bool = false, added: [Stroke] = [], removed: [UInt64] = []) -> PageDelta {
    PageDelta(pageID: page, size: .remarkable, template: PageTemplate(), isNew: new,
              addedStrokes: added, removedStrokeIDs: removed.map(StrokeID.init))
}

/// The error reported when a save's retries are used up.
let gaveUp = SessionEffect.reportError(
    "Couldn't save the note: disk full. Your changes are kept and will be saved after your next change.")

func recognize(_ pages: PageID...) -> SessionEffect {
    .recognize(noteID, pages: pages)
}

func saveFinished(_ id: UInt64, at time: Double) -> SessionEvent {
    .saveFinished(SaveRequestID(id), at: time)
}

func saveFailed(_ id: UInt64, at time: Double) -> SessionEvent {
    .saveFailed(SaveRequestID(id), reason: "disk full", at: time)
}

func tags(_ names: String...) -> Set<InkCore.Tag> {
    Set(names.compactMap(InkCore.Tag.init))
}
