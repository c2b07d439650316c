import Foundation
import InkCore
import InkText
import Testing
@testable import InkStore

@Suite("Typed text in the library")
struct TypedTextStoreTests {
    let root = temporaryFolder()

    /// Every file under the library with its bytes (the lock aside): equal snapshots, nothing changed.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true, url.lastPathComponent != ".lock"
            else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("the text is a plain body.md beside note.json, and note.json does not hold it")
    func storedAsFile() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Plan")
        #expect(try library.typedText(of: stored).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: library.typedTextURL(of: stored).path))
        let change = try library.setTypedText("# Plan\n- [ ] call Sam\n", of: stored.note.id)
        let file = stored.folder.appendingPathComponent("body.md")
        #expect(try String(contentsOf: file, encoding: .utf8) == "# Plan\n- [ ] call Sam\n")
        #expect(!(try String(contentsOf: stored.folder.appendingPathComponent("note.json"), encoding: .utf8)).contains("call Sam"))
        #expect(change.stored.note.modified >= stored.note.modified)
        // Another process (a new Library) reads the same text.
        let reopened = try Library(opening: root)
        #expect(try reopened.typedText(of: reopened.note(matching: "Plan")).text == "# Plan\n- [ ] call Sam\n")
        // An empty text removes the file.
        try library.setTypedText("", of: stored.note.id)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try library.typedText(of: stored).isEmpty)
    }

    @Test("appending adds a line; toggling a checkbox saves at once and survives reopening")
    func appendAndToggle() throws {
        let library = try Library.create(at: root)
        let id = try library.createNote(title: "Groceries").note.id
        try library.setTypedText("- [ ] milk", of: id)
        try library.appendTypedText("- [ ] eggs\n", to: id)
        let (change, toggle) = try library.toggleCheckbox(line: 2, of: id)
        #expect(toggle.before == .open && toggle.after == .done)
        #expect(change.text.text == "- [ ] milk\n- [x] eggs\n")
        let reopened = try Library(opening: root)
        let stored = try reopened.note(matching: "Groceries")
        #expect(try String(contentsOf: reopened.typedTextURL(of: stored), encoding: .utf8) == "- [ ] milk\n- [x] eggs\n")
        #expect(try reopened.typedText(of: stored).lines[1].kind == .task(.done))
    }

    @Test("a line that is not a checkbox is refused and nothing changes")
    func refusedToggle() throws {
        let library = try Library.create(at: root)
        let id = try library.createNote(title: "List").note.id
        try library.setTypedText("# List\n- [ ] one\n", of: id)
        let before = try snapshot()
        for line in [1, 3, 0] {
            let error = #expect(throws: StoreError.self) { try library.toggleCheckbox(line: line, of: id) }
            #expect("\(error!)".contains("\"List\""), "\(error!)")
        }
        #expect(try snapshot() == before)
    }

    @Test("typed hashtags become tags, but not tags removed by hand")
    func hashtags() throws {
        let library = try Library.create(at: root)
        let id = try library.createNote(title: "Ideas").note.id
        try library.updateNote(id) { $0.removedTags = [Tag("draft")!] }
        let change = try library.setTypedText("Thoughts #apps #draft\n`#notatag`\n", of: id)
        #expect(change.addedTags == [Tag("apps")!])
        #expect(change.stored.note.tags == [Tag("apps")!])
        #expect(try library.note(matching: "Ideas").note.tags == [Tag("apps")!])
        // Removing the hashtag from the text leaves the tag (as with recognised hashtags).
        try library.setTypedText("Thoughts\n", of: id)
        #expect(try library.note(matching: "Ideas").note.tags == [Tag("apps")!])
    }

    @Test("deleting, restoring and moving a note keep its text")
    func trashKeepsText() throws {
        let library = try Library.create(at: root)
        let id = try library.createNote(title: "Keep").note.id
        try library.setTypedText("kept words\n", of: id)
        let item = try library.deleteNote(id)
        try library.restore(item.id)
        #expect(try library.typedText(of: library.note(matching: "Keep")).text == "kept words\n")
        try library.moveNote(id, to: try NotebookPath("Archive"))
        try library.deleteNotebook(try NotebookPath("Archive"))
        try library.restore("Archive")
        #expect(try library.typedText(of: library.note(matching: "Keep")).text == "kept words\n")
    }

    @Test("check reports typed text that is not UTF-8, naming the file and byte; reading it throws the same")
    func notUTF8OnDisk() throws {
        let library = try Library.create(at: root)
        let stored = try library.createNote(title: "Broken")
        _ = try library.createNote(title: "Fine")
        try Data([0x6F, 0x6B, 0x0A, 0xC3, 0x28]).write(to: library.typedTextURL(of: stored))
        let reports = try library.checkTypedTexts()
        #expect(reports.map(\.note) == [stored.note.id])
        #expect(reports.first?.problem.contains("not valid UTF-8 at byte 3") == true)
        let error = #expect(throws: StoreError.self) { try library.typedText(of: stored) }
        #expect("\(error!)".contains("body.md: not valid UTF-8 at byte 3"))
        // Changing it is refused too, and leaves the bytes alone.
        let before = try snapshot()
        #expect(throws: StoreError.self) { try library.appendTypedText("more", to: stored.note.id) }
        #expect(try snapshot() == before)
    }
}
