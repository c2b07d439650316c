import Foundation
import Testing

@Suite("inkwell import: Xournal++")
struct ImportXournalTests {
    let cli = CLI()

    @Test("a gzip .xopp becomes a note with its strokes and points", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func xopp() throws {
        try cli.ok(["init"])
        let notes = try cli.importNotes([ImportCorpus.path("xopp/xournalpp/test/files/load/strokes.xopp")])
        #expect(notes.count == 1)
        #expect(notes[0].format == "xopp")
        #expect(notes[0].note["strokes"] as? Int == 12)
        #expect(notes[0].note["points"] as? Int == 1698)
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test("zip-packaged and old .xoj files import; pages are kept", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func variants() throws {
        try cli.ok(["init"])
        let notes = try cli.importNotes([ImportCorpus.path("xopp/xournalpp/test/files/packaged_xopp/stroke/new.xopp"),
                                         ImportCorpus.path("xopp/xournalpp/test/files/load/compatibility/stroke_line_return.xoj"),
                                         ImportCorpus.path("xopp/xournalpp/development/documentation/Setsquare_annotations.xopp")])
        #expect(notes.map { $0.note["points"] as? Int } == [90, 51, 248])
        #expect(notes[2].note["pages"] as? Int == 4)
    }

    @Test("a real file's text boxes become the note's typed text, in reading order", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func textBoxes() throws {
        try cli.ok(["init"])
        let path = ImportCorpus.path("xopp/xournalpp/test/files/load/text.xopp")
        let result = try cli.run(["import", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("text box"), "\(result.stderr)")
        let id = try #require((((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["imported"]
            as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first?["id"] as? String)
        let text = try #require((try cli.json(["note", "text", id]) as? [String: Any])?["text"] as? String)
        let paragraphs = text.components(separatedBy: "\n\n")
        #expect(paragraphs.count == 9, "\(paragraphs)")
        #expect(Array(paragraphs.prefix(4)) == ["green", "blue", "red", "multiline\ntext"], "\(paragraphs)")
    }

    @Test("a hashtag typed in a text box becomes a tag and files the note by the routing rules")
    func typedHashtagRoutes() throws {
        try cli.ok(["init"])
        try cli.ok(["route", "add", "#work", "Work"])
        let xopp = try cli.write("typed.xopp", ##"""
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="#000000ff" width="1">1 2 30 40</stroke>
            <text font="Sans" size="12" x="5" y="10" color="#000000ff">Plan #work</text>
            </layer></page></xournal>
            """##)
        let imported = try cli.ok(["import", xopp, "--no-recognize"])
        #expect(imported.contains("#work") && imported.contains("→ Work"), "\(imported)")
        let listed = try cli.json(["note", "list", "--tag", "work"]) as! [[String: Any]]
        #expect(listed.map { $0["notebook"] as? String } == ["Work"])
    }

    @Test("a stroke with garbage points costs only itself; a file with nothing else is refused and the library is unchanged")
    func recovery() throws {
        try cli.ok(["init"])
        let mixed = try cli.write("mixed.xopp", ##"""
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="#000000ff" width="1">1 2 30 40</stroke>
            <stroke tool="pen" color="#000000ff" width="1 nan -2">1 2 oops 40</stroke>
            </layer></page></xournal>
            """##)
        let result = try cli.run(["import", mixed, "--no-recognize"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(mixed): 1 stroke skipped at line 3"), "\(result.stderr)")
        #expect(result.stdout.contains("1 stroke"), "\(result.stdout)")

        let before = try cli.snapshot()
        let bad = try cli.write("bad.xopp", ##"""
            <xournal><page width="100" height="100"><layer>
            <stroke tool="pen" color="#000000ff" width="1">1 2 oops 40</stroke>
            </layer></page></xournal>
            """##)
        let refused = try cli.run(["import", bad])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(bad) && refused.stderr.contains("line 2") && refused.stderr.contains("not numbers"), "\(refused.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("a gzip bomb is refused, naming the file, and the library is unchanged")
    func hostile() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        // 40 MiB of spaces after <xournal>, gzipped by the system's gzip.
        let folder = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-bomb")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("bomb.xopp")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "{ printf '<xournal>'; head -c 41943040 /dev/zero | tr '\\0' ' '; } | gzip -c > '\(bomb.path)'"]
        try gzip.run()
        gzip.waitUntilExit()
        let result = try cli.run(["import", bomb.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(bomb.path) && result.stderr.contains("gzip bomb"), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }
}
