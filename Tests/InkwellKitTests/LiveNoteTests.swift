import Foundation
@testable import InkwellKit
import Testing
import InkStore

/// The live note: the editor session on a real clock with its effects carried out against the
/// library, shared by several writers.
@Suite struct LiveNoteTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-live-\(UUID().uuidString)")
    let workspace: Workspace

    init() throws {
        workspace = Workspace(library: try Library.create(at: root))
    }

    func storedPages(_ id: NoteID) throws -> [Page] {
        try workspace.library.pages(of: workspace.library.note(matching: id.rawValue))
    }

    func write(_ live: LiveNote, key: String, from writer: String, page: PageID, x: Float) async {
        await live.pen(.down(key: key, page: page, InkPoint(x: x, y: 100, pressure: 0.3), tool: .pen, color: .black, width: 2), from: writer)
        await live.pen(.move(key: key, [InkPoint(x: x + 50, y: 120, pressure: 0.6)]), from: writer)
        await live.pen(.up(key: key), from: writer)
    }

    @Test func openingAnEmptyNoteGivesItAPageAndClosingSavesEverything() async throws {
        let note = try workspace.library.createNote(title: "Fresh").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await write(live, key: "a:1", from: "a", page: page, x: 10)
        #expect(try storedPages(note).isEmpty, "nothing is saved before the autosave or the close")
        await live.close()
        #expect(await live.isClosed)
        let pages = try storedPages(note)
        #expect(pages.map(\.id) == [page])
        #expect(pages.first?.strokes.first?.points.map(\.pressure).count == 2)
    }

    @Test func strokesOfTwoWritersAtOnceAreAllKept() async throws {
        let note = try workspace.library.createNote(title: "Shared").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        // A's stroke is in progress when B's begins and ends: B's waits, whole, and follows A's.
        await live.pen(.down(key: "a:1", page: page, InkPoint(x: 10, y: 10), tool: .pen, color: .black, width: 2), from: "a")
        await live.pen(.down(key: "b:1", page: page, InkPoint(x: 500, y: 10), tool: .marker, color: .black, width: 6), from: "b")
        await live.pen(.move(key: "b:1", [InkPoint(x: 520, y: 30)]), from: "b")
        await live.pen(.move(key: "a:1", [InkPoint(x: 30, y: 30)]), from: "a")
        await live.pen(.up(key: "b:1"), from: "b")
        await live.pen(.up(key: "a:1"), from: "a")
        let strokes = try #require(await live.pages.first?.strokes)
        #expect(strokes.map(\.tool) == [.pen, .marker])
        #expect(strokes.map { $0.points.map(\.x) } == [[10, 30], [500, 520]])
        #expect(await live.hasAccepted("a:1"))
        #expect(await live.hasAccepted("b:1"))
    }

    @Test func aWriterWhoGoesMidStrokeDoesNotHoldThePen() async throws {
        let note = try workspace.library.createNote(title: "Dropped").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await live.pen(.down(key: "a:1", page: page, InkPoint(x: 10, y: 10), tool: .pen, color: .black, width: 2), from: "a")
        await live.pen(.move(key: "a:1", [InkPoint(x: 30, y: 30)]), from: "a")
        await live.pen(.down(key: "b:1", page: page, InkPoint(x: 500, y: 10), tool: .pen, color: .black, width: 2), from: "b")
        await live.writerLeft("a")
        // A's stroke ends where it got to; B's, which waited, now has the pen and goes on live.
        await live.pen(.move(key: "b:1", [InkPoint(x: 520, y: 30)]), from: "b")
        await live.pen(.up(key: "b:1"), from: "b")
        #expect(await live.pages.first?.strokes.map { $0.points.map(\.x) } == [[10, 30], [500, 520]])
        await write(live, key: "b:2", from: "b", page: page, x: 700)
        #expect(await live.pages.first?.strokes.count == 3)
        await live.close()
        #expect(try storedPages(note).first?.strokes.count == 3)
    }

    @Test func closingInTheBackgroundStillSavesEverything() async throws {
        let note = try workspace.library.createNote(title: "Tab away").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await write(live, key: "a:1", from: "a", page: page, x: 10)
        await live.background(true)
        await live.close()
        #expect(await live.isClosed)
        #expect(try storedPages(note).first?.strokes.count == 1)
    }

    @Test func keysTakenByAnEarlierSessionAreNotDrawnAgain() async throws {
        let note = try workspace.library.createNote(title: "Again").note.id
        let first = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await first.pages.first?.id)
        await write(first, key: "a:1", from: "a", page: page, x: 10)
        await first.close()
        let second = try LiveNote(note, in: workspace, recognition: nil, acceptedKeys: await first.acceptedKeys)
        await write(second, key: "a:1", from: "a", page: page, x: 10)
        #expect(await second.pages.first?.strokes.count == 1)
    }

    @Test func aStrokeSentAgainIsNotDrawnTwice() async throws {
        let note = try workspace.library.createNote(title: "Reconnect").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await write(live, key: "a:1", from: "a", page: page, x: 10)
        await write(live, key: "a:1", from: "a-again", page: page, x: 10)
        #expect(await live.pages.first?.strokes.count == 1)
    }

    @Test func theAutosaveFiresByItselfAndObserversHearIt() async throws {
        let note = try workspace.library.createNote(title: "Timers").note.id
        let config = SessionConfig(autosaveDelay: 0.2, navigationHideAfterEnter: 0.1)
        let live = try LiveNote(note, in: workspace, config: config, recognition: nil)
        let heard = Heard()
        await live.observe { heard.add($0) }
        await live.start()
        let page = try #require(await live.pages.first?.id)
        await write(live, key: "a:1", from: "a", page: page, x: 10)
        for _ in 0..<100 where (try? storedPages(note).first?.strokes.count) != 1 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try storedPages(note).first?.strokes.count == 1)
        let updates = heard.all
        #expect(updates.contains(.navigation(visible: false)))
        #expect(updates.contains(.pageChanged(page, strokeKeys: ["a:1"])))
        #expect(updates.contains(.saving(.saving)))
        #expect(updates.last(where: { if case .saving = $0 { true } else { false } }) == .saving(.saved))
        await live.close()
    }

    @Test func aWholeStrokeEraserRemovesWhatItCrossesAndUndoBringsItBack() async throws {
        let note = try workspace.library.createNote(title: "Erase").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await write(live, key: "a:1", from: "a", page: page, x: 10)
        await write(live, key: "a:2", from: "a", page: page, x: 400)
        await live.erase(along: [InkPoint(x: 35, y: 0), InkPoint(x: 35, y: 300)], width: 10, on: page)
        #expect(await live.pages.first?.strokes.map { $0.points[0].x } == [400])
        await live.undo()
        #expect(await live.pages.first?.strokes.count == 2)
        await live.close()
        #expect(try storedPages(note).first?.strokes.count == 2)
    }
}

/// Updates collected from a live note's observer.
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [LiveUpdate] = []
    func add(_ update: LiveUpdate) { lock.withLock { updates.append(update) } }
    var all: [LiveUpdate] { lock.withLock { updates } }
}

extension LiveNoteTests {
    @Test func aRunawayStrokeIsCutAtItsLimitAndNothingElseSuffers() async throws {
        let note = try workspace.library.createNote(title: "Runaway").note.id
        let live = try LiveNote(note, in: workspace, recognition: nil)
        let page = try #require(await live.pages.first?.id)
        await live.pen(.down(key: "a:1", page: page, InkPoint(x: 0, y: 0), tool: .pen, color: .black, width: 2), from: "a")
        let batch = (0..<4096).map { InkPoint(x: Float($0 % 1000), y: 10) }
        for _ in 0..<30 { await live.pen(.move(key: "a:1", batch), from: "a") }
        await live.pen(.up(key: "a:1"), from: "a")
        #expect(await live.pages.first?.strokes.first?.points.count == LiveNote.maxPointsPerStroke)
        await write(live, key: "a:2", from: "a", page: page, x: 10)
        #expect(await live.pages.first?.strokes.count == 2)
        await live.close()
    }
}
