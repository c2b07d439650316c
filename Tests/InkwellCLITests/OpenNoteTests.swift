import Foundation
import InkwellKit
import InkStore
import Testing

/// A note open for writing in `inkwell serve` has one owner across processes (issue 40): the
/// server's lease on it makes `note delete`, `notebook delete`, `trash empty` and `sync` refuse to
/// take it (and its confirmed strokes) away, naming the server; a journal goes with its note into
/// the trash and back, so no confirmed stroke is orphaned.
@Suite("A note open in serve, from other commands")
struct OpenNoteTests {
    let cli = CLI()

    func log(_ title: String, _ ys: [Double]) -> String {
        ([#"{"type":"header","version":1}"#, #"{"type":"note","title":"\#(title)"}"#]
            + ys.enumerated().flatMap { strokeLines(at: Double($0.offset), y: $0.element, points: 4) })
            .joined(separator: "\n") + "\n"
    }

    /// A journal for `note` holding one stroke on a new page, as a server killed before saving leaves it.
    func writeJournal(of note: NoteID, in library: Library) async throws -> PageID {
        let page = PageID.random()
        let stroke = Stroke(id: StrokeID(7), width: 2, startTime: 0,
                            points: [InkPoint(x: 10, y: 10, pressure: 0.5, time: 0), InkPoint(x: 50, y: 60, pressure: 0.5, time: 10)])
        let entry = JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(), added: [stroke])], keys: ["k1"])
        try FileManager.default.createDirectory(at: library.journalURL(of: note).deletingLastPathComponent(), withIntermediateDirectories: true)
        try await NoteJournal(url: library.journalURL(of: note)).append(entry)
        return page
    }

    @Test("note delete, notebook delete and trash empty refuse a note a server holds, naming its pid; --force goes ahead")
    func deleteRefused() throws {
        try cli.ok(["init"])
        try cli.ok(["notebook", "create", "Work"])
        let id = try #require((try cli.json(["note", "create", "Plan", "--notebook", "Work"]) as? [String: Any])?["id"] as? String)
        let library = try Library(opening: cli.library)
        var lease: NoteLease? = try library.leaseNote(NoteID(rawValue: id))
        let reason = "is open for writing in serve, pid \(getpid()); close it or use --force"
        for command in [["note", "delete", id], ["notebook", "delete", "Work"]] {
            let refused = try cli.run(command)
            #expect(refused.status == 1 && refused.stderr.contains(reason), "\(command): \(refused.stderr)")
        }
        #expect((try cli.json(["note", "list"]) as? [Any])?.count == 1, "the note stayed")

        try cli.ok(["note", "delete", id, "--force"])
        let empty = try cli.run(["trash", "empty", "--yes"])
        #expect(empty.status == 1 && empty.stderr.contains(reason), "\(empty.stderr)")
        #expect((try cli.json(["trash", "list"]) as? [Any])?.count == 1)
        withExtendedLifetime(lease) {}
        lease = nil
        #expect(library.leaseHolder(of: NoteID(rawValue: id)) == nil, "a dropped lease holds nothing")
        try cli.ok(["trash", "empty", "--yes"])
    }

    @Test("note move to another notebook refuses a note a server holds, naming its pid; a place in its own notebook is allowed; --force goes ahead")
    func moveRefused() throws {
        try cli.ok(["init"])
        try cli.ok(["notebook", "create", "Work"])
        let id = try #require((try cli.json(["note", "create", "Plan", "--notebook", "Work"]) as? [String: Any])?["id"] as? String)
        let library = try Library(opening: cli.library)
        let lease = try library.leaseNote(NoteID(rawValue: id))
        func notebook() throws -> String? { ((try cli.json(["note", "list"]) as? [[String: Any]])?.first)?["notebook"] as? String }
        let refused = try cli.run(["note", "move", id, "Archive", "--create"])
        #expect(refused.status == 1 && refused.stderr.contains("is open for writing in serve, pid \(getpid()); close it or use --force"),
                "\(refused.stderr)")
        #expect(try notebook() == "Work", "the note stayed")
        try cli.ok(["note", "move", id, "--first"])
        try cli.ok(["note", "move", id, "Archive", "--create", "--force"])
        #expect(try notebook() == "Archive")
        withExtendedLifetime(lease) {}
    }

    @Test("a notebook holding a note open for writing is neither renamed nor moved (its folder is the note's), unless --force")
    func notebookMoveRefused() throws {
        try cli.ok(["init"])
        try cli.ok(["notebook", "create", "Work/Projects"])
        let id = try #require((try cli.json(["note", "create", "Plan", "--notebook", "Work/Projects"]) as? [String: Any])?["id"] as? String)
        let library = try Library(opening: cli.library)
        let lease = try library.leaseNote(NoteID(rawValue: id))
        func notebook() throws -> String? { ((try cli.json(["note", "list"]) as? [[String: Any]])?.first)?["notebook"] as? String }
        for arguments in [["notebook", "rename", "Work", "Jobs"], ["notebook", "move", "Work/Projects", "Archive/Projects"],
                          ["notebook", "rename", "Work/Projects", "Plans"]] {
            let refused = try cli.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("is open for writing in serve, pid \(getpid()); close it or use --force"),
                    "\(arguments): \(refused.stderr)")
            #expect(try notebook() == "Work/Projects", "\(arguments) left the note where it was")
        }
        try cli.ok(["notebook", "create", "Other"])
        try cli.ok(["notebook", "rename", "Other", "Elsewhere"])
        try cli.ok(["notebook", "rename", "Work", "Jobs", "--force"])
        #expect(try notebook() == "Jobs/Projects")
        withExtendedLifetime(lease) {}
    }

    @Test("a note's journal goes into the trash with it and comes back on restore; emptying the trash leaves no orphan journal")
    func journalTravels() async throws {
        try cli.ok(["init"])
        let id = try #require((try cli.json(["note", "create", "Plan"]) as? [String: Any])?["id"] as? String)
        let note = NoteID(rawValue: id)
        let library = try Library(opening: cli.library)
        let page = try await writeJournal(of: note, in: library)
        try cli.ok(["note", "delete", id])
        #expect(!FileManager.default.fileExists(atPath: library.journalURL(of: note).path), "the journal left with its note")
        let check = try cli.run(["check"])
        #expect(!check.stdout.contains("journal not replayed") && !check.stderr.contains("journal not replayed"), "\(check.stdout)\(check.stderr)")

        try cli.ok(["trash", "restore", id])
        #expect(FileManager.default.fileExists(atPath: library.journalURL(of: note).path), "the journal came back")
        try cli.ok(["check"])
        let pages = try library.pages(of: try library.note(matching: id))
        #expect(pages.map(\.id) == [page] && pages.first?.strokes.map(\.id) == [StrokeID(7)], "the journal's stroke is in the note")

        _ = try await writeJournal(of: note, in: library)
        try cli.ok(["note", "delete", id])
        try cli.ok(["trash", "empty", "--yes"])
        #expect(library.notesWithJournal().isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cli.library.appendingPathComponent(".journal").path)) ?? [])
            .filter { $0.hasSuffix(".journal") }.isEmpty, "no orphan journal")
    }

    @Test("sync neither trashes nor updates a note a server holds: it says why, and the note keeps its pages")
    func syncRefused() throws {
        try cli.ok(["init"])
        let a = try cli.write("a.jsonl", log("A", [300]))
        let b = try cli.write("b.jsonl", log("B", [300]))
        let folder = URL(fileURLWithPath: a).deletingLastPathComponent().path
        try cli.ok(["sync", folder, "--no-recognize"])
        let notes = try #require(try cli.json(["note", "list"]) as? [[String: Any]])
        let ids = Dictionary(uniqueKeysWithValues: notes.compactMap { row in (row["title"] as? String).map { ($0, NoteID(rawValue: row["id"] as! String)) } })
        let library = try Library(opening: cli.library)
        let leases = try [library.leaseNote(try #require(ids["A"])), library.leaseNote(try #require(ids["B"]))]
        try FileManager.default.removeItem(atPath: b)
        let trashing = try cli.run(["sync", folder, "--no-recognize"])
        #expect(trashing.status == 1 && trashing.stderr.contains("\"B\": not moved to the trash: note")
                && trashing.stderr.contains("open for writing in serve, pid \(getpid())"), "\(trashing.stderr)")
        _ = try cli.write("a.jsonl", log("A", [300, 500]))
        let updating = try cli.run(["sync", folder, "--no-recognize"])
        #expect(updating.status == 1 && updating.stderr.contains("\"A\" was not updated (it is as it was)")
                && updating.stderr.contains("open for writing in serve, pid \(getpid())"), "\(updating.stderr)")
        #expect(Set(((try cli.json(["note", "list"]) as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }) == ["A", "B"])
        #expect(try library.pages(of: try library.note(matching: try #require(ids["A"]).rawValue)).first?.strokes.count == 1,
                "A kept its page as it was")
        withExtendedLifetime(leases) {}
    }
}
