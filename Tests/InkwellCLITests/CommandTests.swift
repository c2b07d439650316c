import Foundation
import InkwellKit
import Testing

@Suite("inkwell command")
struct CommandTests {
    let cli = CLI()

    @Test("inkwell sample works from any folder (its fonts are compiled in), in place, leaving nothing in the temporary folder")
    func sampleLeavesNoTemporaryFiles() throws {
        let temporary = cli.root.appendingPathComponent("tmp"), output = cli.root.appendingPathComponent("samples")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        for style in ["print", "script"] {  // the second run replaces the files
            let result = try cli.run(["sample", "-o", output.path, "--notes", "3", "--sentences", "1", "--style", style],
                                     environment: ["TMPDIR": temporary.path], directory: temporary)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        let written = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(written.count == 6 && written.allSatisfy { $0.hasSuffix(".jsonl") || $0.hasSuffix(".truth.json") }, "\(written)")
    }

    @Test("help explains every command")
    func help() throws {
        let help = try cli.ok(["--help"])
        for command in ["init", "import", "note", "notebook", "trash", "stats", "check"] {
            #expect(help.contains(command))
        }
        #expect(try cli.ok(["note", "list", "--help"]).contains("--tag"))
    }

    @Test("notebooks and notes: create, list with filters, show, rename, move, pin, tag")
    func organize() throws {
        try cli.ok(["init"])
        try cli.ok(["notebook", "create", "Work/Meetings"])
        let notebooks = try cli.json(["notebook", "list"]) as! [[String: Any]]
        #expect(notebooks.map { $0["path"] as! String } == ["Inbox", "Work", "Work/Meetings"])

        let a = try cli.json(["note", "create", "Budget", "--notebook", "Work/Meetings", "--tag", "q3", "--tag", "money"]) as! [String: Any]
        _ = try cli.json(["note", "create", "Retro", "--notebook", "Work", "--tag", "q3"])
        _ = try cli.json(["note", "create", "Groceries"])
        let id = a["id"] as! String

        func titles(_ args: [String]) throws -> [String] {
            (try cli.json(["note", "list"] + args) as! [[String: Any]]).map { $0["title"] as! String }.sorted()
        }
        #expect(try titles([]) == ["Budget", "Groceries", "Retro"])
        #expect(try titles(["--notebook", "Work"]) == ["Budget", "Retro"])
        #expect(try titles(["--tag", "q3"]) == ["Budget", "Retro"])
        #expect(try titles(["--tag", "q3", "--tag", "money"]) == ["Budget"])

        try cli.ok(["note", "pin", String(id.prefix(6))])
        #expect(try titles(["--pinned"]) == ["Budget"])
        try cli.ok(["note", "rename", id, "Budget 2027"])
        let typo = try cli.run(["note", "move", "Budget 2027", "Archive"])
        #expect(typo.status == 1 && typo.stderr.contains("no notebook \"Archive\"") && typo.stderr.contains("--create"), "\(typo.stderr)")
        try cli.ok(["note", "move", "Budget 2027", "Archive", "--create"])
        try cli.ok(["note", "tag", id, "--add", "#Final", "--remove", "money"])
        let shown = try cli.json(["note", "show", id]) as! [String: Any]
        let note = shown["note"] as! [String: Any]
        #expect(note["title"] as? String == "Budget 2027")
        #expect(note["notebook"] as? String == "Archive")
        #expect(note["tags"] as? [String] == ["final", "q3"])
        #expect(note["pinned"] as? Bool == true)
        for command in [["note", "list", "--notebook", "Achive"], ["export", "--notebook", "archive", "-o", cli.root.path + "/"]] {
            let misspelt = try cli.run(command)
            #expect(misspelt.status == 1 && misspelt.stderr.contains("did you mean \"Archive\"?"), "\(command): \(misspelt.stderr)")
        }
    }

    @Test("--library goes before or after the command")
    func libraryAnywhere() throws {
        let other = cli.root.appendingPathComponent("other library").path
        try cli.ok(["--library", other, "init"])
        try cli.ok(["--library=\(other)", "note", "create", "Before"])
        try cli.ok(["note", "create", "After", "--library", other])
        let titles = (try cli.json(["--library", other, "note", "list"]) as! [[String: Any]]).compactMap { $0["title"] as? String }
        #expect(titles.sorted() == ["After", "Before"])
        #expect(!FileManager.default.fileExists(atPath: cli.library.path), "the default library was not touched")
    }

    @Test("serve on a port another program holds says so and names --port")
    func portTaken() throws {
        try cli.ok(["init"])
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try cli.run(["serve", "--port", String(port), "--no-recognize"])
        #expect(result.status == 1 && result.stderr.contains("127.0.0.1:\(port) is in use by another program: choose another port with --port"),
                "\(result.stderr)")
    }

    @Test("mistakes get a clear error and a non-zero exit")
    func errors() throws {
        try cli.ok(["init"])
        let missing = try cli.run(["note", "show", "no-such-note"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no note matches \"no-such-note\""))
        let badNotebook = try cli.run(["notebook", "create", "../escape"])
        #expect(badNotebook.status != 0)
        #expect(badNotebook.stderr.contains("relative path component"))
        let absolute = try cli.run(["notebook", "create", "/etc"])
        #expect(absolute.status != 0 && absolute.stderr.contains("\"/etc\" starts with '/'"), "\(absolute.stderr)")
        #expect(!(try cli.ok(["notebook", "list"])).contains("etc"))
        let badTag = try cli.run(["note", "create", "X", "--tag", "has space"])
        #expect(badTag.status != 0)
        #expect(badTag.stderr.contains("is not a tag"))
        let notLibrary = try CLI().run(["note", "list"])
        #expect(notLibrary.status != 0)
        #expect(notLibrary.stderr.contains("not an Inkwell library"))
    }

    @Test("only init creates a library: a mistyped --library is refused by every command, and nothing is created")
    func onlyInitCreates() throws {
        let log = try cli.write("note.jsonl", ([line(["type": "header", "version": 1]), line(["type": "note", "title": "T"]),
                                                line(["type": "page"])] + strokeLines(at: 0)).joined(separator: "\n"))
        let elsewhere = cli.root.appendingPathComponent("typo-library")
        for arguments in [["import", log], ["note", "create", "X"], ["notebook", "create", "Work"], ["route", "add", "#a", "A"], ["ingest"]] {
            let result = try cli.run(arguments + ["--library", elsewhere.path])
            #expect(result.status != 0 && result.stderr.contains("not an Inkwell library") && result.stderr.contains("inkwell init"),
                    "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: elsewhere.path), "\(arguments) created \(elsewhere.path)")
        }
    }

    @Test("a library from a newer Inkwell is refused by every command, naming the release it needs")
    func newerLibrary() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Mine"])
        try Data(#"{"format":3,"minReader":3,"minReaderVersion":"0.9.0"}"#.utf8)
            .write(to: cli.library.appendingPathComponent("inkwell-library.json"))
        for arguments in [["note", "list"], ["note", "create", "X"], ["search", "mine"], ["stats"]] {
            let result = try cli.run(arguments)
            #expect(result.status != 0 && result.stderr.contains("needs Inkwell ≥ 0.9.0 (format 3)"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("a library from Inkwell 0.1.0 is read, refused for changes until `inkwell upgrade`, then written")
    func upgradeFormatOne() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Old note"])
        let marker = cli.library.appendingPathComponent("inkwell-library.json")
        try Data(#"{"created":"2026-01-01T00:00:00Z","format":1,"minReader":1,"minReaderVersion":"0.1.0"}"#.utf8).write(to: marker)
        #expect((try cli.json(["note", "list"]) as? [Any])?.count == 1)
        let refused = try cli.run(["note", "create", "New note"])
        #expect(refused.status != 0 && refused.stderr.contains("run `inkwell upgrade`"), "\(refused.stderr)")
        // The drop folder says so at once rather than letting files wait (or fail) there.
        let ingest = try cli.run(["ingest"])
        #expect(ingest.status != 0 && ingest.stderr.contains("run `inkwell upgrade`"), "\(ingest.stderr)")
        let upgrade = try #require(try cli.json(["upgrade"]) as? [String: Any])
        #expect(upgrade["from"] as? Int == 1 && upgrade["to"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: marker.path + ".format-1"))
        try cli.ok(["note", "create", "New note"])
        #expect(try cli.ok(["upgrade"]).contains("nothing to do"))
    }

    @Test("delete goes to the trash and restore brings it back")
    func trash() throws {
        try cli.ok(["init"])
        try cli.ok(["note", "create", "Keep me", "--notebook", "Work"])
        try cli.ok(["notebook", "delete", "Work"])
        #expect((try cli.json(["note", "list"]) as! [Any]).isEmpty)
        let items = try cli.json(["trash", "list"]) as! [[String: Any]]
        #expect(items.count == 1 && items[0]["kind"] as? String == "notebook" && items[0]["title"] as? String == "Work")
        #expect(items[0]["notebook"] as? String == "" && items[0]["notes"] as? Int == 1 && (items[0]["deleted"] as? String)?.hasSuffix("Z") == true)
        try cli.ok(["trash", "restore", "Work"])
        #expect((try cli.json(["note", "list"]) as! [[String: Any]]).map { $0["title"] as! String } == ["Keep me"])
        try cli.ok(["note", "delete", "Keep me"])
        let refused = try cli.run(["trash", "empty"])
        #expect(refused.status != 0 && refused.stderr.contains("--yes"))
        try cli.ok(["trash", "empty", "--yes"])
        #expect((try cli.json(["trash", "list"]) as! [Any]).isEmpty)
    }

    @Test("two processes writing one library lose nothing")
    func concurrentWriters() throws {
        try cli.ok(["init"])
        let created = try cli.json(["note", "create", "Shared"]) as! [String: Any]
        let id = created["id"] as! String
        // Many processes at once read-modify-write the same note.json; without the lock, tags would be lost.
        let group = DispatchGroup()
        let failures = Locked(0)
        for writer in 0..<2 {
            for n in 0..<12 {
                group.enter()
                DispatchQueue.global().async {
                    defer { group.leave() }
                    if (try? cli.run(["note", "tag", id, "--add", "w\(writer)-\(n)"]))?.status != 0 { failures.withLock { $0 += 1 } }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        let note = (try cli.json(["note", "show", id]) as! [String: Any])["note"] as! [String: Any]
        #expect((note["tags"] as! [String]).count == 24)
    }
}
