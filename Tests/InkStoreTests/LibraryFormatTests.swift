import Foundation
import InkCore
import Testing
@testable import InkStore

/// The library marker: an Inkwell reads only the formats it knows and writes only its own.
@Suite("Library format")
struct LibraryFormatTests {
    let root = temporaryFolder()
    var marker: URL { root.appendingPathComponent(Library.markerName) }

    /// Every file under the library with its bytes, to show nothing changed.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[url.path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("a new library says its format, the oldest format that reads it and the release that does")
    func newMarker() throws {
        try Library.create(at: root)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: marker)) as! [String: Any]
        #expect(json["format"] as? Int == 2 && LibraryFormat.current == 2)
        // Format-1 readers may read it (they skip the chunks format 2 adds), not write it.
        #expect(json["minReader"] as? Int == 1 && json["minReaderVersion"] as? String == "0.1.0")
    }

    @Test("a format-1 library is read as it is, refused for writing with the way out, and upgraded explicitly with a copy of its marker")
    func formatOneNeedsUpgrade() throws {
        let written = try Library.create(at: root)
        _ = try written.createNote(title: "Written by 0.1.0")
        let old = Data(#"{"created":"2026-01-01T00:00:00Z","format":1}"#.utf8)
        try old.write(to: marker)
        let before = try snapshot()
        let library = try Library(opening: root)
        #expect(library.format.minReader == 1 && !library.format.isWritable && library.format.needsUpgrade)
        #expect(try library.notes().map(\.note.title) == ["Written by 0.1.0"])
        let error = try #require(throws: StoreError.self) { try library.createNote(title: "Not yet") }
        #expect("\(error)".contains("older than this Inkwell writes") && "\(error)".contains("inkwell upgrade"), "\(error)")
        #expect(try snapshot() == before)

        let upgrade = try library.upgrade()
        #expect(upgrade.from == 1 && upgrade.to == 2 && upgrade.changes.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(upgrade.backup))) == old)
        let upgraded = try Library(opening: root)
        #expect(upgraded.format.format == 2 && upgraded.format.created == library.format.created)
        _ = try upgraded.createNote(title: "Written after the upgrade")
        #expect(try upgraded.notes().count == 2)
        // Again: nothing to do, nothing written.
        let after = try snapshot()
        #expect(try upgraded.upgrade().backup == nil)
        #expect(try snapshot() == after)
    }

    @Test("a process that opened the library before its marker changed does not write into it")
    func markerChangedWhileOpen() throws {
        let library = try Library.create(at: root)
        _ = try library.createNote(title: "Before")
        try Data(#"{"format":3,"minReader":1,"minReaderVersion":"0.1.0"}"#.utf8).write(to: marker)
        let before = try snapshot()
        let error = try #require(throws: StoreError.self) { try library.createNote(title: "After") }
        #expect("\(error)".contains("format 3"), "\(error)")
        #expect(throws: StoreError.self) { try library.stage(title: "Staged", in: .inbox, created: Date(), source: "test") }
        #expect(try snapshot() == before)
    }

    @Test("a library from a newer Inkwell is refused, naming the release it needs, and left as it was", arguments: [
        #"{"format":99}"#, #"{"format":3,"minReader":3,"minReaderVersion":"0.4.0"}"#,
    ])
    func newerRefused(text: String) throws {
        try Library.create(at: root)
        try Data(text.utf8).write(to: marker)
        let before = try snapshot()
        let error = try #require(throws: StoreError.self) { try Library(opening: root) }
        #expect("\(error)".contains("needs Inkwell ≥") && "\(error)".contains(text.contains("99") ? "format 99" : "≥ 0.4.0 (format 3)"), "\(error)")
        #expect(throws: StoreError.self) { try Library.create(at: root) }
        #expect(try snapshot() == before)
    }

    @Test("a newer format that older readers may read is read here, but neither written into nor upgraded")
    func newerReadableNotWritable() throws {
        let library = try Library.create(at: root)
        _ = try library.createNote(title: "Written before")
        try Data(#"{"format":3,"minReader":1,"minReaderVersion":"0.1.0"}"#.utf8).write(to: marker)
        let before = try snapshot()
        let newer = try Library(opening: root)
        #expect(try newer.notes().map(\.note.title) == ["Written before"])
        let error = try #require(throws: StoreError.self) { try newer.createNote(title: "Not here") }
        #expect("\(error)".contains("format 3") && "\(error)".contains("newer than this Inkwell writes"), "\(error)")
        #expect(throws: StoreError.self) { try newer.createNotebook(try NotebookPath("Work")) }
        #expect(throws: StoreError.self) { try newer.upgrade() }
        #expect(try snapshot() == before)
    }

    @Test("a marker Inkwell cannot read refuses the library instead of guessing", arguments: [
        "garbage", "", "[]", #"{"format":"one"}"#, #"{"created":"2026-01-01T00:00:00Z"}"#,
    ])
    func unreadableMarker(text: String) throws {
        try Library.create(at: root)
        try Data(text.utf8).write(to: marker)
        let before = try snapshot()
        let error = try #require(throws: StoreError.self) { try Library(opening: root) }
        #expect("\(error)".contains(marker.deletingLastPathComponent().path) && "\(error)".contains("cannot be read"), "\(error)")
        #expect(try snapshot() == before)
    }
}
