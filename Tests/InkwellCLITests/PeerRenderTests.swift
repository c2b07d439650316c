import Foundation
import Testing

/// "Rendered imports look like the source": Inkwell's renders of imported corpus files against the peers' own
/// renders (Xournal++ for .xopp/.xoj, rmc + rsvg-convert for .rm), by overlap of ink pixels.
/// The comparison is `scripts/peer-overlap.py` (see its header and docs/import-formats.md, "Faithfulness to
/// the source"); these tests run it on stroke-only files and hold it to thresholds below what it measures.
@Suite("Rendered imports look like the source")
struct PeerRenderTests {
    /// Measured on the files below (Xournal++ 1.1.3, rmc 0.3.0 + rmscene 0.8.0, rsvg-convert 2.54; 2 px dilation):
    /// IoU 85–93 %, peer ink covered by Inkwell's ≥ 99.4 %, Inkwell's ink covered by the peer's ≥ 99.9 %.
    /// Inkwell's render moved by 3 px falls to IoU 0.62–0.69 on three of the four files checked (and
    /// coverage to 0.80–0.89), strokes 2 px thicker to IoU 0.56–0.65; a wrong origin or page scale to ~0.
    static let minimumIoU = 0.70
    static let minimumCoverage = 0.95

    static let xournalFiles = [
        "xopp/xournalpp/test/files/packaged_xopp/suite.xopp",   // zip-packaged: pen, highlighter, shapes
        "xopp/xournalpp/test/files/preview-test2.xoj",          // gzip: one long looping pen stroke
    ]
    static let remarkableFiles = [
        "rm/rmc/fullpage.rm",                                    // strokes out to all four corners of the page
    ]

    @Test("Xournal++ files render like xournalpp --create-img",
          .enabled(if: PeerTools.pythonReady, "needs python3 with numpy and Pillow (pip install numpy pillow)"),
          .enabled(if: PeerTools.has("xournalpp"), "needs xournalpp on PATH (apt-get install -y xournalpp)"),
          .enabled(if: PeerTools.corpusHas(xournalFiles), "needs the corpus at \(PeerTools.corpus.path) (INKWELL_CORPUS)"))
    func xournal() throws {
        try check(Self.xournalFiles)
    }

    @Test("reMarkable pages render like rmc's SVG",
          .enabled(if: PeerTools.pythonReady, "needs python3 with numpy and Pillow (pip install numpy pillow)"),
          .enabled(if: PeerTools.has("rmc"), "needs rmc on PATH (pip install rmc, then pip install rmscene==0.8.0)"),
          .enabled(if: PeerTools.has("rsvg-convert"), "needs rsvg-convert on PATH (apt-get install -y librsvg2-bin)"),
          .enabled(if: PeerTools.corpusHas(remarkableFiles), "needs the corpus at \(PeerTools.corpus.path) (INKWELL_CORPUS)"))
    func remarkable() throws {
        try check(Self.remarkableFiles)
    }

    private func check(_ files: [String]) throws {
        let rows = try PeerTools.overlap(files)
        #expect(Set(rows.compactMap { $0["file"] as? String }) == Set(files))
        for row in rows {
            let name = "\(row["file"] as? String ?? "?")" + ((row["page"] as? Int).map { " page \($0)" } ?? "")
            if let skipped = row["skipped"] as? String {
                Issue.record("\(name) was not compared: \(skipped)")
                continue
            }
            let peerInk = row["peer_ink"] as? Int ?? 0, inkwellInk = row["inkwell_ink"] as? Int ?? 0
            #expect(peerInk > 1000 && inkwellInk > 1000, "\(name): too little ink to compare (peer \(peerInk), Inkwell \(inkwellInk))")
            let iou = row["iou"] as? Double ?? 0
            let peerCovered = row["peer_covered"] as? Double ?? 0
            let inkwellCovered = row["inkwell_covered"] as? Double ?? 0
            #expect(iou >= Self.minimumIoU, "\(name): IoU \(iou)")
            #expect(peerCovered >= Self.minimumCoverage, "\(name): only \(peerCovered) of the peer's ink is covered by Inkwell's")
            #expect(inkwellCovered >= Self.minimumCoverage, "\(name): only \(inkwellCovered) of Inkwell's ink is covered by the peer's")
            #expect(row["note"] == nil, "\(name): \(row["note"] ?? "")")
        }
    }
}

/// The peers, Python and the corpus, found at test discovery so that missing ones disable the tests.
enum PeerTools {
    static let corpus = ImportCorpus.root ?? URL(fileURLWithPath: "../shared/corpus", isDirectory: true)
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/peer-overlap.py").standardizedFileURL

    /// The executable `name` on PATH.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func has(_ name: String) -> Bool { find(name) != nil }

    static func corpusHas(_ files: [String]) -> Bool {
        files.allSatisfy { FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0).path) }
    }

    /// python3 runs and imports numpy and Pillow, and the script is there.
    static let pythonReady: Bool = {
        guard let python = find("python3"), FileManager.default.fileExists(atPath: script.path) else { return false }
        return (try? run(python, ["-c", "import numpy, PIL"]).status) == 0
    }()

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Standard error goes to a file, so that neither pipe can fill up while the other is read.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("peer-overlap-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stdout, stderr)
    }

    /// The script's rows for `files` (relative to the corpus), comparing the built `inkwell`.
    static func overlap(_ files: [String]) throws -> [[String: Any]] {
        let python = try #require(find("python3"))
        let result = try run(python, [script.path, CLI.executable.path, "--corpus", corpus.path, "--json"] + files)
        try #require(result.status == 0, "peer-overlap.py failed: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return try #require(document["rows"] as? [[String: Any]])
    }
}
