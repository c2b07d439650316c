import Foundation
import InkCore

/// A trash entry whose `trash.json` cannot be read: not listed, not emptied, named by `check`.
public struct DamagedTrashEntry: Sendable, Equatable {
    public var folder: URL
    public var reason: String
}

/// Something deleted, kept in the trash until restored or the trash is emptied.
public struct TrashItem: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case note, notebook }
    /// The trash entry's own id (not the note's).
    public var id: String
    public var kind: Kind
    /// The note's title or the notebook's name.
    public var name: String
    /// For a note, its id; for a notebook, nil.
    public var noteID: NoteID?
    /// The notebook it was in (for a notebook: its parent).
    public var notebook: NotebookPath
    public var deletedAt: Date
    public var noteCount: Int
    /// The folder's name inside the trash entry.
    var folderName: String
    /// For a note, where it stood in its notebook's manual order (nil when it had no place).
    var place: TrashPlace?
    /// For the pages an update from a source retired (``Library/applyUpdate(_:)``): which note, as
    /// of which source, and which pages, so that the update run again after a kill finds this entry
    /// rather than trashing the same pages twice.
    var retiredBy: String?
}

extension Library {
    static let trashInfoName = "trash.json"

    /// What the trash holds, newest first. An entry whose note or notebook is not in it (a delete
    /// or a restore interrupted between its two steps) holds nothing: it is a leftover, not listed.
    /// An entry whose `trash.json` cannot be read is left out (``trashListing()`` names it).
    public func trashItems() throws -> [TrashItem] {
        try trashListing().items
    }

    /// The notes in the trash that remember a source (``Note/origin``), with their trash entries: an
    /// import of that source again leaves them there rather than bringing the note back as a new one.
    public func trashedOrigins() throws -> [(item: TrashItem, origin: NoteOrigin)] {
        try trashItems().compactMap { item in
            guard item.kind == .note else { return nil }
            let file = trashFolder.appendingPathComponent(item.id).appendingPathComponent(item.folderName).appendingPathComponent("note.json")
            guard let origin = (try? JSONFile.read(NoteDocument.self, from: file))?.note.origin else { return nil }
            return (item, origin)
        }
    }

    /// The trash as ``trashItems()`` lists it, with the entries whose `trash.json` cannot be read
    /// (or names a folder outside its entry) and why: `check` reports them, `check --repair` rebuilds them.
    func trashListing() throws -> (items: [TrashItem], damaged: [DamagedTrashEntry]) {
        var items: [TrashItem] = [], damaged: [DamagedTrashEntry] = []
        for entry in try subfolders(of: trashFolder) {
            let folder = trashFolder.appendingPathComponent(entry)
            let info = folder.appendingPathComponent(Library.trashInfoName)
            guard FileManager.default.fileExists(atPath: info.path) else { continue }
            let item: TrashItem
            do {
                item = try JSONFile.read(TrashItem.self, from: info)
                guard item.id == entry, !item.folderName.contains("/"), !item.folderName.hasPrefix(".") else {
                    throw StoreError.badMetadata(info, "it names another entry or a folder outside it (\"\(item.id)\", \"\(item.folderName)\")")
                }
            } catch {
                damaged.append(DamagedTrashEntry(folder: folder, reason: "\(error)"))
                continue
            }
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(item.folderName).path) else { continue }
            items.append(item)
        }
        return (items.sorted { ($0.deletedAt, $0.id) > ($1.deletedAt, $1.id) }, damaged)
    }

    /// Trash entries that hold no note or notebook: a delete interrupted before its folder moved in,
    /// or a restore interrupted after it moved out.
    func emptyTrashEntries() -> [URL] {
        ((try? subfolders(of: trashFolder)) ?? []).compactMap { entry in
            let folder = trashFolder.appendingPathComponent(entry)
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return contents.contains { $0 != Library.trashInfoName && !$0.hasPrefix(".") } ? nil : folder
        }
    }

    /// Puts a trashed note or notebook back where it was (recreating missing notebooks). A notebook whose
    /// name was taken meanwhile comes back as "NAME (restored)". A note returns to its place in the
    /// notebook's manual order while a neighbour it had is still placed there (see `restorePlace`).
    @discardableResult
    public func restore(_ reference: String) throws -> TrashItem {
        try withWriteLock {
            let items = try trashItems()
            let matches = items.filter {
                $0.id == reference || $0.noteID?.rawValue == reference
                    || (reference.count >= 4 && ($0.id.hasPrefix(reference) || $0.noteID?.rawValue.hasPrefix(reference) == true))
                    || $0.name == reference
            }
            guard let item = matches.first else { throw StoreError.noSuchTrashItem(reference) }
            guard matches.count == 1 else {
                throw StoreError.invalid("\"\(reference)\" matches \(matches.count) trash entries; use an entry id: "
                    + matches.map(\.id).joined(separator: ", "))
            }
            let entry = trashFolder.appendingPathComponent(item.id, isDirectory: true)
            let source = entry.appendingPathComponent(item.folderName, isDirectory: true)
            var destinationParent = folder(of: item.notebook)
            var destinationName = item.folderName
            if item.kind == .notebook {
                var candidate = item.name
                var attempt = 1
                while FileManager.default.fileExists(atPath: destinationParent.appendingPathComponent(candidate).path) {
                    candidate = attempt == 1 ? "\(item.name) (restored)" : "\(item.name) (restored \(attempt))"
                    attempt += 1
                }
                destinationName = candidate
            }
            if !FileManager.default.fileExists(atPath: destinationParent.path) {
                try makeFolders(destinationParent)
            }
            destinationParent.appendPathComponent(destinationName, isDirectory: true)
            try restoreJournals(from: entry)
            try DurableFile.move(source, to: destinationParent)
            try? FileManager.default.removeItem(at: entry)
            if let place = item.place, let id = item.noteID { try restorePlace(place, of: id, in: item.notebook) }
            return item
        }
    }

    /// Deletes everything in the trash for good. Returns how many entries went.
    ///
    /// Each entry is first renamed out of the trash's sight (`.emptying-ID`, one atomic step) and
    /// then removed: a command killed half-way through a removal leaves a hidden folder that the
    /// next `trash empty` (and `check`'s leftovers) finishes, never an entry missing its `trash.json`
    /// that nothing lists and nothing removes. Entries whose `trash.json` cannot be read stay. A
    /// trashed note's journal goes with it (in its entry, or still in the journal folder when its
    /// delete was killed between its two steps). A note a server still has open (deleted with
    /// `force`) is refused unless `force`.
    @discardableResult
    public func emptyTrash(force: Bool = false) throws -> Int {
        try withWriteLock {
            let items = try trashItems()
            for item in items {
                if let note = item.noteID, item.kind == .note { try requireNotOpen(note, title: item.name, force: force) }
            }
            for item in items {
                // A journal its delete left in the journal folder goes with the note, and its lease file.
                guard let note = item.noteID, item.kind == .note else { continue }
                do { _ = try locateNote(note) } catch StoreError.noSuchNote {
                    unlink(journalURL(of: note).path)
                    unlink(leaseURL(of: note).path)
                } catch {}
                let entry = trashFolder.appendingPathComponent(item.id, isDirectory: true)
                try DurableFile.move(entry, to: trashFolder.appendingPathComponent(Library.emptyingPrefix + item.id, isDirectory: true))
            }
            for leftover in emptyingTrashEntries() {
                do {
                    try FileManager.default.removeItem(at: leftover)
                } catch {
                    throw StoreError.io(leftover, "cannot remove: \(error.localizedDescription)")
                }
            }
            return items.count
        }
    }

    /// The name an entry takes while `emptyTrash()` removes it.
    static let emptyingPrefix = ".emptying-"

    /// Entries an emptying of the trash renamed and had not yet removed.
    func emptyingTrashEntries() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: trashFolder.path)) ?? []).sorted()
            .filter { $0.hasPrefix(Library.emptyingPrefix) }
            .map { trashFolder.appendingPathComponent($0, isDirectory: true) }
    }

    /// Moves `folder` into a new trash entry, then the journals of `journals` (the notes in it) beside
    /// it, so no stroke a server confirmed is left behind: killed between the two, a journal stays
    /// where it was, matched again by a restore and removed by ``emptyTrash(force:)``. The caller
    /// holds the lock.
    func moveToTrash(_ folder: URL, kind: TrashItem.Kind, name: String, notebook: NotebookPath, noteCount: Int,
                     place: TrashPlace? = nil, journals: [NoteID] = [], retiredBy: String? = nil) throws -> TrashItem {
        let entryID = NoteID.random().rawValue
        let entry = trashFolder.appendingPathComponent(entryID, isDirectory: true)
        try makeFolders(entry)
        let noteID = kind == .note ? NoteID(rawValue: String(folder.lastPathComponent.dropLast(Library.noteSuffix.count))) : nil
        let item = TrashItem(id: entryID, kind: kind, name: name, noteID: noteID, notebook: notebook,
                             deletedAt: Date().wholeSeconds, noteCount: noteCount, folderName: folder.lastPathComponent,
                             place: place, retiredBy: retiredBy)
        try JSONFile.write(item, to: entry.appendingPathComponent(Library.trashInfoName))
        try DurableFile.move(folder, to: entry.appendingPathComponent(folder.lastPathComponent, isDirectory: true))
        for note in journals where FileManager.default.fileExists(atPath: journalURL(of: note).path) {
            try DurableFile.move(journalURL(of: note), to: entry.appendingPathComponent(Library.trashedJournalPrefix + note.rawValue))
        }
        return item
    }

    /// The name a note's journal has inside a trash entry (hidden, so an entry holding only journals
    /// counts as empty: ``emptyTrashEntries()``).
    static let trashedJournalPrefix = ".journal-"

    /// Moves the journals a trash entry holds back to the library's journal folder (before its
    /// folder leaves the entry, so a restore killed half-way leaves nothing unmatched).
    private func restoreJournals(from entry: URL) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: entry.path)) ?? []
        for name in names where name.hasPrefix(Library.trashedJournalPrefix) {
            let note = NoteID(rawValue: String(name.dropFirst(Library.trashedJournalPrefix.count)))
            guard NoteID.isWellFormed(note.rawValue) else { continue }
            try FileManager.default.createDirectory(at: journalFolder, withIntermediateDirectories: true)
            try DurableFile.move(entry.appendingPathComponent(name), to: journalURL(of: note))
        }
    }
}
