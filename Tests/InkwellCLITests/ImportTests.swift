import Foundation
import Testing

@Suite("inkwell import")
struct ImportTests {
    let cli = CLI()

    @Test("a replay log becomes a note with its pages, strokes and tags; with --no-recognize its pages wait for `inkwell index`")
    func importReplayLog() throws {
        try cli.ok(["init"])
        let log = ([
            line(["type": "header", "version": 1]),
            line(["type": "note", "title": "Standup", "notebook": "Work/Meetings", "tags": ["daily"]]),
            line(["type": "page", "template": "lined"]),
        ] + strokeLines(at: 0) + strokeLines(at: 1, y: 400)
          + [line(["type": "page"])] + strokeLines(at: 2, points: 5)).joined(separator: "\n")
        let path = try cli.write("standup.jsonl", log)
        let report = try cli.json(["import", path, "--no-recognize"]) as! [String: Any]
        let notes = (report["imported"] as! [[String: Any]])[0]["notes"] as! [[String: Any]]
        #expect(notes.count == 1)
        #expect(notes[0]["title"] as? String == "Standup")
        #expect(notes[0]["notebook"] as? String == "Work/Meetings")
        #expect(notes[0]["pages"] as? Int == 2)
        #expect(notes[0]["strokes"] as? Int == 3)
        #expect(notes[0]["points"] as? Int == 11 + 11 + 6)
        let listed = try cli.json(["note", "list", "--tag", "daily"]) as! [[String: Any]]
        #expect(listed.map { $0["source"] as? String } == ["import:replay"])
        #expect(try cli.run(["check"]).status == 0)
        let stats = try cli.json(["stats"]) as! [String: Any]
        let counts = stats["library"] as! [String: Any]
        #expect(counts["notes"] as? Int == 1 && counts["pages"] as? Int == 2 && counts["strokes"] as? Int == 3)
        #expect((stats["recognition"] as! [String: Int])["pending"] == 2)
    }

    @Test("--trace shows the session's autosaves at their virtual times")
    func trace() throws {
        try cli.ok(["init"])
        // Two strokes close together, then one 10 s later: two autosaves, 2 s after each burst.
        let log = (strokeLines(at: 0) + strokeLines(at: 1) + strokeLines(at: 11)).joined(separator: "\n")
        let path = try cli.write("bursts.jsonl", log)
        let output = try cli.ok(["import", path, "--trace"])
        let records = output.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let saves = records.filter { $0["effect"] as? String == "save" }
        let times = saves.map { $0["t"] as! Double }
        #expect(times.count == 2)
        #expect(zip(times, [3.088, 13.088]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(saves.map { $0["strokesAdded"] as! Int } == [2, 1])
        #expect(saves.allSatisfy { ($0["pages"] as? [Int]) == [1] })
        #expect(records.last?["effect"] as? String == "leave")
    }

    @Test("bad replay logs are refused with file, line and reason, and the library is unchanged", arguments: [
        ("garbage", "\u{1}\u{2}not json at all", "not a recording"),
        ("truncated", line(["type": "down", "t": 0, "x": 1, "y": 1]) + "\n{\"type\":\"mo", "line 2: not valid JSON"),
        ("nan", line(["type": "down", "t": 0, "x": 1, "y": 1]) + "\n{\"type\":\"move\",\"t\":0.1,\"x\":NaN,\"y\":1}", "line 2: not valid JSON"),
        ("huge", line(["type": "down", "t": 0, "x": 1e308, "y": 1]), "line 1: key \"x\": 1e+308 is beyond ±1000000 px"),
        ("negative pressure", line(["type": "down", "t": 0, "x": 1, "y": 1, "p": -0.5]), "line 1: key \"p\": pressure -0.5 is outside 0…1"),
        ("pen left down", line(["type": "down", "t": 0, "x": 1, "y": 1]), "the file ends while the pen is down"),
        ("time backwards", (strokeLines(at: 5) + strokeLines(at: 1)).joined(separator: "\n"), "time goes backwards"),
        ("unknown type", line(["type": "laser", "t": 0]), "line 1: unknown line type \"laser\""),
    ])
    func badLogs(name: String, content: String, message: String) throws {
        try cli.ok(["init"])
        try cli.ok(["import", try cli.write("good.jsonl", strokeLines(at: 0).joined(separator: "\n"))])
        let before = try cli.snapshot()
        let path = try cli.write("\(name).jsonl", content)
        let result = try cli.run(["import", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(path), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("a million-point stroke is refused without importing anything")
    func millionPointStroke() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        let move = "{\"type\":\"move\",\"t\":1,\"x\":2,\"y\":2}\n"
        let text = line(["type": "down", "t": 0, "x": 1, "y": 1]) + "\n" + String(repeating: move, count: 1_000_000)
            + "{\"type\":\"up\",\"t\":2}\n"
        let result = try cli.run(["import", try cli.write("million.jsonl", text)])
        #expect(result.status != 0)
        #expect(result.stderr.contains("line 100001: a stroke has more than 100000 points"))
        #expect(try cli.snapshot() == before)
    }

    @Test("a folder with nothing to import exits 1 naming what Inkwell imports, not as a usage mistake")
    func emptyFolder() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("nothing here")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        let result = try cli.run(["import", folder.path])
        #expect(result.status == 1 && result.stderr.contains("no recordings found in \(folder.path)") && result.stderr.contains(".xopp"), "\(result.stderr)")
    }

    @Test("a folder that cannot be read is said so, not taken for an empty one",
          .enabled(if: getuid() != 0, "root reads every folder, so permission cannot be denied to it"))
    func unreadableFolder() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(strokeLines(at: 0).joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("page.jsonl"))
        chmod(folder.path, 0)
        defer { chmod(folder.path, 0o755) }
        let result = try cli.run(["import", folder.path])
        #expect(result.status == 1 && result.stderr.contains("permission denied"), "\(result.stderr)")
    }

    @Test("one bad file among good ones imports nothing (exit 1), unless --keep-going (exit 2, partly done)")
    func allOrNothing() throws {
        try cli.ok(["init"])
        let good = try cli.write("good.jsonl", strokeLines(at: 0).joined(separator: "\n"))
        let bad = try cli.write("bad.jsonl", "{\"type\":\"down\"}")
        let before = try cli.snapshot()
        #expect(try cli.run(["import", good, bad]).status == 1)
        #expect(try cli.snapshot() == before)
        let kept = try cli.run(["import", good, bad, "--keep-going"])
        #expect(kept.status == 2, "\(kept.stderr)")
        #expect((try cli.json(["note", "list"]) as! [Any]).count == 1)
    }
}
