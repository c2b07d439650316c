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

    @Test("render converts a file without a library: the same pages as import then render, no library created",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func convertWithoutLibrary() throws {
        let out = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-convert")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let file = ImportCorpus.path("rm/rmc/writing_tools_with_text.rm")
        let direct = try cli.json(["render", file, "-o", out.appendingPathComponent("direct.svg").path]) as? [String: Any]
        #expect(direct?["file"] as? String == file && direct?["note"] == nil)
        #expect(direct?["title"] as? String == "writing_tools_with_text")
        #expect(!FileManager.default.fileExists(atPath: cli.library.path), "no library is made")

        try cli.ok(["init"])
        let report = try cli.json(["import", file, "--no-recognize"]) as? [String: Any]
        let id = try #require(((report?["imported"] as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first?["id"] as? String)
        try cli.ok(["render", id, "-o", out.appendingPathComponent("imported.svg").path])
        #expect(try Data(contentsOf: out.appendingPathComponent("direct.svg")) == Data(contentsOf: out.appendingPathComponent("imported.svg")))

        let bad = try cli.run(["render", #filePath, "-o", out.appendingPathComponent("bad.svg").path])
        #expect(bad.status != 0 && bad.stderr.contains(#filePath) && bad.stderr.contains("not a recording"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("bad.svg").path))
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

    @Test("a version 5 page (software before 3.0) imports and renders, its ink where the tablet showed it",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func version5() throws {
        try cli.ok(["init"])
        let file = ImportCorpus.path("rm-v5/remarks/7404fab4-8ad9-4b26-913e-cafc5721aafd.rm")
        let result = try cli.run(["import", file, "--no-recognize", "--json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let notes = try cli.importNotes([ImportCorpus.path("rm-v5/remarks/dec7d296-f64b-41e9-a1a3-1a139d441411.rm")])
        #expect(notes.count == 1 && notes[0].format == "rm")
        #expect(notes[0].note["strokes"] as? Int == 45)
        #expect(notes[0].note["points"] as? Int == 1403)
        #expect(try cli.run(["check"]).status == 0)
        let png = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-v5.png")
        defer { try? FileManager.default.removeItem(at: png) }
        try cli.ok(["render", file, "-o", png.path])
        let header = [UInt8](try Data(contentsOf: png).prefix(24))
        let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1404 && height == 1872)
    }

    @Test("a truncated .rm keeps the strokes before the cut, with a warning naming the byte; one cut before any stroke is refused, the library unchanged",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func truncated() throws {
        try cli.ok(["init"])
        let data = try Data(contentsOf: URL(fileURLWithPath: ImportCorpus.path("rm/rmc/writing_tools.rm")))
        let path = try cli.write("cut.rm", "")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["import", path, "--no-recognize", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(path): damaged at byte ") && result.stderr.contains("strokes before it are kept"), "\(result.stderr)")
        let imported = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["imported"] as? [[String: Any]])
        let strokes = try #require((imported.first?["notes"] as? [[String: Any]])?.first?["strokes"] as? Int)
        #expect(strokes > 0 && strokes < 116, "\(strokes)")

        let before = try cli.snapshot()
        let early = try cli.write("early.rm", "")
        try data.prefix(200).write(to: URL(fileURLWithPath: early))
        let refused = try cli.run(["import", early])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(early) && refused.stderr.contains("byte "), "\(refused.stderr)")
        #expect(try cli.snapshot() == before)
    }
}
