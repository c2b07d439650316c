import Foundation
import InkCore
import InkInterchange
import InkwellKit
import Testing

/// A recording replayed through the session draws its strokes as the recording's pen did.
@Suite("Note replayer")
struct NoteReplayerTests {
    func point(_ x: Float) -> RecordedPoint { RecordedPoint(x: x, y: 300, pressure: 0.5) }

    func replay(_ events: [RecordedEvent]) throws -> [Stroke] {
        var note = ScratchNote(title: "Replay", created: Date())
        try NoteReplayer().replay(RecordedNote(title: "Replay", events: events), into: &note)
        return try #require(try note.pages().first).strokes
    }

    @Test("a pen up the recording missed ends the stroke where the next pen down begins another")
    func missedPenUp() throws {
        let strokes = try replay([
            .penDown(point(1), pen: RecordedPen(), at: 0), .penMove(point(2), at: 0.1),
            .penDown(point(10), pen: RecordedPen(), at: 0.5), .penMove(point(11), at: 0.6), .penUp(point(12), at: 0.7),
        ])
        #expect(strokes.map { $0.points.map(\.x) } == [[1, 2], [10, 11, 12]])
    }

    @Test("a recorded pen held still for a minute draws one stroke: a recording's pen is never taken as gone")
    func penHeldStill() throws {
        let strokes = try replay([
            .penDown(point(1), pen: RecordedPen(), at: 0), .penMove(point(2), at: 60), .penUp(nil, at: 61),
        ])
        #expect(strokes.map { $0.points.map(\.x) } == [[1, 2]])
        #expect(strokes.map { $0.points.map(\.time) } == [[0, 60_000]])
    }

    @Test("a recording that ends with the pen down keeps its last stroke")
    func endsWithThePenDown() throws {
        let strokes = try replay([.penDown(point(1), pen: RecordedPen(), at: 0), .penMove(point(2), at: 0.1)])
        #expect(strokes.map { $0.points.map(\.x) } == [[1, 2]])
    }
}
