import Foundation
import Testing

@Suite("inkwell note text and note check")
struct NoteTextCommandTests {
    let cli = CLI()

    func noteFolder(_ title: String) throws -> URL {
        let notes = try cli.json(["note", "list"]) as! [[String: Any]]
        let id = try #require(notes.first { $0["title"] as? String == title }?["id"] as? String)
        let notebook = try #require(notes.first { $0["title"] as? String == title }?["notebook"] as? String)
        return cli.library.appendingPathComponent("notebooks").appendingPathComponent(notebook).appendingPathComponent("\(id).note")
    }

    @Test("--set - reads standard input, --append a file; the text prints back exactly, numbered on request")
    func setAndAppend() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Groceries"])
        let set = try cli.run(["note", "text", "Groceries", "--set", "-"], stdin: "# Shop\n- [ ] milk #food\n")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("2 lines") && set.stdout.contains("tagged #food"))
        let more = try cli.write("more.md", "- [ ] eggs\n- [!] coffee\n")
        try cli.ok(["note", "text", "Groceries", "--append", more])
        let text = "# Shop\n- [ ] milk #food\n- [ ] eggs\n- [!] coffee\n"
        #expect(try cli.ok(["note", "text", "Groceries"]) == text)
        #expect(try String(contentsOf: noteFolder("Groceries").appendingPathComponent("body.md"), encoding: .utf8) == text)
        #expect(try cli.ok(["note", "text", "Groceries", "--numbered"]) == "1  # Shop\n2  - [ ] milk #food\n3  - [ ] eggs\n4  - [!] coffee\n")
        let parsed = try cli.json(["note", "text", "Groceries"]) as! [String: Any]
        let kinds = (parsed["lines"] as! [[String: Any]]).map { $0["kind"] as! String }
        #expect(kinds == ["heading", "task", "task", "task"])
        let tags = (try cli.json(["note", "list"]) as! [[String: Any]])[0]["tags"] as! [String]
        #expect(tags == ["food"])
    }

    @Test("note check toggles the line and saves at once; a line that is not a checkbox changes nothing")
    func check() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "List"])
        _ = try cli.run(["note", "text", "List", "--set", "-"], stdin: "# List\n- [ ] milk\n- [?] bread\n")
        let ticked = try cli.ok(["note", "check", "List", "--line", "2"])
        #expect(ticked.contains("[ ] → [x]"))
        // A new process reads what the last one saved.
        #expect(try cli.ok(["note", "text", "List"]) == "# List\n- [x] milk\n- [?] bread\n")
        try cli.ok(["note", "check", "List", "--line", "3"])
        try cli.ok(["note", "check", "List", "--line", "2"])
        #expect(try cli.ok(["note", "text", "List"]) == "# List\n- [ ] milk\n- [x] bread\n")

        let before = try cli.snapshot()
        for (line, reason) in [("1", "line 1 is a heading, not a checkbox"), ("9", "there is no line 9")] {
            let refused = try cli.run(["note", "check", "List", "--line", line])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains(reason) && refused.stderr.contains("\"List\""), "\(refused.stderr)")
        }
        #expect(try cli.snapshot() == before)
    }

    @Test("text that is not UTF-8 is refused, naming the file and byte, and nothing changes")
    func notUTF8() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Kept"])
        _ = try cli.run(["note", "text", "Kept", "--set", "-"], stdin: "original\n")
        let bad = try cli.write("latin1.md", "")
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: bad))  // "café" in Latin-1
        let before = try cli.snapshot()
        for option in ["--set", "--append"] {
            let refused = try cli.run(["note", "text", "Kept", option, bad])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("\(bad): not valid UTF-8 at byte 3"), "\(refused.stderr)")
        }
        let missing = try cli.run(["note", "text", "Kept", "--set", "/nonexistent/file.md"])
        #expect(missing.status != 0 && missing.stderr.contains("/nonexistent/file.md: cannot be read"))
        let folder = try cli.run(["note", "text", "Kept", "--set", cli.root.path])
        #expect(folder.status != 0 && folder.stderr.contains("\(cli.root.path): is a folder, not a text file"), "\(folder.stderr)")
        #expect(!folder.stderr.contains("NSCocoaErrorDomain"))
        #expect(try cli.snapshot() == before)

        // A body.md damaged outside Inkwell: check names it and exits 1; note text says why.
        try Data([0x6F, 0x6B, 0xFF]).write(to: noteFolder("Kept").appendingPathComponent("body.md"))
        let check = try cli.run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("body.md: typed text unreadable") && check.stdout.contains("not valid UTF-8 at byte 2"))
        let show = try cli.run(["note", "text", "Kept"])
        #expect(show.status != 0 && show.stderr.contains("body.md: not valid UTF-8 at byte 2"))
    }

    @Test("note show counts words, characters and reading time; search finds typed words and says so")
    func showAndSearch() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Essay"])
        let words = (1...476).map { "word\($0)" }.joined(separator: " ")
        _ = try cli.run(["note", "text", "Essay", "--set", "-"], stdin: "# Title here\n\(words) pangolin\n")
        let details = try cli.json(["note", "show", "Essay"]) as! [String: Any]
        let typed = details["typedText"] as! [String: Any]
        #expect(typed["words"] as? Int == 479)
        #expect(typed["characters"] as? Int == "Title here".count + words.count + " pangolin".count)
        #expect(typed["readingMinutes"] as? Int == 3)
        #expect(typed["wordsPerMinute"] as? Int == 238)
        #expect(try cli.ok(["note", "show", "Essay"]).contains("typed     2 lines, 479 words"))

        let found = try cli.ok(["search", "pangolin"])
        #expect(found.contains("Essay") && found.contains("typed text") && found.contains("«pangolin»"))
        let hits = try cli.json(["search", "pangolin"]) as! [[String: Any]]
        #expect(hits.count == 1 && hits[0]["typedText"] as? Bool == true)
    }
}
