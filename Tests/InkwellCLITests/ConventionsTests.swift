import Foundation
import Testing

/// One set of conventions on every command (issue 32, item 3): `-q`, `-v` and `--json` everywhere,
/// `--dry-run` on every destructive command, and `import -` reading standard input.
@Suite("inkwell conventions")
struct ConventionsTests {
    let cli = CLI()

    /// A replay log of one note with `strokes` strokes; with `undoLast`, the last one is undone after
    /// the autosave wrote it, so the page file keeps a dead stroke for `compact` to drop.
    func recording(title: String? = nil, strokes: Int = 2, undoLast: Bool = false) -> String {
        var lines = title.map { [line(["type": "note", "title": $0])] } ?? []
        for index in 0..<strokes { lines += strokeLines(at: Double(index), y: 300 + Double(index) * 40) }
        if undoLast { lines.append(line(["type": "undo", "t": 10.0])) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every command of the tree under `path`, found from the help's SUBCOMMANDS sections.
    func commands(under path: [String] = []) throws -> [[String]] {
        let help = try cli.ok(path + ["--help"])
        guard let section = help.range(of: "SUBCOMMANDS:") else { return [path] }
        // Rows "  name   abstract" up to the first blank line; wrapped abstracts are indented deeper.
        let names = help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLetter == true }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "help" }
        return try names.flatMap { try commands(under: path + [$0]) }
    }

    @Test("every command takes --json, -q/--quiet and -v/--verbose")
    func everyCommandTakesTheSharedOptions() throws {
        let all = try commands()
        #expect(all.count >= 40, "found only \(all.map { $0.joined(separator: " ") })")
        for command in all {
            let help = try cli.ok(command + ["--help"])
            let name = command.joined(separator: " ")
            #expect(help.contains("--json"), "inkwell \(name) has no --json")
            #expect(help.contains("-q, --quiet"), "inkwell \(name) has no -q/--quiet")
            #expect(help.contains("-v, --verbose"), "inkwell \(name) has no -v/--verbose")
        }
        let both = try cli.run(["stats", "-q", "-v"])
        #expect(both.status == 64 && both.stderr.contains("choose one"), "\(both.stderr)")
    }

    @Test("-q silences notes on standard error but never errors; -v adds a line per file and the time taken")
    func quietAndVerbose() throws {
        try cli.ok(["init"])
        let empty = try cli.run(["note", "list"])
        #expect(empty.status == 0 && empty.stderr.contains("no notes match"))
        let quiet = try cli.run(["note", "list", "-q"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let failing = try cli.run(["note", "show", "nothing-like-it", "--quiet"])
        #expect(failing.status == 1 && failing.stderr.contains("nothing-like-it"), "an error is said under --quiet: \(failing.stderr)")

        let file = try cli.write("standup.jsonl", recording(title: "Standup"))
        let verbose = try cli.run(["import", file, "--no-recognize", "-v"])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("\(file): jsonl, 1 note"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("import took"), "\(verbose.stderr)")
        let normal = try cli.run(["import", file, "--no-recognize"])
        #expect(normal.status == 0 && !normal.stderr.contains("took"), "\(normal.stderr)")
    }

    @Test("import - reads standard input: format sniffed, titled stdin, the same bytes again left as they are, other bytes a new note")
    func importStandardInput() throws {
        try cli.ok(["init"])
        let first = try cli.run(["import", "-", "--no-recognize", "--json"], stdin: recording())
        #expect(first.status == 0, "\(first.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as! [String: Any]
        let imported = (report["imported"] as! [[String: Any]]).first!
        #expect(imported["file"] as? String == "-" && imported["format"] as? String == "jsonl", "\(imported)")
        let note = (imported["notes"] as! [[String: Any]]).first!
        #expect(note["title"] as? String == "stdin" && note["pages"] as? Int == 1)

        let shown = try cli.json(["note", "show", note["id"] as! String]) as! [String: Any]
        let origin = shown["origin"] as! [String: Any]
        #expect((origin["key"] as? String)?.hasPrefix("stdin:") == true && origin["location"] == nil, "\(origin)")

        let again = try cli.run(["import", "-", "--no-recognize"], stdin: recording())
        #expect(!again.stderr.contains("could not be read"), "the note imported from standard input must stay readable: \(again.stderr)")
        #expect(again.status == 0 && again.stdout.contains("unchanged \(note["id"] as! String) \"stdin\" in Inbox: standard input is as imported"), "\(again.stdout) \(again.stderr)")
        let titled = try cli.run(["import", "-", "--no-recognize"], stdin: recording(title: "Piped", strokes: 3))
        #expect(titled.status == 0 && titled.stdout.contains("\"Piped\""), "\(titled.stdout)")
        let notes = try cli.json(["note", "list"]) as! [[String: Any]]
        #expect(notes.map { $0["title"] as! String }.sorted() == ["Piped", "stdin"])

        let before = try cli.snapshot()
        let bad = try cli.run(["import", "-"], stdin: "{\"type\":\"down\",\"t\":0,\"x\":1}\nnot json\n")
        #expect(bad.status == 1 && bad.stderr.contains("standard input") && !bad.stderr.contains("inkwell-stdin"), "\(bad.stderr)")
        let nothing = try cli.run(["import", "-"], stdin: "")
        #expect(nothing.status == 1 && nothing.stderr.contains("nothing on standard input"), "\(nothing.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("--dry-run on compact, trash empty, notebook delete and note delete prints the plan and changes no byte")
    func dryRuns() throws {
        try cli.ok(["init"])
        try cli.ok(["notebook", "create", "Work/Old"])
        let file = try cli.write("undone.jsonl", recording(title: "Undone", strokes: 3, undoLast: true))
        try cli.ok(["import", file, "--no-recognize", "--notebook", "Work/Old"])
        try cli.ok(["note", "create", "Scrap"])
        try cli.ok(["note", "delete", "Scrap"])

        var before = try cli.snapshot()
        let compactPlan = try cli.json(["compact", "--dry-run"]) as! [[String: Any]]
        #expect(compactPlan.count == 1 && compactPlan.first?["strokesDropped"] as? Int == 1, "\(compactPlan)")
        let trashPlan = try cli.json(["trash", "empty", "--dry-run"]) as! [String: Any]
        #expect(trashPlan["dryRun"] as? Bool == true && (trashPlan["deleted"] as! [[String: Any]]).map { $0["title"] as! String } == ["Scrap"])
        let notebookPlan = try cli.json(["notebook", "delete", "Work", "--dry-run"]) as! [String: Any]
        #expect(notebookPlan["notebooks"] as? [String] == ["Work/Old"], "\(notebookPlan)")
        #expect((notebookPlan["notes"] as! [[String: Any]]).map { $0["title"] as! String } == ["Undone"])
        let notePlan = try cli.json(["note", "delete", "Undone", "--dry-run"]) as! [String: Any]
        #expect((notePlan["note"] as! [String: Any])["title"] as? String == "Undone")
        let text = try cli.ok(["notebook", "delete", "Work", "--dry-run"])
        #expect(text.contains("would move notebook Work") && text.contains("Undone"), "\(text)")
        let typo = try cli.run(["notebook", "delete", "Wrok", "--dry-run"])
        #expect(typo.status == 1 && typo.stderr.contains("did you mean \"Work\""), "\(typo.stderr)")
        #expect(try cli.snapshot() == before, "a dry run changed the library")

        // Done for real, each says in JSON what it changed.
        let compacted = try cli.json(["compact"]) as! [[String: Any]]
        #expect(compacted.count == 1)
        #expect(try cli.snapshot() != before)
        before = try cli.snapshot()
        #expect((try cli.json(["compact", "--dry-run"]) as! [[String: Any]]).isEmpty, "compacted pages have nothing left to drop")
        let emptied = try cli.json(["trash", "empty", "--yes"]) as! [String: Any]
        #expect(emptied["dryRun"] as? Bool == false && (emptied["deleted"] as! [Any]).count == 1)
        let deleted = try cli.json(["notebook", "delete", "Work"]) as! [String: Any]
        #expect(deleted["kind"] as? String == "notebook" && deleted["title"] as? String == "Work" && deleted["notes"] as? Int == 1)
    }

    @Test("commands that change things print what they changed with --json")
    func changesInJSON() throws {
        let initial = try cli.json(["init"]) as! [String: Any]
        #expect(initial["created"] as? Bool == true && initial["library"] as? String == cli.library.path)
        #expect((try cli.json(["init"]) as! [String: Any])["created"] as? Bool == false)

        #expect((try cli.json(["notebook", "create", "Work"]) as! [String: Any])["path"] as? String == "Work")
        let renamed = try cli.json(["notebook", "rename", "Work", "Job"]) as! [String: Any]
        #expect(renamed["path"] as? String == "Job" && renamed["from"] as? String == "Work")
        let moved = try cli.json(["notebook", "move", "Job", "Archive/Job"]) as! [String: Any]
        #expect(moved["path"] as? String == "Archive/Job" && moved["from"] as? String == "Job")

        let id = (try cli.json(["note", "create", "Plan"]) as! [String: Any])["id"] as! String
        let note = try cli.json(["note", "rename", id, "Plan B"]) as! [String: Any]
        #expect(note["id"] as? String == id && note["title"] as? String == "Plan B")
        #expect((try cli.json(["note", "pin", id]) as! [String: Any])["pinned"] as? Bool == true)
        #expect((try cli.json(["note", "move", id, "Archive/Job"]) as! [String: Any])["notebook"] as? String == "Archive/Job")
        let trashed = try cli.json(["note", "delete", id]) as! [String: Any]
        #expect(trashed["kind"] as? String == "note" && trashed["note"] as? String == id)
        let restored = try cli.json(["trash", "restore", trashed["id"] as! String]) as! [String: Any]
        #expect(restored["note"] as? String == id && restored["title"] as? String == "Plan B")

        let rule = try cli.json(["route", "add", "#work", "Archive/Job"]) as! [String: Any]
        #expect(rule["number"] as? Int == 1 && rule["tags"] as? [String] == ["work"] && rule["notebook"] as? String == "Archive/Job")
        #expect((try cli.json(["route", "remove", "1"]) as! [String: Any])["pattern"] as? String == "#work")

        let samples = cli.root.appendingPathComponent("samples")
        let sample = try cli.json(["sample", "-o", samples.path, "--sentences", "1"]) as! [String: Any]
        let files = sample["files"] as! [String]
        #expect(files.count == 2 && files.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(files)")
    }
}
