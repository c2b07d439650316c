import Foundation
import Testing

/// The shared corpus of real files, for the end-to-end import tests.
enum ImportCorpus {
    static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["INKWELL_CORPUS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let corpus = repository.appendingPathComponent("../shared/corpus").standardizedFileURL
        return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
    }()
    static var available: Bool { root != nil }
    static let missing = Comment(rawValue: "the shared corpus (../shared/corpus or $INKWELL_CORPUS) is not here")

    static func path(_ relative: String) -> String { root?.appendingPathComponent(relative).path ?? relative }
}

extension CLI {
    /// Imports `paths` with `--json` and returns the notes of every imported file, with the file's format.
    func importNotes(_ paths: [String]) throws -> [(format: String, note: [String: Any])] {
        let report = try json(["import"] + paths) as! [String: Any]
        return (report["imported"] as! [[String: Any]]).flatMap { file in
            (file["notes"] as! [[String: Any]]).map { (file["format"] as! String, $0) }
        }
    }
}

@Suite("inkwell import: InkML")
struct ImportInkMLTests {
    let cli = CLI()

    @Test("an Office InkML file becomes a note with its strokes and points", .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func office() throws {
        try cli.ok(["init"])
        let notes = try cli.importNotes([ImportCorpus.path("inkml/InkMLjs/ink1.inkml")])
        #expect(notes.count == 1)
        #expect(notes[0].format == "inkml")
        #expect(notes[0].note["title"] as? String == "ink1")
        #expect(notes[0].note["pages"] as? Int == 1)
        #expect(notes[0].note["strokes"] as? Int == 13)
        #expect(notes[0].note["points"] as? Int == 623)
        let listed = try cli.json(["note", "list"]) as! [[String: Any]]
        #expect(listed.map { $0["source"] as? String } == ["import:inkml"])
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test("InkML saved as .xml is recognised by content; a CROHME folder imports every file",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func byContent() throws {
        try cli.ok(["init"])
        let word = try cli.importNotes([ImportCorpus.path("inkml/writer_reader_inkml/word_output.xml")])
        #expect(word.map { $0.note["points"] as? Int } == [237])
        let crohme = try cli.importNotes([ImportCorpus.path("inkml/CROHME_2014")])
        #expect(crohme.count == 37)
    }

    @Test("a DTD (billion laughs) is refused, naming the file, and the library is unchanged")
    func billionLaughs() throws {
        try cli.ok(["init"])
        let before = try cli.snapshot()
        let path = try cli.write("lol.inkml", """
            <?xml version="1.0"?><!DOCTYPE ink [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <ink><trace>&b; 1</trace></ink>
            """)
        let result = try cli.run(["import", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(path) && result.stderr.contains("document type declaration"), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }
}
