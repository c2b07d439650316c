import Foundation
import Testing
import TestSupport

/// Never a silent loss: an import or sync names what it did not keep, each item with its file, page
/// and reason, in `--json` too; `--strict` makes any item exit 2; the note keeps the list (`note show`).
@Suite("What an import did not keep")
struct NotKeptReportTests {
    let cli = CLI()

    /// A reMarkable notebook in `folder`: page `a` a v5 page with one ballpoint line, page `b` the same
    /// with an area eraser beside it (which Inkwell does not keep).
    func notebook(in folder: URL) throws -> String {
        let id = "4f1c7e2a-0000-4000-8000-000000000003"
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(id), withIntermediateDirectories: true)
        let line = RemarkableGenerationsTests.v5Page(tool: 2, color: 0, width: 2, points: [(100, 100), (300, 200)])
        try line.write(to: folder.appendingPathComponent(id).appendingPathComponent("a.rm"))
        var erased = line
        // The same page with a second line, an area eraser (tool 8): the line count goes to 2.
        erased[43 + 4] = 2
        erased += RemarkableGenerationsTests.v5Page(tool: 8, color: 0, width: 2, points: [(120, 120), (200, 150)]).dropFirst(43 + 8)
        try erased.write(to: folder.appendingPathComponent(id).appendingPathComponent("b.rm"))
        try Data(#"{"fileType": "notebook", "pages": ["a", "b"]}"#.utf8).write(to: folder.appendingPathComponent(id + ".content"))
        return folder.appendingPathComponent(id + ".content").path
    }

    @Test("a page's loss is reported with its file, page and reason, in --json, and kept with the note")
    func pageItem() throws {
        try cli.ok(["init"])
        let content = try notebook(in: cli.root.appendingPathComponent("xochitl"))
        let report = try #require(try cli.json(["import", "--no-recognize", content]) as? [String: Any])
        let file = try #require((report["imported"] as? [[String: Any]])?.first)
        let items = try #require(file["notKept"] as? [[String: Any]])
        #expect(items.count == 1, "\(items)")
        #expect(items.first?["page"] as? Int == 2)
        #expect((items.first?["file"] as? String)?.hasSuffix("/b.rm") == true, "\(items)")
        #expect((items.first?["reason"] as? String)?.contains("1 area eraser skipped") == true, "\(items)")
        let id = try #require((file["notes"] as? [[String: Any]])?.first?["id"] as? String)

        // The note's own list: in `note show --json` under its origin, and in its text.
        let show = try #require(try cli.json(["note", "show", id]) as? [String: Any])
        let kept = try #require((show["origin"] as? [String: Any])?["notKept"] as? [[String: Any]])
        #expect(kept.count == 1 && kept.first?["page"] as? Int == 2, "\(kept)")
        let text = try cli.ok(["note", "show", id])
        #expect(text.contains("not kept when last imported (1):") && text.contains("b.rm: page 2: 1 area eraser skipped"), "\(text)")
    }

    @Test("--strict: an import or sync that did not keep something exits 2 (partly done); one that kept everything exits 0",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func strict() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("xochitl")
        let content = try notebook(in: folder)
        let lossy = try cli.run(["import", "--no-recognize", "--strict", content])
        #expect(lossy.status == 2, "\(lossy.stderr)")
        #expect(lossy.stderr.contains("strict: 1 thing was not kept"), "\(lossy.stderr)")
        #expect(lossy.stdout.contains("imported "), "the note is imported all the same: \(lossy.stdout)")
        // Without --strict the same is done and reported, exit 0.
        try FileManager.default.removeItem(at: cli.library)
        try cli.ok(["init"])
        let plain = try cli.run(["import", "--no-recognize", content])
        #expect(plain.status == 0 && plain.stderr.contains("area eraser"), "\(plain.stderr)")

        // A file-level item (a Xournal++ image): the file, no page.
        let image = try cli.run(["import", "--no-recognize", "--strict", "--json", ImportCorpus.path("xopp/xournalpp/test/files/load/image.xopp")])
        #expect(image.status == 2, "\(image.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(image.stdout.utf8)) as? [String: Any])
        let items = try #require((report["imported"] as? [[String: Any]])?.first?["notKept"] as? [[String: Any]])
        #expect(!items.isEmpty && items.allSatisfy { $0["page"] == nil && ($0["file"] as? String)?.hasSuffix("image.xopp") == true }, "\(items)")

        // Everything kept: exit 0 under --strict.
        let clean = try cli.run(["import", "--no-recognize", "--strict", ImportCorpus.path("rm/rmscene/Normal_AB.rm")])
        #expect(clean.status == 0, "\(clean.stderr)")

        // sync --strict: a new lossy source in the folder.
        try FileManager.default.removeItem(at: cli.library)
        try cli.ok(["init"])
        let synced = try cli.run(["sync", "--no-recognize", "--strict", folder.path])
        #expect(synced.status == 2, "\(synced.stderr)")
        #expect(synced.stderr.contains("area eraser"), "\(synced.stderr)")
    }

    @Test("a page's tool drawn as another and its ink beyond the page's edges are items with the file, the page and the reason; --strict exits 2")
    func mappedAndClipped() throws {
        try cli.ok(["init"])
        // A reMarkable notebook: page 1 a ballpoint line (kept as it is), page 2 a paintbrush line.
        let id = "4f1c7e2a-0000-4000-8000-000000000004"
        let folder = cli.root.appendingPathComponent("xochitl")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(id), withIntermediateDirectories: true)
        try RemarkableGenerationsTests.v5Page(tool: 2, color: 0, width: 2, points: [(100, 100), (300, 200)])
            .write(to: folder.appendingPathComponent(id).appendingPathComponent("a.rm"))
        try RemarkableGenerationsTests.v5Page(tool: 12, color: 0, width: 2, points: [(100, 100), (300, 200)])
            .write(to: folder.appendingPathComponent(id).appendingPathComponent("b.rm"))
        try Data(#"{"fileType": "notebook", "pages": ["a", "b"]}"#.utf8).write(to: folder.appendingPathComponent(id + ".content"))
        let notebook = try cli.run(["import", "--no-recognize", "--strict", "--json", folder.appendingPathComponent(id + ".content").path])
        #expect(notebook.status == 2, "\(notebook.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(notebook.stdout.utf8)) as? [String: Any])
        let items = try #require((report["imported"] as? [[String: Any]])?.first?["notKept"] as? [[String: Any]])
        #expect(items.count == 1, "\(items)")
        #expect(items.first?["page"] as? Int == 2 && (items.first?["file"] as? String)?.hasSuffix("/b.rm") == true, "\(items)")
        #expect((items.first?["reason"] as? String)?.hasPrefix("1 paintbrush stroke drawn with Inkwell's pen") == true, "\(items)")

        // A Xournal++ file: a stroke running off page 1, a tool Xournal++ does not write on page 2.
        let xopp = try cli.write("off.xopp", """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="test" fileversion="4">
            <page width="612" height="792"><background type="solid" color="#ffffffff" style="plain"/><layer>
            <stroke tool="pen" color="#000000ff" width="2">100 100 200 200</stroke>
            <stroke tool="pen" color="#000000ff" width="2">500 700 700 900</stroke>
            </layer></page>
            <page width="612" height="792"><background type="solid" color="#ffffffff" style="plain"/><layer>
            <stroke tool="pencil" color="#000000ff" width="2">100 100 200 200</stroke>
            </layer></page>
            </xournal>
            """)
        let off = try cli.run(["import", "--no-recognize", "--json", xopp])
        #expect(off.status == 0, "\(off.stderr)")
        let offReport = try #require(try JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any])
        let offItems = try #require((offReport["imported"] as? [[String: Any]])?.first?["notKept"] as? [[String: Any]])
        let reasons = offItems.map { "\($0["page"] as? Int ?? 0) \($0["reason"] as? String ?? "")" }
        #expect(reasons.contains("1 1 stroke reaches beyond the page's edges: kept whole, but the part outside the page is not drawn"), "\(reasons)")
        #expect(reasons.contains("0 1 stroke of tool \"pencil\", which is not Xournal++'s, drawn with the pen"), "\(reasons)")
        #expect(offItems.count == 2, "\(offItems)")
        #expect(off.stderr.contains("page 1: 1 stroke reaches beyond the page's edges"), "\(off.stderr)")
    }
}

@Suite("What an export did not keep, and the InkML round trip of a whole note")
struct ExportFidelityTests {
    let cli = CLI()

    func importOne(_ path: String) throws -> String {
        let report = try #require(try cli.json(["import", "--no-recognize", path]) as? [String: Any])
        return try #require(((report["imported"] as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first?["id"] as? String)
    }

    @Test("a note exported to InkML and imported again keeps its typed text, quotes, tags, title and template")
    func inkmlRoundTrip() throws {
        try cli.ok(["init"])
        let log = try cli.write("plan.jsonl", ([line(["type": "header", "version": 1]), line(["type": "note", "title": "Quarterly plan"]),
                                                 line(["type": "page", "template": "lined"])] + strokeLines(at: 0)).joined(separator: "\n"))
        let id = try importOne(log)
        let text = "# Plan\n\n- [ ] call the bank\n\n> The reMarkable uses electronic paper (p. 1)\n"
        _ = try cli.run(["note", "text", id, "--set", "-"], stdin: text)
        try cli.ok(["note", "tag", id, "--add", "work", "--add", "q3-plan"])
        let inkml = cli.root.appendingPathComponent("plan.inkml").path
        try cli.ok(["export", id, "--format", "inkml", "-o", inkml])
        try FileManager.default.removeItem(at: cli.library)
        try cli.ok(["init"])
        let back = try importOne(inkml)
        let show = try #require(try cli.json(["note", "show", back]) as? [String: Any])
        let note = try #require(show["note"] as? [String: Any])
        #expect(note["title"] as? String == "Quarterly plan")
        #expect(Set(note["tags"] as? [String] ?? []) == ["work", "q3-plan"], "\(note)")
        #expect((show["pages"] as? [[String: Any]])?.first?["template"] as? String == "lined", "\(show)")
        let typed = try #require((try cli.json(["note", "text", back]) as? [String: Any])?["text"] as? String)
        #expect(typed == text, "\(typed)")
    }

    @Test("an export names what its files do not carry (a PDF page in InkML, typed text in PNG); --strict exits 2")
    func exportReport() throws {
        try cli.ok(["init"])
        let pdf = cli.root.appendingPathComponent("paper.pdf")
        try TestPDF.vector([(612, 792, "One"), (612, 792, "Two")]).write(to: pdf)
        let id = try importOne(pdf.path)
        let out = cli.root.appendingPathComponent("out.inkml").path
        let strict = try cli.run(["export", id, "--format", "inkml", "-o", out, "--strict", "--json"])
        #expect(strict.status == 2, "\(strict.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(strict.stdout.utf8)) as? [String: Any])
        let items = try #require(report["notKept"] as? [[String: Any]])
        #expect(items.map { $0["page"] as? Int } == [1, 2], "\(items)")
        #expect(items.allSatisfy { ($0["reason"] as? String)?.contains("PDF page") == true && ($0["file"] as? String)?.hasSuffix(".inkml") == true })
        #expect(strict.stderr.contains("not kept: ") && strict.stderr.contains("page 1: the PDF page"), "\(strict.stderr)")
        // PDF keeps it all: nothing to report, exit 0 under --strict.
        #expect(try cli.run(["export", id, "--format", "pdf", "-o", cli.root.appendingPathComponent("out.pdf").path, "--strict"]).status == 0)
        // PNG page images do not draw the typed text.
        _ = try cli.run(["note", "text", id, "--set", "-"], stdin: "read by Friday\n")
        let png = try cli.run(["export", id, "--format", "png", "-o", cli.root.appendingPathComponent("png").path + "/", "--strict"])
        #expect(png.status == 2 && png.stderr.contains("typed text is not drawn in PNG"), "\(png.stderr)")
    }
}
