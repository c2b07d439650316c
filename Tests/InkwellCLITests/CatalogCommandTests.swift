import Foundation
import Testing

/// `inkwell export --catalog csv|json`: selection, destinations, conflicts and refusals.
@Suite("inkwell export --catalog")
struct CatalogCommandTests {
    let cli = CLI()

    /// A library of four notes in two notebooks, one placed by hand, one pinned; returns the output folder.
    func library() throws -> URL {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Budget, \"draft\"", "--notebook", "Work", "--tag", "q3"])
        try cli.ok(["note", "create", "Retro", "--notebook", "Work", "--tag", "q3"])
        try cli.ok(["note", "create", "Groceries"])
        try cli.ok(["note", "create", "Plan", "--notebook", "Work", "--pinned"])
        try cli.ok(["note", "move", "Retro", "--last"])
        let out = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return out
    }

    @Test("every note by default, in listing order, to standard output")
    func everyNote() throws {
        _ = try library()
        let listed = (try cli.json(["note", "list"]) as! [[String: Any]]).map { $0["id"] as! String }
        let catalog = try JSONSerialization.jsonObject(with: Data(try cli.ok(["export", "--catalog", "json", "-o", "-"]).utf8)) as! [[String: Any]]
        #expect(catalog.map { $0["id"] as! String } == listed)
        let budget = try #require(catalog.first { $0["title"] as? String == "Budget, \"draft\"" })
        #expect(budget["notebook"] as? String == "Work" && budget["tags"] as? [String] == ["q3"] && budget["source"] as? String == "user")
        #expect(budget["pages"] as? Int == 0 && budget["pinned"] as? Bool == false && budget["text"] as? String == "")
        #expect((budget["created"] as? String)?.hasSuffix("Z") == true)
    }

    @Test("the selection options choose the rows; the file is written whole into a folder or a named file")
    func selectionAndFiles() throws {
        let out = try library()
        let wrote = try cli.ok(["export", "--catalog", "csv", "--tag", "q3", "-o", out.path])
        #expect(wrote.contains("(2 notes)"))
        let csv = try String(contentsOf: out.appendingPathComponent("catalog.csv"), encoding: .utf8)
        let records = csv.components(separatedBy: "\r\n")
        #expect(records.first == "id,notebook,title,created,modified,tags,pinned,source,pages,text")
        #expect(records.count == 4 && records[3] == "")
        #expect(records[1].contains(",Work,\"Budget, \"\"draft\"\"\",") && records[2].contains(",Work,Retro,"))
        let named = out.appendingPathComponent("work.json")
        try cli.ok(["export", "--catalog", "json", "--notebook", "Work", "Groceries", "-o", named.path])
        let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: named)) as! [[String: Any]]
        #expect(rows.map { $0["title"] as! String } == ["Plan", "Groceries", "Budget, \"draft\"", "Retro"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["catalog.csv", "work.json"])
    }

    @Test("an existing catalog is refused, skipped, suffixed or overwritten as --on-conflict says")
    func conflicts() throws {
        let out = try library()
        let file = out.appendingPathComponent("catalog.csv")
        try Data("keep me".utf8).write(to: file)
        // The search index is a cache the command may open (and create); the notes must stay as they were.
        func notes() throws -> [String: Data] { try cli.snapshot().filter { !$0.key.contains("index.sqlite") } }
        let before = try notes()
        let refused = try cli.run(["export", "--catalog", "csv", "-o", out.path])
        #expect(refused.status != 0 && refused.stderr.contains("\(file.path): exists; choose --on-conflict overwrite, skip or suffix"))
        #expect(try cli.ok(["export", "--catalog", "csv", "-o", file.path, "--on-conflict", "skip"]).contains("skipped"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
        try cli.ok(["export", "--catalog", "csv", "-o", out.path, "--on-conflict", "suffix"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("catalog-2.csv").path))
        try cli.ok(["export", "--catalog", "csv", "-o", file.path, "--on-conflict", "overwrite"])
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("id,notebook,"))
        #expect(try notes() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["catalog-2.csv", "catalog.csv"])
    }

    @Test("options that mean nothing for a catalog are refused")
    func refusals() throws {
        let out = try library()
        for (args, message) in [
            (["--format", "png"], "--format does not apply"),
            (["--zip", "x.zip"], "--zip does not apply"),
            (["--scale", "2"], "--scale does not apply"),
            (["--author", "Ada"], "--author does not apply"),
            (["-o", "-", "--json"], "--json has no room there"),
        ] {
            let result = try cli.run(["export", "--catalog", "csv"] + args)
            #expect(result.status != 0 && result.stderr.contains(message), "\(args): \(result.stderr)")
        }
        let noCatalog = try cli.run(["export", "--all", "-o", "-"])
        #expect(noCatalog.status != 0 && noCatalog.stderr.contains("this takes one file"), "\(noCatalog.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }
}
