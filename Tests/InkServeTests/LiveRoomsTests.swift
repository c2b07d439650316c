import Foundation
@testable import InkServe
@testable import InkwellKit
import InkStore
import Testing
import TestSupport

/// Opening a note for live writing waits for the library's lock (the journal's replay, the first
/// save); the rooms of the other notes must not wait with it.
@Suite struct LiveRoomsTests {
    @Test("a note opening behind another process's library lock holds up no other note's joins, leaves or pen; browsers joining it meanwhile share one opening",
          .timeLimit(.minutes(20)))
    func openingWaitsAlone() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-rooms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let workspace = Workspace(library: try Library.create(at: root))
        let waiting = try workspace.library.createNote(title: "Waiting").note.id
        let open = try workspace.library.createNote(title: "Open").note.id
        let rooms = LiveRooms(workspace: workspace, config: SessionConfig(), recognize: false)
        let openRoom = try await rooms.join(open)
        let page = try #require(await openRoom.live.pages.first?.id)

        // Another process takes the library's lock and holds it until the test lets it go.
        let holder = try LockHolder(library: root)

        // Two browsers open the other note: its opening waits for the lock. (Opened inside the actor,
        // the rooms would not even say how many notes are open until the lock wait ends in failure:
        // this loop would not end, and the time limit turns that into a failure.)
        let first = Task { try await rooms.join(waiting) }
        while await rooms.openCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let second = Task { try await rooms.join(waiting) }

        // Meanwhile the open note is joined, written on and left, however long that takes.
        let again = try await rooms.join(open)
        #expect(again === openRoom)
        let key = "w:1"
        for pen in [PenInput.down(key: key, page: page, InkPoint(x: 10, y: 100, pressure: 0.3), tool: .pen, color: .black, width: 2),
                    .move(key: key, [InkPoint(x: 30, y: 110)]), .up(key: key)] {
            await openRoom.live.pen(pen, from: "w")
        }
        #expect(await openRoom.live.pages.first?.strokes.count == 1)
        await rooms.leave(open)
        // All of that while the lock was held and the other note was still opening.
        #expect(holder.isHolding, "the lock is still held")
        #expect(await rooms.openNote(waiting) == nil, "the waiting note opened without the lock")

        // The lock let go, the note opens once for both browsers.
        try holder.release()
        let (a, b) = (try await first.value, try await second.value)
        #expect(a === b)
        #expect(await rooms.openNote(waiting) === a.live)
        await rooms.leave(waiting)
        await rooms.leave(waiting)
        await rooms.leave(open)
        #expect(await rooms.openCount == 0)
    }
}
