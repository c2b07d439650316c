import Foundation
import InkCore
import Testing
@testable import InkStore

/// What interrupted writes leave behind is found and swept, and nothing else is.
@Suite("Leftovers of interrupted writes")
struct LeftoverTests {
    let root = temporaryFolder()

    @Test("temporary names tell their writer", arguments: [
        (".note.json.123-4000000000.tmp", Int32?.some(123) as Int32??),
        (".body.md.3735928559.tmp", .some(nil)),
        ("note.json", nil), (".hidden.tmp", nil), (".note.json.12x-3.tmp", nil), ("draft.tmp", nil),
    ])
    func names(name: String, writer: Int32??) {
        #expect(DurableFile.writer(ofTemporary: name) == writer)
    }

    @Test("a dead writer's temporaries, old unnamed ones and dead imports' staging are leftovers; live ones, fresh ones and the drop folder are not")
    func findAndSweep() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Kept")
        let dead = try deadProcessID()
        let fm = FileManager.default
        func make(_ url: URL, age: TimeInterval = 0) throws {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: 100).write(to: url)
            if age > 0 { try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path) }
        }
        let stale = [
            stored.folder.appendingPathComponent(".note.json.\(dead)-1.tmp"),
            stored.folder.appendingPathComponent(".body.md.77.tmp"),
            root.appendingPathComponent(".routes.json.\(dead)-2.tmp"),
        ]
        try make(stale[0])
        try make(stale[1], age: 2 * 3600)
        try make(stale[2])
        let staging = root.appendingPathComponent(".staging/\(dead)-abcdefghijkl/x.note/note.json")
        try make(staging)
        let kept = [
            stored.folder.appendingPathComponent(".note.json.1-3.tmp"),   // pid 1 runs
            stored.folder.appendingPathComponent(".note.json.99.tmp"),    // unnamed, but fresh
            root.appendingPathComponent("inbox/.upload.json.\(dead)-4.tmp"),
            root.appendingPathComponent(".staging/\(getpid())-mnopqrstuvwx/y.note/note.json"),
        ]
        for url in kept { try make(url) }

        let found = Set(library.leftovers().map(\.path))
        #expect(found == Set(stale.map(\.path) + [root.appendingPathComponent(".staging/\(dead)-abcdefghijkl").path]))
        #expect(library.leftovers().allSatisfy { $0.bytes == 100 })
        try library.removeLeftovers()
        #expect(library.leftovers().isEmpty)
        #expect(kept.allSatisfy { fm.fileExists(atPath: $0.path) })
        #expect(try library.note(matching: "Kept").note.id == stored.note.id)
    }

    @Test("a trash entry left empty by an interrupted delete or restore is not listed, and is swept")
    func emptyTrashEntry() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Kept")
        let item = try library.deleteNote(stored.note.id)
        // As a crash between a restore's two steps leaves it: the note back in place, trash.json still there.
        let entry = root.appendingPathComponent("trash/\(item.id)")
        try FileManager.default.moveItem(at: entry.appendingPathComponent(stored.folder.lastPathComponent), to: stored.folder)
        #expect(try library.trashItems().isEmpty)
        #expect(library.leftovers().map(\.path) == [entry.path])
        try library.removeLeftovers()
        #expect(!FileManager.default.fileExists(atPath: entry.path))
        #expect(try library.note(matching: "Kept").note.id == stored.note.id)
    }

    @Test("writing a note again drops its folder's stale temporaries")
    func nextWriteSweeps() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Kept")
        let leftover = stored.folder.appendingPathComponent(".note.json.\(try deadProcessID())-9.tmp")
        try Data("half".utf8).write(to: leftover)
        _ = try library.updateNote(stored.note.id) { $0.title = "Renamed" }
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }
}
