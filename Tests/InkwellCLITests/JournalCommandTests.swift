import Foundation
import InkwellKit
import InkStore
import Testing

/// A journal `inkwell serve` left when it was killed before saving (issue 29): `check` applies it
/// (or, while a server runs, only names it), and the next `inkwell serve` applies it before it listens.
@Suite("Journal left by a killed server")
struct JournalCommandTests {
    let cli = CLI()

    /// A note with one stroke in its journal and none in its pages.
    func noteWithJournal() async throws -> (Library, NoteID) {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Killed"])
        let library = try Library(opening: cli.library)
        let note = try library.notes()[0].note.id
        let page = PageID.random()
        let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: 10, y: 10, pressure: 0.5), InkPoint(x: 40, y: 30, pressure: 0.5)])
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await journal.append(JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(),
                                                                         added: [stroke])], keys: ["w:1"]))
        return (library, note)
    }

    func storedStrokes(_ note: NoteID) throws -> [Int?] {
        let shown = try #require(try cli.json(["note", "show", note.rawValue]) as? [String: Any])
        return try #require(shown["pages"] as? [[String: Any]]).map { $0["strokes"] as? Int }
    }

    /// Starts `inkwell serve` on the library; returns once it printed its address (it has replayed
    /// the journals by then).
    func startServer() throws -> Process {
        let serve = Process()
        serve.executableURL = CLI.executable
        serve.arguments = ["serve", "--library", cli.library.path, "--port", "0", "--no-recognize"]
        let out = Pipe()
        serve.standardOutput = out
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        #expect(String(decoding: line, as: UTF8.self).contains("http://"))
        return serve
    }

    @Test("check applies a killed server's journal once, and says so")
    func checkReplays() async throws {
        let (library, note) = try await noteWithJournal()
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stderr.contains("note \(note.rawValue): journal replayed (1 stroke(s) added"), "\(check.stderr)")
        #expect(try storedStrokes(note) == [1])
        #expect(library.notesWithJournal().isEmpty)
        let again = try cli.run(["check"])
        #expect(!again.stderr.contains("journal"), "\(again.stderr)")
        #expect(try storedStrokes(note) == [1])
    }

    @Test("while a server runs, check lists the journal without touching it; the next serve replays it once")
    func checkLeavesAServersJournal() async throws {
        let (library, note) = try await noteWithJournal()
        // A server is running (on another note, say): the journal may be its own, so check only lists it.
        let lease = try library.holdLiveLease()

        let check = try cli.run(["check"])
        #expect(check.status == 0, "a journal is not damage: \(check.stdout)")
        #expect(check.stdout.contains(library.journalURL(of: note).path) && check.stdout.contains("not saved into its pages yet"), "\(check.stdout)")
        let rows = try #require(try cli.json(["check"]) as? [[String: Any]])
        #expect(rows.contains { $0["kind"] as? String == "journal" && $0["note"] as? String == note.rawValue })
        #expect(try storedStrokes(note).isEmpty)
        withExtendedLifetime(lease) {}

        // The server replays before it listens: once it printed its address, the page is stored.
        let serve = try startServer()
        serve.terminate()
        serve.waitUntilExit()
        #expect(try storedStrokes(note) == [1])
        #expect(!(try cli.ok(["check"])).contains(".journal"))
        // Started again, it finds nothing to replay: the stroke is not doubled.
        let again = try Library(opening: cli.library)
        #expect(try again.replayJournal(of: note).strokesAdded == 0)
        #expect(try again.pages(of: again.note(matching: note.rawValue)).map(\.strokes.count) == [1])
    }

    @Test("note show, render and export of a note with strokes only in its journal warn, naming it, and change nothing")
    func readingCommandsWarn() async throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Half saved"])
        let library = try Library(opening: cli.library)
        let note = try library.notes()[0].note.id
        let page = PageID.random()
        let line = { (id: UInt64) in Stroke(id: StrokeID(id), points: [InkPoint(x: 10, y: 10 * Float(id)), InkPoint(x: 300, y: 10 * Float(id))]) }
        try library.save([PageDelta(pageID: page, isNew: true, addedStrokes: [line(1)])], to: note)
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await journal.append(JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(),
                                                                         added: [line(1), line(2)])], keys: ["w:1", "w:2"]))
        let before = try cli.snapshot()
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let commands = [["note", "show", note.rawValue], ["render", note.rawValue, "--format", "svg", "-o", out.appendingPathComponent("p.svg").path],
                        ["export", note.rawValue, "--format", "svg", "-o", out.path]]
        for arguments in commands {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("warning: note \(note.rawValue) \"Half saved\": 1 stroke(s) only in its journal")
                    && result.stderr.contains("`inkwell check` or starting `inkwell serve` applies it"), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.snapshot() == before, "reading commands leave the library and the journal as they were")
        try cli.ok(["check"])
        let after = try cli.run(["note", "show", note.rawValue])
        #expect(!after.stderr.contains("journal"), "\(after.stderr)")
    }
}
