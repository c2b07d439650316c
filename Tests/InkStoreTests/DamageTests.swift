import Foundation
import InkCore
import Testing
@testable import InkStore

/// A library lives for years beside sync tools and failing disks: one damaged or duplicated note must
/// cost that note only, and nothing in metadata may lead outside the library (issue 31).
@Suite("Damage stays where it is")
struct DamageTests {
    let root = temporaryFolder()

    func library() throws -> Library { try Library.create(at: root) }

    /// A note with one page of `strokes` strokes.
    func noteWithPage(_ library: Library, _ title: String, in notebook: NotebookPath = .inbox, strokes: Int = 3) throws -> StoredNote {
        let note = try library.createNote(title: title, in: notebook)
        let page = handwritingPage(strokes: strokes, points: 10)
        try library.save([PageDelta(pageID: .random(), size: page.size, isNew: true, addedStrokes: page.strokes)], to: note.note.id)
        return try library.note(matching: note.note.id.rawValue)
    }

    @Test("a garbage note.json costs its note only: listings skip it, problems() names it with the reason")
    func garbageMetadata() throws {
        let library = try library()
        let good = try noteWithPage(library, "Intact")
        let bad = try noteWithPage(library, "Soon damaged")
        try Data("{\"format\": 1, garbage".utf8).write(to: bad.folder.appendingPathComponent("note.json"))
        #expect(try library.notes().map(\.note.id) == [good.note.id])
        #expect(try library.stats().notes == 1)
        #expect(try library.check().map(\.note) == [good.note.id])
        let listing = try library.listing()
        #expect(listing.damaged.map(\.folder.lastPathComponent) == [bad.folder.lastPathComponent])
        #expect(listing.damaged[0].reason.contains("note.json"), "\(listing.damaged[0].reason)")
        #expect(try library.problems().damaged == listing.damaged)
        // Nothing touched it.
        #expect(try String(contentsOf: bad.folder.appendingPathComponent("note.json"), encoding: .utf8) == "{\"format\": 1, garbage")
    }

    @Test("a page path in note.json that leads outside the note is refused, naming the key and the value")
    func pagePathOutside() throws {
        let library = try library()
        let note = try noteWithPage(library, "Victim")
        let url = note.folder.appendingPathComponent("note.json")
        let json = try String(contentsOf: url, encoding: .utf8)
        let hostile = json.replacingOccurrences(of: note.note.pages[0].rawValue, with: "../../../../outside/victim")
        try Data(hostile.utf8).write(to: url)
        #expect(try library.notes().isEmpty)
        let reason = try library.listing().damaged.first?.reason ?? ""
        #expect(reason.contains("pages") && reason.contains("is not a page id"), "\(reason)")
        #expect(try library.compact(library.notes(), salvage: true).isEmpty)
    }

    @Test("the same note in two notebooks (merged synced copies): listed twice, never crashes, refused until repaired")
    func duplicateNote() throws {
        let library = try library()
        let note = try noteWithPage(library, "Synced")
        let other = try NotebookPath("Work")
        try library.createNotebook(other)
        let copy = root.appendingPathComponent("notebooks/Work/\(note.folder.lastPathComponent)")
        try FileManager.default.copyItem(at: note.folder, to: copy)
        #expect(try library.notes().count == 2)
        #expect(try library.stats().notes == 2)
        #expect(try library.problems().duplicates[note.note.id]?.count == 2)
        for reference in [note.note.id.rawValue, "Synced", String(note.note.id.rawValue.prefix(6))] {
            #expect(throws: StoreError.duplicateNote(note.note.id, try library.notes().map(\.folder))) { try library.note(matching: reference) }
        }
        let repairs = try library.repair()
        #expect(repairs.count == 1)
        let ids = try library.notes().map(\.note.id)
        #expect(Set(ids).count == 2 && ids.contains(note.note.id))
        #expect(try library.problems().isEmpty)
        // Both copies keep their strokes.
        for stored in try library.notes() { #expect(try library.pages(of: stored).first?.strokes.count == 3) }
        #expect(try library.note(matching: note.note.id.rawValue).note.title == "Synced")
    }

    @Test("a repair interrupted after renaming a copy's folder is finished by the next one")
    func interruptedRepair() throws {
        let library = try library()
        let note = try noteWithPage(library, "Half repaired")
        let newID = NoteID.random()
        let renamed = note.folder.deletingLastPathComponent().appendingPathComponent("\(newID).note")
        try FileManager.default.copyItem(at: note.folder, to: renamed)
        #expect(try library.problems().duplicates.count == 1)
        _ = try library.repair()
        #expect(Set(try library.notes().map(\.note.id)) == [note.note.id, newID])
    }

    @Test("check --repair rebuilds an unreadable note.json from the folder's pages and text, keeping the old file")
    func rebuildMetadata() throws {
        let library = try library()
        let note = try noteWithPage(library, "Lost title")
        _ = try library.setTypedText("Groceries\n- milk #home\n", of: note.note.id)
        try Data("not json".utf8).write(to: note.folder.appendingPathComponent("note.json"))
        let repairs = try library.repair()
        #expect(repairs.count == 1)
        #expect(repairs[0].guessed.contains("the title \"Groceries\""), "\(repairs[0].guessed)")
        let rebuilt = try library.note(matching: note.note.id.rawValue)
        #expect(rebuilt.note.pages == note.note.pages)
        #expect(rebuilt.note.tags == [Tag("home")!])
        #expect(try library.pages(of: rebuilt).first?.strokes.count == 3)
        #expect(try String(contentsOf: note.folder.appendingPathComponent("note.json.damaged"), encoding: .utf8) == "not json")
    }

    @Test("symbolic links under notebooks/ are never followed: a loop and a link to / are reported, not walked")
    func symbolicLinks() throws {
        let library = try library()
        _ = try noteWithPage(library, "Real")
        let loop = root.appendingPathComponent("notebooks/Inbox/Loop")
        let slash = root.appendingPathComponent("notebooks/Everything")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: root.appendingPathComponent("notebooks").path)
        try FileManager.default.createSymbolicLink(atPath: slash.path, withDestinationPath: "/")
        #expect(try library.notes().map(\.note.title) == ["Real"])
        #expect(try library.notebooks() == [.inbox])
        #expect(try library.stats().notes == 1)
        #expect(Set(try library.problems().symbolicLinks.map(\.lastPathComponent)) == ["Loop", "Everything"])
    }
}

@Suite("Damage stays where it is: the trash")
struct TrashDamageTests {
    let root = temporaryFolder()

    @Test("a garbage trash.json costs its entry only: the rest of the trash lists, empties and restores; repair rebuilds it")
    func garbageTrashInfo() throws {
        let library = try Library.create(at: root)
        let kept = try library.createNote(title: "Kept in the trash")
        let damaged = try library.createNote(title: "Damaged entry")
        let keptItem = try library.deleteNote(kept.note.id)
        let damagedItem = try library.deleteNote(damaged.note.id)
        let info = root.appendingPathComponent("trash/\(damagedItem.id)/trash.json")
        try Data("{ not json".utf8).write(to: info)
        #expect(try library.trashItems().map(\.id) == [keptItem.id])
        #expect(try library.problems().damagedTrash.map(\.folder.lastPathComponent) == [damagedItem.id])
        let repairs = try library.repair()
        #expect(repairs.count == 1 && repairs[0].guessed.contains("the notebook it comes back to (the Inbox)"))
        #expect(Set(try library.trashItems().map(\.name)) == ["Kept in the trash", "Damaged entry"])
        try library.restore(damaged.note.id.rawValue)
        #expect(try library.note(matching: "Damaged entry").notebook == .inbox)
    }

    @Test("a trash.json naming a folder outside its entry is refused, and emptying the trash leaves that folder alone")
    func trashInfoOutside() throws {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Bait")
        let item = try library.deleteNote(note.note.id)
        let info = root.appendingPathComponent("trash/\(item.id)/trash.json")
        let text = try String(contentsOf: info, encoding: .utf8).replacingOccurrences(of: "\(note.note.id).note", with: "../../notebooks")
        try Data(text.utf8).write(to: info)
        #expect(try library.trashItems().isEmpty)
        #expect(try library.emptyTrash() == 0)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("notebooks/Inbox").path))
    }

    @Test("an emptying of the trash killed half-way leaves no invisible entry: the next one and the leftovers sweep finish it")
    func interruptedEmptying() throws {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Going")
        let item = try library.deleteNote(note.note.id)
        // What a kill between the rename and the removal leaves: the entry renamed, half removed.
        let emptying = root.appendingPathComponent("trash/.emptying-\(item.id)")
        try FileManager.default.moveItem(at: root.appendingPathComponent("trash/\(item.id)"), to: emptying)
        try FileManager.default.removeItem(at: emptying.appendingPathComponent("trash.json"))
        #expect(try library.trashItems().isEmpty)
        #expect(library.leftovers().map(\.path) == [emptying.path])
        #expect(try library.emptyTrash() == 0)
        #expect(!FileManager.default.fileExists(atPath: emptying.path))
    }
}
