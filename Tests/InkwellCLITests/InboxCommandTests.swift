import Foundation
import Testing

extension CLI {
    var dropFolder: URL { library.appendingPathComponent("inbox") }

    /// Writes handwriting of `text` (a generated sample: Hershey font, no jitter) and imports it; returns the note id.
    func importSample(title: String, text: String, seed: Int, recognize: Bool = false) throws -> String {
        let textFile = try write("\(title).txt", text)
        let output = library.deletingLastPathComponent().appendingPathComponent(library.lastPathComponent + "-samples-\(seed)")
        try ok(["sample", "--text", textFile, "--title", title, "--jitter", "none", "--seed", String(seed),
                "-o", output.path])
        let report = try json(["import", output.appendingPathComponent(title.lowercased() + ".jsonl").path]
                              + (recognize ? [] : ["--no-recognize"])) as! [String: Any]
        let files = report["imported"] as! [[String: Any]]
        return (files[0]["notes"] as! [[String: Any]])[0]["id"] as! String
    }

    func show(_ note: String) throws -> (note: [String: Any], pages: [[String: Any]]) {
        let details = try json(["note", "show", note]) as! [String: Any]
        return (details["note"] as! [String: Any], details["pages"] as! [[String: Any]])
    }

    /// Every library file outside the drop folder, with its bytes.
    func snapshotOutsideDropFolder() throws -> [String: Data] {
        try snapshot().filter { !$0.key.hasPrefix(dropFolder.path + "/") }
    }

    /// Starts `inkwell ARGS` in the background with its standard output in a pipe.
    func start(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["INKWELL_LIBRARY"] = library.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }
}

/// Waits up to `seconds` for `condition`: a bound for a hang, not a speed (the suite shares two cores with
/// itself and, in `make test`, with the release build).
func eventually(_ seconds: Double = 180, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

/// Sends `signal` and waits (at most 20 s, then SIGKILL) for the process to end; true when it ended by itself.
func stop(_ process: Process, with signal: Int32) -> Bool {
    kill(process.processIdentifier, signal)
    let ended = eventually(20) { !process.isRunning }
    if !ended { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return ended
}

/// Appends `text` to `url` (opening and closing it, as a slow writer between pauses would).
func appendText(_ text: String, to url: URL) throws {
    if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
}

/// A replay log of one note with `strokes` short strokes.
func replayNote(_ title: String, strokes: Int = 4, source: String? = nil) -> String {
    var header: [String: Any] = ["type": "header", "version": 1]
    if let source { header["source"] = source }
    var lines = [line(header), line(["type": "note", "title": title])]
    for s in 0..<strokes { lines += strokeLines(at: Double(s), y: 300 + Double(s) * 30) }
    return lines.joined(separator: "\n") + "\n"
}

@Suite("The Inbox that files itself: routing by recognised hashtags, page status", .enabled(if: tesseractAvailable, "needs tesseract-ocr-eng"))
struct RoutingCommandTests {
    let cli = CLI()

    @Test("a recognised #work files the note from the Inbox; a note filed by hand stays; route run --dry-run changes nothing")
    func routeByRecognizedHashtag() throws {
        try cli.ok(["init"])
        #expect(try cli.ok(["route", "add", "#work", "Work/Meetings"]).contains("rule 1: #work → Work/Meetings"))
        let text = "Budget review\nplan the quarter #work\n"
        let inbox = try cli.importSample(title: "Budget", text: text, seed: 1)
        let filed = try cli.importSample(title: "Filed", text: text, seed: 2)
        try cli.ok(["note", "move", filed, "Personal", "--create"])
        let manual = (try cli.json(["note", "create", "Typed", "--tag", "work"]) as! [String: Any])["id"] as! String

        let before = try cli.show(inbox)
        #expect(before.note["notebook"] as? String == "Inbox")
        #expect(before.note["source"] as? String == "import:replay")
        #expect(before.pages.map { $0["status"] as? String } == ["pending"])

        let report = try cli.json(["index", "--jobs", "2"]) as! [String: Any]
        let routed = report["routed"] as! [[String: Any]]
        #expect(routed.map { $0["id"] as? String } == [inbox])
        let after = try cli.show(inbox)
        #expect(after.note["notebook"] as? String == "Work/Meetings")
        #expect((after.note["tags"] as? [String])?.contains("work") == true)
        #expect(after.pages.map { $0["status"] as? String } == ["recognised"])
        let byHand = try cli.show(filed).note
        #expect(byHand["notebook"] as? String == "Personal" && (byHand["tags"] as? [String])?.contains("work") == true)
        // The typed note's tag came from the user, not recognition: it waits for `route run`.
        #expect(try cli.show(manual).note["notebook"] as? String == "Inbox")
        #expect(try cli.show(manual).note["source"] as? String == "user")

        let snapshot = try cli.snapshot()
        let planned = try cli.ok(["route", "run", "--dry-run"])
        #expect(planned.contains("would move \(manual) \"Typed\" Inbox → Work/Meetings (rule 1: #work)"))
        #expect(try cli.snapshot() == snapshot)
        #expect(try cli.ok(["route", "run"]).contains("moved \(manual) \"Typed\" Inbox → Work/Meetings"))
        #expect(try cli.show(manual).note["notebook"] as? String == "Work/Meetings")
        #expect(try cli.show(filed).note["notebook"] as? String == "Personal")
        let rules = try cli.json(["route", "list"]) as! [[String: Any]]
        #expect(rules.map { $0["pattern"] as? String } == ["#work"])
        try cli.ok(["route", "remove", "#work"])
        #expect((try cli.json(["route", "list"]) as! [Any]).isEmpty)
    }

    @Test("an import that recognises #work files the note from the Inbox by the rules, as index would")
    func importRoutesByRecognizedHashtag() throws {
        try cli.ok(["init"])
        try cli.ok(["route", "add", "#work", "Work/Meetings"])
        let note = try cli.importSample(title: "Budget", text: "Budget review\nplan the quarter #work\n", seed: 1, recognize: true)
        let shown = try cli.show(note)
        #expect(shown.note["notebook"] as? String == "Work/Meetings")
        #expect((shown.note["tags"] as? [String])?.contains("work") == true)
        #expect(shown.pages.map { $0["status"] as? String } == ["recognised"])
        let index = try cli.json(["index"]) as! [String: Any]
        #expect(index["recognised"] as? Int == 0 && (index["routed"] as? [Any])?.isEmpty == true)
        #expect((try cli.json(["search", "quarter"]) as! [[String: Any]]).first?["notebook"] as? String == "Work/Meetings")
    }

    @Test("note text adding #work files the note out of the Inbox exactly as index would")
    func typedHashtagRoutes() throws {
        try cli.ok(["init"])
        try cli.ok(["route", "add", "#work", "Work/Meetings"])
        let typed = (try cli.json(["note", "create", "Typed"]) as! [String: Any])["id"] as! String
        let viaIndex = (try cli.json(["note", "create", "Indexed"]) as! [String: Any])["id"] as! String
        let edited = try cli.run(["note", "text", typed, "--set", "-"], stdin: "plan the quarter #work\n")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("tagged #work") && edited.stdout.contains("→ Work/Meetings (rule 1: #work)"), "\(edited.stdout)")
        #expect(try cli.show(typed).note["notebook"] as? String == "Work/Meetings")

        // The same text written outside Inkwell is found by index, which files the note the same way.
        let file = try FileManager.default.subpathsOfDirectory(atPath: cli.library.path).first { $0.hasSuffix(viaIndex + ".note") }!
        try Data("plan the quarter #work\n".utf8).write(to: cli.library.appendingPathComponent(file).appendingPathComponent("body.md"))
        try cli.ok(["index"])
        let indexed = try cli.show(viaIndex).note, texted = try cli.show(typed).note
        #expect(indexed["notebook"] as? String == texted["notebook"] as? String)
        #expect(indexed["tags"] as? [String] == texted["tags"] as? [String])
        #expect((try cli.json(["search", "quarter"]) as! [[String: Any]]).allSatisfy { $0["notebook"] as? String == "Work/Meetings" })
    }

    @Test("note tag --add files an Inbox note by the rules; a tag removed by hand stays removed through index --rebuild, typed text and convert")
    func removedTagStaysRemoved() throws {
        try cli.ok(["init"])
        let note = try cli.importSample(title: "Budget", text: "Budget review\nplan the quarter #work\n", seed: 1, recognize: true)
        #expect((try cli.show(note).note["tags"] as? [String])?.contains("work") == true)
        #expect(try cli.ok(["note", "tag", note, "--remove", "work"]).contains("no tags"))
        try cli.ok(["index", "--rebuild"])
        try cli.ok(["convert", note])
        try cli.run(["note", "text", note, "--append", "-"], stdin: "again #work\n")
        try cli.ok(["index"])
        #expect((try cli.show(note).note["tags"] as? [String])?.contains("work") == false)

        try cli.ok(["route", "add", "#later", "Someday"])
        let tagged = try cli.ok(["note", "tag", note, "--add", "later"])
        #expect(tagged.contains("→ Someday (rule 1: #later)"), "\(tagged)")
        #expect(try cli.show(note).note["notebook"] as? String == "Someday")

        // Rules file Inbox notes only: a note filed already stays where it is.
        try cli.ok(["route", "add", "#soon", "Soon"])
        let report = try cli.json(["note", "tag", note, "--add", "soon"]) as! [String: Any]
        #expect((report["note"] as? [String: Any])?["notebook"] as? String == "Someday")
        #expect((report["note"] as? [String: Any])?["tags"] as? [String] == ["later", "soon"])
        #expect((report["routed"] as? [Any])?.isEmpty == true, "\(report)")
    }

    @Test("a damaged page is failed with its reason in note show and stats; the others are recognised")
    func failedPage() throws {
        try cli.ok(["init"])
        let good = try cli.importSample(title: "Good", text: "Groceries apples bread\n", seed: 3)
        let broken = try cli.importSample(title: "Broken", text: "Meeting notes\n", seed: 4)
        let page = (try cli.show(broken).pages[0]["id"] as! String)
        let file = try FileManager.default.subpathsOfDirectory(atPath: cli.library.path).first { $0.hasSuffix(page + ".inkpage") }!
        let url = cli.library.appendingPathComponent(file)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 6] ^= 0xFF
        try bytes.write(to: url)

        let result = try cli.run(["index"])
        #expect(result.status == 2, "partly done")
        #expect(result.stderr.contains(page) && result.stderr.contains("damaged"))
        let shown = try cli.show(broken).pages[0]
        #expect(shown["status"] as? String == "failed")
        #expect((shown["reason"] as? String)?.contains("damaged") == true)
        #expect((shown["damage"] as? String)?.contains("damaged at") == true)
        #expect(try cli.ok(["note", "show", broken]).contains("failed: "))
        #expect(try cli.show(good).pages[0]["status"] as? String == "recognised")
        let stats = (try cli.json(["stats"]) as! [String: Any])["recognition"] as! [String: Int]
        #expect(stats == ["pending": 0, "processing": 0, "recognised": 1, "failed": 1])
    }
}

@Suite("The folder is the API: inkwell ingest and inkwell watch")
struct DropFolderCommandTests {
    let cli = CLI()

    @Test("ingest imports good files into the Inbox, fails bad ones with a reason, and leaves the library as it was for them")
    func ingest() throws {
        try cli.ok(["init"])
        #expect(FileManager.default.fileExists(atPath: cli.dropFolder.path))
        try cli.ok(["note", "create", "Existing"])
        let before = try cli.snapshotOutsideDropFolder()
        try Data((replayNote("Broken") + line(["type": "move", "t": -1, "x": 1, "y": 1]) + "\n").utf8)
            .write(to: cli.dropFolder.appendingPathComponent("broken.jsonl"))
        let bad = try cli.run(["ingest", "--settle", "0.2"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("failed broken.jsonl: line"))
        #expect(try cli.snapshotOutsideDropFolder() == before)
        let reason = try String(contentsOf: cli.dropFolder.appendingPathComponent("failed/broken.jsonl.reason.txt"), encoding: .utf8)
        #expect(reason.contains("file: inbox/broken.jsonl") && reason.contains("position: line") && reason.contains("reason: "))

        try Data(replayNote("Dropped").utf8).write(to: cli.dropFolder.appendingPathComponent("dropped.jsonl"))
        let good = try cli.run(["ingest", "--settle", "0.2"])
        #expect(good.status == 0)
        #expect(good.stdout.contains("imported dropped.jsonl"))
        let note = try cli.show("Dropped").note
        #expect(note["source"] as? String == "drop:inbox/dropped.jsonl" && note["notebook"] as? String == "Inbox")
        #expect(FileManager.default.fileExists(atPath: cli.dropFolder.appendingPathComponent("done/dropped.jsonl").path))
    }

    @Test("watch imports a slowly written file once, ignores a .part file until renamed, and stops cleanly on SIGTERM")
    func watch() throws {
        try cli.ok(["init"])
        let (process, output) = try cli.start(["watch", "--settle", "1", "--json"])
        let slow = cli.dropFolder.appendingPathComponent("slow.jsonl")
        let text = replayNote("Slow", strokes: 12)
        let chunk = text.count / 8 + 1
        for start in stride(from: 0, to: text.count, by: chunk) {
            try appendText(String(text.dropFirst(start).prefix(chunk)), to: slow)
            Thread.sleep(forTimeInterval: 0.15) // pauses shorter than --settle
        }
        let part = cli.dropFolder.appendingPathComponent("later.jsonl.part")
        try Data(replayNote("Later").utf8).write(to: part)
        #expect(eventually { FileManager.default.fileExists(atPath: cli.dropFolder.appendingPathComponent("done/slow.jsonl").path) })
        Thread.sleep(forTimeInterval: 1.5)
        #expect(FileManager.default.fileExists(atPath: part.path)) // never touched while it ends in .part
        try FileManager.default.moveItem(at: part, to: cli.dropFolder.appendingPathComponent("later.jsonl"))
        #expect(eventually { FileManager.default.fileExists(atPath: cli.dropFolder.appendingPathComponent("done/later.jsonl").path) })

        #expect(stop(process, with: SIGTERM))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let events = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(events.map { $0["kind"] as? String } == ["imported", "imported"])
        #expect(events.map { $0["file"] as? String } == ["slow.jsonl", "later.jsonl"])
        let notes = try cli.json(["note", "list"]) as! [[String: Any]]
        #expect(notes.map { $0["title"] as? String ?? "" }.sorted() == ["Later", "Slow"])
        #expect((try cli.show("Slow").pages[0]["strokes"] as? Int) == 12)
    }

    @Test("a burst of 60 files warns exactly once, naming the count and the source they claim")
    func burst() throws {
        try cli.ok(["init"])
        let (process, output) = try cli.start(["watch", "--settle", "0.3", "--no-recognize", "--json"])
        for i in 0..<60 {
            try Data(replayNote("Burst \(i)", strokes: 1, source: "Acme Scanner 2").utf8)
                .write(to: cli.dropFolder.appendingPathComponent(String(format: "burst-%02d.jsonl", i)))
        }
        #expect(eventually { (try? FileManager.default.contentsOfDirectory(atPath: cli.dropFolder.appendingPathComponent("done").path))?.count == 60 })
        #expect(stop(process, with: SIGINT))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let events = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(events.filter { $0["kind"] as? String == "imported" }.count == 60)
        let warnings = events.filter { $0["kind"] as? String == "burst" }
        #expect(warnings.count == 1)
        let count = warnings.first?["count"] as? Int ?? 0
        #expect(count > 50 && count <= 60)
        #expect(warnings.first?["sources"] as? [String: Int] == ["Acme Scanner 2": count])
    }
}
