import Foundation
import Testing

@Suite("inkwell export --obsidian-vault")
struct ObsidianPushCommandTests {
    let cli = CLI()

    /// Imports two notes written on two days, the first tagged `work`, and returns an empty vault.
    func twoNotes() throws -> URL {
        var lines = [line(["type": "note", "title": "Monday plan", "created": "2026-03-02T09:00:00Z", "tags": ["work"]]), line(["type": "page"])]
        lines += strokeLines(at: 0)
        lines += [line(["type": "note", "title": "Tuesday notes", "created": "2026-03-03T09:00:00Z"]), line(["type": "page"])]
        lines += strokeLines(at: 5)
        try cli.ok(["init"])
        // Not recognised: Tesseract would read the test strokes as a "-", which the daily note would show.
        try cli.ok(["import", "--no-recognize", try cli.write("two.jsonl", lines.joined(separator: "\n") + "\n")])
        let vault = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        return vault
    }

    func files(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("pushes the selected notes into their daily notes once; --json reports it; pushing again changes nothing")
    func pushOnce() throws {
        let vault = try twoNotes()
        let report = try cli.json(["export", "--tag", "work", "--obsidian-vault", vault.path]) as! [String: Any]
        let daily = report["dailyNotes"] as! [[String: Any]]
        #expect(daily.map { $0["path"] as! String } == ["2026-03-02.md"])
        #expect((daily[0]["added"] as! [String]).count == 1 && daily[0]["created"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: vault.appendingPathComponent("2026-03-03.md").path))

        let all = try cli.ok(["export", "--all", "--obsidian-vault", vault.path])
        #expect(all.contains("2026-03-03.md: added 1 note (new daily note)"))
        #expect(all.contains("1 note already pushed and unchanged"))
        let monday = try String(contentsOf: vault.appendingPathComponent("2026-03-02.md"), encoding: .utf8)
        #expect(monday.hasPrefix("## Monday plan\ninkwell · Inbox · 09:00 · #work\n\n![[20260302-monday-plan-p01-"))

        let before = files(vault).map { ($0, try? Data(contentsOf: vault.appendingPathComponent($0))) }
        #expect(try cli.ok(["export", "--all", "--obsidian-vault", vault.path]).contains("2 notes already pushed and unchanged"))
        #expect(files(vault).map { ($0, try? Data(contentsOf: vault.appendingPathComponent($0))) }.elementsEqual(before, by: ==))
    }

    @Test("options that do not apply to a vault, and a vault that is not a folder, are clear errors")
    func refusals() throws {
        let vault = try twoNotes()
        let withFormat = try cli.run(["export", "--all", "--obsidian-vault", vault.path, "--format", "pdf"])
        #expect(withFormat.status != 0 && withFormat.stderr.contains("--format do not apply"))
        let missing = try cli.run(["export", "--all", "--obsidian-vault", vault.path + "/nowhere"])
        #expect(missing.status != 0 && missing.stderr.contains("nowhere: is not a folder"))
        #expect(files(vault).isEmpty)
    }

    @Test("a disk that fills up half-way leaves every daily note whole, and records only what was written")
    func diskFull() throws {
        let vault = try twoNotes()
        try cli.ok(["search", "anything"])  // the index exists before the file size limit applies
        let long = String(repeating: "my own long journal line\n", count: 6_000)  // 150 KB
        let tuesday = vault.appendingPathComponent("2026-03-03.md")
        try Data(long.utf8).write(to: tuesday)

        // RLIMIT_FSIZE of 128 KB: writing a bigger file fails with EFBIG, as on a full disk.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 256; exec \"$0\" \"$@\"", CLI.executable.path,
                             "export", "--all", "--obsidian-vault", vault.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["INKWELL_LIBRARY": cli.library.path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(stderr.contains("2026-03-03.md") && stderr.contains("File too large"), "\(stderr)")
        #expect(try Data(contentsOf: tuesday) == Data(long.utf8))
        #expect(try String(contentsOf: vault.appendingPathComponent("2026-03-02.md"), encoding: .utf8).hasPrefix("## Monday plan\n"))
        let written = files(vault)
        #expect(written.filter { $0.hasSuffix(".png") }.count == 1 && !written.contains { $0.hasSuffix(".tmp") }, "\(written)")
        #expect(try String(contentsOf: vault.appendingPathComponent(".inkwell/pushed.jsonl"), encoding: .utf8).split(separator: "\n").count == 1)

        let retry = try cli.ok(["export", "--all", "--obsidian-vault", vault.path])
        #expect(retry.contains("2026-03-03.md: added 1 note") && retry.contains("1 note already pushed and unchanged"))
        #expect(try String(contentsOf: tuesday, encoding: .utf8).hasPrefix(long + "\n## Tuesday notes\n"))
    }
}
