import Foundation
import Testing
import TestSupport

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
        let rendered = try cli.ok(["render", "Standup", "--format", "svg", "-o", out.appendingPathComponent("standup.svg").path])
        #expect(try files(out) == ["standup-p01.svg", "standup-p02.svg"])
        // Each file written is named with its page and its size: bytes under 1000, else decimal kilobytes.
        let png = try cli.ok(["render", "Standup", "--page", "1", "-o", out.appendingPathComponent("standup.png").path])
        for (output, name, page) in [(rendered, "standup-p01.svg", 1), (rendered, "standup-p02.svg", 2), (png, "standup.png", 1)] {
            let bytes = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as! Int
            let size = bytes < 1000 ? "\(bytes) bytes" : "\(Int((Double(bytes) / 1000).rounded())) KB"
            #expect(output.contains("\(name) (page \(page), \(size))\n"), "\(output)")
        }
        #expect(png.contains(" KB)"), "a page's PNG is over 1000 bytes: \(png)")
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

    @Test("export --zip killed half-way leaves its temporaries beside the archive, none in $TMPDIR, and the next export sweeps them")
    func killedZipExport() throws {
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "12", "--pages", "2", "--sentences", "1"])
        try cli.ok(["import", "--no-recognize", samples.path])
        let out = cli.root.appendingPathComponent("out"), temporary = cli.root.appendingPathComponent("tmp")
        for folder in [out, temporary] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let archive = out.appendingPathComponent("all.zip")
        let environment = ["TMPDIR": temporary.path]

        let export = Process()
        export.executableURL = CLI.executable
        export.arguments = ["export", "--all", "--format", "png", "--scale", "3", "--zip", archive.path]
        export.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(["INKWELL_LIBRARY": cli.library.path]) { $1 }
        export.standardOutput = FileHandle.nullDevice
        export.standardError = FileHandle.nullDevice
        try export.run()
        // Killed once it has written a few pages of the archive's entries.
        func parts() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            return names.filter { $0.hasSuffix(".parts") }.reduce(0) {
                $0 + ((try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent($1).path))?.count ?? 0)
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while parts() < 3, export.isRunning, Date() < deadline { usleep(2_000) }
        kill(export.processIdentifier, SIGKILL)
        export.waitUntilExit()
        try #require(export.terminationReason == .uncaughtSignal, "the export ended before it could be killed")
        let left = try files(out)
        #expect(left.contains { $0.hasPrefix(".all.zip.inkwell-export-") }, "\(left)")
        #expect(!left.contains("all.zip"), "no archive until it is whole")
        let inTemporary = try files(temporary)
        #expect(inTemporary.isEmpty, "nothing in $TMPDIR: \(inTemporary)")

        let again = try cli.run(["export", "--all", "--format", "svg", "--zip", archive.path], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try files(out) == ["all.zip"], "the killed export's temporaries are swept")
        #expect(try files(temporary).isEmpty)
        let (status, output) = try tool(["unzip", "-t", archive.path])
        #expect(status == 0, "\(output)")
    }
}

@Suite("inkwell export FILE…: converting without a library")
struct ExportFilesTests {
    let cli = CLI()

    @Test("pen files become a ZIP of PDFs named after them, nothing written to any library; a bad file is reported, the others exported",
          .enabled(if: ImportCorpus.available, ImportCorpus.missing))
    func zipOfFiles() throws {
        let xopp = try cli.write("page.xopp", """
            <xournal><page width="200" height="200"><layer><stroke tool="pen" color="#000000ff" width="2">10 10 100 100 150 20</stroke></layer></page></xournal>
            """)
        let bad = try cli.write("broken.rm", "reMarkable .lines file, version=6          \u{1}\u{2}")
        let files = [ImportCorpus.path("rm/rmc/fullpage.rm"), ImportCorpus.path("rm/rmc/abcd.strokes.rm"), xopp]
        let zip = cli.root.appendingPathComponent("pages.zip")
        let result = try cli.run(["export"] + files + [bad, "--zip", zip.path, "--json"])
        #expect(result.status == 2, "partly done: \(result.stderr)")
        #expect(result.stderr.contains("broken.rm"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["written"] as? [String] == ["fullpage.pdf", "abcd-strokes.pdf", "page.pdf"], "\(report)")
        #expect((report["failed"] as? [[String: Any]])?.count == 1)
        #expect(try tool(["unzip", "-Z1", zip.path]).output.split(separator: "\n") == ["fullpage.pdf", "abcd-strokes.pdf", "page.pdf"])
        #expect(!FileManager.default.fileExists(atPath: cli.library.path), "a library was created")
    }

    @Test("names never meet and never land on an input; --on-conflict refuse writes nothing at all")
    func namesAndConflicts() throws {
        let page = """
            <xournal><page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="2">10 10 90 90</stroke></layer></page></xournal>
            """
        let first = try cli.write("page.xopp", page)
        let folder = cli.root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let second = folder.appendingPathComponent("page.xopp")
        try Data(page.utf8).write(to: second)
        // A PDF beside the input, named as the output would be: it is an input too here, and kept.
        let inputs = URL(fileURLWithPath: first).deletingLastPathComponent()
        let report = try #require(try cli.json(["export", first, second.path, "--format", "inkml", "-o", inputs.path]) as? [String: Any])
        #expect((report["written"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent } == ["page.inkml", "page-2.inkml"])
        let same = try #require(try cli.json(["export", second.path, "--format", "inkml", "-o", folder.path, "--on-conflict", "suffix"]) as? [String: Any])
        #expect((same["written"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent } == ["page.inkml"])
        let input = try Data(contentsOf: second)
        try cli.ok(["export", second.path, "--format", "inkml", "-o", folder.path, "--on-conflict", "overwrite"])
        #expect(try Data(contentsOf: second) == input)

        // refuse: page.inkml exists in `folder`; the other file's output must not be written either.
        let third = try cli.write("fresh.xopp", page)
        let refused = try cli.run(["export", third, second.path, "--format", "inkml", "-o", folder.path, "--on-conflict", "refuse"])
        #expect(refused.status != 0 && refused.stderr.contains("exists"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fresh.inkml").path))
    }

    @Test("PNGs a page into a folder; Markdown is refused for files")
    func pngAndMarkdown() throws {
        let xopp = try cli.write("two.xopp", """
            <xournal><page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="2">10 10 90 90</stroke></layer></page>
            <page width="100" height="100"><layer><stroke tool="pen" color="#000000ff" width="2">90 10 10 90</stroke></layer></page></xournal>
            """)
        let folder = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try cli.ok(["export", xopp, "--format", "png", "--scale", "2", "-o", folder.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["two-p01.png", "two-p02.png"])
        let md = try cli.run(["export", xopp, "--format", "md", "-o", folder.path])
        #expect(md.status != 0 && md.stderr.contains("recognised text"), "\(md.stderr)")
        let author = try cli.run(["export", xopp, "--author", "Me", "-o", folder.path])
        #expect(author.status != 0 && author.stderr.contains("apply to notes"), "\(author.stderr)")
    }
}
