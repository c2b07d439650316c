import Foundation
import Testing
import TestSupport

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
        try cli.ok(["sample", "-o", samples.path, "--notes", "3", "--jitter", "none"])
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

        // The drop folder takes such names too, and titles its note cleanly.
        try FileManager.default.copyItem(at: broken, to: cli.dropFolder.appendingPathComponent("dropped\u{1B}[2J\nname.jsonl"))
        let ingest = try cli.run(["ingest", "--settle", "0.2"])
        #expect(ingest.status == 0, "\(ingest.stdout) \(ingest.stderr)")
        expectNoControl(ingest, "ingest")
        #expect(ingest.stdout.contains("imported dropped\\x1B[2J"), "\(ingest.stdout)")
        let titles = (try cli.json(["note", "list"]) as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles.contains("dropped [2J name"), "\(titles)")
    }

    @Test("names that are not UTF-8 are read: import FILE, import FOLDER (a folder so named too), render, export FILE, the drop folder; titles hold U+FFFD")
    func namesNotUTF8() throws {
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "2", "--jitter", "none"])
        let logs = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        let untitled = try String(contentsOf: samples.appendingPathComponent(logs[0]), encoding: .utf8)
            .replacing(/"title":"[^"]*",/, with: "")
        try untitled.write(to: cli.root.appendingPathComponent("untitled.jsonl"), atomically: false, encoding: .utf8)
        // Foundation cannot make such names: the shell does. \351 is é in Latin-1, \377 no character at all.
        let script = """
            set -u
            mkdir "$ROOT/raw" "$(printf "$ROOT/raw/d\\377")"
            cp "$ROOT/untitled.jsonl" "$(printf "$ROOT/raw/caf\\351 notes.jsonl")"
            cp "$SAMPLE" "$(printf "$ROOT/raw/d\\377/inner.jsonl")"
            "$INKWELL" import --no-recognize "$(printf "$ROOT/raw/caf\\351 notes.jsonl")" > "$ROOT/file.out" 2>&1; echo $? > "$ROOT/file.status"
            "$INKWELL" import --no-recognize "$ROOT/raw" > "$ROOT/folder.out" 2>&1; echo $? > "$ROOT/folder.status"
            "$INKWELL" render "$(printf "$ROOT/raw/caf\\351 notes.jsonl")" -o "$ROOT/page.png" > "$ROOT/render.out" 2>&1; echo $? > "$ROOT/render.status"
            "$INKWELL" export "$(printf "$ROOT/raw/d\\377/inner.jsonl")" -o "$ROOT/inner.pdf" > "$ROOT/export.out" 2>&1; echo $? > "$ROOT/export.status"
            mkdir -p "$INKWELL_LIBRARY/inbox"
            cp "$DROPPED" "$(printf "$INKWELL_LIBRARY/inbox/dro\\377p.jsonl")"
            "$INKWELL" ingest --settle 0 --no-recognize > "$ROOT/ingest.out" 2>&1; echo $? > "$ROOT/ingest.status"
            """
        let run = try tool(["env", "ROOT=\(cli.root.path)", "SAMPLE=\(samples.appendingPathComponent(logs[1]).path)",
                            "DROPPED=\(samples.appendingPathComponent(logs[1]).path)", "INKWELL=\(CLI.executable.path)",
                            "INKWELL_LIBRARY=\(cli.library.path)", "bash", "-c", script])
        #expect(run.status == 0, "\(run.output)")
        func result(_ name: String) -> (status: String, output: String) {
            let read = { (suffix: String) in
                ((try? String(contentsOf: cli.root.appendingPathComponent(name + suffix), encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return (read(".status"), read(".out"))
        }
        for name in ["file", "folder", "render", "export", "ingest"] {
            #expect(result(name).status == "0", "\(name): \(result(name).output)")
            #expect(!result(name).output.contains("no such file"), "\(name): \(result(name).output)")
        }
        let notes = try #require(try cli.json(["note", "list"]) as? [[String: Any]])
        let titles = notes.compactMap { $0["title"] as? String }
        #expect(titles.contains("caf\u{FFFD} notes"), "\(titles)")
        #expect(notes.count == 3, "one note from the file (found again in its folder, the same source), the one inside d\\377, the one dropped: \(titles)")
        let done = try FileManager.default.contentsOfDirectory(atPath: cli.library.appendingPathComponent("inbox/done").path)
        #expect(done == ["dro\u{FFFD}p.jsonl"], "the dropped file is in done/, under its name made UTF-8: \(done)")
        #expect(FileManager.default.fileExists(atPath: cli.root.appendingPathComponent("page.png").path))
        #expect(FileManager.default.fileExists(atPath: cli.root.appendingPathComponent("inner.pdf").path))
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
