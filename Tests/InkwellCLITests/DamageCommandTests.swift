import Foundation
import Testing

/// One damaged, duplicated or sync-conflicted note costs that note only, as a person using the
/// command sees it (issue 31): every command goes on for the other notes, says once what it
/// skipped, `check` names it, `check --repair` and `resolve` mend it.
@Suite("Damage stays where it is: the command")
struct DamageCommandTests {
    let cli = CLI()

    /// A library with two notes, "Intact" and "Fragile", each with typed text; returns Fragile's folder.
    func twoNotes() throws -> URL {
        try cli.ok(["init"])
        for title in ["Intact", "Fragile"] {
            try cli.ok(["note", "create", title])
            _ = try cli.run(["note", "text", title, "--set", "-"], stdin: "about \(title) #kept\n")
        }
        let id = try #require((try cli.json(["note", "list"]) as? [[String: Any]])?.first { $0["title"] as? String == "Fragile" }?["id"] as? String)
        return cli.library.appendingPathComponent("notebooks/Inbox/\(id).note")
    }

    @Test("a garbage note.json: list, stats, search and export go on for the other notes with one warning; check names it; check --repair rebuilds it")
    func garbageNoteJSON() throws {
        let fragile = try twoNotes()
        try Data("{ garbage".utf8).write(to: fragile.appendingPathComponent("note.json"))
        for command in [["note", "list"], ["stats"], ["search", "about"], ["export", "--all", "--format", "md", "-o", cli.root.appendingPathComponent("out").path]] {
            let result = try cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: "could not be read and was skipped").count == 2, "\(command): \(result.stderr)")
            #expect(!result.stdout.contains("Fragile"), "\(command)")
        }
        #expect(try cli.ok(["note", "list"]).contains("Intact"))
        let check = try cli.run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("\(fragile.path): unreadable note") && check.stdout.contains("1 unreadable note"), "\(check.stdout)")
        let repaired = try cli.run(["check", "--repair"])
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(repaired.stderr.contains("rebuilt note.json") && repaired.stderr.contains("guessed the title \"about Fragile #kept\""), "\(repaired.stderr)")
        #expect(try cli.ok(["note", "list"]).contains("about Fragile"))
    }

    @Test("one note in two notebook folders (merged synced copies): stats and list work, commands refuse it, check --repair splits it")
    func duplicateNote() throws {
        let fragile = try twoNotes()
        try cli.ok(["notebook", "create", "Work"])
        try FileManager.default.copyItem(at: fragile, to: cli.library.appendingPathComponent("notebooks/Work/\(fragile.lastPathComponent)"))
        #expect(try cli.run(["stats"]).status == 0)
        #expect((try cli.json(["note", "list"]) as? [Any])?.count == 3)
        let tag = try cli.run(["note", "tag", "Fragile", "--add", "x"])
        #expect(tag.status != 0 && tag.stderr.contains("is in 2 folders"), "\(tag.stderr)")
        #expect(try cli.run(["check"]).stdout.contains("note found twice"))
        #expect(try cli.run(["check", "--repair"]).status == 0)
        #expect(try cli.run(["note", "tag", "Fragile", "--add", "x"]).status != 0)  // two notes titled Fragile now: ambiguous by title
        let ids = Set(((try cli.json(["note", "list"]) as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(ids.count == 3)
    }

    @Test("conflict copies: check and note show list them, resolve merges the other device's text and tags")
    func conflicts() throws {
        let fragile = try twoNotes()
        try Data("about Fragile #kept\nfrom the laptop #laptop\n".utf8).write(to: fragile.appendingPathComponent("body (conflicted copy).md"))
        let check = try cli.run(["check"])
        #expect(check.status == 1 && check.stdout.contains("conflict copy"), "\(check.stdout)")
        #expect(try cli.ok(["note", "show", "Fragile"]).contains("body (conflicted copy).md"))
        let resolved = try cli.ok(["resolve", "Fragile"])
        #expect(resolved.contains("merged 1 conflict copy"), "\(resolved)")
        let text = try cli.ok(["note", "text", "Fragile"])
        #expect(text.contains("from the laptop #laptop") && text.contains("From another device's copy"), "\(text)")
        #expect(try cli.ok(["note", "show", "Fragile"]).contains("#laptop"))
        #expect(try cli.run(["check"]).status == 0)
        #expect(try cli.ok(["trash", "list"]).contains("before resolving conflicts"))
    }

    @Test("a garbage index.sqlite is set aside with a notice, and search and index --rebuild work")
    func garbageIndex() throws {
        _ = try twoNotes()
        try Data(repeating: 0x41, count: 4096).write(to: cli.library.appendingPathComponent("index.sqlite"))
        let search = try cli.run(["search", "Intact"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("Intact") && search.stderr.contains("was damaged; it was set aside"), "\(search.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: cli.library.path)
        #expect(names.contains { $0.hasPrefix("index.sqlite.damaged-") }, "\(names)")
        try Data(repeating: 0x41, count: 4096).write(to: cli.library.appendingPathComponent("index.sqlite"))
        // The notes have no pages: the rebuild recognises nothing, it only has to open the index.
        let rebuild = try cli.run(["index", "--rebuild"])
        #expect(rebuild.status == 0 && rebuild.stderr.contains("set aside"), "\(rebuild.stderr)")
    }
}
