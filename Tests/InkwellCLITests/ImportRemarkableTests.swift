import Foundation
import TestSupport
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

    @Test("a document listing more pages than the limit is refused naming the file, the count and the limit; the library is unchanged")
    func tooManyPages() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        let count = 10_001
        let pages = (0..<count).map { String(format: #"{"id":"%08d-0000-4000-8000-000000000000","idx":{"timestamp":"1:2","value":"a%06d"}}"#, $0, $0) }
        let path = try cli.write("11111111-2222-3333-4444-555555555555.content",
                                 #"{"fileType":"notebook","formatVersion":2,"cPages":{"pages":["# + pages.joined(separator: ",") + "]}}")
        let refused = try cli.run(["import", path, "--no-recognize"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(path) && refused.stderr.contains("lists 10001 pages, more than the 10000 a document may have"),
                "\(refused.stderr)")
        #expect(try cli.snapshot() == before)
        #expect(((try cli.json(["note", "list"]) as? [Any]) ?? [1]).isEmpty)
    }

    /// A tablet's backup written from corpus pages: folders Work and Work/Meetings (and Work/Someday, empty;
    /// Binned, empty, in the trash); Standup (pinned, tagged, a lined page, a damaged page, a v5 page on
    /// dots) in Meetings; Paper (a PDF, its first page highlighted, a page inserted after it) in Work; Old
    /// list (in the trash, its template in .pagedata).
    func writeBackup(to backup: URL) throws {
        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: backup.appendingPathComponent(name)) }
        func page(_ document: String, _ id: String, from corpus: String? = nil, bytes: Data? = nil) throws {
            let folder = backup.appendingPathComponent(document)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let data = try bytes ?? Data(contentsOf: URL(fileURLWithPath: ImportCorpus.path(corpus!)))
            try data.write(to: folder.appendingPathComponent(id + ".rm"))
        }
        func metadata(_ id: String, type: String, name: String, parent: String = "", pinned: Bool = false) throws {
            try write("\(id).metadata", #"{"type": "\#(type)", "visibleName": "\#(name)", "parent": "\#(parent)", "pinned": \#(pinned), "createdTime": "1700000000000"}"#)
        }
        // Folders: Work, and Meetings inside it.
        try metadata("f-work", type: "CollectionType", name: "Work")
        try write("f-work.content", "{}")
        try metadata("f-meet", type: "CollectionType", name: "Meetings", parent: "f-work")
        try write("f-meet.content", "{}")
        // An empty folder is a notebook too; an empty folder in the trash is not.
        try metadata("f-someday", type: "CollectionType", name: "Someday", parent: "f-work")
        try write("f-someday.content", "{}")
        try metadata("f-binned", type: "CollectionType", name: "Binned", parent: "trash")
        try write("f-binned.content", "{}")
        // A pinned, tagged notebook in Meetings: a lined page, a damaged page, a v5 page on dots.
        try metadata("d-notes", type: "DocumentType", name: "Standup", parent: "f-meet", pinned: true)
        try write("d-notes.content", #"""
            {"fileType": "notebook", "tags": [{"name": "Project X", "timestamp": 1}], "pageTags": [{"name": "urgent", "pageId": "p1", "timestamp": 1}],
             "cPages": {"pages": [{"id": "p1", "idx": {"value": "ba"}, "template": {"value": "P Lines small"}},
                                  {"id": "p2", "idx": {"value": "bb"}},
                                  {"id": "p3", "idx": {"value": "bc"}, "template": {"value": "P Dots S"}}]}}
            """#)
        try page("d-notes", "p1", from: "rm/rmc/dot.stroke.rm")
        try page("d-notes", "p2", bytes: Data("reMarkable .lines file, version=6          ".utf8) + Data([0xE8, 3, 0, 0, 0, 1, 1, 5, 1, 2]))
        try page("d-notes", "p3", from: "rm-v5/remarks/dec7d296-f64b-41e9-a1a3-1a139d441411.rm")
        // A PDF in Work: its first page highlighted, a page inserted on the tablet after it, its second page.
        try metadata("d-pdf", type: "DocumentType", name: "Paper", parent: "f-work")
        try TestPDF.vector([(width: 612, height: 792, text: "one"), (width: 612, height: 792, text: "two")]).write(to: backup.appendingPathComponent("d-pdf.pdf"))
        try write("d-pdf.content", #"""
            {"fileType": "pdf", "cPages": {"pages": [{"id": "a", "idx": {"value": "ba"}, "redir": {"value": 0}},
                                                     {"id": "ins", "idx": {"value": "bb"}},
                                                     {"id": "b", "idx": {"value": "bc"}, "redir": {"value": 1}}]}}
            """#)
        try page("d-pdf", "a", from: "rm/rmscene/Wikipedia_highlighted_p1.rm")
        try page("d-pdf", "ins", from: "rm/rmc/Lines_v2.rm")
        // A document in the tablet's trash, its template in the older .pagedata.
        try metadata("d-old", type: "DocumentType", name: "Old list", parent: "trash")
        try write("d-old.content", #"{"fileType": "notebook", "pages": ["x"]}"#)
        try write("d-old.pagedata", "P Grid medium\n")
        try page("d-old", "x", from: "rm/rmc/dot.stroke.rm")

    }

    @Test("a tablet's backup imports as a library: folders as notebooks, pins, tags, templates, trash, a PDF with an inserted page, highlights, a v5 page and a damaged page as a placeholder",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func backup() throws {
        try cli.ok(["init"])
        let backup = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-xochitl")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: backup) }
        try writeBackup(to: backup)
        let result = try cli.run(["import", backup.path, "--no-recognize", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("p2.rm: page 2: could not be read"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let notes = ((report["imported"] as? [[String: Any]]) ?? []).flatMap { ($0["notes"] as? [[String: Any]]) ?? [] }
        #expect(notes.count == 3, "folders are notebooks, not notes: \(notes)")
        func note(_ title: String) throws -> [String: Any] { try #require(notes.first { $0["title"] as? String == title }) }
        #expect(try note("Standup")["notebook"] as? String == "Work/Meetings")
        #expect(try note("Paper")["notebook"] as? String == "Work")
        #expect(try note("Old list")["trashed"] as? Bool == true)
        #expect(try note("Standup")["trashed"] == nil)
        let notebooks = try #require(try cli.json(["notebook", "list", "--json"]) as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(Set(notebooks) == ["Inbox", "Work", "Work/Meetings", "Work/Someday"], "\(notebooks)")

        // The notebook: pinned, tagged, its templates, its damaged page a placeholder saying why.
        let standup = try #require(try cli.json(["note", "show", try note("Standup")["id"] as! String, "--json"]) as? [String: Any])
        let row = try #require(standup["note"] as? [String: Any])
        #expect(row["pinned"] as? Bool == true)
        #expect(row["tags"] as? [String] == ["project-x", "urgent"])
        let pages = try #require(standup["pages"] as? [[String: Any]])
        #expect(pages.map { $0["template"] as? String } == ["lined", "blank", "dots"])
        #expect(pages.map { $0["strokes"] as? Int } == [1, 0, 45], "the v5 page whole")
        #expect((pages[1]["placeholder"] as? String)?.hasPrefix("page 2 could not be read: byte 43: block of type 5 claims 1000 bytes") == true, "\(pages[1])")
        #expect(try cli.ok(["note", "show", row["id"] as! String]).contains("placeholder: page 2 could not be read"))
        let check = try cli.run(["check"])
        #expect(check.status == 0 && check.stdout.contains("a placeholder left by the import: page 2 could not be read"), "\(check.stdout)")

        // The PDF: the inserted page the size of the PDF pages beside it, the highlight quoted and found.
        let paper = try #require(try cli.json(["note", "show", try note("Paper")["id"] as! String, "--json"]) as? [String: Any])
        let paperPages = try #require(paper["pages"] as? [[String: Any]])
        #expect(paperPages.map { $0["width"] as? Double } == [612, 612, 612] && paperPages.map { $0["height"] as? Double } == [792, 792, 792])
        #expect(paperPages.map { $0["background"] != nil } == [true, false, true])
        #expect(paperPages[1]["strokes"] as? Int == 10)
        let text = try #require((try cli.json(["note", "text", try note("Paper")["id"] as! String]) as? [String: Any])?["text"] as? String)
        #expect(text.contains("> The reMarkable uses electronic paper (p. 1)"), "\(text)")
        #expect(try cli.run(["search", "electronic", "--json"]).stdout.contains(try note("Paper")["id"] as! String))
        let out = backup.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try cli.ok(["export", try note("Paper")["id"] as! String, "--format", "md", "-o", out.path])
        let markdown = try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        #expect(try String(contentsOf: try #require(markdown.first), encoding: .utf8).contains("> The reMarkable uses electronic paper (p. 1)"))

        // The trashed document is in Inkwell's trash, its template kept.
        let trash = try #require(try cli.json(["trash", "list", "--json"]) as? [[String: Any]])
        #expect(trash.map { $0["title"] as? String } == ["Old list"])
    }

    @Test("every entry of a backup named at once (`inkwell import xochitl/*`) imports each document once: its parts and folders are not notes",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func backupEntriesNamed() throws {
        try cli.ok(["init"])
        let backup = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-xochitl3")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: backup) }
        try writeBackup(to: backup)
        try FileManager.default.createDirectory(at: backup.appendingPathComponent("d-notes.thumbnails"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: backup.appendingPathComponent("d-notes.thumbnails/p1.png"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: backup.path).sorted().map { backup.appendingPathComponent($0).path }
        #expect(entries.contains { $0.hasSuffix("d-pdf.pdf") } && entries.contains { $0.hasSuffix("d-old.pagedata") })
        let result = try cli.run(["import"] + entries + ["--no-recognize", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = ((report["imported"] as? [[String: Any]]) ?? []).compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        #expect(files.sorted() == ["d-notes.content", "d-old.content", "d-pdf.content"])
    }

    @Test("--keep-going is per document: a backup's broken document is reported and the others import; without it nothing is imported",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func keepGoingPerDocument() throws {
        try cli.ok(["init"])
        let backup = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-xochitl2")
        try FileManager.default.createDirectory(at: backup.appendingPathComponent("good"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: backup) }
        try FileManager.default.copyItem(atPath: ImportCorpus.path("rm/rmc/dot.stroke.rm"), toPath: backup.appendingPathComponent("good/p.rm").path)
        try Data(#"{"fileType": "notebook", "pages": ["p"]}"#.utf8).write(to: backup.appendingPathComponent("good.content"))
        try Data(#"{"type": "DocumentType", "visibleName": "Good", "parent": ""}"#.utf8).write(to: backup.appendingPathComponent("good.metadata"))
        try Data(#"{"fileType": "notebook", "cPages": {"pages": [{"id": "#.utf8).write(to: backup.appendingPathComponent("bad.content"))

        let before = try cli.snapshot()
        let strict = try cli.run(["import", backup.path, "--no-recognize"])
        #expect(strict.status != 0 && strict.stderr.contains("bad.content") && strict.stderr.contains("not valid JSON"), "\(strict.stderr)")
        #expect(try cli.snapshot() == before)

        let lenient = try cli.run(["import", backup.path, "--no-recognize", "--keep-going"])
        #expect(lenient.status != 0 && lenient.stderr.contains("bad.content"), "\(lenient.stderr)")
        #expect(lenient.stdout.contains("\"Good\" into Inbox: 1 page"), "\(lenient.stdout)")
    }
}
