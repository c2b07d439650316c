import Foundation
import InkCore
import InkText

/// One thing `check --repair` did, and what it had to guess.
public struct Repair: Sendable, Equatable {
    /// The note folder it concerns (as it is after the repair).
    public var folder: URL
    /// What was done, for a person: "gave the younger copy of 3k… the id 8d2…", "rebuilt note.json …".
    public var action: String
    /// What was guessed rather than known (a title, the order of the pages), empty when nothing was.
    public var guessed: [String]
}

extension Library {
    /// Repairs what ``problems()`` finds and can be repaired without losing anything:
    /// - a note id found in several folders: every copy but the one changed least recently keeps its
    ///   strokes and text under an id of its own (its folder renamed, then its `note.json` rewritten;
    ///   a repair interrupted between the two is finished by the next one);
    /// - a note folder whose `note.json` cannot be read: a new one is written from the folder's pages
    ///   and typed text (the old file kept beside it as `note.json.damaged`), saying what was guessed;
    /// - a trash entry whose `trash.json` cannot be read: a new one from what the entry holds (a note
    ///   is restored to the Inbox, a notebook to the library's top), the old one kept beside it.
    /// Symbolic links are left alone (they are reported, never followed). Returns what was done.
    public func repair() throws -> [Repair] {
        try withWriteLock {
            let problems = try problems()
            var done: [Repair] = []
            for (id, folders) in problems.duplicates.sorted(by: { $0.key < $1.key }) {
                done += try separateCopies(of: id, in: folders)
            }
            for damaged in problems.damaged {
                done.append(try rebuildMetadata(damaged))
            }
            for damaged in problems.damagedTrash {
                if let repair = try rebuildTrashInfo(damaged) { done.append(repair) }
            }
            return done
        }
    }

    /// Gives every copy of `id` but one its own id. The copy kept is the one whose folder already has
    /// the id's name and was changed least recently.
    private func separateCopies(of id: NoteID, in folders: [URL]) throws -> [Repair] {
        let copies = try folders.map { folder in
            (folder: folder, note: try JSONFile.read(NoteDocument.self, from: folder.appendingPathComponent("note.json")).note)
        }.sorted { a, b in
            let named = (a.folder.lastPathComponent == Library.noteFolderName(id), b.folder.lastPathComponent == Library.noteFolderName(id))
            if named.0 != named.1 { return named.0 }
            return (a.note.modified, a.folder.path) < (b.note.modified, b.folder.path)
        }
        var done: [Repair] = []
        for copy in copies.dropFirst() {
            // A folder renamed by an interrupted repair already names the copy's new id.
            let folderName = copy.folder.deletingPathExtension().lastPathComponent
            let newID = folderName != id.rawValue && NoteID.isWellFormed(folderName) ? NoteID(rawValue: folderName) : NoteID.random()
            let target = copy.folder.deletingLastPathComponent().appendingPathComponent(Library.noteFolderName(newID), isDirectory: true)
            if target != copy.folder { try DurableFile.move(copy.folder, to: target) }
            var note = copy.note
            note.id = newID
            try NoteFolderWriter(folder: target).writeMetadata(note)
            done.append(Repair(folder: target, action: "note \(id) was in \(copies.count) folders: the copy \"\(note.title)\" "
                + "changed \(note.modified) now has the id \(newID)", guessed: []))
        }
        return done
    }

    /// Writes a new `note.json` for a note folder whose metadata cannot be read, from what the folder
    /// holds: the page files (in the order they were last written) and the typed text.
    private func rebuildMetadata(_ damaged: DamagedNote) throws -> Repair {
        let folder = damaged.folder
        let metadata = folder.appendingPathComponent("note.json")
        var guessed: [String] = []
        let folderName = folder.deletingPathExtension().lastPathComponent
        var id = NoteID(rawValue: folderName)
        var target = folder
        if !NoteID.isWellFormed(folderName) {
            id = .random()
            target = folder.deletingLastPathComponent().appendingPathComponent(Library.noteFolderName(id), isDirectory: true)
            guessed.append("a new id, \(id) (the folder's name is not one)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let pages = names.filter { $0.hasSuffix(Library.pageSuffix) }
            .map { (name: $0, id: PageID(rawValue: String($0.dropLast(Library.pageSuffix.count)))) }
            .filter { PageID.isWellFormed($0.id.rawValue) }
            .map { (id: $0.id, written: Library.modificationDate(folder.appendingPathComponent($0.name)) ?? .distantPast) }
            .sorted { ($0.written, $0.id) < ($1.written, $1.id) }
        if pages.count > 1 { guessed.append("the order of the \(pages.count) pages (the order they were last written)") }
        let body = (try? String(contentsOf: folder.appendingPathComponent(Library.typedTextName), encoding: .utf8)) ?? ""
        let text = TypedText(body)
        let firstLine = body.split(separator: "\n").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "# ").union(.whitespaces)) }
        let title = (try? Library.validTitle(firstLine ?? "")) ?? "Recovered note \(id)"
        guessed.append("the title \"\(title)\"")
        let dates = pages.map(\.written).filter { $0 != .distantPast }
        let created = (dates.min() ?? Date()).wholeSeconds
        guessed.append("the dates (from the page files)")
        var note = Note(id: id, title: title, created: created, tags: Set(text.hashtags), pages: pages.map(\.id), source: "repaired")
        note.modified = (dates.max() ?? created).wholeSeconds
        if !text.hashtags.isEmpty { guessed.append("the tags (the typed text's hashtags; recognised ones come back with `inkwell index`)") }
        if FileManager.default.fileExists(atPath: metadata.path) {
            try DurableFile.move(metadata, to: folder.appendingPathComponent("note.json.damaged"))
        }
        if target != folder { try DurableFile.move(folder, to: target) }
        try NoteFolderWriter(folder: target).writeMetadata(note)
        return Repair(folder: target, action: "rebuilt note.json of \"\(title)\" (\(pages.count) pages) from its folder; "
            + "the unreadable one is kept as note.json.damaged (\(damaged.reason))", guessed: guessed)
    }

    /// Writes a new `trash.json` for a trash entry whose own cannot be read, from the one note or
    /// notebook folder the entry holds; nil when it holds none (nothing to restore).
    private func rebuildTrashInfo(_ damaged: DamagedTrashEntry) throws -> Repair? {
        let entry = damaged.folder
        let contents = ((try? FileManager.default.contentsOfDirectory(atPath: entry.path)) ?? [])
            .filter { !$0.hasPrefix(".") && Library.isFolder(entry.appendingPathComponent($0)) }.sorted()
        guard let folderName = contents.first else { return nil }
        let folder = entry.appendingPathComponent(folderName, isDirectory: true)
        var guessed = ["the date it was deleted (the entry folder's)"]
        let item: TrashItem
        let deletedAt = (Library.modificationDate(entry) ?? Date()).wholeSeconds
        if folderName.hasSuffix(Library.noteSuffix) {
            let note = try? JSONFile.read(NoteDocument.self, from: folder.appendingPathComponent("note.json")).note
            let id = NoteID(rawValue: String(folderName.dropLast(Library.noteSuffix.count)))
            guessed.append("the notebook it comes back to (the Inbox)")
            if note == nil { guessed.append("its name (the note's own metadata cannot be read either)") }
            item = TrashItem(id: entry.lastPathComponent, kind: .note, name: note?.title ?? "Recovered note \(id)", noteID: id,
                             notebook: .inbox, deletedAt: deletedAt, noteCount: 1, folderName: folderName, place: nil)
        } else {
            guessed.append("the notebook it comes back to (the library's top)")
            let notes = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(Library.noteSuffix) }
            item = TrashItem(id: entry.lastPathComponent, kind: .notebook, name: folderName, noteID: nil, notebook: .root,
                             deletedAt: deletedAt, noteCount: notes.count, folderName: folderName, place: nil)
        }
        let info = entry.appendingPathComponent(Library.trashInfoName)
        try DurableFile.move(info, to: entry.appendingPathComponent(Library.trashInfoName + ".damaged"))
        try JSONFile.write(item, to: info)
        return Repair(folder: entry, action: "rebuilt trash.json of the trashed \(item.kind.rawValue) \"\(item.name)\"; "
            + "the unreadable one is kept as trash.json.damaged (\(damaged.reason))", guessed: guessed)
    }

    /// When the file at `url` was last written.
    static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
