import Foundation
import Testing

/// True when Tesseract's English model is installed (the recognition tests need it).
let tesseractAvailable = ["/usr/share/tesseract-ocr/5/tessdata/eng.traineddata", "/usr/share/tesseract-ocr/4.00/tessdata/eng.traineddata"]
    .contains { FileManager.default.fileExists(atPath: $0) }

/// The repository's Samples/ folder.
let samplesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples").standardizedFileURL

@Suite("inkwell index, search and convert on real handwriting", .enabled(if: tesseractAvailable, "needs tesseract-ocr-eng"))
struct IndexCommandTests {
    let cli = CLI()

    @Test("indexing recognises the samples, hashtags become tags, search finds words, and a second run does nothing")
    func indexSamples() throws {
        try cli.ok(["init"])
        try cli.ok(["import", "--no-recognize", samplesFolder.appendingPathComponent("sprint-retro-hashtags.jsonl").path,
                    samplesFolder.appendingPathComponent("weekly-planning-print-clean.jsonl").path])
        let first = try cli.json(["index", "--jobs", "2"]) as! [String: Any]
        #expect(first["recognised"] as? Int == 2 && (first["failed"] as? [Any])?.isEmpty == true)
        let retro = (try cli.json(["note", "show", "Sprint retro"]) as! [String: Any])["note"] as! [String: Any]
        #expect(Set(retro["tags"] as! [String]).isSuperset(of: ["retro", "process", "wins"]))
        let hits = try cli.json(["search", "shorter", "sprint"]) as! [[String: Any]]
        #expect(hits.first?["title"] as? String == "Sprint retro")
        #expect(hits.first?["pages"] as? [Int] == [1])
        #expect((try cli.json(["search", "--tag", "retro"]) as! [[String: Any]]).count == 1)
        let second = try cli.json(["index"]) as! [String: Any]
        #expect(second["recognised"] as? Int == 0 && second["unchanged"] as? Int == 2)
        let text = try cli.ok(["convert", "Sprint retro"])
        #expect(text.lowercased().contains("sprint"))
        let stats = try cli.json(["stats"]) as! [String: Any]
        #expect((stats["recognition"] as! [String: Int])["recognised"] == 2)
    }

    @Test("--quality fast reads the samples' hashtags too, a --rebuild at best quality reads them again; an unknown quality is refused")
    func qualities() throws {
        try cli.ok(["init"])
        try cli.ok(["import", "--no-recognize", samplesFolder.appendingPathComponent("sprint-retro-hashtags.jsonl").path])
        let fast = try cli.json(["index", "--quality", "fast"]) as! [String: Any]
        #expect(fast["recognised"] as? Int == 1)
        let retro = (try cli.json(["note", "show", "Sprint retro"]) as! [String: Any])["note"] as! [String: Any]
        #expect(Set(retro["tags"] as! [String]).isSuperset(of: ["retro", "process", "wins"]))
        let best = try cli.json(["index", "--rebuild", "--quality", "best"]) as! [String: Any]
        #expect(best["recognised"] as? Int == 1)
        let refused = try cli.run(["index", "--quality", "slow"])
        #expect(refused.status != 0 && refused.stderr.contains("--quality") && refused.stderr.contains("best"))
    }

    @Test("--reader: without ONNX Runtime (INKWELL_ONNXRUNTIME pointing nowhere) import and index say once that recognition is reduced and read with Tesseract; doctor says which readers are ready; an unknown reader is refused")
    func readers() throws {
        let nowhere = ["INKWELL_ONNXRUNTIME": cli.root.appendingPathComponent("nowhere/libonnxruntime.so.1.32.0").path]
        try cli.ok(["init"])
        let retro = samplesFolder.appendingPathComponent("sprint-retro-hashtags.jsonl").path
        let imported = try cli.run(["import", "--reader", "both", retro], environment: nowhere)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.components(separatedBy: "recognition is reduced to Tesseract alone").count == 2, "\(imported.stderr)")
        #expect(imported.stderr.contains("INKWELL_ONNXRUNTIME") && imported.stderr.contains("scripts/install-deps.sh"))
        let tags = (try cli.json(["note", "show", "Sprint retro"]) as! [String: Any])["note"] as! [String: Any]
        #expect(Set(tags["tags"] as! [String]).isSuperset(of: ["retro", "process", "wins"]))
        let indexed = try cli.run(["index", "--rebuild", "--reader", "neural"], environment: nowhere)
        #expect(indexed.status == 0 && indexed.stderr.contains("recognition is reduced to Tesseract alone"), "\(indexed.stderr)")
        // Tesseract alone asks for nothing more, so says nothing.
        let alone = try cli.run(["index", "--rebuild", "--reader", "tesseract"], environment: nowhere)
        #expect(alone.status == 0 && !alone.stderr.contains("reduced"), "\(alone.stderr)")
        let doctor = try cli.run(["doctor"], environment: nowhere)
        #expect(doctor.status == 0 && doctor.stdout.contains("tesseract: ready") && doctor.stdout.contains("neural: not ready"), "\(doctor.stdout)")
        let refused = try cli.run(["index", "--reader", "eyes"])
        #expect(refused.status != 0 && refused.stderr.contains("--reader") && refused.stderr.contains("neural"))
    }

    @Test("a run killed with SIGKILL loses nothing and the next run does nothing twice")
    func killAndResume() throws {
        try cli.ok(["init"])
        let samples = try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path).filter { $0.hasSuffix(".jsonl") }
        try cli.ok(["import", "--no-recognize"] + samples.map { samplesFolder.appendingPathComponent($0).path })
        let total = (try cli.json(["stats"]) as! [String: Any])["library"] as! [String: Any]
        let pages = total["pages"] as! Int

        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["index", "--jobs", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["INKWELL_LIBRARY"] = cli.library.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until at least one page is recorded, then kill without warning.
        var done = 0
        for _ in 0..<600 where done == 0 {
            Thread.sleep(forTimeInterval: 0.05)
            done = ((try? cli.json(["stats"]) as? [String: Any])?["recognition"] as? [String: Int])?["recognised"] ?? 0
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let states = (try cli.json(["stats"]) as! [String: Any])["recognition"] as! [String: Int]
        let before = states["recognised"] ?? 0
        #expect(before >= 1)
        // The page the killed run had in hand is not stuck in "processing": its worker is gone.
        #expect(states["processing"] == 0)
        let resumed = try cli.json(["index"]) as! [String: Any]
        #expect(resumed["recognised"] as? Int == pages - before)
        #expect(resumed["unchanged"] as? Int == before)
        #expect(((try cli.json(["stats"]) as! [String: Any])["recognition"] as! [String: Int])["recognised"] == pages)
    }

    @Test("import recognises what it saves: a written hashtag becomes a tag, the words are searchable at once, and `inkwell index` has nothing left to do")
    func importRecognizes() throws {
        try cli.ok(["init"])
        let samples = cli.library.deletingLastPathComponent().appendingPathComponent(cli.library.lastPathComponent + "-samples")
        try cli.ok(["sample", "-o", samples.path, "--topic", "errands", "--style", "print", "--jitter", "none",
                    "--sentences", "2", "--hashtags", "1", "--seed", "4", "--name", "note"])
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: samples.appendingPathComponent("note.truth.json"))) as! [String: Any]
        let page = (truth["pages"] as! [[String: Any]])[0]
        let hashtag = (page["hashtags"] as! [String])[0]
        let report = try cli.json(["import", samples.appendingPathComponent("note.jsonl").path]) as! [String: Any]
        let imported = ((report["imported"] as! [[String: Any]])[0]["notes"] as! [[String: Any]])[0]
        #expect(imported["tags"] as? [String] == [hashtag])
        #expect(imported["recognised"] as? Int == 1)
        #expect((try cli.json(["note", "list", "--tag", hashtag]) as! [[String: Any]]).count == 1)

        let word = ((page["lines"] as! [[String: Any]])[1]["text"] as! String).split(separator: " ")
            .map(String.init).filter { $0.count >= 5 && !$0.hasPrefix("#") }.first!
        let hits = try cli.json(["search", word]) as! [[String: Any]]
        #expect(hits.first?["pages"] as? [Int] == [1], "\(word): \(hits)")

        let index = try cli.json(["index"]) as! [String: Any]
        #expect(index["recognised"] as? Int == 0 && index["unchanged"] as? Int == 1)
        #expect(((try cli.json(["stats"]) as! [String: Any])["recognition"] as! [String: Int])["recognised"] == 1)
    }

    @Test("--trace shows every autosave asking for recognition, and each page read once, after the last save")
    func traceRecognition() throws {
        try cli.ok(["init"])
        // Page 1 saved twice (strokes 10 s apart); page 2, added at the second stroke's end, saved with
        // it (empty) and again with its stroke.
        let log = (strokeLines(at: 0) + strokeLines(at: 10) + [line(["type": "page"])] + strokeLines(at: 20))
            .joined(separator: "\n")
        let output = try cli.ok(["import", try cli.write("bursts.jsonl", log), "--trace"])
        let records = output.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let effects = records.map { $0["effect"] as! String }
        #expect(records.filter { $0["effect"] as? String == "recognize" }.map { $0["pages"] as! [Int] } == [[1], [1, 2], [2]])
        #expect(records.filter { $0["effect"] as? String == "recognitionFinished" }.map { $0["pages"] as! [Int] } == [[1], [2]])
        #expect(effects.lastIndex(of: "save")! < effects.firstIndex(of: "recognitionFinished")!)
        #expect(effects.last == "leave")
    }
}
