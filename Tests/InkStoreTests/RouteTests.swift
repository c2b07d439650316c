import Foundation
import InkCore
import Testing
@testable import InkStore

@Suite("Routing rules: the Inbox that files itself")
struct RouteTests {
    let root = temporaryFolder()

    func tags(_ names: String...) -> Set<InkCore.Tag> { Set(names.map { InkCore.Tag($0)! }) }
    func path(_ text: String) -> NotebookPath { try! NotebookPath(text) }

    /// What `body` throws, as text ("no error" when it does not).
    func failure(_ body: () throws -> Any) -> String {
        do {
            _ = try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// Every file under the library with its bytes (the lock aside).
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock" else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("rules are added in order, kept in a readable routes.json, and removed by number or pattern")
    func addListRemove() throws {
        let library = try Library.create(at: root)
        #expect(try library.routeRules().isEmpty)
        #expect(try library.addRouteRule(try RouteRule(pattern: "#work", notebook: path("Work/Meetings"))) == 1)
        #expect(try library.addRouteRule(try RouteRule(pattern: "#Q3, #budget", notebook: path("Work/Q3"))) == 2)
        #expect(try library.addRouteRule(try RouteRule(pattern: "family", notebook: path("Personal"))) == 3)
        let text = try String(contentsOf: root.appendingPathComponent("routes.json"), encoding: .utf8)
        #expect(text.contains("\"match\" : \"#budget #q3\""))
        #expect(text.contains("\"notebook\" : \"Work/Q3\""))
        #expect(try library.routeRules().map(\.pattern) == ["#work", "#budget #q3", "#family"])

        // A second rule for the same tags could never apply: refused, naming the first.
        #expect(failure { try library.addRouteRule(try RouteRule(pattern: "#WORK", notebook: path("Elsewhere"))) }
            .contains("rule 1 already files #work into Work/Meetings"))
        #expect(try library.removeRouteRule("#q3 #budget").notebook == path("Work/Q3"))
        #expect(try library.removeRouteRule("1").pattern == "#work")
        #expect(try library.routeRules().map(\.pattern) == ["#family"])
        #expect(failure { try library.removeRouteRule("5") }.contains("there is no routing rule 5"))
        #expect(failure { try library.removeRouteRule("#nothing") }.contains("no routing rule matches"))
    }

    @Test("a rule must name tags and a notebook other than the Inbox")
    func invalidRules() {
        #expect(failure { try RouteRule(pattern: "#work!", notebook: path("Work")) }.contains("\"#work!\""))
        #expect(failure { try RouteRule(pattern: " , ", notebook: path("Work")) }.contains("holds no tag"))
        #expect(failure { try RouteRule(pattern: "#work", notebook: .inbox) }.contains("Inbox itself"))
        #expect(throws: StoreError.self) { try RouteRule(pattern: "#work", notebook: .root) }
    }

    @Test("a damaged routes.json is reported with the file and the rule")
    func damagedRules() throws {
        let library = try Library.create(at: root)
        try Data(##"{"format": 1, "rules": [{"match": "#ok", "notebook": "A"}, {"match": "#bad", "notebook": "../x"}]}"##.utf8)
            .write(to: root.appendingPathComponent("routes.json"))
        #expect(failure { try library.routeRules() }.contains("routes.json: rule 2:"))
        try Data("{".utf8).write(to: root.appendingPathComponent("routes.json"))
        #expect(failure { try library.applyRoutes() }.contains("routes.json"))
    }

    @Test("only notes directly in the Inbox move; the first matching rule wins; a rule of several tags needs all")
    func apply() throws {
        let library = try Library.create(at: root)
        try library.addRouteRule(try RouteRule(pattern: "#work #q3", notebook: path("Work/Q3")))
        try library.addRouteRule(try RouteRule(pattern: "#work", notebook: path("Work/Meetings")))
        try library.addRouteRule(try RouteRule(pattern: "#q3", notebook: path("Quarter")))
        let both = try library.createNote(title: "Both", tags: tags("work", "q3"))
        let work = try library.createNote(title: "Work only", tags: tags("work"))
        let none = try library.createNote(title: "Untagged")
        let filed = try library.createNote(title: "Filed by hand", in: path("Personal"), tags: tags("work"))
        let nested = try library.createNote(title: "In a sub-notebook", in: path("Inbox/Later"), tags: tags("work"))

        let moves = try library.applyRoutes()
        #expect(Set(moves.map(\.title)) == ["Both", "Work only"])
        #expect(moves.first { $0.id == both.note.id }?.rule == 1)
        #expect(try library.note(matching: both.note.id.rawValue).notebook == path("Work/Q3"))
        #expect(try library.note(matching: work.note.id.rawValue).notebook == path("Work/Meetings"))
        #expect(try library.note(matching: none.note.id.rawValue).notebook == .inbox)
        #expect(try library.note(matching: filed.note.id.rawValue).notebook == path("Personal"))
        #expect(try library.note(matching: nested.note.id.rawValue).notebook == path("Inbox/Later"))
        // Nothing is lost or duplicated, and a second run has nothing to do.
        #expect(try library.notes().count == 5)
        #expect(try library.applyRoutes().isEmpty)
    }

    @Test("a dry run reports the moves and changes nothing; `only` limits routing to some notes")
    func dryRunAndOnly() throws {
        let library = try Library.create(at: root)
        try library.addRouteRule(try RouteRule(pattern: "#work", notebook: path("Work")))
        let first = try library.createNote(title: "First", tags: tags("work"))
        let second = try library.createNote(title: "Second", tags: tags("work"))
        let before = try snapshot()
        let planned = try library.applyRoutes(dryRun: true)
        #expect(planned.count == 2 && planned.allSatisfy { $0.to == "Work" && $0.from == "Inbox" })
        #expect(try snapshot() == before)
        #expect(try library.notebooks() == [.inbox])

        #expect(try library.applyRoutes(to: [second.note.id]).map(\.id) == [second.note.id])
        #expect(try library.note(matching: first.note.id.rawValue).notebook == .inbox)
    }

    @Test("a later rule that an earlier one covers is reported as shadowed")
    func shadowing() throws {
        let work = try RouteRule(pattern: "#work", notebook: path("Work"))
        let workQ3 = try RouteRule(pattern: "#work #q3", notebook: path("Q3"))
        #expect(workQ3.isShadowed(by: work))
        #expect(!work.isShadowed(by: workQ3))
    }

    @Test("note.json written before `source` existed opens, with source unknown")
    func missingSource() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Old note")
        let url = stored.folder.appendingPathComponent("note.json")
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        #expect(object["source"] as? String == "user")
        object["source"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        #expect(try library.note(matching: "Old note").note.source == "unknown")
    }
}
