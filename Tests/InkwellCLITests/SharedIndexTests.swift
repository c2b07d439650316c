import Foundation
import InkwellKit
import Testing
import TestSupport
import InkStore

/// The OCR indexing job on PostgreSQL, as a fleet runs it: several `inkwell index --worker`
/// processes on one library and one database, on the suite's throwaway server.
@Suite("Indexing and search on PostgreSQL with several workers", .serialized)
struct SharedIndexTests {
    /// A library of generated notes (one line of text a page), imported without recognition.
    static func library(notes: Int, pages: Int) throws -> CLI {
        let cli = CLI()
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "\(notes)", "--pages", "\(pages)", "--sentences", "1"])
        let logs = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        try cli.ok(["import", "--no-recognize"] + logs.map { samples.appendingPathComponent($0).path })
        return cli
    }

    /// Starts `inkwell ARGS` on `cli`'s library, its output to a file in the test's folder.
    static func start(_ cli: CLI, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["INKWELL_LIBRARY"] = cli.library.path
        process.environment = environment
        let output = cli.root.appendingPathComponent(log)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The quickest reading (one Tesseract render a line), for tests of the queue and the search, not of reading.
    static let quick = ["--quality", "fast", "--reader", "tesseract"]

    static func count(_ url: String, where condition: String) throws -> Int {
        Int(try PostgresTestServer.psql(url, "SELECT count(*) FROM page WHERE \(condition)")) ?? -1
    }

    static func waitUntil(seconds: Double, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    @Test("four workers, one killed mid-run, recognise every one of 200 pages exactly once; a page edited meanwhile is recognised again")
    func workersShareTheQueue() throws {
        let cli = try SharedIndexTests.library(notes: 50, pages: 4)
        let url = try PostgresTestServer.newDatabase()
        // What is tested is the queue, not reading: one Tesseract render a page keeps 200 pages quick.
        let workers = try (0..<4).map {
            try SharedIndexTests.start(cli, ["index", "--worker", "--index", url, "--jobs", "1", "--lease", "3"] + SharedIndexTests.quick,
                                       log: "worker-\($0).log")
        }
        defer { for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        // The first worker to connect creates the schema; until then there is no table to count in.
        try #require(try SharedIndexTests.waitUntil(seconds: 60) { try PostgresTestServer.psql(url, "SELECT to_regclass('page') IS NOT NULL") == "t" })
        #expect(try SharedIndexTests.waitUntil(seconds: 120) { try SharedIndexTests.count(url, where: "status = 'recognised'") >= 20 })

        // One worker dies holding a lease: its pages wait for the lease to run out, then others take them.
        let victim = workers[0]
        let held = try SharedIndexTests.count(url, where: "status = 'processing'")
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()

        // A page already recognised is edited while the others work: its new content is recognised too.
        let edited = try PostgresTestServer.psql(url, "SELECT id || ' ' || note_id FROM page WHERE status = 'recognised' ORDER BY recognised_at LIMIT 1")
            .split(separator: " ").map(String.init)
        let library = try Library(opening: cli.library)
        let stroke = Stroke(id: StrokeID(90_001), points: [InkPoint(x: 200, y: 1700), InkPoint(x: 400, y: 1720), InkPoint(x: 600, y: 1700)])
        try library.save([PageDelta(pageID: PageID(rawValue: edited[0]), isNew: false, addedStrokes: [stroke])], to: NoteID(rawValue: edited[1]))

        for (number, worker) in workers.enumerated().dropFirst() {
            worker.waitUntilExit()
            let log = (try? String(contentsOf: cli.root.appendingPathComponent("worker-\(number).log"), encoding: .utf8)) ?? ""
            #expect(worker.terminationStatus == 0, "worker \(number): \(log)")
        }
        #expect(held > 0, "the killed worker should have held leases")
        #expect(try SharedIndexTests.count(url, where: "true") == 200)
        #expect(try SharedIndexTests.count(url, where: "status = 'recognised'") == 200)
        #expect(try SharedIndexTests.count(url, where: "recognitions <> 1 AND id <> '\(edited[0])'") == 0, "every page recognised exactly once")
        #expect(try PostgresTestServer.psql(url, "SELECT recognitions FROM page WHERE id = '\(edited[0])'") == "2")

        // Nothing is stale: a further run finds every page's content recognised, and gives notes their hashtags.
        let again = try cli.json(["index", "--index", url] + SharedIndexTests.quick) as? [String: Any]
        #expect(again?["recognised"] as? Int == 0)
        #expect(again?["unchanged"] as? Int == 200)
        #expect(!(try cli.json(["tags"]) as? [Any] ?? []).isEmpty)
    }

    /// The text a worker wrote to its log (standard output and error).
    static func log(_ cli: CLI, _ name: String) -> String {
        (try? String(contentsOf: cli.root.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Waits up to `seconds` for `process` to end; false (and the process killed) when it did not.
    static func ends(_ process: Process, within seconds: Double) throws -> Bool {
        let ended = try waitUntil(seconds: seconds) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ended
    }

    @Test("the database stopped (pg_ctl stop -m fast) and started again while three workers run: they say so, wait, go on, and every page is recognised exactly once")
    func workersRideOutARestart() throws {
        let cli = try SharedIndexTests.library(notes: 12, pages: 2)
        let server = try PostgresTestServer.ownServer()
        defer { server.remove() }
        let workers = try (0..<3).map {
            try SharedIndexTests.start(cli, ["index", "--worker", "--index", server.url, "--jobs", "1", "--lease", "3"] + SharedIndexTests.quick,
                                       log: "worker-\($0).log")
        }
        defer { for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        try #require(try SharedIndexTests.waitUntil(seconds: 60) {
            (try? SharedIndexTests.count(server.url, where: "status = 'recognised'")) ?? 0 >= 3
        }, "the workers should have started recognising")

        try server.down()
        // Down for a few seconds, as a restart by an administrator or a failover is.
        Thread.sleep(forTimeInterval: 3)
        try server.up()

        var said = 0
        for (number, worker) in workers.enumerated() {
            let ended = try SharedIndexTests.ends(worker, within: 60)
            let log = SharedIndexTests.log(cli, "worker-\(number).log")
            #expect(ended, "worker \(number) should finish by itself: \(log)")
            #expect(worker.terminationStatus == 0, "worker \(number): \(log)")
            // A worker busy recognising through the whole outage may never meet it; one that does says so, and says when it is over.
            if log.contains("database unreachable, retrying in 0.5 s") {
                said += 1
                #expect(log.contains("database reachable again after"), "worker \(number): \(log)")
            }
        }
        #expect(said >= 2, "the workers should say the database went away")
        #expect(try SharedIndexTests.count(server.url, where: "true") == 24)
        #expect(try SharedIndexTests.count(server.url, where: "status = 'recognised'") == 24)
        #expect(try SharedIndexTests.count(server.url, where: "recognitions <> 1") == 0, "every page recognised exactly once")
    }

    @Test("a database that stays down: workers running and a worker started meanwhile retry, then exit 1 after --give-up-after 5s")
    func workersGiveUp() throws {
        let cli = try SharedIndexTests.library(notes: 12, pages: 2)
        let server = try PostgresTestServer.ownServer()
        defer { server.remove() }
        let arguments = ["index", "--worker", "--index", server.url, "--jobs", "1", "--give-up-after", "5s"] + SharedIndexTests.quick
        var workers = try (0..<3).map { try SharedIndexTests.start(cli, arguments, log: "worker-\($0).log") }
        defer { for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        try #require(try SharedIndexTests.waitUntil(seconds: 60) {
            (try? SharedIndexTests.count(server.url, where: "status = 'recognised'")) ?? 0 >= 3
        }, "the workers should have started recognising")

        try server.down()
        let stopped = Date()
        workers.append(try SharedIndexTests.start(cli, arguments, log: "worker-3.log"))
        for (number, worker) in workers.enumerated() {
            let ended = try SharedIndexTests.ends(worker, within: 40)
            let log = SharedIndexTests.log(cli, "worker-\(number).log")
            #expect(ended, "worker \(number) should give up by itself: \(log)")
            #expect(worker.terminationStatus == 1, "worker \(number): \(log)")
            #expect(log.contains("database unreachable, retrying in"), "worker \(number): \(log)")
            // The seconds it says are those it measured: 5 s or a little more on a busy machine.
            #expect(log.contains(try Regex(#"unreachable for (5|5\.[0-9]|[6-9](\.[0-9])?) s; giving up"#)), "worker \(number): \(log)")
        }
        #expect(Date().timeIntervalSince(stopped) >= 5, "no worker gives up before the time given")
    }

    @Test("--give-up-after takes 30s, 2m, plain seconds; anything else is refused by name")
    func giveUpAfterValues() throws {
        let cli = CLI()
        try cli.ok(["init"])
        let bad = try cli.run(["index", "--worker", "--index", "postgres://inkwell@127.0.0.1:1/inkwell", "--give-up-after", "soon"])
        #expect(bad.status == 64 && bad.stderr.contains("--give-up-after"), "\(bad.stderr)")
        let local = try cli.run(["index", "--give-up-after", "30s"])
        #expect(local.status == 64 && local.stderr.contains("--give-up-after is for a shared index"), "\(local.stderr)")
        let refused = try cli.run(["index", "--worker", "--index", "postgres://inkwell@127.0.0.1:1/inkwell?sslmode=disable", "--give-up-after", "1"])
        #expect(refused.status == 1 && refused.stderr.contains("cannot connect to PostgreSQL") && refused.stderr.contains("giving up"), "\(refused.stderr)")
    }

    @Test("a host with an older view of the library removes no note from the shared index; `inkwell index` where the library lives does")
    func staleViewsRemoveNothing() throws {
        let cli = CLI()
        try cli.ok(["init"])
        let url = try PostgresTestServer.newDatabase()
        try cli.ok(["note", "create", "Budget review", "--notebook", "Work"])
        // Another host's view of the shared mount: taken before the second note was written.
        let stale = cli.root.appendingPathComponent("stale-view")
        try FileManager.default.copyItem(at: cli.library, to: stale)
        try cli.ok(["note", "create", "Caterer budget", "--notebook", "Work"])
        try cli.ok(["index", "--index", url])
        func indexed() throws -> String { try PostgresTestServer.psql(url, "SELECT string_agg(title, ',' ORDER BY title) FROM note") }
        #expect(try indexed() == "Budget review,Caterer budget")

        let onStale = try cli.run(["search", "budget", "--json", "--index", url], environment: ["INKWELL_LIBRARY": stale.path])
        #expect(onStale.status == 0)
        #expect(try cli.run(["index", "--worker", "--index", url], environment: ["INKWELL_LIBRARY": stale.path]).status == 0)
        #expect(try indexed() == "Budget review,Caterer budget", "the stale views must not remove the newer note")

        try cli.ok(["note", "delete", "Budget review"])
        #expect(try cli.run(["index", "--worker", "--index", url]).status == 0)
        #expect(try indexed() == "Budget review,Caterer budget", "a worker removes nothing")
        try cli.ok(["index", "--index", url])
        #expect(try indexed() == "Caterer budget")
    }

    @Test("search on PostgreSQL gives the notes, pages and typed-text hits SQLite gives, for the same library")
    func sameAnswersAsSQLite() throws {
        let cli = try SharedIndexTests.library(notes: 12, pages: 2)
        let url = try PostgresTestServer.newDatabase()
        let typed = cli.root.appendingPathComponent("typed.md")
        try "# Follow-up\n- [ ] call the caterer about the budget #catering\n".write(to: typed, atomically: true, encoding: .utf8)
        let first = try #require((try cli.json(["note", "list"]) as? [[String: Any]])?.first?["id"] as? String)
        try cli.ok(["note", "text", first, "--set", typed.path])
        try cli.ok(["index", "--jobs", "2"] + SharedIndexTests.quick)
        try cli.ok(["index", "--index", url, "--jobs", "2"] + SharedIndexTests.quick)

        // Queries from the words written: whole words, prefixes, one-letter typos, tags, notebooks.
        let samples = cli.root.appendingPathComponent("samples")
        var words = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: samples.path) where file.hasSuffix(".truth.json") {
            let text = try String(contentsOf: samples.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /"text" : "([^"]*)"/) {
                words.formUnion(match.output.1.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() }.filter { $0.count >= 3 })
            }
        }
        #expect(words.count >= 30)
        var queries: [[String]] = []
        for word in words.sorted() {
            queries.append([word])
            queries.append([String(word.prefix(4))])
            if word.count >= 5 {
                var letters = Array(word)
                letters.swapAt(1, 2)
                queries.append([String(letters)])
            }
        }
        queries += [["--tag", "catering"], ["caterer", "budget"], ["--notebook", "Work", "notes"], ["--tag", "family"], ["plan", "--limit", "3"]]

        func hits(_ arguments: [String]) throws -> Set<String> {
            let result = try cli.run(["search", "--json"] + arguments)
            guard result.status == 0, let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else { return [] }
            return Set(list.map { hit in
                let pages = (hit["pages"] as? [Int] ?? []).sorted().map(String.init).joined(separator: ",")
                return "\(hit["note"] ?? "") p[\(pages)] typed=\(hit["typedText"] ?? "")"
            })
        }
        var found = 0
        for query in queries {
            let onSQLite = try hits(query), onPostgres = try hits(query + ["--index", url])
            #expect(onSQLite == onPostgres, "search \(query.joined(separator: " "))")
            found += onSQLite.isEmpty ? 0 : 1
        }
        #expect(found > queries.count / 2, "most queries should find something, or the comparison says little")
    }

    @Test("a wrong URL, a refused connection and a database from a newer Inkwell are refused by name; the library is unchanged")
    func badIndexURLs() throws {
        let cli = try SharedIndexTests.library(notes: 1, pages: 1)
        let before = try cli.snapshot()
        let newer = try PostgresTestServer.newDatabase()
        _ = try PostgresTestServer.psql(newer, "CREATE TABLE inkwell_schema (version bigint NOT NULL); INSERT INTO inkwell_schema VALUES (99)")
        let cases: [(url: String, says: String)] = [
            ("http://db.example/inkwell", "must start with postgres://"),
            ("postgres://inkwell@/inkwell", "names no host"),
            ("postgres://inkwell@127.0.0.1:5432", "names no database"),
            ("postgres://inkwell@127.0.0.1:5432/inkwell?sslmode=maybe", "sslmode maybe"),
            ("postgres://inkwell@127.0.0.1:1/inkwell?sslmode=disable", "cannot connect to PostgreSQL"),
            (newer, "made by a newer Inkwell (schema version 99"),
        ]
        for (url, says) in cases {
            for arguments in [["index"], ["search", "anything"], ["index", "--worker", "--status"], ["stats"]] {
                let result = try cli.run(arguments + ["--index", url])
                #expect(result.status != 0 && result.status != 64, "inkwell \(arguments.joined(separator: " ")) --index \(url) exited \(result.status)")
                #expect(result.stderr.contains(says), "inkwell \(arguments.joined(separator: " ")) --index \(url): \(result.stderr)")
            }
        }
        #expect(try PostgresTestServer.psql(newer, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'") == "1")
        #expect(try cli.snapshot() == before)
    }
}
