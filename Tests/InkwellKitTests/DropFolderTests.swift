import Foundation
import InkCore
import InkInterchange
import InkStore
import Testing
@testable import InkIntake
@testable import InkwellKit

/// A library with a drop folder, a clock the test moves by hand, and the events each look reported.
final class DropFixture {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-drop-\(UUID().uuidString)")
    let library: Library
    let drop: DropFolder
    var clock = Date(timeIntervalSince1970: 1_800_000_000)
    var events: [DropEvent] = []

    init(_ configure: (inout DropFolderOptions) -> Void = { _ in }) throws {
        library = try Library.create(at: root)
        var options = DropFolderOptions()
        options.settle = 2
        configure(&options)
        drop = DropFolder(library: library, options: options)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var inbox: URL { library.dropFolder }

    /// One look at the folder `advance` seconds after the previous one.
    @discardableResult
    func look(after advance: TimeInterval = 0) throws -> [String] {
        clock += advance
        let now = clock
        return try drop.look(now: { now }) { self.events.append($0) } ?? []
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: inbox.appendingPathComponent(name))
    }

    /// `count` one-stroke recordings named PREFIX0.jsonl… that claim to come from "Acme Scanner 2".
    func writeClaimed(_ prefix: String, count: Int) throws {
        let header = #"{"type":"header","version":1,"source":"Acme Scanner 2"}"#
        for i in 0..<count { try write("\(prefix)\(i).jsonl", replayLog("\(prefix) \(i)", strokes: 1, header: header)) }
    }

    func append(_ name: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: inbox.appendingPathComponent(name))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: inbox.appendingPathComponent(folder).path)) ?? []).sorted()
    }

    /// Every file of the library outside the drop folder, with its bytes.
    func librarySnapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock",
                  !url.path.hasPrefix(inbox.path + "/") else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }
}

/// A replay log of one note titled `title` with `strokes` strokes, each of 5 points.
func replayLog(_ title: String, strokes: Int = 3, header: String = #"{"type":"header","version":1}"#) -> String {
    var lines = [header, #"{"type":"note","title":"\#(title)"}"#]
    for s in 0..<strokes {
        let t = Double(s)
        lines.append(#"{"type":"down","t":\#(t),"x":100,"y":\#(100 + s * 20),"p":0.5}"#)
        for i in 1...3 { lines.append(#"{"type":"move","t":\#(t + Double(i) * 0.01),"x":\#(100 + i * 10),"y":\#(100 + s * 20)}"#) }
        lines.append(#"{"type":"up","t":\#(t + 0.05),"x":140,"y":\#(100 + s * 20)}"#)
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite("Drop folder: files appear, are imported once, or fail with a reason")
struct DropFolderTests {
    @Test("a file written in pieces is imported once, complete, only after it stopped changing")
    func slowWriter() throws {
        let fixture = try DropFixture()
        let log = replayLog("Slow", strokes: 6)
        let pieces = stride(from: 0, to: log.count, by: log.count / 4 + 1).map { start in
            String(log.dropFirst(start).prefix(log.count / 4 + 1))
        }
        try fixture.write("slow.jsonl", pieces[0])
        for piece in pieces.dropFirst() {
            try fixture.look(after: 1.5) // each pause shorter than the settle time
            try fixture.append("slow.jsonl", piece)
        }
        // Unchanged since the last piece, but not yet for the settle time (2 s): still left alone.
        try fixture.look(after: 0.5)
        try fixture.look(after: 1)
        #expect(fixture.events.isEmpty)
        #expect(try fixture.library.notes().isEmpty)
        try fixture.look(after: 1)
        #expect(fixture.events.map(\.kind) == [.imported])
        #expect(fixture.files("done") == ["slow.jsonl"])
        try fixture.look(after: 10)
        try fixture.look(after: 10)
        let notes = try fixture.library.notes()
        #expect(notes.count == 1 && fixture.events.count == 1)
        #expect(notes.first?.note.source == "drop:inbox/slow.jsonl" && notes.first?.notebook == .inbox)
        #expect(try fixture.library.pages(of: notes[0]).first?.strokes.count == 6)
    }

    @Test("a dropped file with ink beyond its page's edges is imported, and its event says so with the page")
    func inkOffThePage() throws {
        let fixture = try DropFixture()
        try fixture.write("off.xopp", """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="test" fileversion="4">
            <page width="612" height="792"><background type="solid" color="#ffffffff" style="plain"/><layer>
            <stroke tool="pen" color="#000000ff" width="2">500 700 700 900</stroke>
            </layer></page>
            </xournal>
            """)
        try fixture.look()
        try fixture.look(after: 3)
        #expect(fixture.events.map(\.kind) == [.imported])
        #expect(fixture.events.first?.warnings == ["inbox/off.xopp: page 1: 1 stroke reaches beyond the page's edges: kept whole, but the part outside the page is not drawn"],
                "\(fixture.events.first?.warnings ?? [])")
    }

    @Test("a .part file (and hidden or temporary names) is ignored until renamed")
    func partFiles() throws {
        let fixture = try DropFixture()
        try fixture.write("note.jsonl.part", replayLog("Part"))
        try fixture.write(".hidden.jsonl", replayLog("Hidden"))
        try fixture.write("draft.jsonl~", replayLog("Backup"))
        try fixture.write("empty.jsonl", "")
        for _ in 0..<3 { try fixture.look(after: 5) }
        #expect(try fixture.events.isEmpty && fixture.library.notes().isEmpty)
        try FileManager.default.moveItem(at: fixture.inbox.appendingPathComponent("note.jsonl.part"),
                                         to: fixture.inbox.appendingPathComponent("note.jsonl"))
        try fixture.look(after: 0.5)
        try fixture.look(after: 2)
        #expect(fixture.events.map(\.file) == ["note.jsonl"])
        #expect(try fixture.library.notes().map(\.note.title) == ["Part"])
        #expect(fixture.files("").contains(".hidden.jsonl") && fixture.files("").contains("draft.jsonl~"))
    }

    @Test("a bad file goes to failed/ with a reason naming file and position, and the library is unchanged")
    func badFile() throws {
        let fixture = try DropFixture()
        _ = try fixture.library.createNote(title: "Existing")
        let before = try fixture.librarySnapshot()
        try fixture.write("bad.jsonl", replayLog("Bad") + #"{"type":"down","t":"soon","x":1,"y":1}"# + "\n")
        try fixture.write("truncated.jsonl", #"{"type":"header","version":1}"# + "\n" + #"{"type":"down","t":0,"x":1,"y":1}"# + "\n")
        try fixture.look()
        try fixture.look(after: 2)
        #expect(fixture.events.map(\.kind) == [.failed, .failed])
        #expect(try fixture.librarySnapshot() == before)
        #expect(fixture.files("failed") == ["bad.jsonl", "bad.jsonl.reason.txt", "truncated.jsonl", "truncated.jsonl.reason.txt"])
        let reason = try String(contentsOf: fixture.inbox.appendingPathComponent("failed/bad.jsonl.reason.txt"), encoding: .utf8)
        #expect(reason.contains("file: inbox/bad.jsonl"))
        #expect(reason.contains("position: line 18"))
        #expect(reason.contains("reason: key \"t\" is not a number"))
        #expect(fixture.events[1].reason?.contains("pen is down") == true)
    }

    @Test("files too big, with too many points or strokes, or in no known format fail without being imported")
    func limits() throws {
        let fixture = try DropFixture { $0.maxBytes = 4_000; $0.maxPoints = 40; $0.maxStrokes = 5 }
        try fixture.write("big.jsonl", replayLog("Big", strokes: 40))
        try fixture.write("points.jsonl", replayLog("Points", strokes: 9))
        try fixture.write("strokes.jsonl", replayLog("Strokes", strokes: 6).replacingOccurrences(of: #","x":110,"y""#, with: #","x":110,"p":0.5,"y""#))
        try fixture.write("photo.jpg", "\u{FF}\u{D8}\u{FF} not ink")
        try fixture.look()
        try fixture.look(after: 2)
        let reasons = Dictionary(uniqueKeysWithValues: fixture.events.map { ($0.file!, $0.reason ?? "") })
        #expect(fixture.events.allSatisfy { $0.kind == .failed })
        #expect(reasons["big.jsonl"]?.contains("at most 4000 bytes (--max-bytes)") == true)
        #expect(reasons["points.jsonl"]?.contains("45 points") == true)
        #expect(reasons["strokes.jsonl"]?.contains("6 strokes") == true)
        #expect(reasons["photo.jpg"]?.contains("not a recording") == true)
        #expect(try fixture.library.notes().isEmpty)
    }

    @Test("names already in done/ and failed/ get a suffix; nothing is overwritten")
    func collisions() throws {
        let fixture = try DropFixture()
        for round in 1...3 {
            try fixture.write("same.jsonl", replayLog("Round \(round)"))
            try fixture.write("junk.txt", "round \(round)")
            try fixture.look()
            try fixture.look(after: 2)
        }
        #expect(fixture.files("done") == ["same-2.jsonl", "same-3.jsonl", "same.jsonl"])
        #expect(fixture.files("failed") == ["junk-2.txt", "junk-2.txt.reason.txt", "junk-3.txt", "junk-3.txt.reason.txt",
                                           "junk.txt", "junk.txt.reason.txt"])
        #expect(try String(contentsOf: fixture.inbox.appendingPathComponent("failed/junk-2.txt"), encoding: .utf8) == "round 2")
        #expect(try fixture.library.notes().count == 3)
    }

    @Test("a burst of 60 files warns once, naming the count and the source they claim")
    func burst() throws {
        let fixture = try DropFixture()
        try fixture.writeClaimed("a", count: 30)
        try fixture.look()
        try fixture.look(after: 2) // 30 imported: no burst yet
        try fixture.writeClaimed("b", count: 30)
        try fixture.look(after: 1)
        try fixture.look(after: 2) // 60 within a minute: one warning
        for i in 0..<5 { try fixture.write("c\(i).jsonl", replayLog("C \(i)", strokes: 1)) }
        try fixture.look(after: 1)
        try fixture.look(after: 2) // still the same burst: no second warning
        let warnings = fixture.events.filter { $0.kind == .burst }
        #expect(fixture.events.filter { $0.kind == .imported }.count == 65)
        #expect(warnings.count == 1)
        #expect(warnings.first?.count == 60)
        #expect(warnings.first?.sources == ["Acme Scanner 2": 60])
        #expect(warnings.first?.line.contains("60 files") == true)
        #expect(warnings.first?.line.contains("\"Acme Scanner 2\" (60)") == true)
    }

    @Test("a burst is counted by when the files arrived: 60 files read 2 s apart (two minutes of reading) still warn once")
    func burstReadSlowly() throws {
        let fixture = try DropFixture()
        try fixture.writeClaimed("a", count: 60)
        try fixture.look()  // all 60 seen at once
        // Each file's reading takes 2 s of the clock: the last is read two minutes after the burst came.
        fixture.clock += 2
        var clock = fixture.clock
        _ = try fixture.drop.look(now: { clock += 2; return clock }) { fixture.events.append($0) }
        let warnings = fixture.events.filter { $0.kind == .burst }
        #expect(fixture.events.filter { $0.kind == .imported }.count == 60)
        #expect(warnings.count == 1)
        #expect(warnings.first?.count == 60)
    }

    @Test("files that arrive while a look is importing are seen arriving then, not when the long look ends")
    func burstArrivingDuringSlowLook() throws {
        let fixture = try DropFixture()
        try fixture.writeClaimed("a", count: 30)
        try fixture.look()
        // The second 30 are written while the first of the first 30 is imported; each import takes 3 s of
        // the clock, so the look ends 90 s after the burst began.
        fixture.clock += 2
        var clock = fixture.clock
        var written = false
        let waiting = try fixture.drop.look(now: { clock += 3; return clock }) { event in
            fixture.events.append(event)
            if !written {
                written = true
                try? fixture.writeClaimed("b", count: 30)
            }
        }
        #expect(waiting?.count == 30) // the newcomers are named as waiting
        for _ in 0..<2 {
            clock += 2
            _ = try fixture.drop.look(now: { clock += 3; return clock }) { fixture.events.append($0) }
        }
        let warnings = fixture.events.filter { $0.kind == .burst }
        #expect(fixture.events.filter { $0.kind == .imported }.count == 60)
        #expect(warnings.count == 1)
        #expect(warnings.first?.count == 60)
    }

    @Test("the burst monitor warns again only after the rate fell back")
    func burstMonitor() {
        var monitor = BurstMonitor(limit: 50, window: 60)
        let start = Date(timeIntervalSince1970: 0)
        for i in 0..<50 { monitor.record("x", at: start + Double(i) * 0.1) }
        #expect(monitor.check(at: start + 5) == nil)
        monitor.record("y", at: start + 5)
        #expect(monitor.check(at: start + 5)?.count == 51)
        monitor.record("y", at: start + 6)
        #expect(monitor.check(at: start + 6) == nil)
        #expect(monitor.check(at: start + 200) == nil) // the window emptied: the burst is over
        for i in 0..<51 { monitor.record("z", at: start + 300 + Double(i)) }
        #expect(monitor.check(at: start + 351)?.sources == ["z": 51])
    }

    @Test("an import interrupted after its commit is finished, not repeated; one interrupted before is redone")
    func journal() throws {
        let fixture = try DropFixture()
        // Committed, then the process died before moving the file to done/.
        let committed = try fixture.library.createNote(title: "Committed", source: "drop:inbox/done-before.jsonl")
        try fixture.write("done-before.jsonl", replayLog("Committed"))
        let entry = DropFolder.JournalEntry(file: "done-before.jsonl", notes: [committed.note.id.rawValue])
        try JSONEncoder().encode(entry).write(to: fixture.inbox.appendingPathComponent(".importing.json"))
        try fixture.look()
        #expect(fixture.files("done") == ["done-before.jsonl"])
        #expect(try fixture.library.notes().count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.inbox.appendingPathComponent(".importing.json").path))

        // Died before the commit: the journal names notes that never arrived, so the file is imported.
        try fixture.write("not-yet.jsonl", replayLog("Not yet"))
        let lost = DropFolder.JournalEntry(file: "not-yet.jsonl", notes: [NoteID.random().rawValue])
        try JSONEncoder().encode(lost).write(to: fixture.inbox.appendingPathComponent(".importing.json"))
        try fixture.look()
        try fixture.look(after: 2)
        #expect(Set(try fixture.library.notes().map(\.note.title)) == ["Committed", "Not yet"])
    }
}
