import Foundation
import InkCore
import Testing
@testable import InkStore

/// The manual order of a notebook's notes (`.order`): placements, listings, trash, and the file as a hint.
@Suite("Manual note order")
struct OrderTests {
    let library: Library
    let work = try! NotebookPath("Work")

    init() throws {
        library = try Library.create(at: temporaryFolder().appendingPathComponent("library"))
    }

    /// Notes A…E in Work, created a minute apart (A oldest), so the default order is E D C B A.
    func fiveNotes(in notebook: NotebookPath? = nil) throws -> [String: NoteID] {
        var ids: [String: NoteID] = [:]
        for (index, title) in ["A", "B", "C", "D", "E"].enumerated() {
            ids[title] = try library.createNote(title: title, in: notebook ?? work,
                                                created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)).note.id
        }
        return ids
    }

    func titles(_ notebook: NotebookPath? = nil) throws -> [String] {
        try library.notes(in: notebook ?? work).map(\.note.title)
    }

    var orderFile: URL { library.root.appendingPathComponent("notebooks/Work/.order") }

    @Test("without an order, a notebook lists newest first and has no order file")
    func defaultOrder() throws {
        _ = try fiveNotes()
        #expect(try titles() == ["E", "D", "C", "B", "A"])
        #expect(!FileManager.default.fileExists(atPath: orderFile.path))
    }

    @Test("--first, --last, --before and --after each put the note there, and listings follow")
    func placements() throws {
        let id = try fiveNotes()
        try library.moveNote(id["B"]!, placement: .first)
        #expect(try titles() == ["B", "E", "D", "C", "A"])
        try library.moveNote(id["E"]!, placement: .last)
        #expect(try titles() == ["B", "D", "C", "A", "E"])
        try library.moveNote(id["A"]!, placement: .before(id["D"]!))
        #expect(try titles() == ["B", "A", "D", "C", "E"])
        try library.moveNote(id["B"]!, placement: .after(id["C"]!))
        #expect(try titles() == ["A", "D", "C", "B", "E"])
        try library.moveNote(id["E"]!, placement: .before(id["A"]!))
        #expect(try titles() == ["E", "A", "D", "C", "B"])
        try library.moveNote(id["E"]!, placement: .after(id["B"]!))
        #expect(try titles() == ["A", "D", "C", "B", "E"])
        // Placing a note where it already is changes nothing.
        try library.moveNote(id["A"]!, placement: .first)
        #expect(try titles() == ["A", "D", "C", "B", "E"])
        // The whole-library listing and lookups see the same order.
        #expect(try library.notes().map(\.note.title) == ["A", "D", "C", "B", "E"])
    }

    @Test("the order file is readable text: a comment, then one id and title a line, top first")
    func readableFile() throws {
        let id = try fiveNotes()
        try library.updateNote(id["C"]!) { $0.title = "Café, \"naïve\" — 会议" }
        try library.moveNote(id["A"]!, placement: .first)
        let text = try String(contentsOf: orderFile, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("# ") == true)
        #expect(Array(lines.dropFirst()) == [
            "\(id["A"]!)  A", "\(id["E"]!)  E", "\(id["D"]!)  D", "\(id["C"]!)  Café, \"naïve\" — 会议", "\(id["B"]!)  B", "",
        ])
    }

    @Test("a note with no place yet (new, imported, moved in) is listed first, newest first")
    func newNotesComeFirst() throws {
        let id = try fiveNotes()
        try library.moveNote(id["A"]!, placement: .first)
        let older = try library.createNote(title: "Older", in: work, created: Date(timeIntervalSince1970: 1_600_000_000))
        _ = try library.createNote(title: "Newer", in: work, created: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(try titles() == ["Newer", "Older", "A", "E", "D", "C", "B"])
        let elsewhere = try library.createNote(title: "Elsewhere", in: .inbox)
        try library.moveNote(elsewhere.note.id, to: work)
        #expect(try titles().first == "Elsewhere")
        // Placing any note gives every note its current place.
        try library.moveNote(older.note.id, placement: .last)
        #expect(try titles() == ["Elsewhere", "Newer", "A", "E", "D", "C", "B", "Older"])
        #expect(NoteOrderFile(parsing: try String(contentsOf: orderFile, encoding: .utf8)).ids.count == 8)
    }

    @Test("pinned notes stay on top; the order decides among pinned and among unpinned notes")
    func pinnedFirst() throws {
        let id = try fiveNotes()
        try library.updateNote(id["B"]!) { $0.pinned = true }
        try library.updateNote(id["D"]!) { $0.pinned = true }
        #expect(try titles() == ["D", "B", "E", "C", "A"])
        try library.moveNote(id["B"]!, placement: .first)
        #expect(try titles() == ["B", "D", "E", "C", "A"])
        try library.moveNote(id["A"]!, placement: .first)
        #expect(try titles() == ["B", "D", "A", "E", "C"])
        try library.updateNote(id["B"]!) { $0.pinned = false }
        #expect(try titles() == ["D", "A", "B", "E", "C"])
    }

    @Test("listings go notebook by notebook, each in its own order, pinned notes of all of them first")
    func acrossNotebooks() throws {
        let id = try fiveNotes()
        let meetings = try work.appending("Meetings")
        let m = try library.createNote(title: "M1", in: meetings, created: Date(timeIntervalSince1970: 1_900_000_000))
        _ = try library.createNote(title: "I1", in: .inbox)
        try library.moveNote(id["C"]!, placement: .first)
        #expect(try titles() == ["C", "E", "D", "B", "A", "M1"])
        #expect(try library.notes(in: work, recursive: false).map(\.note.title) == ["C", "E", "D", "B", "A"])
        #expect(try library.notes().map(\.note.title) == ["I1", "C", "E", "D", "B", "A", "M1"])
        try library.updateNote(m.note.id) { $0.pinned = true }
        #expect(try library.notes().map(\.note.title) == ["M1", "I1", "C", "E", "D", "B", "A"])
    }

    @Test("a note deleted and restored returns to its place")
    func deleteAndRestore() throws {
        let id = try fiveNotes()
        try library.moveNote(id["A"]!, placement: .first)  // A E D C B
        let item = try library.deleteNote(id["D"]!)
        #expect(try titles() == ["A", "E", "C", "B"])
        #expect(!(try String(contentsOf: orderFile, encoding: .utf8)).contains(id["D"]!.rawValue))
        try library.moveNote(id["B"]!, placement: .first)  // B A E C
        try library.restore(item.id)
        #expect(try titles() == ["B", "A", "E", "D", "C"], "after E, the note that was above it")

        // The note above is gone: it goes above the note that was below it.
        let d = try library.deleteNote(id["D"]!)      // B A E C
        let e = try library.deleteNote(id["E"]!)      // B A C
        try library.restore(d.id)
        #expect(try titles() == ["B", "A", "D", "C"])
        // The last note comes back last, and the first first, whatever moved meanwhile.
        let c = try library.deleteNote(id["C"]!)      // B A D
        try library.deleteNote(id["D"]!)              // B A
        try library.restore(c.id)
        #expect(try titles() == ["B", "A", "C"])
        let b = try library.deleteNote(id["B"]!)      // A C
        try library.moveNote(id["C"]!, placement: .first)
        try library.restore(b.id)
        #expect(try titles() == ["B", "C", "A"])
        // E stood between A and C; with both gone its place means nothing: it is listed with new notes.
        try library.deleteNote(id["A"]!)
        try library.deleteNote(id["C"]!)
        try library.restore(e.id)
        #expect(try titles() == ["E", "B"])
        #expect(NoteOrderFile(parsing: try String(contentsOf: orderFile, encoding: .utf8)).ids == [id["B"]!])
    }

    @Test("a note deleted from a notebook without an order comes back in the default order")
    func restoreWithoutOrder() throws {
        let id = try fiveNotes()
        let item = try library.deleteNote(id["C"]!)
        try library.restore(item.id)
        #expect(try titles() == ["E", "D", "C", "B", "A"])
        #expect(!FileManager.default.fileExists(atPath: orderFile.path))
    }

    @Test("the order travels with its notebook through move, delete and restore")
    func notebookCarriesOrder() throws {
        let id = try fiveNotes()
        try library.moveNote(id["A"]!, placement: .first)
        let archive = try NotebookPath("Archive/Work")
        _ = try library.moveNotebook(work, to: archive)
        #expect(try titles(archive) == ["A", "E", "D", "C", "B"])
        try library.deleteNotebook(archive)
        try library.restore("Work")
        #expect(try titles(archive) == ["A", "E", "D", "C", "B"])
    }

    @Test("moving to another notebook leaves the old order and can place the note in the new one")
    func moveBetweenNotebooks() throws {
        let id = try fiveNotes()
        let home = try NotebookPath("Home")
        let h = try fiveNotes(in: home)
        try library.moveNote(id["A"]!, placement: .first)
        try library.moveNote(h["A"]!, placement: .first)   // Home: A E D C B
        try library.moveNote(id["C"]!, to: home, placement: .after(h["D"]!))
        #expect(try titles() == ["A", "E", "D", "B"])
        #expect(try titles(home) == ["A", "E", "D", "C", "C", "B"])
        #expect(try library.notes(in: home).map(\.note.id)[3] == id["C"]!)
        #expect(!(try String(contentsOf: orderFile, encoding: .utf8)).contains(id["C"]!.rawValue))
        try library.moveNote(id["E"]!, to: home, placement: .last)
        #expect(try library.notes(in: home).last?.note.id == id["E"]!)
        try library.moveNote(id["D"]!, to: home)
        #expect(try library.notes(in: home).first?.note.id == id["D"]!)
    }

    @Test("a refused placement names the reason and changes nothing")
    func refusals() throws {
        let id = try fiveNotes()
        try library.moveNote(id["A"]!, placement: .first)
        let other = try library.createNote(title: "Other", in: .inbox)
        let before = try snapshot()
        #expect(throws: StoreError.invalid("\"Other\" is in \"Inbox\", not in \"Work\"")) {
            try library.moveNote(id["B"]!, placement: .before(other.note.id))
        }
        #expect(throws: StoreError.invalid("\"A\" is in \"Work\", not in \"Home\"")) {
            try library.moveNote(id["B"]!, to: try NotebookPath("Home"), placement: .after(id["A"]!))
        }
        #expect(throws: StoreError.invalid("a note cannot be placed before or after itself")) {
            try library.moveNote(id["B"]!, placement: .after(id["B"]!))
        }
        #expect(throws: StoreError.noSuchNote("000000000000")) {
            try library.moveNote(id["B"]!, placement: .after(NoteID(rawValue: "000000000000")))
        }
        #expect(try snapshot() == before)
    }

    @Test("the file is a hint: missing notes are listed, unknown ids, junk and duplicates are ignored and dropped")
    func fileIsAHint() throws {
        let id = try fiveNotes()
        let gone = NoteID(rawValue: "zzzzzzzzzzzz")
        try Data("""
            # edited by hand
            \(id["B"]!) B
            not an id at all

            \(gone)  a note that no longer exists
            \(id["D"]!)\tD
            \(id["B"]!)  B again
            """.utf8).write(to: orderFile)
        // A, C and E have no place: first, newest first; then B and D as the file says.
        #expect(try titles() == ["E", "C", "A", "B", "D"])
        try library.moveNote(id["A"]!, placement: .last)
        let rewritten = NoteOrderFile(parsing: try String(contentsOf: orderFile, encoding: .utf8)).ids
        #expect(rewritten == ["E", "C", "B", "D", "A"].map { id[$0]! })
        // A damaged file (not UTF-8, truncated) loses no note either.
        try Data([0xFF, 0xFE, 0x00] + Array(id["C"]!.rawValue.prefix(7).utf8)).write(to: orderFile)
        #expect(try titles() == ["E", "D", "C", "B", "A"])
    }

    /// Every file under the library with its bytes (the lock aside).
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: library.root, includingPropertiesForKeys: [.isRegularFileKey])!
        while let url = walker.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock" else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }
}

@Suite("Manual note order under contention")
struct OrderContentionTests {
    @Test("threads placing notes at once, each through its own lock, lose no move")
    func concurrentPlacements() throws {
        let library = try Library.create(at: temporaryFolder().appendingPathComponent("library"))
        let work = try NotebookPath("Work")
        let notes = try (0..<40).map { n in
            try library.createNote(title: "N\(n)", in: work, created: Date(timeIntervalSince1970: 1_700_000_000 + Double(n))).note.id
        }
        try library.moveNote(notes[0], placement: .last)
        let start = try library.notes(in: work).map(\.note.id)
        // Every thread moves a different note of the bottom half to the top. Serialised, those notes end up
        // above the others, which keep their order; a lost update would leave a moved note where it was.
        let moved = Array(start.suffix(20)), unmoved = Array(start.prefix(20))
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: moved.count) { index in
            do { try library.moveNote(moved[index], placement: index.isMultiple(of: 2) ? .first : .before(start[0])) } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        let final = try library.notes(in: work).map(\.note.id)
        #expect(Set(final.prefix(20)) == Set(moved))
        #expect(Array(final.suffix(20)) == unmoved)
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ text: String) { lock.withLock { list.append(text) } }
    var all: [String] { lock.withLock { list } }
}
