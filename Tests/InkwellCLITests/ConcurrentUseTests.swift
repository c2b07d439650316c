import Foundation
import Testing

/// Several processes on one library at once, as a busy team (or a tablet syncing while someone
/// exports) would: readers never see a missing file, exports are whole, nothing is lost.
@Suite("Concurrent use of one library")
struct ConcurrentUseTests {
    let cli = CLI()

    @Test("importer, mover, tagger and exporter for 20 s: no failed read, no partial export, check clean, counts add up")
    func fourProcesses() throws {
        try cli.ok(["init"])
        let samples = cli.root.appendingPathComponent("samples")
        try cli.ok(["sample", "-o", samples.path, "--notes", "6", "--pages", "2", "--jitter", "none"])
        try cli.ok(["import", samples.path, "--no-recognize"])
        let originals = (try cli.json(["note", "list"]) as! [[String: Any]]).map { $0["id"] as! String }
        let pagesPerNote = Dictionary(uniqueKeysWithValues: (try cli.json(["note", "list"]) as! [[String: Any]])
            .map { ($0["id"] as! String, $0["pages"] as! Int) })
        let extra = try cli.write("extra.jsonl", ([line(["type": "header", "version": 1]), line(["type": "note", "title": "Extra"]),
                                                   line(["type": "page"])] + strokeLines(at: 0)).joined(separator: "\n"))

        let script = """
            set -u
            end=$((SECONDS + 20))
            ids=(\(originals.joined(separator: " ")))
            importer() { n=0; while [ $SECONDS -lt $end ]; do n=$((n + 1))
                "$INKWELL" import "$EXTRA" --as-new --no-recognize > /dev/null 2>> "$OUT/import.err" && echo ok >> "$OUT/import.ok" || echo fail >> "$OUT/import.fail"; done; }
            mover() { n=0; while [ $SECONDS -lt $end ]; do n=$((n + 1)); id=${ids[$((n % ${#ids[@]}))]}
                "$INKWELL" note move --create "$id" "Shelf/$((n % 3))" > /dev/null 2>> "$OUT/move.err" || echo fail >> "$OUT/move.fail"; done; }
            tagger() { n=0; while [ $SECONDS -lt $end ]; do n=$((n + 1)); id=${ids[$(((n * 7) % ${#ids[@]}))]}
                "$INKWELL" note tag "$id" --add "t$n" > /dev/null 2>> "$OUT/tag.err" || echo fail >> "$OUT/tag.fail"; done; }
            exporter() { n=0; while [ $SECONDS -lt $end ]; do n=$((n + 1)); mkdir -p "$OUT/export-$n"
                "$INKWELL" export "${ids[@]}" --format png -o "$OUT/export-$n" --json > "$OUT/export-$n.json" 2>> "$OUT/export.err" || echo "$n" >> "$OUT/export.fail"
                "$INKWELL" search note > /dev/null 2>> "$OUT/search.err" || echo fail >> "$OUT/search.fail"; done; echo "$n" > "$OUT/exports"; }
            importer & mover & tagger & exporter &
            wait
            """
        let out = cli.root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "INKWELL": CLI.executable.path, "INKWELL_LIBRARY": cli.library.path, "OUT": out.path, "EXTRA": extra,
        ]) { $1 }
        try process.run()
        process.waitUntilExit()

        func text(_ name: String) -> String { (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        func count(_ name: String) -> Int { text(name).split(separator: "\n").count }
        for kind in ["import", "move", "tag", "export", "search"] {
            #expect(count("\(kind).fail") == 0, "\(kind) failed \(count("\(kind).fail")) times: \(text("\(kind).err").prefix(600))")
        }
        let exports = Int(text("exports").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(exports >= 3, "only \(exports) exports ran")
        // Every export is whole: each note's every page, and no temporary file left.
        let expectedFiles = pagesPerNote.values.reduce(0, +)
        for n in 1...max(1, exports) {
            let folder = out.appendingPathComponent("export-\(n)")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(files.count == expectedFiles && files.allSatisfy { $0.hasSuffix(".png") }, "export \(n): \(files.sorted())")
        }
        // Nothing lost: every original note once, plus one note per successful import.
        let listed = (try cli.json(["note", "list"]) as! [[String: Any]]).map { $0["id"] as! String }
        #expect(Set(listed).count == listed.count)
        #expect(Set(originals).isSubset(of: Set(listed)))
        #expect(listed.count == originals.count + count("import.ok"), "\(listed.count) notes after \(count("import.ok")) imports")
        let check = try cli.run(["check", "--json"])
        #expect(check.status == 0, "\(check.stdout.prefix(600))")
        #expect(!check.stdout.contains("\"leftover\""), "\(check.stdout.prefix(600))")
    }
}
