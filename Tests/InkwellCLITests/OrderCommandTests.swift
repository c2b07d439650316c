import Foundation
import InkwellKit
import Testing

/// `inkwell note move --before/--after/--first/--last` as a user runs it, including several processes at once.
@Suite("inkwell note move: manual order")
struct OrderCommandTests {
    let cli = CLI()

    /// Creates notes in `notebook`, returning their ids.
    func create(_ titles: [String], in notebook: String = "Work") throws -> [String: String] {
        var ids: [String: String] = [:]
        for title in titles {
            ids[title] = (try cli.json(["note", "create", title, "--notebook", notebook]) as! [String: Any])["id"] as? String
        }
        return ids
    }

    func listed(_ notebook: String = "Work") throws -> [String] {
        (try cli.json(["note", "list", "--notebook", notebook]) as! [[String: Any]]).map { $0["title"] as! String }
    }

    var orderFile: URL { cli.library.appendingPathComponent("notebooks/Work/.order") }

    @Test("each placement moves the note there and `note list` follows; the .order file reads as text")
    func placements() throws {
        try cli.ok(["init"])
        let ids = try create(["Alpha", "Beta", "Gamma", "Delta"])
        var expected = try listed()  // newest first; notes made in the same second tie on their ids
        #expect(Set(expected) == Set(ids.keys))
        func move(_ title: String, as reference: String? = nil, _ args: [String], to index: (inout [String]) -> Int) throws {
            try cli.ok(["note", "move", reference ?? title] + args)
            expected.removeAll { $0 == title }
            expected.insert(title, at: index(&expected))
            #expect(try listed() == expected, "after note move \(title) \(args.joined(separator: " "))")
        }
        try move(expected[2], ["--first"]) { _ in 0 }
        try move(expected[0], ["--last"]) { $0.count }
        try move("Alpha", ["--before", "Delta"]) { $0.firstIndex(of: "Delta")! }
        try move("Delta", ["--after", "Beta"]) { $0.firstIndex(of: "Beta")! + 1 }
        // Id prefixes and ids name notes too.
        try move("Gamma", as: String(ids["Gamma"]!.prefix(6)), ["--after", ids["Alpha"]!]) { $0.firstIndex(of: "Alpha")! + 1 }
        expected = try listed()

        let text = try String(contentsOf: orderFile, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("#") == true)
        #expect(Array(lines.dropFirst()) == expected.map { "\(ids[$0]!)  \($0)" })
        // The unscoped listing and its text form agree.
        let plain = try cli.ok(["note", "list"]).split(separator: "\n").map { $0.split(separator: " ")[0] }
        #expect(plain.map(String.init) == expected.map { ids[$0]! })
    }

    @Test("a note created by another process while the order exists is listed (first), and the order holds")
    func createdElsewhere() throws {
        try cli.ok(["init"])
        _ = try create(["One", "Two", "Three"])
        try cli.ok(["note", "move", "One", "--first"])
        let ordered = try listed()
        try cli.ok(["note", "create", "From elsewhere", "--notebook", "Work"])
        #expect(try listed() == ["From elsewhere"] + ordered)
        // A note dropped into the folder by hand (no inkwell involved) is listed too.
        try cli.ok(["note", "create", "Carried", "--notebook", "Inbox"])
        let carried = try FileManager.default.contentsOfDirectory(atPath: cli.library.appendingPathComponent("notebooks/Inbox").path)
            .first { $0.hasSuffix(".note") }!
        try FileManager.default.moveItem(at: cli.library.appendingPathComponent("notebooks/Inbox/\(carried)"),
                                         to: cli.library.appendingPathComponent("notebooks/Work/\(carried)"))
        #expect(Set(try listed()) == Set(ordered + ["From elsewhere", "Carried"]))
        #expect(Array(try listed().suffix(3)) == ordered)
    }

    @Test("processes reordering and creating at once lose no note and no move")
    func concurrentReordering() throws {
        try cli.ok(["init"])
        let titles = (1...32).map { "Note \($0)" }
        DispatchQueue.concurrentPerform(iterations: titles.count) { n in
            _ = try? cli.run(["note", "create", titles[n], "--notebook", "Work"])
        }
        let ids = Dictionary(uniqueKeysWithValues: (try cli.json(["note", "list"]) as! [[String: Any]]).map {
            ($0["title"] as! String, $0["id"] as! String)
        })
        #expect(Set(ids.keys) == Set(titles))
        try cli.ok(["note", "move", ids["Note 1"]!, "--last"])
        let start = try listed()
        // Sixteen processes each move a different note from the bottom half to the top while four others create
        // notes. Serialised on the lock, the moved and the created notes end up above the others, which keep
        // their order; a lost update would put a moved note back where it was.
        let moved = Array(start.suffix(16)), unmoved = Array(start.prefix(16))
        let group = DispatchGroup()
        let failures = Locked(0)
        for title in moved {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                if (try? cli.run(["note", "move", ids[title]!, "--first"]))?.status != 0 { failures.withLock { $0 += 1 } }
            }
        }
        for n in 1...4 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                if (try? cli.run(["note", "create", "New \(n)", "--notebook", "Work"]))?.status != 0 { failures.withLock { $0 += 1 } }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == 0)
        let final = try listed()
        #expect(final.count == 36 && Set(final).count == 36)
        #expect(Set(final.prefix(20)) == Set(moved + (1...4).map { "New \($0)" }))
        #expect(Array(final.suffix(16)) == unmoved)
        let fileIDs = try String(contentsOf: orderFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { String($0.prefix(12)) }
        #expect(Set(fileIDs).count == fileIDs.count)
    }

    @Test("delete and restore put the note back in its place")
    func deleteAndRestore() throws {
        try cli.ok(["init"])
        _ = try create(["Alpha", "Beta", "Gamma", "Delta"])
        try cli.ok(["note", "move", "Alpha", "--first"])
        let order = try listed()
        let middle = order[2]
        try cli.ok(["note", "delete", middle])
        #expect(try listed() == order.filter { $0 != middle })
        try cli.ok(["note", "move", order[3], "--first"])
        try cli.ok(["trash", "restore", middle])
        #expect(try listed() == [order[3], order[0], order[1], middle])
    }

    @Test("moving to another notebook combines with a placement; contradictions are refused and change nothing")
    func combinations() throws {
        try cli.ok(["init"])
        _ = try create(["Alpha", "Beta"])
        _ = try create(["Old", "Older"], in: "Archive")
        try cli.ok(["note", "move", "Older", "--first"])
        try cli.ok(["note", "move", "Alpha", "Archive", "--after", "Older"])
        #expect(try listed("Archive") == ["Older", "Alpha", "Old"])
        try cli.ok(["note", "move", "Beta", "Archive", "--last"])
        #expect(try listed("Archive") == ["Older", "Alpha", "Old", "Beta"])
        #expect(try listed().isEmpty)

        try cli.ok(["note", "create", "Gamma", "--notebook", "Work"])
        let before = try cli.snapshot()
        for (args, message) in [
            (["Gamma", "--first", "--last"], "choose one of --before, --after, --first and --last"),
            (["Gamma"], "give a notebook to move the note to, or --before, --after, --first or --last"),
            (["Gamma", "--before", "Old"], "\"Old\" is in \"Archive\", not in \"Work\""),
            (["Gamma", "Elsewhere", "--after", "Old"], "no notebook \"Elsewhere\""),
            (["Gamma", "Elsewhere", "--after", "Old", "--create"], "\"Old\" is in \"Archive\", not in \"Elsewhere\""),
            (["Gamma", "--after", "Gamma"], "a note cannot be placed before or after itself"),
            (["Gamma", "--before", "no such note"], "no note matches \"no such note\""),
        ] {
            let result = try cli.run(["note", "move"] + args)
            #expect(result.status != 0 && result.stderr.contains(message), "note move \(args): \(result.stderr)")
        }
        #expect(try cli.snapshot() == before)
    }
}
