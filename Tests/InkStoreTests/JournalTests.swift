import Foundation
import InkCore
import Testing
@testable import InkStore

/// The live editor's journal (issue 29): what is confirmed to a writer is on disk, and a crash loses
/// none of it and duplicates none of it.
@Suite("Note journal")
struct JournalTests {
    let root = temporaryFolder()

    func stroke(_ id: UInt64, x: Float) -> Stroke {
        Stroke(id: StrokeID(id), width: 2, startTime: Double(id) * 100,
               points: [InkPoint(x: x, y: 10, pressure: 0.5, time: 0), InkPoint(x: x + 5, y: 20, pressure: 0.5, time: 10)])
    }

    func added(_ page: PageID, _ strokes: Stroke..., key: String) -> JournalEntry {
        JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(), added: strokes)], keys: [key])
    }

    /// A library with a note holding one stored page with strokes 1 and 2.
    func noteWithPage() throws -> (Library, NoteID, PageID) {
        let library = try Library.create(at: root)
        let note = try library.createNote(title: "Live").note.id
        let page = PageID.random()
        try library.save([PageDelta(pageID: page, isNew: true, addedStrokes: [stroke(1, x: 10), stroke(2, x: 20)])], to: note)
        return (library, note, page)
    }

    func strokeIDs(_ library: Library, _ note: NoteID) throws -> [[UInt64]] {
        try library.pages(of: library.note(matching: note.rawValue)).map { $0.strokes.map(\.id.rawValue) }
    }

    @Test("appends are on disk when confirmed and read back")
    func appendAndRead() async throws {
        let (library, note, page) = try noteWithPage()
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in UInt64(3)...52 { group.addTask { try await journal.append(self.added(page, self.stroke(id, x: Float(id)), key: "w:\(id)")) } }
            try await group.waitForAll()
        }
        let contents = try NoteJournal.read(journal.url)
        #expect(contents.warning == nil)
        #expect(Set(contents.entries.flatMap(\.keys)) == Set((3...52).map { "w:\($0)" }))
        #expect(contents.entries.flatMap { $0.pages.flatMap(\.added) }.count == 50)
        #expect(journal.lastSequence == 50)
    }

    @Test("group commit: appends that arrive while a sync is under way share the next one")
    func groupCommit() async throws {
        let (library, note, page) = try noteWithPage()
        // The journal's one thread is busy (as during a sync) while fifty writers append.
        let executor = BlockingExecutor(width: 1, name: "journal-test")
        let busy = DispatchSemaphore(value: 0)
        executor.submit { busy.wait() }
        let journal = NoteJournal(url: library.journalURL(of: note), executor: executor)
        let confirmed = Locked(0)
        for id in UInt64(3)...52 {
            journal.append(added(page, stroke(id, x: Float(id)), key: "w:\(id)")) { result in
                if case .success = result { confirmed.withLock { $0 += 1 } }
            }
        }
        #expect(confirmed.withLock { $0 } == 0, "nothing is confirmed before it is synced")
        busy.signal()
        await journal.drain()
        #expect(confirmed.withLock { $0 } == 50)
        #expect(journal.batchesWritten == 1, "one write and one sync for all fifty")
        #expect(try NoteJournal.read(journal.url).entries.count == 50)
    }

    @Test("replay adds what the pages lack once, applies removals, and replaying again changes nothing")
    func replayIsIdempotent() async throws {
        let (library, note, page) = try noteWithPage()
        let journal = NoteJournal(url: library.journalURL(of: note))
        let newPage = PageID.random()
        try await journal.append(added(page, stroke(3, x: 30), key: "a:1"))
        try await journal.append(JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(), removed: [StrokeID(1)])]))
        try await journal.append(added(newPage, stroke(1, x: 5), key: "a:2"))
        // A save already stored stroke 3 (the crash came before the journal was compacted).
        try library.save([PageDelta(pageID: page, isNew: false, addedStrokes: [stroke(3, x: 30)])], to: note)

        let replay = try library.replayJournal(of: note)
        #expect(replay.strokesAdded == 1 && replay.strokesRemoved == 1 && replay.pagesAdded == 1)
        #expect(Set(replay.keys) == ["a:1", "a:2"])
        #expect(try strokeIDs(library, note) == [[2, 3], [1]])
        // The journal keeps only the keys: nothing to replay, and a browser resending them is known.
        #expect(try NoteJournal.read(journal.url).hasChanges == false)
        #expect(library.notesWithJournal().isEmpty)
        let again = try library.replayJournal(of: note)
        #expect(again.strokesAdded == 0 && Set(again.keys) == ["a:1", "a:2"])
        #expect(try strokeIDs(library, note) == [[2, 3], [1]])
    }

    @Test("a completed save drops only the entries it covers, keeping their keys")
    func compaction() async throws {
        let (library, note, page) = try noteWithPage()
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await journal.append(added(page, stroke(3, x: 30), key: "a:1"))
        try await journal.append(added(page, stroke(4, x: 40), key: "a:2"))
        let covered = journal.lastSequence
        try await journal.append(added(page, stroke(5, x: 50), key: "a:3"))
        journal.compact(through: covered)
        await journal.drain()
        let contents = try NoteJournal.read(journal.url)
        #expect(contents.entries.flatMap { $0.pages.flatMap(\.added).map(\.id.rawValue) } == [5])
        #expect(Set(contents.entries.flatMap(\.keys)) == ["a:1", "a:2", "a:3"])
        #expect(library.notesWithJournal() == [note])
        journal.compact(through: journal.lastSequence)
        await journal.drain()
        #expect(try NoteJournal.read(journal.url).hasChanges == false)
    }

    @Test("a torn tail is cut at the last whole record with a warning naming file and offset; the rest is replayed",
          arguments: ["torn", "garbled"])
    func tornTail(_ damage: String) async throws {
        let (library, note, page) = try noteWithPage()
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await journal.append(added(page, stroke(3, x: 30), key: "a:1"))
        let whole = try Data(contentsOf: journal.url).count
        try await journal.append(added(page, stroke(4, x: 40), key: "a:2"))
        var bytes = try Data(contentsOf: journal.url)
        if damage == "torn" {
            bytes = bytes.prefix(whole + 40)  // the second record's write stopped part way
        } else {
            bytes[whole + 30] ^= 0x20  // a flipped bit: the checksum no longer matches
        }
        try bytes.write(to: journal.url)

        let contents = try NoteJournal.read(journal.url)
        #expect(contents.entries.count == 1 && contents.intactBytes == whole)
        let warning = try #require(contents.warning)
        #expect(warning.contains(journal.url.path) && warning.contains("byte \(whole)"))
        let replay = try library.replayJournal(of: note)
        #expect(replay.warning == warning)
        #expect(try strokeIDs(library, note) == [[1, 2, 3]])
        #expect(try NoteJournal.read(journal.url).warning == nil)
    }

    @Test("a missing journal replays nothing and leaves no file")
    func noJournal() throws {
        let (library, note, _) = try noteWithPage()
        let replay = try library.replayJournal(of: note)
        #expect(replay.keys.isEmpty && replay.warning == nil && replay.strokesAdded == 0)
        #expect(!FileManager.default.fileExists(atPath: library.journalURL(of: note).path))
    }
}
