import Foundation
import Testing

@Suite("inkwell import: reMarkable")
struct ImportRemarkableTests {
    let cli = CLI()

    @Test("a reMarkable v6 page becomes a note with rmscene's strokes and points", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func page() throws {
        try cli.ok(["init"])
        let notes = try cli.importNotes([ImportCorpus.path("rm/rmc/writing_tools.rm")])
        #expect(notes.count == 1)
        #expect(notes[0].format == "rm")
        #expect(notes[0].note["pages"] as? Int == 1)
        #expect(notes[0].note["strokes"] as? Int == 116)
        #expect(notes[0].note["points"] as? Int == 3866)
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test("typed text on a page comes along as the note's Markdown, found by search, and its handwriting stays on the page",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func typedText() throws {
        try cli.ok(["init"])
        let result = try cli.run(["import", ImportCorpus.path("rm/rmc/keyboard-checkboxes-and-bullets.rm"),
                                  ImportCorpus.path("rm/rmc/writing_tools_with_text.rm"), "--no-recognize", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("typed text"), "\(result.stderr)")
        let imported = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["imported"] as? [[String: Any]])
        let ids = imported.compactMap { (($0["notes"] as? [[String: Any]])?.first?["id"] as? String) }
        #expect(ids.count == 2)
        let text = try #require((try cli.json(["note", "text", ids[0]]) as? [String: Any])?["text"] as? String)
        #expect(text.hasPrefix("# This is a text test file\n\n- [ ] checkbox\n- bullet\n\n"), "\(text)")
        let hits = try cli.run(["search", "crossed", "--json"])
        #expect(hits.stdout.contains(ids[0]), "\(hits.stdout)")
        // The handwriting anchored to the text is drawn whole: the page grew 67 px upwards to hold it.
        let png = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-tools.png")
        defer { try? FileManager.default.removeItem(at: png) }
        try cli.ok(["render", ids[1], "-o", png.path])
        let header = [UInt8](try Data(contentsOf: png).prefix(24))
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1404 && height == 1872 + 67)
    }

    @Test("a notebook folder imports as one note, its pages in the notebook's order", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func notebook() throws {
        try cli.ok(["init"])
        let folder = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-tablet")
        let pages = folder.appendingPathComponent("nb")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ImportCorpus.path("rm/rmc/dot.stroke.rm"), toPath: pages.appendingPathComponent("one.rm").path)
        try FileManager.default.copyItem(atPath: ImportCorpus.path("rm/rmc/Lines_v2.rm"), toPath: pages.appendingPathComponent("two.rm").path)
        try Data(#"{"fileType": "notebook", "pages": ["one", "two"]}"#.utf8).write(to: folder.appendingPathComponent("nb.content"))
        try Data(#"{"visibleName": "Tablet notes"}"#.utf8).write(to: folder.appendingPathComponent("nb.metadata"))
        let notes = try cli.importNotes([folder.appendingPathComponent("nb.content").path])
        #expect(notes.count == 1)
        #expect(notes[0].note["title"] as? String == "Tablet notes")
        #expect(notes[0].note["pages"] as? Int == 2)
        #expect(notes[0].note["strokes"] as? Int == 11)
    }

    @Test("a truncated .rm is refused with the byte position, and the library is unchanged", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func truncated() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        let data = try Data(contentsOf: URL(fileURLWithPath: ImportCorpus.path("rm/rmc/writing_tools.rm")))
        let path = try cli.write("cut.rm", "")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["import", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(path) && result.stderr.contains("byte "), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }
}
