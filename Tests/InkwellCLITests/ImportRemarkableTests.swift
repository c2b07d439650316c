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
