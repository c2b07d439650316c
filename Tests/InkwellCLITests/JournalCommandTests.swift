import Foundation
import InkwellKit
import InkStore
import Testing

/// A journal `inkwell serve` left when it was killed before saving (issue 29): `check` names it, and
/// the next `inkwell serve` puts its strokes into the page before it listens.
@Suite("Journal left by a killed server")
struct JournalCommandTests {
    let cli = CLI()

    @Test("check lists the journal without calling it damage; serve starting replays it once")
    func checkAndServeReplay() async throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Killed"])
        let library = try Library(opening: cli.library)
        let note = try library.notes()[0].note.id
        let page = PageID.random()
        let stroke = Stroke(id: StrokeID(1), points: [InkPoint(x: 10, y: 10, pressure: 0.5), InkPoint(x: 40, y: 30, pressure: 0.5)])
        let journal = NoteJournal(url: library.journalURL(of: note))
        try await journal.append(JournalEntry(pages: [JournalPageChange(page: page, size: .remarkable, template: PageTemplate(),
                                                                         added: [stroke])], keys: ["w:1"]))

        let check = try cli.run(["check"])
        #expect(check.status == 0, "a journal is not damage: \(check.stdout)")
        #expect(check.stdout.contains(library.journalURL(of: note).path) && check.stdout.contains("applies them"), "\(check.stdout)")
        let rows = try #require(try cli.json(["check"]) as? [[String: Any]])
        #expect(rows.contains { $0["kind"] as? String == "journal" && $0["note"] as? String == note.rawValue })

        // The server replays before it listens: once it printed its address, the page is stored.
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
        serve.terminate()
        serve.waitUntilExit()
        #expect(String(decoding: line, as: UTF8.self).contains("http://"))
        let shown = try #require(try cli.json(["note", "show", note.rawValue]) as? [String: Any])
        let pages = try #require(shown["pages"] as? [[String: Any]])
        #expect(pages.map { $0["strokes"] as? Int } == [1])
        #expect(!(try cli.ok(["check"])).contains(".journal"))
        // Started again, it finds nothing to replay: the stroke is not doubled.
        let again = try Library(opening: cli.library)
        #expect(try again.replayJournal(of: note).strokesAdded == 0)
        #expect(try again.pages(of: again.note(matching: note.rawValue)).map(\.strokes.count) == [1])
    }
}
