import Foundation
import Testing

/// `inkwell export` and `inkwell render` to files: which notes, which names, what happens to files
/// that exist.
@Suite("inkwell export and render")
struct ExportCommandTests {
    let cli = CLI()

    /// Imports a two-page note "Standup" (Work, #daily) and a one-page note "Groceries" (Inbox);
    /// returns an empty output folder.
    func library() throws -> URL {
        try cli.ok(["init"])
        let standup = ([
            line(["type": "header", "version": 1]),
            line(["type": "note", "title": "Standup", "notebook": "Work", "tags": ["daily"]]),
            line(["type": "page"]),
        ] + strokeLines(at: 0) + [line(["type": "page"])] + strokeLines(at: 1, y: 400)).joined(separator: "\n")
        let groceries = ([
            line(["type": "header", "version": 1]),
            line(["type": "note", "title": "Groceries", "tags": ["daily"]]),
            line(["type": "page"]),
        ] + strokeLines(at: 0)).joined(separator: "\n")
        try cli.ok(["import", try cli.write("standup.jsonl", standup), try cli.write("groceries.jsonl", groceries), "--no-recognize"])
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return out
    }

    func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("render and export name the pages of a note the same way: -p01, -p02")
    func pageNames() throws {
        let out = try library()
        try cli.ok(["render", "Standup", "--format", "svg", "-o", out.appendingPathComponent("standup.svg").path])
        #expect(try files(out) == ["standup-p01.svg", "standup-p02.svg"])
        let exported = try cli.json(["export", "Standup", "--format", "svg", "-o", out.path]) as! [String: Any]
        let names = (exported["written"] as! [String]).map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(names.count == 2 && names.allSatisfy { $0.contains("-standup-p0") } && names[0].hasSuffix("-p01.svg"), "\(names)")
    }

    @Test("filters combine with AND: --notebook Work --tag daily exports Standup only")
    func selection() throws {
        let out = try library()
        let exported = try cli.json(["export", "--notebook", "Work", "--tag", "daily", "-o", out.path]) as! [String: Any]
        #expect((exported["written"] as! [String]).map { URL(fileURLWithPath: $0).lastPathComponent.dropFirst(9) } == ["standup.pdf"])
        let none = try cli.run(["export", "--notebook", "Work", "--tag", "shopping", "-o", out.path])
        #expect(none.status != 0 && none.stderr.contains("no notes match"))
    }

    @Test("an existing ZIP is refused like any existing file, kept as it was, and --on-conflict suffix writes beside it")
    func existingArchive() throws {
        let out = try library()
        let archive = out.appendingPathComponent("notes.zip")
        try cli.ok(["export", "--all", "--zip", archive.path])
        let before = try Data(contentsOf: archive)
        let again = try cli.run(["export", "--all", "--zip", archive.path])
        #expect(again.status != 0 && again.stderr.contains(archive.path) && again.stderr.contains("--on-conflict"), "\(again.stderr)")
        #expect(try Data(contentsOf: archive) == before)
        try cli.ok(["export", "--all", "--zip", archive.path, "--on-conflict", "suffix"])
        let skipped = try cli.ok(["export", "--all", "--zip", archive.path, "--on-conflict", "skip"])
        #expect(skipped.contains("skipped \(archive.path)"))
        #expect(try files(out) == ["notes-2.zip", "notes.zip"])
    }
}
