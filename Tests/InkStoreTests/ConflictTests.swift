import Foundation
import InkCore
import Testing
@testable import InkStore

/// Libraries get synced by other tools: when two devices change a note at once, the tool leaves a
/// conflict copy beside the file, and the other device's strokes and text must not stay hidden (issue 31).
@Suite("Sync conflict copies")
struct ConflictTests {
    let root = temporaryFolder()

    @Test("each sync tool's conflict-copy names are recognised, and a note's own files or strangers are not")
    func names() {
        let page = "8d2h5k0w3q1r.inkpage"
        let own: Set<String> = ["note.json", "body.md", page]
        func original(_ name: String) -> String? { Library.conflictOriginal(of: name, isNoteFile: own.contains)?.original }
        #expect(original("8d2h5k0w3q1r.sync-conflict-20261126-123456-ABCDEFG.inkpage") == page)
        #expect(original("note.sync-conflict-20261126-123456-ABCDEFG.json") == "note.json")
        #expect(original("body (conflicted copy).md") == "body.md")
        #expect(original("body (Ana's conflicted copy 2026-11-26).md") == "body.md")
        #expect(Library.conflictOriginal(of: "note (conflicted copy 2026-11-26 123456).json", isNoteFile: own.contains)?.tool == "Nextcloud")
        #expect(original("body-LAPTOP.md") == "body.md")
        #expect(original("note-DESKTOP-4F2.json") == "note.json")
        #expect(original("8d2h5k0w3q1r 2.inkpage") == page)
        #expect(original("body 2.md") == "body.md")
        for stranger in ["note.json", page, "notes 2.txt", "photo-LAPTOP.jpg", "body.md.tmp", "backgrounds"] {
            #expect(original(stranger) == nil, "\(stranger)")
        }
    }

    /// A stroke of one point at `x`, id `id`.
    func stroke(_ id: UInt64, x: Float) -> Stroke {
        Stroke(id: StrokeID(id), width: 2, startTime: Double(id) * 100,
               points: [InkPoint(x: x, y: 10, pressure: 0.5, time: 0), InkPoint(x: x + 5, y: 20, pressure: 0.5, time: 10)])
    }

    @Test("resolving merges pages by stroke id with each side's erasures, keeps both texts and all tags, trashes the before state")
    func resolve() throws {
        let library = try Library.create(at: root)
        let created = try library.createNote(title: "Shared")
        let pageID = PageID.random()
        // Common history: strokes 1, 2, 3.
        try library.save([PageDelta(pageID: pageID, size: .remarkable, isNew: true, addedStrokes: [stroke(1, x: 10), stroke(2, x: 20), stroke(3, x: 30)])],
                         to: created.note.id)
        _ = try library.setTypedText("Shopping #home\n", of: created.note.id)
        let stored = try library.note(matching: "Shared")
        let page = library.pageURL(pageID, in: stored.folder)
        // The other device: erased 2, drew its own 4; its copy came back as a Syncthing conflict file.
        let copy = stored.folder.appendingPathComponent("\(pageID).sync-conflict-20261126-123456-ABCDEFG.inkpage")
        try FileManager.default.copyItem(at: page, to: copy)
        var theirs = PageCodec.fileStart
        theirs += try PageCodec.encode([.removal([StrokeID(2)]), .stroke(stroke(4, x: 400))])
        let handle = try FileHandle(forWritingTo: copy)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(theirs.dropFirst(PageCodec.fileStart.count)))
        try handle.close()
        // This device: erased 3, drew its own 4 (same id, another stroke).
        try library.save([PageDelta(pageID: pageID, isNew: false, addedStrokes: [stroke(4, x: 40)], removedStrokeIDs: [StrokeID(3)])], to: stored.note.id)
        try Data("Shopping #home\n- bread #errands\n".utf8).write(to: stored.folder.appendingPathComponent("body (conflicted copy).md"))
        var otherMetadata = try String(contentsOf: stored.folder.appendingPathComponent("note.json"), encoding: .utf8)
        otherMetadata = otherMetadata.replacingOccurrences(of: "\"tags\" : [", with: "\"tags\" : [\n    \"travel\",")
        try Data(otherMetadata.utf8).write(to: stored.folder.appendingPathComponent("note 2.json"))

        #expect(try library.problems().conflicts[stored.note.id]?.count == 3)
        let resolution = try #require(try library.resolveConflicts(of: stored.note.id))
        #expect(resolution.merged.count == 3)
        let after = try library.note(matching: "Shared")
        let strokes = try library.pages(of: after)[0].strokes
        // 1 kept; 2 erased there, 3 erased here; both strokes numbered 4 kept, theirs renumbered.
        #expect(strokes.map(\.points[0].x).sorted() == [10, 40, 400])
        #expect(resolution.strokesAdded == 1 && resolution.erasuresApplied == 1)
        let body = try library.typedTextSource(of: after)
        #expect(body.hasPrefix("Shopping #home\n") && body.contains("## From another device's copy (body (conflicted copy).md)") && body.contains("- bread #errands"))
        #expect(after.note.tags.isSuperset(of: [Tag("home")!, Tag("errands")!, Tag("travel")!]))
        #expect(library.conflicts(of: after).isEmpty)
        #expect(try library.problems().isEmpty)
        // The state before is in the trash, conflict copies and all, as a note of its own.
        let before = try #require(resolution.before)
        #expect(try library.trashItems().map(\.id) == [before.id])
        try library.restore(before.id)
        let restored = try library.note(matching: "Shared (before resolving conflicts)")
        #expect(library.conflicts(of: restored).count == 3)
        #expect(try library.pages(of: restored)[0].strokes.map(\.points[0].x) == [10, 20, 40])
    }

    @Test("resolving twice merges nothing twice; a note without conflicts is left alone")
    func idempotent() throws {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Calm")
        #expect(try library.resolveConflicts(of: note.note.id) == nil)
        #expect(try library.trashItems().isEmpty)
    }
}
