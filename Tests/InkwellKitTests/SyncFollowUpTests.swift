import Foundation
import InkCore
import InkStore
import Testing
@testable import InkIntake
@testable import InkwellKit

/// A Xournal++ page with one stroke and a text box holding `text` (a Xournal++ text box is typed text).
private func xoppWithText(_ text: String) -> String {
    """
    <?xml version="1.0" standalone="no"?>
    <xournal creator="test" fileversion="4"><page width="612" height="792"><background type="solid" color="#ffffffff" style="plain"/>
    <layer><stroke tool="pen" color="#000000ff" width="2">10 10 100 100</stroke>
    <text font="Sans" size="12" x="50" y="300" color="#000000ff">\(text)</text></layer>
    </page></xournal>
    """
}

extension SourceFolderWatch.Outcome {
    var isWaiting: Bool { if case .waiting = self { true } else { false } }
    var report: SyncReport? { if case .synced(let report) = self { report } else { nil } }
}

@Suite("Sources kept by their stamp: an unchanged file is not read again, any change to it is")
struct SourceHashesTests {
    /// Hashing long after the file was written (a controlled clock): its stamp is trusted.
    static let later: @Sendable () -> Double = { Date().timeIntervalSince1970 + 100 }

    static func changeTime(_ url: URL) -> timespec {
        var info = stat()
        _ = stat(url.path, &info)
        return info.st_ctim
    }

    @Test("an unchanged source is not read again; rewritten in place with its size and modification time put back, it is")
    func byStamp() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("a.jsonl", pagedLog("A", pages: [2]))
        let first = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        let hash = try #require(try first.hash(file))
        first.save()
        #expect(first.filesRead == 1)
        let second = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        #expect(try second.hash(file) == hash)
        #expect(second.filesRead == 0)

        // Same size, one byte changed, the modification time put back (as `touch -r` or a careless
        // copy would): only the change time, which nothing can set back, tells.
        var info = stat()
        _ = stat(file.path, &info)
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count - 2] ^= 0x01
        let changed = Self.changeTime(file)
        let deadline = Date().addingTimeInterval(5)
        // Rewritten until the file system's clock has ticked past the first write (a few ms).
        repeat {
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        } while Self.changeTime(file).tv_sec == changed.tv_sec && Self.changeTime(file).tv_nsec == changed.tv_nsec && Date() < deadline
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0)
        var now = stat()
        _ = stat(file.path, &now)
        #expect(now.st_size == info.st_size && now.st_mtim.tv_sec == info.st_mtim.tv_sec && now.st_mtim.tv_nsec == info.st_mtim.tv_nsec)

        let third = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        #expect(try third.hash(file) == FNV1a.hex(bytes))
        #expect(third.filesRead == 1)
    }

    @Test("a file hashed within 2 s of its last change is read again next time: a change in the same clock tick would not show")
    func racy() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("a.jsonl", pagedLog("A", pages: [1]))
        let first = SourceHashes(library: fixture.library) // the real clock: the file was written just now
        _ = try first.hash(file)
        first.save()
        let second = SourceHashes(library: fixture.library)
        _ = try second.hash(file)
        #expect(second.filesRead == 1)
    }

    @Test("kept hashes cut short or altered are not used (their checksum is wrong): the files are read")
    func damaged() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("a.jsonl", pagedLog("A", pages: [1]))
        let first = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        let hash = try first.hash(file)
        first.save()
        let kept = try #require(first.url)
        let whole = try Data(contentsOf: kept)
        for damaged in [whole.prefix(whole.count - 5), Data(String(decoding: whole, as: UTF8.self).replacingOccurrences(of: hash ?? "", with: "0000000000000000").utf8)] {
            try damaged.write(to: kept)
            let again = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
            #expect(try again.hash(file) == hash)
            #expect(again.filesRead == 1)
        }
    }

    @Test("a second sync of an unchanged folder reads none of its files; it still sees a changed one")
    func syncReadsNothing() throws {
        let fixture = try SourcesFixture()
        try fixture.write("a.jsonl", pagedLog("A", pages: [1]))
        try fixture.write("b.jsonl", pagedLog("B", pages: [1]))
        _ = try fixture.sync()
        // Taken as if the files were written long ago: the plan's hashes are kept.
        let hashes = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        for name in ["a.jsonl", "b.jsonl"] { _ = try hashes.hash(fixture.sources.appendingPathComponent(name)) }
        hashes.save()
        let again = SourceHashes(library: fixture.library, now: SourceHashesTests.later)
        for name in ["a.jsonl", "b.jsonl"] { _ = try again.hash(fixture.sources.appendingPathComponent(name)) }
        #expect(again.filesRead == 0)
        try fixture.write("b.jsonl", pagedLog("B", pages: [2]))
        let plan = try fixture.workspace.syncPlan(fixture.sources)
        #expect(plan.changed.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["b.jsonl"] && plan.unchanged.count == 1)
    }
}

@Suite("watch --source: a folder of sources synced each time it settles")
struct SourceFolderWatchTests {
    @Test("synced once settled, again after a change, not while it changes; a stopped sync trashes nothing; an emptied folder is not synced")
    func settles() throws {
        let fixture = try SourcesFixture()
        let watch = SourceFolderWatch(workspace: fixture.workspace, folder: fixture.sources, settle: 2, importer: Importer(library: fixture.library))
        let start = Date()
        func look(_ seconds: Double, stop: Bool = false) throws -> SourceFolderWatch.Outcome {
            try watch.look(now: { start.addingTimeInterval(seconds) }, shouldStop: { stop })
        }
        try fixture.write("a.jsonl", pagedLog("A", pages: [1]))
        #expect(try look(0).isWaiting)
        #expect(try look(1).isWaiting)
        #expect(try look(2.5).report?.plan.new.count == 1)
        #expect(try look(5).isWaiting) // as it was synced

        try fixture.write("a.jsonl", pagedLog("A", pages: [2]))
        try fixture.write("b.jsonl", pagedLog("B", pages: [1]))
        #expect(try look(6).isWaiting)
        try fixture.write("b.jsonl", pagedLog("B", pages: [1, 1])) // still being written
        #expect(try look(7).isWaiting)
        #expect(try look(8.5).isWaiting) // 1.5 s since the last change
        let second = try #require(try look(9.5).report)
        #expect(second.plan.changed.count == 1 && second.plan.new.count == 1)
        #expect(try fixture.library.note(matching: "B").note.pages.count == 2)

        try FileManager.default.removeItem(at: fixture.sources.appendingPathComponent("b.jsonl"))
        #expect(try look(10).isWaiting)
        let stopped = try #require(try look(12.5, stop: true).report)
        #expect(stopped.stopped == true && stopped.trashed.isEmpty)
        #expect(Set(try fixture.library.notes().map(\.note.title)) == ["A", "B"])
        let resumed = try #require(try look(13).report)
        #expect(resumed.trashed.count == 1)
        #expect(try fixture.library.notes().map(\.note.title) == ["A"])

        // Emptied (as a drive that is not mounted): not synced, A stays.
        try FileManager.default.removeItem(at: fixture.sources.appendingPathComponent("a.jsonl"))
        #expect(try look(14).isWaiting)
        guard case .empty = try look(16.5) else { Issue.record("an empty folder was synced"); return }
        #expect(try fixture.library.notes().map(\.note.title) == ["A"])
    }
}

@Suite("An update refreshes what the source gives besides pages: its typed text and its tags")
struct UpdateTextAndTagsTests {
    @Test("the typed text the source gave is refreshed; text edited in Inkwell is kept, and the import says so")
    func typedText() throws {
        let fixture = try SourcesFixture()
        let file = try fixture.write("quotes.xopp", xoppWithText("first quote"))
        _ = fixture.importing([file])
        func text() throws -> String {
            try fixture.library.typedTextSource(of: try fixture.library.note(matching: "quotes")).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try text() == "first quote")

        try fixture.write("quotes.xopp", xoppWithText("second quote"))
        let second = fixture.importing([file])
        #expect(second.imported.first?.notes.first?.status == "updated")
        #expect(try text() == "second quote")

        let id = try fixture.library.note(matching: "quotes").note.id
        try fixture.library.setTypedText("my own words", of: id)
        try fixture.write("quotes.xopp", xoppWithText("third quote"))
        let third = fixture.importing([file])
        #expect(third.imported.first?.notes.first?.status == "updated")
        #expect(try text() == "my own words")
        #expect(third.imported.first?.warnings.contains { $0.contains("edited in Inkwell") } == true, "\(third)")
        #expect(try fixture.library.notes().count == 1)
    }

    @Test("tags the source dropped are removed; tags added in Inkwell stay")
    func tags() throws {
        let fixture = try SourcesFixture()
        let uuid = "5d4c3b2a-0000-4000-8000-000000000002"
        func content(_ tags: [String]) -> String {
            #"{"fileType": "notebook", "pages": ["p1"], "tags": [\#(tags.map { #"{"name": "\#($0)"}"# }.joined(separator: ", "))]}"#
        }
        try fixture.write(uuid + ".content", content(["work", "draft"]))
        try fixture.write(uuid + ".metadata", #"{"visibleName": "Tagged"}"#)
        _ = try fixture.sync()
        let id = try fixture.library.note(matching: "Tagged").note.id
        #expect(try fixture.library.note(matching: "Tagged").note.tags.map(\.name).sorted() == ["draft", "work"])
        _ = try fixture.workspace.tagNote(id, add: [Tag("mine")!], remove: [])

        try fixture.write(uuid + ".content", content(["work", "later"]))
        let report = try fixture.sync()
        #expect(report.plan.changed.count == 1)
        let after = try fixture.library.note(matching: id.rawValue)
        #expect(after.note.tags.map(\.name).sorted() == ["later", "mine", "work"])
        #expect(after.note.origin?.tags == ["later", "work"])
    }
}
