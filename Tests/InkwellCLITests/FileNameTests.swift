import Foundation
import Testing

/// File and folder names hold whatever other software put there: a line break, an escape sequence
/// a terminal would obey. Such files are read like any other, titles made from their names are
/// cleaned, and nothing the command line prints lets the raw control character through.
@Suite("Names with control characters")
struct FileNameTests {
    let cli = CLI()

    /// Standard output and error hold no control character but line breaks and tabs.
    func expectNoControl(_ result: CLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }
            #expect(raw.isEmpty, "\(what) printed raw control characters on \(stream): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test("a recording named with an escape sequence and a line break imports, from its path and from its folder; titles are clean; nothing raw is printed")
    func importHostileNames() throws {
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "2", "--jitter", "none"])
        let logs = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        let hostile = cli.root.appendingPathComponent("in\u{1B}[31mbox\nfolder")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let escaped = hostile.appendingPathComponent("red\u{1B}[31m\u{7}alert.jsonl")
        let broken = hostile.appendingPathComponent("two\nlines\r.jsonl")
        try FileManager.default.copyItem(at: samples.appendingPathComponent(logs[0]), to: escaped)
        // This one records no title of its own: its note is titled after its file's name.
        let untitled = try String(contentsOf: samples.appendingPathComponent(logs[1]), encoding: .utf8)
            .replacing(/"title":"[^"]*",/, with: "")
        try untitled.write(to: broken, atomically: false, encoding: .utf8)

        let byPath = try cli.run(["import", "--no-recognize", escaped.path])
        #expect(byPath.status == 0, "\(byPath.stderr)")
        expectNoControl(byPath, "import FILE")

        let byFolder = try cli.run(["import", "--no-recognize", hostile.path])
        #expect(byFolder.status == 0, "\(byFolder.stderr)")
        expectNoControl(byFolder, "import FOLDER")

        let list = try cli.run(["note", "list"])
        expectNoControl(list, "note list")
        let notes = try #require(try cli.json(["note", "list"]) as? [[String: Any]])
        #expect(notes.count >= 2)
        for title in notes.compactMap({ $0["title"] as? String }) {
            #expect(!title.unicodeScalars.contains { $0.properties.generalCategory == .control }, "title \(title.debugDescription)")
        }
        #expect(notes.contains { $0["title"] as? String == "two lines" }, "\(notes.map { $0["title"] ?? "" })")

        // Render and export write to such names too, and say so escaped.
        let render = try cli.run(["render", escaped.path, "-o", hostile.appendingPathComponent("page\u{1B}.png").path])
        #expect(render.status == 0, "\(render.stderr)")
        expectNoControl(render, "render")
        #expect(FileManager.default.fileExists(atPath: hostile.appendingPathComponent("page\u{1B}.png").path))
        let export = try cli.run(["export", "--all", "--format", "svg", "--zip", hostile.appendingPathComponent("all\u{1B}.zip").path])
        #expect(export.status == 0, "\(export.stderr)")
        expectNoControl(export, "export --zip")
    }

    @Test("an error naming a file with an escape sequence prints it escaped")
    func errorsEscapeNames() throws {
        try cli.ok(["init"])
        let garbage = cli.root.appendingPathComponent("evil\u{1B}]0;owned\u{7}.jsonl")
        try Data("not a recording".utf8).write(to: garbage)
        let result = try cli.run(["import", garbage.path])
        #expect(result.status != 0)
        expectNoControl(result, "a failed import")
        #expect(result.stderr.contains("evil\\x1B]0;owned\\x07.jsonl"), "\(result.stderr)")
        let missing = try cli.run(["note", "show", "no\u{1B}[2Jsuch"])
        #expect(missing.status != 0)
        expectNoControl(missing, "a missing note")
    }
}
