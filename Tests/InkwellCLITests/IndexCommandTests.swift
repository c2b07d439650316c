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
        try cli.ok(["import", samplesFolder.appendingPathComponent("sprint-retro-hashtags.jsonl").path,
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

    @Test("a run killed with SIGKILL loses nothing and the next run does nothing twice")
    func killAndResume() throws {
        try cli.ok(["init"])
        let samples = try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path).filter { $0.hasSuffix(".jsonl") }
        try cli.ok(["import"] + samples.map { samplesFolder.appendingPathComponent($0).path })
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
}
