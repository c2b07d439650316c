import Foundation
import InkCore
import Testing
@testable import InkStore

@Suite("Library on disk")
struct LibraryTests {
    let root = temporaryFolder()

    func library() throws -> Library { try Library.create(at: root) }

    @Test("a new library has an Inbox and human-readable metadata")
    func createAndInspect() throws {
        let library = try library()
        #expect(try library.notebooks() == [.inbox])
        let stored = try library.createNote(title: "Standup", created: Date(timeIntervalSince1970: 1_700_000_000))
        let json = try String(contentsOf: stored.folder.appendingPathComponent("note.json"), encoding: .utf8)
        #expect(json.contains("\"title\" : \"Standup\""))
        #expect(json.contains("\"created\" : \"2023-11-14T22:13:20Z\""))
        #expect(stored.folder.path.hasSuffix("notebooks/Inbox/\(stored.note.id).note"))
    }

    @Test("reads nest inside writes and reads; a write started while reading is refused instead of waiting for itself")
    func nestedLocks() throws {
        let library = try library()
        let created = try library.withWriteLock { try library.createNote(title: "Inside a write") }
        #expect(try library.withReadLock { try library.notes().map(\.note.id) } == [created.note.id])
        let refused = #expect(throws: StoreError.self) { try library.withReadLock { try library.createNote(title: "Inside a read") } }
        #expect("\(refused.map(String.init(describing:)) ?? "")".contains("while reading the library"), "\(String(describing: refused))")
        #expect(try library.notes().count == 1)
    }

    @Test("an origin a read would refuse is refused when written, and the note stays readable as it was")
    func originCheckedOnWrite() throws {
        let library = try library()
        let note = try library.createNote(title: "Piped")
        let before = try library.note(matching: note.note.id.rawValue)
        let refused = #expect(throws: StoreError.self) {
            try library.updateNote(note.note.id) { $0.origin = NoteOrigin(kind: .file, key: "stdin", hash: "0123456789abcdef", location: "-") }
        }
        #expect(refused?.description.contains("absolute path") == true)
        #expect(try library.note(matching: note.note.id.rawValue) == before)
    }

    @Test("opening a folder that is not a library says so")
    func notALibrary() {
        #expect(throws: StoreError.notALibrary(root.standardizedFileURL)) { try Library(opening: root) }
    }

    @Test("notebooks nest, rename, move and refuse to move into themselves")
    func notebooks() throws {
        let library = try library()
        let meetings = try NotebookPath("Work/Meetings")
        try library.createNotebook(meetings)
        #expect(try library.notebooks() == [.inbox, try NotebookPath("Work"), meetings])
        #expect(throws: StoreError.notebookExists(meetings)) { try library.createNotebook(meetings) }
        let note = try library.createNote(title: "Q3 review", in: meetings)
        let renamed = try library.renameNotebook(try NotebookPath("Work"), to: "Job")
        #expect(renamed == (try NotebookPath("Job")))
        #expect(try library.note(matching: note.note.id.rawValue).notebook == (try NotebookPath("Job/Meetings")))
        let moved = try library.moveNotebook(try NotebookPath("Job/Meetings"), to: try NotebookPath("Archive/Meetings"))
        #expect(try library.note(matching: "Q3 review").notebook == moved)
        #expect(throws: StoreError.self) { try library.moveNotebook(try NotebookPath("Archive"), to: try NotebookPath("Archive/Inner")) }
    }

    @Test("notebook names that would escape the library or hide are refused")
    func hostileNotebookNames() {
        for bad in ["..", ".", ".hidden", "a\u{0}b", "x.note", " padded", String(repeating: "x", count: 300)] {
            #expect(throws: NotebookPathError.self, "\(bad)") { try NotebookPath(components: [bad]) }
        }
        #expect((try? NotebookPath("../../etc"))?.components == nil)
    }

    @Test("notes are found by id, id prefix or title; ambiguity is an error")
    func resolveNotes() throws {
        let library = try library()
        let a = try library.createNote(title: "Groceries")
        _ = try library.createNote(title: "Ideas")
        _ = try library.createNote(title: "Ideas")
        #expect(try library.note(matching: a.note.id.rawValue).note == a.note)
        #expect(try library.note(matching: String(a.note.id.rawValue.prefix(6))).note.id == a.note.id)
        #expect(try library.note(matching: "groceries").note.id == a.note.id)
        #expect(throws: StoreError.self) { try library.note(matching: "Ideas") }
        #expect(throws: StoreError.noSuchNote("nothing")) { try library.note(matching: "nothing") }
    }

    @Test("tags, pins and titles change under the lock and persist")
    func updateNote() throws {
        let library = try library()
        let note = try library.createNote(title: "Plan")
        try library.updateNote(note.note.id) {
            $0.tags.insert(Tag("#Q3-plan")!)
            $0.pinned = true
            $0.title = "Plan for Q3"
        }
        let reread = try library.note(matching: note.note.id.rawValue).note
        #expect(reread.tags == [Tag("q3-plan")!])
        #expect(reread.pinned)
        #expect(reread.title == "Plan for Q3")
        #expect(throws: StoreError.self) { try library.updateNote(note.note.id) { $0.title = "  " } }
    }

    @Test("a staged note's pages and page list, written unsynced as it is built, are all in the library once committed")
    func stagedPagesCommitWhole() throws {
        let library = try library()
        var staged = try library.stage(title: "Long", in: .inbox, created: Date(), source: "test")
        // Past the files synced one by one: the commit syncs the file system at once.
        let pages = (0..<(DurableFile.filesSyncedOneByOne + 8)).map { i in
            Page(id: PageID.random(), strokes: i % 3 == 0 ? [Stroke(id: StrokeID(1), points: [InkPoint(x: Float(i), y: 2)])] : [])
        }
        for page in pages {
            try staged.apply(PageDelta(pageID: page.id, size: page.size, template: page.template, isNew: true, addedStrokes: page.strokes))
        }
        // A stroke appended to a page already written.
        let more = Stroke(id: StrokeID(2), points: [InkPoint(x: 5, y: 5)])
        try staged.apply(PageDelta(pageID: pages[0].id, size: pages[0].size, template: pages[0].template, isNew: false, addedStrokes: [more]))
        let committed = try library.commit([staged])[0]
        let stored = try library.note(matching: committed.note.id.rawValue)
        #expect(stored.note.pages == pages.map(\.id), "note.json lists every page, in order")
        var expected = pages
        expected[0].strokes.append(more)
        #expect(try library.pages(of: stored) == expected)
    }

    @Test("delete moves to the trash and restore brings everything back")
    func trashRoundTrip() throws {
        let library = try library()
        let work = try NotebookPath("Work")
        let stored = try library.createNote(title: "Budget", in: work)
        var staged = try library.stage(title: "Sketch", in: work, created: Date(), source: "test")
        let page = Page(id: PageID.random(), strokes: [Stroke(id: StrokeID(1), points: [InkPoint(x: 1, y: 2)])])
        try staged.apply(PageDelta(pageID: page.id, size: page.size, template: page.template, isNew: true, addedStrokes: page.strokes))
        let sketch = try library.commit([staged])[0]

        let item = try library.deleteNote(stored.note.id)
        #expect(try library.notes().map(\.note.id) == [sketch.note.id])
        #expect(try library.trashItems() == [item])
        try library.restore(item.id)
        #expect(Set(try library.notes().map(\.note.id)) == [stored.note.id, sketch.note.id])

        let before = try library.pages(of: library.note(matching: "Sketch"))
        let notebookItem = try library.deleteNotebook(work)
        #expect(notebookItem.noteCount == 2)
        #expect(try library.notes().isEmpty)
        try library.createNotebook(work)
        try library.restore("Work")
        #expect(try library.notebooks().contains(try NotebookPath("Work (restored)")))
        #expect(try library.pages(of: library.note(matching: "Sketch")) == before)
        #expect(try library.trashItems().isEmpty)
    }

    @Test("emptying the trash deletes for good")
    func emptyTrash() throws {
        let library = try library()
        let note = try library.createNote(title: "Scratch")
        try library.deleteNote(note.note.id)
        #expect(try library.emptyTrash() == 1)
        #expect(try library.trashItems().isEmpty)
        #expect(throws: StoreError.self) { try library.restore(note.note.id.rawValue) }
    }

    @Test("saves append to a page and reopen as the same page")
    func saveAppends() throws {
        let library = try library()
        let note = try library.createNote(title: "Draft")
        let pageID = PageID.random()
        let first = handwritingPage(strokes: 3, points: 10).strokes
        try library.save([PageDelta(pageID: pageID, size: .remarkable, isNew: true, addedStrokes: first)], to: note.note.id)
        let url = library.pageURL(pageID, in: note.folder)
        let sizeAfterFirst = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        let more = Stroke(id: StrokeID(9), points: [InkPoint(x: 5, y: 5)])
        try library.save([PageDelta(pageID: pageID, isNew: false, addedStrokes: [more], removedStrokeIDs: [first[0].id])], to: note.note.id)
        let sizeAfterSecond = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(sizeAfterSecond > sizeAfterFirst)
        let pages = try library.pages(of: library.note(matching: "Draft"))
        #expect(pages.count == 1)
        #expect(pages[0].strokes.map(\.id) == [first[1].id, first[2].id, StrokeID(9)])
        #expect(try library.stats().points == 21)
    }

    @Test("a staged note that is discarded leaves the library as it was")
    func discardStaged() throws {
        let library = try library()
        let before = try library.notes()
        let staged = try library.stage(title: "Half", in: .inbox, created: Date(), source: "test")
        #expect(try library.notes() == before)
        library.discard([staged])
        #expect(try library.notes() == before)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: library.stagingFolder.path))?.isEmpty ?? true)
    }

    @Test("check reports damaged and missing pages")
    func check() throws {
        let library = try library()
        let note = try library.createNote(title: "Fragile")
        let ids = [PageID.random(), PageID.random()]
        let strokes = handwritingPage(strokes: 2, points: 5).strokes
        for id in ids {
            // Two autosaves: each appends its own chunk.
            try library.save([PageDelta(pageID: id, size: .remarkable, isNew: true, addedStrokes: [strokes[0]])], to: note.note.id)
            try library.save([PageDelta(pageID: id, isNew: false, addedStrokes: [strokes[1]])], to: note.note.id)
        }
        #expect(try library.check().allSatisfy { !$0.isDamaged })
        let url = library.pageURL(ids[0], in: note.folder)
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes[bytes.count - 10] ^= 0xFF
        try Data(bytes).write(to: url)
        try FileManager.default.removeItem(at: library.pageURL(ids[1], in: note.folder))
        let reports = try library.check()
        #expect(reports.map(\.isDamaged) == [true, true])
        #expect(reports[0].decoded?.page.strokes.count == 1)
        #expect(reports[1].missing)
    }

    @Test("the default location follows INKWELL_LIBRARY, then XDG_DATA_HOME, then HOME")
    func defaultLocation() {
        #expect(Library.defaultLocation(environment: ["INKWELL_LIBRARY": "/a", "XDG_DATA_HOME": "/b"]).path == "/a")
        #expect(Library.defaultLocation(environment: ["XDG_DATA_HOME": "/b", "HOME": "/h"]).path == "/b/inkwell")
        #expect(Library.defaultLocation(environment: ["HOME": "/h"]).path == "/h/.local/share/inkwell")
    }
}

@Suite("Compaction")
struct CompactionTests {
    let root = temporaryFolder()

    @Test("compaction drops removed strokes, keeps the live ones, and salvages only when asked")
    func compact() throws {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Busy")
        let pageID = PageID.random()
        let strokes = handwritingPage(strokes: 6, points: 20).strokes
        try library.save([PageDelta(pageID: pageID, size: .remarkable, isNew: true, addedStrokes: strokes)], to: note.note.id)
        try library.save([PageDelta(pageID: pageID, isNew: false, removedStrokeIDs: [strokes[0].id, strokes[3].id])], to: note.note.id)
        let stored = try library.note(matching: "Busy")
        let before = try library.pages(of: stored)
        let results = try library.compact([stored])
        #expect(results.count == 1 && results[0].strokesDropped == 2 && results[0].bytesAfter < results[0].bytesBefore)
        #expect(try library.pages(of: stored) == before)
        #expect(try library.compact([stored]).isEmpty)

        // A damaged page is left alone, then salvaged on request.
        let url = library.pageURL(pageID, in: stored.folder)
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes += [0, 0, 0, 9] + Array("STRK".utf8) + [1, 2, 3]
        try Data(bytes).write(to: url)
        #expect(try library.compact([stored]).isEmpty)
        #expect(try library.compact([stored], salvage: true).count == 1)
        #expect(try library.check().allSatisfy { !$0.isDamaged })
        #expect(try library.pages(of: stored) == before)
    }
}
