import Foundation
import InkCore
import InkInterchange
import InkStore
import Testing
@testable import InkwellKit

/// A library and a folder of sources beside it, for importing the same sources again.
final class SourcesFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-sync-\(UUID().uuidString)")
    let library: Library
    let workspace: Workspace
    var sources: URL { root.appendingPathComponent("sources", isDirectory: true) }
    /// rmc's v6 test pages in the shared corpus (../shared/corpus or $INKWELL_CORPUS), if it is here.
    static let corpus: URL? = {
        let root = ProcessInfo.processInfo.environment["INKWELL_CORPUS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("../shared/corpus").standardizedFileURL
        let pages = root.appendingPathComponent("rm/rmc")
        return FileManager.default.fileExists(atPath: pages.appendingPathComponent("Lines_v2.rm").path) ? pages : nil
    }()

    init() throws {
        library = try Library.create(at: root.appendingPathComponent("library"))
        workspace = Workspace(library: library)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = sources.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    func importing(_ files: [URL], asNew: Bool = false) -> ImportReport {
        var importer = Importer(library: library)
        importer.asNew = asNew
        return importer.run(files, replayer: NoteReplayer(), keepGoing: false)
    }

    func sync(dryRun: Bool = false) throws -> SyncReport {
        try workspace.sync(sources, importer: Importer(library: library), replayer: NoteReplayer(), dryRun: dryRun, keepGoing: false)
    }

    /// Every file of the library (the lock aside) with its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: library.root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock" else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    /// The bytes of each of the note's page files, by page id.
    func pageFiles(_ stored: StoredNote) throws -> [PageID: Data] {
        var files: [PageID: Data] = [:]
        for id in stored.note.pages { files[id] = try Data(contentsOf: library.pageURL(id, in: stored.folder)) }
        return files
    }
}

/// A replay log of one note with a page for each entry of `pages`, the number its strokes.
/// `shift` moves the strokes of the pages it names (a page changed in the source).
func pagedLog(_ title: String, pages: [Int], shift: [Int: Double] = [:]) -> String {
    var lines = [#"{"type":"header","version":1}"#, #"{"type":"note","title":"\#(title)"}"#]
    var t = 0.0
    for (page, strokes) in pages.enumerated() {
        lines.append(#"{"type":"page"}"#)
        for s in 0..<strokes {
            let y = 100 + Double(s) * 20 + (shift[page] ?? 0)
            lines.append(#"{"type":"down","t":\#(t),"x":100,"y":\#(y),"p":0.5}"#)
            for i in 1...3 { lines.append(#"{"type":"move","t":\#(t + Double(i) * 0.01),"x":\#(100 + i * 10),"y":\#(y)}"#) }
            lines.append(#"{"type":"up","t":\#(t + 0.05),"x":140,"y":\#(y)}"#)
            t += 1
        }
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite("Importing again updates: one note per source, changed pages replaced, nothing of the user's lost")
struct ImportUpdateTests {
    @Test("importing a file twice gives one note; the second import is 'unchanged' and writes nothing")
    func twice() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("meeting.jsonl", pagedLog("Meeting", pages: [2, 3]))
        let first = fixture.importing([file])
        #expect(first.failures.isEmpty && first.imported.first?.notes.first?.status == "new")
        let stored = try #require(try fixture.library.notes().first)
        let origin = try #require(stored.note.origin)
        #expect(origin.kind == .file && origin.key == file.standardizedFileURL.path)
        #expect(origin.hash == FNV1a.hex(try Data(contentsOf: file)))
        #expect(origin.pages.map(\.page) == stored.note.pages.map { Optional($0) })
        let before = try fixture.snapshot()
        let second = fixture.importing([file])
        #expect(second.failures.isEmpty && second.imported.isEmpty)
        #expect(second.unchanged.map(\.id) == [stored.note.id])
        #expect(try fixture.library.notes().count == 1)
        #expect(try fixture.snapshot() == before)
    }

    @Test("a changed page is replaced, the other pages' files stay byte for byte, the id stays, the old page goes to the trash")
    func changedPage() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("notes.jsonl", pagedLog("Notes", pages: [2, 3, 1]))
        _ = fixture.importing([file])
        let before = try #require(try fixture.library.notes().first)
        let files = try fixture.pageFiles(before)
        try fixture.write("notes.jsonl", pagedLog("Notes renamed", pages: [2, 3, 1], shift: [1: 200]))
        let report = fixture.importing([file])
        #expect(report.failures.isEmpty)
        let updated = try #require(report.imported.first?.notes.first)
        #expect(updated.status == "updated" && updated.changedPages == 1 && updated.id == before.note.id)
        let after = try #require(try fixture.library.notes().first)
        #expect(try fixture.library.notes().count == 1)
        #expect(after.note.title == "Notes renamed")
        #expect(after.note.pages.count == 3)
        #expect(after.note.pages[0] == before.note.pages[0] && after.note.pages[2] == before.note.pages[2])
        #expect(after.note.pages[1] != before.note.pages[1])
        #expect(try Data(contentsOf: fixture.library.pageURL(after.note.pages[0], in: after.folder)) == files[before.note.pages[0]])
        #expect(try Data(contentsOf: fixture.library.pageURL(after.note.pages[2], in: after.folder)) == files[before.note.pages[2]])
        #expect(try fixture.library.pages(of: after)[1].strokes.first?.points.first?.y == 300)
        #expect(!FileManager.default.fileExists(atPath: fixture.library.pageURL(before.note.pages[1], in: after.folder).path))
        // The old version of the page is in the trash, as a note of its own.
        let trashed = try fixture.library.trashItems()
        #expect(trashed.count == 1 && trashed[0].name.hasPrefix("Notes (before an update"))
        let restored = try fixture.library.restore(trashed[0].id)
        let old = try fixture.library.note(matching: try #require(restored.noteID).rawValue)
        #expect(old.note.pages == [before.note.pages[1]])
        #expect(try Data(contentsOf: fixture.library.pageURL(before.note.pages[1], in: old.folder)) == files[before.note.pages[1]])
    }

    @Test("pages added to the source are added, pages removed from it are removed")
    func addedAndRemoved() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("n.jsonl", pagedLog("N", pages: [1, 2, 3]))
        _ = fixture.importing([file])
        let before = try #require(try fixture.library.notes().first)
        try fixture.write("n.jsonl", pagedLog("N", pages: [1, 2, 3, 4]))
        _ = fixture.importing([file])
        let grown = try #require(try fixture.library.notes().first)
        #expect(grown.note.pages.count == 4 && Array(grown.note.pages.prefix(3)) == before.note.pages)
        try fixture.write("n.jsonl", pagedLog("N", pages: [1, 2]))
        let report = fixture.importing([file])
        #expect(report.imported.first?.notes.first?.changedPages == 0)
        let shrunk = try #require(try fixture.library.notes().first)
        #expect(shrunk.note.pages == Array(before.note.pages.prefix(2)))
    }

    @Test("strokes the user drew on an imported page survive an update of that page and of the others")
    func userStrokesSurvive() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("n.jsonl", pagedLog("N", pages: [1, 1, 1]))
        _ = fixture.importing([file])
        let before = try #require(try fixture.library.notes().first)
        let pages = try fixture.library.pages(of: before)
        // The user draws on pages 1 and 2, as the editor's autosave writes it.
        let mine = Stroke(id: StrokeID(900), tool: .pen, color: .black, width: 2,
                          points: [InkPoint(x: 500, y: 500), InkPoint(x: 600, y: 600, time: 0.1)])
        for index in [0, 1] {
            try fixture.library.save([PageDelta(pageID: pages[index].id, size: pages[index].size, template: pages[index].template,
                                                isNew: false, addedStrokes: [mine])], to: before.note.id)
        }
        // The source changes page 2 (which the user drew on) and page 3 (which they did not).
        try fixture.write("n.jsonl", pagedLog("N", pages: [1, 1, 1], shift: [1: 100, 2: 100]))
        let report = fixture.importing([file])
        #expect(report.failures.isEmpty, "\(report.failures)")
        let after = try #require(try fixture.library.notes().first)
        let now = try fixture.library.pages(of: after)
        // Page 1 unchanged in the source: the user's page as it is. Page 2: the new version, then the
        // user's edited page kept beside it. Page 3: the new version only.
        #expect(after.note.pages.count == 4)
        #expect(now[0].id == pages[0].id && now[0].strokes.contains { $0.id == StrokeID(900) })
        #expect(now[1].id != pages[1].id && !now[1].strokes.contains { $0.id == StrokeID(900) })
        #expect(now[2].id == pages[1].id && now[2].strokes.contains { $0.id == StrokeID(900) })
        #expect(now[3].id != pages[2].id)
        // And an update after that still keeps them.
        try fixture.write("n.jsonl", pagedLog("N", pages: [1, 1, 2]))
        _ = fixture.importing([file])
        let again = try fixture.library.pages(of: try #require(try fixture.library.notes().first))
        #expect(again.filter { $0.strokes.contains { $0.id == StrokeID(900) } }.count == 2)
    }

    @Test("--as-new imports a copy beside the note, which later imports leave alone")
    func asNew() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("n.jsonl", pagedLog("N", pages: [1]))
        _ = fixture.importing([file])
        let copy = fixture.importing([file], asNew: true)
        #expect(copy.imported.first?.notes.first?.status == "new")
        #expect(try fixture.library.notes().count == 2)
        #expect(fixture.importing([file]).unchanged.count == 1)
        #expect(try fixture.library.notes().count == 2)
    }

    @Test("sync imports new sources, updates changed ones and trashes the notes of removed ones; --dry-run changes nothing")
    func sync() throws {
        let fixture = try SourcesFixture()
        try fixture.write("a.jsonl", pagedLog("A", pages: [1]))
        let b = try fixture.write("sub/b.jsonl", pagedLog("B", pages: [1]))
        let first = try fixture.sync()
        #expect(first.plan.new.count == 2 && first.imported?.imported.count == 2)
        let bNote = try fixture.library.note(matching: "B")

        try FileManager.default.removeItem(at: b)
        try fixture.write("a.jsonl", pagedLog("A", pages: [2]))
        try fixture.write("c.jsonl", pagedLog("C", pages: [1]))
        let before = try fixture.snapshot()
        let plan = try fixture.sync(dryRun: true)
        #expect(plan.imported == nil && plan.trashed.isEmpty)
        #expect(plan.plan.new.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["c.jsonl"])
        #expect(plan.plan.changed.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["a.jsonl"])
        #expect(plan.plan.removed.map(\.id) == [bNote.note.id])
        #expect(try fixture.snapshot() == before)

        let done = try fixture.sync()
        #expect(done.trashed.count == 1)
        #expect(Set(try fixture.library.notes().map(\.note.title)) == ["A", "C"])
        #expect(try fixture.library.trashItems().contains { $0.noteID == bNote.note.id })
        let again = try fixture.sync()
        #expect(again.plan.new.isEmpty && again.plan.changed.isEmpty && again.plan.removed.isEmpty && again.plan.unchanged.count == 2)
    }

    @Test("a reMarkable notebook synced again: the changed page is replaced, the others' files stay byte for byte, the id stays; gone, it goes to the trash",
          .enabled(if: SourcesFixture.corpus != nil, "the shared corpus (../shared/corpus) is not here"))
    func remarkableNotebook() throws {
        let fixture = try SourcesFixture()
        let corpus = try #require(SourcesFixture.corpus)
        // A notebook as the tablet stores it: UUID.content, UUID.metadata and UUID/PAGE.rm (real v6 pages).
        let uuid = "5d4c3b2a-0000-4000-8000-000000000001", folder = fixture.sources.appendingPathComponent(uuid)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (page, file) in zip(["p1", "p2", "p3"], ["dot.stroke.rm", "Lines_v2.rm", "Normal_AB.rm"]) {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(file), to: folder.appendingPathComponent(page + ".rm"))
        }
        try fixture.write(uuid + ".content", #"{"fileType": "notebook", "pages": ["p1", "p2", "p3"]}"#)
        try fixture.write(uuid + ".metadata", #"{"visibleName": "Tablet notes"}"#)
        _ = try fixture.sync()
        let before = try fixture.library.note(matching: "Tablet notes")
        #expect(before.note.origin?.kind == .remarkable && before.note.origin?.key == uuid)
        #expect(before.note.origin?.pages.map(\.key) == ["p1", "p2", "p3"])
        let files = try fixture.pageFiles(before)

        try FileManager.default.removeItem(at: folder.appendingPathComponent("p2.rm"))
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("erasers.rm"), to: folder.appendingPathComponent("p2.rm"))
        let report = try fixture.sync()
        #expect(report.plan.changed.count == 1)
        #expect(report.imported?.imported.first?.notes.first?.changedPages == 1)
        let after = try fixture.library.note(matching: before.note.id.rawValue)
        #expect(after.note.pages.count == 3 && after.note.pages[1] != before.note.pages[1])
        for index in [0, 2] {
            #expect(after.note.pages[index] == before.note.pages[index])
            #expect(try Data(contentsOf: fixture.library.pageURL(after.note.pages[index], in: after.folder)) == files[before.note.pages[index]])
        }
        #expect(try fixture.library.trashItems().count == 1)

        // Deleted on the tablet: the document's files and its page folder go.
        for name in [uuid + ".content", uuid + ".metadata", uuid] {
            try FileManager.default.removeItem(at: fixture.sources.appendingPathComponent(name))
        }
        let gone = try fixture.sync()
        #expect(gone.plan.removed.map(\.id) == [before.note.id] && gone.trashed.count == 1)
        #expect(try fixture.library.notes().isEmpty)
    }

    @Test("a file dropped twice is one note")
    func dropTwice() throws {
        let fixture = try DropFixture()
        try fixture.write("n.jsonl", replayLog("Dropped"))
        try fixture.look()
        try fixture.look(after: 3)
        try fixture.write("n.jsonl", replayLog("Dropped"))
        try fixture.look(after: 1)
        try fixture.look(after: 3)
        #expect(try fixture.library.notes().count == 1)
        #expect(fixture.events.count == 2)
        #expect(fixture.events.last?.unchanged?.first?.title == "Dropped")
        #expect(fixture.files("done").count == 2)
        // Another file under the used name (a scanner's `scan.jsonl` again) is a note of its own.
        try fixture.write("n.jsonl", replayLog("Dropped", strokes: 5))
        try fixture.look(after: 1)
        try fixture.look(after: 3)
        #expect(try fixture.library.notes().count == 2)
    }

    @Test("note.json keeps the origin; a hostile one (bad hash, control characters, bad page id) is refused, naming the key")
    func originValidation() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("n.jsonl", pagedLog("N", pages: [1]))
        _ = fixture.importing([file])
        let stored = try #require(try fixture.library.notes().first)
        let url = stored.folder.appendingPathComponent("note.json")
        let good = try String(contentsOf: url, encoding: .utf8)
        #expect(good.contains(#""origin""#) && good.contains(file.standardizedFileURL.path))
        let hash = try #require(stored.note.origin?.hash)
        for bad in [good.replacingOccurrences(of: hash, with: "NOT-HEX-AT-ALL!!"),
                    good.replacingOccurrences(of: file.standardizedFileURL.path, with: "a\\u0000b"),
                    good.replacingOccurrences(of: #""page" : ""#, with: #""page" : "../"#)] {
            #expect(bad != good)
            try Data(bad.utf8).write(to: url)
            let listing = try fixture.library.listing()
            #expect(listing.notes.isEmpty)
            #expect(listing.damaged.first?.reason.contains("origin") == true, "\(listing.damaged)")
        }
        // A note.json from before origins were kept still loads.
        var old = try JSONSerialization.jsonObject(with: Data(good.utf8)) as! [String: Any]
        old["origin"] = nil
        try JSONSerialization.data(withJSONObject: old).write(to: url)
        #expect(try fixture.library.notes().first?.note.origin == nil)
    }
}
