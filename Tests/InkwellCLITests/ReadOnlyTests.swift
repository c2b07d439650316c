import Foundation
import Testing

/// A private mount namespace (`unshare -m` as root, `unshare -rm` as a user with user namespaces),
/// where a test can mount a library read-only or on a tiny tmpfs without touching the machine.
enum MountNamespace {
    /// The `unshare` flags that work here, or nil.
    static let flags: [String]? = {
        for flags in [["-m"], ["-rm"]] {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            probe.arguments = flags + ["sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=1m tmpfs /tmp"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { return nil }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return flags }
        }
        return nil
    }()
    static let missing: Comment = "needs a private mount namespace (unshare -m as root, or unshare -rm with user namespaces)"

    /// Runs `script` with bash in a namespace of its own. The script's `run NAME ARGS…` runs
    /// `inkwell ARGS…` and keeps its output, errors and status for ``Results``.
    static func run(_ script: String, cli: CLI, environment: [String: String] = [:]) throws -> Results {
        let results = cli.root.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = (flags ?? []) + ["bash", "-c", """
            set -u
            run() { name=$1; shift; "$INKWELL" "$@" > "$RESULTS/$name.out" 2> "$RESULTS/$name.err"; echo $? > "$RESULTS/$name.status"; }
            \(script)
            """]
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["INKWELL"] = CLI.executable.path
        env["INKWELL_LIBRARY"] = cli.library.path
        env["RESULTS"] = results.path
        process.environment = env
        process.currentDirectoryURL = cli.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the namespace script failed: \(stderr)")
        return Results(folder: results)
    }

    /// What the commands of a script printed.
    struct Results {
        let folder: URL
        func status(_ name: String) -> Int32? {
            (try? String(contentsOf: folder.appendingPathComponent(name + ".status"), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        func out(_ name: String) -> String { (try? String(contentsOf: folder.appendingPathComponent(name + ".out"), encoding: .utf8)) ?? "" }
        func err(_ name: String) -> String { (try? String(contentsOf: folder.appendingPathComponent(name + ".err"), encoding: .utf8)) ?? "" }
        func json(_ name: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(out(name).utf8)) }
    }
}

/// Reading a library that cannot be written: a read-only mount (a backup, another user's library)
/// and a full disk.
@Suite("Read-only library and full disk", .enabled(if: MountNamespace.flags != nil, MountNamespace.missing))
struct ReadOnlyTests {
    let cli = CLI()

    /// A library with two recognised notes, one with #launch written on it.
    func library() throws {
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "2", "--jitter", "none"])
        try cli.ok(["import", samples.path])
    }

    /// The read commands a user runs on a library, and what each must print.
    static let reads = """
        run list note list --json
        run search search kickoff --json
        run tags tags --json
        run stats stats --json
        run check check
        run render render "Project kickoff" -o "$OUT/kickoff.png"
        run export export --all --format md -o "$OUT"
        run query export --query kickoff -o "$OUT/kickoff.pdf"
        run create note create "Not here"
        run index index
        """

    /// `notice`: whether the index must say it was opened read-only (nil: either, as on a full
    /// disk, where it opens for writing as long as SQLite's files need no more room).
    func expectReads(_ results: MountNamespace.Results, notice: Bool?, library: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for name in ["list", "search", "tags", "stats", "check", "render", "export", "query"] {
            #expect(results.status(name) == 0, "\(name): \(results.err(name))", sourceLocation: sourceLocation)
        }
        #expect((results.json("list") as? [Any])?.count == 2, sourceLocation: sourceLocation)
        let hits = results.json("search") as? [[String: Any]]
        #expect(hits?.map { $0["title"] as? String } == ["Project kickoff"], "\(results.out("search"))", sourceLocation: sourceLocation)
        let recognition = (results.json("stats") as? [String: Any])?["recognition"] as? [String: Int]
        #expect(recognition?["recognised"] == 2, sourceLocation: sourceLocation)
        if let notice {
            #expect(results.err("search").contains("could only be opened for reading") == notice, "\(results.err("search"))",
                    sourceLocation: sourceLocation)
        }
        #expect(results.err("search").components(separatedBy: "could only be opened").count <= 2, sourceLocation: sourceLocation)
        // Writes are refused, naming what could not be written, with a non-zero exit.
        #expect(results.status("create") != 0 && results.err("create").contains(library), "\(results.err("create"))",
                sourceLocation: sourceLocation)
    }

    @Test("every read command works on a read-only mount, with or without the index's WAL files beside it",
          arguments: [false, true])
    func readOnlyMount(withoutWALFiles: Bool) throws {
        try library()
        if withoutWALFiles {
            // As a backup copied after a clean close holds it: index.sqlite alone.
            let index = cli.library.appendingPathComponent("index.sqlite").path
            let checkpoint = Process()
            checkpoint.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            checkpoint.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()", index]
            try checkpoint.run()
            checkpoint.waitUntilExit()
            try #require(checkpoint.terminationStatus == 0, "needs python3 to checkpoint the index")
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        }
        let before = try cli.snapshot()
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let results = try MountNamespace.run("""
            mount --bind "$INKWELL_LIBRARY" "$INKWELL_LIBRARY"
            mount -o remount,bind,ro "$INKWELL_LIBRARY"
            \(ReadOnlyTests.reads)
            """, cli: cli, environment: ["OUT": out.path])
        expectReads(results, notice: true, library: cli.library.path)
        #expect(results.status("index") != 0 && results.err("index").contains("can only be read here"), "\(results.err("index"))")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("kickoff.png").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("kickoff.pdf").path))
        #expect(try cli.snapshot() == before)
    }

    @Test("a library never indexed, read-only or on a full disk: search (titles, tags, typed text), export and listings work from the files; no index is made",
          arguments: ["readOnly", "fullDisk"])
    func neverIndexed(where place: String) throws {
        let disk = cli.root.appendingPathComponent("disk")
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let typed = cli.root.appendingPathComponent("typed.md")
        try "call the caterer about the budget #catering\n".write(to: typed, atomically: true, encoding: .utf8)
        let prepare = """
            run init init
            run create note create "Project kickoff" --notebook Work
            run other note create "Groceries"
            run text note text "Project kickoff" --set "$TYPED"
            rm -f "$INKWELL_LIBRARY"/index.sqlite*
            """
        let reads = """
            run list note list --json
            run titleSearch search kickoff --json
            run typedSearch search caterer --json
            run tagSearch search --tag catering --json
            run export export --all --format md -o "$OUT"
            ls -A "$INKWELL_LIBRARY" > "$RESULTS/files.out"
            """
        let results = try MountNamespace.run(place == "readOnly" ? """
            export INKWELL_LIBRARY="$DISK/library"
            \(prepare)
            mount --bind "$INKWELL_LIBRARY" "$INKWELL_LIBRARY"
            mount -o remount,bind,ro "$INKWELL_LIBRARY"
            \(reads)
            """ : """
            mount -t tmpfs -o size=8m tmpfs "$DISK"
            export INKWELL_LIBRARY="$DISK/library"
            \(prepare)
            cat /dev/zero > "$DISK/filler" 2>/dev/null || true
            \(reads)
            """, cli: cli, environment: ["DISK": disk.path, "OUT": out.path, "TYPED": typed.path])
        try #require(results.status("text") == 0, "\(results.err("text"))")
        for name in ["list", "titleSearch", "typedSearch", "tagSearch", "export"] {
            #expect(results.status(name) == 0, "\(place) \(name): \(results.err(name))")
        }
        #expect((results.json("list") as? [Any])?.count == 2)
        for name in ["titleSearch", "typedSearch", "tagSearch"] {
            let titles = (results.json(name) as? [[String: Any]])?.map { $0["title"] as? String }
            #expect(titles == ["Project kickoff"], "\(place) \(name): \(results.out(name)) \(results.err(name))")
        }
        let exported = (try? FileManager.default.subpathsOfDirectory(atPath: out.path)) ?? []
        #expect(exported.contains { $0.hasSuffix("project-kickoff.md") } && exported.contains { $0.hasSuffix("groceries.md") }, "\(exported)")
        // The lock that creating an index takes (index.sqlite.lock, empty) may be made; no index file.
        let files = results.out("files").split(separator: "\n")
        #expect(!files.contains { $0.hasPrefix("index.sqlite") && $0 != "index.sqlite.lock" }, "an index was left behind: \(files)")
    }

    @Test("on a full disk, reads work; a write fails naming the file and leaves nothing behind once there is room")
    func fullDisk() throws {
        let disk = cli.root.appendingPathComponent("disk")
        let out = cli.root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "2", "--jitter", "none"])
        let results = try MountNamespace.run("""
            mount -t tmpfs -o size=8m tmpfs "$DISK"
            export INKWELL_LIBRARY="$DISK/library"
            run init init
            run import import "$SAMPLES"
            cat /dev/zero > "$DISK/filler" 2>/dev/null || true
            \(ReadOnlyTests.reads)
            rm "$DISK/filler"
            run after check --json
            run listAfter note list --json
            find "$DISK/library" -name '*.tmp' > "$RESULTS/temporaries.out"
            ls -A "$DISK/library/.staging" > "$RESULTS/staging.out"
            """, cli: cli, environment: ["DISK": disk.path, "OUT": out.path, "SAMPLES": samples.path])
        try #require(results.status("import") == 0, "\(results.err("import"))")
        expectReads(results, notice: nil, library: disk.appendingPathComponent("library").path)
        #expect(results.err("create").contains("No space left on device"), "\(results.err("create"))")
        #expect(results.status("after") == 0 && (results.json("listAfter") as? [Any])?.count == 2)
        let leftovers = (results.json("after") as? [[String: Any]])?.filter { $0["kind"] as? String == "leftover" }
        #expect(leftovers?.isEmpty == true, "\(results.out("after"))")
        #expect(results.out("temporaries").isEmpty && results.out("staging").isEmpty,
                "left behind: \(results.out("temporaries")) \(results.out("staging"))")
    }
}
