import Foundation
import Testing

@Suite("inkwell import again, inkwell sync: one note per source")
struct SyncCommandTests {
    let cli = CLI()

    /// A replay log of one note with a stroke at each of `ys` on one page.
    func log(_ title: String, _ ys: [Double]) -> String {
        ([#"{"type":"header","version":1}"#, #"{"type":"note","title":"\#(title)"}"#]
            + ys.enumerated().flatMap { strokeLines(at: Double($0.offset), y: $0.element, points: 4) })
            .joined(separator: "\n") + "\n"
    }

    @Test("importing a file twice says 'unchanged' and keeps one note; note show names the origin; --as-new makes a copy")
    func importTwice() throws {
        try cli.ok(["init"])
        let file = try cli.write("plan.jsonl", log("Plan", [300, 400]))
        let first = try cli.ok(["import", file, "--no-recognize"])
        #expect(first.hasPrefix("imported "), "\(first)")
        let second = try cli.ok(["import", file, "--no-recognize"])
        #expect(second.hasPrefix("unchanged ") && second.contains(file), "\(second)")
        let notes = try #require(try cli.json(["note", "list"]) as? [[String: Any]])
        #expect(notes.count == 1)
        let id = try #require(notes.first?["id"] as? String)
        let shown = try cli.ok(["note", "show", id])
        #expect(shown.contains("origin    file \(URL(fileURLWithPath: file).standardizedFileURL.path)"), "\(shown)")
        let details = try #require(try cli.json(["note", "show", id]) as? [String: Any])
        let origin = try #require(details["origin"] as? [String: Any])
        #expect(origin["kind"] as? String == "file" && (origin["hash"] as? String)?.count == 16)
        #expect((origin["pages"] as? [[String: Any]])?.count == 1)

        _ = try cli.write("plan.jsonl", log("Plan", [300, 400, 500]))
        let report = try #require(try cli.json(["import", file, "--no-recognize"]) as? [String: Any])
        let updated = try #require(((report["imported"] as? [[String: Any]])?.first?["notes"] as? [[String: Any]])?.first)
        #expect(updated["status"] as? String == "updated" && updated["id"] as? String == id && updated["changedPages"] as? Int == 1)
        #expect(updated["strokes"] as? Int == 3)

        let copy = try cli.ok(["import", file, "--no-recognize", "--as-new"])
        #expect(copy.hasPrefix("imported ") && !copy.contains(id), "\(copy)")
        #expect((try cli.json(["note", "list"]) as? [[String: Any]])?.count == 2)
    }

    @Test("a note deleted in Inkwell stays in the trash when its source is imported or synced again; --as-new makes a new one")
    func deletedStaysDeleted() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("plan.jsonl").path
        try log("Plan", [300, 400]).write(toFile: file, atomically: true, encoding: .utf8)
        try cli.ok(["import", file, "--no-recognize"])
        try cli.ok(["note", "delete", "Plan"])
        let again = try cli.ok(["import", file, "--no-recognize"])
        #expect(again.hasPrefix("left ") && again.contains("in the trash"), "\(again)")
        let synced = try #require(try cli.json(["sync", folder.path, "--no-recognize"]) as? [String: Any])
        #expect(((synced["plan"] as? [String: Any])?["inTrash"] as? [Any])?.count == 1, "\(synced)")
        #expect(((synced["plan"] as? [String: Any])?["unchanged"] as? [Any])?.isEmpty == true, "a note in the trash is not unchanged: \(synced)")
        let syncedAgain = try cli.ok(["sync", folder.path, "--no-recognize"])
        #expect(syncedAgain.contains("left ") && syncedAgain.contains("in the trash") && syncedAgain.contains("trash restore"), "\(syncedAgain)")
        #expect(syncedAgain.contains("0 unchanged, 1 left in the trash"), "\(syncedAgain)")
        #expect((try cli.json(["note", "list"]) as? [Any])?.isEmpty == true, "the deleted note did not come back")
        try cli.ok(["trash", "restore", "Plan"])
        #expect(try cli.ok(["import", file, "--no-recognize"]).hasPrefix("unchanged "))
        #expect((try cli.json(["note", "list"]) as? [Any])?.count == 1)
    }

    @Test("sync --dry-run prints the plan and changes nothing; sync then imports, updates and trashes")
    func syncFolder() throws {
        try cli.ok(["init"])
        let a = try cli.write("a.jsonl", log("A", [300]))
        let b = try cli.write("b.jsonl", log("B", [300]))
        let folder = URL(fileURLWithPath: a).deletingLastPathComponent().path
        let first = try cli.ok(["sync", folder, "--no-recognize"])
        #expect(first.contains("2 new, 0 changed, 0 unchanged, 0 left in the trash, 0 to the trash"), "\(first)")

        _ = try cli.write("a.jsonl", log("A", [300, 500]))
        try FileManager.default.removeItem(atPath: b)
        _ = try cli.write("c.jsonl", log("C", [300]))
        let before = try cli.snapshot()
        let plan = try cli.ok(["sync", folder, "--dry-run"])
        #expect(plan.contains("would import \(URL(fileURLWithPath: folder).standardizedFileURL.path)/c.jsonl"), "\(plan)")
        #expect(plan.contains("would update ") && plan.contains("\"A\""), "\(plan)")
        #expect(plan.contains("would trash ") && plan.contains("\"B\""), "\(plan)")
        #expect(try cli.snapshot() == before)

        let report = try #require(try cli.json(["sync", folder, "--no-recognize"]) as? [String: Any])
        #expect((report["trashed"] as? [String])?.count == 1)
        let titles = Set(((try cli.json(["note", "list"]) as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String })
        #expect(titles == ["A", "C"])
        let again = try cli.ok(["sync", folder, "--no-recognize"])
        #expect(again.contains("0 new, 0 changed, 2 unchanged, 0 left in the trash, 0 to the trash"), "\(again)")
    }

    @Test("watch --source DIR syncs the folder once it settles and again after a change, one JSON line a sync, and stops cleanly on SIGTERM")
    func watchSource() throws {
        try cli.ok(["init"])
        let folder = cli.root.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("plan.jsonl")
        try log("Plan", [300, 400]).write(to: file, atomically: true, encoding: .utf8)
        let (process, output) = try cli.start(["watch", "--source", folder.path, "--settle", "0.3", "--no-recognize", "--json"])
        func strokes() -> Int? {
            guard let notes = try? cli.json(["note", "list"]) as? [[String: Any]], notes.count == 1,
                  let shown = try? cli.json(["note", "show", "Plan"]) as? [String: Any] else { return nil }
            return (shown["pages"] as? [[String: Any]])?.first?["strokes"] as? Int
        }
        #expect(eventually { strokes() == 2 })
        try log("Plan", [300, 400, 500]).write(to: file, atomically: true, encoding: .utf8)
        #expect(eventually { strokes() == 3 })

        #expect(stop(process, with: SIGTERM))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let reports = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let plans = reports.compactMap { $0["plan"] as? [String: Any] }
        #expect(plans.map { ($0["new"] as? [Any])?.count ?? -1 } == [1, 0], "\(reports)")
        #expect(plans.map { ($0["changed"] as? [Any])?.count ?? -1 } == [0, 1], "\(reports)")
        #expect((try cli.json(["note", "list"]) as? [Any])?.count == 1)
    }
}
