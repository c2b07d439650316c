import Foundation
import TestSupport
import InkCore
import InkIndex
@testable import InkwellKit
import InkStore
import Testing
@testable import InkExport

let python3 = (try? tool(["python3", "-c", "import csv, json"]).status) == 0

/// The catalog read back by Python's `csv` and `json` modules: an independent reader of both formats.
@Suite("Catalog")
struct CatalogTests {
    /// Recognised lines no CSV writer may take lightly.
    static let hostileLines = [
        "He said \"yes, no\" and left",
        "a,b,,c \"\" ,",
        "Ünïcödé 会议记录 записка مرحبا 🖋️",
        "=SUM(A1:A2) +1 @x -2",
        (0..<700).map { "w\($0),\"q\"" }.joined(separator: " "),
    ]

    /// A library with hostile titles and notebooks, recognised text on two pages, tags, a pin.
    func hostileLibrary() throws -> (ExportFixture, [CatalogEntry]) {
        let fixture = try ExportFixture()
        try fixture.note("Say \"hi\", then, leave", in: "Work, \"2026\"", pages: 2, tags: [InkCore.Tag("q3")!, InkCore.Tag("a/b")!])
        try fixture.note("会议 — записка, «notes»", in: "Inbox")
        // The longest title the library takes (1,000 characters); the 5,000-character field is the recognised text.
        let long = try fixture.note(String(repeating: "Long, \"quoted\" title ", count: 48).prefix(999) + "!", in: "Inbox", pages: 0)
        #expect(long.note.title.count == 1_000)
        let pinned = try fixture.note("=HYPERLINK(\"http://x\")", in: "Inbox", pages: 1)
        try fixture.library.updateNote(pinned.note.id) { $0.pinned = true }
        _ = try Indexer(library: fixture.library, index: fixture.index,
                        makeRecognizer: { FixedRecognizer(lines: CatalogTests.hostileLines) }).run()
        let entries = try Catalog.entries(try fixture.library.notes(), index: fixture.index)
        return (fixture, entries)
    }

    @Test("entries carry every field, recognised text page by page, in listing order")
    func entries() throws {
        let (fixture, entries) = try hostileLibrary()
        #expect(try entries.map(\.title) == fixture.library.notes().map(\.note.title))
        #expect(entries.first?.pinned == true)
        let work = try #require(entries.first { $0.notebook == "Work, \"2026\"" })
        let page = CatalogTests.hostileLines.joined(separator: "\n")
        #expect(work.text == page + "\n\n" + page)
        #expect(work.tags == ["a/b", "q3"] && work.pages == 2 && work.source == "user")
        #expect(entries.first { $0.pages == 0 }?.text == "")
        // Without an index there is no text, and nothing else changes.
        let plain = try Catalog.entries(try fixture.library.notes(), index: nil)
        #expect(plain.allSatisfy { $0.text.isEmpty })
        #expect(plain.map(\.id) == entries.map(\.id))
    }

    @Test("CSV reads back through Python's csv module field for field", .enabled(if: python3, "needs python3"))
    func csvRoundTrip() throws {
        let (fixture, entries) = try hostileLibrary()
        let file = fixture.out.appendingPathComponent("catalog.csv")
        try Data(try Catalog.encode(entries, as: .csv)).write(to: file)
        let script = """
            import sys, csv, json
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.reader(f, strict=True))
            print(json.dumps(rows))
            """
        let parsed = try tool(["python3", "-c", script, file.path])
        #expect(parsed.status == 0, "\(parsed.output)")
        let rows = try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as! [[String]]
        #expect(rows.first == ["id", "notebook", "title", "created", "modified", "tags", "pinned", "source", "pages", "text"])
        #expect(rows.count == entries.count + 1)
        for (row, entry) in zip(rows.dropFirst(), entries) {
            #expect(row == [entry.id, entry.notebook, entry.title, Catalog.isoDate(entry.created), Catalog.isoDate(entry.modified),
                            entry.tags.joined(separator: " "), entry.pinned ? "true" : "false", entry.source,
                            String(entry.pages), entry.text])
            #expect(ISO8601DateFormatter().date(from: row[3]) == entry.created)
            #expect(row[3].count == 20 && row[3].hasSuffix("Z"), "\(row[3]) is not like 2026-11-21T14:05:00Z")
        }
        // RFC 4180: records end in CRLF; newlines inside a quoted field stay as they were.
        let bytes = try Data(contentsOf: file)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("id,notebook,title,created,modified,tags,pinned,source,pages,text\r\n"))
        #expect(bytes.prefix(3) != Data([0xEF, 0xBB, 0xBF]))
    }

    @Test("JSON reads back through Python's json module with stable keys", .enabled(if: python3, "needs python3"))
    func jsonRoundTrip() throws {
        let (fixture, entries) = try hostileLibrary()
        let file = fixture.out.appendingPathComponent("catalog.json")
        try Data(try Catalog.encode(entries, as: .json)).write(to: file)
        let script = """
            import sys, json
            from datetime import datetime
            notes = json.load(open(sys.argv[1], encoding='utf-8'))
            for n in notes:
                assert list(n.keys()) == sorted(n.keys()), n.keys()
                n['created'] = datetime.fromisoformat(n['created'].replace('Z', '+00:00')).timestamp()
                n['modified'] = datetime.fromisoformat(n['modified'].replace('Z', '+00:00')).timestamp()
            print(json.dumps(notes))
            """
        let parsed = try tool(["python3", "-c", script, file.path])
        #expect(parsed.status == 0, "\(parsed.output)")
        let notes = try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as! [[String: Any]]
        #expect(notes.count == entries.count)
        for (note, entry) in zip(notes, entries) {
            #expect(Set(note.keys) == ["id", "notebook", "title", "created", "modified", "tags", "pinned", "source", "pages", "text"])
            #expect(note["id"] as? String == entry.id)
            #expect(note["notebook"] as? String == entry.notebook)
            #expect(note["title"] as? String == entry.title)
            #expect(note["created"] as? Double == entry.created.timeIntervalSince1970)
            #expect(note["modified"] as? Double == entry.modified.timeIntervalSince1970)
            #expect(note["tags"] as? [String] == entry.tags)
            #expect(note["pinned"] as? Bool == entry.pinned)
            #expect(note["source"] as? String == entry.source)
            #expect(note["pages"] as? Int == entry.pages)
            #expect(note["text"] as? String == entry.text)
        }
    }

    @Test("a CSV field is quoted exactly when it must be")
    func csvQuoting() {
        #expect(Catalog.csvField("plain text") == "plain text")
        #expect(Catalog.csvField("") == "")
        #expect(Catalog.csvField("a,b") == "\"a,b\"")
        #expect(Catalog.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(Catalog.csvField("two\nlines") == "\"two\nlines\"")
        #expect(Catalog.csvField("crlf\r\nhere") == "\"crlf\r\nhere\"")
        #expect(Catalog.csvField("cr\ronly") == "\"cr\ronly\"")
    }
}
