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
        #expect(json["format"] as? Int == LibraryFormat.current && json["minReader"] as? Int == LibraryFormat.current)
        #expect(json["minReaderVersion"] as? String == "0.1.0")
    }

    @Test("a marker written before minReader existed opens and is written into as before")
    func formatOneMarker() throws {
        try Library.create(at: root)
        try Data(#"{"created":"2026-01-01T00:00:00Z","format":1}"#.utf8).write(to: marker)
        let library = try Library(opening: root)
        #expect(library.format.minReader == 1 && library.format.isWritable)
        _ = try library.createNote(title: "Still writable")
    }

    @Test("a library from a newer Inkwell is refused, naming the release it needs, and left as it was", arguments: [
        #"{"format":99}"#, #"{"format":2,"minReader":2,"minReaderVersion":"0.4.0"}"#,
    ])
    func newerRefused(text: String) throws {
        try Library.create(at: root)
        try Data(text.utf8).write(to: marker)
        let before = try snapshot()
        let error = try #require(throws: StoreError.self) { try Library(opening: root) }
        #expect("\(error)".contains("needs Inkwell ≥") && "\(error)".contains(text.contains("99") ? "format 99" : "≥ 0.4.0 (format 2)"), "\(error)")
        #expect(throws: StoreError.self) { try Library.create(at: root) }
        #expect(try snapshot() == before)
    }

    @Test("a newer format that older readers may read is read here, but not written into")
    func newerReadableNotWritable() throws {
        let library = try Library.create(at: root)
        _ = try library.createNote(title: "Written before")
        try Data(#"{"format":2,"minReader":1,"minReaderVersion":"0.1.0"}"#.utf8).write(to: marker)
        let before = try snapshot()
        let newer = try Library(opening: root)
        #expect(try newer.notes().map(\.note.title) == ["Written before"])
        let error = try #require(throws: StoreError.self) { try newer.createNote(title: "Not here") }
        #expect("\(error)".contains("format 2") && "\(error)".contains("newer than this Inkwell writes"), "\(error)")
        #expect(throws: StoreError.self) { try newer.createNotebook(try NotebookPath("Work")) }
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
